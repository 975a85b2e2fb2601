"""`ingboard sim` end to end in headless Chromium (Debian's, driven by playwright-core from
npm through tests/host/sim_browser.mjs): a short game played by clicking, with a capture, passes
and the count; the screenshot and the downloaded session log are checked."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from ingboard.core.session import read_text
from ingboard.core.tracker import track
from PIL import Image

from host_tools import ROOT

SCRIPT = os.path.join(ROOT, "tests", "host", "sim_browser.mjs")
HAVE = os.path.exists("/usr/bin/chromium") and os.path.isdir(
    os.path.join(ROOT, "node_modules", "playwright-core")
)
pytestmark = pytest.mark.skipif(not HAVE, reason="chromium or playwright-core missing: make setup")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server():
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "sim", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = "http://127.0.0.1:%d/" % port
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "api/state", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_short_game_by_clicking(server, tmp_path):
    done = subprocess.run(
        [shutil.which("node") or "node", SCRIPT, server, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    lines = seen["events"]
    assert any(re.search(r"15 B A3 captures B3$", line) for line in lines)
    assert sum(1 for line in lines if line.endswith(" pass")) == 4
    count = next(line for line in lines if "count:" in line)
    result = count.split("-> ")[1].split()[0]
    # Black 8 stones + 7 points, White 6 + 4, komi 8: White wins by 3 (Ing fill-in count).
    assert "count: Black 15, White 10, komi 8 -> W+3" in count
    assert seen["status"] == "Result: W+3"
    assert not [line for line in lines if "ALERT" in line]
    # The downloaded session log replays through the firmware to the same game.
    events = []
    tracker = track(read_text((tmp_path / "session.log").read_text()), events.append)
    assert tracker.game.result == result
    assert [e["point"] for e in events if e["type"] == "move"][-3:] == ["B2", "E1", "A3"]
    # The screenshot shows the final board: black C3, white D3, B3 empty again, E5 empty.
    shot = Image.open(tmp_path / "board.png").convert("RGB")
    px = {p: shot.getpixel(tuple(xy)) for p, xy in seen["boxes"].items()}
    assert sum(px["C3"]) < 100
    assert sum(px["D3"]) > 700
    assert px["B3"] == px["E5"] and 400 < sum(px["B3"]) < 700  # the wooden board
    # Both clock faces are the firmware's 128x64 panels at scale 2, lit pixels on black.
    assert seen["clocks"] == [[256, 128], [256, 128]]
    x, y, w, h = seen["clockBox"]
    face = shot.crop((x + 6, y + 6, x + w - 6, y + h - 6)).convert("L")
    lit = sum(1 for v in face.get_flattened_data() if v > 200)
    assert 0.02 < lit / (face.size[0] * face.size[1]) < 0.5

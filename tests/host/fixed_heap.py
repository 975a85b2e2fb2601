"""A long game through the device app's game path in a fixed, Pico-sized MicroPython heap
(issue 20), shared by the memory test and `make bench`.

The firmware is deployed as `ingboard flash --romfs` deploys it - the .mpy files in a ROMFS
image, run in place from flash, which is how the app fits the Pico (docs/flashing.md) - into a
WebAssembly MicroPython whose heap cannot grow (host_tools/mp/fixed_heap.mjs), with as much
free at start as the Pico has after boot less the code's own heap. The session log is read line
by line from the file system, and each
record goes through `App.step` (tracker, session log, journal with its compaction, events
encoded as the host link would send them, the SGF when the game ends) after `App.tick` to the
record's time, as the game task does. Nobody calls gc.collect(): the driver collects only where
the board would (an allocation that finds no room), see fixed_heap.mjs.
"""

import json
import os
import subprocess
import tempfile

from host_tools import ROOT
from host_tools import micropython as mp

FIXED_HEAP_MJS = os.path.join(ROOT, "host_tools", "mp", "fixed_heap.mjs")
# The Pico (RP2040) with MicroPython v1.28: GC heap 245,888 B, of which ~240 KB free after
# boot (measured on the device twin, ../shared/mcu/README.md).
PICO_FREE_AT_BOOT = 240 * 1024
HEAPSIZE = 1024 * 1024  # for the imports' garbage; the driver's ballast takes the excess
# The driver collects before a step when less than this is free (a step allocates at most
# ~10 KB; the figure max_step says how much).
MARGIN = 16 * 1024

# Leaves first, so that each import's own garbage is collected before the next one.
MODULES = (
    "ingrules.board",
    "ingrules.chunked",
    "ingrules.ply_store",
    "ingrules.rulesets",
    "ingrules.ko",
    "ingrules.game",
    "ingrules.scoring",
    "ingrules.counting",
    "ingboard.clock.clock",
    "ingboard.clock.clock_sgf",
    "ingboard.bowls.bowls",
    "ingboard.alerts",
    "ingboard.records.session",
    "ingrules.sgf",
    "ingboard.sensing.classifier",
    "ingboard.tracking.tracker",
    "ingboard.records.journal",
    "ingboard.faces.clock_face",
    "ingboard.cues",
    "ingboard.link.protocol",
    "ingboard.link.commands",
    "ingboard.records.store",
    "ingboard.gc_policy",
    "ingboard.app.cpu_meter",
    "ingboard.app.inputs",
    "ingboard.app.recorder",
    "ingboard.app.app",
)
IMPORTS = (
    ["import gc, json"]
    + ["import " + m for m in MODULES]
    + [
        """
from ingboard.app import app as app_module
from ingboard.app import inputs
from ingboard.link import commands
from ingboard.records.session_read import SessionReader
from ingboard.records.store import RecordsStore
"""
    ]
)

SETUP = """
KINDS = {"scan": inputs.SCAN, "press": inputs.PRESS,
         "button": inputs.BUTTON, "bowl": inputs.BOWL}
NOW = [0]
STATE = {"moves": 0, "passes": 0, "counts": [], "bowls": [], "ends": [], "alerts": 0,
         "records": 0, "lines": 0}
_file = open("/game/session.log")
_reader = SessionReader()
_config = None
while _config is None:
    _rec = _reader.feed(_file.readline())
    if _rec is not None and _rec.kind == "config":
        _config = _rec.payload
APP = app_module.App({"grid": None, "classifier": None}, RecordsStore("/store"),
                     lambda: NOW[0], lambda a, b: a - b, None, config=_config)
del _rec, _config

def _drain(app):
    # What the link task does with the events: one JSON line each, out to the host.
    message = app.outputs.get()
    while message is not None:
        commands.Protocol.line(message)
        kind = message["type"]
        if kind == "move":
            STATE["moves"] += 1
        elif kind == "pass":
            STATE["passes"] += 1
        elif kind == "count":
            STATE["counts"].append([message["black"], message["white"], message["result"]])
        elif kind == "bowls":
            STATE["bowls"].append([message["phase"], message["B"], message["W"]])
        elif kind == "end":
            STATE["ends"].append([message["result"], message["reason"]])
        elif kind == "alert":
            STATE["alerts"] += 1
        message = app.outputs.get()

def step():
    if STOP_AT_PAUSE and APP.tracker.game.phase != "play":
        return False
    line = _file.readline()
    if not line:
        return False
    STATE["lines"] += 1
    record = _reader.feed(line)
    if record is None or record.kind not in KINDS:
        return True
    STATE["records"] += 1
    t = record.t_ms
    NOW[0] = t
    APP.tick(t)
    _drain(APP)
    payload = record.payload
    if record.kind == "bowl":
        APP.step((KINDS["bowl"], t, payload[0], payload[1]))
    else:
        APP.step((KINDS[record.kind], t, payload, None))
    _drain(APP)
    APP.background()  # as the game task does once its queue is empty
    # As the scan task does after a scan (gc_policy).
    APP.collector.scanned(t)
    return True
"""

FINAL = """
_game = APP.tracker.game
try:
    _sgf = open("/store/games/0001.sgf").read()
except OSError:
    _sgf = None
RESULT = json.dumps({"plies": len(_game.plies), "phase": _game.phase, "result": _game.result,
                     "sgf": _sgf, "state": STATE})
"""


def romfs_image(firmware_mpy):
    """The ROMFS image of the compiled firmware (mpremote's builder, as `ingboard flash --romfs`
    makes it)."""
    import contextlib
    import io

    from mpremote.romfs import make_romfs

    with contextlib.redirect_stdout(io.StringIO()):  # it prints the tree
        return make_romfs(firmware_mpy, mpy_cross=False)


def run(
    log_text,
    firmware_mpy,
    heapsize=HEAPSIZE,
    free_at_boot=PICO_FREE_AT_BOOT,
    timeout=900,
    progress=0,
    stop_at_pause=True,
):
    """Play `log_text` in the fixed heap with the .mpy firmware in `firmware_mpy`; the driver's
    result (see fixed_heap.mjs) with "python" holding the game's summary.

    stop_at_pause: stop when play pauses after the game's passes, before the count - which
    allocates ~120 KB in one call (bench heap_count_peak), more than this port can hold without
    a collection inside that call (the board collects there; the twin's game covers it)."""
    mp._check_available()
    with tempfile.TemporaryDirectory(prefix="ingboard-fixed-heap-") as tmp:
        game_dir = os.path.join(tmp, "game")
        os.mkdir(game_dir)
        with open(os.path.join(game_dir, "session.log"), "w") as f:
            f.write(log_text)
        romfs_path = os.path.join(tmp, "firmware.romfs")
        with open(romfs_path, "wb") as f:
            f.write(romfs_image(firmware_mpy))
        job_path = os.path.join(tmp, "job.json")
        result_path = os.path.join(tmp, "result.json")
        with open(job_path, "w") as f:
            json.dump(
                {
                    "mounts": [[game_dir, "/game"]],
                    "sys_path": ["/rom", "/rom/rules"],
                    "romfs": romfs_path,
                    "heapsize": heapsize,
                    "free_at_boot": free_at_boot,
                    "imports": IMPORTS,
                    "setup": "STOP_AT_PAUSE = %s\n" % stop_at_pause + SETUP,
                    "margin": MARGIN,
                    "final": FINAL,
                    "result_path": result_path,
                    "progress": progress,
                },
                f,
            )
        proc = subprocess.run(
            ["node", FIXED_HEAP_MJS, job_path],
            stdout=subprocess.PIPE,
            stderr=None if progress else subprocess.PIPE,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
        result = None
        if os.path.exists(result_path):
            with open(result_path) as f:
                result = json.loads(f.read() or "null")
    if proc.returncode != 0 or result is None:
        raise RuntimeError(
            "fixed-heap run failed (exit %d):\n%s%s"
            % (proc.returncode, proc.stdout[-3000:], (proc.stderr or "")[-3000:])
        )
    return result

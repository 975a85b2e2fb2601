"""MicroPython heap over a 300-move 19×19 game through core + tracker + clock.

The game (bench/games.py heap_game) is turned into a session log at "typical" noise by
host_tools.simulate and replayed inside MicroPython from its file system, line by line, through
the firmware's own session reader and Tracker, stepped the way `session_replay.track` replays a log
(ticks due before each record, then the record), as the board would replay a log from flash.
Each record is one step called from JS (bench/mp_steps.mjs), with gc.collect() between steps:
in this port a collection frees nothing inside the Python call that made the garbage. Figures:

- code heap: gc.mem_alloc() after importing the modules (and gc.collect()) minus before;
- data heap high-water: the highest gc.mem_alloc() seen minus its value right after the imports
  and gc.collect(). The heap is sampled after every log record is processed, with a
  gc.collect() before each record: each sample is what is live plus everything that record's
  processing allocated, garbage included: within a step nothing is collected, so that is the
  step's high-water. The replay's own reader, file and current record are inside the figure;
- live data at the end (after a collection), reported without a goal.

What is imported is what `ingboard flash` installs on the stock image: the firmware compiled by
mpy-cross (host_tools.firmware_build) with flash.LITTLEFS_OPT (-O3, as flash compiles for the
board's file system, where the loaded code is heap), loaded from .mpy files (the run checks
that the tracker came from one). The goals apply to that, the device-faithful figure.
`heap_code_source` is the same imports from the .py sources (compiled by MicroPython itself, as
the tests run them), reported without a goal: this port keeps module and class docstrings
(`__doc__`) when it compiles source, which mpy-cross drops, so it is larger than what the
device holds.

When the game is paused after its closing passes, the replay ends with both players agreeing
(the "agree" button, one more step after the last record): the tracker counts the game. That
step is sampled on its own, `heap_count_peak` (no goal): like every step it holds all it
allocated, garbage included, because this port collects nothing inside the call; any module
imported only for the count would load there. heap_data_peak is over the log records.

Without firmware/ingboard/tracking/tracker.py (not built yet) the same game is played through
core + clock only (Game.play / pass_move and Clock.moved at each clock press of the simulated
session) and the tracker-dependent figures are reported as MISS.
"""

import json
import os
import tempfile

from bench import KB, BenchError, Figure, games
from host_tools import FIRMWARE
from host_tools import micropython as mp

GOAL_DATA = 48 * KB
GOAL_CODE = 64 * KB
SEED = 1
PLIES = games.HEAP_PLIES
# `python -m bench --tiny` (the guard in make test): a short game, the same figures.
TINY = {"PLIES": 24}

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS_MJS = os.path.join(HERE, "mp_steps.mjs")

# Harness, defined before the first measurement (it imports nothing of the firmware itself).
_HARNESS = """
import gc, json

PEAK = [0]
COUNT_PEAK = [0]
COUNT = [0, 0]
STATE = {}

def collect():
    gc.collect()

def sample():
    m = gc.mem_alloc()
    if m > PEAK[0]:
        PEAK[0] = m
        STATE["peak_at"] = COUNT[0]
        STATE["peak_kind"] = STATE.get("kind")

def emit(events):
    for event in events:
        if event["type"] in ("move", "pass"):
            COUNT[1] += 1

def start_tracker():
    STATE["reader"] = session_read.SessionReader()
    STATE["file"] = open("/bench/game.log")
    STATE["tracker"] = None

def step_tracker():
    # One log record through the tracker, as session_replay.track() replays them: first the ticks
    # due before the record's time, then the record itself.
    line = STATE["file"].readline()
    if not line:
        tracker = STATE["tracker"]
        if STATE.get("agreed") is None:
            # First the last scan settles (as session_replay.track does); the agreement is its own
            # step, so that what the count loads and allocates is sampled on its own.
            for _ in range(8):
                due = tracker.next_deadline()
                if due is None:
                    break
                emit(tracker.tick(due))
            STATE["agreed"] = tracker.game.phase != "paused"
            sample()
            return True
        if not STATE["agreed"]:
            STATE["agreed"] = True
            emit(tracker.button(tracker.last_t + 1000, "agree"))
            COUNT_PEAK[0] = gc.mem_alloc()
            return True
        return False
    record = STATE["reader"].feed(line)
    if record is not None:
        COUNT[0] += 1
        kind = record.kind
        STATE["kind"] = kind
        if kind == "config":
            STATE["tracker"] = Tracker(record.payload)
        else:
            tracker = STATE["tracker"]
            t = record.t_ms
            while True:
                due = tracker.next_deadline()
                if due is None or due >= t:
                    break
                emit(tracker.tick(due))
            emit(tracker.take(record))
    sample()
    return True

def start_core_clock():
    STATE["file"] = open("/bench/moves.txt")
    STATE["game"] = Game(19, "ing1991")
    STATE["clock"] = Clock({"system": "ing-pp", "basic_s": 3600})
    STATE["clock"].start(0, 1)

def step_core_clock():
    line = STATE["file"].readline()
    if not line:
        sample()
        return False
    t, colour, point = line.split()
    t = int(t)
    color = 1 if colour == "B" else 2
    game = STATE["game"]
    clock = STATE["clock"]
    clock.advance(t)
    if point == "pass":
        game.pass_move(color)
    else:
        game.play(color, game.board.parse(point))
    clock.moved(t, color)
    COUNT[1] += 1
    sample()
    return True
"""

_IMPORTS_TRACKER = """
from ingboard.records import session_read
from ingboard.tracking.tracker import Tracker
"""
_IMPORTS_CORE_CLOCK = """
from ingboard.clock.clock import Clock
from ingrules.game import Game
"""
_MEASURE_BEFORE = "gc.collect()\nM0 = gc.mem_alloc()\n"
_MEASURE_AFTER = "gc.collect()\nM1 = gc.mem_alloc()\nPEAK[0] = M1\n"
_FINAL = """
gc.collect()
LIVE = gc.mem_alloc()
game = STATE["tracker"].game if STATE.get("tracker") else STATE["game"]
import sys
RESULT = json.dumps({"code": M1 - M0, "data": PEAK[0] - M1, "records": COUNT[0],
                     "count": (COUNT_PEAK[0] - M1) if COUNT_PEAK[0] else None,
                     "moves": COUNT[1], "plies": len(game.plies), "live_end": LIVE - M1,
                     "peak_at": STATE.get("peak_at"), "peak_kind": STATE.get("peak_kind"),
                     "phase": game.phase, "result": game.result,
                     "file": sys.modules["ingrules.game"].__file__})
"""
_FINAL_CODE_ONLY = """
import sys
RESULT = json.dumps({"code": M1 - M0, "file": sys.modules["ingrules.game"].__file__})
"""


def run_steps(scripts, loop, final, mounts, sys_path, heapsize=8 * 1024 * 1024, timeout=600):
    """Run bench/mp_steps.mjs: (exit status, stdout, stderr, RESULT or None)."""
    import shutil
    import subprocess

    if shutil.which("node") is None or not os.path.exists(mp.WASM_PACKAGE):
        raise BenchError("MicroPython (node + the WebAssembly package) missing: make setup")
    with tempfile.TemporaryDirectory(prefix="ingboard-bench-") as tmp:
        job_path = os.path.join(tmp, "job.json")
        result_path = os.path.join(tmp, "result.txt")
        with open(job_path, "w") as f:
            json.dump(
                {
                    "mounts": [list(m) for m in mounts],
                    "sys_path": list(sys_path),
                    "heapsize": heapsize,
                    "scripts": list(scripts),
                    "loop": loop,
                    "final": final,
                    "result_path": result_path,
                },
                f,
            )
        proc = subprocess.run(
            ["node", STEPS_MJS, job_path], capture_output=True, text=True, timeout=timeout
        )
        result = None
        if os.path.exists(result_path):
            with open(result_path) as f:
                result = f.read() or None
    return proc.returncode, proc.stdout, proc.stderr, result


def tracker_available(firmware=FIRMWARE):
    return os.path.exists(os.path.join(firmware, "ingboard", "tracking", "tracker.py"))


def session_for(moves, seed=SEED):
    """The simulated session (host_tools.simulate) of the heap game at typical noise."""
    from host_tools import simulate as sim

    game = sim.load_game(games.to_sgf(games.HEAP_SIZE, moves))
    return sim.simulate(game, "typical", seed)


def compile_mpy(out_dir):
    """The firmware as `ingboard flash` installs it on the stock image: every module through
    mpy-cross with the file system's options (flash.LITTLEFS_OPT)."""
    from host_tools import firmware_build
    from host_tools.commands import flash

    try:
        firmware_build.compile_firmware(out_dir=out_dir, extra_args=[flash.LITTLEFS_OPT])
    except firmware_build.CompileError as exc:
        raise BenchError(str(exc)) from None


def code_only(firmware, use_tracker):
    """The code heap of the imports alone, from the modules under `firmware`."""
    imports = _IMPORTS_TRACKER if use_tracker else _IMPORTS_CORE_CLOCK
    scripts = [_HARNESS, _MEASURE_BEFORE, imports, _MEASURE_AFTER]
    status, out, err, result = run_steps(
        scripts, False, _FINAL_CODE_ONLY, mounts=[(firmware, "/fw")], sys_path=["/fw", "/fw/rules"]
    )
    if status != 0 or not result:
        raise BenchError("imports under MicroPython failed:\n%s%s" % (out[-2000:], err[-2000:]))
    return json.loads(result)


def run(simulation, use_tracker, firmware=FIRMWARE):
    with tempfile.TemporaryDirectory(prefix="ingboard-bench-") as tmp:
        if use_tracker:
            with open(os.path.join(tmp, "game.log"), "w") as f:
                f.write(simulation.text())
            imports, kind = _IMPORTS_TRACKER, "tracker"
        else:
            with open(os.path.join(tmp, "moves.txt"), "w") as f:
                for m in simulation.moves:
                    f.write("%d %s %s\n" % (m["press_ms"], m["color"], m["point"] or "pass"))
            imports, kind = _IMPORTS_CORE_CLOCK, "core_clock"
        scripts = [
            _HARNESS + "step = step_%s\n" % kind,
            _MEASURE_BEFORE,
            imports,
            _MEASURE_AFTER + "start_%s()\n" % kind,
        ]
        status, out, err, result = run_steps(
            scripts,
            True,
            _FINAL,
            mounts=[(firmware, "/fw"), (tmp, "/bench")],
            sys_path=["/fw", "/fw/rules"],
        )
    if status != 0 or not result:
        raise BenchError("heap run under MicroPython failed:\n%s%s" % (out[-2000:], err[-2000:]))
    return json.loads(result)


def measure(corpus=None, log=print):
    corpus = corpus if corpus is not None else games.corpus_games()
    moves, description = games.heap_game(corpus, plies=PLIES)
    simulation = session_for(moves)
    use_tracker = tracker_available()
    with tempfile.TemporaryDirectory(prefix="ingboard-bench-mpy-") as mpy:
        compile_mpy(mpy)
        result = run(simulation, use_tracker, mpy)
    if not result["file"].endswith(".mpy"):
        raise BenchError("the firmware was not loaded from .mpy: %s" % result["file"])
    from host_tools.commands import flash

    source = code_only(FIRMWARE, use_tracker)
    if not source["file"].endswith(".py"):
        raise BenchError("the firmware was not loaded from source: %s" % source["file"])
    what = "core + tracker + clock" if use_tracker else "core + clock (no tracker yet)"
    log(
        "# heap: %s under MicroPython over %s: %d plies%s"
        % (
            what,
            description,
            result["plies"],
            (
                ", %d log records replayed, %d move/pass events"
                % (result["records"], result["moves"])
            )
            if use_tracker
            else " at the simulated presses",
        )
    )
    if result["plies"] != len(moves):
        raise BenchError(
            "the heap game ended with %d plies, not %d: the replay did not track it"
            % (result["plies"], len(moves))
        )
    log(
        "# heap: the game ended %s (result %s); data high-water reached at log record %s (%s)"
        % (result["phase"], result["result"], result["peak_at"], result["peak_kind"])
    )
    log(
        "# heap: code = modules imported: %s; heap_code from the .mpy files mpy-cross makes "
        "with %s (what `ingboard flash` installs on the stock image; the goals apply to it), "
        "heap_code_source from the "
        ".py sources (this port keeps docstrings then; no goal)"
        % (
            "session, tracker (and all it imports)" if use_tracker else "game, clock",
            flash.LITTLEFS_OPT,
        )
    )
    return [
        Figure("heap_data_live_end", result["live_end"] / KB, "KB"),
        Figure("heap_data_peak", result["data"] / KB, "KB", ("<=", GOAL_DATA // KB)),
        Figure("heap_code", result["code"] / KB, "KB", ("<=", GOAL_CODE // KB)),
        Figure("heap_code_source", source["code"] / KB, "KB"),
    ] + (
        [Figure("heap_count_peak", result["count"] / KB, "KB")]
        if result["count"] is not None
        else []
    )

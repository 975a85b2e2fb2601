"""The device's own figures, measured on the device twin (issue 17, item 4): MicroPython's rp2
firmware (RPI_PICO v1.28) on the emulated RP2040 at 125 MHz, with the board's hardware models
(host_tools/twin/models/) and the firmware compiled as `ingboard flash` compiles it.

- mcu_scan_pass_us: one full scan pass as the app's scan task does it - the real grid driver
  through the muxes and the ADC (incl. its 23 power-on waits), Classifier.classify and
  Tracker.scan_codes - on a 19x19 position with ~150 stones (move 150 of the longest 19x19
  corpus game), the tracker's game at that position; mean of PASSES passes after warm-up.
- mcu_classify_us: Classifier.classify alone on that scan (native loop where the port has one).
- mcu_move_us: the rules core (Game.play / pass_move) per move over the corpus' 19x19 games,
  one game at a time (a game, then the next in a fresh heap), mean over every move.
- mcu_heap_code_kb_mpy / _romfs: heap taken by importing the tracker, game, clock, bowls and
  session modules after gc.collect(), from .mpy files on littlefs of the stock image (compiled
  as `ingboard flash` compiles them for littlefs, -O3) / from a ROMFS image (goal on ROMFS).
- mcu_heap_app_code_kb_mpy / _romfs: the same for everything main.py imports before the app
  starts (drivers, app, records, relay feed): the code the app holds for a whole game.
- mcu_heap_data_peak_kb: the heap the game's data takes at its peak over the 300-move 19x19
  game of `heap_data_peak` (bench/games.py heap_game) played through the Tracker on the twin
  (ROMFS deploy): scans made on the device from the moves (a stone placed, the clock pressed,
  captured stones lifted, ticks at the tracker's deadlines, as `track` steps a log), the live
  heap (after gc.collect()) sampled every DATA_SAMPLE plies minus the heap right after the
  first scan of an empty board. The tracker itself (its tables before the first move) is
  printed beside it.
- mcu_mem_free_kb: the least gc.mem_free() after a gc.collect() (what is live, not garbage
  waiting for the collector), sampled every 250 ms while the app (firmware/main.py's build and
  order: drivers, then the app's code around gc_policy.LOAD_RESERVES, then ingboard/app/app.py with
  every task) runs a 19x19 game for two emulated seconds, ROMFS deploy (goal); a log line
  says where the heap goes (HEAP_STEPS: the free heap at each step of main.py's start, in a
  run of its own);
  mcu_mem_free_kb_mpy the same on the stock image with .mpy on littlefs (no goal: the ROMFS
  image is the deploy for play).

- mcu_cpu_load_pct, mcu_scan_jitter_ms, mcu_largest_free_kb (issue 20): the app (main.py's
  build, every task, scan 25 Hz, load cells 10 Hz) runs on an empty 19x19 board with nobody
  calling gc.collect() from outside: CPU_WARM_MS from its start (both faces drawn whole, the
  bowls' windows filling), then CPU_RUN_MS emulated ms counted - the board as it stands between
  games; then App.cpu_stats() (time.ticks_us per
  task: the share of the time the tasks ran, the worst lateness of a scheduled scan) and
  micropython.mem_info()'s largest free block (mcu_largest_free_idle_kb). An idle board, set
  up for a game: both bowls hold their 180 stones (with empty bowls each reading is an
  uncertain count, evaluated in full: ~8 % more, not a board anyone plays on).
- mcu_cpu_load_game_pct, mcu_scan_jitter_game_ms (issue 20, "while a game is played"): the
  same counters (the app's `cpu` command) over the whole long game below, from the app's start
  to the count; the same goals. The brisk players make a ply every ~0.4 emulated s, far faster
  than people play, so this is the busy end of play (each ply: several scan lines, a press,
  the bowls, the journal, both faces); the log names when the worst scan delay was (board
  time) - on the twin, the count at the end.
- mcu_cpu_load_play_pct, mcu_scan_jitter_play_ms (issue 20, "while a game is played", at the
  pace people play): the same counters over a PACE_PLIES-ply game (the long game's first
  plies, then the passes and the count) whose players think THINK_MS before each ply - a fast
  game between people (an hour each over 250 plies is ~29 s a ply); the same goals.
- mcu_game_plies_ok, mcu_largest_free_kb, mcu_game_free_kb (issue 20): a 600-ply 19x19 game
  with captures, then four passes and the count, through the whole app on the twin (brisk
  players on the hardware models, host_tools/twin/long_game.py; no harness gc.collect()): the
  plies the app took as played, and after the count its largest free block and free heap (the
  app's `mem` command, after a collection). The longest part of the bench (~4.5 emulated
  minutes of play, 2.5-6 x that in wall time, as busy as the machine is). A warning of the app
  (an OSError of the file system is one), a traceback, or a file system that is not whole on
  the host afterwards (host_tools/twin/flash_fs.py: every file read, the journal record by
  record) fails the section, its figures logged first.
- mcu_flash_erases_per_ply, mcu_flash_busy_ms_per_ply (no goal: a figure of the real chip the
  twin cannot give): the long game's flash erases (4 KB sectors) and page programs, per ply,
  counted by the twin's flash, and what they would cost on the Pico's W25Q16JV at its
  datasheet's typical times (sector erase 45 ms, page program 0.4 ms; maxima 400 ms and 3 ms).
  The twin's flash completes every write at once, so none of this is in the CPU and scan-delay
  figures above; on the chip each erase holds the CPU (interrupts off, no code from flash) for
  longer than a scan period. littlefs copies a file's partly written last block to a freshly
  erased one at the first write after each flush: an erase per flushed append, whatever its
  length.

- mcu_count_ms, mcu_count_late_ms, mcu_count_peak_kb, mcu_count_held_kb,
  mcu_count_largest_free_kb (issue 20, the end of a long game): a COUNT_PLIES-ply 19x19 game
  (tests/long_game.py) played on the host by the app's own code up to its fourth pass
  (host_tools/twin/end_position.py: the journal as the board writes it), then on the twin: main.py
  resumes it at the pause with the stones on the grid model, White's key makes the last pass,
  and the app counts (Ing fill-in, the plan) and writes the SGF, nobody calling gc.collect()
  from outside. mcu_count_ms: emulated ms from the press to the end event (the count and the
  records; the event goes out after the SGF is written); mcu_count_late_ms: the longest a
  scheduled scan waited meanwhile (App.cpu_stats' scan_late_max_us, reset at the press; goal:
  one scan period, so the end never holds up the board); the largest free block and the heap
  the count keeps (`mem` before and after). mcu_count_peak_kb: the same end stepped by a
  device script (the app resumed as main.py builds it, no tasks running) with a collection at
  every scan checkpoint of the count and the SGF: the most the heap held above what it held
  before the press (what the end needs at once; sampled at the checkpoints, a few ms apart;
  goal: within the 32 KB block a long game must leave, mcu_largest_free_kb's goal).
  INGBOARD_BENCH_COUNT_PLIES shortens the game.

rp2040js counts instruction cycles but no XIP flash-cache misses; on a real RP2040 MicroPython
code runs 25-40 % slower (../shared/mcu/README.md). Every time figure is also given corrected
(x1.40, the pessimistic end: `_fc`); the goals apply to the corrected figures. Of a load, only
the code's share is multiplied: the grid's power-on waits (the `cpu` command's scan_wait_us,
16 x 400 us a scan, timed on the TIMER) last as long on a board (_load_fc). Scan, rules and
app run from the ROMFS deploy (the one the app fits in).
"""

import contextlib
import json
import os
import tempfile

from bench import KB, BenchError, Figure, games, heap, scan

FLASH_CACHE = 1.40
# The Pico's flash (Winbond W25Q16JV datasheet, AC characteristics: typical tSE, tPP).
FLASH_ERASE_MS = 45
FLASH_PROGRAM_MS = 0.4
FULL_BOWL_G = 180 * 6.5  # a bowl of 180 nominal stones (Ing 1991 Art. 12: 6.5 g a stone)
PASSES = 6
GOAL_SCAN_US = 40000
GOAL_MOVE_US = 1000  # the rules core per move on the chip, with the flash-cache factor
GOAL_CODE_KB = 64
GOAL_FREE_KB = 100
GOAL_DATA_KB = heap.GOAL_DATA // KB  # the same goal as heap_data_peak (WebAssembly port)
GOAL_LOAD_PCT = 60  # the tasks' CPU while a game is played, with the flash-cache factor
GOAL_IDLE_LOAD_PCT = 30  # the tasks' CPU on an idle board, with the flash-cache factor
GOAL_JITTER_MS = 40  # one scan period at 25 Hz
GOAL_LARGEST_KB = 32
GOAL_PLIES = 600
GAME_PLIES = 600  # the long game's plies before its four passes
PACE_PLIES = 60  # the game at a people's pace: its plies before the passes
THINK_MS = 2500  # each player's thinking before a ply in it (a fast game between people)
COUNT_PLIES = 600  # the game whose end mcu_count_* measure
GOAL_COUNT_LATE_MS = 40  # one scan period at 25 Hz
GOAL_COUNT_PEAK_KB = GOAL_LARGEST_KB  # the end fits in the room a long game must leave
CPU_WARM_MS = 3000  # the app's start (whole faces, the bowls settling) before the idle board
CPU_RUN_MS = 5000
DATA_SAMPLE = 10  # plies between two samples of the game's data heap
DATA_PLIES = games.HEAP_PLIES  # the game of heap_data_peak
APP_RUN_MS = 2000  # the app running for mcu_mem_free_kb
# `python -m bench --tiny` (the guard in make test): every part once, on short games and runs.
TINY = {
    "PASSES": 1,
    "PACE_PLIES": 4,
    "THINK_MS": 500,
    "GAME_PLIES": 12,
    "COUNT_PLIES": 12,
    "CPU_WARM_MS": 500,
    "CPU_RUN_MS": 500,
    "APP_RUN_MS": 500,
    "DATA_PLIES": 12,
    "DATA_SAMPLE": 4,
}

CODE = (
    "from ingboard.tracking import tracker\nfrom ingrules import game\n"
    "from ingboard.clock import clock\nfrom ingboard.bowls import bowls\n"
    "from ingboard.records import session"
)


def _twin(**kw):
    from host_tools.twin.process import Twin

    return Twin(**kw)


@contextlib.contextmanager
def _app_twin(romfs=None, flash_image=None, full_bowls=False):
    """A twin booted from the ROMFS image (or the stock image with `flash_image`: .mpy on
    littlefs), the board's hardware attached around an empty 19x19 board and the app's build
    files on its flash: how the app runs on the Pico. `full_bowls`: each bowl holds its 180
    stones (FULL_BOWL_G, the nominal 6.5 g stone of Ing 1991 Art. 12), as before a game;
    else the load cells read empty bowls."""
    from host_tools.twin import deploy, hardware

    if romfs:
        kw = {"image": "romfs", "romfs_image": romfs}
    else:
        kw = {"image": "stock", "flash_image": flash_image}
    with _twin(**kw) as twin:
        hardware.attach(twin, variant="pico", position="/".join(["." * 19] * 19))
        if full_bowls:
            for colour in ("B", "W"):
                twin.model("bowl", colour=colour, grams=FULL_BOWL_G)
        deploy.put_files(
            twin,
            {
                "/main_build.py": _main_build_module().encode(),
                "/bowls.json": hardware.bowl_calibration().encode(),
            },
        )
        yield twin


def _package():
    from host_tools import FIRMWARE
    from host_tools.commands import flash

    return flash.package_sources(FIRMWARE)


def _exec_json(twin, code, max_ms=120000):
    out = twin.exec(code, max_ms=max_ms)
    lines = [ln for ln in out.strip().splitlines() if ln.startswith("{")]
    if not lines:
        raise BenchError("the twin printed no result: %r" % out[-500:])
    return json.loads(lines[-1])


COPY = """
import os
def copy(src, dst):
    try:
        os.mkdir(dst)
    except OSError:
        pass
    for name, kind, *_ in os.ilistdir(src):
        if kind == 0x4000:
            copy(src + '/' + name, dst + '/' + name)
        else:
            with open(src + '/' + name, 'rb') as a, open(dst + '/' + name, 'wb') as b:
                b.write(a.read())
copy('/rom/ingboard', '/ingboard')
copy('/rom/ingrules', '/ingrules')
"""


class _closing:
    def __init__(self, twin):
        self.twin = twin

    def __enter__(self):
        return self.twin

    def __exit__(self, *exc):
        self.twin.close()


def _code_heap(twin):
    return _exec_json(
        twin,
        "import gc, json\ngc.collect()\nf0 = gc.mem_free()\n%s\ngc.collect()\n"
        "import ingboard.tracking.tracker as t\n"
        "print(json.dumps({'kb': (f0 - gc.mem_free()) / 1024, 'file': t.__file__}))" % CODE,
    )


SCAN = """
import gc, json, time
from ingboard import board_config
from ingboard.sensing.classifier import Classifier, format_scan
from ingboard.tracking.tracker import Tracker
hw = board_config.build()
grid = hw['grid']
clf = Classifier(19)
tracker = Tracker({"size": 19, "rules": "ing1991"})
game = tracker.game
for color, col, row in MOVES:
    if col < 0:
        game.pass_move(color)
    else:
        game.play(color, game.board.index(col, row))
T = 0
for _ in range(3):
    clf.classify(grid.scan())
    T += 40
    tracker.scan_codes(T, clf.classes)
ok = format_scan(clf.classes, 19) == ROWS
gc.collect()
t0 = time.ticks_us()
for _ in range(PASSES):
    clf.classify(grid.scan())
    T += 40
    tracker.scan_codes(T, clf.classes)
scan_pass = time.ticks_diff(time.ticks_us(), t0) / PASSES
r = grid.scan()
t0 = time.ticks_us()
for _ in range(PASSES):
    grid.scan()
grid_us = time.ticks_diff(time.ticks_us(), t0) / PASSES
t0 = time.ticks_us()
for _ in range(PASSES):
    clf.classify(r)
classify_us = time.ticks_diff(time.ticks_us(), t0) / PASSES
print(json.dumps({"ok": ok, "scan_pass": scan_pass, "grid": grid_us, "classify": classify_us,
                  "native": clf.native is not None}))
"""

MOVE = """
import gc, json, time
from ingrules.game import Game
gc.collect()
g = Game(19, "ing1991")
t0 = time.ticks_us()
for color, p in MOVES:
    if p < 0:
        g.pass_move(color)
    else:
        g.play(color, g.board.index(p % 19, p // 19))
us = time.ticks_diff(time.ticks_us(), t0)
print(json.dumps({"us": us, "moves": len(MOVES)}))
del g
gc.collect()
"""


APP_CODE = """
import gc, json
gc.collect()
f0 = gc.mem_free()
import main_build
from ingboard.link import relay_feed
from ingboard.app.app import App
from ingboard.records.store import RecordsStore
gc.collect()
print(json.dumps({'kb': (f0 - gc.mem_free()) / 1024}))
"""

# The twin scripts' start: the drivers built and the app's code loaded as firmware/main.py
# does (main_build.py is main.py up to main()); APP_AS_MAIN makes the app as main() makes it.
BUILT_DRIVERS = """
import main_build
from ingboard import gc_policy
hw = main_build.build()
gc_policy.drop("ingboard.board_config")
"""
BUILT_CODE = """
relay_feed, App, RecordsStore = main_build.load_app()
"""
BUILT = BUILT_DRIVERS + BUILT_CODE
APP_AS_MAIN = (
    BUILT
    + """app = App(hw, RecordsStore(""), time.ticks_ms, time.ticks_diff, asyncio.sleep_ms,
          ticks_us=time.ticks_us)  # as main.py builds it
"""
)

APP = (
    """
import gc, json, asyncio, time"""
    + BUILT
    + """async def sleep_ms(ms):
    await asyncio.sleep_ms(ms)
app = App(hw, RecordsStore(""), time.ticks_ms, time.ticks_diff, sleep_ms)
low = [gc.mem_free(), 0]
async def watch():
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < RUN_MS:
        gc.collect()
        f = gc.mem_free()
        if f < low[0]:
            low[0] = f
        low[1] += 1
        await asyncio.sleep_ms(250)
    app.stopping = True
async def both():
    w = asyncio.create_task(watch())
    try:
        await app.run()
    except Exception as e:
        print("app:", repr(e))
    await w
asyncio.run(both())
print(json.dumps({"free_min": low[0], "samples": low[1], "plies": len(app.tracker.game.plies)}))
"""
)

# Where the heap goes as main.py starts the app (a run of its own: the collections between the
# steps would move what APP measures): the free heap after a collection at each step.
HEAP_STEPS = (
    """
import gc, json, asyncio, time
def free():
    gc.collect()
    return gc.mem_free()
steps = [free()]"""
    + BUILT_DRIVERS
    + "steps.append(free())"
    + BUILT_CODE
    + """steps.append(free())
app = App(hw, RecordsStore(""), time.ticks_ms, time.ticks_diff, asyncio.sleep_ms)
steps.append(free())
print(json.dumps({"steps": steps}))
"""
)

DATA = """
import gc, json
from ingboard.tracking.tracker import Tracker
def count(events, out):
    for e in events:
        k = e["type"]
        if k == "move" or k == "pass":
            out[1] += 1
        elif k == "alert":
            out[0] += 1
def step(tracker, t, kind, arg, out):
    while True:
        due = tracker.next_deadline()
        if due is None or due >= t:
            break
        count(tracker.tick(due), out)
    if kind == 0:
        count(tracker.scan(t, arg), out)
    else:
        count(tracker.press(t, arg), out)
def put(rows, p, c):
    r = 18 - p // 19
    line = rows[r]
    col = p % 19
    rows[r] = line[:col] + c + line[col + 1:]
gc.collect()
base = gc.mem_alloc()
tracker = Tracker({"size": 19, "rules": "ing1991", "komi": 8,
                   "time": {"system": "ing-pp", "basic_s": 3600}})
board = tracker.game.board
rows = board.rows()
t = 0
out = [0, 0]
step(tracker, t, 0, rows, out)
gc.collect()
start = gc.mem_alloc()
peak = [0, 0]
for i in range(len(MOVES)):
    color, p = MOVES[i]
    t += 500
    if p < 0:
        step(tracker, t, 1, color, out)
    else:
        put(rows, p, ".BW"[color])
        step(tracker, t, 0, rows, out)
        t += 300
        step(tracker, t, 1, color, out)
        if board.captured:
            for q in board.captured:
                col, row = board.col_row(q)
                put(rows, row * 19 + col, ".")
            t += 300
            step(tracker, t, 0, rows, out)
    if i % SAMPLE == SAMPLE - 1 or i == len(MOVES) - 1:
        gc.collect()
        m = gc.mem_alloc() - start
        if m > peak[0]:
            peak[0] = m
            peak[1] = i + 1
print(json.dumps({"plies": len(tracker.game.plies), "moves": out[1], "alerts": out[0],
                  "peak": peak[0], "peak_at": peak[1], "tracker": start - base}))
"""

CPU = (
    """
import gc, json, asyncio, time, micropython"""
    + APP_AS_MAIN
    + """async def stopper():
    await asyncio.sleep_ms(WARM_MS)
    app.cpu_reset()
    await asyncio.sleep_ms(RUN_MS)
    app.stopping = True
async def both():
    s = asyncio.create_task(stopper())
    try:
        await app.run()
    except Exception as e:
        print("app:", repr(e))
    await s
asyncio.run(both())
st = app.cpu_stats()
micropython.mem_info()
print(json.dumps({"cpu": st, "free": gc.mem_free()}))
"""
)
GC_BLOCK = 16  # bytes per heap block of the rp2 port (mem_info counts blocks)


def _largest_free(out):
    """micropython.mem_info()'s "max free sz" (blocks) in bytes."""
    for line in out.splitlines():
        if "max free sz:" in line:
            return int(line.split("max free sz:")[1].split(",")[0]) * GC_BLOCK
    raise BenchError("mem_info printed no largest free block: %r" % out[-500:])


def _load_fc(cpu):
    """The app's load (the `cpu` command's counters) with the flash-cache factor on its code
    only: the sensors' power-on waits (scan_wait_us, 16 x 400 us a 19x19 scan) are timed on
    the RP2040's TIMER and last as long on a board, so they are not multiplied."""
    elapsed = cpu.get("elapsed_us") or 0
    if cpu.get("load_pct") is None or elapsed <= 0:
        return None
    busy = sum(cpu["tasks"].values())
    wait = min(cpu.get("scan_wait_us", 0), busy)
    return round(100 * ((busy - wait) * FLASH_CACHE + wait) / elapsed, 1)


def _main_build_module():
    """firmware/main.py's build() as an importable module (main.py itself would start the app
    when imported): the same source up to main()."""
    from host_tools import FIRMWARE

    with open(os.path.join(FIRMWARE, "main.py")) as f:
        text = f.read()
    cut = text.find("\ndef main(")
    if cut < 0:
        raise BenchError("firmware/main.py has no main(): cannot build the app as it does")
    return text[:cut] + "\n"


def _long_game(log):
    """mcu_game_plies_ok, mcu_largest_free_kb: a GAME_PLIES-ply 19x19 game (tests/long_game.py,
    captures of up to 32 stones, then the four passes and the count) through the whole app on
    the twin, played by brisk players (host_tools/twin/long_game.py: main.py, the grid, key
    and load-cell models, the records on flash), nobody calling gc.collect() from outside;
    the plies the app took as they were played, and its largest free block after the count
    (the app's `mem` command). INGBOARD_BENCH_GAME_PLIES shortens it for a quick look."""
    import sys

    from host_tools import ROOT
    from host_tools.twin import long_game as lg

    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from long_game import long_game

    n = int(os.environ.get("INGBOARD_BENCH_GAME_PLIES", str(GAME_PLIES)))
    moves, _largest = long_game(n)
    plies, config = lg.brisk(moves)
    work = tempfile.mkdtemp(prefix="ingboard-bench-long-")
    try:
        res = lg.play_through(plies, config, work, log=log)
    except Exception as exc:  # noqa: BLE001 (a game that breaks is a figure, not a crash)
        ok = getattr(exc, "plies_ok", 0)
        log("# mcu: the long game stopped after %d plies: %s" % (ok, exc))
        return [
            Figure("mcu_game_plies_ok", ok, "plies", (">=", GOAL_PLIES)),
            Figure("mcu_largest_free_kb", None, "KB", reason="the game did not finish"),
        ]
    want = [(p.colour, p.name) for p in plies]
    got = [(e["color"], e.get("point")) for e in res["events"]]
    ok = 0
    while ok < min(len(want), len(got)) and want[ok] == got[ok]:
        ok += 1
    mem = res["mem"]
    log(
        "# mcu: long game %d plies (%d as played), %.0f s emulated, %.0f s wall; after the "
        "count %s B free, largest block %s B, cpu %s %%"
        % (
            len(plies),
            ok,
            res["emulated_s"],
            res["play_wall_s"],
            mem["free"],
            mem["largest"],
            res["cpu"].get("load_pct"),
        )  # fmt: skip
    )
    # The CPU while a game is played (issue 20, "A CPU budget": "while a game is played"): the
    # app's own counters over the whole game (stones placed and lifted, captures, the clock,
    # the bowls, the count), the same goals as the idle board's.
    cpu = res["cpu"]
    load = cpu.get("load_pct")
    log(
        "# mcu: long game, us per task %s, %d scans, worst scan delay %.1f ms (board time %s ms)"
        % (
            cpu.get("tasks"),
            cpu.get("scans", 0),
            cpu.get("scan_late_max_us", 0) / 1000,
            cpu.get("scan_late_at_ms"),
        )
    )
    figures = [
        Figure("mcu_game_plies_ok", ok, "plies", (">=", GOAL_PLIES)),
        Figure(
            "mcu_largest_free_kb", round(mem["largest"] / KB, 1), "KB", (">=", GOAL_LARGEST_KB)
        ),
        Figure("mcu_game_free_kb", round(mem["free"] / KB, 1), "KB"),
        Figure("mcu_cpu_load_game_pct", load, "%", ("<=", GOAL_LOAD_PCT)),
        Figure("mcu_cpu_load_game_pct_fc", _load_fc(cpu), "%", ("<=", GOAL_LOAD_PCT)),
        Figure(
            "mcu_scan_jitter_game_ms",
            round(cpu["scan_late_max_us"] / 1000, 1),
            "ms",
            ("<=", GOAL_JITTER_MS),
        ),
    ] + _flash_figures(res["flash_ops"], len(plies), log)
    # A warning of the app (an OSError of the file system in the journal's compaction is one),
    # a traceback, or a file system that is not whole on the host after the game fails the
    # section: the figures are logged first.
    trouble = []
    if res["warnings"] or res["noise"]:
        trouble.append("warnings %s, noise %s" % (res["warnings"], res["noise"]))
    if res["fs_problem"]:
        trouble.append("its file system: %s" % res["fs_problem"])
    if trouble:
        for figure in figures:
            log(figure.line())
        raise BenchError("the long game on the twin: %s" % "; ".join(trouble))
    journal = res["fs"]["journals"].get("/journal/game.jnl", {})
    log(
        "# mcu: long game, its file system checked on the host: %d files whole, %d blocks "
        "used of 352, the next game's journal %s records"
        % (len(res["fs"]["files"]), res["fs"]["blocks_used"], journal.get("records"))
    )
    return figures


def _flash_figures(ops, plies, log):
    """mcu_flash_erases_per_ply, mcu_flash_busy_ms_per_ply (see the module docstring)."""
    busy = ops["erases"] * FLASH_ERASE_MS + ops["programs"] * FLASH_PROGRAM_MS
    log(
        "# mcu: long game, the flash: %d erases, %d page programs in %d plies; on the "
        "W25Q16JV ~%.0f s busy at typical times (interrupts off for each), the twin: none"
        % (ops["erases"], ops["programs"], plies, busy / 1000)
    )
    return [
        Figure("mcu_flash_erases_per_ply", round(ops["erases"] / max(1, plies), 2), "/ply"),
        Figure("mcu_flash_busy_ms_per_ply", round(busy / max(1, plies), 1), "ms/ply"),
    ]


def _pace_game(log):
    """mcu_cpu_load_play_pct, mcu_scan_jitter_play_ms: the first PACE_PLIES plies of the long
    game, each player thinking THINK_MS before a ply, then the passes and the count, through
    the whole app on the twin; the app's `cpu` counters over it (see the module docstring)."""
    import sys

    from host_tools import ROOT
    from host_tools.twin import long_game as lg

    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from long_game import long_game

    moves, _largest = long_game(PACE_PLIES)
    plies, config = lg.brisk(moves)
    work = tempfile.mkdtemp(prefix="ingboard-bench-pace-")
    res = lg.play_through(plies, config, work, log=log, think_ms=THINK_MS)
    got = [(e["color"], e.get("point")) for e in res["events"]]
    if got != [(p.colour, p.name) for p in plies] or res["warnings"] or res["fs_problem"]:
        raise BenchError(
            "the game at a people's pace went wrong: %s %s" % (res["warnings"], res["fs_problem"])
        )
    cpu = res["cpu"]
    load = cpu.get("load_pct")
    log(
        "# mcu: %d plies %d ms apart, %.0f s emulated; us per task %s, worst scan delay %.1f ms "
        "(board time %s ms, %s)"
        % (
            len(plies),
            THINK_MS,
            res["emulated_s"],
            cpu.get("tasks"),
            cpu.get("scan_late_max_us", 0) / 1000,
            cpu.get("scan_late_at_ms"),
            cpu.get("scan_late_task"),
        )
    )
    return [
        Figure("mcu_cpu_load_play_pct", load, "%", ("<=", GOAL_LOAD_PCT)),
        Figure("mcu_cpu_load_play_pct_fc", _load_fc(cpu), "%", ("<=", GOAL_LOAD_PCT)),
        Figure(
            "mcu_scan_jitter_play_ms",
            round(cpu["scan_late_max_us"] / 1000, 1),
            "ms",
            ("<=", GOAL_JITTER_MS),
        ),
    ]


COUNT_PEAK = (
    """
import gc, json, time, asyncio"""
    + APP_AS_MAIN
    + """gc.collect()
base = gc.mem_alloc()
peak = [0, 0]
def sample():
    gc.collect()
    a = gc.mem_alloc() - base
    if a > peak[0]:
        peak[0] = a
    peak[1] += 1
app.scan_if_due = sample
app.tracker.checkpoint = sample
app.step((App.PRESS, app.now() + 1000, COLOR, None))
sample()
print(json.dumps({"peak": peak[0], "samples": peak[1], "held": gc.mem_alloc() - base,
                  "phase": app.tracker.game.phase, "result": app.tracker.game.result}))
"""
)


def _count(log):
    """mcu_count_* (see the module docstring): the end of a COUNT_PLIES-ply game on the twin."""
    from host_tools.twin import deploy, end_position, hardware

    n = int(os.environ.get("INGBOARD_BENCH_COUNT_PLIES", str(COUNT_PLIES)))
    work = tempfile.mkdtemp(prefix="ingboard-bench-count-")
    end = end_position.long_end(n, work_dir=os.path.join(work, "host"))
    res = end_position.count_on_twin(end, work, log=log)
    if res["end"] is None or res["count"] is None or res["warnings"]:
        raise BenchError("the twin did not end the game with the count: %s" % res["warnings"])
    last = end["last"][0]
    romfs = os.path.join(work, "ingboard.romfs")
    with _twin(image="romfs", romfs_image=romfs) as twin:
        hardware.attach(twin, variant="pico", position=end["position"])
        files = dict(end["files"])
        files["/main_build.py"] = _main_build_module().encode()
        files["/bowls.json"] = hardware.bowl_calibration().encode()
        deploy.put_files(twin, files)
        peak = _exec_json(
            twin, COUNT_PEAK.replace("COLOR", "2" if last.colour == "W" else "1"), 900000
        )
    if peak["phase"] != "ended" or peak["result"] != res["end"]["result"]:
        raise BenchError("the device script did not end the game as the app did: %s" % peak)
    before, after = res["mem_before"], res["mem_after"]
    late = res["cpu"]["scan_late_max_us"] / 1000
    log(
        "# mcu: the end of a %d-ply game: %.0f ms to the end event, a scan held up %.1f ms at "
        "most; heap peak %.1f KB above the game's (%d samples), %.1f KB kept; largest free "
        "block %.1f -> %.1f KB"
        % (n, res["end_ms"], late, peak["peak"] / KB, peak["samples"], peak["held"] / KB,
           before["largest"] / KB, after["largest"] / KB)
    )  # fmt: skip
    return [
        Figure("mcu_count_ms", round(res["end_ms"]), "ms"),
        Figure("mcu_count_ms_fc", round(res["end_ms"] * FLASH_CACHE), "ms"),
        Figure("mcu_count_late_ms", round(late, 1), "ms"),
        Figure(
            "mcu_count_late_ms_fc",
            round(late * FLASH_CACHE, 1),
            "ms",
            ("<=", GOAL_COUNT_LATE_MS),
        ),
        Figure("mcu_count_peak_kb", round(peak["peak"] / KB, 1), "KB", ("<=", GOAL_COUNT_PEAK_KB)),
        Figure("mcu_count_held_kb", round((after["alloc"] - before["alloc"]) / KB, 1), "KB"),
        Figure("mcu_count_largest_free_kb", round(after["largest"] / KB, 1), "KB"),
    ]


def _images(work):
    """(romfs image, flash image): the package as `ingboard flash --romfs` builds it for the
    RP2040, as a ROMFS image; for the .mpy deploy as `ingboard flash` builds it for littlefs
    (-O3), carried in a ROMFS image that a twin copies onto its littlefs (one flash image,
    saved), then booted on the stock image (no ROMFS partition: the code comes from littlefs)."""
    from host_tools import FIRMWARE
    from host_tools.commands import flash
    from host_tools.twin import deploy

    built = flash.build(FIRMWARE, os.path.join(work, "mpy"), "armv6m")
    romfs = os.path.join(work, "ingboard.romfs")
    with open(romfs, "wb") as f:
        f.write(flash.romfs_image(built, work))
    lfs_work = os.path.join(work, "lfs")
    built_lfs = flash.build(FIRMWARE, os.path.join(lfs_work, "mpy"), "armv6m", littlefs=True)
    carrier = os.path.join(work, "littlefs.romfs")
    with open(carrier, "wb") as f:
        f.write(flash.romfs_image(built_lfs, lfs_work))
    flash_image = os.path.join(work, "flash.bin")
    with _twin(image="romfs", romfs_image=carrier) as twin:
        twin.exec(COPY, max_ms=120000)
        deploy.put_files(twin, {"/main_build.py": _main_build_module().encode()})
        twin.save_flash(flash_image)
    return romfs, flash_image


def _code_heaps(romfs, flash_image, log):
    def mpy_twin():
        return _twin(image="stock", flash_image=flash_image).start()

    with _closing(mpy_twin()) as twin:
        code_mpy = _code_heap(twin)
    with _closing(mpy_twin()) as twin:
        app_mpy = _exec_json(twin, APP_CODE)
    if code_mpy["file"].startswith("/rom") or not code_mpy["file"].endswith(".mpy"):
        raise BenchError("not loaded from littlefs: %s" % code_mpy["file"])
    with _twin(image="romfs", romfs_image=romfs) as twin:
        code_romfs = _code_heap(twin)
    if not code_romfs["file"].startswith("/rom/"):
        raise BenchError("not loaded from ROMFS: %s" % code_romfs["file"])
    with _app_twin(romfs) as twin:
        app_romfs = _exec_json(twin, APP_CODE)
    log(
        "# mcu: code heap %.1f KB from .mpy, %.1f KB from ROMFS; all the app loads %.1f KB "
        "from .mpy, %.1f KB from ROMFS"
        % (code_mpy["kb"], code_romfs["kb"], app_mpy["kb"], app_romfs["kb"])
    )
    return [
        Figure("mcu_heap_code_kb_mpy", round(code_mpy["kb"], 1), "KB"),
        Figure("mcu_heap_code_kb_romfs", round(code_romfs["kb"], 1), "KB", ("<=", GOAL_CODE_KB)),
        Figure("mcu_heap_app_code_kb_mpy", round(app_mpy["kb"], 1), "KB"),
        Figure("mcu_heap_app_code_kb_romfs", round(app_romfs["kb"], 1), "KB"),
    ]


def _scan_pass(romfs, rows, moves, log):
    """A scan pass on the grid model showing the position."""
    from host_tools.twin import hardware

    stones = sum(r.count("B") + r.count("W") for r in rows)
    with _twin(image="romfs", romfs_image=romfs) as twin:
        hardware.attach(twin, variant="pico", position="/".join(rows))
        res = _exec_json(
            twin,
            SCAN.replace("MOVES", repr(moves))
            .replace("ROWS", repr("/".join(rows)))
            .replace("PASSES", str(PASSES)),
        )
    if not res["ok"]:
        raise BenchError("the twin's classifier did not see the position it was shown")
    log(
        "# mcu: scan pass on a 19x19 position with %d stones (grid %.0f us, classify %.0f us, "
        "native loop: %s)" % (stones, res["grid"], res["classify"], res["native"])
    )
    out = []
    for name, value, goal in (
        ("mcu_scan_pass_us", res["scan_pass"], GOAL_SCAN_US),
        ("mcu_classify_us", res["classify"], None),
    ):
        out.append(Figure(name, round(value), "us"))
        out.append(
            Figure(name + "_fc", round(value * FLASH_CACHE), "us", ("<=", goal) if goal else None)
        )
    return out


def _moves(romfs, corpus, log):
    """The rules core per move, 19x19 corpus games one at a time."""
    total_us = total_moves = 0
    with _twin(image="romfs", romfs_image=romfs) as twin:
        for g in [g for g in corpus if g["size"] == 19]:
            seq = []
            for colour, point in g["moves"]:
                color = 1 if colour == "b" else 2
                seq.append((color, -1 if point is None else point[0] * 19 + point[1]))
            res = _exec_json(twin, MOVE.replace("MOVES", repr(seq)))
            total_us += res["us"]
            total_moves += res["moves"]
    if not total_moves:
        raise BenchError("the corpus has no 19x19 move")
    per_move = total_us / total_moves
    log("# mcu: rules core %.0f us a move over %d moves of 19x19 games" % (per_move, total_moves))
    return [
        Figure("mcu_move_us", round(per_move), "us"),
        Figure("mcu_move_us_fc", round(per_move * FLASH_CACHE), "us", ("<=", GOAL_MOVE_US)),
    ]


def _app_free(log, romfs=None, flash_image=None):
    """The least free heap with the app running: ROMFS deploy (goal), or the stock image with
    .mpy on littlefs (no goal: the ROMFS image is the deploy for play)."""
    with _app_twin(romfs, flash_image=flash_image) as twin:
        out = twin.exec(APP.replace("RUN_MS", str(APP_RUN_MS)), max_ms=60000)
    lines = [ln for ln in out.strip().splitlines() if ln.startswith("{")]
    if not lines:
        # The device's own words (a MemoryError's traceback) are the reason.
        tail = [ln for ln in out.strip().splitlines() if ln.strip()][-1:]
        raise BenchError("the app did not run: %s" % (tail[0] if tail else repr(out[-300:])))
    res = json.loads(lines[-1])
    where = "ROMFS" if romfs else ".mpy on littlefs"
    log(
        "# mcu: app ran %d samples, least free %d B (%s)"
        % (res["samples"], res["free_min"], where)
    )
    if romfs:
        with _app_twin(romfs) as twin:
            steps = _exec_json(twin, HEAP_STEPS, max_ms=60000)["steps"]
        log("# mcu: where the heap goes (ROMFS): %s" % _heap_steps(steps, res["free_min"]))
        return [
            Figure("mcu_mem_free_kb", round(res["free_min"] / KB, 1), "KB", (">=", GOAL_FREE_KB))
        ]
    return [Figure("mcu_mem_free_kb_mpy", round(res["free_min"] / KB, 1), "KB")]


def _heap_steps(steps, least):
    """HEAP_STEPS' free heap at each step of main.py's start, and the running app's least
    (APP), as one line: what the drivers, the app's code and the app's objects each take."""
    start, drivers, code, made = steps
    return (
        "%.1f KB free at the start; main.py's imports and the drivers built take %.1f KB, the "
        "app's code %.1f KB, the app made (game, faces, bowls, journal) %.1f KB, the app "
        "running (its least free) %.1f KB more"
        % (
            start / KB,
            (start - drivers) / KB,
            (drivers - code) / KB,
            (code - made) / KB,
            (made - least) / KB,
        )
    )


def _cpu_idle(romfs, log):
    """CPU per task and scan lateness with the app running alone (issue 20)."""
    with _app_twin(romfs, full_bowls=True) as twin:
        raw = twin.exec(
            CPU.replace("WARM_MS", str(CPU_WARM_MS)).replace("RUN_MS", str(CPU_RUN_MS)),
            max_ms=90000,
        )
    lines = [ln for ln in raw.strip().splitlines() if ln.startswith("{")]
    if not lines:
        raise BenchError("the twin printed no result: %r" % raw[-500:])
    cpu = json.loads(lines[-1])["cpu"]
    largest = _largest_free(raw)
    log(
        "# mcu: app alone %d ms on an empty board (after %d ms from its start), %d scans "
        "(%d us of power-on waits each), us per task %s"
        % (
            cpu["elapsed_us"] // 1000,
            CPU_WARM_MS,
            cpu["scans"],
            cpu["scan_wait_us"] // max(1, cpu["scans"]),
            cpu["tasks"],
        )
    )
    jitter = cpu["scan_late_max_us"] / 1000
    return [
        Figure("mcu_cpu_load_pct", cpu["load_pct"], "%", ("<=", GOAL_IDLE_LOAD_PCT)),
        Figure("mcu_cpu_load_pct_fc", _load_fc(cpu), "%", ("<=", GOAL_IDLE_LOAD_PCT)),
        Figure("mcu_scan_jitter_ms", round(jitter, 1), "ms", ("<=", GOAL_JITTER_MS)),
        Figure("mcu_largest_free_idle_kb", round(largest / KB, 1), "KB"),
    ]


def _data_peak(romfs, corpus, log):
    """The game's data heap over the 300-move 19x19 game of heap_data_peak (ROMFS deploy)."""
    moves, desc = games.heap_game(corpus, plies=DATA_PLIES)
    seq = [(1 if c == "b" else 2, -1 if p is None else p[0] * 19 + p[1]) for c, p in moves]
    with _twin(image="romfs", romfs_image=romfs) as twin:
        data = _exec_json(
            twin,
            DATA.replace("MOVES", repr(seq)).replace("SAMPLE", str(DATA_SAMPLE)),
            max_ms=600000,
        )
    if data["plies"] != len(seq) or data["moves"] != len(seq) or data["alerts"]:
        raise BenchError("the tracker on the twin did not play the game as given: %s" % data)
    log(
        "# mcu: %s through the tracker: data peak %.1f KB at ply %d (sampled every %d), "
        "the tracker before the first move %.1f KB"
        % (desc, data["peak"] / KB, data["peak_at"], DATA_SAMPLE, data["tracker"] / KB)
    )
    return [
        Figure("mcu_heap_data_peak_kb", round(data["peak"] / KB, 1), "KB", ("<=", GOAL_DATA_KB))
    ]


# Every figure of the section, by part: (name, unit, goal) - what is printed as NA, with the
# reason, when a part cannot be measured (the run goes on with the next part).
PARTS = {
    "code": [
        ("mcu_heap_code_kb_mpy", "KB", None),
        ("mcu_heap_code_kb_romfs", "KB", ("<=", GOAL_CODE_KB)),
        ("mcu_heap_app_code_kb_mpy", "KB", None),
        ("mcu_heap_app_code_kb_romfs", "KB", None),
    ],
    "scan": [
        ("mcu_scan_pass_us", "us", None),
        ("mcu_scan_pass_us_fc", "us", ("<=", GOAL_SCAN_US)),
        ("mcu_classify_us", "us", None),
        ("mcu_classify_us_fc", "us", None),
    ],
    "move": [("mcu_move_us", "us", None), ("mcu_move_us_fc", "us", ("<=", GOAL_MOVE_US))],
    "free": [("mcu_mem_free_kb", "KB", (">=", GOAL_FREE_KB))],
    "free_mpy": [("mcu_mem_free_kb_mpy", "KB", None)],
    "cpu": [
        ("mcu_cpu_load_pct", "%", ("<=", GOAL_IDLE_LOAD_PCT)),
        ("mcu_cpu_load_pct_fc", "%", ("<=", GOAL_IDLE_LOAD_PCT)),
        ("mcu_scan_jitter_ms", "ms", ("<=", GOAL_JITTER_MS)),
        ("mcu_largest_free_idle_kb", "KB", None),
    ],
    "count": [
        ("mcu_count_ms", "ms", None),
        ("mcu_count_ms_fc", "ms", None),
        ("mcu_count_late_ms", "ms", None),
        ("mcu_count_late_ms_fc", "ms", ("<=", GOAL_COUNT_LATE_MS)),
        ("mcu_count_peak_kb", "KB", ("<=", GOAL_COUNT_PEAK_KB)),
        ("mcu_count_held_kb", "KB", None),
        ("mcu_count_largest_free_kb", "KB", None),
    ],
    "pace": [
        ("mcu_cpu_load_play_pct", "%", ("<=", GOAL_LOAD_PCT)),
        ("mcu_cpu_load_play_pct_fc", "%", ("<=", GOAL_LOAD_PCT)),
        ("mcu_scan_jitter_play_ms", "ms", ("<=", GOAL_JITTER_MS)),
    ],
    "long": [
        ("mcu_game_plies_ok", "plies", (">=", GOAL_PLIES)),
        ("mcu_largest_free_kb", "KB", (">=", GOAL_LARGEST_KB)),
        ("mcu_game_free_kb", "KB", None),
        ("mcu_cpu_load_game_pct", "%", ("<=", GOAL_LOAD_PCT)),
        ("mcu_cpu_load_game_pct_fc", "%", ("<=", GOAL_LOAD_PCT)),
        ("mcu_scan_jitter_game_ms", "ms", ("<=", GOAL_JITTER_MS)),
        ("mcu_flash_erases_per_ply", "/ply", None),
        ("mcu_flash_busy_ms_per_ply", "ms/ply", None),
    ],
    "data": [("mcu_heap_data_peak_kb", "KB", ("<=", GOAL_DATA_KB))],
}


def _not_measured(part, reason):
    return [Figure(n, None, unit, goal, reason=reason) for n, unit, goal in PARTS[part]]


def _reason(exc):
    text = str(exc).strip().splitlines()
    return "%s: %s" % (type(exc).__name__, text[-1] if text else "")


def measure(corpus=None, log=print):
    from host_tools.twin import images

    try:
        images.find("stock")
        images.find("romfs")
    except images.ImagesMissing as exc:
        return [f for part in PARTS for f in _not_measured(part, str(exc))]
    corpus = corpus if corpus is not None else games.corpus_games()
    rows, moves = scan.position(corpus)
    work = tempfile.mkdtemp(prefix="ingboard-bench-mcu-")
    try:
        romfs, flash_image = _images(work)
    except Exception as exc:  # noqa: BLE001 (no image: every figure NA, with the reason)
        return [f for part in PARTS for f in _not_measured(part, _reason(exc))]
    steps = (
        ("code", lambda: _code_heaps(romfs, flash_image, log)),
        ("scan", lambda: _scan_pass(romfs, rows, moves, log)),
        ("move", lambda: _moves(romfs, corpus, log)),
        ("free", lambda: _app_free(log, romfs=romfs)),
        ("free_mpy", lambda: _app_free(log, flash_image=flash_image)),
        ("cpu", lambda: _cpu_idle(romfs, log)),
        ("count", lambda: _count(log)),
        ("pace", lambda: _pace_game(log)),
        ("long", lambda: _long_game(log)),
        ("data", lambda: _data_peak(romfs, corpus, log)),
    )
    out = []
    for part, step in steps:
        try:
            found = step()
        except Exception as exc:  # noqa: BLE001 (a part that fails is NA, the rest goes on)
            log("# mcu: %s not measured: %s" % (part, _reason(exc)))
            found = _not_measured(part, _reason(exc))
        out += found
    return out

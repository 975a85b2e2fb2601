"""The device app's one garbage-collection policy (issue 20): when the heap is collected.

Why a policy at all: by default MicroPython collects only when an allocation finds no free
block - after the whole free heap (~120 KB on the Pico with the app loaded) has filled with
garbage. Every long-lived object made meanwhile (a ply's record, its SGF clock text, a clock
snapshot, the journal's state) then lands wherever the allocator was in that sweep, one every
few KB across the whole heap, and after the collection the free memory is nothing but holes
between them: on the twin a long game raised MemoryError with 100 KB free and no 16 KB block.

The policy, in four parts:
- `THRESHOLD`: the heap is collected after every THRESHOLD bytes allocated (gc.threshold), so
  garbage never fills it. Freed blocks are reused lowest first, so long-lived objects pack at
  the bottom and the top of the heap stays one free region: large blocks stay available.
- `after_scan()`: the scan task calls it right after a scan - the most room any moment has
  before the next one is due: a period less the scan, ~30 ms - and it collects once every
  CHECK_MS of board time, so collections happen there rather than in the middle of a scan,
  a burst or a face (the threshold remains the backstop within a burst). A collection of the
  app's live heap takes ~22 ms on the RP2040 (twin, 147 KB in use; ~29 ms late in a 600-ply
  game): a scan period holds it.
  It collects without looking first: gc.mem_alloc() walks the whole heap's allocation table,
  ~8 ms on the RP2040, and an idle board made ~8 KB of garbage a second anyway (its
  threshold collections, wherever they fell, held up scans by 20-50 ms on the twin; issue 20,
  "A CPU budget": 2.2 % of the CPU a second, as much as the looks and collections cost before).
  CHECK_MS is 3 s: since the scheduler's wait left the heap (app/idle_wait.py) an idle board
  counts ~5 KB a second towards the threshold, and `early()` below makes the collections it
  needs right after a scan; one every second was 2.3 % of the idle board's CPU on the twin
  (background 213 -> 158 ms in 5 s at 3 s), and the long-game memory test's largest free block
  is the same at 1 s and 3 s (96.7 KB; 87.1 KB at 10 s). A look that collects only when 8 KB
  were allocated since the last collection (gc.threshold's own test) was measured and not
  taken: the idle board's background 105 -> 83 ms in 5 s on the twin, but the count at the
  end of a long game held a scan up 34 ms instead of 12, and a game's first faces 42 instead
  of 24 (the start's and the count's garbage then collected in the middle of their work).
  After the look, as after early(), the threshold until the next scan is THRESHOLD + BURST.
  CHECK_MS counts from the last collection after a scan, early()'s too (early(t) sees one by
  the time its test took): an idle board that allocated THRESHOLD bytes in a little under
  CHECK_MS collected twice a moment apart, early() and then the look (issue 32).
- `early()`: right after every scan (the scan task's, and a checkpoint's within a long piece of
  work) the collection the threshold would make later in the period is made at once when
  THRESHOLD bytes have been allocated since the last one (gc.threshold's own test, made by one
  small allocation with the threshold at THRESHOLD), and between scans the threshold is
  THRESHOLD + BURST: a collection (~22-30 ms of the RP2040) falls at the start of a period,
  not wherever an allocation crosses the threshold - at the end of a long game the SGF's
  writing and the count made a threshold collection every ~65 ms of work, and those that fell
  just before a scan was due held it up by 25-40 ms on the twin. A period's work that
  allocates more than BURST still collects where it is (the backstop).
- `ROOM_US`, `hold()`: a collection is made only where the rest of the period holds it.
  Late in a long game a collection is ~25-29 ms of the RP2040 and the longest pieces of work
  between two checkpoints ~18 ms (the count's slices, the SGF's, the end's journal record): a
  collection inside a piece that started just before a scan was due held that scan up by
  their sum, 34 ms on the twin after a 600-ply game (the worst a game's scan waited; issue 32).
  So after a scan early() and after_scan() collect only when ROOM_US is left before the next
  scan is due (a scan that came late, or took long, leaves less), and once a checkpoint finds
  the scan due within ROOM_US (the app's scan_if_due) the threshold is HOLD until that scan:
  a threshold collection then waits for it, where early() makes it. The worst a scan waits is
  then the longest piece, or a collection and a piece less ROOM_US (~25 ms), not their sum. A
  period's work that allocates HOLD bytes still collects where it is (the backstop).
- The threshold at a scan stays 12 KB all game (BURST above it only until the next scan; a
  600-ply game in a Pico-sized heap still ends with a largest free block of 95.8 KB). A higher
  one costs the heap's room: a 600-ply game in a
  Pico-sized heap (tests/host/test_memory_long_game.py) ends with a largest free block of
  94.4 KB at 12 KB, 83.7 KB at 16 KB, 80.3 KB at 20 KB and 64.6 KB at 32 KB (more garbage
  between collections lets short-lived objects split the free room); at 12 KB a brisk ply
  makes ~4 collections, a third of the game task's time on the twin. The room decides
  whether a game can end without a MemoryError; the collections' CPU is paid in scans kept on
  time by the collection after a scan (above).

Loading the code (main.py): MicroPython copies the bytecode of .mpy files on littlefs into
the heap (from a ROMFS image it runs in place), and loading ~45 modules leaves the free heap
in holes between them: on the twin's stock RP2040 image 49 KB stayed free after the imports,
none of it in a block over 1.2 KB, and the tracker's first 2 KB board raised MemoryError. So
main.py builds the drivers first (their large buffers), imports the tracker (the largest
module, whose code needs blocks of over 1 KB), then holds a reserve (`LOAD_RESERVES`, the
largest first) while it imports the rest of the app and lets it go before the app starts: the
game's heap is that one piece. Where the code does not fit beside a reserve, main.py forgets
what it loaded and loads it again beside the next smaller one, at last without one (a
fragmented heap rather than none). The reserve is held where the code runs in place too
(ROMFS, frozen), although an import there makes only small objects (functions, classes,
names): without it the idle app's largest free block was larger (the twin, ROMFS, two seconds
after the start: 40.0 KB against 28.3 KB), but where it matters, at the end of a long game,
smaller: after the count of a 600-ply game 19.8 KB against 28.2 KB (played whole), 19.9 KB
against 28.1 KB (resumed at its pause). A larger reserve keeps a larger piece: after the count
of a 604-ply game played whole on the twin (ROMFS) the largest free block was 28.2 KB with 28
KB and 30.5 KB with 40 KB - the game's own objects take part of the piece - and is 36.6 KB with
48 KB (issue 20 asks a long game to leave 32 KB; the end resumed at its pause: 40.1 KB with
40 KB), the idle app's least free heap (83.8 KB) and largest free block (42.2 KB) unchanged;
28 KB stays the step down for a heap that cannot hold 48 KB beside the code. main.py collects
once more before the tasks start, so that what building and resuming the game left behind is
not what their first objects fill around.

Code used once (issue 17): what runs only at boot (board_config.build, the recovery of a game
from its journal) or rarely (the host's diagnostic commands, the journal's compaction) is
imported when needed and `drop()`ped after: on the stock image its bytecode is heap, and
once no module refers to it the next collection gives it back to the game.

The end's code (issue 20): the tracker's pause and count (pause_and_count, which the tracker
imports as soon as the game pauses), the 180 checks' counts (set_count), the count (scoring,
counting), its fill-in plan (fill_in_check), the SGF writer (sgf, and the record's own
sgf_record with its clock root, clock_sgf_root) and the result face (board_face) are imported
only when the game ends; each import is one piece of 11-35 ms of the
RP2040 from ROMFS, and together they held up scans by up to 85 ms at the end of a game on the
twin. Where the code runs in place (ROMFS, frozen: `code_in_place`), an import costs the heap
only its functions and names, so `EndPreload` imports them one at a time from a pass on - the
pause, or the end (AGA, a game resumed after a dispute), may be a press away: brisk players'
passes left too few periods for all nine, and the rest, imported in the count, held a scan up
by 36 ms on the twin (issue 32) - each right after a scan (the app's background()), without a
collection of its own: one before each import left the count after a 600-ply game the same
largest free block on the twin (15.7 KB) and made that piece a collection longer (a scan held
up 62 ms, 43 ms without). On littlefs their bytecode would be heap held through a disputed
pause and the rest of the game: there they are still loaded at the end, as they are in a game
that ends without the pause (a resignation, a time-out). A new game drops them again
(`drop_end()`, with the SGF record's module): the next game's heap does not keep the last one's
end, and where the code runs in place its pause loads them afresh. (The SGF record's modules
were loaded at the end alone at first: together one piece of ~30 ms, when the SGF was written.)

On CPython (tests, tools) there is nothing to do: its collector is another kind.
"""

import gc

from micropython import const

THRESHOLD = const(12 * 1024)
BURST = const(12 * 1024)  # between two scans: the threshold is THRESHOLD + BURST (early())
HOLD = const(48 * 1024)  # the threshold once a scan is near (hold())
ROOM_US = const(22000)  # the least time left before the next scan for a collection
CHECK_MS = const(3000)
# early()'s test took this long (us): it collected (on the RP2040 a collection of the app's heap
# is ~22-30 ms, of a nearly empty heap ~1 ms; the test alone a few tens of us).
_COLLECTED_US = const(500)
LOAD_RESERVES = (48 * 1024, 28 * 1024)  # tried in turn (main.load_app), then none


class Collector:
    """Applies the policy (see the module docstring); `collections` counts its collections."""

    def __init__(self):
        self.enabled = hasattr(gc, "threshold") and hasattr(gc, "mem_alloc")
        self.collections = 0
        self.checked = None  # board time of the last collection after a scan
        self.held = False  # hold() made until the next early() or after_scan()
        # early()'s clock: whether its test collected (time.ticks_us where there is a
        # threshold, MicroPython; a test may give another).
        self.ticks_us = self.ticks_diff = None
        if self.enabled:
            import time

            self.ticks_us = time.ticks_us
            self.ticks_diff = time.ticks_diff

    def start(self):
        """Set the threshold and start from a clean heap (the app calls this once)."""
        if not self.enabled:
            return
        gc.collect()
        gc.threshold(THRESHOLD)

    def after_scan(self, t, room=ROOM_US):
        """A scan has just been made at board time t, `room` us before the next is due:
        collect if CHECK_MS passed since the last collection here and the room holds a
        collection (see the module docstring), and let the work until the next scan allocate
        THRESHOLD + BURST, as after early(). True if it collected."""
        if not self.enabled or room < ROOM_US:
            return False
        if self.checked is not None and 0 <= t - self.checked < CHECK_MS:
            return False
        self.checked = t
        gc.collect()
        gc.threshold(THRESHOLD + BURST)  # until the next scan, as early() leaves it
        self.held = False
        self.collections += 1
        return True

    def scanned(self, t, room=ROOM_US):
        """after_scan(t, room) or early(room, t), in one call: the scan task's after each of its
        scans (25 a second; a call less is ~35 us of the RP2040 each). True if it looked."""
        if not self.enabled:
            return False
        if room < ROOM_US:
            return self.early(room)  # (it holds)
        if self.checked is None or not 0 <= t - self.checked < CHECK_MS:
            return self.after_scan(t)
        gc.threshold(THRESHOLD)  # early()'s test, in line
        t0 = self.ticks_us()
        bytearray(0)
        if self.ticks_diff(self.ticks_us(), t0) >= _COLLECTED_US:
            self.checked = t
            self.collections += 1
        gc.threshold(THRESHOLD + BURST)
        self.held = False
        return True

    def early(self, room=ROOM_US, t=None):
        """A scan has just been made (at board time t, when given), `room` us before the next
        is due: collect now if THRESHOLD bytes were allocated since the last collection, and
        let the work until the next scan allocate BURST more before the threshold collects;
        with less room than a collection needs, hold() instead (see the module docstring). A
        collection made here at t is the last one after_scan() counts CHECK_MS from. True if it
        looked (the time it took is the caller's to count)."""
        if not self.enabled:
            return False
        if room < ROOM_US:
            self.hold()
            return False
        gc.threshold(THRESHOLD)
        clock = self.ticks_us
        t0 = clock()
        bytearray(0)  # an allocation: gc.threshold's test (a collection here, if due)
        if t is not None and self.ticks_diff(clock(), t0) >= _COLLECTED_US:
            self.checked = t  # (nothing else in the test takes a millisecond)
            self.collections += 1
        gc.threshold(THRESHOLD + BURST)
        self.held = False
        return True

    def hold(self):
        """The next scan is near: no threshold collection before it unless HOLD bytes were
        allocated since the last one (see the module docstring); the next scan's look ends it
        (early(), scanned() or after_scan() with room)."""
        if self.enabled and not self.held:
            gc.threshold(HOLD)
            self.held = True


def drop(name):
    """Forget module `name` (e.g. "ingboard.board_config") so that its code can be collected
    once nothing else refers to it; a later import loads it again. Only where the code is heap
    (MicroPython): on CPython a module is kept (its classes stay the ones tests compare)."""
    import sys

    if not hasattr(gc, "mem_alloc") or name not in sys.modules:
        return
    del sys.modules[name]
    dot = name.rfind(".")
    package = sys.modules.get(name[:dot]) if dot > 0 else None
    if package is not None and hasattr(package, name[dot + 1 :]):
        delattr(package, name[dot + 1 :])  # the package's attribute refers to it too


def heap_figures(checkpoint=None):
    """{"free", "alloc", "largest"} in bytes after a collection; `largest` is the largest block
    an allocation gets, found by trying (to 256 bytes; a try that fails collects, as any
    allocation would, so earlier tries are no obstacle). None each where the interpreter has
    no such heap (CPython). For the host's `mem` command: how much room a long game left.
    `checkpoint()` between the tries (the app's scan checkpoint: each collection is ~30 ms of
    the RP2040 late in a long game, and the ~9 tries together held up a scan by 0.3 s)."""
    if not (hasattr(gc, "mem_free") and hasattr(gc, "mem_alloc")):
        return {"free": None, "alloc": None, "largest": None}
    cp = checkpoint or _nothing
    gc.collect()
    cp()
    free = gc.mem_free()
    alloc = gc.mem_alloc()
    lo = 0
    hi = free
    while hi - lo > 256:
        mid = (lo + hi) // 2
        try:
            bytearray(mid)  # garbage at once: a later try that needs its room collects it
            lo = mid
        except MemoryError:
            hi = mid
        cp()
    gc.collect()
    return {"free": free, "alloc": alloc, "largest": lo}


def _nothing():
    pass


END_MODULES = (
    "ingboard.tracking.pause_and_count",
    "ingboard.bowls.set_count",
    "ingrules.scoring",
    "ingrules.counting",
    "ingboard.tracking.fill_in_check",
    "ingrules.sgf",
    "ingboard.clock.clock_sgf_root",
    "ingboard.records.sgf_record",  # (after clock_sgf_root: each import a piece of its own)
    "ingboard.faces.board_face",
)


def drop_end():
    """Forget the end's modules (END_MODULES, the SGF record's with them: see the module
    docstring): a new game calls this."""
    for name in END_MODULES:
        drop(name)


def code_in_place(path=None):
    """True where a module's code runs from flash - a ROMFS image (/rom...) or frozen into the
    firmware (no such file) - rather than loaded into the heap (an .mpy on littlefs, or CPython's
    .py). `path`: a module's __file__ (default: this module's). (drivers/hx711.py asks the same
    of itself in its own few lines: a driver loads nothing of the app's, and the twin's driver
    tests deploy the drivers alone.)"""
    if path is None:
        path = globals().get("__file__", "")
    if not path:
        return False  # not known: as if loaded into the heap (nothing preloaded)
    if path.startswith("/rom"):
        return True
    import os

    try:
        os.stat(path)
    except OSError:
        return True  # frozen: the name is no file
    return False


class EndPreload:
    """Imports `names` one per step() (see the module docstring); `left` is what remains."""

    def __init__(self, names=()):
        self.left = list(names)
        self.period = None  # step_once(): the scan period of the last import

    def step_once(self, period, report=None):
        """step() at most once a scan `period` (the app's next scan time, or None: no limit).
        The app calls it from the game task's background() and from the scan task right after a
        scan: a game task that runs late in the period rarely found the room for an import (up
        to ~45 ms of the RP2040), and at a pause of ~2 s the end came with half the modules
        still to load on the twin. An import that fails (a MemoryError in a fragmented heap)
        goes to `report(task, exc)` when given, and the game goes on: the end imports the
        module where it needs it (issue 19: no input stops the board program). True if it
        imported or tried."""
        if period is not None and period == self.period:
            return False
        self.period = period
        try:
            return self.step()
        except Exception as exc:  # noqa: BLE001 (reported: see above)
            if report is None:
                raise
            report("game", exc)
            return True

    def step(self):
        """Import the next module; True if one was imported."""
        if not self.left:
            return False
        __import__(self.left.pop(0))
        return True


def end_preload():
    """The app's EndPreload: END_MODULES where the code runs in place, else nothing."""
    return EndPreload(END_MODULES if code_in_place() else ())

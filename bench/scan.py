"""Scan path under MicroPython: bytes allocated per scan in the steady state, and µs per scan.

The board shows a real position (move 150 of the longest 19×19 corpus game); fake ADCs give
each sensor its level (empty, black or white at the classifier's default calibration) plus a
little noise that changes every scan. Steady state: 30 scans of warm-up, then N more.

- allocation, classify: GridScanner.scan + Classifier.classify, with the collector disabled,
  gc.mem_alloc() after N scans minus before, divided by N (goal 0);
- allocation, classify + compare: the same plus Tracker.scan_codes(t, classes) - the
  classifier's own bytearray, as the device passes it - with the tracker's game at that
  position (the board does not change in the steady state) (goal 0);
- µs per 361-point scan: Classifier.classify alone over precomputed readings, and
  Tracker.scan_codes alone, each timed over N scans with time.ticks_us (whole ms in this port, so
  N is large enough for the figure to have three digits).
The classified points must match the position, else the run fails.
"""

import json

from bench import BenchError, Figure, games
from host_tools import FIRMWARE
from host_tools import micropython as mp

SCANS = 300
MOVE = 150
# `python -m bench --tiny` (the guard in make test): fewer scans, the same figures.
TINY = {"SCANS": 20}

_SCRIPT = """
import gc, json, time
from array import array
from ingboard.drivers.grid import GridScanner
from ingboard.sensing.classifier import Classifier, DEFAULT_EMPTY, DEFAULT_SPAN
ROWS = ROWS_TEXT.split("/")
N = SCANS_N
try:
    from ingboard.tracking.tracker import Tracker
except ImportError:
    Tracker = None

levels = array("H", [0] * 361)
for i in range(361):
    ch = ROWS[i // 19][i % 19]
    dev = DEFAULT_SPAN if ch == "B" else (-DEFAULT_SPAN if ch == "W" else 0)
    levels[i] = DEFAULT_EMPTY + dev

class Line:
    def __init__(self):
        self.v = 0
    def __call__(self, v):
        self.v = v

sel = [Line() for _ in range(4)]
grp = [Line() for _ in range(4)]
en = [Line(), Line()]
SCAN = [0]

class Adc:
    # A bank's ADC input behind the muxes (hardware_docs/design.md): it reads the sensor the
    # select lines address - group 16*bank + group code, channel code - whatever order the
    # driver reads in; the noise (0..3 counts) changes every scan.
    def __init__(self, bank):
        self.bank = bank
    def read_u16(self):
        if en[self.bank].v:
            raise AssertionError("read from a disabled bank")
        g = self.bank * 16 + (grp[0].v | grp[1].v << 1 | grp[2].v << 2 | grp[3].v << 3)
        p = g * 16 + (sel[0].v | sel[1].v << 1 | sel[2].v << 2 | sel[3].v << 3)
        return levels[p] + ((p + SCAN[0]) & 3)

def nodelay(us):
    pass

sc = GridScanner(sel, grp, en, [Adc(0), Adc(1)], size=19, delay_us=nodelay)
clf = Classifier(size=19)
def scan():
    SCAN[0] += 1
    return sc.scan()
for _ in range(30):
    clf.classify(scan())
expected = bytes(ord(ROWS[i // 19][i % 19]) for i in range(361))
if bytes(clf.classes) != expected:
    raise AssertionError("classified board differs from the position")

def alloc(fn):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    fn()
    after = gc.mem_alloc()
    gc.enable()
    return after - before

def classify_n():
    for _ in range(N):
        clf.classify(scan())

out = {"alloc_classify": alloc(classify_n) / N}

variants = []
for j in range(4):
    buf = array("H", [0] * 361)
    for i in range(361):
        buf[i] = levels[i] + ((i + j) & 3)
    variants.append(buf)
gc.collect()
t0 = time.ticks_us()
for k in range(N):
    clf.classify(variants[k & 3])
out["classify_us"] = time.ticks_diff(time.ticks_us(), t0) / N
if bytes(clf.classes) != expected:
    raise AssertionError("classified board differs from the position")

if Tracker is not None:
    tracker = Tracker({"size": 19, "rules": "ing1991"})
    game = tracker.game
    for color, col, row in MOVES:
        if col < 0:
            game.pass_move(color)
        else:
            game.play(color, game.board.index(col, row))
    if game.board.rows() != ROWS:
        raise AssertionError("the tracker's game is not at the scanned position")
    T = [0]
    events = []
    def compare_n():
        for _ in range(N):
            clf.classify(scan())
            T[0] += 25
            for event in tracker.scan_codes(T[0], clf.classes):
                events.append(event)  # as the device loop consumes them (no iterator object)
    for _ in range(30):
        T[0] += 25
        tracker.scan_codes(T[0], clf.classes)
    out["alloc_compare"] = alloc(compare_n) / N
    gc.collect()
    t0 = time.ticks_us()
    for _ in range(N):
        T[0] += 25
        tracker.scan_codes(T[0], clf.classes)
    out["compare_us"] = time.ticks_diff(time.ticks_us(), t0) / N
    out["compare_events"] = len(events)
RESULT = json.dumps(out)
"""


def position(corpus, move=MOVE):
    """(rows top line first, moves as (colour 1/2, col, row)) at `move` of the longest 19×19."""
    from ingrules.game import Game

    candidates = [g for g in corpus if g["size"] == 19]
    if not candidates:
        raise BenchError("the corpus has no 19×19 game")
    base = max(candidates, key=lambda g: len(g["moves"]))
    g = Game(19, "ing1991")
    moves = []
    for colour, point in base["moves"][:move]:
        color = 1 if colour == "b" else 2
        if point is None:
            g.pass_move(color)
            moves.append((color, -1, -1))
        else:
            g.play(color, g.board.index(point[1], point[0]))
            moves.append((color, point[1], point[0]))
    return g.board.rows(), moves


def run(rows, moves, scans=SCANS):
    script = (
        _SCRIPT.replace("ROWS_TEXT", repr("/".join(rows)))
        .replace("SCANS_N", str(scans))
        .replace("MOVES", repr(moves))
    )
    try:
        status, out, err, result = mp.run_script(
            script, mounts=[(FIRMWARE, "/fw")], sys_path=["/fw", "/fw/rules"]
        )
    except mp.MicroPythonUnavailable as exc:
        raise BenchError(str(exc)) from None
    if status != 0 or not result:
        raise BenchError("scan run under MicroPython failed:\n%s%s" % (out[-2000:], err[-2000:]))
    return json.loads(result)


def measure(corpus=None, log=print):
    from bench import missing

    corpus = corpus if corpus is not None else games.corpus_games()
    rows, moves = position(corpus)
    result = run(rows, moves, SCANS)
    stones = sum(r.count("B") + r.count("W") for r in rows)
    log(
        "# scan: 19×19 position with %d stones (move %d of the longest 19×19 corpus game), "
        "%d steady-state scans under MicroPython" % (stones, MOVE, SCANS)
    )
    out = [
        Figure("scan_alloc_classify", result["alloc_classify"], "B/scan", ("<=", 0)),
        Figure("scan_classify_us", result["classify_us"], "us/scan"),
    ]
    if "alloc_compare" in result:
        out += [
            Figure("scan_alloc_compare", result["alloc_compare"], "B/scan", ("<=", 0)),
            Figure("scan_compare_us", result["compare_us"], "us/scan"),
        ]
    else:
        reason = "tracker not yet built"
        out += [
            missing("scan_alloc_compare", "B/scan", ("<=", 0), reason),
            missing("scan_compare_us", "us/scan", None, reason),
        ]
    return out

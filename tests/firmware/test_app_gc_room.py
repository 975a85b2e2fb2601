"""Where the app's collections fall in a long piece of work (gc_policy: ROOM_US, hold(); issue
32): a collection is never started where the rest of the scan period cannot hold it, so a scan
waits at most the longest piece, or a collection and a piece less ROOM_US - not their sum (34 ms
after a 600-ply game on the twin). MicroPython's collector modelled on virtual time: a
collection when an allocation finds the amount allocated since the last one at the threshold,
taking COLLECT_MS of the board's time."""

from app_fakes import VirtualTime, clear_records, hardware
from ingboard import gc_policy
from ingboard.app.app import App
from ingboard.records.store import RecordsStore
from test_app import LOG

ROOT = "/tmp/ingboard-test-app-gc-room"
COLLECT_MS = 28  # late in a long game on the twin: ~25-29 ms
PIECE_MS = 16  # the end's longest pieces: ~15-18 ms
ROOM_MS = gc_policy.ROOM_US // 1000


class ModelGc:
    """gc as the collector uses it, with MicroPython's threshold: an allocation collects once
    `amount` reached the threshold (early()'s own test allocation is its threshold call)."""

    def __init__(self, vt):
        self.vt = vt
        self.limit = None
        self.amount = 0
        self.at = []  # the board time each collection started

    def collect(self):
        self.at.append(self.vt.now)
        self.vt.now += COLLECT_MS
        self.amount = 0

    def threshold(self, n=None):
        if n is None:
            return self.limit
        self.limit = n
        if n == gc_policy.THRESHOLD and self.amount >= n:
            self.collect()  # early()'s bytearray(0), right after this call

    def allocate(self, n):
        self.amount += n
        if self.limit is not None and self.amount >= self.limit:
            self.collect()


def _burst(pieces, kb, policy=True):
    # A burst of `pieces` inputs queued at once (the end of a game: the count's slices, the
    # SGF's), each PIECE_MS of work allocating `kb` KB half-way; returns (cpu stats, model).
    empty = "".join(LOG.splitlines(True)[:3])
    vt = VirtualTime()
    cfg, hw = hardware(vt, empty)
    clear_records(ROOT)
    app = App(hw, RecordsStore(ROOT), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    model = ModelGc(vt)
    c = app.collector
    c.enabled = True
    c.ticks_us = lambda: vt.now * 1000  # early()'s clock: whether its test collected
    c.ticks_diff = lambda a, b: a - b
    if not policy:  # the policy before issue 32's room: never held, always room
        early, scanned = c.early, c.scanned
        c.hold = lambda: None
        c.early = lambda room, t=None: early(gc_policy.ROOM_US, t)
        c.scanned = lambda t, room: scanned(t, gc_policy.ROOM_US)
    real_step = app.step

    def step(item):
        if item[0] != 99:
            return real_step(item)
        vt.now += PIECE_MS // 2
        model.allocate(kb * 1024)
        vt.now += PIECE_MS - PIECE_MS // 2
        return None

    app.step = step
    for _ in range(pieces):
        app.inputs.put((99, 0, None, None))
    real_gc = gc_policy.gc
    gc_policy.gc = model
    try:
        vt.drive(app, pieces * PIECE_MS * 3)
    finally:
        gc_policy.gc = real_gc
    return app.cpu_stats(), model


SIZES_KB = (2, 3, 5, 7, 10)  # allocated per piece: 0.1-0.6 MB a second (the end: ~0.25)


def test_a_collection_never_runs_a_scan_late_by_itself_and_a_piece():
    for kb in SIZES_KB:
        stats, model = _burst(60, kb)
        late_ms = stats["scan_late_max_us"] / 1000
        assert late_ms <= max(PIECE_MS, COLLECT_MS + PIECE_MS - ROOM_MS), (kb, late_ms, model.at)
        # ...and the heap is still collected: never more than HOLD allocated between two.
        assert len(model.at) >= 60 * kb * 1024 // gc_policy.HOLD, (kb, model.at)


def test_without_the_room_a_collection_and_a_piece_ran_a_scan_late_by_their_sum():
    # The same burst under the policy before (no room looked at, no hold): the model shows
    # the lateness the twin showed, which the test above rules out.
    worst = max(_burst(60, kb, policy=False)[0]["scan_late_max_us"] for kb in SIZES_KB)
    assert worst / 1000 > COLLECT_MS + PIECE_MS - ROOM_MS

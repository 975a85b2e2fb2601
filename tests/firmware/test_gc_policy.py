"""When the app's collector collects (gc_policy.Collector): right after a scan, once every
CHECK_MS of board time. CPython and MicroPython."""

from ingboard import gc_policy


class FakeGc:
    """gc as the collector uses it (CPython's has no threshold): its calls, in order."""

    def __init__(self):
        self.calls = []

    def collect(self):
        self.calls.append("collect")

    def threshold(self, n=None):
        if n is not None:
            self.calls.append(n)


def test_collector_after_a_scan_every_check_ms():
    c = gc_policy.Collector()
    c.enabled = True
    real = gc_policy.gc
    gc_policy.gc = fake = FakeGc()
    try:
        assert c.after_scan(0)
        assert not c.after_scan(gc_policy.CHECK_MS - 1)
        assert c.after_scan(gc_policy.CHECK_MS)
        assert not c.after_scan(2 * gc_policy.CHECK_MS - 1)
        assert c.after_scan(2 * gc_policy.CHECK_MS)
    finally:
        gc_policy.gc = real
    assert c.collections == 3
    # Each: a collection, then the threshold until the next scan as early() leaves it.
    assert fake.calls == ["collect", gc_policy.THRESHOLD + gc_policy.BURST] * 3


def test_early_sets_the_threshold_until_the_next_scan():
    # gc_policy.early(): after a scan, the collection the threshold would make later in the
    # period is made at once (gc.threshold's own test at THRESHOLD), and the threshold until
    # the next scan is THRESHOLD + BURST. MicroPython (CPython's gc has no threshold: nothing
    # to do there).
    import gc

    c = gc_policy.Collector()
    if not c.enabled:
        assert not c.early()
        return
    old = gc.threshold()
    try:
        c.start()
        assert gc.threshold() == gc_policy.THRESHOLD
        junk = None
        for _ in range((gc_policy.THRESHOLD + 2048) // 256):
            junk = bytearray(256)  # garbage: over THRESHOLD bytes
        del junk
        assert c.early()
        assert gc.threshold() == gc_policy.THRESHOLD + gc_policy.BURST
        assert c.early()  # nothing allocated since: the same threshold, nothing else
        assert gc.threshold() == gc_policy.THRESHOLD + gc_policy.BURST
    finally:
        gc.threshold(old)


def test_early_holds_instead_of_collecting_when_the_period_has_no_room():
    # Issue 32: a collection right after a scan that came late (or took long) ran past the
    # next scan's time. With less than ROOM_US left, early() looks no further and holds the
    # threshold at HOLD until the next scan; with room, it makes its test as before.
    c = gc_policy.Collector()
    c.enabled = True
    c.ticks_us = lambda: 0
    c.ticks_diff = lambda a, b: a - b
    real = gc_policy.gc
    gc_policy.gc = fake = FakeGc()
    try:
        assert not c.early(gc_policy.ROOM_US - 1)
        assert fake.calls == [gc_policy.HOLD] and c.held
        c.hold()  # held already: nothing more
        assert fake.calls == [gc_policy.HOLD]
        assert c.early(gc_policy.ROOM_US)
        assert not c.held
        assert fake.calls[1:] == [gc_policy.THRESHOLD, gc_policy.THRESHOLD + gc_policy.BURST]
    finally:
        gc_policy.gc = real


def test_after_scan_waits_for_a_period_with_room():
    # The every-CHECK_MS collection is made after the first scan that leaves ROOM_US.
    c = gc_policy.Collector()
    c.enabled = True
    real = gc_policy.gc
    gc_policy.gc = fake = FakeGc()
    try:
        assert not c.after_scan(0, gc_policy.ROOM_US - 1)
        assert fake.calls == [] and c.checked is None
        assert c.after_scan(40, gc_policy.ROOM_US)
        assert fake.calls == ["collect", gc_policy.THRESHOLD + gc_policy.BURST]
        assert c.checked == 40
    finally:
        gc_policy.gc = real


def _timed_collector(taken):
    # A collector whose clock advances by taken's microseconds in turn, one per reading (each
    # early() test reads it twice: before and after): `taken` may be refilled between calls.
    c = gc_policy.Collector()
    c.enabled = True
    now = [0]

    def ticks_us():
        now[0] += taken.pop(0) if taken else 0
        return now[0]

    c.ticks_us = ticks_us
    c.ticks_diff = lambda a, b: a - b
    return c


def test_a_collection_made_early_is_the_one_the_next_look_counts_from():
    # early(t) that collected (its test took a collection's time) at board time t: the look
    # after a scan collects again CHECK_MS after t, not CHECK_MS after its own last one - two
    # collections a moment apart were all the idle board's threshold gave (issue 32).
    taken = []  # the microseconds early()'s test takes, in turn
    c = _timed_collector(taken)
    real = gc_policy.gc
    gc_policy.gc = fake = FakeGc()
    try:
        assert c.after_scan(0)
        taken[:] = [0, 30]  # a test without a collection
        assert c.early(t=1000)
        assert c.after_scan(gc_policy.CHECK_MS)  # counted from 0
        taken[:] = [0, 25000]  # the test collected
        assert c.early(t=gc_policy.CHECK_MS + 1000)
        assert not c.after_scan(2 * gc_policy.CHECK_MS)
        assert not c.after_scan(2 * gc_policy.CHECK_MS + 999)
        assert c.after_scan(2 * gc_policy.CHECK_MS + 1000)
        taken[:] = [0, 25000]
        assert c.early()  # no board time given: nothing to count from
        assert not c.after_scan(3 * gc_policy.CHECK_MS + 999)
    finally:
        gc_policy.gc = real
    assert c.collections == 4  # three looks and the early one
    assert fake.calls.count("collect") == 3


def test_scanned_is_the_look_after_a_scan_or_else_early():
    # The scan task's one call after its scans: the same collections and thresholds, in the
    # same order, as after_scan(t) or early(t) on a collector of its own.
    def run(call):
        c = _timed_collector([0, 30, 0, 25000, 0, 30, 0, 30, 0, 30])  # one test collected
        real = gc_policy.gc
        gc_policy.gc = fake = FakeGc()
        try:
            looked = [call(c, t) for t in (0, 40, 1000, 2000, 3000, 4000, 5000, 5040, 6000)]
        finally:
            gc_policy.gc = real
        return looked, fake.calls, c.collections, c.checked

    one = run(lambda c, t: c.scanned(t))
    two = run(lambda c, t: c.after_scan(t) or c.early(t=t))
    assert one == two
    assert one[1].count("collect") == 2 and one[2] == 3  # two looks, one early collection


def test_scanned_holds_when_the_period_has_no_room():
    # As early(): with less than ROOM_US before the next scan, neither the look nor the test.
    c = gc_policy.Collector()
    c.enabled = True
    real = gc_policy.gc
    gc_policy.gc = fake = FakeGc()
    try:
        assert not c.scanned(0, gc_policy.ROOM_US - 1)
        assert fake.calls == [gc_policy.HOLD] and c.held and c.checked is None
        assert c.scanned(40, gc_policy.ROOM_US)
        assert fake.calls[1:] == ["collect", gc_policy.THRESHOLD + gc_policy.BURST]
        assert not c.held and c.checked == 40
    finally:
        gc_policy.gc = real

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

"""When the app's collector collects (gc_policy.Collector): right after a scan, once every
CHECK_MS of board time. CPython and MicroPython."""

from ingboard import gc_policy


def test_collector_after_a_scan_every_check_ms():
    c = gc_policy.Collector()
    c.enabled = True  # (CPython has no gc.threshold: the policy's timing alone is checked)
    assert c.after_scan(0)
    assert not c.after_scan(gc_policy.CHECK_MS - 1)
    assert c.after_scan(gc_policy.CHECK_MS)
    assert not c.after_scan(2 * gc_policy.CHECK_MS - 1)
    assert c.after_scan(2 * gc_policy.CHECK_MS)
    assert c.collections == 3

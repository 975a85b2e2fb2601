"""The app's collector on MicroPython's rp2 port in the device twin (gc_policy.Collector):
early() collects only when THRESHOLD bytes were allocated since the last collection -
gc.threshold's own test, which the WebAssembly port cannot show (its collector sees the running
script's whole stack and frees nothing there) - and the look after a scan every CHECK_MS
collects whatever there is and leaves the threshold as early() does, counting CHECK_MS from
early()'s own collection."""

import json

import pytest
from twin_support import require_images

from host_tools.twin import deploy
from host_tools.twin.process import Twin

SCRIPT = """
import gc, json
from ingboard import gc_policy
c = gc_policy.Collector()
def garbage(n):
    junk = None
    for _ in range(n // 256):
        junk = bytearray(240)  # 256 bytes a block run (16 + 240)
    return junk is None
def held():
    return gc.mem_alloc() - base
c.start()
base = gc.mem_alloc()
out = {"enabled": c.enabled}
garbage(2048)
c.after_scan(0)
out["look"] = held()  # collected, little as there was
out["after_look"] = gc.threshold()
garbage(gc_policy.THRESHOLD // 2)
c.early()
out["early_little"] = held()
garbage(gc_policy.THRESHOLD)
c.early(t=5000)
out["early_enough"] = held()
garbage(2048)
c.after_scan(gc_policy.CHECK_MS + 4999)
out["look_after_early"] = held()  # CHECK_MS from the early collection: none
c.after_scan(gc_policy.CHECK_MS + 5000)
out["look_later"] = held()
import time
t0 = time.ticks_us()
gc.collect()
out["collect_us"] = time.ticks_diff(time.ticks_us(), t0)
t0 = time.ticks_us()
c.early()
out["early_us"] = time.ticks_diff(time.ticks_us(), t0)
out["threshold"] = gc_policy.THRESHOLD
out["burst"] = gc_policy.BURST
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def twin():
    require_images("stock")
    with Twin("stock") as t:
        deploy.put_files(t, deploy.compiled(["ingboard/__init__.py", "ingboard/gc_policy.py"]))
        yield t


@pytest.mark.device
def test_early_collects_only_after_threshold_bytes_and_a_look_always_on_the_rp2_port(twin):
    out = json.loads(twin.exec(SCRIPT, max_ms=60000).strip().splitlines()[-1])
    assert out["enabled"] is True
    threshold = out["threshold"]
    # The look after a scan collects what there is (the script's own objects stay).
    assert out["look"] < 1024, out
    # And the work until the next scan may allocate THRESHOLD + BURST, as after early().
    assert out["after_look"] == threshold + out["burst"], out
    # early(): a collection only once THRESHOLD bytes were allocated since the last.
    assert out["early_little"] >= threshold // 4, out
    assert out["early_enough"] < threshold // 8, out
    # The look after a scan counts CHECK_MS from that early collection, not from its own.
    assert out["look_after_early"] >= 1024, out
    assert out["look_later"] < 1024, out
    # What early() tells a collection by (gc_policy._COLLECTED_US, 500 us): the time its test
    # takes, a few tens of us without one, a collection of even a nearly empty heap more.
    assert out["early_us"] < 200 and out["collect_us"] > 700, out

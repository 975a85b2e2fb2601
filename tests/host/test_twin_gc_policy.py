"""The app's collector on MicroPython's rp2 port in the device twin (gc_policy.Collector): a
look after a scan collects only when CHECK_BYTES were allocated since the last collection, and
early() only when THRESHOLD were - gc.threshold's own test, which the WebAssembly port cannot
show (its collector sees the running script's whole stack and frees nothing there)."""

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
garbage(gc_policy.CHECK_BYTES // 4)
c.after_scan(0)
out["look_little"] = held()  # not collected: the garbage is still counted
garbage(gc_policy.CHECK_BYTES)
c.after_scan(gc_policy.CHECK_MS)
out["look_enough"] = held()  # collected
garbage(gc_policy.THRESHOLD // 2)
c.early()
out["early_little"] = held()
garbage(gc_policy.THRESHOLD)
c.early()
out["early_enough"] = held()
out["check_bytes"] = gc_policy.CHECK_BYTES
out["threshold"] = gc_policy.THRESHOLD
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def twin():
    require_images("stock")
    with Twin("stock") as t:
        deploy.put_files(t, deploy.compiled(["ingboard/__init__.py", "ingboard/gc_policy.py"]))
        yield t


@pytest.mark.device
def test_the_collector_collects_only_after_enough_garbage_on_the_rp2_port(twin):
    out = json.loads(twin.exec(SCRIPT, max_ms=60000).strip().splitlines()[-1])
    assert out["enabled"] is True
    check, threshold = out["check_bytes"], out["threshold"]
    # A look a quarter of CHECK_BYTES after the last collection leaves the garbage there.
    assert out["look_little"] >= check // 8, out
    # One after CHECK_BYTES more collects it (what is left is small: the script's own).
    assert out["look_enough"] < check // 8, out
    # early(): the same at THRESHOLD.
    assert out["early_little"] >= threshold // 4, out
    assert out["early_enough"] < threshold // 8, out

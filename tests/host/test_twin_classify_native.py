"""The classifier's native loop (sensing/classify_viper.py, `@micropython.viper`) on MicroPython's
rp2 port in the device twin gives bit-for-bit what the pure loop gives - classes, tracked
baselines, fault counters and new faults, scan after scan - over readings that exercise every
branch (stones entering and leaving through the hysteresis band, over-range, rails until a
fault, a frozen sensor, slow drift of the empty level), and allocates nothing but the list of a
scan's new faults; so does a scan
classified in parts as the grid reads it (Classifier.begin/part/end, native and pure)."""

import json

import pytest
from twin_support import require_images

from host_tools.twin import deploy
from host_tools.twin.process import Twin

SCRIPT = """
import time
from array import array
from ingboard.sensing.classifier import Classifier

def readings(k, out):
    # 361 points: per point a pattern chosen by its index, moving with the scan number k.
    for i in range(361):
        kind = i % 9
        noise = (i * 7 + k * 13) % 5
        if kind == 0:
            v = 32768 + noise + (k * i) % 40  # empty with drift
        elif kind == 1:
            v = 32768 + (k * 311 + i * 97) % 12000 - 1500  # wanders through the bands
        elif kind == 2:
            v = 32768 - (k * 173 + i * 53) % 12000 + 1500
        elif kind == 3:
            v = 41768 + noise if (k // 7) % 2 else 32768 + noise  # a stone comes and goes
        elif kind == 4:
            v = 23768 + noise if (k // 5) % 3 else 32768 - noise
        elif kind == 5:
            v = 60000 + noise if k % 11 == 3 else 32770 + noise  # over-range now and then
        elif kind == 6:
            v = 100 if i % 2 else 65500  # at a rail: a fault after fault_scans
        elif kind == 7:
            v = 33000  # frozen: the same code every scan
        else:
            v = 32768 + ((k * i) % 2000) - 1000
        out[i] = v
    return out

a = Classifier(19, fault_scans=6, frozen_scans=9, settle_scans=3, track_shift=4)
b = Classifier(19, fault_scans=6, frozen_scans=9, settle_scans=3, track_shift=4)
cp = Classifier(19, fault_scans=6, frozen_scans=9, settle_scans=3, track_shift=4)
dp = Classifier(19, fault_scans=6, frozen_scans=9, settle_scans=3, track_shift=4)
native = a.native is not None
b.native = None
dp.native = None
# The grid's order (drivers/grid.py: by group address, groups a and a + 16 of 23).
order = array('H', [0] * 361)
ends = []
j = 0
for ad in range(16):
    for g in (ad, ad + 16):
        for ch in range(16):
            p = g * 16 + (15 - ch)
            if g < 23 and p < 361:
                order[j] = p
                j += 1
    ends.append(j)

def in_parts(x, buf):
    x.begin(buf, order, ends)
    for part in range(len(ends)):
        x.part(part)
    return x.end()

def same_as(x, y, nx, ny):
    return nx == ny and x.classes == y.classes and x.fault == y.fault \
        and x.baseline == y.baseline and x.new_faults[:nx] == y.new_faults[:ny]
buf = array('H', [0] * 361)
same = True
scans = 0
ta = tb = 0
for k in range(SCANS):
    readings(k, buf)
    t = time.ticks_us()
    na = a.classify(buf)
    ta += time.ticks_diff(time.ticks_us(), t)
    t = time.ticks_us()
    nb = b.classify(buf)
    tb += time.ticks_diff(time.ticks_us(), t)
    scans += 1
    if na != nb or a.classes != b.classes or a.fault != b.fault or a.baseline != b.baseline \\
            or a.new_faults[:na] != b.new_faults[:nb] or a.changed != b.changed:
        same = False
        break
for name in ('_last', '_same', '_run'):
    if getattr(a, name) != getattr(b, name):
        same = False
kinds = {}
for c in a.classes:
    kinds[chr(c)] = kinds.get(chr(c), 0) + 1
faults = sum(1 for f in a.fault if f)
import gc
gc.collect()
gc.disable()
# A scan that finds no new fault allocates nothing; one that finds some, their list
# (new_faults: 2 bytes a point, and the array's header) - the same readings again and again
# find the frozen sensors.
tally = {"allocated": 0, "over": 0, "found": 0}

def count(n, d):
    # A scan's `n` new faults and the `d` bytes it allocated, into the tally.
    if n:
        tally["found"] += 1
        tally["over"] = max(tally["over"], d - 2 * n)
    else:
        tally["allocated"] += d

for k in range(10):
    before = gc.mem_alloc()
    n = a.classify(buf)
    count(n, gc.mem_alloc() - before)
    before = gc.mem_alloc()
    cp.begin(buf, order, ends)
    for part in range(16):
        cp.part(part)
    n = cp.end()
    count(n, gc.mem_alloc() - before)
gc.enable()
allocated, over, found = tally["allocated"], tally["over"], tally["found"]
print(json.dumps({"native": native, "same": same, "scans": scans, "kinds": kinds,
                  "faults": faults, "allocated": allocated, "over": over, "found": found,
                  "native_us": ta // SCANS,
                  "pure_us": tb // SCANS}))
"""


@pytest.fixture(scope="module")
def twin():
    require_images("stock")
    with Twin("stock") as t:
        deploy.put_files(
            t,
            deploy.compiled(
                [
                    "ingboard/__init__.py",
                    "ingboard/sensing/__init__.py",
                    "ingboard/sensing/classifier.py",
                    "ingboard/sensing/classify_viper.py",
                ]
            ),
        )
        yield t


def test_native_loop_is_bit_identical_to_the_pure_loop_on_the_rp2_port(twin):
    out = twin.exec("import json\n" + SCRIPT.replace("SCANS", "40"), max_ms=60000)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["native"] is True  # the rp2 port loaded the .mpy's native code
    assert result["scans"] == 40 and result["same"] is True, result
    # The readings really went through every branch.
    assert set(result["kinds"]) == {".", "B", "W", "?"}, result
    assert result["faults"] > 0
    # The steady-state scan path allocates nothing with the native loop either; a scan that
    # finds new faults only their list.
    assert result["allocated"] == 0, result
    assert result["found"] > 0 and result["over"] <= 64, result  # (headers, 16-byte blocks)

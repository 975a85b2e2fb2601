"""The scan -> classify path allocates nothing per scan, measured under real MicroPython.

ARCHITECTURE ("Memory and speed"): the grid scanner reads into a preallocated array and the
classifier keeps all its state in arrays built once, so after warm-up N scans leave
gc.mem_alloc() unchanged (with the collector disabled, any allocation would show).
"""

import json

import pytest

from host_tools import FIRMWARE
from host_tools import micropython as mp

SCRIPT = """
import gc, json
from ingboard.drivers.grid import GridScanner
from ingboard.sensing.classifier import Classifier

class Line:
    def __init__(self):
        self.v = 0
    def __call__(self, v):
        self.v = v

class Adc:
    def __init__(self):
        self.k = 0
    def read_u16(self):
        # An empty board with noise, a black stone at every 7th slot, a dead sensor at slot 5.
        self.k = (self.k + 1) % 9973
        if self.k % 361 == 5:
            return 0
        if self.k % 7 == 0:
            return 41768 + (self.k & 3)
        return 32768 + (self.k & 3)

def nodelay(us):
    pass

sc = GridScanner([Line() for _ in range(4)], [Line() for _ in range(4)], [Line(), Line()],
                 [Adc(), Adc()], size=19, delay_us=nodelay)
clf = Classifier(size=19, fault_scans=5, settle_scans=2)
for _ in range(30):
    clf.classify(sc.scan())
def measure(n):
    faults = 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(n):
        faults += clf.classify(sc.scan())
    after = gc.mem_alloc()
    gc.enable()
    return after - before

allocated = measure(SCANS)
stones = sum(1 for c in clf.classes if c == 66)
RESULT = json.dumps({"allocated": allocated, "stones": stones, "scans": clf.scans})
"""


def test_scan_and_classify_allocate_nothing_per_scan_under_micropython():
    try:
        status, out, err, result = mp.run_script(
            SCRIPT.replace("SCANS", "50"),
            mounts=[(FIRMWARE, "/fw")],
            sys_path=["/fw", "/fw/rules"],
        )
    except mp.MicroPythonUnavailable as exc:
        pytest.fail(str(exc))
    assert status == 0 and result, out + err
    data = json.loads(result)
    assert data["scans"] == 80
    assert data["stones"] > 0  # the scans really classified something
    assert data["allocated"] == 0, data

"""Tracker._differences' walk over every point (plays.py) as native code (`@micropython.viper`),
for the boards: the points, in scan order, whose reading is known (not UNKNOWN), whose sensor is
not left out (`faulty`) and which read otherwise than the game's stone there - the few the
tracker then looks at in Python. Ports without a native emitter (WebAssembly) refuse it and
CPython does not use it (NATIVE); plays.py then walks every point in its pure loop, which gives
the same lists (tests/host/test_twin_differ_native.py compares both on the rp2 port).

The walk runs after every input the tracker takes (a scan line, a press, a bowl reading that
changed something): on the device twin (RP2040) the pure walk over 361 points is the largest
single piece of a ply's tracking.
"""

import sys

import micropython
from micropython import const

NATIVE = sys.implementation.name == "micropython"

_UNKNOWN = const(4)  # board_view.UNKNOWN


@micropython.viper
def differing(order, seen, cells, faulty, out) -> int:
    od = ptr16(order)  # noqa: F821 (viper's pointer types)
    sn = ptr8(seen)  # noqa: F821
    cl = ptr8(cells)  # noqa: F821
    fa = ptr8(faulty)  # noqa: F821
    o = ptr16(out)  # noqa: F821
    n = int(len(order))
    m = 0
    k = 0
    while k < n:
        p = od[k]
        k += 1
        v = sn[p]
        if v == _UNKNOWN or fa[p] or v == cl[p]:
            continue
        o[m] = p
        m += 1
    return m

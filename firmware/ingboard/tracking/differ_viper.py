"""Tracker._differences' walk over every point (plays.py) as native code (viper), for the
boards: the scan positions whose point's reading is known (not UNKNOWN), whose sensor is not
left out (`faulty`) and which reads otherwise than the game's stone there - the few the tracker
then looks at in Python, one call each. Ports without a native emitter (WebAssembly) refuse it
and CPython does not use it (NATIVE); plays.py then walks every point in its pure loop, which
gives the same lists (tests/host/test_twin_differ_native.py compares both on the rp2 port).

The walk runs after every input the tracker takes (a scan line, a press, a bowl reading that
changed something): in a long game it was a quarter of the tracking's time a ply.
"""

import sys

import micropython
from micropython import const

NATIVE = sys.implementation.name == "micropython"

_UNKNOWN = const(4)  # board_view.UNKNOWN


@micropython.viper
def next_differing(order, seen, cells, faulty, k: int) -> int:
    # The first scan position from k on whose point differs, or len(order): no buffer to keep.
    od = ptr16(order)  # noqa: F821 (viper's pointer types)
    sn = ptr8(seen)  # noqa: F821
    cl = ptr8(cells)  # noqa: F821
    fa = ptr8(faulty)  # noqa: F821
    n = int(len(order))
    while k < n:
        p = od[k]
        v = sn[p]
        if v != _UNKNOWN and not fa[p] and v != cl[p]:
            return k
        k += 1
    return n

"""ingboard host tools (CPython only).

Importing this package makes the firmware importable on CPython: `firmware/` goes on sys.path
(package `ingboard`) together with a small shim for MicroPython's `micropython` module.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
_SHIMS = os.path.join(ROOT, "host_tools", "cpython_shims")

for _path in (_SHIMS, FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

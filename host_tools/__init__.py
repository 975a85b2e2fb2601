"""ingboard host tools (CPython only).

Importing this package makes the firmware importable on CPython: `firmware/` (package
`ingboard`) and `firmware/rules/` (the rules core, package `ingrules`) go on sys.path together
with a small shim for MicroPython's `micropython` module.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
RULES = os.path.join(FIRMWARE, "rules")
_SHIMS = os.path.join(ROOT, "host_tools", "cpython_shims")

for _path in (_SHIMS, RULES, FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
import host_tools  # noqa: E402,F401  (firmware/ and the micropython shim on sys.path)

# The shared firmware tests import their helpers (expect, positions) as top-level modules, the
# way they are laid out in MicroPython's file system.
sys.path.insert(0, os.path.join(HERE, "firmware"))

"""CPython stand-in for MicroPython's `micropython` module, so firmware code runs unchanged.

Only what the firmware uses: `const` (identity on CPython; folded by the MicroPython compiler)
and the code-emitter decorators (no-ops here, as on the WebAssembly port which has no native
emitter).
"""


def const(value):
    return value


def native(func):
    return func


def viper(func):
    return func


def opt_level(level=None):
    return 0

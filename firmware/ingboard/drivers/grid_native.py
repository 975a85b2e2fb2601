"""GridScanner.scan's 16-channel inner loop as native code (`@micropython.native`), for the
boards: the same statements as the pure loop in grid.py (the same pin writes and ADC reads in
the same order, so the readings are the same); the native emitter only takes the interpreter's
bytecode dispatch out of the loop. Ports without a native emitter (WebAssembly) refuse it and
CPython does not use it (NATIVE); grid.py then keeps its pure loop.

Measured on the device twin (RP2040 at 125 MHz, 19x19): the pure scan 24.0 ms (of which 9.2 ms
are the 23 groups' power-on waits), 21.0 ms with this loop (scan pass 30.7 -> 27.0 ms).
"""

import sys

import micropython
from micropython import const

NATIVE = sys.implementation.name == "micropython"

_UNUSED = const(0xFFFF)


@micropython.native
def read_group(sel, state, flips, codes, pmap, base, adc, buf):
    k = 0
    while k < 16:
        if k:
            b = flips[k]
            v = state[b] ^ 1
            state[b] = v
            sel[b](v)
        p = pmap[base + codes[k]]
        if p != _UNUSED:
            buf[p] = adc.read_u16()
        k += 1

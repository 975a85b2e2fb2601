"""Board._take's question - has the chain at p a liberty? - as native code
(`@micropython.viper`), for the boards.

The same search as Board._flood(p, True) (a chain flooded from p until an empty point is
next to one of its stones), on the board's own cells and marks through raw pointers: no list,
no heap frame. Only MicroPython ports with a native emitter (rp2, esp32, ...) import this
module: the WebAssembly port refuses the decorator at compile time and CPython has no
pointers, so board.py then keeps the pure flood (tests/firmware's twin test compares both).

Measured on the device twin (RPI_PICO, RP2040 at 125 MHz; bench: mcu_move_us): a play next
to an opponent stone whose liberties are not beside it asks this before any capture.
"""

import sys

import micropython

NATIVE = sys.implementation.name == "micropython"

# The search's stack: padded indexes (u16) of a 19x19 board's 441 cells, one for the module
# (nothing runs two searches at once: a search does not yield).
STACK = bytearray(2 * 21 * 21)


@micropython.viper
def has_liberty(cells, mark, p: int, s: int) -> int:
    """1 when the chain at p (a stone) has an empty point next to it, else 0; marks cleared."""
    c = ptr8(cells)  # noqa: F821 (viper's pointer types)
    m = ptr8(mark)  # noqa: F821
    st = ptr16(STACK)  # noqa: F821
    color = c[p]
    st[0] = p
    m[p] = 1
    n = 1
    i = 0
    found = 0
    while i < n:
        q = st[i]
        i += 1
        k = 0
        while k < 4:
            if k == 0:
                v = q - s
            elif k == 1:
                v = q - 1
            elif k == 2:
                v = q + 1
            else:
                v = q + s
            k += 1
            x = c[v]
            if x == 0:
                found = 1
                break
            if x == color and not m[v]:
                m[v] = 1
                st[n] = v
                n += 1
        if found:
            break
    i = 0
    while i < n:
        m[st[i]] = 0
        i += 1
    return found

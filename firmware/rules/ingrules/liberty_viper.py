"""The question Board._place asks before taking a chain - has the chain at p a liberty? - as
native code (`@micropython.viper`), for the boards.

The same answer as Board._flood(p, True), from a depth-first walk of the chain on the board's
own cells and marks through raw pointers: no list, no heap frame, no stack (each stone's mark
holds the step that reached it, 1..4, so the walk goes back by it; the first stone's is 5),
and the marks cleared after, a word at a time from the lowest stone marked to the highest.
Only MicroPython ports with a native emitter (rp2, esp32, ...) import this module: the
WebAssembly port refuses the decorator at compile time and CPython has no pointers, so
board.py then keeps the pure flood
(tests/host/test_twin_liberty_native.py compares both on the twin).

Measured on the device twin (RPI_PICO, RP2040 at 125 MHz; bench: mcu_move_us, 767 -> 675 us
a move): a play next to an opponent stone whose liberties are not beside it asks this before
any capture (and a play with no empty neighbour, before self-removal), and the pure flood's
frame is a heap block.

`flood_chain` is the Ing ko rule's walk of the chains around a ko capture (ko.py
`_surrounding`), the same walk as ko.flood_chain: late in a long game those walls are ~200
stones, 25-50 ms of the RP2040 in pure bytecode, ~1 ms here.
"""

import sys

import micropython

NATIVE = sys.implementation.name == "micropython"


@micropython.viper
def has_liberty(cells, mark, p: int, s: int) -> int:
    """1 when the chain at p (a stone) has an empty point next to it, else 0. `mark` (all
    zero, as long as `cells` rounded up to whole words) is all zero again after."""
    c = ptr8(cells)  # noqa: F821 (viper's pointer types)
    m = ptr8(mark)  # noqa: F821
    color = c[p]
    found = 0
    q = p
    m[p] = 5
    lo = p  # the lowest and highest stone marked: the words cleared after
    hi = p
    k = 0  # the next step to try from q: 0 down, 1 left, 2 right, 3 up
    while True:
        if k < 4:
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
            if x == color and m[v] == 0:
                m[v] = k  # reached by step k - 1
                if v < lo:
                    lo = v
                elif v > hi:
                    hi = v
                q = v
                k = 0
        else:
            d = m[q]
            if d == 5:
                break
            if d == 1:
                q += s
            elif d == 2:
                q += 1
            elif d == 3:
                q -= 1
            else:
                q -= s
            k = d
    w = ptr32(mark)  # noqa: F821
    i = lo >> 2
    hi = hi >> 2
    while i <= hi:
        w[i] = 0
        i += 1
    return found


@micropython.viper
def flood_chain(cells, seen, p: int, s: int, out, k: int) -> int:
    """The chain at p (a stone, unmarked in `seen`) marked 1 in `seen` and written to `out`
    (16-bit points) from out[k] on, in the order Board.chain(p) gives it; returns the index
    after its last point. `seen` marks no stone of that chain before the call. The walk
    itself is the queue: out[k..] is read as it is written."""
    c = ptr8(cells)  # noqa: F821 (viper's pointer types)
    m = ptr8(seen)  # noqa: F821
    o = ptr16(out)  # noqa: F821
    color = c[p]
    m[p] = 1
    o[k] = p
    i = k
    k += 1
    while i < k:
        q = o[i]
        i += 1
        v = q - s
        if c[v] == color and m[v] == 0:
            m[v] = 1
            o[k] = v
            k += 1
        v = q - 1
        if c[v] == color and m[v] == 0:
            m[v] = 1
            o[k] = v
            k += 1
        v = q + 1
        if c[v] == color and m[v] == 0:
            m[v] = 1
            o[k] = v
            k += 1
        v = q + s
        if c[v] == color and m[v] == 0:
            m[v] = 1
            o[k] = v
            k += 1
    return k

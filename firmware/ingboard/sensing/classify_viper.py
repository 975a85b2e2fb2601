"""Classifier.classify's per-point loop as native code (`@micropython.viper`), for the boards.

The same integer arithmetic as the pure loop in classifier.py, statement for statement, on the
classifier's own arrays (no allocation: the arrays are reached through raw pointers); a test
on the device twin checks that both give bit-identical classes, baselines and faults over a
long sequence of scans. Only MicroPython ports with a native emitter (rp2, esp32, ...) import
this module: the WebAssembly port refuses the decorator at compile time and CPython has no
pointers, so classifier.py then keeps its pure loop.

Measured on the device twin (RPI_PICO, RP2040 at 125 MHz, 361 points, ~150 stones): the pure
loop 26 ms (73 us a point), this one 1.5 ms (4 us a point).

`state` is the array('I') Classifier builds once of the addresses of its arrays (uctypes.addressof;
heap objects never move): classes, fault, baseline, sign_b, span_b, span_w, last, same, run (the
empty run, or 256 + the rail run), cal_empty, drift; a new fault is marked in `fault` (its reason |
0x80, classifier._NEW) and counted;
`params` an array('i'): points, rail_low, rail_high, fault_scans, frozen_scans, settle_scans,
track_shift, then the new faults found so far in this scan, the part to classify (-1: every
point, in point order; k: the points order[ends[k - 1]:ends[k]], a part of a scan read in parts,
Classifier.part), then the parts' ends (_PARTS of them), then enter_pct, leave_pct and over_pct,
then a flag set to 1 when a class changed.
Returns the number of new faults (params[7] and those
found now).
"""

import sys

import micropython
from micropython import const

NATIVE = sys.implementation.name == "micropython"

_EMPTY = const(46)
_BLACK = const(66)
_WHITE = const(87)
_UNKNOWN = const(63)
_FAULT_RAIL = const(1)
_FAULT_FROZEN = const(2)
_RAIL_RUN = const(256)  # classifier._RAIL_RUN
_NEW = const(0x80)  # classifier._NEW
_ENTER = const(25)  # params' index of enter_pct: after 9 and classifier._PARTS (16)
_CHANGED = const(28)  # classifier._CHANGED: set when a class changed


@micropython.viper
def classify_points(state, readings, params, order) -> int:
    a = ptr32(state)  # noqa: F821 (viper's pointer types)
    classes = ptr8(a[0])  # noqa: F821
    fault = ptr8(a[1])  # noqa: F821
    base = ptr32(a[2])  # noqa: F821
    sign_b = ptr8(a[3])  # noqa: F821
    span_b = ptr16(a[4])  # noqa: F821
    span_w = ptr16(a[5])  # noqa: F821
    last = ptr16(a[6])  # noqa: F821
    same = ptr16(a[7])  # noqa: F821
    run = ptr16(a[8])  # noqa: F821
    cal = ptr16(a[9])  # noqa: F821
    drift = ptr16(a[10])  # noqa: F821
    rd = ptr16(readings)  # noqa: F821
    p = ptr32(params)  # noqa: F821
    ix = ptr16(order)  # noqa: F821
    rail_low = p[1]
    rail_high = p[2]
    fault_scans = p[3]
    frozen_scans = p[4]
    settle = p[5]
    shift = p[6]
    nf = p[7]
    k = p[8]
    enter = p[_ENTER]
    leave = p[_ENTER + 1]
    over = p[_ENTER + 2]
    use = k >= 0
    changed = 0
    if use:
        j = 0
        if k:
            j = p[8 + k]
        end = p[9 + k]
    else:
        j = 0
        end = p[0]
    while j < end:
        if use:
            i = ix[j]
        else:
            i = j
        j += 1
        if fault[i]:
            continue
        r = rd[i]
        if r <= rail_low or r >= rail_high:
            c = run[i]
            if c >= _RAIL_RUN:
                c = c - _RAIL_RUN + 1
            else:
                c = 1
            run[i] = _RAIL_RUN + c
            if classes[i] != _UNKNOWN:
                changed = 1
            classes[i] = _UNKNOWN
            if c >= fault_scans:
                fault[i] = _FAULT_RAIL | _NEW
                nf += 1
            continue
        if run[i] >= _RAIL_RUN:
            run[i] = 0
        if frozen_scans:
            if r == last[i]:
                c = same[i] + 1
                same[i] = c
                if c >= frozen_scans:
                    fault[i] = _FAULT_FROZEN | _NEW
                    if classes[i] != _UNKNOWN:
                        changed = 1
                    classes[i] = _UNKNOWN
                    nf += 1
                    continue
            else:
                same[i] = 0
                last[i] = r
        d = r - (base[i] >> 8)
        if sign_b[i]:
            pb = d * 100
        else:
            pb = 0 - d * 100
        pw = 0 - pb
        ab = span_b[i]
        aw = span_w[i]
        s = classes[i]
        if pb > ab * over or pw > aw * over:
            new = _UNKNOWN
        elif s == _BLACK:
            if pb + 100 > ab * leave:
                new = _BLACK
            elif pw + 100 > aw * enter:
                new = _WHITE
            else:
                new = _EMPTY
        elif s == _WHITE:
            if pw + 100 > aw * leave:
                new = _WHITE
            elif pb + 100 > ab * enter:
                new = _BLACK
            else:
                new = _EMPTY
        elif pb + 100 > ab * enter:
            new = _BLACK
        elif pw + 100 > aw * enter:
            new = _WHITE
        else:
            new = _EMPTY
        if new != s:
            changed = 1
        classes[i] = new
        if new == _EMPTY:
            c = run[i]
            if c < settle:
                run[i] = c + 1
            else:
                b = base[i]
                b += ((r << 8) - b) >> shift
                lo = (cal[i] - drift[i]) << 8
                hi = lo + (drift[i] << 9)
                if b < lo:
                    b = lo
                elif b > hi:
                    b = hi
                base[i] = b
        else:
            run[i] = 0
    if changed:
        p[_CHANGED] = 1
    return nf

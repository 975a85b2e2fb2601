"""GridScanner.scan's 16-channel inner loop as native code (`@micropython.native`), for the
boards: the same statements as the pure loop in grid.py (the same pin writes and ADC reads in
the same order, so the readings are the same); the native emitter only takes the interpreter's
bytecode dispatch out of the loop. Ports without a native emitter (WebAssembly) refuse it and
CPython does not use it (NATIVE); grid.py then keeps its pure loop.

Measured on the device twin (RP2040 at 125 MHz, 19x19): the pure scan 24.0 ms (of which 9.2 ms
are the 23 groups' power-on waits), 21.0 ms with this loop (scan pass 30.7 -> 27.0 ms), 13.7 ms
with read_group_rp2040 below, 10.6 ms with scan_rp2040 (the whole scan in one call: 1.4 ms
besides the waits); the same readings (tests/host/test_twin_models.py).
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


# The RP2040's registers (RP2040 datasheet 2.3.1.7 "SIO", 4.9.6 "ADC"): the same loop with the
# pin writes and ADC reads done on the registers, not through machine.Pin and machine.ADC
# calls (~30 us a sensor of interpreter calls on the twin). machine.ADC has enabled the ADC
# and set up its pins; the result is scaled to 16 bits as machine.ADC.read_u16 scales it on
# the rp2 port (raw << 4 | raw >> 8), so the readings are the same. RP2040 only: the RP2350's
# SIO and ADC are elsewhere and it keeps read_group.
_SIO_XOR = const(7)  # GPIO_OUT_XOR, word 7 of SIO at 0xd0000000
_ADC_START = const(4)  # CS.START_ONCE
_ADC_READY = const(0x100)  # CS.READY


@micropython.viper
def read_group_rp2040(masks, flips, codes, pmap, base: int, ainsel: int, buf):
    sio = ptr32(0xD0000000)  # noqa: F821 (viper's pointer types)
    adc = ptr32(0x4004C000)  # noqa: F821 (CS, then RESULT)
    mk = ptr32(masks)  # noqa: F821
    fl = ptr8(flips)  # noqa: F821
    cd = ptr8(codes)  # noqa: F821
    pm = ptr16(pmap)  # noqa: F821
    out = ptr16(buf)  # noqa: F821
    cs = (adc[0] & ~0x7000) | (ainsel << 12)  # AINSEL, bits 14:12; EN kept
    adc[0] = cs
    k = 0
    while k < 16:
        if k:
            sio[_SIO_XOR] = mk[fl[k]]
        p = pm[base + cd[k]]
        if p != 0xFFFF:
            adc[0] = cs | _ADC_START
            while (adc[0] & _ADC_READY) == 0:
                pass
            r = adc[1] & 0xFFF
            out[p] = (r << 4) | (r >> 8)
        k += 1


# The whole scan on the RP2040's registers (issue 20): GridScanner.scan's loop - per group
# address the bank enables and the address, the channel code 0, one power-on wait for the
# groups of every bank at that address, then each group's 16 channels - in one native call,
# the wait timed on the TIMER's raw microsecond counter (RP2040 datasheet 4.6.5, TIMERAWL) as
# time.sleep_us times it. The same pin levels in the same order as the pure loop, an address
# written with one set and one clear (GPIO_OUT_SET/CLR); the interpreter's ~250 us a group of
# calls go. `whole` (GridScanner.whole): (this function, masks, flips, codes, pmap, plan) -
# `masks`: the GPIO masks of S0-S3, A0-A3, then each bank's enable; `plan`: groups,
# power_on_us, then each bank's ADC input. `work` (or None): called as work(a) once address
# a's groups are read - in the next address's power-on wait, which it shortens by what it
# took (the wait is timed from its start), the last after the scan (GridScanner.scan).
_SIO_SET = const(5)  # GPIO_OUT_SET
_SIO_CLR = const(6)  # GPIO_OUT_CLR
_TIMERAWL = const(10)  # TIMERAWL, word 10 of TIMER at 0x40054000


@micropython.viper
def scan_rp2040(whole, buf, work):
    sio = ptr32(0xD0000000)  # noqa: F821
    timer = ptr32(0x40054000)  # noqa: F821
    adc = ptr32(0x4004C000)  # noqa: F821
    mk = ptr32(whole[1])  # noqa: F821
    fl = ptr8(whole[2])  # noqa: F821
    cd = ptr8(whole[3])  # noqa: F821
    pm = ptr16(whole[4])  # noqa: F821
    pl = ptr32(whole[5])  # noqa: F821
    out = ptr16(buf)  # noqa: F821
    call = 0
    if work:  # (viper compares no object with None)
        call = 1
    groups = pl[0]
    wait = pl[1]
    banks = (groups + 15) >> 4
    addresses = groups if groups < 16 else 16
    channels = mk[0] | mk[1] | mk[2] | mk[3]
    a = 0
    while a < addresses:
        bank = 0
        while bank < banks:
            if (bank << 4) + a == groups:
                sio[_SIO_SET] = mk[8 + bank]  # a bank with no group at this address: off
            bank += 1
        high = 0
        low = 0
        b = 0
        while b < 4:
            if (a >> b) & 1:
                high |= mk[4 + b]
            else:
                low |= mk[4 + b]
            b += 1
        sio[_SIO_SET] = high
        sio[_SIO_CLR] = low
        if a == 0:
            bank = 0
            while bank < banks:
                sio[_SIO_CLR] = mk[8 + bank]  # every bank enabled (active low)
                bank += 1
        g = a
        while g < groups:
            bank = g >> 4
            sio[_SIO_CLR] = channels  # channel code 0, then one line flips per step
            if g == a:
                t0 = timer[_TIMERAWL]
                if a and call:
                    work(a - 1)  # the previous address's points, while these power up
                while timer[_TIMERAWL] - t0 < wait:
                    pass
            cs = (adc[0] & ~0x7000) | (pl[2 + bank] << 12)
            adc[0] = cs
            base = g << 4
            k = 0
            while k < 16:
                if k:
                    sio[_SIO_XOR] = mk[fl[k]]
                p = pm[base + cd[k]]
                if p != 0xFFFF:
                    adc[0] = cs | _ADC_START
                    while (adc[0] & _ADC_READY) == 0:
                        pass
                    r = adc[1] & 0xFFF
                    out[p] = (r << 4) | (r >> 8)
                k += 1
            g += 16
        a += 1
    bank = 0
    while bank < banks:
        sio[_SIO_SET] = mk[8 + bank]  # every group powered down
        bank += 1
    if call:
        work(addresses - 1)

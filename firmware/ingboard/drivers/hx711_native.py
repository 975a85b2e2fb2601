"""HX711.read_code's shift on the RP2040's registers (`@micropython.viper`), for the boards: the
same PD_SCK pulses and DOUT reads as the pure loop in hx711.py, on SIO (RP2040 datasheet
2.3.1.7: GPIO_OUT_SET/CLR, GPIO_IN) instead of machine.Pin calls - ~1.5 ms of interpreter calls
a conversion on the twin, 20 conversions a second with two bowls (issue 20, "A CPU budget").

Each phase of a pulse is held at least 1 us on the TIMER's raw microsecond counter (RP2040
datasheet 4.6.5, TIMERAWL; the HX711 datasheet asks 0.2 us high and low, DOUT valid 0.1 us
after the rising edge), so a read takes ~50-75 us; hx711.py keeps the interrupts off around it,
far below the 60 us a single high phase may last before the chip powers down. Ports without a
native emitter (WebAssembly) refuse the module, CPython does not use it (NATIVE), and the
RP2350's SIO is elsewhere: hx711.py then keeps its pure loop.
"""

import sys

import micropython
from micropython import const

NATIVE = sys.implementation.name == "micropython"

_SIO_IN = const(1)  # GPIO_IN, word 1 of SIO at 0xd0000000
_SIO_SET = const(5)  # GPIO_OUT_SET
_SIO_CLR = const(6)  # GPIO_OUT_CLR
_TIMERAWL = const(10)  # TIMERAWL, word 10 of TIMER at 0x40054000


@micropython.viper
def shift_rp2040(masks, pulses: int) -> int:
    # masks: array 'I' [PD_SCK's GPIO mask, DOUT's]; 24 data pulses (MSB first) then `pulses`
    # more that select the next conversion's gain. Returns the 24 bits, unsigned.
    sio = ptr32(0xD0000000)  # noqa: F821 (viper's pointer types)
    timer = ptr32(0x40054000)  # noqa: F821
    mk = ptr32(masks)  # noqa: F821
    sck = mk[0]
    dout = mk[1]
    value = 0
    n = 0
    total = 24 + pulses
    while n < total:
        sio[_SIO_SET] = sck
        t0 = timer[_TIMERAWL]
        while timer[_TIMERAWL] - t0 < 2:
            pass
        if n < 24:
            value = value << 1
            if sio[_SIO_IN] & dout:
                value = value | 1
        sio[_SIO_CLR] = sck
        t0 = timer[_TIMERAWL]
        while timer[_TIMERAWL] - t0 < 2:
            pass
        n += 1
    return value

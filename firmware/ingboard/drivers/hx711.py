"""HX711 24-bit load-cell ADC (one per bowl): bit-banged two-wire read, spike filter, fault.

The chip pulls DOUT low when a conversion is ready; the host then gives 24 clock pulses
(MSB first, two's complement) plus 1-3 more that select the next conversion's input and gain
(1: channel A x128, 2: channel B x32, 3: channel A x64). A clock held high for more than 60 us
powers the chip down, so interrupts are off only around each high pulse, never for the whole
read (the app's other tasks keep running).

Faults become `SensorFault` (the app reports `sensor-fault` through Bowls.fault() and the game
goes on): no conversion within `timeout_ms` (chip missing or unpowered, DOUT held high), or the
same raw code `_STUCK` times in a row (a DOUT line stuck low reads as 0; a live ADC always
moves in its last bits). The codes a glitching HX711 produces (saturation 0x7FFFFF / 0x800000,
all ones) are dropped, and a median of the last three accepted codes removes single spikes
(a bit shifted by a late clock edge).

Why not an existing driver: robert-hh's widely used `hx711` (micropython-lib style, MIT) is the
model for the protocol, but it waits for DOUT in a busy loop, keeps interrupts off for the whole
read, has no timeout fault and no spike filter; here the two pins, the interrupt switch and the
clock are injected so the same code runs against a fake pin pair on CPython and MicroPython.

Pins: `clock(v)` sets the PD_SCK output, `data()` reads DOUT (machine.Pin objects, already set
up as output / input by board_config.py). Nothing happens at import time.
"""

import sys

from micropython import const

_GAIN_PULSES = {128: 1, 32: 2, 64: 3}
_STUCK = const(8)
_SPIKES = (0x7FFFFF, -0x800000, -1)


class SensorFault(Exception):
    pass


def _register_shift(gpios):
    # (hx711_native.shift_rp2040, its masks) on an RP2040 with the native emitter, where the
    # code runs in place (ROMFS, frozen), else None: as an .mpy on littlefs its machine code
    # would be heap, which the stock image has none to spare (docs/flashing.md).
    if "RP2040" not in getattr(sys.implementation, "_machine", ""):
        return None
    here = globals().get("__file__", "")
    if not here.startswith("/rom"):
        import os

        try:
            os.stat(here)
            return None  # a file on littlefs: loaded into the heap
        except OSError:
            pass  # frozen into the firmware: in place
    try:
        from ingboard.drivers import hx711_native
    except (ImportError, SyntaxError, ValueError):
        return None  # no native emitter, or an .mpy for another architecture
    if not hx711_native.NATIVE:
        return None
    from array import array

    return hx711_native.shift_rp2040, array("I", [1 << gpios[0], 1 << gpios[1]])


def _no_irq_switch():
    return None


def _irq_on(state):
    return None


class HX711:
    def __init__(
        self, clock, data, gain=128, scale=1.0, offset=0, timeout_ms=500, irq=None, gpios=None
    ):
        """clock/data: pins; scale: raw counts per gram; offset: raw code of the empty bowl.

        irq: (disable, enable) callables; default machine.disable_irq/enable_irq when that
        module exists (on the device), else no switching (CPython, WebAssembly).
        gpios: (PD_SCK, DOUT) GPIO numbers on an RP2040: the shift on its registers
        (hx711_native.py, `native`), the same pulses and reads as the pins' loop.
        """
        if gain not in _GAIN_PULSES:
            raise ValueError("HX711 gain must be 128, 64 or 32, not %r" % (gain,))
        if not scale:
            raise ValueError("HX711 scale (counts per gram) must not be 0")
        self.clock = clock
        self.data = data
        self.pulses = _GAIN_PULSES[gain]
        self.scale = scale
        self.offset = offset
        self.timeout_ms = timeout_ms
        if irq is None:
            try:
                import machine

                irq = (machine.disable_irq, machine.enable_irq)
            except ImportError:
                irq = (_no_irq_switch, _irq_on)
        self.irq_off, self.irq_on = irq
        self._irq_state = None  # what irq_off() gave during a native read (_read_native)
        self.recent = [0, 0, 0]  # the last three accepted codes, for the median
        self.n_recent = 0
        self.last_code = None
        self.same = 0
        self.last_ok_ms = None
        self.native = _register_shift(gpios) if gpios is not None else None
        clock(0)  # a high clock would power the chip down

    def ready(self):
        """True when a conversion waits to be read (DOUT low)."""
        return not self.data()

    def _pulse(self):
        state = self.irq_off()
        self.clock(1)
        self.clock(0)
        self.irq_on(state)

    def read_code(self):
        """Shift one conversion out (call only when ready()): the signed 24-bit code."""
        # (Its parts in frames MicroPython keeps on the C stack - at most 11 words, less 3 a
        # handler, drivers/keys.py says why: ten reads a second a bowl.)
        native = self.native
        value = self._read_pins() if native is None else self._read_native(native)
        if value & 0x800000:
            value -= 0x1000000
        return value

    def _read_native(self, native):
        # The whole read on the registers in ~60 us, the interrupts off around it (no high
        # phase can then be stretched past the chip's 60 us power-down).
        # (The interrupt state kept on self, not in a local: one word less, which keeps this
        # frame on the C stack - drivers/keys.py says why.)
        self._irq_state = self.irq_off()
        try:
            return native[0](native[1], self.pulses)
        finally:
            self.irq_on(self._irq_state)

    def _read_pins(self):
        data = self.data
        value = 0
        for _ in range(24):
            self._pulse()
            value = (value << 1) | (1 if data() else 0)
        for _ in range(self.pulses):
            self._pulse()
        return value

    def poll(self, now_ms):
        """Grams if a new conversion was ready, else None; SensorFault when the chip is silent.

        Call often (e.g. every 10-20 ms from a task); at 10 samples/s a conversion is ready
        every 100 ms.
        """
        if self.last_ok_ms is None:
            self.last_ok_ms = now_ms
        if self.data():  # not ready() (in line: ten polls a second a bowl)
            if now_ms - self.last_ok_ms > self.timeout_ms:
                self.last_ok_ms = now_ms  # one fault per timeout, then try again
                raise SensorFault("HX711: no conversion in %d ms (unplugged?)" % self.timeout_ms)
            return None
        # read_code() in line (ten reads a second a bowl: a call is ~25 us of the RP2040)
        native = self.native
        code = self._read_pins() if native is None else self._read_native(native)
        if code & 0x800000:
            code -= 0x1000000
        if code == self.last_code:
            self.same += 1
            if self.same + 1 >= _STUCK:  # _STUCK identical codes in a row
                self.same = 0
                raise SensorFault("HX711: data line stuck (code %d repeated)" % code)
        else:
            self.same = 0
            self.last_code = code
        if code in _SPIKES:
            return None
        self.last_ok_ms = now_ms
        median = self._median(code)
        return (median - self.offset) / self.scale

    def _median(self, code):
        r = self.recent
        r[self.n_recent % 3] = code
        self.n_recent += 1
        if self.n_recent < 3:
            return code
        a, b, c = r
        if a > b:
            a, b = b, a
        if b > c:
            b = c
        return a if a > b else b

    def tare(self, codes):
        """The empty bowl: offset := the median of the given raw codes."""
        if not codes:
            raise ValueError("tare needs at least one raw code")
        s = sorted(codes)
        self.offset = s[len(s) // 2]

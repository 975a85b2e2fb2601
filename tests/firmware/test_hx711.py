"""HX711 driver against a fake pin pair (CPython and MicroPython): protocol, spikes, faults."""

from expect import raises
from ingboard.drivers.hx711 import HX711, SensorFault


class FakeChip:
    """The HX711 seen from its two pins: shifts a loaded code out on rising clock edges."""

    def __init__(self):
        self.bits = []
        self.ready = False
        self.rising = 0
        self.level = 0
        self.present = True
        self.stuck_low = False
        self.high_while_irq_on = 0
        self.irq_depth = 0

    def load(self, code):
        self.bits = [(code >> (23 - i)) & 1 for i in range(24)]
        self.ready = True
        self.rising = 0

    def clock(self, v):
        if v and not self.level:
            if self.irq_depth == 0:
                self.high_while_irq_on += 1
            self.rising += 1
            if self.rising == 24:
                self.ready = False
        self.level = v

    def data(self):
        if self.stuck_low:
            return 0
        if not self.present:
            return 1  # pulled up, never ready
        if 0 < self.rising <= 24:
            return self.bits[self.rising - 1]
        return 0 if self.ready else 1

    def irq_off(self):
        self.irq_depth += 1
        return self.irq_depth

    def irq_on(self, state):
        self.irq_depth -= 1


def make(chip, **kw):
    return HX711(chip.clock, chip.data, irq=(chip.irq_off, chip.irq_on), **kw)


def test_reads_signed_24_bit_codes_and_gain_pulses():
    chip = FakeChip()
    hx = make(chip, gain=64)
    for code in (0x123456, -5, -0x7FFFF0, 1):
        chip.load(code & 0xFFFFFF)
        assert hx.ready()
        assert hx.read_code() == code
        assert chip.rising == 27  # 24 data + 3 for channel A x64
        assert not hx.ready()
    assert chip.high_while_irq_on == 0  # every high pulse inside the interrupt switch


def test_grams_from_scale_and_offset_with_median_against_spikes():
    chip = FakeChip()
    hx = make(chip, scale=400.0, offset=1000)
    out = []
    for t, code in enumerate((1400, 1404, 90000, 1398, 0x7FFFFF, 1402)):
        chip.load(code & 0xFFFFFF)
        out.append(hx.poll(t * 100))
    assert out[0] == 1.0 and out[1] == 1.01
    assert out[2] == 1.01  # the single spike 90000 is the median's outlier
    assert out[3] == 1.01 and out[4] is None  # saturation code dropped
    assert out[5] == 1.005
    assert hx.poll(700) is None  # nothing ready


def test_unplugged_chip_times_out_as_sensor_fault_then_recovers():
    chip = FakeChip()
    chip.present = False
    hx = make(chip, timeout_ms=500)
    assert hx.poll(0) is None
    assert hx.poll(400) is None
    exc = raises(SensorFault, hx.poll, 501)
    assert "no conversion" in str(exc)
    assert hx.poll(600) is None  # one fault per timeout
    chip.present = True
    chip.load(2000)
    assert hx.poll(700) == 2000.0


def test_data_line_stuck_low_is_a_fault():
    chip = FakeChip()
    chip.stuck_low = True
    hx = make(chip)
    t = 0
    for _ in range(7):
        hx.poll(t)
        t += 100
    exc = raises(SensorFault, hx.poll, t)
    assert "stuck" in str(exc)


def test_tare_and_bad_arguments():
    chip = FakeChip()
    hx = make(chip)
    hx.tare([5, 9, 7, 100, 6])
    assert hx.offset == 7
    raises(ValueError, hx.tare, [])
    raises(ValueError, make, chip, gain=100)
    raises(ValueError, make, chip, scale=0)

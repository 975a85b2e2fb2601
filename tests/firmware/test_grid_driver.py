"""The grid scanner (drivers/grid.py) against fake pins and ADCs that model the mux wiring."""

from expect import raises
from ingboard.drivers.grid import GridScanner, gray_sequence


class Line:
    """A GPIO output: `line(v)` sets it; counts writes."""

    def __init__(self, value=0):
        self.value = value
        self.writes = 0

    def __call__(self, v):
        self.value = v
        self.writes += 1


class Rig:
    """Two levels of muxes, bank enables and group power, as hardware_docs/design.md wires them.

    A sensor answers only when its bank is enabled, its group addressed and powered up (the
    scanner waited after the last change of that bank's group), with 10000 + its slot
    (group*16 + channel). Each enabled bank powers its group at the address: `most` is the
    most groups ever powered at once.
    """

    def __init__(self, size=19, delay_needed=400):
        self.sel = [Line() for _ in range(4)]
        self.grp = [Line() for _ in range(4)]
        self.en = [Line(1), Line(1)]
        self.delay_needed = delay_needed
        self.powered = {}  # bank -> group code whose supply has had time to settle
        self.delays = []
        self.reads = 0
        self.errors = []
        self.most = 0
        rig = self

        class Adc:
            def __init__(self, bank):
                self.bank = bank

            def read_u16(self):
                rig.reads += 1
                enabled = [b for b in range(2) if rig.en[b].value == 0]
                rig.most = max(rig.most, len(enabled))
                if self.bank not in enabled:
                    rig.errors.append("bank enables %r reading bank %d" % (enabled, self.bank))
                    return 0
                if rig.powered.get(self.bank) != rig._code(rig.grp):
                    rig.errors.append("read before the group powered up")
                    return 0
                group = self.bank * 16 + rig._code(rig.grp)
                return 10000 + group * 16 + rig._code(rig.sel)

        self.adcs = [Adc(0), Adc(1)]

    @staticmethod
    def _code(lines):
        return sum(line.value << b for b, line in enumerate(lines))

    def delay_us(self, us):
        self.delays.append(us)
        code = self._code(self.grp)
        for bank in range(2):
            if self.en[bank].value != 0:
                self.powered.pop(bank, None)
            elif us >= self.delay_needed:
                self.powered[bank] = code
            elif self.powered.get(bank) != code:
                self.powered.pop(bank, None)

    def scanner(self, **kw):
        kw.setdefault("delay_us", self.delay_us)
        return GridScanner(self.sel, self.grp, self.en, self.adcs, **kw)


def test_every_sensor_lands_at_its_scan_index():
    rig = Rig()
    sc = rig.scanner(size=19)
    out = sc.scan()
    assert rig.errors == []
    assert sc.groups == 23
    assert len(out) == 361
    for i in range(361):
        assert out[i] == 10000 + i, (i, out[i])
    assert rig.reads == 361


def test_one_select_write_per_sensor_and_one_power_up_per_group_address():
    # Issue 20: both banks' groups at one address power up together - one wait for both, 16
    # waits a 19x19 scan (23 groups), at most two groups (one per bank) powered at once.
    rig = Rig()
    sc = rig.scanner(size=19)
    before = sum(line.writes for line in rig.sel)
    sc.scan()
    writes = sum(line.writes for line in rig.sel) - before
    assert writes == 23 * (4 + 15)  # full code at each group start, then Gray steps
    assert rig.delays == [400] * 16
    assert rig.most == 2 and rig.errors == []
    assert sc.wait_us == sum(rig.delays)  # what the app's `cpu` reports as scan_wait_us
    small = Rig().scanner(size=9)  # 81 sensors: 6 groups, one bank, 6 waits
    assert small.wait_us == 6 * 400


def test_sensors_are_powered_down_after_a_scan_and_at_start():
    rig = Rig()
    sc = rig.scanner(size=19)
    assert rig.en[0].value == 1 and rig.en[1].value == 1
    sc.scan()
    assert rig.en[0].value == 1 and rig.en[1].value == 1


def test_too_short_a_power_on_wait_reads_garbage():
    # The fake refuses reads before the group had its power-on time, so the wait is real.
    rig = Rig(delay_needed=400)
    sc = rig.scanner(size=19, power_on_us=100)
    sc.scan()
    assert rig.errors


def test_scan_into_a_caller_buffer_and_repeat():
    from array import array

    rig = Rig()
    sc = rig.scanner(size=19)
    buf = array("H", [0] * 361)
    assert sc.scan(buf) is buf
    assert sc.scan(buf) is buf
    assert buf[360] == 10360 and rig.errors == []


def test_small_board_uses_one_bank():
    rig = Rig()
    sc = GridScanner(rig.sel, rig.grp, rig.en[:1], rig.adcs[:1], size=9, delay_us=rig.delay_us)
    out = sc.scan()
    assert sc.groups == 6
    assert list(out) == [10000 + i for i in range(81)]
    assert rig.errors == []


def test_point_map_rewires_slots():
    rig = Rig()
    slots = 6 * 16
    pmap = [0xFFFF] * slots
    for i in range(81):
        pmap[i] = 80 - i  # a build wired back to front
    sc = GridScanner(
        rig.sel, rig.grp, rig.en[:1], rig.adcs[:1], size=9, delay_us=rig.delay_us, point_map=pmap
    )
    out = sc.scan()
    assert out[80] == 10000 and out[0] == 10080


def test_bad_wiring_is_rejected():
    rig = Rig()
    raises(ValueError, GridScanner, rig.sel[:3], rig.grp, rig.en, rig.adcs)
    raises(ValueError, GridScanner, rig.sel, rig.grp, rig.en[:1], rig.adcs[:1], 19)
    pmap = [0xFFFF] * 96
    for i in range(81):
        pmap[i] = i
    pmap[5] = 6  # point 6 twice, point 5 never
    raises(ValueError, GridScanner, rig.sel, rig.grp, rig.en, rig.adcs, 9, 400, rig.delay_us, pmap)
    raises(ValueError, GridScanner, rig.sel, rig.grp, rig.en, rig.adcs, 9, 400, rig.delay_us, [0])


def test_gray_sequence_flips_one_line_per_step():
    codes, flips = gray_sequence(4)
    assert sorted(codes) == list(range(16))
    assert codes[0] == 0
    for k in range(1, 16):
        assert codes[k] ^ codes[k - 1] == 1 << flips[k]


def test_work_gets_each_group_address_once_its_sensors_are_read():
    # scan(work=...): work(a) once address a's sensors are read (order[ends[a - 1]:ends[a]]),
    # in address order, the last after the sensors are powered down - for the classifier to
    # take each part in the next address's power-on wait (the RP2040's whole native scan).
    for size, addresses in ((19, 16), (13, 11), (9, 6)):
        rig = Rig()
        banks = 2 if size == 19 else 1
        sc = GridScanner(
            rig.sel, rig.grp, rig.en[:banks], rig.adcs[:banks], size=size, delay_us=rig.delay_us
        )
        n = size * size
        assert sorted(sc.order) == list(range(n)) and len(sc.ends) == addresses
        calls = []

        def work(a, sc=sc, calls=calls, rig=rig):
            first = sc.ends[a - 1] if a else 0
            read = [sc.readings[p] == 10000 + p for p in sc.order[first : sc.ends[a]]]
            calls.append((a, all(read), len(rig.delays), rig.en[0].value))

        sc.scan(None, work)
        assert [c[0] for c in calls] == list(range(addresses))
        assert all(c[1] for c in calls) and rig.errors == []
        # Each in the wait after its address (the next address's), the last after the scan.
        assert [c[2] for c in calls[:-1]] == list(range(1, addresses))
        assert calls[-1][3] == 1
        assert list(sc.readings) == [10000 + i for i in range(n)]

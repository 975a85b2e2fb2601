"""Grid scanner: Hall sensors through two levels of analog muxes into the ADC.

Wiring (board_config.py, hardware_docs/design.md): sensor i (scan order, A19 first) is on
first-level mux ("group") i // 16, channel i % 16. Four channel-select lines address all
first-level muxes at once; four group-select lines address, per bank of 16 groups, the
second-level mux (which group reaches the bank's ADC input) and the 4-to-16 decoder that powers
that group's sensors; one active-low enable per bank gates both. So at most one group of 16
sensors per bank is powered at a time (two groups on 19x19), which is what keeps the board on
battery (power budget in the docs).

One scan: for each group address (0-15), enable the banks that have a group there, wait
`power_on_us` once for those groups' sensors to power up together (issue 20: 16 waits a 19x19
scan, not 23), then read each group's channels in Gray-code order, so each step flips exactly
one select line (one pin write per sensor). Readings (`read_u16`, 0-65535) go into a buffer
allocated once; a scan allocates nothing. Pins need only `pin(value)`, ADCs only
`read_u16()`, so test fakes are tiny.
"""

from array import array

from micropython import const

_CHANNELS = const(16)
_GROUPS_PER_BANK = const(16)
_UNUSED = const(0xFFFF)


def _default_delay_us():
    import time

    if hasattr(time, "sleep_us"):
        return time.sleep_us
    return lambda us: time.sleep(us / 1000000)


def _native_loop():
    try:
        from ingboard.drivers import grid_native
    except (ImportError, SyntaxError, ValueError):
        return None  # no native emitter (WebAssembly) or an .mpy for another architecture
    return grid_native.read_group if grid_native.NATIVE else None


def _register_loops():
    # The RP2040's register-level loops (grid_native.read_group_rp2040, scan_rp2040), on an
    # RP2040 only.
    import sys

    if "RP2040" not in getattr(sys.implementation, "_machine", ""):
        return None
    try:
        from ingboard.drivers import grid_native
    except (ImportError, SyntaxError, ValueError):
        return None
    if not grid_native.NATIVE:
        return None
    return grid_native.read_group_rp2040, grid_native.scan_rp2040


def gray_sequence(bits):
    """Codes 0..2**bits-1 in reflected Gray order, and which bit flips before each step."""
    n = 1 << bits
    codes = bytearray(n)
    flips = bytearray(n)  # flips[0] is unused: the first code is written in full
    for k in range(n):
        codes[k] = k ^ (k >> 1)
        if k:
            diff = codes[k] ^ codes[k - 1]
            b = 0
            while diff > 1:
                diff >>= 1
                b += 1
            flips[k] = b
    return codes, flips


class GridScanner:
    """Scans size*size sensors into `readings` (array 'H', scan order)."""

    def __init__(
        self,
        channel_select,
        group_select,
        bank_enable,
        adcs,
        size=19,
        power_on_us=400,
        delay_us=None,
        point_map=None,
        registers=None,
    ):
        n = size * size
        groups = (n + _CHANNELS - 1) // _CHANNELS
        banks = (groups + _GROUPS_PER_BANK - 1) // _GROUPS_PER_BANK
        if len(channel_select) != 4 or len(group_select) != 4:
            raise ValueError("need 4 channel-select and 4 group-select pins")
        if len(bank_enable) < banks or len(adcs) < banks:
            raise ValueError("%d sensors need %d bank enables and ADC inputs" % (n, banks))
        self.size = size
        self.points = n
        self.groups = groups
        self._sel = list(channel_select)
        self._grp = list(group_select)
        self._en = list(bank_enable)
        self._adcs = list(adcs)
        self._power_on_us = power_on_us
        # What a scan spends waiting on the timer for the sensors to power up (one wait per
        # group address): time, not code - no flash-cache miss makes it longer on a board
        # (the app's `cpu` command reports it beside the load, issue 20).
        self.wait_us = (groups if groups < _GROUPS_PER_BANK else _GROUPS_PER_BANK) * power_on_us
        self._delay_us = delay_us if delay_us is not None else _default_delay_us()
        # (group, channel) slot -> scan index; identity unless a build is wired differently.
        slots = groups * _CHANNELS
        self._map = array("H", [_UNUSED] * slots)
        if point_map is None:
            for k in range(n):
                self._map[k] = k
        else:
            if len(point_map) != slots:
                raise ValueError("point_map needs %d entries" % slots)
            seen = bytearray(n)
            for k in range(slots):
                p = point_map[k]
                if p != _UNUSED:
                    if p >= n or seen[p]:
                        raise ValueError("point_map: bad or repeated point %d" % p)
                    seen[p] = 1
                    self._map[k] = p
            if sum(seen) != n:
                raise ValueError("point_map does not cover every point")
        self._codes, self._flips = gray_sequence(4)
        self._state = bytearray(4)  # current level of each channel-select line
        self.readings = array("H", [0] * n)
        # The native inner loop (grid_native.py) where the port has one; None: the pure loop.
        self.native = _native_loop()
        # `registers` (RP2040 builds): (GPIO numbers of the channel-select lines, ADC input of
        # each bank, GPIO numbers of the group-select lines, of the bank enables) for the
        # register-level loops, the same pin writes and reads: the whole scan in one native
        # call (`whole`) when the group-select and enable lines are given, else each group's
        # channels (`direct`).
        self.direct = None
        self.whole = None
        if registers is not None and self.native is not None:
            loops = _register_loops()
            if loops is not None:
                masks = array("I", [1 << g for g in registers[0]])
                self.direct = (loops[0], masks, tuple(registers[1]))
                if len(registers) > 3:
                    lines = list(registers[0]) + list(registers[2]) + list(registers[3])
                    plan = array("I", [groups, power_on_us] + list(registers[1]))
                    masks = array("I", [1 << g for g in lines])
                    self.whole = (loops[1], masks, self._flips, self._codes, self._map, plan)
        # The points in the order a scan reads them (`order`, array 'H'), and where each group
        # address's end in it (`ends`): a scan's `work(a)` may use the points of addresses up
        # to a (scan()).
        order = array("H", [0] * n)
        ends = []
        j = 0
        for a in range(groups if groups < _GROUPS_PER_BANK else _GROUPS_PER_BANK):
            for g in range(a, groups, _GROUPS_PER_BANK):
                for c in range(_CHANNELS):
                    p = self._map[g * _CHANNELS + self._codes[c]]
                    if p != _UNUSED:
                        order[j] = p
                        j += 1
            ends.append(j)
        self.order = order
        self.ends = ends
        self.off()

    def off(self):
        """Power every sensor group down (all bank enables high)."""
        for en in self._en:
            en(1)

    def _write_code(self, pins, code):
        for b in range(4):
            pins[b]((code >> b) & 1)

    def scan(self, out=None, work=None):
        """Read every sensor once into `out` (default: self.readings); return that buffer.
        `work(a)`, when given, is called once the sensors of group address a are read (the
        points order[ends[a - 1]:ends[a]]), in address order, the last after the scan: where
        the scan is one native call (the RP2040), each call is made in the next address's
        power-on wait, and takes none of the scan's time while it is shorter."""
        # The RP2040's one native call in a frame of at most 11 words, which MicroPython keeps
        # on the C stack (a larger one is allocated on the heap at every call: drivers/keys.py).
        if out is None:
            out = self.readings
        whole = self.whole
        if whole is not None:
            whole[0](whole, out, work)
            return out
        return self._scan_groups(out, work)

    def _scan_groups(self, buf, work):
        # The scan group by group (every port but the RP2040's whole native scan).
        sel = self._sel
        state = self._state
        codes = self._codes
        flips = self._flips
        pmap = self._map
        native = self.native
        direct = self.direct
        delay = self._delay_us
        wait = self._power_on_us
        groups = self.groups
        en = self._en
        banks = (groups + _GROUPS_PER_BANK - 1) // _GROUPS_PER_BANK
        addresses = groups if groups < _GROUPS_PER_BANK else _GROUPS_PER_BANK
        a = 0
        while a < addresses:
            # Address a powers group a of every bank that has one (bank b: group 16*b + a);
            # a bank without one is disabled first (it has none at any later address either).
            for bank in range(banks):
                if bank * _GROUPS_PER_BANK + a == groups:
                    en[bank](1)
            self._write_code(self._grp, a)
            if a == 0:
                for bank in range(banks):
                    en[bank](0)
            g = a
            while g < groups:
                bank = g // _GROUPS_PER_BANK
                # The group's first channel code is written in full, then one line flips per
                # step; the groups of this address power up together: one wait for them all.
                for b in range(4):
                    state[b] = 0
                    sel[b](0)
                if g == a:
                    delay(wait)
                base = g * _CHANNELS
                g += _GROUPS_PER_BANK
                if direct is not None:
                    direct[0](direct[1], flips, codes, pmap, base, direct[2][bank], buf)
                    continue
                adc = self._adcs[bank]
                if native is not None:
                    native(sel, state, flips, codes, pmap, base, adc, buf)
                    continue
                k = 0
                while k < _CHANNELS:
                    if k:
                        b = flips[k]
                        v = state[b] ^ 1
                        state[b] = v
                        sel[b](v)
                    p = pmap[base + codes[k]]
                    if p != _UNUSED:
                        buf[p] = adc.read_u16()
                    k += 1
            if work is not None and a + 1 < addresses:
                work(a)
            a += 1
        self.off()
        if work is not None:
            work(addresses - 1)
        return buf

"""The grid's wiring read from raw readings (pure): which sensor each mux input carries, the
select lines' wiring that explains it, and what is left over (sensors, muxes, MOSFETs).

Readings (walk.py collects them through drivers/probe.py, each mux input read on its own
with its lines set and its group powered): `empty` (the empty board, averaged), `empty_scans`
(single reads, for the spread), `patterns` ([{"name", "points": [scan indexes with a stone],
"values": raw scan}], plan.pattern_steps), `power` ([[off, early, settled]] per group,
drivers/probe.py).

How a technician reads them, step by step:
1. Each scan index's empty level: a sensor's VCC/2, 0 V (unpowered: its group's supply, or a
   mux input tied to GND), or floating (no mux drives the ADC: a bank's enable or ADC line).
2. The patterns give each scan index the bits of the sensor it really reads (plan.py).
3. Select lines: scan index j = group address a, channel c; the sensor it reads has a', c'.
   Each of the 8 lines a mux sees (S0-S3, A0-A3) is, across all indexes, one of the 8 GPIO
   bits or a constant - the one that agrees with most indexes is its wiring (a swap, a
   rotation, two lines on one pin, a line stuck low or high). A line that agrees with nothing
   well is floating. Nothing is looked up: any permutation or stuck line is inferred.
4. What that wiring does not explain is local: a sensor on another mux input (two swapped on
   one mux: a mux-channel swap), a sensor that never answers (wrong axis), answers weakly (too
   deep, tilted) or the wrong way (mounted face down), a single reversed stone.
5. The power probe: a group already on at once after its bank is enabled has its MOSFET
   always on; a bank whose ADC input shows a sensor while disabled has its enable stuck low.
"""

from ingboard import board_config as bc
from ingboard import physical as ph
from ingboard.sensing.classifier import point_name

from host_tools.bringup import grid_sensors, select_lines
from host_tools.bringup.findings import finding as _finding

CH = bc.CHANNELS_PER_GROUP
GPB = bc.GROUPS_PER_BANK
EMPTY = ph.EMPTY_COUNTS
SPAN = ph.STONE_SPAN_COUNTS
FULL = ph.ADC_FULL_COUNTS
# A powered sensor idles within its offset spread (+-30 mV = 600 counts) of VCC/2; allow 5x.
QUIESCENT_TOL = 5 * ph.SENSOR_OFFSET_TOL_MV * FULL // ph.SUPPLY_MV
# Its output never goes nearer than 0.2 V to a rail: below half that it is not driven.
LOW = ph.SENSOR_RAIL_MARGIN_MV * FULL // ph.SUPPLY_MV // 2
FLOAT_SPREAD = 40 * ph.SENSOR_NOISE_COUNTS  # single scans of a live sensor agree within noise
DETECT = SPAN // 4  # a stone: the classifier's entry threshold of the default span
WEAK = SPAN * 6 // 100  # a response at all (above crosstalk of a few neighbours)
LINES = select_lines.LINES


class Grid:
    """The analysis of one board's grid readings; `findings` names the faults."""

    def __init__(self, readings, cfg):
        self.cfg = cfg
        self.size = readings["size"]
        self.n = self.size * self.size
        self.groups = bc.grid_groups(self.size)
        self.banks = bc.grid_banks(self.size)
        self.findings = []
        self.notes = []
        self.ch = CH
        self.bank_size = GPB * CH
        self._baseline(readings["empty"], readings.get("empty_scans") or [])
        self._patterns(readings.get("patterns") or [])
        self._fit_lines()
        self._bank_faults()
        self._power(readings.get("power"))
        self._groups()
        grid_sensors.single(self)
        grid_sensors.local(self)

    def name(self, i):
        return point_name(i, self.size)

    def where(self, i):
        g, c = divmod(i, CH)
        return "U%d channel %d" % (g + 1, c)

    # -- 1. the empty board ------------------------------------------------------------
    def _baseline(self, empty, scans):
        self.empty = empty
        self.state = []
        for j in range(self.n):
            values = [empty[j]] + [s[j] for s in scans]
            if max(values) - min(values) > FLOAT_SPREAD:
                st = "floating"
            elif empty[j] < LOW:
                st = "low"
            elif empty[j] > FULL - LOW:
                st = "high"
            elif abs(empty[j] - EMPTY) <= QUIESCENT_TOL:
                st = "ok"
            else:
                st = "odd"
            self.state.append(st)

    # -- 2. the patterns ---------------------------------------------------------------
    def _patterns(self, patterns):
        n = self.n
        self.code = [None] * n  # the sensor each index reads (None: no consistent answer)
        self.seen = [0] * n  # steps it answered in
        self.share = [0.0] * n  # mean |response| of those steps, in stone spans
        self.negative = [[] for _ in range(n)]  # steps it answered the wrong way in
        self.weak = [0] * n  # steps with a response too small to count
        self.steps = patterns
        bits = [p for p in patterns if p["name"].startswith("bit ") and "clear" not in p["name"]]
        clear = [p for p in patterns if p["name"].endswith(" clear")]
        if not bits:
            return
        for j in range(n):
            if self.state[j] != "ok":
                continue
            code = 0
            total = 0.0
            for p in patterns:
                d = p["values"][j] - self.empty[j]
                if abs(d) >= DETECT:
                    self.seen[j] += 1
                    total += abs(d) / SPAN
                    if d < 0:
                        self.negative[j].append(p["name"])
                    if p in bits:
                        code |= 1 << int(p["name"].split()[1])
                elif abs(d) >= WEAK:
                    self.weak[j] += 1
            if self.seen[j]:
                self.share[j] = total / self.seen[j]
                consistent = True
                for p in clear:
                    k = int(p["name"].split()[1])
                    d = p["values"][j] - self.empty[j]
                    if (abs(d) >= DETECT) == bool((code >> k) & 1):
                        consistent = False  # a bit and its complement disagree
                if consistent and code < n:
                    self.code[j] = code

        ok = sum(1 for j in range(n) if self.state[j] == "ok")
        answered = sum(1 for j in range(n) if self.seen[j] or self.weak[j])
        if ok and answered * 20 < ok:
            # Nobody put the stones down (or not where asked): the sensors cannot be judged.
            self.steps = []
            self.code = [None] * n
            self.notes.append(
                "no stone was seen in any pattern step (%d of %d inputs answered): the"
                " sensors' wiring and polarity were not checked, only their levels and the"
                " groups' power" % (answered, ok)
            )

    # -- 3. the select lines (select_lines.py) ----------------------------------------
    def _fit_lines(self):
        pairs = [(j, self.code[j]) for j in range(self.n) if self.code[j] is not None]
        self.source, self.adc_swapped = select_lines.fit(pairs)
        self.findings += select_lines.findings(self.source, self.adc_swapped, self.cfg)

    def act(self, j):
        return select_lines.slot(self.source, self.adc_swapped, j)

    # -- 4. banks and the power probe --------------------------------------------------
    def _bank_indexes(self, bank):
        lo = bank * GPB * CH
        return range(lo, min(self.n, lo + GPB * CH))

    def _bank_faults(self):
        self.dead_banks = set()
        grid = self.cfg["grid"]
        answered = [
            sum(1 for j in self._bank_indexes(b) if self.seen[j]) for b in range(self.banks)
        ]
        for bank in range(self.banks):
            idx = list(self._bank_indexes(bank))
            floating = sum(1 for j in idx if self.state[j] == "floating")
            # A disabled mux's output may also hold a steady level (the ADC's sample charge):
            # then it shows as a bank where no input ever answers a stone, while the other
            # bank's do.
            silent = self.steps and answered[bank] == 0 and sum(answered) >= 20
            low = sum(1 for j in idx if self.state[j] == "low")
            if silent and low * 4 >= len(idx) * 3:
                silent = False  # every group of the bank unpowered: their MOSFETs, below
            if (floating * 4 >= len(idx) * 3 or silent) and not self.adc_swapped:
                self.dead_banks.add(bank)
                self.findings.append(
                    _finding(
                        "bank-floating",
                        "EN%d (GP%d)" % (bank, grid["bank_enable"][bank]),
                        "bank %d (groups U%d-U%d) reads a floating input: its enable line"
                        " EN%d from GP%d (to the second-level mux's E and the 74HC154's G1) is"
                        " open or stuck high, or its analog line GP%d is not connected"
                        % (
                            bank,
                            bank * GPB + 1,
                            min(self.groups, (bank + 1) * GPB),
                            bank,
                            grid["bank_enable"][bank],
                            grid["adc"][bank],
                        ),
                    )
                )

    def _power(self, power):
        self.always_on = set()
        if not power:
            return
        grid = self.cfg["grid"]
        crossed_banks = []
        for bank in range(self.banks):
            gs = [g for g in range(bank * GPB, min(self.groups, (bank + 1) * GPB))]
            live = [g for g in gs if abs(power[g][2] - EMPTY) <= QUIESCENT_TOL]
            if bank in self.dead_banks:
                continue
            if len(power[gs[0]]) > 3 and len(live) * 4 < len(gs) and not self.adc_swapped:
                # Not enabled by its own enable line, though the scans (all enabled) read it.
                crossed = [g for g in gs if abs(power[g][3] - EMPTY) <= QUIESCENT_TOL]
                if len(crossed) * 4 >= len(gs) * 3:
                    crossed_banks.append(bank)
                    continue
            if not live:
                continue
            # Stuck enabled: the ADC input shows the sensor with the bank disabled, AND the
            # group is already powered at once after "enabling" (its decoder was on all
            # along). The first alone could be a disabled mux's output holding its charge.
            driven = [
                g
                for g in live
                if abs(power[g][0] - power[g][2]) <= QUIESCENT_TOL // 2
                and abs(power[g][1] - power[g][2]) <= QUIESCENT_TOL
            ]
            if len(driven) * 4 >= len(live) * 3 and len(live) >= 2:
                self.findings.append(
                    _finding(
                        "enable-stuck-low",
                        "EN%d (GP%d)" % (bank, grid["bank_enable"][bank]),
                        "bank %d stays enabled when GP%d is high: its enable line EN%d is"
                        " shorted to GND (or the mux's E / the 74HC154's G1 is not on the"
                        " line): a group is always powered, the board draws more"
                        % (bank, grid["bank_enable"][bank], bank),
                    )
                )
                continue
            for g in live:
                if power[g][1] > LOW and abs(power[g][1] - power[g][2]) <= QUIESCENT_TOL:
                    pg = self._physical_group(g)
                    if pg is not None and pg < self.groups:
                        self.always_on.add(pg)
        if crossed_banks:
            pins = grid["bank_enable"]
            names = ", ".join("EN%d (GP%d)" % (b, pins[b]) for b in range(self.banks))
            self.findings.append(
                _finding(
                    "enables-swapped",
                    "/".join("EN%d" % b for b in range(self.banks)),
                    "each bank is enabled by the other bank's line: the enable wires %s are"
                    " swapped (to the second-level muxes' E and the 74HC154s' G1); the game's"
                    " scan would read half the board disabled" % names,
                )
            )
        for pg in sorted(self.always_on):
            self.findings.append(
                _finding(
                    "mosfet-short",
                    "Q%d" % (pg + 1),
                    "group U%d's sensors are powered before their turn: MOSFET Q%d is shorted"
                    " (drain to source) or its gate is not driven by the 74HC154 (output %d of"
                    " bank %d's decoder): check Q%d and its gate resistor"
                    % (pg + 1, pg + 1, pg % GPB, pg // GPB, pg + 1),
                )
            )

    def _physical_group(self, g):
        slot = self.act(g * CH)
        return None if slot is None else slot // CH

    def _groups(self):
        """Physical groups whose sensors all read 0 V (wherever the select lines put them)."""
        self.dead_groups = set()
        by_group = {}
        for j in range(self.n):
            if j // (GPB * CH) in self.dead_banks:
                continue
            slot = self.act(j)
            if slot is None or slot >= self.n:
                continue  # unknown, or a mux input tied to GND: the select lines explain it
            by_group.setdefault(slot // CH, []).append(j)
        for pg, idx in by_group.items():
            low = [j for j in idx if self.state[j] == "low"]
            if len(idx) >= 2 and len(low) * 4 >= len(idx) * 3:
                self.dead_groups.add(pg)
        for pg in sorted(self.dead_groups):
            bank, out = divmod(pg, GPB)
            self.findings.append(
                _finding(
                    "mosfet-open",
                    "Q%d" % (pg + 1),
                    "group U%d's sensors read 0 V (%s-%s): they get no supply. MOSFET Q%d does"
                    " not switch on (open, or its gate from output %d of bank %d's 74HC154),"
                    " or the group's VCC/GND wire is broken"
                    % (
                        pg + 1,
                        self.name(pg * CH),
                        self.name(min(self.n, (pg + 1) * CH) - 1),
                        pg + 1,
                        out,
                        bank,
                    ),
                )
            )

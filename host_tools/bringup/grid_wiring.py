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
from ingboard.core.classifier import point_name

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
# Weak: the field of a stone over 1 mm more wood than designed (7 mm gap: 70 %), a margin below.
WEAK_SHARE = 0.75
# Strong: 4.5 mm of wood gives 122 %, 4 mm 150 %: the pocket cut too deep, the wood too thin.
STRONG_SHARE = 1.3
LINES = ("S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3")


def _finding(code, part, text):
    return {"code": code, "part": part, "text": text}


def line_gpio(cfg, k):
    grid = cfg["grid"]
    return (grid["channel_select"] + grid["group_select"])[k] if k < 8 else None


def _bits(index):
    """The 8 line levels (S0-S3, A0-A3) and the bank of a slot (= scan index)."""
    g, c = divmod(index, CH)
    bank, a = divmod(g, GPB)
    return [(c >> b) & 1 for b in range(4)] + [(a >> b) & 1 for b in range(4)], bank


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
        self._baseline(readings["empty"], readings.get("empty_scans") or [])
        self._patterns(readings.get("patterns") or [])
        self._fit_lines()
        self._bank_faults()
        self._power(readings.get("power"))
        self._groups()
        self._local()

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

    # -- 3. the select lines -----------------------------------------------------------
    def _fit_lines(self):
        pairs = [(j, self.code[j]) for j in range(self.n) if self.code[j] is not None]
        self.pairs = pairs
        self.source = list(range(8))  # per line: commanded bit m, or ("const", v), or None
        self.adc_swapped = False
        if len(pairs) < 8:
            return
        cross = sum(1 for j, i in pairs if _bits(j)[1] != _bits(i)[1])
        self.adc_swapped = cross * 2 > len(pairs)
        for k in range(8):
            scores = []
            for m in range(8):
                agree = sum(1 for j, i in pairs if _bits(i)[0][k] == _bits(j)[0][m])
                scores.append((agree, 2 if m == k else 1, m))
            for v in (0, 1):
                agree = sum(1 for j, i in pairs if _bits(i)[0][k] == v)
                scores.append((agree, 0, ("const", v)))
            agree, _pref, src = max(scores, key=lambda s: (s[0], s[1]))
            self.source[k] = src if agree >= 0.8 * len(pairs) else None
        self._report_lines()

    def act(self, j):
        """The slot (group*16 + channel) scan index j reads under the fitted lines (None:
        unknown - a floating line; >= n or on a missing group: an input tied to GND)."""
        v, bank = _bits(j)
        u = []
        for k in range(8):
            src = self.source[k]
            if src is None:
                return None
            u.append(src[1] if isinstance(src, tuple) else v[src])
        if self.adc_swapped:
            bank = 1 - bank
        c = sum(u[b] << b for b in range(4))
        a = sum(u[4 + b] << b for b in range(4))
        return (bank * GPB + a) * CH + c

    def _line_text(self, k):
        return "%s (GP%d)" % (LINES[k], line_gpio(self.cfg, k))

    def _report_lines(self):
        done = set()
        for k in range(8):
            src = self.source[k]
            if k in done or src == k:
                continue
            if src is None:
                self.findings.append(
                    _finding(
                        "line-floating",
                        LINES[k],
                        "%s of the %s follows no GPIO: an open or intermittent wire between"
                        " the Pico and the %s inputs (check that wire and its connector)"
                        % (self._line_text(k), _chips(k), _chips(k)),
                    )
                )
            elif isinstance(src, tuple):
                self.findings.append(
                    _finding(
                        "line-stuck",
                        LINES[k],
                        "%s is stuck %s at the %s: its wire from the Pico is broken or shorted"
                        " to %s (points whose %s bit is %d are never read)"
                        % (
                            self._line_text(k),
                            "low" if src[1] == 0 else "high",
                            _chips(k),
                            "GND" if src[1] == 0 else "3.3 V",
                            LINES[k],
                            1 - src[1],
                        ),
                    )
                )
            elif self.source[src] == k:
                done.update((k, src))
                self.findings.append(
                    _finding(
                        "lines-swapped",
                        "%s/%s" % (LINES[k], LINES[src]),
                        "%s and %s are swapped: the wires from GP%d and GP%d go to each"
                        " other's inputs (%s); exchange them at the Pico or the cable"
                        % (
                            LINES[k],
                            LINES[src],
                            line_gpio(self.cfg, k),
                            line_gpio(self.cfg, src),
                            _chips(k)
                            if _chips(k) == _chips(src)
                            else "%s, %s" % (_chips(k), _chips(src)),
                        ),
                    )
                )
            else:
                self.findings.append(
                    _finding(
                        "lines-swapped",
                        LINES[k],
                        "%s of the %s is wired to GP%d (the pin of %s), not GP%d"
                        % (
                            LINES[k],
                            _chips(k),
                            line_gpio(self.cfg, src),
                            LINES[src],
                            line_gpio(self.cfg, k),
                        ),
                    )
                )
        if self.adc_swapped:
            adc = self.cfg["grid"]["adc"]
            self.findings.append(
                _finding(
                    "adc-swapped",
                    "GP%d/GP%d" % (adc[0], adc[1]),
                    "the two banks' analog lines are swapped: GP%d must go to bank 0's"
                    " second-level mux (COM), GP%d to bank 1's" % (adc[0], adc[1]),
                )
            )

    # -- 4. banks and the power probe --------------------------------------------------
    def _bank_indexes(self, bank):
        lo = bank * GPB * CH
        return range(lo, min(self.n, lo + GPB * CH))

    def _bank_faults(self):
        self.dead_banks = set()
        grid = self.cfg["grid"]
        for bank in range(self.banks):
            idx = list(self._bank_indexes(bank))
            floating = sum(1 for j in idx if self.state[j] == "floating")
            if floating * 4 >= len(idx) * 3 and not self.adc_swapped:
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
            driven = [g for g in live if abs(power[g][0] - power[g][2]) <= QUIESCENT_TOL // 2]
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
        self._single_sensors()
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

    def _single_sensors(self):
        """Empty levels of single sensors in otherwise healthy groups."""
        for j in range(self.n):
            st = self.state[j]
            if st in ("ok", "floating") or j // (GPB * CH) in self.dead_banks:
                continue
            slot = self.act(j)
            if slot is None or slot >= self.n or slot // CH in self.dead_groups:
                continue
            volts = self.empty[j] * ph.SUPPLY_MV / FULL / 1000
            if st == "odd":
                text = (
                    "the sensor of %s idles at %.2f V, not 1.65 V: a magnet or steel near it,"
                    " a stone left on it, or a damaged sensor" % (self.name(slot), volts)
                )
            else:
                text = (
                    "the sensor of %s (%s) reads %.2f V: dead, or its VCC, GND or output joint"
                    " is open or shorted (check its solder joints and its 10 nF capacitor), or"
                    " its output wired to another group's mux, which reads it while its own"
                    " group is off" % (self.name(slot), self.where(slot), volts)
                )
            self.findings.append(
                _finding("sensor-dead" if st != "odd" else "sensor-offset", self.name(slot), text)
            )

    # -- 5. what the wiring does not explain -------------------------------------------
    def _local(self):
        if not self.steps:
            return
        n = self.n
        # Polarity of the stones: most answers the right way round, or most the other.
        answered = [j for j in range(n) if self.seen[j]]
        wrong_way = [j for j in answered if len(self.negative[j]) * 2 > self.seen[j]]
        stones_reversed = len(answered) >= 8 and len(wrong_way) * 2 > len(answered)
        if stones_reversed:
            self.findings.append(
                _finding(
                    "stones-reversed",
                    "stones",
                    "the Black stones read as White on %d of %d points: their magnets are"
                    " glued with the north pole down (Black needs south down; test them with"
                    " `ingboard bringup --pole POINT`)" % (len(wrong_way), len(answered)),
                )
            )
        expected = {}
        for j in range(n):
            if self.state[j] != "ok" or j // (GPB * CH) in self.dead_banks:
                continue
            slot = self.act(j)
            if slot is None or slot >= n or slot // CH in self.dead_groups:
                continue
            expected[j] = slot
        miswired = {}
        for j, slot in expected.items():
            i = self.code[j]
            if i is not None and i != slot:
                miswired[slot] = i  # the input meant for `slot` carries sensor i
        done = set()
        for slot, i in sorted(miswired.items()):
            if slot in done:
                continue
            if miswired.get(i) == slot:
                done.update((slot, i))
                if slot // CH == i // CH:
                    self.findings.append(
                        _finding(
                            "mux-swap",
                            "U%d" % (slot // CH + 1),
                            "the sensors of %s and %s are swapped on U%d: %s is wired to"
                            " channel %d, %s to channel %d (swap the two wires)"
                            % (
                                self.name(slot),
                                self.name(i),
                                slot // CH + 1,
                                self.name(slot),
                                i % CH,
                                self.name(i),
                                slot % CH,
                            ),
                        )
                    )
                else:
                    self.findings.append(
                        _finding(
                            "sensors-swapped",
                            "%s/%s" % (self.where(slot), self.where(i)),
                            "the sensors of %s and %s are swapped between muxes: %s is on %s,"
                            " %s on %s (swap the two wires)"
                            % (
                                self.name(slot),
                                self.name(i),
                                self.name(slot),
                                self.where(i),
                                self.name(i),
                                self.where(slot),
                            ),
                        )
                    )
            else:
                done.add(slot)
                self.findings.append(
                    _finding(
                        "sensor-miswired",
                        self.where(slot),
                        "%s (the input of %s) carries the sensor of %s: check the wire from %s's"
                        " sensor and what is on %s"
                        % (
                            self.where(slot),
                            self.name(slot),
                            self.name(i),
                            self.name(i),
                            self.where(slot),
                        ),
                    )
                )
        carried = set(self.code[j] for j in expected if self.code[j] is not None)
        for j, slot in sorted(expected.items()):
            i = self.code[j]
            if i is None and slot not in carried and slot not in miswired:
                self._silent(j, slot)
            elif i is not None and i == slot:
                self._answer(j, i, stones_reversed)

    def _silent(self, j, i):
        if self.seen[j]:
            return  # answered, but inconsistently: a floating line is reported already
        if self.weak[j]:
            self.findings.append(
                _finding(
                    "sensor-axis",
                    self.name(i),
                    "the sensor of %s (%s) barely answers a stone: mounted on the wrong axis"
                    " (a TO-92 bent over, or a sensor tilted so it senses along the board) or"
                    " far too deep" % (self.name(i), self.where(i)),
                )
            )
        else:
            self.findings.append(
                _finding(
                    "sensor-axis",
                    self.name(i),
                    "the sensor of %s (%s) idles at a normal level but never answers a stone:"
                    " mounted on the wrong axis (its face not towards the stone: a TO-92 bent"
                    " flat, a part on its side)" % (self.name(i), self.where(i)),
                )
            )

    def _answer(self, j, i, stones_reversed):
        neg = self.negative[j]
        mostly_negative = len(neg) * 2 > self.seen[j]
        if mostly_negative != stones_reversed and self.seen[j] >= 2:
            self.findings.append(
                _finding(
                    "sensor-reversed",
                    self.name(i),
                    "the sensor of %s reads the other way from the others: mounted the wrong"
                    " way round (marked face down, away from the stone); turn it over"
                    % self.name(i),
                )
            )
        elif neg and not mostly_negative and not stones_reversed:
            for step in neg:
                self.findings.append(
                    _finding(
                        "stone-reversed",
                        "the stone on %s (%s)" % (self.name(i), step),
                        'the stone put on %s in step "%s" reads as White: its magnet is'
                        " glued with the north pole down; re-glue it south pole down"
                        % (self.name(i), step),
                    )
                )
        if self.share[j] > STRONG_SHARE:
            self.findings.append(
                _finding(
                    "sensor-strong",
                    self.name(i),
                    "the sensor of %s sees %d %% of a stone's field: too little wood over it (the"
                    " pocket is cut too deep; %d %% is what 1 mm too little gives): the wood"
                    " there may crack"
                    % (
                        self.name(i),
                        round(100 * self.share[j]),
                        ph.STONE_FIELD_UT[0] * 100 // ph.STONE_FIELD_NOMINAL_UT,
                    ),
                )
            )
        if self.share[j] < WEAK_SHARE:
            self.findings.append(
                _finding(
                    "sensor-weak",
                    self.name(i),
                    "the sensor of %s sees %d %% of a stone's field: too much wood over it (the"
                    " pocket is too shallow) or it is tilted; %d %% is what 1 mm too much gives"
                    % (
                        self.name(i),
                        round(100 * self.share[j]),
                        ph.STONE_FIELD_UT[2] * 100 // ph.STONE_FIELD_NOMINAL_UT,
                    ),
                )
            )


def _chips(k):
    return (
        "first-level muxes U1-U23 (S0-S3)" if k < 4 else "second-level muxes and 74HC154s (A0-A3)"
    )

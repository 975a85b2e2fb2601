"""The grid's single sensors, once the select lines explain what they can (pure;
grid_wiring.Grid calls these with itself): a sensor idling dead or off level, a sensor on
another mux input (two swapped on one mux: a mux-channel swap), one that never answers a stone
(wrong axis), answers weakly or too strongly (the wood over it), or the wrong way (mounted face
down), a single reversed stone, the whole set of stones reversed.
"""

from ingboard import physical as ph

from host_tools.bringup.findings import finding

WEAK_SHARE = 0.75
# Strong: 4.5 mm of wood gives 122 %, 4 mm 150 %: the pocket cut too deep, the wood too thin.
STRONG_SHARE = 1.3


def single(grid):
    """Empty levels of single sensors in otherwise healthy groups."""
    for j in range(grid.n):
        st = grid.state[j]
        if st in ("ok", "floating") or j // (grid.bank_size) in grid.dead_banks:
            continue
        slot = grid.act(j)
        if slot is None or slot >= grid.n or slot // grid.ch in grid.dead_groups:
            continue
        volts = grid.empty[j] * ph.SUPPLY_MV / ph.ADC_FULL_COUNTS / 1000
        if st == "odd":
            text = (
                "the sensor of %s idles at %.2f V, not 1.65 V: a magnet or steel near it,"
                " a stone left on it, or a damaged sensor" % (grid.name(slot), volts)
            )
        else:
            text = (
                "the sensor of %s (%s) reads %.2f V: dead, or its VCC, GND or output joint"
                " is open or shorted (check its solder joints and its 10 nF capacitor), or"
                " its output wired to another group's mux, which reads it while its own"
                " group is off" % (grid.name(slot), grid.where(slot), volts)
            )
        grid.findings.append(
            finding("sensor-dead" if st != "odd" else "sensor-offset", grid.name(slot), text)
        )


def local(grid):
    if not grid.steps:
        return
    n = grid.n
    # Polarity of the stones: most answers the right way round, or most the other.
    answered = [j for j in range(n) if grid.seen[j]]
    wrong_way = [j for j in answered if len(grid.negative[j]) * 2 > grid.seen[j]]
    stones_reversed = len(answered) >= 8 and len(wrong_way) * 2 > len(answered)
    if stones_reversed:
        grid.findings.append(
            finding(
                "stones-reversed",
                "stones",
                "the Black stones read as White on %d of %d points: their magnets are"
                " glued with the north pole down (Black needs south down; test them with"
                " `ingboard bringup --pole POINT`)" % (len(wrong_way), len(answered)),
            )
        )
    expected = {}
    for j in range(n):
        if grid.state[j] != "ok" or j // (grid.bank_size) in grid.dead_banks:
            continue
        slot = grid.act(j)
        if slot is None or slot >= n or slot // grid.ch in grid.dead_groups:
            continue
        expected[j] = slot
    miswired = {}
    for j, slot in expected.items():
        i = grid.code[j]
        if i is not None and i != slot:
            miswired[slot] = i  # the input meant for `slot` carries sensor i
    done = set()
    for slot, i in sorted(miswired.items()):
        if slot in done:
            continue
        if miswired.get(i) == slot:
            done.update((slot, i))
            if slot // grid.ch == i // grid.ch:
                grid.findings.append(
                    finding(
                        "mux-swap",
                        "U%d" % (slot // grid.ch + 1),
                        "the sensors of %s and %s are swapped on U%d: %s is wired to"
                        " channel %d, %s to channel %d (swap the two wires)"
                        % (
                            grid.name(slot),
                            grid.name(i),
                            slot // grid.ch + 1,
                            grid.name(slot),
                            i % grid.ch,
                            grid.name(i),
                            slot % grid.ch,
                        ),
                    )
                )
            else:
                grid.findings.append(
                    finding(
                        "sensors-swapped",
                        "%s/%s" % (grid.where(slot), grid.where(i)),
                        "the sensors of %s and %s are swapped between muxes: %s is on %s,"
                        " %s on %s (swap the two wires)"
                        % (
                            grid.name(slot),
                            grid.name(i),
                            grid.name(slot),
                            grid.where(i),
                            grid.name(i),
                            grid.where(slot),
                        ),
                    )
                )
        else:
            done.add(slot)
            grid.findings.append(
                finding(
                    "sensor-miswired",
                    grid.where(slot),
                    "%s (the input of %s) carries the sensor of %s: check the wire from %s's"
                    " sensor and what is on %s"
                    % (
                        grid.where(slot),
                        grid.name(slot),
                        grid.name(i),
                        grid.name(i),
                        grid.where(slot),
                    ),
                )
            )
    carried = set(grid.code[j] for j in expected if grid.code[j] is not None)
    for j, slot in sorted(expected.items()):
        i = grid.code[j]
        if i is None and slot not in carried and slot not in miswired:
            _silent(grid, j, slot)
        elif i is not None and i == slot:
            _answer(grid, j, i, stones_reversed)


def _silent(grid, j, i):
    if grid.seen[j]:
        return  # answered, but inconsistently: a floating line is reported already
    if grid.weak[j]:
        grid.findings.append(
            finding(
                "sensor-axis",
                grid.name(i),
                "the sensor of %s (%s) barely answers a stone: mounted on the wrong axis"
                " (a TO-92 bent over, or a sensor tilted so it senses along the board) or"
                " far too deep" % (grid.name(i), grid.where(i)),
            )
        )
    else:
        grid.findings.append(
            finding(
                "sensor-axis",
                grid.name(i),
                "the sensor of %s (%s) idles at a normal level but never answers a stone:"
                " mounted on the wrong axis (its face not towards the stone: a TO-92 bent"
                " flat, a part on its side)" % (grid.name(i), grid.where(i)),
            )
        )


def _answer(grid, j, i, stones_reversed):
    neg = grid.negative[j]
    mostly_negative = len(neg) * 2 > grid.seen[j]
    if mostly_negative != stones_reversed and grid.seen[j] >= 2:
        grid.findings.append(
            finding(
                "sensor-reversed",
                grid.name(i),
                "the sensor of %s reads the other way from the others: mounted the wrong"
                " way round (marked face down, away from the stone); turn it over" % grid.name(i),
            )
        )
    elif neg and not mostly_negative and not stones_reversed:
        for step in neg:
            grid.findings.append(
                finding(
                    "stone-reversed",
                    "the stone on %s (%s)" % (grid.name(i), step),
                    'the stone put on %s in step "%s" reads as White: its magnet is'
                    " glued with the north pole down; re-glue it south pole down"
                    % (grid.name(i), step),
                )
            )
    if grid.share[j] > STRONG_SHARE:
        grid.findings.append(
            finding(
                "sensor-strong",
                grid.name(i),
                "the sensor of %s sees %d %% of a stone's field: too little wood over it (the"
                " pocket is cut too deep; %d %% is what 1 mm too little gives): the wood"
                " there may crack"
                % (
                    grid.name(i),
                    round(100 * grid.share[j]),
                    ph.STONE_FIELD_UT[0] * 100 // ph.STONE_FIELD_NOMINAL_UT,
                ),
            )
        )
    if grid.share[j] < WEAK_SHARE:
        grid.findings.append(
            finding(
                "sensor-weak",
                grid.name(i),
                "the sensor of %s sees %d %% of a stone's field: too much wood over it (the"
                " pocket is too shallow) or it is tilted; %d %% is what 1 mm too much gives"
                % (
                    grid.name(i),
                    round(100 * grid.share[j]),
                    ph.STONE_FIELD_UT[2] * 100 // ph.STONE_FIELD_NOMINAL_UT,
                ),
            )
        )

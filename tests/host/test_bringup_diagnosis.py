"""`ingboard bringup`'s diagnosis (host_tools/bringup/diagnosis.py) on generated readings: every
fault class of the bring-up, over many instances (every permutation of the channel-select
lines, random group-line permutations, every stuck line, random groups, mux channels, sensors)
and random combinations of two and three faults, computed by tests/host/bringup_board.py with
the twin's hardware rules. Each injected fault must be named with its part, and nothing else;
a healthy board gives nothing. The device twin runs the real firmware on a selection of them
(test_twin_bringup.py)."""

import itertools
import json
import random
import subprocess
import sys

import pytest
from bringup_board import Board
from ingboard import board_config as bc
from ingboard.sensing.classifier import point_name

from host_tools.bringup import grid_wiring, parts, plan, pole
from host_tools.bringup.diagnosis import diagnose
from host_tools.twin import faults

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

CFG = bc.variant("pico")
N = 361


def expected(text):
    """(code, part) the diagnosis must give for one fault text (faults.py's language)."""
    kind, _, arg = text.partition(":")
    if kind == "swap" and arg.startswith("EN"):
        return ("enables-swapped", "EN0/EN1")
    if kind == "swap":
        a, b = sorted(arg.split(","), key=grid_wiring.LINES.index)
        return ("lines-swapped", "%s/%s" % (a, b))
    if kind == "short":
        line = arg.split("=")[0]
        if line.startswith("EN"):
            return (
                ("enable-stuck-low", line) if not arg.endswith("high") else ("bank-floating", line)
            )
        return ("line-stuck", line)
    if kind == "sensor-deep":
        point, _, mm = arg.partition("=")
        return ("sensor-weak" if float(mm) > 5 else "sensor-strong", point)
    if kind == "open":
        return ("bank-floating", arg) if arg.startswith("EN") else ("line-floating", arg)
    return {
        "adc-swap": ("adc-swapped", "GP26/GP27"),
        "mosfet-open": ("mosfet-open", arg),
        "mosfet-short": ("mosfet-short", arg),
        "mux-swap": ("mux-swap", arg.split(":")[0]),
        "sensor-reversed": ("sensor-reversed", arg),
        "sensor-axis": ("sensor-axis", arg),
        "sensor-dead": ("sensor-dead", arg),
        "stone-reversed": ("stones-reversed", "stones")
        if not arg
        else ("stone-reversed", "the stone on %s" % arg),
        "cell-reversed": ("cell-reversed", "HX711 %s" % arg),
        "cell-mismatch": ("cell-mismatch", "load cells %s" % arg.split("=")[0]),
        "display-addr": ("display-address", "display %s" % arg.split("=")[0]),
        "display-sh1106": ("display-sh1106", "display %s" % arg),
        "display-open": ("display-missing", "display %s" % arg),
        "hx711-open": ("hx711-silent", "HX711 %s" % arg),
        "key-swap": ("key-swapped", "keys %s" % arg.replace(",", "/")),
        "key-open": ("key-open", "key %s" % arg),
        "key-short": ("key-stuck", "key %s" % arg),
    }[kind]


def _named(findings, want):
    code, part = want
    return [f for f in findings if f["code"] == code and f["part"].startswith(part)]


def check(texts, seed=1, parts=("grid", "keys", "bowls", "displays")):
    findings = diagnose(Board(faults.parse(texts), seed=seed).readings(parts))
    for text in texts:
        assert _named(findings, expected(text)), (texts, text, findings)
    wanted = [expected(t) for t in texts]
    extra = [f for f in findings if not any(_named([f], w) for w in wanted)]
    assert not extra, (texts, extra)
    return findings


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_healthy_board_gives_no_finding(seed):
    assert diagnose(Board({}, seed=seed).readings()) == []


def _fit(texts, seed=1):
    readings = Board(faults.parse(texts), seed=seed).readings(("grid",))
    return grid_wiring.Grid(readings, CFG)


def test_every_permutation_of_the_channel_select_lines_is_inferred():
    gpios = CFG["grid"]["channel_select"]
    for perm in itertools.permutations(range(4)):
        wires = {"S%d" % k: gpios[perm[k]] for k in range(4)}
        spec = {"grid": {"wires": wires}}
        grid = grid_wiring.Grid(Board(spec).readings(("grid",)), CFG)
        assert grid.source[:4] == list(perm), perm
        assert grid.source[4:] == [4, 5, 6, 7]
        swapped = {f["part"] for f in grid.findings}
        moved = [k for k in range(4) if perm[k] != k]
        assert bool(moved) == bool(grid.findings)
        for f in grid.findings:
            assert f["code"] == "lines-swapped"
        for k in moved:
            assert any("S%d" % k in part for part in swapped), (perm, swapped)


def test_random_permutations_of_all_eight_select_lines_are_inferred():
    rng = random.Random(7)
    grid_cfg = CFG["grid"]
    gpios = list(grid_cfg["channel_select"]) + list(grid_cfg["group_select"])
    names = ["S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3"]
    tried = 0
    while tried < 12:
        perm = list(range(8))
        rng.shuffle(perm)
        # Group-select lines that reach beyond bank 1's 7 groups leave most of bank 1 unread;
        # every permutation is still inferred from the points that are read.
        wires = {names[k]: gpios[perm[k]] for k in range(8)}
        grid = grid_wiring.Grid(Board({"grid": {"wires": wires}}).readings(("grid",)), CFG)
        assert grid.source == perm, (perm, grid.source)
        assert grid.findings and all(f["code"] == "lines-swapped" for f in grid.findings)
        tried += 1


@pytest.mark.parametrize("line", ["S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3"])
def test_a_stuck_select_line_is_named(line):
    check(["short:%s" % line], parts=("grid",))
    check(["short:%s=high" % line], parts=("grid",))


@pytest.mark.parametrize("line", ["S1", "A2"])
def test_an_open_select_line_is_named(line):
    check(["open:%s" % line], parts=("grid",))


@pytest.mark.parametrize(
    "text", ["open:EN0", "open:EN1", "short:EN0", "short:EN1", "adc-swap", "swap:EN0,EN1"]
)
def test_enable_and_analog_line_faults(text):
    check([text], parts=("grid",))


def test_dead_and_always_on_groups_are_named_by_their_mosfet():
    rng = random.Random(3)
    for g in rng.sample(range(23), 6):
        check(["mosfet-open:Q%d" % (g + 1)], seed=g, parts=("grid",))
        check(["mosfet-short:Q%d" % (g + 1)], seed=g, parts=("grid",))


def test_swapped_mux_channels_anywhere():
    rng = random.Random(5)
    for _ in range(10):
        g = rng.randrange(23)
        used = 9 if g == 22 else 16
        c1, c2 = rng.sample(range(used), 2)
        check(["mux-swap:U%d:%d,%d" % (g + 1, c1, c2)], seed=g, parts=("grid",))


def test_single_sensors_reversed_on_the_wrong_axis_or_dead():
    rng = random.Random(11)
    for kind in ("sensor-reversed", "sensor-axis", "sensor-dead"):
        for i in rng.sample(range(N), 4):
            check(["%s:%s" % (kind, point_name(i))], seed=i, parts=("grid",))


def test_a_sensor_under_too_much_wood_is_weak_within_the_tolerance_it_is_not():
    check(["sensor-deep:K10=6"], parts=("grid",))
    check(["sensor-deep:A1=6.5"], parts=("grid",))
    check(["sensor-deep:C3=4"], parts=("grid",))
    for mm in ("4.7", "5.3"):  # the pocket's tolerance, 5 mm +- 0.3 mm: nothing to name
        assert diagnose(Board(faults.parse(["sensor-deep:K10=%s" % mm])).readings(("grid",))) == []


def test_reversed_stones():
    check(["stone-reversed"], parts=("grid",))
    for p in ("A19", "K10", "T1"):
        check(["stone-reversed:%s" % p], parts=("grid",))


def test_reversed_stones_with_a_reversed_sensor():
    check(["stone-reversed", "sensor-reversed:C3"], parts=("grid",))


@pytest.mark.parametrize(
    "text",
    [
        "cell-reversed:B",
        "cell-reversed:W",
        "cell-mismatch:B=0.7",
        "cell-mismatch:W=-1",
        "display-addr:W=0x3D",
        "display-addr:B=0x3D",
        "display-sh1106:B",
        "display-open:W",
        "hx711-open:B",
        "key-swap:B,W",
        "key-swap:pause,menu",
        "key-open:pause",
        "key-short:menu",
    ],
)
def test_bowls_displays_and_keys(text):
    check([text], parts=("keys", "bowls", "displays"))


# Faults that can be combined: each on its own lines, groups or points.
POOL = [
    "swap:S0,S1",
    "swap:S2,S3",
    "swap:A0,A1",
    "swap:A2,S3",
    "short:S2",
    "adc-swap",
    "short:EN0",
    "mosfet-open:Q3",
    "mosfet-open:Q18",
    "mosfet-short:Q9",
    "mux-swap:U12:2,9",
    "mux-swap:U6:0,15",
    "sensor-reversed:E5",
    "sensor-axis:O15",
    "sensor-dead:C17",
    "stone-reversed:H8",
    "stone-reversed",
    "cell-reversed:B",
    "cell-mismatch:W=0.6",
    "display-addr:W=0x3D",
    "display-sh1106:B",
    "key-swap:B,W",
    "key-short:pause",
]
# Pairs that hide each other (a shorted line leaves the other half of the points unread...).
CLASH = [
    {"swap:S2,S3", "swap:A2,S3"},
    {"swap:S2,S3", "short:S2"},
    {"swap:A2,S3", "short:S2"},
    {"stone-reversed", "stone-reversed:H8"},
    {"adc-swap", "short:EN0"},
]
WIRING = ("swap:", "short:S", "adc-swap")


def _slots(text):
    """The sensor slots a local fault is seen through (None: not a local fault)."""
    kind, _, arg = text.partition(":")
    if kind in ("mosfet-open", "mosfet-short"):
        g = int(arg[1:]) - 1
        return [g * 16] if kind == "mosfet-short" else list(range(g * 16, min(N, g * 16 + 16)))
    if kind == "mux-swap":
        mux, _, chans = arg.partition(":")
        g = int(mux[1:]) - 1
        return [g * 16 + int(c) for c in chans.split(",")]
    if kind.startswith(("sensor-", "stone-reversed")) and arg:
        from ingboard.sensing.classifier import point_index

        return [point_index(arg)]
    return None


def _wires(text):
    kind, _, arg = text.partition(":")
    return {"ADC"} if kind == "adc-swap" else {p.split("=")[0] for p in arg.split(",")}


def _combinable(combo):
    lines = [t for t in combo if t.startswith(WIRING)]
    if len(lines) > 1 and set.intersection(*[_wires(t) for t in lines]):
        return False  # two faults on one line: named as the wiring they make together
    if any(pair <= set(combo) for pair in CLASH):
        return False
    if lines:
        # A local fault where the wiring fault leaves no scan index to see it through.
        grid = _fit(lines)
        seen = set()
        for j in range(N):
            if grid.state[j] == "ok" and j // 256 not in grid.dead_banks:
                seen.add(grid.act(j))
        for t in combo:
            slots = _slots(t)
            if slots is not None and not set(slots) <= seen:
                return False
    return True


def test_random_combinations_of_two_and_three_faults():
    rng = random.Random(2026)
    done = 0
    while done < 40:
        combo = rng.sample(POOL, rng.choice((2, 3)))
        if not _combinable(combo):
            continue
        shown = check(combo, seed=done)
        assert shown
        done += 1


def test_the_plan_codes_every_sensor():
    steps = plan.pattern_steps(19)
    assert len(steps) == plan.index_bits(19) + 2 == 11
    codes = {}
    for i in range(N):
        bits = tuple(i in set(pts) for _name, pts in steps)
        assert sum(bits) >= 2  # every point gets a stone twice at least
        codes[bits] = i
    assert len(codes) == N
    assert max(len(pts) for _n, pts in steps) <= 181  # one bowl of Black stones


def test_the_pole_tester():
    e = 32768
    span = 8818
    assert pole.verdict(e, e + span)[0] == "black"
    assert pole.verdict(e, e - span)[0] == "white"
    assert pole.verdict(e, e + span, "B")[0] == "black"
    assert pole.verdict(e, e - span, "B")[0] == "reversed"
    assert pole.verdict(e, e + span // 2, "B")[0] == "weak"
    assert pole.verdict(e, e + 100)[0] == "none"


def test_parts_find_nothing_without_readings():
    assert parts.bowls({}, CFG) == [] and parts.keys({}, CFG) == []


def test_the_command_diagnoses_saved_readings(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(Board(faults.parse(["mux-swap:U7:3,5"])).readings()))
    exe = [sys.executable, "-m", "host_tools", "bringup", "--readings", str(path), "--json"]
    done = subprocess.run(exe, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    found = json.loads(done.stdout)
    assert [f["code"] for f in found] == ["mux-swap"] and found[0]["part"] == "U7"
    healthy = tmp_path / "h.json"
    healthy.write_text(json.dumps(Board({}).readings()))
    done = subprocess.run(exe[:-2] + [str(healthy)], capture_output=True, text=True)
    assert done.returncode == 0 and "no fault found" in done.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    done = subprocess.run(exe[:-2] + [str(bad)], capture_output=True, text=True)
    assert done.returncode == 2 and "not JSON" in done.stderr


def test_bad_fault_texts_are_refused():
    from host_tools.errors import InputError

    for text in (
        "swap:S0",
        "swap:S0,X9",
        "mosfet-open:Q24",
        "mux-swap:U23:3,12",
        "sensor-axis:Z9",
        "nonsense",
    ):
        with pytest.raises(InputError):
            faults.parse([text])


def test_no_stones_put_down_is_a_note_not_361_faults():
    board = Board({})
    readings = board.readings(("grid",))
    for step in readings["patterns"]:
        step["values"] = list(readings["empty"])
    notes = []
    assert diagnose(readings, notes) == []
    assert notes and "no stone was seen" in notes[0]
    dead = Board(faults.parse(["mosfet-open:Q4"])).readings(("grid",))
    for step in dead["patterns"]:
        step["values"] = list(dead["empty"])
    assert [(f["code"], f["part"]) for f in diagnose(dead)] == [("mosfet-open", "Q4")]


def test_no_key_at_all_is_one_finding():
    readings = Board(faults.parse([])).readings(("keys",))
    for a in readings["keys"]["asked"].values():
        a["down"] = []
    assert [f["code"] for f in diagnose(readings)] == ["keys-silent"]


def test_a_disabled_bank_that_holds_a_steady_level_is_named_as_the_bank():
    # A real mux's disabled output may keep the ADC's sample charge instead of wandering: no
    # input of that bank answers a stone, while the other bank's do.
    readings = Board(faults.parse([])).readings(("grid",))
    steady = [32768 + (j % 7) for j in range(N)]
    bank1 = range(256, N)
    for series in (
        [readings["empty"]] + readings["empty_scans"] + [p["values"] for p in readings["patterns"]]
    ):
        for j in bank1:
            series[j] = steady[j]
    found = diagnose(readings)
    assert [(f["code"], f["part"]) for f in found] == [("bank-floating", "EN1 (GP11)")]


def test_a_disabled_mux_holding_its_charge_is_not_an_enable_fault():
    # With every bank disabled a real ADC input may keep the last sensor's level; a healthy
    # group still reads 0 V at once after its bank is enabled (not yet powered).
    readings = Board(faults.parse([])).readings(("grid",))
    for entry in readings["power"]:
        entry[0] = entry[2] + 40
    assert diagnose(readings) == []
    stuck = Board(faults.parse(["short:EN1"])).readings(("grid",))
    assert [f["code"] for f in diagnose(stuck)] == ["enable-stuck-low"]

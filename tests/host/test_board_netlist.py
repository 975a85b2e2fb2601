"""The boards' committed netlists agree with firmware/ingboard/board_config.py.

`make hardware` regenerates hardware/kicad/ from the pin table; this light test (no CAD tool)
regenerates the netlists and compares them with the committed ones, and reads the committed
controller netlist on its own to check every GPIO net and every sensor's mux channel against
board_config.py, and the committed clock and bowl netlists through the cable jacks' pin-out
(host_tools.electrical.jacks), so a pin changed in board_config.py without regenerating fails
here.
"""

import re
import sys

from ingboard import board_config as bc
from ingboard.sensing.classifier import point_name

from host_tools import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware.electronics import netlist, parts  # noqa: E402
from host_tools import electrical  # noqa: E402


def _read(name):
    with open(netlist.netlist_path(name), encoding="utf-8") as f:
        return f.read()


def parse_nets(text):
    """{net name: {(ref, pin function)}} of a KiCad netlist (s-expression, version E)."""
    nets = {}
    for block in text.split("(net (code ")[1:]:
        name = re.search(r'\(name "([^"]*)"\)', block).group(1)
        nodes = re.findall(
            r'\(node \(ref "([^"]+)"\) \(pin "(\d+)"\) \(pinfunction "([^"]*)"\)', block
        )
        nets[name] = {(ref, func) for ref, _pin, func in nodes} | {
            (ref, "pin%s" % pin) for ref, pin, _func in nodes
        }
    return nets


def expected_members(cfg, gpio, function):
    """What the net of `gpio` must reach on the controller, from board_config's function."""
    size = cfg["grid"]["size"]
    groups = bc.grid_groups(size)
    first = ["U%d" % (g + 1) for g in range(groups)]
    second = ["U%d" % (groups + 1 + b) for b in range(bc.grid_banks(size))]
    decoders = ["U%d" % (groups + 3 + b) for b in range(bc.grid_banks(size))]
    out = {("A1", "GP%d" % gpio)}
    m = re.match(r"grid channel select S(\d)", function)
    if m:
        return out | {(u, "S" + m.group(1)) for u in first}
    m = re.match(r"grid group select A(\d)", function)
    if m:
        k = int(m.group(1))
        return out | {(u, "S%d" % k) for u in second} | {(d, "ABCD"[k]) for d in decoders}
    m = re.match(r"grid bank (\d) enable", function)
    if m:
        b = int(m.group(1))
        return out | {(second[b], "~E"), (decoders[b], "~G1")}
    m = re.match(r"grid bank (\d) analog in", function)
    if m:
        return out | {(second[int(m.group(1))], "COM")}
    if function.startswith(("HX711", "I2C", "key")):
        # Each line that leaves the board: on the RJ45 jack pin the cable table gives
        # (host_tools/electrical.py, pinmap.md "Cables and jacks"); jacks J20-J23 in its order.
        for k, (_name, pins) in enumerate(electrical.jacks(cfg)):
            for pin, _colour, _signal, g in pins:
                if g == gpio:
                    out.add(("J%d" % (size + 1 + k), "pin%d" % pin))
        return out
    if function.startswith("buzzer"):
        return out  # through the series resistor to the clock connector (pin 11)
    raise AssertionError("no expectation for %s" % function)


def gpio_problems(cfg, text):
    """Sentences for every GPIO of `cfg` whose committed net does not reach what it should."""
    nets = parse_nets(text)
    problems = []
    for gpio, function in bc.used_pins(cfg):
        if function.startswith("battery sense"):
            continue  # on the Pico module itself
        pin = "pin%d" % parts.pico_pin(gpio)
        found = [name for name, members in nets.items() if ("A1", pin) in members]
        if not found:
            problems.append("GPIO%d (%s) is on no net" % (gpio, function))
            continue
        members = nets[found[0]]
        missing = expected_members(cfg, gpio, function) - members
        if missing or not found[0].startswith("GP%d_" % gpio):
            problems.append("GPIO%d (%s): net %s lacks %s" % (gpio, function, found[0], missing))
    size = cfg["grid"]["size"]
    for i in range(size * size):
        group, channel = bc.sensor_location(i)
        row, col = divmod(i, size)
        members = nets.get("SIG_%s" % point_name(i, size), set())
        want = {
            ("U%d" % (group + 1), "I%d" % channel),
            ("J%d" % (row + 1), "pin%d" % (2 * col + 1)),
        }
        if want - members:
            problems.append("sensor %d (%s) not on %s" % (i, point_name(i, size), want - members))
    return problems


def test_committed_netlists_are_regenerated_from_board_config():
    assert netlist.drifted() == [], "run make hardware (or python -m hardware.electronics.netlist)"


def test_every_gpio_net_of_the_committed_controller_matches_board_config():
    assert gpio_problems(bc.variant(), _read("controller")) == []


def test_the_controller_serves_the_pico_variants_only():
    assert netlist.controller_variants() == ["pico2", "pico2w", "pico"]


def test_a_pin_moved_in_board_config_fails_both_checks(monkeypatch, tmp_path):
    moved = dict(bc.PICO2)
    moved["keys"] = dict(bc.PICO2["keys"], menu=28)  # menu key from GP1 to the spare GP28
    monkeypatch.setitem(bc.VARIANTS, "pico2", moved)
    assert "hardware/kicad/controller/controller.net" in netlist.drifted()
    problems = gpio_problems(moved, _read("controller"))
    assert any(p.startswith("GPIO28 (key menu") for p in problems), problems


def test_a_swapped_mux_channel_in_the_netlist_is_found():
    node = '(node (ref "U1") (pin "9") (pinfunction "I0")'
    text = _read("controller")
    assert node in text  # A19 on group 0's mux, channel 0
    text = text.replace(node, node.replace('"U1"', '"U2"'))
    assert any("not on" in p for p in gpio_problems(bc.variant(), text))


def test_the_strip_is_the_same_for_every_line():
    strip = netlist.build("sensor_strip")
    size = bc.variant()["grid"]["size"]
    assert {r for r in strip.parts if r.startswith("U")} == {"U%d" % (k + 1) for k in range(size)}
    ctrl = netlist.build("controller")
    for row in range(size):
        for col in range(size):
            strip_net = strip.net_of("J1", 2 * col + 1)
            ctrl_net = ctrl.net_of("J%d" % (row + 1), 2 * col + 1)
            assert strip_net == "SIG_" + "ABCDEFGHJKLMNOPQRST"[col]
            assert ctrl_net == "SIG_%s" % point_name(row * size + col, size)
            vcc = ctrl.net_of("J%d" % (row + 1), 2 * col + 2)
            assert vcc == "G%02d_VCC" % ((row * size + col) // 16)


def test_no_pin_left_floating_but_the_declared_ones():
    # Unused Pico pins (RUN, GP28 spare, 3V3_EN), bank 1's unused decoder outputs, the jack
    # pins the cable table leaves NC and the ESD channels they leave free; every other pin of
    # every part is on a net.
    ctrl = netlist.build("controller")
    cfg = bc.variant()
    size = cfg["grid"]["size"]
    left = {(ref, parts.part(ctrl.parts[ref])["pins"][pin][0]) for ref, pin in ctrl.unconnected()}
    assert {n for r, n in left if r == "A1"} == {"RUN", "GP28", "3V3_EN"}
    jack_nc = {
        ("J%d" % (size + 1 + k), str(pin))
        for k, (_n, pins) in enumerate(electrical.jacks(cfg))
        for pin, _c, signal, _g in pins
        if signal == "NC"
    }
    assert {(r, n) for r, n in left if r.startswith("J")} == jack_nc
    esd = {r for r, key in ctrl.parts.items() if key == "esd_4ch"}
    for ref, name in left:
        assert ref in {"A1", "U27"} | esd or ref.startswith("J"), (ref, name)
        if ref in esd:
            assert name == "NC" or name.startswith("IO"), (ref, name)
    assert netlist.build("sensor_strip").unconnected() == []


def test_every_line_leaving_the_board_has_an_esd_channel_at_its_jack():
    ctrl = netlist.build("controller")
    esd = {r for r, key in ctrl.parts.items() if key in ("esd_4ch", "esd_usb")}
    for ref, key in ctrl.parts.items():
        if key not in ("rj45", "usb_c"):
            continue
        for pin in parts.part(key)["pins"]:
            net = ctrl.net_of(ref, pin)
            if net in (None, "GND"):
                continue
            assert any(r in esd for r, _p in ctrl.nets[net]), (ref, pin, net)


def test_the_sensor_groups_run_from_their_own_regulator():
    # electrical.md "Power": the group switches' sources on 3V3_HALL (TPS63001, enabled by
    # the Pico's 3V3), the ADC reference from the same rail.
    ctrl = netlist.build("controller")
    reg = [r for r, k in ctrl.parts.items() if k == "buck_boost"]
    assert len(reg) == 1
    assert ctrl.net_of(reg[0], 6) == "+3V3"  # EN
    assert ctrl.net_of(reg[0], 5) == "VSYS"  # VIN
    for ref, key in ctrl.parts.items():
        if key == "pmos":
            assert ctrl.net_of(ref, 2) == "3V3_HALL", ref
    assert ctrl.net_of("A1", parts.pico_pin_named("ADC_VREF")) == "ADC_VREF"
    assert {r for r, _p in ctrl.nets["ADC_VREF"]} == {"A1", "R26"}
    assert ctrl.net_of("R26", 1) == "3V3_HALL"


def test_every_part_has_a_price_and_the_cost_tool_reads_the_same_table():
    from host_tools import set_parts

    for key, p in parts.PARTS.items():
        assert p["source"] in parts.SOURCES, key
        assert p["price"][0] >= p["price"][1] >= 0, key
        if p["footprint"]:
            assert p["lcsc"] or p["western"] or p["assembly"] == "none", key
    texts = {row[2] for row in set_parts.parts()}
    ctrl = netlist.build("controller")
    for key in set(ctrl.parts.values()):
        p = parts.part(key)
        if p["assembly"] != "none":
            assert set_parts._part_text(p) in texts, key


# -- the unit boards: the clock board and the bowl board -------------------------------------


def unit_problems(cfg, clock_text, bowl_text):
    """Sentences for every place where the committed clock or bowl netlist disagrees with
    board_config.py through the jacks' pin-out (host_tools.electrical.jacks, the controller's)."""
    from host_tools import electrical

    gpio = netlist.gpio_nets(cfg)
    problems = []
    clock, bowl = parse_nets(clock_text), parse_nets(bowl_text)

    def net_of(nets, ref, pin):
        found = [name for name, members in nets.items() if (ref, pin) in members]
        return found[0] if found else None

    def esd_on(nets, name):
        return any(f.startswith("IO") for _r, f in nets.get(name, ()))

    for jack, pins in electrical.jacks(cfg):
        kind, side = jack.split()
        board, ref = (clock, "J%d" % (1 + "BW".index(side))) if kind == "CLOCK" else (bowl, "J1")
        for n, _colour, signal, g in pins:
            net = net_of(board, ref, "pin%d" % n)
            want = {"GND": "GND", "3V3": "+3V3", "NC": None}.get(signal)
            if g is not None:
                want = gpio[g] if kind == "CLOCK" else ("DOUT" if "DOUT" in signal else "PD_SCK")
            if net != want:
                problems.append("%s pin %d (%s): on %s, not %s" % (jack, n, signal, net, want))
            elif want not in (None, "GND") and not esd_on(board, want):
                problems.append("%s pin %d (%s): no ESD array" % (jack, n, signal))
    for k, side in enumerate(("B", "W")):
        bus = cfg["i2c"][cfg["displays"][side]["bus"]]
        for pin, line in ((3, "scl"), (4, "sda")):
            if net_of(clock, "J%d" % (3 + k), "pin%d" % pin) != gpio[bus[line]]:
                problems.append(
                    "display %s header pin %d is not I2C%d %s" % (side, pin, bus["id"], line)
                )
    for k, key in enumerate(("B", "W", "pause", "menu")):
        if net_of(clock, "J%d" % (5 + k), "pin1") != gpio[cfg["keys"][key]]:
            problems.append("key %s connector is not on GPIO%d" % (key, cfg["keys"][key]))
    if net_of(clock, "Q1", "G") != gpio[cfg["buzzer"]]:
        problems.append("the buzzer switch is not on GPIO%d" % cfg["buzzer"])
    for func in ("DOUT", "PD_SCK"):
        if net_of(bowl, "U2", func) != func:
            problems.append("the HX711's %s is not on the jack's %s" % (func, func))
    return problems


def test_the_unit_boards_agree_with_board_config_through_the_jacks():
    assert unit_problems(bc.variant(), _read("clock"), _read("bowl")) == []


def test_a_moved_key_or_display_bus_fails_the_unit_boards(monkeypatch):
    moved = dict(bc.PICO2)
    moved["keys"] = dict(bc.PICO2["keys"], menu=28)  # menu key from GP1 to the spare GP28
    monkeypatch.setitem(bc.VARIANTS, "pico2", moved)
    assert "hardware/kicad/clock/clock.net" in netlist.drifted()
    problems = unit_problems(moved, _read("clock"), _read("bowl"))
    assert any("key menu" in p for p in problems), problems
    swapped = dict(bc.PICO2)
    swapped["displays"] = {
        "B": dict(bc.PICO2["displays"]["W"]),
        "W": dict(bc.PICO2["displays"]["B"]),
    }
    problems = unit_problems(swapped, _read("clock"), _read("bowl"))
    assert any("display B header" in p for p in problems), problems
    assert any(p.startswith("CLOCK B pin 1") for p in problems), problems


def test_a_jack_pin_swapped_in_the_committed_bowl_netlist_is_found():
    text = _read("bowl")
    node = '(node (ref "J1") (pin "1")'
    assert node in text
    text = text.replace(node, '(node (ref "J1") (pin "9")')  # DOUT off pin 1
    assert any(
        p.startswith("BOWL B pin 1") for p in unit_problems(bc.variant(), _read("clock"), text)
    )


def test_the_unit_boards_leave_open_only_unused_jack_pins_and_channels():
    clock = netlist.build("clock")
    left = {(r, parts.part(clock.parts[r])["pins"][p][0]) for r, p in clock.unconnected()}
    # W has no buzzer (pin 5); the jacks' shields are grounded at the controller's end only.
    assert {r for r, _ in left} == {"J1", "J2", "U1", "U2", "U3", "U4"}
    assert all(n in ("5", "NC", "SHIELD") or n.startswith("IO") for _r, n in left)
    assert {r for r, n in left if n == "SHIELD"} == {"J1", "J2"}
    bowl = netlist.build("bowl")
    left = {(r, parts.part(bowl.parts[r])["pins"][p][0]) for r, p in bowl.unconnected()}
    assert left == {
        ("J1", "5"), ("J1", "7"), ("J1", "8"), ("J1", "SHIELD"), ("U1", "NC"), ("U1", "IO4"),
        ("U2", "INNB"), ("U2", "INPB"), ("U2", "XO"),
    }  # fmt: skip


def test_the_clock_pull_up_is_the_lowest_the_strongest_module_allows():
    from hardware.electronics import units

    cfg = bc.variant()
    ohms = units.clock_pullup_ohms(cfg)
    figures = units.i2c_figures(cfg)
    assert all(low <= total and rise <= limit for _l, _m, total, rise, limit, low in figures)
    lower = [r for r in parts.RESISTORS if 0 < r < ohms]
    spine = bc.PULLS["i2c"][1]
    for r in lower:  # any lower value lets the strongest module pull-up sink over 3 mA
        total = 1 / (1 / spine + 1 / r + 1 / 4700)
        assert (3.3 - 0.4) / total > 0.003


def test_the_hx711_supply_divider_is_checked():
    from hardware.electronics import units

    assert units.hx711_problems() == []
    assert abs(units.hx711_avdd() - 1.25 * 18200 / 8200) < 1e-9
    assert any("regulator" in p for p in units.hx711_problems((15000, 8200)))  # 3.54 V
    assert any("common mode" in p for p in units.hx711_problems((4700, 4700)))  # 2.5 V

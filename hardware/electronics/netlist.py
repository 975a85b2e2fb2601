"""The connectivity of every ingboard board, generated from the pin table and the parts table.

    python -m hardware.electronics.netlist           write hardware/kicad/<board>/<board>.net
    python -m hardware.electronics.netlist --check   exit 1 if a committed netlist has drifted

`firmware/ingboard/board_config.py` says which GPIO does what and how the 361 sensors are
multiplexed (sensor i on first-level mux i // 16, channel i % 16; groups 0-15 in bank 0, the rest
in bank 1); `parts.py` says which part does it and what its pins are. Nothing else here knows a
pin number, so the boards cannot disagree with the firmware (tests/host/test_board_netlist.py).

Boards (hardware_docs/boards.md explains the partition):
- `sensor_strip`: one line of the board, 19 Hall sensors with their bypass capacitors and one
  40-way connector (odd pins: sensor outputs, even pins: sensor supplies, 39/40 ground). The
  same strip serves all 19 lines: which group supplies and reads a sensor is decided on the
  controller, whose connector J<n> takes line 20 - n.
- `controller`: the Pico 2 socket, the 23 first-level and 2 second-level muxes, the 2 group
  power decoders, the 23 group power switches, the 19 strip connectors, the clock unit's and
  both bowls' connectors and the battery path.
- `clock` and `bowl`: the boards at the far end of the clock's and the bowls' cables (units.py):
  jacks with the controller's pin-out, ESD, displays, keys, buzzer; the HX711 and load cells.

Pure Python (no CAD tool); the KiCad boards (kicad_boards.py) are built from the same model.
"""

import argparse
import os
import sys
import uuid

_HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(_HERE))
for _path in (os.path.join(ROOT, "host_tools", "cpython_shims"), os.path.join(ROOT, "firmware")):
    if _path not in sys.path:  # the firmware's package and its `micropython` shim
        sys.path.insert(0, _path)

from ingboard import board_config as bc  # noqa: E402
from ingboard.sensing.classifier import point_name  # noqa: E402

from hardware.electronics import parts as pt  # noqa: E402
from host_tools import electrical  # noqa: E402

KICAD_DIR = os.path.join(ROOT, "hardware", "kicad")
BOARDS = ("sensor_strip", "controller", "clock", "bowl")  # the last two: units.py
# Boards of each design in one set: a number, or a function of the configuration.
PER_SET = {"sensor_strip": lambda cfg: cfg["grid"]["size"], "controller": 1, "clock": 1, "bowl": 2}


def per_set(name, cfg):
    n = PER_SET[name]
    return n(cfg) if callable(n) else n


COLUMNS = "ABCDEFGHJKLMNOPQRST"  # no I (seed 000 Art. 11 "Points")
STRIP_PINS = 40  # the 2x20 strip connector


class Board:
    """Parts (ref -> part key) and nets (name -> [(ref, pin number)]) of one board."""

    def __init__(self, name, title):
        self.name = name
        self.title = title
        self.parts = {}
        self.roles = {}  # ref -> what this instance does (BOM/silkscreen notes)
        self.nets = {}

    def add(self, ref, key, role=""):
        if ref in self.parts:
            raise ValueError("%s: reference %s used twice" % (self.name, ref))
        pt.part(key)
        self.parts[ref] = key
        self.roles[ref] = role
        return ref

    def connect(self, net, ref, pin):
        """Put pin `pin` (number, or the pin's name in the parts table) of `ref` on `net`."""
        pins = pt.part(self.parts[ref])["pins"]
        if pin not in pins:  # a pin's name rather than its number or pad name
            found = [n for n, (name, _t) in pins.items() if name == pin]
            if len(found) != 1:
                raise ValueError("%s %s has no single pin named %s" % (self.name, ref, pin))
            pin = found[0]
        if pin not in pins:
            raise ValueError("%s %s has no pin %s" % (self.name, ref, pin))
        for other, members in self.nets.items():
            if (ref, pin) in members and other != net:
                raise ValueError(
                    "%s %s pin %s on both %s and %s" % (self.name, ref, pin, other, net)
                )
        members = self.nets.setdefault(net, [])
        if (ref, pin) not in members:
            members.append((ref, pin))

    def between(self, ref, key, role, net1, net2):
        """A two-pin part (a resistor, a capacitor, a bead, a two-way header) from net1 (its
        pin 1) to net2 (its pin 2); returns ref."""
        self.add(ref, key, role)
        self.connect(net1, ref, 1)
        self.connect(net2, ref, 2)
        return ref

    def net_of(self, ref, pin):
        for name, members in self.nets.items():
            if (ref, pin) in members:
                return name
        return None

    def unconnected(self):
        """[(ref, pin)] of every part pin on no net (the ERC's no-connect list)."""
        out = []
        for ref, key in self.parts.items():
            for pin in pt.part(key)["pins"]:
                if self.net_of(ref, pin) is None:
                    out.append((ref, pin))
        return sorted(out, key=_node_key)


def _ref_key(ref):
    head = ref.rstrip("0123456789")
    return (head, int(ref[len(head) :] or 0))


def _node_key(node):
    """(ref, pin) in order: numbered pins first, then named pads (SH, A1, ...)."""
    ref, pin = node
    return (_ref_key(ref), (0, pin, "") if isinstance(pin, int) else (1, 0, pin))


# -- the sensor strip ------------------------------------------------------------------------


def strip_pin_out(column):
    """Strip connector pin carrying the output of the sensor in `column` (0 = A)."""
    return 2 * column + 1


def strip_pin_vcc(column):
    return 2 * column + 2


def sensor_strip(cfg):
    size = cfg["grid"]["size"]
    if 2 * size + 2 > STRIP_PINS:
        raise ValueError(
            "a strip of %d sensors does not fit a %d-way connector" % (size, STRIP_PINS)
        )
    b = Board("sensor_strip", "ingboard sensor strip: one line of %d Hall sensors" % size)
    b.add("J1", "hdr_2x20_pins", "to the controller (40-way ribbon, straight through)")
    for col in range(size):
        letter = COLUMNS[col]
        u = b.add("U%d" % (col + 1), "hall", "sensor under column %s" % letter)
        c = b.add("C%d" % (col + 1), "cap_10n", "bypass of U%d" % (col + 1))
        b.connect("SIG_%s" % letter, u, "OUT")
        b.connect("SIG_%s" % letter, "J1", strip_pin_out(col))
        b.connect("VCC_%s" % letter, u, "VCC")
        b.connect("VCC_%s" % letter, c, 1)
        b.connect("VCC_%s" % letter, "J1", strip_pin_vcc(col))
        b.connect("GND", u, "GND")
        b.connect("GND", c, 2)
    for pin in range(2 * size + 1, STRIP_PINS + 1):
        b.connect("GND", "J1", pin)
    for h in range(4):
        b.add("H%d" % (h + 1), "hole_m3", "fixing screw")
    return b


# -- the controller --------------------------------------------------------------------------


def gpio_nets(cfg):
    """{gpio: net name} of every GPIO the controller wires, from board_config.py."""
    grid = cfg["grid"]
    out = {}

    def put(gpio, name):
        if gpio in out:
            raise ValueError("GPIO%d wired twice (%s, %s)" % (gpio, out[gpio], name))
        out[gpio] = "GP%d_%s" % (gpio, name)

    for k, gpio in enumerate(grid["channel_select"]):
        put(gpio, "GRID_S%d" % k)
    for k, gpio in enumerate(grid["group_select"]):
        put(gpio, "GRID_A%d" % k)
    for k, gpio in enumerate(grid["bank_enable"]):
        put(gpio, "BANK%d_EN_N" % k)
    for k, gpio in enumerate(grid["adc"]):
        put(gpio, "BANK%d_ADC" % k)
    for colour in ("B", "W"):
        put(cfg["bowls"][colour]["dout"], "BOWL_%s_DOUT" % colour)
        put(cfg["bowls"][colour]["sck"], "BOWL_%s_SCK" % colour)
    for bus in cfg["i2c"]:
        put(bus["sda"], "I2C%d_SDA" % bus["id"])
        put(bus["scl"], "I2C%d_SCL" % bus["id"])
    for name in bc.KEYS:
        put(cfg["keys"][name], "KEY_%s" % name.upper())
    put(cfg["buzzer"], "BUZZER")
    return out


def pulls(cfg):
    """[(gpio, rail, ohms, role)] of every line's external pull resistor, by GPIO: the pin
    table's own (board_config.PULLS, hardware_docs/electrical.md)."""
    return bc.pulls(cfg)


def controller_variants():
    """Variants the controller board serves: those with the Pico pin-out and the same pins."""
    ref = bc.variant()
    out = []
    for name, cfg in bc.VARIANTS.items():
        if cfg["mcu"] in ("RP2350", "RP2040") and gpio_nets(cfg) == gpio_nets(ref):
            out.append(name)
    return out


def jack_nets(cfg, nets, buzzer_net="BUZZER_OUT"):
    """[(jack name, {pin: net or None})] of the four cable jacks, from the pin-out of
    host_tools/electrical.py (the same table pinmap.md's "Cables and jacks" shows). On the
    controller the buzzer's pin carries `buzzer_net` (after the series resistor); None names it
    by its GPIO, as the clock board does."""
    by_gpio = dict(nets)
    out = []
    for name, pins in electrical.jacks(cfg):
        wired = {}
        for n, _colour, signal, gpio in pins:
            if signal == "GND":
                wired[n] = "GND"
            elif signal == "3V3":
                wired[n] = "+3V3"
            elif buzzer_net is not None and gpio == cfg["buzzer"]:
                wired[n] = buzzer_net
            elif gpio is not None:
                wired[n] = by_gpio[gpio]
            else:
                wired[n] = None
        out.append((name, wired))
    return out


def controller(cfg):
    grid = cfg["grid"]
    size = grid["size"]
    n = size * size
    groups = bc.grid_groups(size)
    banks = bc.grid_banks(size)
    if banks != 2 or len(cfg["i2c"]) != 2:
        raise ValueError("the controller board is drawn for 2 banks and 2 I2C buses")
    nets = gpio_nets(cfg)
    b = Board("controller", "ingboard controller: Pico 2, grid multiplexers, connectors")
    a1 = b.add("A1", "pico2", "MCU module (Pico 2 / Pico 2 W / Pico)")
    for gpio, net in sorted(nets.items()):
        b.connect(net, a1, pt.pico_pin(gpio))
    for pin, (name, _t) in pt.PICO_PINS.items():
        if name in ("GND", "AGND"):
            b.connect("GND", a1, pin)
    b.connect("+3V3", a1, "3V3")
    b.connect("VSYS", a1, "VSYS")
    b.connect("VBUS", a1, "VBUS")

    sel = [nets[p] for p in grid["channel_select"]]
    addr = [nets[p] for p in grid["group_select"]]
    enable = [nets[p] for p in grid["bank_enable"]]
    adc = [nets[p] for p in grid["adc"]]
    cap = 0

    def decouple(ref):
        nonlocal cap
        cap += 1
        b.between("C%d" % (groups + cap), "cap_100n", "decoupling of %s" % ref, "+3V3", "GND")

    # First-level muxes U1-U23: group g reads sensors 16g .. 16g+15 (board_config).
    for g in range(groups):
        u = b.add("U%d" % (g + 1), "mux", "group %d (first level)" % g)
        b.connect("G%02d_OUT" % g, u, "COM")
        for k in range(4):
            b.connect(sel[k], u, "S%d" % k)
        b.connect("GND", u, "~E")  # always enabled: the second level selects
        b.connect("GND", u, "GND")
        b.connect("+3V3", u, "VCC")
        for ch in range(bc.CHANNELS_PER_GROUP):
            i = g * bc.CHANNELS_PER_GROUP + ch
            if i < n:
                b.connect("SIG_%s" % point_name(i, size), u, "I%d" % ch)
            else:
                b.connect("GND", u, "I%d" % ch)  # no sensor: a defined level
    # Second-level muxes U24/U25 and decoders U26/U27, one each per bank.
    for bank in range(banks):
        m = b.add("U%d" % (groups + 1 + bank), "mux", "bank %d second level (M%d)" % (bank, bank))
        d = b.add(
            "U%d" % (groups + 3 + bank), "decoder", "bank %d power decoder (D%d)" % (bank, bank)
        )
        b.connect(adc[bank], m, "COM")
        b.connect(enable[bank], m, "~E")
        b.connect(enable[bank], d, "~G1")
        b.connect("GND", d, "~G2")
        for k in range(4):
            b.connect(addr[k], m, "S%d" % k)
            b.connect(addr[k], d, "ABCD"[k])
        for part_ref in (m, d):
            b.connect("GND", part_ref, "GND")
            b.connect("+3V3", part_ref, "VCC")
        for ch in range(bc.GROUPS_PER_BANK):
            g = bank * bc.GROUPS_PER_BANK + ch
            if g < groups:
                b.connect("G%02d_OUT" % g, m, "I%d" % ch)
                b.connect("G%02d_GATE" % g, d, "~Y%d" % ch)
            else:
                b.connect("GND", m, "I%d" % ch)
    for u in range(1, groups + 2 * banks + 1):
        decouple("U%d" % u)
    # Group power switches Q1-Q23 and their rails.
    for g in range(groups):
        q = b.add("Q%d" % (g + 1), "pmos", "group %d supply switch" % g)
        c = b.add("C%d" % (g + 1), "cap_1u", "group %d supply" % g)
        b.connect("G%02d_GATE" % g, q, "G")
        b.connect("3V3_HALL", q, "S")
        b.connect("G%02d_VCC" % g, q, "D")
        b.connect("G%02d_VCC" % g, c, 1)
        b.connect("GND", c, 2)
    # Strip connectors: J<r+1> takes line size - r (scan row r), pin-for-pin the strip's J1.
    for row in range(size):
        j = b.add("J%d" % (row + 1), "hdr_2x20", "strip of line %d" % (size - row))
        for col in range(size):
            i = row * size + col
            b.connect("SIG_%s" % point_name(i, size), j, strip_pin_out(col))
            b.connect("G%02d_VCC" % (i // bc.CHANNELS_PER_GROUP), j, strip_pin_vcc(col))
        for pin in range(2 * size + 1, STRIP_PINS + 1):
            b.connect("GND", j, pin)
    # Pull resistors: every line defined while the MCU boots or a cable is out (a bank's
    # enable up: decoder outputs high, every group's MOSFET off; RP2350 erratum E9).
    r = 0
    for gpio, rail, ohms, role in pulls(cfg):
        r += 1
        b.between(
            "R%d" % r,
            pt.resistor(ohms),
            "%s pull-%s" % (role, "up" if rail == "3V3" else "down"),
            nets[gpio],
            "+3V3" if rail == "3V3" else "GND",
        )
    # Cable jacks (RJ45, Cat 5e): CLOCK B, CLOCK W, BOWL B, BOWL W, each line that leaves the
    # board through a TPD4E1U06 channel next to its jack; the shield to ground here only.
    r += 1
    b.between("R%d" % r, "res_100", "buzzer series resistor", nets[cfg["buzzer"]], "BUZZER_OUT")
    esd = []
    for k, (name, wired) in enumerate(jack_nets(cfg, nets)):
        j = b.add("J%d" % (size + 1 + k), "rj45", "jack %s (Cat 5e cable)" % name)
        for pin, net in sorted(wired.items()):
            if net is not None:
                b.connect(net, j, pin)
        b.connect("GND", j, "SH")
        lines = [net for _pin, net in sorted(wired.items()) if net not in (None, "GND")]
        for first in range(0, len(lines), 4):
            esd.append((name, lines[first : first + 4]))
    # Battery path: cell -> external switch -> Schottky -> VSYS; MCP73831 charges from USB.
    jbat = b.add("J%d" % (size + 5), "jst_ph2", "battery (one Li-ion cell, protected)")
    jsw = b.add("J%d" % (size + 6), "jst_xh2", "power switch (panel switch in the battery line)")
    b.connect("BAT+", jbat, 1)
    b.connect("GND", jbat, 2)
    b.connect("BAT+", jsw, 1)
    b.connect("BAT_SW", jsw, 2)
    d1 = b.add("D1", "schottky", "battery to VSYS")
    b.connect("VSYS", d1, "K")
    b.connect("BAT_SW", d1, "A")
    chg = b.add("U%d" % (groups + 2 * banks + 1), "charger", "battery charger (from USB)")
    b.connect("VBUS", chg, "VDD")
    b.connect("GND", chg, "VSS")
    b.connect("BAT+", chg, "VBAT")
    b.connect("CHG_STAT", chg, "STAT")
    b.connect("CHG_PROG", chg, "PROG")
    r += 1
    b.between("R%d" % r, "res_4k7", "charge current 1000 V / 4.7 kOhm = 213 mA", "CHG_PROG", "GND")
    r += 1
    rl = b.add("R%d" % r, "res_1k", "charge LED")
    led = b.add("D2", "led_red", "lit while charging")
    b.connect("VBUS", rl, 1)
    b.connect("CHG_LED", rl, 2)
    b.connect("CHG_LED", led, "A")
    b.connect("CHG_STAT", led, "K")
    for k, net in enumerate(("VBUS", "BAT+")):
        b.between("C%d" % (groups + cap + 1 + k), "cap_10u", "charger %s" % net, net, "GND")
    u = groups + 2 * banks + 1  # the charger's number; the parts below follow it
    cap = cap + 2
    # Sensor rail: TPS63001 from VSYS, enabled by the Pico's 3V3 (no sensor supply while the
    # decoders are unpowered), ferrite + 22 uF, and the ADC reference from the same rail.
    u += 1
    reg = b.add("U%d" % u, "buck_boost", "sensor rail 3V3_HALL (800 mA)")
    for pin in ("VIN", "VINA", "PS/SYNC"):
        b.connect("VSYS", reg, pin)
    b.connect("+3V3", reg, "EN")
    for pin in ("VOUT", "FB"):
        b.connect("3V3_HALL_RAW", reg, pin)
    for pin in ("PGND", "GND", "PAD"):
        b.connect("GND", reg, pin)
    ind = b.add("L1", "ind_1u5", "TPS63001 inductor")
    b.connect("REG_L1", reg, "L1")
    b.connect("REG_L1", ind, 1)
    b.connect("REG_L2", reg, "L2")
    b.connect("REG_L2", ind, 2)
    for net, what in (
        ("VSYS", "TPS63001 input"),
        ("3V3_HALL_RAW", "TPS63001 output"),
        ("3V3_HALL_RAW", "TPS63001 output"),
    ):
        cap += 1
        b.between("C%d" % (groups + cap), "cap_10u", what, net, "GND")
    b.between("FB1", "ferrite", "sensor rail filter", "3V3_HALL_RAW", "3V3_HALL")
    cap += 1
    b.between(
        "C%d" % (groups + cap), "cap_22u", "sensor rail after the ferrite", "3V3_HALL", "GND"
    )
    r += 1
    b.between(
        "R%d" % r,
        "res_0",
        "ADC reference from the sensor rail (remove: Pico's own)",
        "3V3_HALL",
        "ADC_VREF",
    )
    b.connect("ADC_VREF", a1, "ADC_VREF")
    # USB-C for power and charging (a sink: 5.1 kOhm on each CC), a USBLC6-2SC6 on CC1, CC2
    # and VBUS at the receptacle; VBUS feeds the Pico's VBUS and the charger. USB data stays on
    # the Pico's own connector: a socketed module's USB test pads face the socket board.
    usb = b.add("J%d" % (size + 7), "usb_c", "USB-C (power and charging)")
    for pin, (name, _t) in pt.part("usb_c")["pins"].items():
        net = {"GND": "GND", "SHIELD": "GND", "VBUS": "VBUS", "CC1": "USB_CC1", "CC2": "USB_CC2"}
        b.connect(net[name], usb, pin)
    for k in (1, 2):
        r += 1
        b.between("R%d" % r, "res_5k1", "USB-C CC%d pull-down (sink)" % k, "USB_CC%d" % k, "GND")
    u += 1
    tvs = b.add("U%d" % u, "esd_usb", "USB-C ESD")
    b.connect("USB_CC1", tvs, 1)
    b.connect("USB_CC1", tvs, 6)
    b.connect("USB_CC2", tvs, 3)
    b.connect("USB_CC2", tvs, 4)
    b.connect("VBUS", tvs, "VBUS")
    b.connect("GND", tvs, "GND")
    # Cable ESD: one TPD4E1U06 per four lines of a jack.
    for name, lines in esd:
        u += 1
        e = b.add("U%d" % u, "esd_4ch", "ESD at jack %s" % name)
        b.connect("GND", e, "GND")
        for k, net in enumerate(lines):
            b.connect(net, e, "IO%d" % (k + 1))
    for h in range(4):
        b.add("H%d" % (h + 1), "hole_m3", "fixing screw")
    return b


def build(name, cfg=None):
    cfg = bc.variant() if cfg is None else cfg
    if name == "sensor_strip":
        return sensor_strip(cfg)
    if name == "controller":
        return controller(cfg)
    if name in ("clock", "bowl"):
        from hardware.electronics import units

        return units.build(name, cfg)
    raise ValueError("unknown board %r (known: %s)" % (name, ", ".join(BOARDS)))


# -- KiCad netlist (s-expression, version E) -------------------------------------------------

_SKIDL_TYPES = {
    "in": "input",
    "out": "output",
    "bidir": "bidirectional",
    "passive": "passive",
    "pwr_in": "power_in",
    "pwr_out": "power_out",
    "nc": "no_connect",
}


def _q(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def stamp(board, ref):
    """A stable UUID per (board, ref): regenerating gives the same files."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "ingboard/%s/%s" % (board, ref)))


def ordered_nets(board):
    """[(code, name, members)] with GND first, then by name: the codes KiCad files use."""
    names = sorted(board.nets, key=lambda s: (s != "GND", s))
    return [
        (code, name, sorted(board.nets[name], key=_node_key))
        for code, name in enumerate(names, start=1)
    ]


def kicad_netlist(board):
    refs = sorted(board.parts, key=_ref_key)
    out = [
        '(export (version "E")',
        "  (design",
        "    (source %s)" % _q("hardware/electronics/netlist.py"),
        "    (tool %s)"
        % _q("ingboard netlist generator (from firmware/ingboard/board_config.py)"),
        '    (sheet (number "1") (name "/") (tstamps "/")',
        '      (title_block (title %s) (company "ingboard") (rev "1"))))' % _q(board.title),
        "  (components",
    ]
    for ref in refs:
        p = pt.part(board.parts[ref])
        fields = [
            ("MPN", p["mpn"]),
            ("Manufacturer", p["manufacturer"]),
            ("LCSC", p["lcsc"]),
            ("Distributor", p["western"]),
            ("Role", board.roles[ref]),
        ]
        out.append("    (comp (ref %s)" % _q(ref))
        out.append("      (value %s)" % _q(p["value"]))
        out.append("      (footprint %s)" % _q(p["footprint"] or ""))
        out.append(
            "      (fields %s)"
            % " ".join("(field (name %s) %s)" % (_q(k), _q(v)) for k, v in fields if v)
        )
        out.append(
            '      (libsource (lib "ingboard") (part %s) (description %s))'
            % (_q(board.parts[ref]), _q(p["what"]))
        )
        out.append('      (sheetpath (names "/") (tstamps "/"))')
        out.append("      (tstamps %s))" % _q(stamp(board.name, ref)))
    out.append("  )")
    out.append("  (nets")
    for code, name, members in ordered_nets(board):
        out.append("    (net (code %s) (name %s)" % (_q(code), _q(name)))
        for ref, pin in members:
            pname, ptype = pt.part(board.parts[ref])["pins"][pin]
            out.append(
                "      (node (ref %s) (pin %s) (pinfunction %s) (pintype %s))"
                % (_q(ref), _q(pin), _q(pname), _q(_SKIDL_TYPES[ptype]))
            )
        out[-1] += ")"
    out.append("  )")
    out.append(")")
    return "\n".join(out) + "\n"


def netlist_path(name, root=ROOT):
    return os.path.join(root, "hardware", "kicad", name, name + ".net")


def generated(cfg=None):
    """{board name: netlist text}."""
    return {name: kicad_netlist(build(name, cfg)) for name in BOARDS}


def drifted(root=ROOT):
    out = []
    for name, text in sorted(generated().items()):
        try:
            with open(netlist_path(name, root), encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            out.append(os.path.relpath(netlist_path(name, root), root))
    return out


def write_all(root=ROOT):
    for name, text in generated().items():
        path = netlist_path(name, root)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hardware.electronics.netlist")
    parser.add_argument("--check", action="store_true", help="exit 1 if a netlist has drifted")
    args = parser.parse_args(argv)
    if args.check:
        stale = drifted()
        for rel in stale:
            print("out of date: %s (run make hardware)" % rel, file=sys.stderr)
        return 1 if stale else 0
    write_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The connectivity of the two unit boards that hang on the controller's cables: the clock board
and the bowl board (one design for both bowls).

    python -m hardware.electronics.units     print the sizing checks of both boards; exit 1 if
                                             one fails

The cable side of both boards is the controller's: each jack is the same 8P8C part with the same
pin numbers as the controller's CLOCK B / CLOCK W / BOWL jacks, and what each pin carries comes
from `host_tools.electrical.jacks(cfg)`, which reads board_config.py. Every signal net on the
clock board is named after the controller's GPIO net (`netlist.gpio_nets`: GP16_I2C0_SDA ...),
so a pin moved in board_config.py changes the clock board's netlist too. The bowl board serves
both bowls, so its nets are named after the HX711's pins.

- `clock`: the jacks B and W, two ESD arrays per jack, the display headers (one per player), the
  four key connectors, the buzzer (piezo switched by an N-MOSFET), I2C pull-ups at the display
  end, decoupling.
- `bowl`: the jack, one ESD array, the HX711 with its analog supply regulator (PNP + divider),
  the supply filtering of the HX711 datasheet's reference design and two 4-way terminals, one per
  load cell (the two cells' bridges in parallel).
"""

import sys

from hardware.electronics import netlist
from hardware.electronics import parts as pt
from host_tools import electrical as el

BOARDS = ("clock", "bowl")

# The display modules' header order: most 0.96-inch SSD1306 and 1.3-inch SH1106 I2C modules put
# GND first (check yours: some swap GND and VCC; the lead's plug can be re-pinned).
DISPLAY_HEADER = ("GND", "VCC", "SCL", "SDA")
KEY_ORDER = ("B", "W", "pause", "menu")
# A load cell's four wires on its terminal, pin 1 first (colours of the common 4-wire bar cells:
# red E+, black E-, white A-, green A+): the HX711 modules' E+ E- A- A+ order.
CELL_TERMINAL = ("E+", "E-", "A-", "A+")
ESD_CHANNELS = ("IO1", "IO2", "IO3", "IO4")

# -- sizing ------------------------------------------------------------------------------------

# HX711 datasheet ("Analog power supply regulator", "Electrical characteristics"): AVDD = VBG
# (R1 + R2) / R2 with VBG = 1.25 V; the regulator needs VSUP at least 100 mV above AVDD; the
# input common-mode range is AGND + 1.2 V .. AVDD - 1.3 V, and a bridge sits at AVDD / 2.
HX711_VBG = 1.25
HX711_DROPOUT = 0.1
HX711_CM_LOW = 1.2
HX711_CM_HIGH_BELOW_AVDD = 1.3
AVDD_DIVIDER = (10000, 8200)  # R1 (AVDD to VFB), R2 (VFB to AGND)
CABLE_DROP_V = 0.05  # allowed; 3 m of 24 AWG out and back at 7 mA (HX711 + two bridges): 5 mV
SUPPLY_V = el.RAIL_V


def hx711_avdd(divider=AVDD_DIVIDER):
    r1, r2 = divider
    return HX711_VBG * (r1 + r2) / r2


def hx711_problems(divider=AVDD_DIVIDER, supply_v=SUPPLY_V):
    """Sentences for every HX711 supply limit the divider misses (empty: fine)."""
    avdd = hx711_avdd(divider)
    out = []
    headroom = supply_v - CABLE_DROP_V - avdd
    if headroom < HX711_DROPOUT:
        out.append(
            "AVDD %.2f V leaves %.2f V for the regulator (needs %.1f V)"
            % (avdd, headroom, HX711_DROPOUT)
        )
    cm = avdd / 2
    if not HX711_CM_LOW <= cm <= avdd - HX711_CM_HIGH_BELOW_AVDD:
        out.append(
            "bridge common mode %.2f V outside %.2f .. %.2f V"
            % (cm, HX711_CM_LOW, avdd - HX711_CM_HIGH_BELOW_AVDD)
        )
    return out


def clock_pullup_ohms(cfg):
    """The clock board's I2C pull-up: the lowest value of the parts table that, in parallel with
    the controller's pull-up and the strongest module pull-up a display may bring, still lets a
    driver pull the bus to 0.4 V at 3 mA (UM10204); the lower, the faster the edge at the end of
    the longest cable. ValueError when no value of the table is high enough."""
    spine = el.bc.PULLS["i2c"][1]
    modules = [m for m in el.MODULE_PULLUP_OHM if m is not None]
    for _bus, colours in el.buses(cfg):
        if len(colours) > 1:
            raise ValueError("the clock board is drawn for one display per bus")
    low, _high = el.pullup_range(el.bus_capacitance_pf(el.CLOCK_CABLE_MAX_M))
    for ohms in sorted(r for r in pt.RESISTORS if r > 0):  # not the 0 Ohm link
        worst = _parallel(spine, ohms, min(modules))
        if worst >= low:
            return ohms
    raise ValueError("no pull-up in parts.py keeps the bus above %.0f Ohm" % low)


def _parallel(*ohms):
    return 1.0 / sum(1.0 / r for r in ohms)


def i2c_figures(cfg):
    """[(cable m, module pull-up, total Ohm, rise ns, limit ns, min Ohm)] of a clock cable with
    both ends' pull-ups."""
    spine = el.bc.PULLS["i2c"][1]
    here = clock_pullup_ohms(cfg)
    out = []
    freq = max(bus["freq"] for bus in cfg["i2c"])
    limit, _cb = el.i2c_limits(freq)
    for length in (el.CLOCK_CABLE_M, el.CLOCK_CABLE_MAX_M):
        cap = el.bus_capacitance_pf(length)
        low, _high = el.pullup_range(cap, freq)
        for module in el.MODULE_PULLUP_OHM:
            parts = [spine, here] + ([module] if module else [])
            total = _parallel(*parts)
            out.append((length, module, total, el.rise_time_ns(total, cap), limit, low))
    return out


# -- the clock board ---------------------------------------------------------------------------


def jack_nets(cfg, jack):
    """{jack pin: net} of one controller jack ("CLOCK B", "BOWL W" ...), named as the
    controller names the GPIO behind it; GND and +3V3 as they are; NC pins left out."""
    for name, wired in netlist.jack_nets(cfg, netlist.gpio_nets(cfg), buzzer_net=None):
        if name == jack:
            return {n: net for n, net in wired.items() if net is not None}
    raise ValueError("no jack %r" % jack)


def esd_groups(nets):
    """The jack's protected lines (every pin but ground), in pin order, four to an array."""
    lines = [(n, net) for n, net in sorted(nets.items()) if net != "GND"]
    return [lines[k : k + 4] for k in range(0, len(lines), 4)]


def clock(cfg):
    gpio = netlist.gpio_nets(cfg)
    b = netlist.Board("clock", "ingboard clock board: two cable jacks, displays, keys, buzzer")
    pull = pt.resistor(clock_pullup_ohms(cfg))
    r = c = u = 0
    for k, side in enumerate(("B", "W")):
        jack = b.add("J%d" % (k + 1), "rj45", "cable CLOCK %s (from the controller's jack)" % side)
        nets = jack_nets(cfg, "CLOCK %s" % side)
        for pin, net in sorted(nets.items()):
            b.connect(net, jack, pin)
        for group in esd_groups(nets):
            u += 1
            esd = b.add("U%d" % u, "esd_4ch", "ESD of jack %s" % jack)
            b.connect("GND", esd, "GND")
            for (_pin, net), channel in zip(group, ESD_CHANNELS):
                b.connect(net, esd, channel)
        for part_key, what in (("cap_10u", "bulk"), ("cap_100n", "decoupling")):
            c += 1
            b.between("C%d" % c, part_key, "%s of 3V3 at %s" % (what, jack), "+3V3", "GND")
        # The display of this side: the bus its jack carries (board_config "displays").
        bus = cfg["i2c"][cfg["displays"][side]["bus"]]
        header = b.add("J%d" % (3 + k), "hdr_1x4", "display %s (module lead)" % side)
        lines = {"SDA": gpio[bus["sda"]], "SCL": gpio[bus["scl"]]}
        for pin, what in enumerate(DISPLAY_HEADER, start=1):
            net = {"GND": "GND", "VCC": "+3V3"}.get(what) or lines[what]
            b.connect(net, header, pin)
        for what in ("SDA", "SCL"):
            r += 1
            b.between(
                "R%d" % r,
                pull,
                "I2C%d %s pull-up (display end)" % (bus["id"], what),
                lines[what],
                "+3V3",
            )
    for k, key in enumerate(KEY_ORDER):
        b.between(
            "J%d" % (5 + k),
            "jst_xh2",
            "key %s (switch to GND)" % key,
            gpio[cfg["keys"][key]],
            "GND",
        )
    # Buzzer: the controller's PWM (100 Ohm in series there) switches the piezo's low side.
    q = b.add("Q1", "nmos", "buzzer switch")
    b.connect(gpio[cfg["buzzer"]], q, "G")
    b.connect("GND", q, "S")
    b.connect("BUZZER_LOW", q, "D")
    r += 1
    b.between(
        "R%d" % r,
        "res_10k",
        "buzzer gate pull-down: silent with the cable out",
        gpio[cfg["buzzer"]],
        "GND",
    )
    b.between("BZ1", "piezo", "the clock's beeper", "+3V3", "BUZZER_LOW")
    r += 1
    b.between(
        "R%d" % r, "res_1k", "discharges the piezo while the switch is off", "+3V3", "BUZZER_LOW"
    )
    d = b.add("D1", "diode_4148", "clamp (a magnetic buzzer may replace the piezo)")
    b.connect("+3V3", d, "K")
    b.connect("BUZZER_LOW", d, "A")
    for h in range(4):
        b.add("H%d" % (h + 1), "hole_m3", "fixing screw")
    return b


# -- the bowl board ----------------------------------------------------------------------------


def bowl(cfg):
    from ingboard import physical  # (after netlist.py has put firmware/ on the path)

    nets = jack_nets(cfg, "BOWL B")
    if jack_nets(cfg, "BOWL W").keys() != nets.keys():
        raise ValueError("the two bowl jacks differ: one bowl board cannot serve both")
    names = {}  # the bowl board serves both bowls: nets named after the HX711's pins
    for colour in ("B", "W"):
        names[netlist.gpio_nets(cfg)[cfg["bowls"][colour]["dout"]]] = "DOUT"
        names[netlist.gpio_nets(cfg)[cfg["bowls"][colour]["sck"]]] = "PD_SCK"
    b = netlist.Board("bowl", "ingboard bowl board: cable jack, HX711, two load cells")
    jack = b.add("J1", "rj45", "cable BOWL B or BOWL W (from the controller's jack)")
    pins = {}
    for pin, net in sorted(nets.items()):
        pins[pin] = names.get(net, net)
        b.connect(pins[pin], jack, pin)
    for k, group in enumerate(esd_groups(pins)):
        esd = b.add("U%d" % (k + 1), "esd_4ch", "ESD of the jack")
        b.connect("GND", esd, "GND")
        for (_pin, net), channel in zip(group, ESD_CHANNELS):
            b.connect(net, esd, channel)
    hx = b.add("U%d" % (len(esd_groups(pins)) + 1), "hx711", "load-cell ADC")
    caps = []

    def cap(key, net, role):
        caps.append(b.between("C%d" % (len(caps) + 1), key, role, net, "GND"))

    # Supply: the cable's 3V3 through a ferrite bead, 10 uF + 100 nF at VSUP, 100 nF at DVDD.
    b.between("FB1", "ferrite_600", "keeps the cable's noise off the HX711", "+3V3", "VSUP")
    cap("cap_10u", "VSUP", "VSUP bulk")
    cap("cap_100n", "VSUP", "VSUP decoupling")
    cap("cap_100n", "VSUP", "DVDD decoupling")
    b.connect("VSUP", hx, "VSUP")
    b.connect("VSUP", hx, "DVDD")
    b.connect("GND", hx, "AGND")
    # Analog supply: the HX711's regulator drives a PNP; AVDD = VBG (R1 + R2) / R2.
    q = b.add("Q1", "pnp", "analog supply pass transistor")
    b.connect("HX_BASE", hx, "BASE")
    b.connect("HX_BASE", q, "B")
    b.connect("VSUP", q, "E")
    b.connect("AVDD", q, "C")
    b.connect("AVDD", hx, "AVDD")
    r1 = b.add("R1", pt.resistor(AVDD_DIVIDER[0]), "AVDD divider, upper")
    r2 = b.add("R2", pt.resistor(AVDD_DIVIDER[1]), "AVDD divider, lower")
    b.connect("AVDD", r1, 1)
    b.connect("VFB", r1, 2)
    b.connect("VFB", r2, 1)
    b.connect("GND", r2, 2)
    b.connect("VFB", hx, "VFB")
    cap("cap_10u", "AVDD", "AVDD bulk (bridge excitation)")
    cap("cap_100n", "AVDD", "AVDD decoupling")
    cap("cap_100n", "VBG", "reference bypass")
    b.connect("VBG", hx, "VBG")
    # Control: internal oscillator (XI to ground), RATE from the firmware's sample rate.
    b.connect("GND", hx, "XI")
    if physical.HX711_SPS not in (10, 80):
        raise ValueError("the HX711 runs at 10 or 80 samples/s, not %s" % physical.HX711_SPS)
    b.connect("GND" if physical.HX711_SPS == 10 else "VSUP", hx, "RATE")
    b.connect("DOUT", hx, "DOUT")
    b.connect("PD_SCK", hx, "PD_SCK")
    b.connect("CELL_A+", hx, "INPA")
    b.connect("CELL_A-", hx, "INNA")
    # The load cells, bridges in parallel (physical.LOAD_CELLS_PER_BOWL).
    for k in range(physical.LOAD_CELLS_PER_BOWL):
        t = b.add("J%d" % (k + 2), "term_4", "load cell %d (E+ E- A- A+)" % (k + 1))
        for pin, what in enumerate(CELL_TERMINAL, start=1):
            net = {"E+": "AVDD", "E-": "GND"}.get(what, "CELL_" + what)
            b.connect(net, t, pin)
    for h in range(4):
        b.add("H%d" % (h + 1), "hole_m3", "fixing screw")
    return b


def build(name, cfg):
    if name == "clock":
        return clock(cfg)
    if name == "bowl":
        return bowl(cfg)
    raise ValueError("unknown unit board %r" % name)


def shown(board):
    """What the board's schematic PNG (schematic.py) shows: every part with pins, its role as
    the caption (the unit boards are small enough to draw whole)."""
    refs = sorted((r for r, k in board.parts.items() if pt.part(k)["pins"]), key=netlist._ref_key)
    return [(ref, "%s: %s" % (ref, board.roles[ref])) for ref in refs]


def report(cfg=None):
    """Lines of the sizing checks; (lines, ok)."""
    cfg = netlist.bc.variant() if cfg is None else cfg
    lines = []
    ok = True
    here = clock_pullup_ohms(cfg)
    lines.append(
        "clock: I2C pull-ups %d Ohm at the display end, %d Ohm at the controller"
        % (here, el.bc.PULLS["i2c"][1])
    )
    for length, module, total, rise, limit, low in i2c_figures(cfg):
        good = low <= total and rise <= limit
        ok &= good
        lines.append(
            "  %.1f m cable, module pull-up %s: %.0f Ohm (>= %.0f), rise %.0f ns (<= %d)%s"
            % (length, module or "none", total, low, rise, limit, "" if good else "  FAILS")
        )
    avdd = hx711_avdd()
    lines.append(
        "bowl: AVDD %.2f V (R1 %d, R2 %d), regulator headroom %.2f V,"
        " bridge at %.2f V in %.2f .. %.2f V"
        % (
            avdd,
            AVDD_DIVIDER[0],
            AVDD_DIVIDER[1],
            SUPPLY_V - CABLE_DROP_V - avdd,
            avdd / 2,
            HX711_CM_LOW,
            avdd - HX711_CM_HIGH_BELOW_AVDD,
        )
    )
    for p in hx711_problems():
        ok = False
        lines.append("  FAILS: " + p)
    return lines, ok


def main():
    lines, ok = report()
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

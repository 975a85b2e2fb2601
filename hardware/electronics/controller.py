"""Placement and routing of the controller board ("spine"), by script.

The spine lies under the middle of the board, along its 19 lines: connector J<r+1> sits right
under the connector of the strip of scan row r (line 19 - r), PITCH_Y apart, so each strip's
ribbon drops straight down a few centimetres. Beside the connectors, in scan order from top to
bottom, the 23 first-level muxes (each next to the strips it reads), their group power switches
and capacitors; then a column with the two second-level muxes, the two power decoders, the
Pico 2 socket and the connectors to the clock unit, the bowls and the battery.

Four copper layers: signals on the outer ones, In1 a ground plane, In2 the 3.3 V plane; every
ground and 3.3 V pad drops to its plane through its own via (fan-out), and the grid router
(router.py) routes the signals.
"""

import pcbnew
from ingboard import physical as ph

from hardware.electronics.kicad_pcb import Pcb, to_mm

UM = 1000.0
PITCH_Y = ph.PITCH_Y_UM / UM  # 23.6 mm between lines (seed 000 Art. 11 "Lines")
LENGTH = ph.SPINE_L_UM / UM  # the spine's pocket in the board's drawings is made for these
WIDTH = ph.SPINE_W_UM / UM
HEADER_X = 20 * 2.54 / 8  # pin 1 of every strip connector (on the router's grid)
HEADER_Y0 = 22 * 2.54 / 8  # odd (output) row of J1
MUX_X = 84.455
SWITCH_X = 100.965
COLUMN_X = 125.73  # second level, decoders, Pico, connectors


def mux_y(g, size):
    """Beside the strips it reads (centre of its sensors' lines), kept 17.5 mm apart."""
    n = size * size
    groups = (n + 15) // 16
    ys = []
    for k in range(groups):
        first, last = 16 * k, min(16 * k + 15, n - 1)
        rows = [i // size for i in range(first, last + 1)]
        ys.append(HEADER_Y0 - 1.27 + PITCH_Y * sum(rows) / len(rows))
    for k in range(groups - 1, -1, -1):  # from the far end: inside the board, apart
        limit = LENGTH - 10.0 if k == groups - 1 else ys[k + 1] - 17.5
        ys[k] = min(ys[k], limit)
    for k in range(groups):
        ys[k] = max(ys[k], 10.0 if k == 0 else ys[k - 1] + 17.5)
    return round(ys[g] / (2.54 / 8)) * (2.54 / 8)


def layout(model, cfg, first=()):
    size = cfg["grid"]["size"]
    groups = (size * size + 15) // 16
    pcb = Pcb(model, copper_layers=4)
    pcb.rect_outline(0, 0, WIDTH, LENGTH)
    for r in range(size):
        pcb.place("J%d" % (r + 1), HEADER_X, HEADER_Y0 + PITCH_Y * r, angle=90)
    for g in range(groups):
        y = mux_y(g, size)
        pcb.place("U%d" % (g + 1), MUX_X, y)
        pcb.place("C%d" % (groups + g + 1), MUX_X + 8.5, y - 8.0, angle=90)  # its decoupling
        pcb.place("Q%d" % (g + 1), SWITCH_X, y - 2.5, angle=180)
        pcb.place("C%d" % (g + 1), SWITCH_X, y + 2.5)
    # Second level and decoders: bank 0 beside groups 0-15, bank 1 beside groups 16-22.
    pcb.place("U%d" % (groups + 1), COLUMN_X, 120.0)  # M0
    pcb.place("C%d" % (2 * groups + 1), COLUMN_X, 110.7)
    pcb.place("U%d" % (groups + 3), COLUMN_X, 150.0)  # D0
    pcb.place("C%d" % (2 * groups + 3), COLUMN_X, 140.7)
    pcb.place("U%d" % (groups + 2), COLUMN_X, 360.0)  # M1
    pcb.place("C%d" % (2 * groups + 2), COLUMN_X, 350.7)
    pcb.place("U%d" % (groups + 4), COLUMN_X, 390.0)  # D1
    pcb.place("C%d" % (2 * groups + 4), COLUMN_X, 380.7)
    # The Pico: USB end toward the board's edge (y = 0 side is line 19).
    pcb.place("A1", COLUMN_X - 8.89, 190.0)
    # The pull resistors beside the Pico, in GPIO order, then the buzzer's series resistor.
    pulls = len([r for r in model.parts if model.roles[r].endswith(("pull-up", "pull-down"))])
    for k in range(pulls):
        pcb.place("R%d" % (k + 1), COLUMN_X + 15.5, 186.0 + 2.2 * k)
    lower_column(pcb, size, pulls)
    for k, (x, y) in enumerate(
        ((WIDTH - 4, 4), (WIDTH - 4, LENGTH - 4), (64, 4), (64, LENGTH - 4))
    ):
        pcb.place("H%d" % (k + 1), x, y)
    # Planes: ground on In1, 3.3 V on In2; ground pour on the outer layers too.
    pcb.zone("GND", pcbnew.In1_Cu)
    pcb.zone("+3V3", pcbnew.In2_Cu)
    runs = supply_rails(pcb, size)
    prewired = sensor_rail(pcb, model, groups) | regulator_copper(pcb)
    route(pcb, runs, first=first, prewired=prewired)
    return pcb


# The jacks (Amphenol RJHSE-5380 footprint): the opening is the footprint's -y face, 8 mm from
# pin 1 (its locating pegs lie between the contacts and the opening). Turned by 270 degrees the
# opening faces the board's right edge (x = WIDTH) and the contacts run down from pin 1.
JACK_X = 446 * 2.54 / 8  # pin 1 (141.605 mm, on the grid): the opening 0.4 mm inside the edge
JACK_Y = (258.8875, 278.8875, 298.8875, 318.8875)  # pin 1 of CLOCK B, CLOCK W, BOWL B, BOWL W
JACK_SPAN = 7.112  # pin 1 to pin 8 along the edge
ESD_X = 129.54
HALL_TRUNK_X = 330 * 2.54 / 8  # 104.775 mm: the sensor rail, beside the group switches
HALL_TRUNK_W = 1.0


def _grid(v):
    return round(v / (2.54 / 8)) * (2.54 / 8)


def lower_column(pcb, size, pulls):
    """Below the Pico: the sensor regulator beside the rail, the cable jacks and the USB-C
    receptacle on the right edge with their ESD arrays, the battery path."""
    pcb.place("R%d" % (pulls + 1), 126.0, 246.0)  # buzzer series resistor
    for k, y in enumerate(JACK_Y):
        pcb.place("J%d" % (size + 1 + k), JACK_X, y, angle=270)
    # ESD arrays beside the contacts: two for each clock jack, one for each bowl jack (netlist
    # order U31-U36).
    first, last = [y + 1.1 for y in JACK_Y], [y + JACK_SPAN for y in JACK_Y]
    esd_y = [first[0], last[0], first[1], last[1], first[2] + 3, first[3] + 3]
    refs = sorted((r for r in pcb.fp if pcb.model.parts[r] == "esd_4ch"), key=lambda r: int(r[1:]))
    for ref, y in zip(refs, esd_y, strict=True):
        pcb.place(ref, ESD_X, _grid(y))
    usb_ref = [r for r in pcb.fp if pcb.model.parts[r] == "usb_c"][0]
    pcb.place(usb_ref, WIDTH - 4.0, 340.0, angle=90)
    tvs = [r for r in pcb.fp if pcb.model.parts[r] == "esd_usb"][0]
    pcb.place(tvs, 136.5, 340.0)
    cc = sorted((r for r in pcb.fp if pcb.model.parts[r] == "res_5k1"), key=lambda r: int(r[1:]))
    pcb.place(cc[0], 131.5, 336.5)
    pcb.place(cc[1], 131.5, 343.5)
    # Sensor regulator (TPS63001), its inductor and capacitors; the ferrite, the 22 uF and the
    # ADC reference link sit on the rail's trunk.
    reg = [r for r in pcb.fp if pcb.model.parts[r] == "buck_boost"][0]
    pcb.place(reg, 115.0, 256.0)
    caps = {}
    for r, key in pcb.model.parts.items():
        if r.startswith("C") and key in ("cap_10u", "cap_22u"):
            caps.setdefault(pcb.model.roles[r], []).append(r)
    inp = caps["TPS63001 input"][0]
    out = sorted(caps["TPS63001 output"], key=lambda r: int(r[1:]))
    pcb.place(inp, 120.0, 256.0, angle=90)
    pcb.place(out[0], 115.0, 251.5)
    pcb.place(out[1], 115.0, 248.5)
    pcb.place("L1", 110.0, 256.0, angle=90)
    if pcb.pad_xy("L1", 2)[1] > pcb.pad_xy("L1", 1)[1]:
        pcb.place("L1", 110.0, 256.0, angle=270)  # its pin 2 (L2) on top, toward U29's pin 2
    pcb.place("FB1", 109.0, 251.0, angle=180)
    pcb.place(caps["sensor rail after the ferrite"][0], 109.0, 247.5)
    link = [r for r in pcb.fp if pcb.model.parts[r] == "res_0"][0]
    pcb.place(link, 109.0, 244.0)
    # Battery path and charger.
    pcb.place("J%d" % (size + 5), 111.5, 290.0)  # battery
    pcb.place("J%d" % (size + 6), 111.5, 300.0)  # power switch
    pcb.place("D1", 122.0, 290.0)
    pcb.place("U%d" % 28, 122.0, 305.0)  # charger
    pcb.place("R%d" % (pulls + 2), 117.5, 311.0, angle=90)  # charge current
    pcb.place("R%d" % (pulls + 3), 126.0, 311.0, angle=90)  # charge LED
    pcb.place("D2", 126.0, 316.0, angle=90)
    pcb.place(caps["charger VBUS"][0], 118.5, 304.0, angle=90)
    pcb.place(caps["charger BAT+"][0], 126.5, 304.0, angle=90)


def regulator_copper(pcb):
    """The TPS63001's own copper, drawn: its 0.5 mm pitch pins are off the router's grid.
    Ground pins to the exposed pad; VOUT and FB joined over the top to the first output
    capacitor; L1/L2 out to the inductor's pads on the left; VIN down and round, PS/SYNC and
    VINA out to the right, to the input capacitor; EN down to a +3V3 via. Returns the (ref, pad)
    the router leaves alone (the capacitors' pads stay with the router)."""
    reg = [r for r in pcb.fp if pcb.model.parts[r] == "buck_boost"][0]
    caps = {pcb.model.roles[r]: r for r in pcb.fp if pcb.model.parts[r] == "cap_10u"}
    cin = caps["TPS63001 input"]
    cout = sorted(
        (r for r in pcb.fp if pcb.model.roles[r] == "TPS63001 output"), key=lambda r: int(r[1:])
    )[0]

    def p(n):
        return pcb.pad_xy(reg, n)

    def tr(points, net, width=0.2):
        pcb.track(points, net, pcbnew.F_Cu, width)

    x_ep = pcb.pad_xy(reg, 11)[0]
    for n in (3, 9):  # ground pins into the exposed pad
        x, y = p(n)
        tr([(x, y), (x_ep, y)], "GND")
    (x1, y1), (x10, y10) = p(1), p(10)
    top = y1 - 1.2
    cx, cy = pcb.pad_xy(cout, 1)
    tr([(x1, y1), (x1, top), (x10, top), (x10, y10)], "3V3_HALL_RAW")
    tr([(cx, top), (cx, cy)], "3V3_HALL_RAW")
    lx_top, lx_bottom = pcb.pad_xy("L1", 2), pcb.pad_xy("L1", 1)
    (x2, y2), (x4, y4) = p(2), p(4)
    jog = lx_top[0] + 1.0
    tr([(x2, y2), (jog, y2), (jog, lx_top[1])], "REG_L2")
    tr([(x4, y4), (lx_bottom[0] + 0.5, y4), (lx_bottom[0] + 0.5, lx_bottom[1])], "REG_L1")
    (x6, y6) = p(6)
    tr([(x6, y6), (x6, y6 + 0.75)], "+3V3")
    pcb.via(x6, y6 + 0.75, "+3V3")
    (x5, y5), (x7, y7), (x8, y8) = p(5), p(7), p(8)
    east = x7 + 1.1
    low = y5 + 1.8
    ix, iy = pcb.pad_xy(cin, 1)
    tr([(x8, y8), (east, y8)], "VSYS")
    tr([(x7, y7), (east, y7)], "VSYS")
    tr([(x5, y5), (x5, low), (east, low), (east, y8)], "VSYS")
    tr([(east, y8), (ix, y8), (ix, iy)], "VSYS")
    out = {(reg, str(n)) for n in range(1, 11)}
    return out | {("L1", "1"), ("L1", "2")}


def sensor_rail(pcb, model, groups):
    """The sensor rail 3V3_HALL as drawn copper: a 1 mm trunk on the bottom layer beside the
    group switches, each switch's source and the rail's own parts joined to it by a short top
    track and a via. Returns the (ref, pad) the router leaves alone."""
    pads = [(r, p) for r, p in model.nets["3V3_HALL"]]
    ys = []
    for ref, number in pads:
        x, y = pcb.pad_xy(ref, number)
        pcb.track([(x, y), (HALL_TRUNK_X, y)], "3V3_HALL", pcbnew.F_Cu, 0.4)
        pcb.via(HALL_TRUNK_X, y, "3V3_HALL")
        ys.append(y)
    pcb.track(
        [(HALL_TRUNK_X, min(ys)), (HALL_TRUNK_X, max(ys))], "3V3_HALL", pcbnew.B_Cu, HALL_TRUNK_W
    )
    return {(r, str(p)) for r, p in pads}


def supply_rails(pcb, size):
    """Join neighbouring supply pins of one group along each strip connector's even row (a
    straight bottom-layer rail); {net: [representative pad of each run]} for the router."""
    runs = {}
    for r in range(size):
        ref = "J%d" % (r + 1)
        prev = None
        for col in range(size):
            pad = pcb.pad(ref, 2 * col + 2)
            net = pad.GetNetname()
            if prev is not None and prev.GetNetname() == net:
                pcb.track(
                    [to_mm(prev.GetPosition()), to_mm(pad.GetPosition())], net, pcbnew.B_Cu, 0.4
                )
                runs[net][-1] = (ref, 2 * col + 2)  # the run's rightmost pad stands for it
            else:
                runs.setdefault(net, []).append((ref, 2 * col + 2))
            prev = pad
    return runs


PLANES = ("GND", "+3V3")


def route(pcb, runs, first=(), prewired=()):
    from hardware.electronics.kicad_pcb import EDGE_CLEARANCE
    from hardware.electronics.router import Router, Unroutable

    r = Router(pcb, 0.0, 0.0, WIDTH, LENGTH, EDGE_CLEARANCE + 0.15)
    r.add_board_items()
    nets = {}
    for ref in sorted(pcb.fp):
        for pad in pcb.fp[ref].Pads():
            net = pad.GetNetname()
            if not net or (ref, pad.GetNumber()) in prewired:
                continue
            if net in PLANES:
                if pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD:
                    try:
                        r.fanout(pad, net)
                    except Unroutable as e:
                        print("controller: %s" % e)
                        r.failed.append("%s fan-out %s.%s" % (net, ref, pad.GetNumber()))
                continue
            key = (ref, int(pad.GetNumber()) if pad.GetNumber().isdigit() else pad.GetNumber())
            if net in runs and ref.startswith("J") and key not in runs[net]:
                continue  # on a pre-routed rail: its run's representative pad stands for it
            nets.setdefault(net, []).append(pad)

    def span(name):
        xs = [p.GetPosition().x for p in nets[name]]
        ys = [p.GetPosition().y for p in nets[name]]
        return (max(xs) - min(xs) + max(ys) - min(ys), name)

    # The address buses first (each reaches every mux the length of the board: on an empty
    # board they find straight trunks), then the shortest nets first.
    buses = [n for n in sorted(nets) if "_GRID_" in n]
    rest = [n for n in sorted(nets, key=span) if n not in buses]
    order = [n for n in first if n in nets] + [n for n in buses + rest if n not in first]
    for name in order:
        if len(nets[name]) > 1:
            try:
                r.route_net(name, nets[name])
            except Unroutable as e:  # a pad the grid cannot reach: reported, not routed
                print("controller: %s" % e)
                r.failed.append(name)
    r.repair()
    pcb.route_report = (r.routed, list(r.failed))
    return r


def build(model, cfg, passes=1):
    """Place and route; when nets are left unrouted, route again with those first (up to
    `passes` times) and keep the board with the fewest left."""
    best = None
    first = []
    for _ in range(passes):
        pcb = layout(model, cfg, first=first)
        failed = [n for n in pcb.route_report[1] if " " not in n]
        if best is None or len(pcb.route_report[1]) < len(best.route_report[1]):
            best = pcb
        if not pcb.route_report[1]:
            break
        first = failed + [n for n in first if n not in failed]
    return best

"""Placement and routing of the controller board ("spine"), by script.

The spine lies under the middle of the board, along its 19 lines: connector J<r+1> sits right
under the connector of the strip of scan row r (line 19 - r), PITCH_Y apart, so each strip's
ribbon drops straight down a few centimetres. Beside the connectors, in scan order from top to
bottom, the 23 first-level muxes (each next to the strips it reads), their group power switches
and capacitors; then a column with the two second-level muxes, the two power decoders, the
Pico 2 socket and the connectors to the clock unit, the bowls and the battery.

Four copper layers: signals on the outer ones, In1 a ground plane, In2 the 3.3 V plane; every
ground and 3.3 V pad drops to its plane through its own via (fan-out), and the autorouter
(freeroute, a Python port of FreeRouting) routes the signals from a Specctra DSN export.
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
    pcb.place("R%d" % (pulls + 1), COLUMN_X, 250.0, angle=90)
    pcb.place("J%d" % (size + 1), COLUMN_X + 6, 268.0, angle=0)  # clock unit
    pcb.place("J%d" % (size + 2), COLUMN_X - 10, 292.0)  # bowl B
    pcb.place("J%d" % (size + 3), COLUMN_X + 6, 292.0)  # bowl W
    pcb.place("J%d" % (size + 4), COLUMN_X - 8, 305.0)  # battery
    pcb.place("J%d" % (size + 5), COLUMN_X + 4, 305.0)  # power switch
    pcb.place("D1", COLUMN_X - 4, 315.0)
    pcb.place("U%d" % (groups + 5), COLUMN_X - 4, 325.0)  # charger
    pcb.place("R%d" % (pulls + 2), COLUMN_X + 3, 325.0, angle=90)  # charge current
    pcb.place("R%d" % (pulls + 3), COLUMN_X + 6, 330.0, angle=90)  # charge LED
    pcb.place("D2", COLUMN_X + 6, 334.0, angle=90)
    pcb.place("C%d" % (2 * groups + 5), COLUMN_X - 10, 325.0, angle=90)
    pcb.place("C%d" % (2 * groups + 6), COLUMN_X + 1, 332.0)
    for k, (x, y) in enumerate(
        ((WIDTH - 4, 4), (WIDTH - 4, LENGTH - 4), (64, 4), (64, LENGTH - 4))
    ):
        pcb.place("H%d" % (k + 1), x, y)
    # Planes: ground on In1, 3.3 V on In2; ground pour on the outer layers too.
    pcb.zone("GND", pcbnew.In1_Cu)
    pcb.zone("+3V3", pcbnew.In2_Cu)
    runs = supply_rails(pcb, size)
    route(pcb, runs, first=first)
    return pcb


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


def route(pcb, runs, first=()):
    from hardware.electronics.kicad_pcb import EDGE_CLEARANCE
    from hardware.electronics.router import Router

    r = Router(pcb, 0.0, 0.0, WIDTH, LENGTH, EDGE_CLEARANCE + 0.15)
    r.add_board_items()
    nets = {}
    for ref in sorted(pcb.fp):
        for pad in pcb.fp[ref].Pads():
            net = pad.GetNetname()
            if not net:
                continue
            if net in PLANES:
                if pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD:
                    r.fanout(pad, net)
                continue
            key = (ref, int(pad.GetNumber()) if pad.GetNumber().isdigit() else 0)
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
            r.route_net(name, nets[name])
    pcb.route_report = (r.routed, list(r.failed))
    return r


def build(model, cfg, passes=3):
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

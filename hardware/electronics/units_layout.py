"""Placement and routing of the clock board and the bowl board, by script (Debian's python3 with
pcbnew; `kicad_boards.py` calls `layout`).

Both boards have two copper layers with a ground pour on each; every SMD ground pad drops to the
bottom pour through its own via (fan-out), and the grid router (router.py, the controller's)
routes every other net, 3.3 V included, from the placement below, then joins the through-hole
ground pins by tracks (a pour can leave one walled in); nets it could not finish go first on the
next try. The cable jacks sit on the board's lower edge, their openings outward, with their ESD
arrays right behind them: a discharge on a cable meets the array before anything else.
Positions are in mm from the board's top-left corner (KiCad's axes: y down).
"""

import pcbnew

from hardware.electronics.kicad_pcb import CLEARANCE, EDGE_CLEARANCE, VIA, Pcb, to_mm

# The jack (Amphenol RJHSE-5380 footprint): its locating pegs lie between the contacts and the
# opening, so the opening is the footprint's -y face, 8 mm from pin 1. Turned half round, pin 1
# is its rightmost contact and the opening faces the board's lower edge, 8.3 mm below pin 1.
JACK_FRONT = 8.3

SIZES = {"clock": (110.0, 55.0), "bowl": (56.0, 46.0)}


def _clock(pcb, w, h):
    jy = h - JACK_FRONT
    for k, x in enumerate((14.5, w - 8.0)):
        jack = "J%d" % (k + 1)
        pcb.place(jack, x, jy, angle=180)
        # ESD arrays behind the jack (its body ends 7.75 mm behind pin 1), then the decoupling.
        pcb.place("U%d" % (2 * k + 1), x - 1.5, jy - 12.0, angle=90)
        pcb.place("U%d" % (2 * k + 2), x - 6.5, jy - 12.0, angle=90)
        cx = x + 2.5 if k == 0 else x - 17.0  # inward of the jack
        pcb.place("C%d" % (2 * k + 1), cx, jy - 12.0, angle=90)
        pcb.place("C%d" % (2 * k + 2), cx + 3.0, jy - 12.0, angle=90)
        pcb.text("CLOCK %s" % "BW"[k], x - 3.5, jy - 16.0, pcbnew.F_SilkS, 1.2)
    # Display headers at the top corners (leads up to the modules), pull-ups beside them.
    for k, x in enumerate((12.0, w - 20.0)):
        header = "J%d" % (3 + k)
        pcb.place(header, x, 5.0, angle=90)
        pcb.place("R%d" % (2 * k + 1), x + 1.3, 10.5, angle=90)
        pcb.place("R%d" % (2 * k + 2), x + 3.8, 10.5, angle=90)
        pcb.text("DISPLAY %s: GND VCC SCL SDA" % "BW"[k], x + 3.8, 2.0, pcbnew.F_SilkS, 1.0)
    # Keys along the top edge between the headers: B, W, pause, menu.
    for k, name in enumerate(("KEY B", "KEY W", "PAUSE", "MENU")):
        x = 32.0 + 12.0 * k
        pcb.place("J%d" % (5 + k), x, 6.0)
        pcb.text(name, x + 1.25, 11.5, pcbnew.F_SilkS, 1.0)
    # The buzzer in the middle, its switch and parts below it.
    pcb.place("BZ1", w / 2, 24.0)
    pcb.place("Q1", w / 2 - 6.0, 36.0, angle=90)
    pcb.place("R5", w / 2 - 10.0, 36.0, angle=90)  # gate pull-down
    pcb.place("R6", w / 2 + 2.0, 36.0, angle=90)  # discharge
    pcb.place("D1", w / 2 + 7.0, 36.0, angle=90)
    holes = ((4.0, 4.0), (w - 4.0, 4.0), (w / 2 - 14.0, h - 4.0), (w / 2 + 14.0, h - 4.0))
    for k, (x, y) in enumerate(holes):
        pcb.place("H%d" % (k + 1), x, y)
    pcb.text("ingboard clock board", w / 2, 42.0, pcbnew.F_SilkS, 1.5)


def _bowl(pcb, w, h):
    jy = h - JACK_FRONT
    pcb.place("J1", 15.0, jy, angle=180)
    pcb.place("U1", 12.0, jy - 12.5, angle=90)
    pcb.text("J1: BOWL B or W", 39.0, h - 3.0, pcbnew.F_SilkS, 1.2)
    # The HX711 right of the jack, pins 1-8 (supplies, the bridge input) toward the terminals.
    hx_x, hx_y = 36.0, 27.0
    pcb.place("U2", hx_x, hx_y, angle=90)
    pcb.place("FB1", 24.0, 36.0, angle=90)
    pcb.place("C1", 27.0, 36.0, angle=90)  # VSUP 10 uF
    pcb.place("C2", 30.0, 36.0, angle=90)  # VSUP 100 nF
    pcb.place("C3", 42.0, 35.0, angle=90)  # DVDD 100 nF (pin 16)
    pcb.place("Q1", 26.0, 20.0, angle=90)
    pcb.place("R1", 30.0, 20.5, angle=90)
    pcb.place("R2", 33.0, 20.5, angle=90)
    pcb.place("C4", 44.0, 20.0, angle=90)  # AVDD 10 uF
    pcb.place("C5", 47.0, 20.0, angle=90)  # AVDD 100 nF
    pcb.place("C6", 50.0, 20.0, angle=90)  # VBG
    # The load-cell terminals on the top edge, wire entries (the footprint's +y face) outward:
    # turned half round, so pin 1 (E+) is on the right.
    for k, x in enumerate((12.0, 30.0)):
        pcb.place("J%d" % (k + 2), x, 6.0, angle=180)
        pcb.text("A+ A- E- E+", x - 3.8, 12.0, pcbnew.F_SilkS, 1.0)
        pcb.text("CELL %d" % (k + 1), x - 3.8, 13.8, pcbnew.F_SilkS, 1.0)
    holes = ((w - 4.0, 4.0), (w - 4.0, h - 4.0), (44.0, 4.0), (26.0, h - 4.0))
    for k, (x, y) in enumerate(holes):
        pcb.place("H%d" % (k + 1), x, y)
    pcb.text("ingboard bowl board", 39.0, h - 6.0, pcbnew.F_SilkS, 1.2)


class _Snapped(Pcb):
    """Parts placed on the router's grid, so that every pad has a grid node."""

    def place(self, ref, x, y, angle=0, bottom=False):
        from hardware.electronics.router import PITCH

        return super().place(
            ref, round(x / PITCH) * PITCH, round(y / PITCH) * PITCH, angle, bottom
        )


def layout(model, name, passes=4):
    """Place and route; nets left unrouted go first on the next try (up to `passes` tries);
    the board with the fewest left is kept."""
    best = None
    first = []
    for _ in range(passes):
        pcb = _layout(model, name, first)
        failed = pcb.route_report[1]
        if best is None or len(failed) < len(best.route_report[1]):
            best = pcb
        if not failed:
            break
        first = [n for n in failed if " " not in n and n != "GND"] + [
            n for n in first if n not in failed
        ]
    return best


def _layout(model, name, first):
    w, h = SIZES[name]
    pcb = _Snapped(model, copper_layers=2)
    pcb.rect_outline(0, 0, w, h)
    pcb.hide_references("C", "R", "H")
    {"clock": _clock, "bowl": _bowl}[name](pcb, w, h)
    pcb.zone("GND", pcbnew.F_Cu)
    pcb.zone("GND", pcbnew.B_Cu)
    route(pcb, w, h, first)
    return pcb


def route(pcb, w, h, first=()):
    from hardware.electronics.router import Router

    r = Router(pcb, 0.0, 0.0, w, h, EDGE_CLEARANCE + 0.15)
    r.add_board_items()
    # No via closer to a pad of any net than the clearance (the grid marks only track room).
    for fp in pcb.board.GetFootprints():
        for pad in fp.Pads():
            bb = pad.GetBoundingBox()
            half = 0.5 * max(pcbnew.ToMM(bb.GetWidth()), pcbnew.ToMM(bb.GetHeight()))
            x, y = to_mm(pad.GetPosition())
            r.block_vias(x, y, half + VIA / 2 + CLEARANCE + 0.02)
    nets = {}
    for ref in sorted(pcb.fp):
        for pad in pcb.fp[ref].Pads():
            net = pad.GetNetname()
            if not net:
                continue
            if net == "GND" and pad.GetAttribute() == pcbnew.PAD_ATTRIB_SMD:
                r.fanout(pad, net)  # to the bottom pour through its own via
                continue
            nets.setdefault(net, []).append(pad)

    def span(name):
        xs = [p.GetPosition().x for p in nets[name]]
        ys = [p.GetPosition().y for p in nets[name]]
        return (max(xs) - min(xs) + max(ys) - min(ys), name)

    # Ground last, its through-hole pins only: tracks join what the pours could leave apart
    # (a jack's ground pin walled in by the signal tracks around it).
    order = [n for n in first if n in nets and n != "GND"]
    order += [n for n in sorted(nets, key=span) if n not in order and n != "GND"]
    order += ["GND"] if "GND" in nets else []
    for name in order:
        if len(nets[name]) > 1:
            r.route_net(name, nets[name])
    pcb.route_report = (r.routed, list(r.failed))
    return r

"""Placement and routing of the sensor strip (one line of the board), by script.

Geometry (mm, KiCad's axes: x along the line, y across it, y down = toward line 1), from
firmware/ingboard/physical.py, which the board's drawings (hardware/mech) share:
- sensor c (column A + c) at x = STRIP_END + c * PITCH_X on the strip's centre line, on the top
  side marked face up, its 10 nF capacitor beside it: all parts inside the keep-in band;
- the 40-way pin header on the bottom side, centred under column K (over the controller), its
  rows toward line 1; odd pins (sensor outputs) in the row nearer the sensors;
- four layers: top and bottom ground, In1 the outputs, In2 the supplies. Each sensor's output
  and supply drop through a via to their layer; the lanes run toward line 19 of the sensors,
  and keep their order (a "river": the nearer a sensor to the connector, the nearer its lane to
  the strip's edge, where all the vias are), so no two cross and each has at most two bends;
  at the connector each lane turns down to its pin, the supplies passing between the outputs.
- the M3 holes of the clips where the drawings put them.
"""

import pcbnew
from ingboard import physical as ph

from hardware.electronics.kicad_pcb import Pcb

UM = 1000.0
PITCH = ph.PITCH_X_UM / UM  # 22.1 mm (seed 000 Art. 11 "Lines")
END = ph.STRIP_END_UM / UM
WIDTH = ph.STRIP_W_UM / UM
SENSOR_Y = WIDTH - ph.STRIP_SENSOR_Y_UM / UM  # the sensor line, 8.5 mm from either edge
ODD_ROW_Y = SENSOR_Y + 4.5  # connector rows (pin pitch 2.54), toward line 1
VIA_Y = 0.9  # the sensors' vias, along the edge toward line 19
LANE_EDGE = 1.6  # the lane nearest that edge (the middle column's)
LANE_STEP = 0.5
HOLE_Y = SENSOR_Y + ph.STRIP_HOLE_OFFSET_UM / UM


def layout(model, size):
    pcb = Pcb(model, copper_layers=4)
    length = 2 * END + (size - 1) * PITCH
    pcb.rect_outline(0, 0, length, WIDTH)
    xs = [END + c * PITCH for c in range(size)]
    mid = (size - 1) // 2  # column K: the connector's centre
    col0 = xs[mid] - 19 * 2.54 / 2  # connector column 0 (pins 1 and 2)
    pcb.hide_references("U", "C", "H")
    pcb.place("J1", col0, ODD_ROW_Y, angle=90, bottom=True)
    assert abs(pcb.pad_xy("J1", 2)[1] - ODD_ROW_Y - 2.54) < 1e-6
    for c, x in enumerate(xs):
        pcb.place("U%d" % (c + 1), x, SENSOR_Y, angle=270)
        pcb.place("C%d" % (c + 1), x + 3.2, SENSOR_Y - 0.9375, angle=0)
    for k, half in enumerate(ph.STRIP_HOLES_HALF_PITCH):
        pcb.place("H%d" % (k + 1), xs[mid] + half * PITCH / 2, HOLE_Y)
    verticals = [col0 + 1.27 * m for m in range(2 * size)]  # at the connector, inner layers

    def via_x(x):
        return x

    for c in range(size):
        u, cap = "U%d" % (c + 1), "C%d" % (c + 1)
        out_net, vcc_net = pcb.net_at(u, 2), pcb.net_at(u, 1)
        assert pcb.net_at(cap, 1) == vcc_net and pcb.net_at(cap, 2) == "GND"
        ox, oy = pcb.pad_xy(u, 2)
        vx, vy = pcb.pad_xy(u, 1)
        cx, cy = pcb.pad_xy(cap, 1)
        lane = LANE_EDGE + LANE_STEP * abs(c - mid)
        # Output: pad, up to its via, In1 to its lane, along, down to the odd pin.
        ovx = via_x(ox)
        pcb.track([(ox, oy), (ox, VIA_Y), (ovx, VIA_Y)], out_net, pcbnew.F_Cu)
        pcb.via(ovx, VIA_Y, out_net)
        px, py = pcb.pad_xy("J1", 2 * c + 1)
        assert pcb.net_at("J1", 2 * c + 1) == out_net
        pcb.track([(ovx, VIA_Y), (ovx, lane), (px, lane), (px, py)], out_net, pcbnew.In1_Cu)
        # Supply: sensor pad to the capacitor, up to its via, In2 to its lane, along, down
        # between the odd pins, into the even pin.
        pcb.track([(vx, vy), (cx, cy)], vcc_net, pcbnew.F_Cu)
        svx = via_x(cx)
        pcb.track([(cx, cy), (cx, VIA_Y), (svx, VIA_Y)], vcc_net, pcbnew.F_Cu)
        pcb.via(svx, VIA_Y, vcc_net)
        ex, ey = pcb.pad_xy("J1", 2 * c + 2)
        assert pcb.net_at("J1", 2 * c + 2) == vcc_net
        gap = ex + 1.27
        pcb.track(
            [(svx, VIA_Y), (svx, lane), (gap, lane), (gap, ey), (ex, ey)], vcc_net, pcbnew.In2_Cu
        )
    # Ground: both outer layers poured, stitched along the edge toward line 1.
    pcb.zone("GND", pcbnew.F_Cu)
    pcb.zone("GND", pcbnew.B_Cu)
    holes = [xs[mid] + h * PITCH / 2 for h in ph.STRIP_HOLES_HALF_PITCH]
    for c in range(size - 1):
        x = xs[c] + PITCH / 2
        if all(abs(x - h) > 3 for h in holes) and not verticals[0] - 2 < x < verticals[-1] + 2:
            pcb.via(x, WIDTH - 0.9, "GND")
            pcb.via(x, WIDTH - 2.2, "GND")
    pcb.text(
        "ingboard sensor strip: one per line, sensors toward the stones",
        (xs[4] + xs[5]) / 2,
        SENSOR_Y + 2.9,
        pcbnew.F_SilkS,
        1.0,
    )
    pcb.text(
        "J1 to the controller: pin 1 = output of column A",
        xs[mid] + 4 * PITCH,
        SENSOR_Y + 2.9,
        pcbnew.B_SilkS,
        1.0,
    )
    for c, x in enumerate(xs):
        pcb.text("ABCDEFGHJKLMNOPQRST"[c], x - 2.6, SENSOR_Y + 1.2, pcbnew.F_SilkS, 1.0)
    return pcb

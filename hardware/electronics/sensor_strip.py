"""Placement and routing of the sensor strip (one line of the board), by script.

Geometry (mm, KiCad's axes: x along the line, y across it, y down):
- sensor c (column A + c) at x = STRIP_END + c * PITCH_X, on the top side, marked face up;
  its 10 nF bypass capacitor just left of it; both 3 mm from the strip's top edge;
- the 40-way connector on the bottom side, in the middle of the strip (under columns J-L), so
  the ribbon drops straight to the controller under the middle of the board and no track runs
  more than half the strip; odd pins (sensor outputs) in the row nearer the sensors;
- each output runs on the top layer, each supply on the bottom layer, in a channel between the
  sensors and the connector. Tracks keep their order (a "river"): the farther a sensor from
  the connector, the nearer its track to the connector row, so no two tracks cross and every
  track is straight or has two bends;
- ground: a pour on both layers, stitched with vias.
"""

import pcbnew
from ingboard import physical as ph

from hardware.electronics.kicad_pcb import Pcb

UM = 1000.0
PITCH = ph.PITCH_X_UM / UM  # 22.1 mm (seed 000 Art. 11 "Lines")
END = ph.STRIP_END_UM / UM
WIDTH = ph.STRIP_W_UM / UM
SENSOR_Y = 3.0  # sensor centre line
ODD_ROW_Y = 10.73  # connector rows (pin pitch 2.54)
OUT_LEVEL0 = 5.25  # top-layer channel: output tracks
OUT_STEP = 0.45
VCC_LEVEL0 = 3.5  # bottom-layer channel: supply tracks
VCC_STEP = 0.6
HOLES = ((2, 3), (6, 7), (11, 12), (15, 16))  # M3 holes between these columns


def layout(model, size):
    pcb = Pcb(model, copper_layers=2)
    length = 2 * END + (size - 1) * PITCH
    pcb.rect_outline(0, 0, length, WIDTH)
    xs = [END + c * PITCH for c in range(size)]
    mid = (size - 1) // 2  # the column whose sensor sits over the connector
    pins_span = 19 * 2.54
    col0 = xs[mid] - pins_span / 2  # connector column 0 (pins 1 and 2)
    cols = [col0 + 2.54 * k for k in range(20)]
    pcb.hide_references("U", "C", "H")
    pcb.place("J1", col0, ODD_ROW_Y, angle=90, bottom=True)
    assert (
        pcb.net_at("J1", 1).startswith("SIG_")
        and abs(pcb.pad_xy("J1", 2)[1] - ODD_ROW_Y - 2.54) < 1e-6
    )
    for c, x in enumerate(xs):
        pcb.place("U%d" % (c + 1), x, SENSOR_Y, angle=90)
        pcb.place("C%d" % (c + 1), x - 3.2, SENSOR_Y + 0.9375, angle=180)
    for k, (a, b) in enumerate(HOLES):
        pcb.place("H%d" % (k + 1), (xs[a] + xs[b]) / 2, 13.5)

    # River order: left of the connector, column 0 nearest the connector row; right of it,
    # the last column nearest; the middle column on the level nearest the sensors.
    def level(c):
        return abs(c - mid)

    for c in range(size):
        u, cap = "U%d" % (c + 1), "C%d" % (c + 1)
        out_net = pcb.net_at(u, 2)
        vcc_net = pcb.net_at(u, 1)
        ox, oy = pcb.pad_xy(u, 2)  # output pad
        vx, vy = pcb.pad_xy(u, 1)  # supply pad
        cx, cy = pcb.pad_xy(cap, 1)  # capacitor's supply side (rotated: pad 1 nearer the sensor)
        assert pcb.net_at(cap, 1) == vcc_net and pcb.net_at(cap, 2) == "GND"
        # Output: down to its level on the top layer, along to its connector column, down
        # to the odd pin.
        ly = OUT_LEVEL0 + OUT_STEP * level(c)
        px, py = pcb.pad_xy("J1", 2 * c + 1)
        assert pcb.net_at("J1", 2 * c + 1) == out_net
        pcb.track([(ox, oy), (ox, ly), (px, ly), (px, py)], out_net, pcbnew.F_Cu)
        # Supply: sensor pad to capacitor, up to a via, down the bottom layer to its level,
        # along to the gap right of its connector column, down between the odd pins, left
        # into the even pin.
        pcb.track([(vx, vy), (cx, cy)], vcc_net, pcbnew.F_Cu)
        via_y = SENSOR_Y - 0.6
        pcb.track([(cx, cy), (cx, via_y)], vcc_net, pcbnew.F_Cu)
        pcb.via(cx, via_y, vcc_net)
        vly = VCC_LEVEL0 + VCC_STEP * level(c)
        ex, ey = pcb.pad_xy("J1", 2 * c + 2)
        assert pcb.net_at("J1", 2 * c + 2) == vcc_net
        gap_x = ex + 1.27
        pcb.track(
            [(cx, via_y), (cx, vly), (gap_x, vly), (gap_x, ey), (ex, ey)], vcc_net, pcbnew.B_Cu
        )
    # Ground: both layers poured; stitching vias along the top edge and between sensors.
    pcb.zone("GND", pcbnew.F_Cu)
    pcb.zone("GND", pcbnew.B_Cu)
    for c, x in enumerate(xs):
        pcb.via(x, 0.9, "GND")
        if c + 1 < len(xs):
            pcb.via(x + PITCH / 2, 0.9, "GND")
            pcb.via(x + PITCH / 2, 15.8, "GND")
    pcb.text(
        "ingboard sensor strip - one per line - sensors face the stones",
        103.0,
        15.5,
        pcbnew.F_SilkS,
        1.2,
    )
    pcb.text(
        "J1 to controller: 40-way ribbon, pin 1 = column A output",
        cols[19] + 40,
        15.8,
        pcbnew.B_SilkS,
        1.0,
    )
    for c, x in enumerate(xs):
        pcb.text("ABCDEFGHJKLMNOPQRST"[c], x, 7.0 if c != mid else 15.5, pcbnew.F_SilkS, 1.0)
    return pcb

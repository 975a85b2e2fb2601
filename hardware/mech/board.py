"""The board blank: its underside as routed (channels for the sensor strips, the grooves over
the sensors, the spine's pocket and the cables' exit, the clips' seats and pilot holes), the
section through a channel, the strip's outline and holes, and the field at the tolerance
limits."""

import math

import ingboard.physical as P
from sheetkit import Drawing, dim_linear, leader


def mm(um):
    return um / 1000.0


class Geometry:
    """Every dimension of the routed blank, derived from physical.py."""

    def __init__(self):
        self.w = mm(P.BOARD_W_UM)
        self.h = mm(P.BOARD_H_UM)
        self.t = mm(P.BOARD_THICK_UM)
        self.px = mm(P.PITCH_X_UM)
        self.py = mm(P.PITCH_Y_UM)
        self.margin_x = (self.w - (P.SIZE - 1) * self.px) / 2
        self.margin_y = (self.h - (P.SIZE - 1) * self.py) / 2
        self.groove_z = mm(P.WOOD_OVER_SENSOR_UM)
        self.tol = mm(P.WOOD_TOLERANCE_UM)
        self.seat_z = mm(P.WOOD_OVER_SENSOR_UM + P.SENSOR_TOP_UM + P.SEAT_GAP_UM)
        self.strip_w = mm(P.STRIP_W_UM)
        self.strip_t = mm(P.PCB_THICK_UM)
        self.strip_half = (P.SIZE - 1) * self.px / 2 + mm(P.STRIP_END_UM)
        # the strip's edges from its sensor line (y up = toward line 19)
        self.strip_hi = self.strip_w - mm(P.STRIP_SENSOR_Y_UM)
        self.strip_lo = -mm(P.STRIP_SENSOR_Y_UM)
        self.clr = mm(P.CHANNEL_CLEARANCE_UM)
        self.channel_w = self.strip_w + 2 * self.clr
        self.channel_half = self.strip_half + self.clr
        self.ch_lo = self.strip_lo - self.clr
        self.ch_hi = self.strip_hi + self.clr
        self.groove_w = mm(P.STRIP_KEEPIN_W_UM + 2 * P.GROOVE_CLEARANCE_UM)
        self.groove_half = (P.SIZE - 1) * self.px / 2 + self.groove_w / 2
        self.tool_r = mm(P.TOOL_D_UM) / 2
        self.rib = self.py - self.channel_w
        self.spine_half_w = mm(P.SPINE_W_UM) / 2 + 1.0
        self.spine_half_l = mm(P.SPINE_L_UM) / 2 + 1.0
        self.spine_z = mm(P.SPINE_POCKET_Z_UM)
        self.exit_z = mm(P.CABLE_EXIT_Z_UM)
        self.exit_lo, self.exit_hi = self.exit_span()
        self.exit_w = self.exit_hi - self.exit_lo
        self.hole_off = -mm(P.STRIP_HOLE_OFFSET_UM)  # the holes, from the sensor line
        # the pocket also takes the clips of the holes above the spine, whole
        for k in P.STRIP_HOLES_HALF_PITCH:
            x = abs(k) * self.px / 2
            if x < self.spine_half_w:
                self.spine_half_w = max(self.spine_half_w, x + mm(P.CLIP_BAR_L_UM) / 2 + 2.0)
        # the clips: the bar on the rib below a channel (its centre line), its arm to the post
        self.bar_w = mm(P.CLIP_BAR_W_UM)
        self.bar_l = mm(P.CLIP_BAR_L_UM)
        self.bar_t = mm(P.CLIP_BAR_THICK_UM)
        self.screw_span = mm(P.CLIP_SCREW_SPAN_UM)
        self.rib_below = self.ch_lo - self.rib / 2  # rib centre line below a channel
        self.arm = self.hole_off - self.rib_below  # post from the bar's centre line (> 0: up)
        self.arm_double = self.hole_off - (self.py + self.rib_below)  # line 1's post, from
        self.pilot_d = mm(P.CLIP_PILOT_D_UM)  # the bar between lines 1 and 2 (< 0: down)
        self.foam = mm(P.CLIP_FOAM_UM)
        self.pin_l = self.foam - mm(P.CLIP_PRELOAD_UM) + self.strip_t - 0.2
        self.check()

    def spine_y(self, y_spine):
        """A point of the spine at `y_spine` from its line-19 end, as Y from the blank's bottom
        edge: the spine lies centred in its pocket, components up, y = 0 toward line 19."""
        return self.h / 2 + mm(P.SPINE_L_UM) / 2 - y_spine

    def plug_spans(self):
        """[(reference, Y low, Y high)]: each cable connector on the spine's right edge with
        the plug it takes (the wider of the two), across, as Y of the blank."""
        out = []
        for ref, centre, body in P.SPINE_CABLE_JACKS_UM:
            plug = P.USB_C_PLUG_W_UM if ref == "J26" else P.RJ45_PLUG_W_UM
            half = mm(max(body, plug)) / 2
            y = self.spine_y(mm(centre))
            out.append((ref, y - half, y + half))
        return out

    def exit_span(self):
        """(Y low, Y high) of the cables' exit: the row of connectors and their plugs plus
        the clearance, each end moved out to the middle of the next channel (a line), so the
        exit's sides run in open channels and no rib is cut part-way."""
        spans = self.plug_spans()
        c = mm(P.CABLE_EXIT_CLEARANCE_UM)
        lo = min(s[1] for s in spans) - c
        hi = max(s[2] for s in spans) + c
        lines = [self.row_y(r) for r in range(1, P.SIZE + 1)]
        below = [y for y in lines if y <= lo]
        above = [y for y in lines if y >= hi]
        if not below or not above:
            raise ValueError("the spine's jacks lie beyond lines 1-19")
        return below[-1], above[0]

    def in_exit(self, x_top, y):
        """A clip's bar at (x seen from above, y) stands in the cables' exit: right of the
        spine's pocket (the spine's jack edge is the board's right seen from above)."""
        return x_top > self.w / 2 + self.spine_half_w - 1.0 and self.exit_lo < y < self.exit_hi

    def post_l(self, seat_face_z):
        """The post from a bar whose seat's floor is at Z `seat_face_z` (the bar's top face
        then at seat_face_z - bar_t) to the strip's bottom, less the foam it squeezes."""
        return (
            seat_face_z
            - self.bar_t
            - (self.seat_z + self.strip_t)
            - self.foam
            + mm(P.CLIP_PRELOAD_UM)
        )

    def pilot_z(self, seat_face_z):
        """The floor of a clip's pilot holes: CLIP_PILOT_DEPTH_UM into the rib, never nearer
        the playing surface than CLIP_PILOT_MIN_Z_UM."""
        return max(seat_face_z - self.bar_t - mm(P.CLIP_PILOT_DEPTH_UM), mm(P.CLIP_PILOT_MIN_Z_UM))

    def check(self):
        end_wall = self.w / 2 - self.channel_half
        edge_lo = self.margin_y + self.ch_lo
        edge_hi = self.margin_y - self.ch_hi
        if end_wall < 4.0 or min(edge_lo, edge_hi) < 3.0:
            raise ValueError(
                "channels too close to the blank's edge: %.2f / %.2f / %.2f mm"
                % (end_wall, edge_lo, edge_hi)
            )
        if self.rib < 5.0:
            raise ValueError("ribs between channels only %.2f mm" % self.rib)
        if self.groove_half > self.channel_half - 0.5:
            raise ValueError("the groove runs past the channel's end")
        if self.bar_w > self.rib:
            raise ValueError("the clip's bar is wider than the rib")
        if self.pin_l <= self.foam - mm(P.CLIP_PRELOAD_UM):
            raise ValueError("the clip's pin does not reach the strip's hole")
        if self.spine_z < self.seat_z + self.strip_t + 8:
            raise ValueError("the spine pocket cuts into the strips' connectors")
        if self.exit_z != self.spine_z:
            raise ValueError(
                "the cable exit's floor must be the spine pocket's: the clips on the ribs it"
                " crosses are the spine's clips"
            )
        if self.w / 2 - self.spine_half_w < mm(P.RJ45_PLUG_L_UM):
            raise ValueError("the cable exit is shorter than a plug with its boot")
        seat_half = self.rib / 2 + 1
        for row in range(2, P.SIZE + 1):
            y = self.row_y(row) + self.rib_below
            for edge in (self.exit_lo, self.exit_hi):
                if abs(y - edge) < seat_half + self.tool_r:
                    raise ValueError("the cable exit's side cuts the rib below line %d" % row)

    def row_y(self, row):
        """Centre of board line `row` (1 at the bottom), from the blank's bottom edge."""
        return self.margin_y + (row - 1) * self.py

    def col_x_top(self, col):
        """Centre of column `col` (0 = A) from the blank's left edge, seen from above."""
        return self.margin_x + col * self.px

    def under_x(self, x_top):
        """Seen from below (turned over about the 1-19 axis) left and right swap."""
        return self.w - x_top

    def hole_x_top(self, half_pitches):
        return self.w / 2 + half_pitches * self.px / 2

    def in_spine(self, x_top):
        return abs(x_top - self.w / 2) < self.spine_half_w

    def clips(self):
        """[(x seen from above, y of the bar's centre line, posts: y offsets from it, seat
        floor Z)]: a clip on the rib below every strip's holes; lines 1 and 2 share one on
        the rib between them (line 1's lower rib is the blank's edge)."""
        out = []
        for k in P.STRIP_HOLES_HALF_PITCH:
            x = self.hole_x_top(k)
            for row in range(2, P.SIZE + 1):
                y = self.row_y(row) + self.rib_below
                z = self.spine_z if self.in_spine(x) or self.in_exit(x, y) else self.t
                posts = (self.arm, self.arm_double) if row == 2 else (self.arm,)
                out.append((x, y, posts, z))
        return out


def field_mt(distance_mm):
    """On-axis flux density (mT) of the stone's magnet at `distance_mm` below its face:
    an axially magnetised cylinder, B = Br/2 [(z+t)/sqrt(R^2+(z+t)^2) - z/sqrt(R^2+z^2)]."""
    br = P.MAGNET_BR_MT
    r = mm(P.MAGNET_D_UM) / 2
    t = mm(P.MAGNET_THICK_UM)
    z = distance_mm
    return br / 2 * ((z + t) / math.hypot(r, z + t) - z / math.hypot(r, z))


def element_distance(wood_mm):
    return wood_mm + mm(P.SEAT_GAP_UM + P.HALL_ELEMENT_UM + P.STONE_SEAL_UM)


def tolerance_rows():
    """(wood over the sensor, magnet-to-element distance, field, share of nominal) at the
    nominal depth and at both tolerance limits, plus the figures of the field table."""
    g = Geometry()
    nominal = field_mt(element_distance(g.groove_z))
    rows = []
    for wood in (g.groove_z - g.tol, g.groove_z, g.groove_z + g.tol):
        b = field_mt(element_distance(wood))
        rows.append((wood, element_distance(wood), b, b / nominal))
    return rows


def underside():
    """The blank seen from below, 1:1, machining layers named by their floor's Z."""
    g = Geometry()
    d = Drawing()
    d.rect("outline", 0, 0, g.w, g.h)
    channel = "CHANNEL_Z%.2f" % g.seat_z
    groove = "GROOVE_Z%.2f" % g.groove_z
    cx = g.w / 2
    for row in range(1, P.SIZE + 1):
        y = g.row_y(row)
        d.dogbone_rect(
            channel, cx - g.channel_half, y + g.ch_lo, cx + g.channel_half, y + g.ch_hi, g.tool_r
        )
        d.rounded_rect(
            groove,
            cx - g.groove_half,
            y - g.groove_w / 2,
            cx + g.groove_half,
            y + g.groove_w / 2,
            min(g.tool_r, g.groove_w / 2),
        )
        d.line("center", cx - g.channel_half - 3, y, cx + g.channel_half + 3, y)
    # the spine's pocket under the middle, and the cables' exit to the right edge (from above)
    d.rounded_rect(
        "SPINE_Z%.2f" % g.spine_z,
        cx - g.spine_half_w,
        g.h / 2 - g.spine_half_l,
        cx + g.spine_half_w,
        g.h / 2 + g.spine_half_l,
        g.tool_r,
    )
    # seen from below the board's right side (the spine's jack edge) is on the left
    d.rounded_rect(
        "EXIT_Z%.2f" % g.exit_z,
        -g.tool_r,
        g.exit_lo,
        cx - g.spine_half_w + g.tool_r,
        g.exit_hi,
        g.tool_r,
    )
    for x_top, y, _posts, z in g.clips():
        x = g.under_x(x_top)
        seat = "CLIPSEAT_Z%.2f" % (z - g.bar_t)
        # the seat: a notch across the rib (into the open channels either side), flush bar
        d.rounded_rect(
            seat,
            x - g.bar_l / 2 - 0.25,
            y - g.rib / 2 - 1,
            x + g.bar_l / 2 + 0.25,
            y + g.rib / 2 + 1,
            1.0,
        )
        pilot = "PILOT_D%.1f_Z%.2f" % (g.pilot_d, g.pilot_z(z))
        for s in (-1, 1):
            d.circle(pilot, x + s * g.screw_span / 2, y, g.pilot_d / 2)
    for col in range(P.SIZE):
        x = g.under_x(g.col_x_top(col))
        d.line("center", x, g.row_y(1) - 9, x, g.row_y(1) - 6)
    return d


def underside_sheet_views(sheet):
    g = Geometry()
    d = underside()
    s = 0.5
    v = Drawing()
    v.items = list(d.items)
    h = 2.4 / s
    dim_linear(v, 0, 0, g.w, 0, -14, "%.1f (blank)" % g.w, height=h)
    dim_linear(v, 0, 0, 0, g.h, -16, "%.1f (blank)" % g.h, vertical=True, height=h)
    cx = g.w / 2
    y19 = g.row_y(P.SIZE) + g.ch_hi
    dim_linear(
        v,
        cx - g.channel_half,
        y19,
        cx + g.channel_half,
        y19,
        14,
        "%.2f channel" % (2 * g.channel_half),
        height=h,
    )
    dim_linear(
        v, g.w, g.row_y(1), g.w, g.row_y(2), 12, "%.1f pitch" % g.py, vertical=True, height=h
    )
    x_a = g.under_x(g.col_x_top(0))
    x_b = g.under_x(g.col_x_top(1))
    dim_linear(v, x_b, 0, x_a, 0, -5, "%.1f" % g.px, height=h * 0.8)
    for row in (1, 10, P.SIZE):
        v.text("text", g.w + 3, g.row_y(row) - 1.5, str(row), 3.0 / s)
    v.text("text", g.under_x(g.col_x_top(0)), g.row_y(1) - 13, "A", 3.0 / s, "c")
    v.text("text", g.under_x(g.col_x_top(P.SIZE - 1)), g.row_y(1) - 13, "T", 3.0 / s, "c")
    leader(
        v,
        cx + g.spine_half_w - 4,
        g.h - 30,
        cx + 80,
        g.h + 20,
        "spine pocket Z%.1f" % g.spine_z,
        height=h,
    )
    ex = cx - g.spine_half_w
    dim_linear(
        v,
        ex,
        g.exit_lo,
        ex,
        g.exit_hi,
        -10,
        "%.1f exit" % g.exit_w,
        vertical=True,
        height=h,
    )
    dim_linear(v, ex, 0, ex, g.exit_lo, -10, "%.1f" % g.exit_lo, vertical=True, height=h)
    leader(
        v,
        4,
        g.exit_hi - 6,
        20,
        g.h + 8,
        "cable exit Z%.1f (board's RIGHT side from above)" % g.exit_z,
        height=h,
    )
    x, y, _posts, _z = g.clips()[-1]
    leader(v, g.under_x(x), y, g.under_x(x) - 40, g.h + 20, "clip seat + 2 pilots", height=h)
    sheet.place(v, s, (30, 45), label="UNDERSIDE, seen from below (A19 top right) - scale 1:2")


def section():
    """Section across one channel at a sensor and an outer clip, the stone above; model mm,
    x across the strip (toward line 19 to the right), y = height above the table, face up."""
    g = Geometry()
    d = Drawing()
    top = g.t
    lo, hi, gw = g.ch_lo, g.ch_hi, g.groove_w / 2
    half_lo, half_hi = g.rib_below - g.rib / 2 - 4, hi + g.rib + 4
    rb = g.rib_below
    sp_lo = rb - g.rib / 2 - 1  # the clip's notch in the rib
    pts = [
        (half_lo, 0),
        (sp_lo, 0),
        (sp_lo, g.bar_t),
        (lo, g.bar_t),
        (lo, top - g.seat_z),
        (-gw, top - g.seat_z),
        (-gw, top - g.groove_z),
        (gw, top - g.groove_z),
        (gw, top - g.seat_z),
        (hi, top - g.seat_z),
        (hi, 0),
    ]
    d.poly("outline", pts, closed=False)
    d.poly("outline", [(half_lo, 0), (half_lo, top)], closed=False)
    d.line("outline", half_lo, top, half_hi, top)
    d.poly(
        "outline",
        [(hi + g.rib, 0), (hi + g.rib, top - g.seat_z), (half_hi, top - g.seat_z)],
        closed=False,
    )
    d.line("outline", hi, 0, hi + g.rib, 0)
    # hatching of the ribs (section through wood)
    for x0, x1 in ((half_lo + 0.5, lo - 0.5), (hi + 0.5, hi + g.rib - 0.5)):
        y = top - 2.0
        while y > 1.0:
            d.line("section", x0, y, x1, max(0.5, y - (x1 - x0) * 0.4))
            y -= 3.0
    # the strip, a sensor and its capacitor
    yb = top - g.seat_z - g.strip_t
    d.rect("part", lo + g.clr, yb, hi - g.clr, yb + g.strip_t)
    d.rect("part", -1.45, yb + g.strip_t, 1.45, top - g.seat_z + mm(P.SENSOR_TOP_UM))
    d.rect("part", 1.8, yb + g.strip_t, 2.6, yb + g.strip_t + 0.8)
    he = top - g.groove_z - mm(P.SEAT_GAP_UM + P.HALL_ELEMENT_UM)
    d.line("center", -1.0, he, 1.0, he)
    # the connector under the strip (hidden: it is not in this section's plane)
    # the clip: bar in its notch, arm across to the post under the hole, foam, pin
    post_l = g.post_l(g.t)
    d.rect("part", rb - g.bar_w / 2, 0, g.hole_off + mm(P.CLIP_POST_W_UM) / 2, g.bar_t)
    pw = mm(P.CLIP_POST_W_UM) / 2
    post_top = g.bar_t + post_l
    d.rect("part", g.hole_off - pw, g.bar_t, g.hole_off + pw, post_top)
    d.rect("section", g.hole_off - pw - 0.5, post_top, g.hole_off + pw + 0.5, yb)
    pin = mm(P.CLIP_PIN_D_UM) / 2
    d.rect("hidden", g.hole_off - pin, post_top, g.hole_off + pin, post_top + g.pin_l)
    d.line("hidden", rb, 0, rb, g.bar_t + mm(P.CLIP_PILOT_DEPTH_UM))
    # the stone above, magnet in its base
    sr = mm(P.STONE_D_UM) / 2
    d.poly(
        "part",
        [(-sr, top), (sr, top)]
        + [
            (
                sr * math.cos(math.radians(a)),
                top + mm(P.STONE_THICK_UM) * math.sin(math.radians(a)),
            )
            for a in range(10, 171, 10)
        ],
    )
    mr = mm(P.MAGNET_D_UM) / 2
    ms = mm(P.STONE_SEAL_UM)
    d.rect("part", -mr, top + ms, mr, top + ms + mm(P.MAGNET_THICK_UM))
    d.line("center", 0, -2, 0, top + mm(P.STONE_THICK_UM) + 2)
    return d


def section_sheet_views(sheet):
    g = Geometry()
    d = section()
    s = 3.0
    h = 2.2 / s
    top = g.t
    hi = g.ch_hi
    x_dim = hi + g.rib + 6
    dim_linear(
        d,
        g.groove_w / 2,
        top,
        g.groove_w / 2,
        top - g.groove_z,
        x_dim - g.groove_w / 2,
        "%.2f ±%.2f" % (g.groove_z, g.tol),
        vertical=True,
        height=h,
    )
    d.text("dim", x_dim + 2, top - g.groove_z + 0.5, "Z groove floor: wood over the sensor", h)
    dim_linear(
        d,
        hi,
        top,
        hi,
        top - g.seat_z,
        x_dim + 20 - hi,
        "%.2f +0.10/-0" % g.seat_z,
        vertical=True,
        height=h,
    )
    d.text("dim", x_dim + 22, top - g.seat_z - 1.5, "Z seat (same set-up)", h)
    dim_linear(d, hi + g.rib, 0, hi + g.rib, top, 6, "%.1f" % g.t, vertical=True, height=h)
    dim_linear(
        d,
        g.ch_lo,
        top - g.seat_z - 8,
        g.ch_hi,
        top - g.seat_z - 8,
        0.01,
        "%.2f channel" % g.channel_w,
        height=h,
    )
    dim_linear(d, hi, 14, hi + g.rib, 14, 0.01, "%.1f rib" % g.rib, height=h)
    leader(
        d,
        4,
        top - g.seat_z - g.strip_t / 2,
        -26,
        top - 10,
        "strip %.1f x %.1f" % (g.strip_w, g.strip_t),
        height=h,
    )
    leader(d, -1.0, top - g.seat_z + 0.6, -26, top - 5, "DRV5055 marked face up", height=h)
    leader(
        d,
        0.5 * g.groove_w - 0.3,
        top - g.groove_z - 0.3,
        -26,
        top + 3,
        "groove %.1f wide" % g.groove_w,
        height=h,
    )
    leader(d, g.rib_below, g.bar_t / 2, -26, 10, "clip bar in a notch of the rib", height=h)
    leader(d, g.hole_off, 20, -26, 20, "clip post (strip-clip.scad)", height=h)
    leader(
        d,
        g.hole_off + 1,
        top - g.seat_z - g.strip_t - 0.7,
        -26,
        top - 15,
        "foam %.1f, pin in the M3 hole" % g.foam,
        height=h,
    )
    leader(d, 2.5, top + 0.7, 16, top + 10, "magnet, seal %.1f" % mm(P.STONE_SEAL_UM), height=h)
    sheet.place(
        d, s, (150, 40), label="SECTION across a channel at a sensor and a clip - scale 3:1"
    )


def strip_plan():
    """The strip PCB's outline, parts band, sensors, holes and connector (top face)."""
    g = Geometry()
    d = Drawing()
    L = g.strip_half
    d.rect("outline", -L, g.strip_lo, L, g.strip_hi)
    k = mm(P.STRIP_KEEPIN_W_UM) / 2
    d.line("hidden", -L + 1, k, L - 1, k)
    d.line("hidden", -L + 1, -k, L - 1, -k)
    for c in range(P.SIZE):
        x = (c - (P.SIZE - 1) / 2) * g.px
        d.rect("part", x - 1.45, -0.65, x + 1.45, 0.65)
    hd = mm(P.STRIP_HOLE_D_UM)
    for hp in P.STRIP_HOLES_HALF_PITCH:
        d.circle("outline", hp * g.px / 2, g.hole_off, hd / 2)
    cw = mm(P.STRIP_CONNECTOR_W_UM) / 2
    d.rect("hidden", -cw, g.strip_lo + 1.5, cw, g.strip_lo + 7.5)
    d.line("center", -L - 3, 0, L + 3, 0)
    return d


def strip_sheet_views(sheet):
    g = Geometry()
    d = strip_plan()
    s = 0.9
    h = 2.2 / s
    L = g.strip_half
    dim_linear(d, -L, g.strip_hi, L, g.strip_hi, 6, "%.1f" % (2 * L), height=h)
    x0 = -(P.SIZE - 1) / 2 * g.px
    dim_linear(d, x0, g.strip_lo, x0 + g.px, g.strip_lo, -5, "%.1f" % g.px, height=h)
    dim_linear(d, L, g.strip_lo, L, g.strip_hi, 4, "%.1f" % g.strip_w, vertical=True, height=h)
    dim_linear(d, -L, g.strip_lo, x0, g.strip_lo, -5, "%.1f" % mm(P.STRIP_END_UM), height=h)
    hx = P.STRIP_HOLES_HALF_PITCH[0] * g.px / 2
    leader(
        d,
        hx,
        g.hole_off,
        hx - 30,
        g.strip_lo - 14,
        "4 x Ø%.1f (M3), %.1f below the sensor line" % (mm(P.STRIP_HOLE_D_UM), -g.hole_off),
        height=h,
    )
    leader(
        d, 10, g.strip_lo + 4, 60, g.strip_lo - 14, "40-way connector on the bottom face", height=h
    )
    leader(
        d,
        -L + 20,
        mm(P.STRIP_KEEPIN_W_UM) / 2,
        -L + 40,
        g.strip_hi + 14,
        "parts band %.1f on the sensor line (top face)" % mm(P.STRIP_KEEPIN_W_UM),
        height=h,
    )
    sheet.place(
        d, s, (210, 255), label="SENSOR STRIP, top face, line 19 up (19 per board) - scale 1:1.11"
    )


def underside_notes():
    g = Geometry()
    return [
        "Blank %.0f x %.0f x %.0f, face flattened and finished first; grain along the lines"
        % (g.w, g.h, g.t),
        "1-19 (left-right for the players), so each strip runs along the grain.",
        "Lay it FACE DOWN on a faced spoilboard: Z = 0 is the playing surface. Cut to the Z",
        "in each layer's name (height above the surface), not to a depth from the bottom.",
        "Order: CHANNEL (with its dog-bones), GROOVE (same set-up), SPINE, EXIT, CLIPSEAT,",
        "PILOT. GROOVE_Z%.2f +-%.2f (wood over the sensors, sheet ING-M-2); CHANNEL_Z%.2f"
        % (g.groove_z, g.tol, g.seat_z),
        "is %.2f above the groove floor, +0.10/-0." % (g.seat_z - g.groove_z),
        "Rough out, let the blank rest 48 h, check the face is flat, then finish-cut.",
        "Walls left: channel ends %.1f, lines 1/19 to the edge %.1f, ribs %.1f mm."
        % (g.w / 2 - g.channel_half, g.margin_y + g.ch_lo, g.rib),
        "Clips: one on the rib below each strip's 4 holes; lines 1 and 2 share a two-post",
        "clip on the rib between them. Pilots %.1f: 2.5 x 16 mm screws, 2.5 x 10 over the"
        % g.pilot_d,
        "spine and in the exit (pilots stop %.0f mm under the face). Close the back with a"
        % mm(P.CLIP_PILOT_MIN_Z_UM),
        "4 mm panel in slotted holes (wood moves), hatch over the spine.",
        "Spine: components up, J1 at line 19; its jacks' edge faces the board's RIGHT side",
        "(seen from above; left on this view from below). The exit spans its jacks and USB-C",
        "with their plugs (%.1f to %.1f from line 1's edge of the blank) widened to the"
        % (min(s[1] for s in g.plug_spans()), max(s[2] for s in g.plug_spans())),
        "middle of lines %d and %d; floor = the pocket's, so its ribs take -spine clips."
        % (round((g.exit_lo - g.margin_y) / g.py) + 1, round((g.exit_hi - g.margin_y) / g.py) + 1),
    ]


def section_notes():
    rows = tolerance_rows()
    lo, nom, hi = rows
    notes = [
        "WOOD OVER THE SENSOR: %.2f +-%.2f mm. Field of the stone's magnet at the Hall element"
        % (nom[0], nom[0] - lo[0]),
        "(element %.1f below the package top, seal %.1f under the magnet):"
        % (P.HALL_ELEMENT_UM / 1000, P.STONE_SEAL_UM / 1000),
    ]
    for wood, dist, b, share in rows:
        notes.append(
            "  wood %.2f mm -> %.2f mm to the element: %.1f mT (%d %%)"
            % (wood, dist, b, round(share * 100))
        )
    drop = field_mt(element_distance(nom[0])) - field_mt(element_distance(nom[0] + 0.1))
    notes += [
        "The field falls about %.0f %% per 0.1 mm here, so the depth is held to +-%.2f:"
        % (drop / nom[2] * 100, nom[0] - lo[0]),
        "- at the deep limit a stone 5 mm off its point (32 % of centred, design.md) still",
        "  gives %.0f %% of the nominal span, above the 25 %% entry threshold of the default"
        % (32 * hi[3]),
        "  calibration the board runs on before its own (and after a damaged one);",
        "- at the shallow limit a pressed stone stays inside the sensor's +-42 mT range;",
        "- +-%.2f is what a router holds with Z taken from the playing surface (the"
        % (nom[0] - lo[0]),
        "  spoilboard), not from the blank's back, whose thickness varies by more.",
        "Per-point calibration then takes out what is left (calibration.md).",
        "The strip rests on both shoulders, pressed up by foam on the clips' posts; their",
        "pins float in its holes: wood moving across the grain moves whole strips apart,",
        "along the grain it slides the strip on its pins; nothing bends it.",
    ]
    return notes


def tolerance_markdown():
    rows = tolerance_rows()
    lo, nom, hi = rows
    g = Geometry()
    lines = [
        "| wood over the sensor | magnet face to Hall element | field of a centred stone"
        " | share of nominal |",
        "|---:|---:|---:|---:|",
    ]
    for wood, dist, b, share in rows:
        lines.append(
            "| %.2f mm | %.2f mm | %.1f mT | %d %% |" % (wood, dist, b, round(share * 100))
        )
    drop = field_mt(element_distance(nom[0])) - field_mt(element_distance(nom[0] + 0.1))
    lines += [
        "",
        "Groove floor Z %.2f ± %.2f mm, channel seat Z %.2f (+0.10/−0) mm, both cut in one"
        % (g.groove_z, g.tol, g.seat_z),
        "set-up with Z = 0 on the playing surface (the blank face down on the spoilboard).",
        "",
        "Why ±%.2f mm: the field falls about %.0f %% per 0.1 mm at this depth. At the deep limit"
        % (g.tol, drop / nom[2] * 100),
        "a stone 5 mm off its point (32 %% of a centred stone's field, design.md) still gives"
        " %.0f %%" % (32 * hi[3]),
        "of the nominal span, above the classifier's 25 % entry threshold with the **default**",
        "calibration (what the board runs on before its own calibration, or after a damaged",
        "file); at the shallow limit a pressed stone stays well inside the sensor's ±42 mT. A",
        "router referenced to the playing surface holds ±%.2f mm; one referenced to the blank's"
        % g.tol,
        "back would not (a blank's thickness varies by more). Per-point calibration takes out",
        "what is left.",
        "",
    ]
    return "\n".join(lines)


def clip_check_markdown():
    g = Geometry()
    return (
        "**Check:** measure one clip from the bar's underside to the post's top with calipers\n"
        "(the pin not counted): `strip-clip` and `strip-clip-double` %.1f mm, the `-spine` ones\n"
        "%.1f mm, ±0.2 mm.\n" % (g.bar_t + g.post_l(g.t), g.bar_t + g.post_l(g.spine_z))
    )


def routing_check_markdown():
    g = Geometry()
    return (
        "**Check (every channel, at its two ends and its middle):** with a caliper's depth rod"
        " from the\nback, measure to the groove floor (*d*) and measure the blank's thickness"
        " next to it (*T*):\nthe wood over the sensors is *T − d* = **%.2f ± %.2f mm**. The seat"
        " (shoulders) is %.2f mm\n(+0.10/−0) further from the face than the groove floor. Lay"
        " a strip in each channel: it drops\nin without force and rests on both shoulders.\n"
        % (g.groove_z, g.tol, g.seat_z - g.groove_z)
    )

"""The bowl platform (two load cells, overload stops) and the clock enclosure (two displays,
two clock keys, pause and menu keys): their flat patterns for laser/CNC (plywood or acrylic)
and the sheets that dimension them. The printed versions are in scad_parts.py and share this
geometry."""

import math

import ingboard.physical as P
from sheetkit import Drawing, dim_linear, leader


def mm(um):
    return um / 1000.0


class Platform:
    def __init__(self):
        self.cell_l = mm(P.LOAD_CELL_L_UM)
        self.cell_w = mm(P.LOAD_CELL_W_UM)
        self.span = mm(P.LOAD_CELL_SPAN_UM)
        self.hole_pitch = mm(P.LOAD_CELL_HOLE_PITCH_UM)
        self.hole_end = mm(P.LOAD_CELL_HOLE_END_UM)
        self.hole_d = mm(P.LOAD_CELL_HOLE_D_UM)
        self.top_d = mm(P.PLATFORM_D_UM)
        self.base = mm(P.PLATFORM_BASE_UM)
        self.plate = mm(P.PLATFORM_PLATE_UM)
        self.spacer = mm(P.PLATFORM_SPACER_UM)
        self.gap = mm(P.OVERLOAD_GAP_UM)
        # heights of the stack, from the table
        self.z_cell = self.plate + self.spacer
        self.z_cell_top = self.z_cell + self.cell_w
        self.z_top = self.z_cell_top + self.spacer
        self.height = self.z_top + self.plate
        # overload stops: four, on the diagonals under the top plate's rim
        self.stop_r = self.top_d / 2 - 12
        if self.span / 2 + self.cell_w / 2 + 4 > self.top_d / 2:
            raise ValueError("the load cells stand outside the top plate")

    def fixed_holes(self):
        """Hole x of the cell's fixed end (bolted to the base plate)."""
        x0 = -self.cell_l / 2
        return (x0 + self.hole_end, x0 + self.hole_end + self.hole_pitch)

    def loaded_holes(self):
        """Hole x of the cell's loaded end (bolted to the top plate)."""
        x1 = self.cell_l / 2
        return (x1 - self.hole_end - self.hole_pitch, x1 - self.hole_end)

    def stops(self):
        r = self.stop_r / math.sqrt(2)
        return ((r, r), (-r, r), (-r, -r), (r, -r))


def platform_plates():
    """Base plate (left) and top plate (right), 1:1, for cutting from 6 mm plywood/acrylic."""
    p = Platform()
    d = Drawing()
    b = p.base / 2
    d.rounded_rect("OUTLINE_CUT", -b, -b, b, b, 8)
    for y in (-p.span / 2, p.span / 2):
        for x in p.fixed_holes():
            d.circle("HOLE_M4_CSK_BELOW", x, y, p.hole_d / 2)
    for x, y in p.stops():
        d.circle("HOLE_M4_INSERT", x, y, 2.8)
    for sx in (-1, 1):
        for sy in (-1, 1):
            d.circle("MARK_FEET", sx * (b - 14), sy * (b - 14), 6)
    d.line("center", -b - 4, 0, b + 4, 0)
    d.line("center", 0, -b - 4, 0, b + 4)
    ox = p.base + 20
    d.circle("OUTLINE_CUT", ox, 0, p.top_d / 2)
    for y in (-p.span / 2, p.span / 2):
        for x in p.loaded_holes():
            d.circle("HOLE_M4_CSK_ABOVE", ox + x, y, p.hole_d / 2)
    d.circle("ENGRAVE_RING", ox, 0, p.top_d / 2 - 8)
    d.line("center", ox - p.top_d / 2 - 4, 0, ox + p.top_d / 2 + 4, 0)
    return d


def platform_sheet_views(sheet):
    p = Platform()
    sc = 0.75
    h = 2.4 / sc
    # plan: base plate, top plate dashed, cells hidden, stops
    v = Drawing()
    b = p.base / 2
    v.rounded_rect("outline", -b, -b, b, b, 8)
    v.circle("hidden", 0, 0, p.top_d / 2)
    for y in (-p.span / 2, p.span / 2):
        v.rect("part", -p.cell_l / 2, y - p.cell_w / 2, p.cell_l / 2, y + p.cell_w / 2)
        for x in p.fixed_holes():
            v.circle("part", x, y, p.hole_d / 2)
        for x in p.loaded_holes():
            v.circle("hidden", x, y, p.hole_d / 2)
        v.text("text", 0, y - 1.2, "2 kg bar cell, arrow down", h, "c")
    for x, y in p.stops():
        v.circle("part", x, y, 2.8)
        v.circle("part", x, y, 4.5)
    v.line("center", -b - 4, 0, b + 4, 0)
    v.line("center", 0, -b - 4, 0, b + 4)
    dim_linear(v, -b, -b, b, -b, -8, "%.0f base" % p.base, height=h)
    dim_linear(v, b, -p.span / 2, b, p.span / 2, 8, "%.0f" % p.span, vertical=True, height=h)
    fx = p.fixed_holes()
    dim_linear(v, fx[0], p.span / 2, fx[1], p.span / 2, 12, "%.0f" % p.hole_pitch, height=h)
    dim_linear(v, -p.top_d / 2, b, p.top_d / 2, b, 6, "Ø%.0f top plate" % p.top_d, height=h)
    sx, sy = p.stops()[0]
    leader(v, sx, sy, sx + 10, sy + 36, "overload stop (4): M4 screw in a nut,", h)
    v.text("dim", sx + 10.8, sy + 31, "tip %.1f under the top plate" % p.gap, h)
    leader(v, fx[0], -p.span / 2, -b + 30, -b - 26, "fixed end: to the base plate", h)
    lx = p.loaded_holes()[1]
    leader(v, lx, -p.span / 2, b - 30, -b - 26, "loaded end: to the top plate", h)
    sheet.place(v, sc, (105, 180), label="PLAN (top plate dashed) - 1:1.33")
    # elevation through a cell
    e = Drawing()
    L = p.base / 2
    e.rect("outline", -L, 0, L, p.plate)
    e.rect("outline", -p.top_d / 2, p.z_top, p.top_d / 2, p.height)
    e.rect("part", -p.cell_l / 2, p.z_cell, p.cell_l / 2, p.z_cell_top)
    x0 = -p.cell_l / 2
    e.rect("part", x0, p.plate, x0 + p.hole_end * 2 + p.hole_pitch, p.z_cell)
    x1 = p.cell_l / 2
    e.rect("part", x1 - p.hole_end * 2 - p.hole_pitch, p.z_cell_top, x1, p.z_top)
    e.rect("hidden", -8, p.z_cell + 3, 8, p.z_cell_top - 3)
    sx = p.stops()[0][0]
    e.rect("part", sx - 2, 0, sx + 2, p.z_top - p.gap)
    dim_linear(e, sx, p.z_top - p.gap, sx, p.z_top, 24, "%.1f" % p.gap, vertical=True)
    e.text("dim", sx + 28, p.z_top - 1.5, "stop gap", 2.4)
    dim_linear(e, -L, 0, -L, p.height, -8, "%.1f" % p.height, vertical=True)
    dim_linear(e, x0, p.z_cell, x0, p.z_cell_top, -16, "%.1f" % p.cell_w, vertical=True)
    dim_linear(e, -p.cell_l / 2, p.z_cell, p.cell_l / 2, p.z_cell, -14, "%.0f cell" % p.cell_l)
    leader(
        e, x0 + 10, p.plate + p.spacer / 2, x0 - 20, p.height + 12, "spacer %.0f" % p.spacer, 2.4
    )
    leader(e, 0, (p.z_cell + p.z_cell_top) / 2, 20, p.height + 12, "bending zone: keep free", 2.4)
    sheet.place(e, 1.0, (300, 200), label="ELEVATION through a cell - 1:1")


def platform_notes():
    p = Platform()
    return [
        "Two 2 kg straight-bar cells side by side, their bridges in parallel into one HX711",
        "(E+, E-, S+, S- to the same terminals: the reading is their average, design.md).",
        "Each cell: fixed end bolted to the base plate, loaded end to the top plate, %.0f mm"
        % p.spacer,
        "spacers under both ends so the bending zone (the hole in the middle) is free.",
        "Mount both cells with their arrows pointing down and their cables on one side.",
        "Overload stops: four M4 screws in inserts, tips %.1f mm under the top plate; set" % p.gap,
        "with a feeler gauge, then check (build-guide.md): 2 kg on the plate reads right,",
        "a hand pressing hard stops rising once the plate rests on the stops.",
        "Cut the plates (6 mm plywood/acrylic, DXF/SVG) or print bowl-platform.scad.",
        "Keep the lid and cables off the top plate; the bowl stands inside the ring.",
    ]


class Clock:
    def __init__(self):
        self.L = mm(P.CLOCK_L_UM)
        self.W = mm(P.CLOCK_W_UM)
        self.H = mm(P.CLOCK_H_UM)
        self.wall = mm(P.CLOCK_WALL_UM)
        a = math.radians(P.CLOCK_FACE_ANGLE_DEG)
        self.run = self.H / math.tan(a)  # horizontal run of a sloped face
        self.face = self.H / math.sin(a)  # its slant length
        self.top = self.L - 2 * self.run
        self.key_x = self.top / 2 - 24.0  # clock keys from the centre, toward each player
        self.small_y = 16.0  # pause and menu keys either side of the centre line
        self.jack_x = 35.0  # the two RJ45 jacks on the back, from the centre
        self.jack_z = 8.0  # their openings' lower edge above the table
        if self.key_x - mm(P.ARCADE_HOLE_D_UM) / 2 < 14:
            raise ValueError("the clock keys do not fit the top panel")
        if mm(P.DISPLAY_PCB_H_UM) + 8 > self.face:
            raise ValueError("the display does not fit its face")

    def profile(self):
        """The case's side outline (x along the players' line, z up)."""
        return ((0, 0), (self.L, 0), (self.L - self.run, self.H), (self.run, self.H))


def clock_panels():
    """Flat panels, 1:1, for 3 mm plywood/acrylic: top, two display faces, back, two sides."""
    c = Clock()
    d = Drawing()
    # top panel: clock keys at the ends (Black's toward Black), pause and menu in the middle
    d.rect("OUTLINE_CUT", 0, 0, c.top, c.W)
    cx, cy = c.top / 2, c.W / 2
    for sx in (-1, 1):
        d.circle("HOLE_CUT", cx + sx * c.key_x, cy, mm(P.ARCADE_HOLE_D_UM) / 2)
    for sy in (-1, 1):
        d.circle("HOLE_CUT", cx, cy + sy * c.small_y, mm(P.TACT_HOLE_D_UM) / 2)
    # display faces (two), window above the module's centre
    for i in range(2):
        y0 = c.W + 10 + i * (c.face + 10)
        d.rect("OUTLINE_CUT", 0, y0, c.W, y0 + c.face)
        mx, my = c.W / 2, y0 + c.face / 2
        ww, wh = mm(P.DISPLAY_WINDOW_W_UM), mm(P.DISPLAY_WINDOW_H_UM)
        wy = my + mm(P.DISPLAY_WINDOW_OFFSET_UM)
        d.rounded_rect("HOLE_CUT", mx - ww / 2, wy - wh / 2, mx + ww / 2, wy + wh / 2, 1.0)
        hw, hh = mm(P.DISPLAY_HOLES_W_UM) / 2, mm(P.DISPLAY_HOLES_H_UM) / 2
        for sx in (-1, 1):
            for sy in (-1, 1):
                d.circle("HOLE_CUT", mx + sx * hw, my + sy * hh, 1.1)
    # side panels (trapezoids), the back one with the cable holes, USB and power switch
    for i in range(2):
        ox = c.top + 10 + i * (c.L + 10)
        d.poly("OUTLINE_CUT", [(ox + x, z) for x, z in c.profile()])
        if i == 0:
            # the back: the two clock cables' RJ45 jacks (CLOCK B toward Black's end)
            for x in (c.L / 2 - c.jack_x, c.L / 2 + c.jack_x):
                jw, jh = mm(P.CLOCK_JACK_W_UM), mm(P.CLOCK_JACK_H_UM)
                d.rect("HOLE_CUT", ox + x - jw / 2, c.jack_z, ox + x + jw / 2, c.jack_z + jh)
        else:
            for k in range(-2, 3):
                for j in range(-1, 2):
                    d.circle(
                        "HOLE_CUT", ox + c.L / 2 + k * 5, 30 + j * 5, mm(P.BUZZER_HOLES_D_UM) / 2
                    )
    return d


def clock_sheet_views(sheet):
    c = Clock()
    s = 0.75
    h = 2.4 / s
    # side elevation
    e = Drawing()
    e.poly("outline", c.profile())
    for sx, x in ((1, c.run / 2), (-1, c.L - c.run / 2)):
        # the display on each sloped face: its module drawn as a line parallel to the face
        a = math.radians(P.CLOCK_FACE_ANGLE_DEG)
        mx, mz = x, c.H / 2
        dx, dz = math.cos(a) * 14 * sx, math.sin(a) * 14
        e.line("part", mx - dx + sx * 3, mz - dz, mx + dx + sx * 3, mz + dz)
    for sx in (-1, 1):
        kx = c.L / 2 + sx * c.key_x
        e.rect("hidden", kx - 12, c.H - 33, kx + 12, c.H)
        e.rect("part", kx - 16, c.H, kx + 16, c.H + 4)
    for x in (c.L / 2 - c.jack_x, c.L / 2 + c.jack_x):
        jw, jh = mm(P.CLOCK_JACK_W_UM), mm(P.CLOCK_JACK_H_UM)
        e.rect("hidden", x - jw / 2, c.jack_z, x + jw / 2, c.jack_z + jh)
    dim_linear(e, 0, 0, c.L, 0, -8, "%.0f (between the players)" % c.L, height=h)
    dim_linear(e, c.run, c.H, c.L - c.run, c.H, 10, "%.1f top" % c.top, height=h)
    dim_linear(e, c.L, 0, c.L, c.H, 8, "%.0f" % c.H, vertical=True, height=h)
    e.text("text", 2, c.H + 4, "BLACK's side", 3.0 / s)
    e.text("text", c.L - 2, c.H + 4, "WHITE's side", 3.0 / s, "r")
    leader(
        e,
        c.run / 2 + 3,
        c.H / 2,
        -8,
        c.H + 18,
        "display, %d° face" % P.CLOCK_FACE_ANGLE_DEG,
        height=h,
    )
    leader(
        e,
        c.L / 2 + c.key_x,
        c.H + 4,
        c.L / 2 + c.key_x + 20,
        c.H + 22,
        "30 mm clock key",
        height=h,
    )
    leader(
        e,
        c.L / 2 + c.jack_x,
        c.jack_z + 4,
        c.L / 2 + 40,
        -20,
        "RJ45 jacks CLOCK B / CLOCK W (back)",
        height=h,
    )
    sheet.place(e, s, (40, 195), label="SIDE ELEVATION - 1:1.33")
    # top view
    t = Drawing()
    t.rect("outline", 0, 0, c.L, c.W)
    t.rect("part", c.run, 0, c.L - c.run, c.W)
    cx, cy = c.L / 2, c.W / 2
    for sx in (-1, 1):
        t.circle("part", cx + sx * c.key_x, cy, mm(P.ARCADE_HOLE_D_UM) / 2)
    for sy in (-1, 1):
        t.circle("part", cx, cy + sy * c.small_y, mm(P.TACT_HOLE_D_UM) / 2)
    t.text("text", cx, cy + c.small_y - 1, "menu", 2.4 / s, "c")
    t.text("text", cx, cy - c.small_y - 1, "pause", 2.4 / s, "c")
    t.text("text", cx - c.key_x, cy - 1, "B", 3 / s, "c")
    t.text("text", cx + c.key_x, cy - 1, "W", 3 / s, "c")
    dim_linear(t, cx - c.key_x, cy, cx + c.key_x, cy, 30, "%.1f" % (2 * c.key_x), height=h)
    dim_linear(t, c.L, 0, c.L, c.W, 8, "%.0f" % c.W, vertical=True, height=h)
    dim_linear(
        t,
        cx,
        cy - c.small_y,
        cx,
        cy + c.small_y,
        14,
        "%.0f" % (2 * c.small_y),
        vertical=True,
        height=h,
    )
    leader(
        t,
        cx - c.key_x - 15,
        cy,
        cx - c.key_x - 40,
        c.W + 12,
        "Ø%.0f snap-in, panel %.1f" % (mm(P.ARCADE_HOLE_D_UM), mm(P.ARCADE_PANEL_UM)),
        height=h,
    )
    sheet.place(t, s, (40, 60), label="TOP - 1:1.33")
    # one display face, seen square on
    f = Drawing()
    f.rect("outline", 0, 0, c.W, c.face)
    mx, my = c.W / 2, c.face / 2
    pw, ph = mm(P.DISPLAY_PCB_W_UM), mm(P.DISPLAY_PCB_H_UM)
    f.rect("hidden", mx - pw / 2, my - ph / 2, mx + pw / 2, my + ph / 2)
    ww, wh = mm(P.DISPLAY_WINDOW_W_UM), mm(P.DISPLAY_WINDOW_H_UM)
    wy = my + mm(P.DISPLAY_WINDOW_OFFSET_UM)
    f.rect("part", mx - ww / 2, wy - wh / 2, mx + ww / 2, wy + wh / 2)
    hw, hh = mm(P.DISPLAY_HOLES_W_UM) / 2, mm(P.DISPLAY_HOLES_H_UM) / 2
    for sx in (-1, 1):
        for sy in (-1, 1):
            f.circle("part", mx + sx * hw, my + sy * hh, 1.1)
    dim_linear(
        f, mx - ww / 2, wy + wh / 2, mx + ww / 2, wy + wh / 2, 18, "%.0f window" % ww, height=h
    )
    dim_linear(
        f,
        mx + ww / 2,
        wy - wh / 2,
        mx + ww / 2,
        wy + wh / 2,
        22,
        "%.0f" % wh,
        vertical=True,
        height=h,
    )
    dim_linear(f, mx - hw, my - hh, mx + hw, my - hh, -14, "%.1f holes" % (2 * hw), height=h)
    dim_linear(
        f, mx - hw, my - hh, mx - hw, my + hh, -30, "%.1f" % (2 * hh), vertical=True, height=h
    )
    dim_linear(f, c.W, 0, c.W, c.face, 8, "%.1f slant" % c.face, vertical=True, height=h)
    f.text("text", mx, c.face + 3, "top edge", 2.4 / s, "c")
    sheet.place(f, s, (300, 200), label="DISPLAY FACE (two), square on - 1:1.33")


def clock_notes():
    c = Clock()
    return [
        "The clock stands at White's right (seed 000 Art. 10), its long axis along the line",
        "between the players: each sloped face shows one player their own display.",
        "Black's clock key at Black's end, White's at White's; pause and menu in the middle",
        "(design.md: the menus open only while the clock is stopped).",
        "Displays: SSD1306 0.96 in. modules on M2 screws behind a %.0f x %.0f window."
        % (mm(P.DISPLAY_WINDOW_W_UM), mm(P.DISPLAY_WINDOW_H_UM)),
        "The clock board (hardware/electronics) inside: no MCU, no battery; its two RJ45",
        "jacks in the back (CLOCK B toward Black's end), Cat 5e cables to the board's spine.",
        "Piezo behind the 15 holes of the front. Top %.1f x %.0f; faces %.1f slant."
        % (c.top, c.W, c.face),
        "Print clock-case-shell/-bottom.scad or cut these panels from 3 mm stock.",
    ]

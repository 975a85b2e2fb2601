"""Drawings as plain data, written out as DXF (R12), SVG, PDF and PNG.

A `Drawing` is a list of entities in millimetres (x right, y up) on named layers. The same
drawing is written 1:1 as a CNC/laser file (DXF, SVG: cut layers and reference lines only)
and, placed on an A3 `Sheet` with views at a scale, dimensions, notes and a title block, as a
PDF and a PNG. Every writer is deterministic: same drawing, same bytes (no dates, no ids, fixed
number formatting), so `generate.py --check` can compare the committed files.
"""

import math

# Layer -> (DXF colour index, stroke width on paper in mm, dash pattern in mm or None, RGB).
# Layers whose names start with a capital letter are machining layers (written to DXF/SVG);
# lower-case layers are drawing-only (dimensions, text, frame) and appear only on the sheets.
STYLE = {
    "outline": (7, 0.5, None, (0, 0, 0)),
    "part": (7, 0.35, None, (0, 0, 0)),
    "hidden": (8, 0.25, (2.0, 1.0), (90, 90, 90)),
    "center": (1, 0.18, (6.0, 1.5, 1.0, 1.5), (170, 40, 40)),
    "dim": (3, 0.18, None, (20, 80, 160)),
    "text": (7, 0.25, None, (0, 0, 0)),
    "frame": (7, 0.5, None, (0, 0, 0)),
    "section": (5, 0.18, None, (110, 110, 110)),
}
CUT_STYLE = (5, 0.35, None, (0, 110, 60))


def style(layer):
    if layer in STYLE:
        return STYLE[layer]
    return CUT_STYLE


def is_cut(layer):
    return layer[:1].isupper()


class Drawing:
    """Entities in mm: ("line", layer, x1, y1, x2, y2), ("circle", layer, cx, cy, r),
    ("arc", layer, cx, cy, r, a0, a1) counter-clockwise in degrees, ("poly", layer, points,
    closed), ("text", layer, x, y, s, height, anchor "l"/"c"/"r", angle 0/90),
    ("fill", layer, points, grey 0-1) a filled polygon (sheets only)."""

    def __init__(self):
        self.items = []

    def line(self, layer, x1, y1, x2, y2):
        self.items.append(("line", layer, x1, y1, x2, y2))

    def circle(self, layer, cx, cy, r):
        self.items.append(("circle", layer, cx, cy, r))

    def arc(self, layer, cx, cy, r, a0, a1):
        self.items.append(("arc", layer, cx, cy, r, a0, a1))

    def poly(self, layer, points, closed=True):
        self.items.append(("poly", layer, tuple(points), closed))

    def fill(self, layer, points, grey):
        self.items.append(("fill", layer, tuple(points), grey))

    def text(self, layer, x, y, s, height=3.5, anchor="l", angle=0):
        self.items.append(("text", layer, x, y, s, height, anchor, angle))

    def rect(self, layer, x0, y0, x1, y1):
        self.poly(layer, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))

    def path(self, layer, segments):
        """A closed contour (one pocket for the CAM): segments head to tail, counter-clockwise:
        ("L", x0, y0, x1, y1) and ("A", cx, cy, r, a0, a1) (degrees, counter-clockwise)."""
        segs = tuple(
            sg for sg in segments if sg[0] != "L" or abs(sg[1] - sg[3]) + abs(sg[2] - sg[4]) > 1e-9
        )
        self.items.append(("path", layer, segs))

    def rounded_rect(self, layer, x0, y0, x1, y1, r):
        """A closed outline with corner radius r (a routed pocket)."""
        r = min(r, (x1 - x0) / 2, (y1 - y0) / 2)
        self.path(
            layer,
            (
                ("L", x0 + r, y0, x1 - r, y0),
                ("A", x1 - r, y0 + r, r, 270, 360),
                ("L", x1, y0 + r, x1, y1 - r),
                ("A", x1 - r, y1 - r, r, 0, 90),
                ("L", x1 - r, y1, x0 + r, y1),
                ("A", x0 + r, y1 - r, r, 90, 180),
                ("L", x0, y1 - r, x0, y0 + r),
                ("A", x0 + r, y0 + r, r, 180, 270),
            ),
        )

    def dogbone_rect(self, layer, x0, y0, x1, y1, r):
        """A rectangular pocket with square inside corners for a square-cornered part, cut by
        an end mill of radius r: a dog-bone (the tool run into each corner along its
        bisector until its edge passes through the corner) at each of the four corners; the
        arc of the corner whose inward bisector has angle t runs from t + 90 to t + 270."""
        k = math.sqrt(2) * r
        c = r / math.sqrt(2)
        self.path(
            layer,
            (
                ("L", x0 + k, y0, x1 - k, y0),
                ("A", x1 - c, y0 + c, r, 225, 45),
                ("L", x1, y0 + k, x1, y1 - k),
                ("A", x1 - c, y1 - c, r, 315, 135),
                ("L", x1 - k, y1, x0 + k, y1),
                ("A", x0 + c, y1 - c, r, 45, 225),
                ("L", x0, y1 - k, x0, y0 + k),
                ("A", x0 + c, y0 + c, r, 135, 315),
            ),
        )

    def slot(self, layer, cx, cy, length, width, vertical=False):
        """A slot of overall length and width centred on (cx, cy)."""
        h = length / 2
        w = width / 2
        if vertical:
            self.rounded_rect(layer, cx - w, cy - h, cx + w, cy + h, w)
        else:
            self.rounded_rect(layer, cx - h, cy - w, cx + h, cy + w, w)

    def layers(self):
        seen = []
        for item in self.items:
            if item[1] not in seen:
                seen.append(item[1])
        return seen

    def bounds(self):
        xs, ys = [], []
        for kind, _layer, *rest in self.items:
            if kind == "line":
                xs += [rest[0], rest[2]]
                ys += [rest[1], rest[3]]
            elif kind in ("circle", "arc"):
                xs += [rest[0] - rest[2], rest[0] + rest[2]]
                ys += [rest[1] - rest[2], rest[1] + rest[2]]
            elif kind in ("poly", "fill"):
                xs += [p[0] for p in rest[0]]
                ys += [p[1] for p in rest[0]]
            elif kind == "path":
                for sg in rest[0]:
                    if sg[0] == "L":
                        xs += [sg[1], sg[3]]
                        ys += [sg[2], sg[4]]
                    else:
                        xs += [sg[1] - sg[3], sg[1] + sg[3]]
                        ys += [sg[2] - sg[3], sg[2] + sg[3]]
        return min(xs), min(ys), max(xs), max(ys)


def expand(item):
    """A path item as plain line and arc items (for the sheets' writers)."""
    out = []
    for sg in item[2]:
        if sg[0] == "L":
            out.append(("line", item[1]) + tuple(sg[1:5]))
        else:
            out.append(("arc", item[1]) + tuple(sg[1:6]))
    return out


def _arc_point(cx, cy, r, a):
    return cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))


def num(v):
    """A coordinate as text: 4 decimals, no '-0', no trailing zeros (byte-stable)."""
    s = "%.4f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# -- dimensions ---------------------------------------------------------------------------------


def dim_linear(d, x1, y1, x2, y2, offset, label=None, vertical=False, height=2.5):
    """A dimension between (x1, y1) and (x2, y2), measured horizontally (or vertically), its
    line `offset` away (in drawing units: mm of the view before scaling)."""
    if vertical:
        xd = max(x1, x2) + offset if offset > 0 else min(x1, x2) + offset
        d.line("dim", x1, y1, xd + math.copysign(1, offset), y1)
        d.line("dim", x2, y2, xd + math.copysign(1, offset), y2)
        d.line("dim", xd, y1, xd, y2)
        _arrow(d, xd, y1, 0, 1 if y2 > y1 else -1, height)
        _arrow(d, xd, y2, 0, -1 if y2 > y1 else 1, height)
        text = label if label is not None else "%.1f" % abs(y2 - y1)
        d.text("dim", xd - 0.8 * height, (y1 + y2) / 2, text, height, "c", 90)
    else:
        yd = max(y1, y2) + offset if offset > 0 else min(y1, y2) + offset
        d.line("dim", x1, y1, x1, yd + math.copysign(1, offset))
        d.line("dim", x2, y2, x2, yd + math.copysign(1, offset))
        d.line("dim", x1, yd, x2, yd)
        _arrow(d, x1, yd, 1 if x2 > x1 else -1, 0, height)
        _arrow(d, x2, yd, -1 if x2 > x1 else 1, 0, height)
        text = label if label is not None else "%.1f" % abs(x2 - x1)
        d.text("dim", (x1 + x2) / 2, yd + 0.8, text, height, "c", 0)


def leader(d, x, y, tx, ty, label, height=2.5):
    d.line("dim", x, y, tx, ty)
    ux, uy = x - tx, y - ty
    n = math.hypot(ux, uy) or 1.0
    _arrow(d, x, y, ux / n, uy / n, height, inward=False)
    anchor = "l" if tx >= x else "r"
    d.text("dim", tx + (0.8 if anchor == "l" else -0.8), ty - height * 0.35, label, height, anchor)


def _arrow(d, x, y, ux, uy, height, inward=True):
    """A filled arrowhead at (x, y) pointing along -(ux, uy) when inward (dimension arrows
    point at the extension lines)."""
    s = height * 0.8
    if inward:
        ux, uy = -ux, -uy
    bx, by = x - ux * s, y - uy * s
    px, py = -uy * s * 0.3, ux * s * 0.3
    d.fill("dim", ((x, y), (bx + px, by + py), (bx - px, by - py)), 0.0)


# -- CNC files (1:1, machining layers only) ----------------------------------------------------


def dxf_text(d, title):
    """AutoCAD R12 ASCII DXF of the machining layers, in mm (the oldest DXF every CAM reads)."""
    out = []

    def g(code, value):
        out.append("%d\n%s\n" % (code, value))

    layers = [layer for layer in d.layers() if is_cut(layer) or layer in ("outline", "center")]
    g(999, title)
    g(0, "SECTION")
    g(2, "HEADER")
    g(9, "$ACADVER")
    g(1, "AC1009")
    g(9, "$INSUNITS")
    g(70, 4)
    g(9, "$MEASUREMENT")
    g(70, 1)
    g(0, "ENDSEC")
    g(0, "SECTION")
    g(2, "TABLES")
    g(0, "TABLE")
    g(2, "LTYPE")
    g(70, 1)
    g(0, "LTYPE")
    g(2, "CONTINUOUS")
    g(70, 0)
    g(3, "Solid line")
    g(72, 65)
    g(73, 0)
    g(40, "0.0")
    g(0, "ENDTAB")
    g(0, "TABLE")
    g(2, "LAYER")
    g(70, len(layers))
    for layer in layers:
        g(0, "LAYER")
        g(2, layer)
        g(70, 0)
        g(62, style(layer)[0])
        g(6, "CONTINUOUS")
    g(0, "ENDTAB")
    g(0, "ENDSEC")
    g(0, "SECTION")
    g(2, "ENTITIES")
    for item in d.items:
        kind, layer = item[0], item[1]
        if layer not in layers:
            continue
        if kind == "line":
            g(0, "LINE")
            g(8, layer)
            for code, v in zip((10, 20, 11, 21), item[2:6]):
                g(code, num(v))
        elif kind == "circle":
            g(0, "CIRCLE")
            g(8, layer)
            g(10, num(item[2]))
            g(20, num(item[3]))
            g(40, num(item[4]))
        elif kind == "arc":
            g(0, "ARC")
            g(8, layer)
            g(10, num(item[2]))
            g(20, num(item[3]))
            g(40, num(item[4]))
            g(50, num(item[5]))
            g(51, num(item[6]))
        elif kind == "poly":
            g(0, "POLYLINE")
            g(8, layer)
            g(66, 1)
            g(70, 1 if item[3] else 0)
            for x, y in item[2]:
                g(0, "VERTEX")
                g(8, layer)
                g(10, num(x))
                g(20, num(y))
            g(0, "SEQEND")
        elif kind == "path":
            # one closed polyline: a vertex at each segment's start, arcs as bulges
            g(0, "POLYLINE")
            g(8, layer)
            g(66, 1)
            g(70, 1)
            for sg in item[2]:
                g(0, "VERTEX")
                g(8, layer)
                if sg[0] == "L":
                    g(10, num(sg[1]))
                    g(20, num(sg[2]))
                else:
                    x, y = _arc_point(sg[1], sg[2], sg[3], sg[4])
                    sweep = (sg[5] - sg[4]) % 360 or 360
                    g(10, num(x))
                    g(20, num(y))
                    g(42, num(math.tan(math.radians(sweep) / 4)))
            g(0, "SEQEND")
    g(0, "ENDSEC")
    g(0, "EOF")
    return "".join(out)


def svg_text(d, title):
    """SVG 1:1 in mm (viewBox in mm, y flipped to SVG's downward axis), one group per layer,
    machining layers and reference lines only."""
    x0, y0, x1, y1 = d.bounds()
    m = 2.0
    w, h = x1 - x0 + 2 * m, y1 - y0 + 2 * m
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s">\n'
        % (num(w), num(h), num(w), num(h)),
        "<title>%s</title>\n" % _xml(title),
    ]

    def X(x):
        return num(x - x0 + m)

    def Y(y):
        return num(y1 - y + m)

    for layer in d.layers():
        if not (is_cut(layer) or layer in ("outline", "center")):
            continue
        r, g_, b = style(layer)[3]
        out.append(
            '<g id="%s" fill="none" stroke="#%02x%02x%02x" stroke-width="0.2">\n'
            % (_xml(layer), r, g_, b)
        )
        for item in d.items:
            if item[1] != layer:
                continue
            kind = item[0]
            if kind == "line":
                out.append(
                    '<line x1="%s" y1="%s" x2="%s" y2="%s"/>\n'
                    % (X(item[2]), Y(item[3]), X(item[4]), Y(item[5]))
                )
            elif kind == "circle":
                out.append(
                    '<circle cx="%s" cy="%s" r="%s"/>\n' % (X(item[2]), Y(item[3]), num(item[4]))
                )
            elif kind == "arc":
                cx, cy, rr, a0, a1 = item[2:7]
                sx, sy = cx + rr * math.cos(math.radians(a0)), cy + rr * math.sin(math.radians(a0))
                ex, ey = cx + rr * math.cos(math.radians(a1)), cy + rr * math.sin(math.radians(a1))
                large = 1 if (a1 - a0) % 360 > 180 else 0
                out.append(
                    '<path d="M%s %s A%s %s 0 %d 1 %s %s"/>\n'
                    % (X(sx), Y(sy), num(rr), num(rr), large, X(ex), Y(ey))
                )
            elif kind == "poly":
                pts = " ".join("%s,%s" % (X(x), Y(y)) for x, y in item[2])
                tag = "polygon" if item[3] else "polyline"
                out.append('<%s points="%s"/>\n' % (tag, pts))
            elif kind == "path":
                segs = []
                for sg in item[2]:
                    if sg[0] == "L":
                        start, end = (sg[1], sg[2]), (sg[3], sg[4])
                    else:
                        start = _arc_point(sg[1], sg[2], sg[3], sg[4])
                        end = _arc_point(sg[1], sg[2], sg[3], sg[5])
                    if not segs:
                        segs.append("M%s %s" % (X(start[0]), Y(start[1])))
                    if sg[0] == "L":
                        segs.append("L%s %s" % (X(end[0]), Y(end[1])))
                    else:
                        large = 1 if (sg[5] - sg[4]) % 360 > 180 else 0
                        segs.append(
                            "A%s %s 0 %d 1 %s %s"
                            % (num(sg[3]), num(sg[3]), large, X(end[0]), Y(end[1]))
                        )
                out.append('<path d="%sZ"/>\n' % " ".join(segs))
        out.append("</g>\n")
    out.append("</svg>\n")
    return "".join(out)


def _xml(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")

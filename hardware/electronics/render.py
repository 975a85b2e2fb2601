"""A PNG of a finished board, drawn from its geometry with Pillow (no timestamp, same bytes
each run): bottom copper, top copper, pads, vias, holes, outline and references, seen from
the top. Colours: top copper red, bottom blue, inner layer 1 orange, inner layer 2 cyan, pads
gold, holes black (inner planes are not drawn)."""

import pcbnew
from PIL import Image, ImageDraw, ImageFont

BG = (16, 48, 32)
COLOURS = {
    pcbnew.B_Cu: ((30, 45, 90), (90, 150, 255)),  # (zone fill, tracks)
    pcbnew.In2_Cu: (None, (40, 210, 200)),
    pcbnew.In1_Cu: (None, (255, 175, 40)),
    pcbnew.F_Cu: ((85, 35, 35), (255, 95, 80)),
}
PAD = (212, 175, 55)
EDGE = (240, 230, 120)
TEXT = (235, 235, 235)


def _font(size):
    for path in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def draw(board, path, px_per_mm=8.0, crop=None, title=None):
    """Render `board` (or the crop (x0, y0, x1, y1) in mm) into `path`; returns the image."""
    box = board.GetBoardEdgesBoundingBox()
    x0, y0 = pcbnew.ToMM(box.GetX()) - 1, pcbnew.ToMM(box.GetY()) - 1
    x1, y1 = x0 + pcbnew.ToMM(box.GetWidth()) + 2, y0 + pcbnew.ToMM(box.GetHeight()) + 2
    if crop:
        x0, y0, x1, y1 = crop
    head = 28 if title else 0
    w, h = int((x1 - x0) * px_per_mm), int((y1 - y0) * px_per_mm) + head
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)

    def P(x, y):  # noqa: N802 - a point in pixels
        return ((pcbnew.ToMM(x) - x0) * px_per_mm, (pcbnew.ToMM(y) - y0) * px_per_mm + head)

    layers = [pcbnew.B_Cu, pcbnew.F_Cu]
    if board.GetCopperLayerCount() >= 4:
        layers = [pcbnew.B_Cu, pcbnew.In2_Cu, pcbnew.In1_Cu, pcbnew.F_Cu]
    for layer in layers:  # pours first, bottom to top, then the tracks over all of them
        fill, _line = COLOURS[layer]
        if fill is None:
            continue  # inner planes would hide everything: only their tracks are drawn
        for zone in board.Zones():
            if not zone.IsOnLayer(layer):
                continue
            polys = zone.GetFilledPolysList(layer)
            for i in range(polys.OutlineCount()):
                chain = polys.Outline(i)
                pts = [P(chain.CPoint(j).x, chain.CPoint(j).y) for j in range(chain.PointCount())]
                if len(pts) > 2:
                    d.polygon(pts, fill=fill)
                for hole in range(polys.HoleCount(i)):
                    hc = polys.Hole(i, hole)
                    hp = [P(hc.CPoint(j).x, hc.CPoint(j).y) for j in range(hc.PointCount())]
                    if len(hp) > 2:
                        d.polygon(hp, fill=BG)
    for layer in layers:
        _fill, line = COLOURS[layer]
        if line is None:
            continue
        for t in board.GetTracks():
            if t.GetClass() == "PCB_TRACK" and t.GetLayer() == layer:
                wpx = max(1, int(round(pcbnew.ToMM(t.GetWidth()) * px_per_mm)))
                d.line(
                    [P(t.GetStart().x, t.GetStart().y), P(t.GetEnd().x, t.GetEnd().y)],
                    fill=line,
                    width=wpx,
                )
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            bb = pad.GetBoundingBox()
            a = P(bb.GetX(), bb.GetY())
            b = P(bb.GetX() + bb.GetWidth(), bb.GetY() + bb.GetHeight())
            if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
                d.ellipse([a, b], fill=PAD)
            else:
                d.rectangle([a, b], fill=PAD if pad.IsOnLayer(pcbnew.F_Cu) else (150, 150, 200))
            if pad.GetDrillSize().x > 0:
                c = pad.GetPosition()
                r = pcbnew.ToMM(pad.GetDrillSize().x) / 2 * px_per_mm
                cx, cy = P(c.x, c.y)
                d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(0, 0, 0))
    for t in board.GetTracks():
        if t.GetClass() == "PCB_VIA":
            cx, cy = P(t.GetPosition().x, t.GetPosition().y)
            r = pcbnew.ToMM(t.GetWidth()) / 2 * px_per_mm
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(200, 200, 200))
            r = r / 2
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(0, 0, 0))
    for item in board.GetDrawings():
        if item.GetLayer() == pcbnew.Edge_Cuts:
            d.line(
                [P(item.GetStart().x, item.GetStart().y), P(item.GetEnd().x, item.GetEnd().y)],
                fill=EDGE,
                width=2,
            )
    font = _font(max(9, int(px_per_mm * 1.1)))
    for fp in board.GetFootprints():
        if not fp.GetReference().startswith(("U", "J", "Q", "A", "D")):
            continue
        c = fp.GetPosition()
        cx, cy = P(c.x, c.y)
        d.text((cx, cy), fp.GetReference(), fill=TEXT, font=font, anchor="mm")
    if title:
        d.rectangle([0, 0, w, head], fill=(0, 0, 0))
        d.text((6, 4), title, fill=TEXT, font=_font(18))
    img.save(path, optimize=True)
    return img


def stack(images, path):
    """Several renders one above the other in one PNG."""
    w = max(i.width for i in images)
    h = sum(i.height for i in images) + 8 * (len(images) - 1)
    out = Image.new("RGB", (w, h), (0, 0, 0))
    y = 0
    for i in images:
        out.paste(i, (0, y))
        y += i.height + 8
    out.save(path, optimize=True)

"""The board as a PNG picture (demo, browser simulator): stones, coordinates, count marks.

`board_image(rows, marks=None, filled=(), cell=32)`: rows as Board.rows() (top line first,
'.', 'B', 'W'); `marks` maps a kind to point names ("Q16"):
  winning_space  red ring on the empty winning space(s) of the Ing count
  losing         red cross on the losing stones placed in the winner's territory
  compensation   blue square on the compensation (komi) stones
  penalty        orange square on penalty stones
  open           blue ring on points left open (odd compensation, odd shared spaces)
  last           small ring on the last move
`filled`: points whose stones the fill-in added (drawn with a small grey centre dot), so the
picture tells the game's own stones from the count's.
"""

from PIL import Image, ImageDraw, ImageFont

COLUMNS = "ABCDEFGHJKLMNOPQRST"
_WOOD = (220, 179, 92)
_LINE = (40, 30, 10)
_RED = (210, 20, 20)
_BLUE = (30, 80, 220)
_ORANGE = (240, 140, 0)


def _font(size):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # older Pillow: a fixed bitmap font
        return ImageFont.load_default()


def point_xy(name, size, cell, margin):
    """Pixel centre of a point name on the picture."""
    col = COLUMNS.index(name[0].upper())
    row = int(name[1:]) - 1
    return margin + col * cell, margin + (size - 1 - row) * cell


def board_image(rows, marks=None, filled=(), cell=32, title=None, legend=None):
    size = len(rows)
    margin = cell
    top = cell // 2 + (cell if title else 0)
    side = 2 * margin + (size - 1) * cell
    foot = (len(legend) * (cell // 2 + 4) + cell // 2) if legend else 0
    img = Image.new("RGB", (side, side + top - margin // 2 + foot), _WOOD)
    draw = ImageDraw.Draw(img)
    font = _font(max(10, cell * 2 // 5))
    y0 = top + margin // 2  # y of the top line

    def xy(name):
        x, y = point_xy(name, size, cell, margin)
        return x, y - margin + y0

    if title:
        draw.text((margin // 2, cell // 3), title, fill=_LINE, font=_font(max(12, cell // 2)))
    end = margin + (size - 1) * cell
    for i in range(size):
        p = margin + i * cell
        draw.line([(p, y0), (p, y0 + end - margin)], fill=_LINE, width=1)
        draw.line([(margin, y0 + i * cell), (end, y0 + i * cell)], fill=_LINE, width=1)
        draw.text((p, y0 - cell * 2 // 3), COLUMNS[i], fill=_LINE, font=font, anchor="mm")
        label = str(size - i)
        draw.text((margin // 3, y0 + i * cell), label, fill=_LINE, font=font, anchor="mm")
    for name in _star_points(size):
        x, y = xy(name)
        draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=_LINE)
    r = cell * 47 // 100
    filled = set(filled)
    for i, line in enumerate(rows):
        for col, ch in enumerate(line):
            if ch not in "BW":
                continue
            name = COLUMNS[col] + str(size - i)
            x, y = xy(name)
            fill, edge = (
                ((20, 20, 20), (0, 0, 0)) if ch == "B" else ((245, 245, 240), (60, 60, 60))
            )
            draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=edge)
            if name in filled:
                d = max(2, cell // 10)
                draw.ellipse([x - d, y - d, x + d, y + d], fill=(128, 128, 128))
    marks = marks or {}
    w = max(2, cell // 10)
    for name in marks.get("winning_space", ()):
        x, y = xy(name)
        draw.ellipse([x - r, y - r, x + r, y + r], outline=_RED, width=w + 1)
    for name in marks.get("open", ()):
        x, y = xy(name)
        draw.ellipse([x - r // 2, y - r // 2, x + r // 2, y + r // 2], outline=_BLUE, width=w)
    for name in marks.get("losing", ()):
        x, y = xy(name)
        d = r * 6 // 10
        draw.line([(x - d, y - d), (x + d, y + d)], fill=_RED, width=w + 1)
        draw.line([(x - d, y + d), (x + d, y - d)], fill=_RED, width=w + 1)
    for kind, colour in (("compensation", _BLUE), ("penalty", _ORANGE)):
        for name in marks.get(kind, ()):
            x, y = xy(name)
            d = r * 4 // 10
            draw.rectangle([x - d, y - d, x + d, y + d], outline=colour, width=w)
    for name in marks.get("last", ()):
        x, y = xy(name)
        d = r // 2
        draw.ellipse([x - d, y - d, x + d, y + d], outline=_RED, width=w)
    if legend:
        y = side + top - margin // 2 + cell // 4
        for line in legend:
            draw.text((margin // 2, y), line, fill=_LINE, font=font)
            y += cell // 2 + 4
    return img


def _star_points(size):
    if size < 7:
        return []
    edge = 2 if size < 13 else 3
    lines = [edge, size - 1 - edge]
    if size % 2 and size >= 9:
        lines.insert(1, size // 2)
    out = []
    for c in lines:
        for r in lines:
            if size < 13 and len(lines) == 3 and (c == size // 2) != (r == size // 2):
                continue  # 9x9: the four corners and the centre
            out.append(COLUMNS[c] + str(r + 1))
    return out

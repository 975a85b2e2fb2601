"""A readable schematic of each board as a PNG: every kind of part drawn once or a few times
as a box with its pins, each pin labelled with the net it is on (a net-label schematic: pins
with the same label are connected). Drawn with Pillow from the netlist model, so it shows the
very connections the boards are made from. Runs with Debian's python3 (Pillow) in make hardware.
"""

import os

from PIL import Image, ImageDraw, ImageFont

from hardware.electronics import netlist
from hardware.electronics import parts as pt

# What each board's drawing shows: (reference, caption). The rest repeat a drawn pattern and
# are named in the captions.
SHOWN = {
    "sensor_strip": [
        ("J1", "to the controller (40-way ribbon)"),
        ("U1", "column A sensor; U2-U19 the same for columns B-T (SIG_x, VCC_x)"),
        ("C1", "bypass of U1; C2-C19 the same"),
    ],
    "controller": [
        ("A1", "Pico 2 / Pico 2 W / Pico module (socketed)"),
        ("U1", "first-level mux of group 0; U2-U23 the same with group g's sensors 16g..16g+15"),
        ("U24", "second-level mux, bank 0 (groups 0-15)"),
        ("U25", "second-level mux, bank 1 (groups 16-22)"),
        ("U26", "power decoder, bank 0"),
        ("U27", "power decoder, bank 1"),
        ("Q1", "group 0 supply switch; Q2-Q23 the same for groups 1-22"),
        ("C1", "group 0 supply capacitor; C2-C23 the same"),
        ("C24", "decoupling of U1; C25-C50 the same for U2-U27 (+3V3 to GND)"),
        ("J1", "strip of line 19; J2-J19 the same for lines 18-1 (see pinmap.md, Grid)"),
        ("J20", "clock unit"),
        ("R1", "pull resistors R1-R22: one per line, defined at boot (electrical.md)"),
        ("R10", "bank 0 enable pull-up: decoders off while the MCU boots"),
        ("R23", "buzzer series resistor"),
        ("J21", "bowl B (J22: bowl W)"),
        ("J23", "battery"),
        ("J24", "power switch"),
        ("D1", "battery to VSYS"),
        ("U28", "charger"),
        ("R24", "charge current"),
        ("R25", "charge LED resistor"),
        ("D2", "charge LED"),
        ("C51", "charger input"),
        ("C52", "charger output"),
    ],
}


def _font(size):
    try:
        return ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", size)
    except OSError:
        return ImageFont.load_default()


def _symbol(board, ref, caption, font, small):
    """An image of one part: a box, pins left and right, net labels outside."""
    key = board.parts[ref]
    p = pt.part(key)
    pins = sorted(p["pins"].items(), key=lambda kv: netlist._node_key(("", kv[0])))
    half = (len(pins) + 1) // 2
    left, right = pins[:half], pins[half:][::-1]
    if len(pins) == 40 and key == "pico2":  # the module's own layout: 1-20 down, 40-21 up
        left, right = pins[:20], pins[20:][::-1]
    if key.startswith("hdr_"):  # connectors: odd pins left, even right, as on the board
        left = [x for x in pins if x[0] % 2]
        right = [x for x in pins if not x[0] % 2]
    row = 16
    label_w = 170
    box_w = 150
    h = max(len(left), len(right)) * row + 50
    w = 2 * label_w + box_w + 20
    img = Image.new("RGB", (w, h + 34), "white")
    d = ImageDraw.Draw(img)
    bx = label_w + 10
    d.rectangle([bx, 30, bx + box_w, h], outline="black", width=2)
    d.text(
        (bx + box_w / 2, 14), "%s  %s" % (ref, p["value"]), fill="black", font=font, anchor="mm"
    )
    for side, items in ((0, left), (1, right)):
        for k, (num, (name, _t)) in enumerate(items):
            y = 44 + k * row
            net = board.net_of(ref, num) or "(not connected)"
            if side == 0:
                d.line([bx - 14, y, bx, y], fill="black")
                d.text((bx + 4, y), "%s %s" % (num, name), fill="black", font=small, anchor="lm")
                d.text((bx - 16, y), net, fill=(0, 70, 160), font=small, anchor="rm")
            else:
                d.line([bx + box_w, y, bx + box_w + 14, y], fill="black")
                d.text(
                    (bx + box_w - 4, y),
                    "%s %s" % (name, num),
                    fill="black",
                    font=small,
                    anchor="rm",
                )
                d.text((bx + box_w + 16, y), net, fill=(0, 70, 160), font=small, anchor="lm")
    d.text((6, h + 8), caption[:70], fill=(90, 90, 90), font=small)
    if len(caption) > 70:
        d.text((6, h + 21), caption[70:140], fill=(90, 90, 90), font=small)
    return img


def draw(board, path, columns=4):
    font, small = _font(14), _font(11)
    tiles = [_symbol(board, ref, cap, font, small) for ref, cap in SHOWN[board.name]]
    cw = max(t.width for t in tiles)
    rows = [tiles[k : k + columns] for k in range(0, len(tiles), columns)]
    heights = [max(t.height for t in r) for r in rows]
    title_h = 60
    out = Image.new("RGB", (cw * min(columns, len(tiles)), sum(heights) + title_h), "white")
    d = ImageDraw.Draw(out)
    d.text(
        (10, 10),
        "%s - netlist schematic (pins with the same blue label are connected)" % board.title,
        fill="black",
        font=_font(18),
    )
    d.text(
        (10, 36),
        "generated from firmware/ingboard/board_config.py and hardware/electronics/parts.py;"
        " every connection: %s.net" % board.name,
        fill=(90, 90, 90),
        font=small,
    )
    y = title_h
    for r, hgt in zip(rows, heights):
        for k, t in enumerate(r):
            out.paste(t, (k * cw, y))
        y += hgt
    out.save(path, optimize=True)


def main():
    for name in netlist.BOARDS:
        board = netlist.build(name)
        draw(
            board,
            os.path.join(netlist.KICAD_DIR, name, name + "-schematic.png"),
            3 if name == "sensor_strip" else 4,
        )


if __name__ == "__main__":
    main()

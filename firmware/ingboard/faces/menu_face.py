"""The menus' face, 128x64: draws a screen of menus/menu.py onto a display.

Layout (y): 0-8 the title in an inverted bar; 11-51 up to six list rows of 7 px (label left,
value right; the selected row inverted, a value being changed between < >); 55 a rule; 58 the
keys' meaning. A confirmation lists its text and each player's answer. The health map page is
drawn by board_face.health from the rows the app gives. Same font and fill_rect-only drawing
as clock_face.py, so the bytes match on the board, under MicroPython and in the host's PNGs.
"""

from micropython import const

from ingboard.faces import board_face
from ingboard.faces.clock_face import WIDTH, text, text_width

_ROW_Y = const(11)
_ROW_H = const(7)
_FOOTER_Y = const(58)


def draw(fb, screen, health_rows=None):
    """Paint a menu screen (Menu.screen()) onto fb; `health_rows` for the health page."""
    kind, title, rows, footer = screen
    if kind == "health":
        board_face.health(fb, health_rows or [])
        text(fb, board_face.TEXT_X + 1, _FOOTER_Y, footer)
        return
    fb.fill(0)
    fb.fill_rect(0, 0, WIDTH, 9, 1)
    text(fb, 2, 2, title, 0)
    if kind == "list":
        y = _ROW_Y
        for label, value, selected, editing in rows:
            ink = 1
            if selected:
                fb.fill_rect(0, y - 1, WIDTH, _ROW_H, 1)
                ink = 0
            text(fb, 2, y, label, ink)
            if value:
                shown = "< %s >" % value if editing else value
                text(fb, WIDTH - 2 - text_width(shown), y, shown, ink)
            y += _ROW_H
    else:
        y = _ROW_Y + 2
        for line in rows:
            text(fb, 2, y, line)
            y += _ROW_H + 1
    fb.fill_rect(0, _FOOTER_Y - 3, WIDTH, 1, 1)
    text(fb, 2, _FOOTER_Y, footer)

"""The calibration mode's face, 128x64, the same on both displays while a host calibrates the
board (`ingboard calibrate`; app/inputs.py calibrate_mode): the stones and the bowls are not
the game's then, and a player who walks up must not take the game clock for a board that
plays. Imported to draw it and dropped after (app/standalone.py): rarely shown, its code is no
game's heap.

Layout (y): 0-8 an inverted bar saying who set the mode; 20-29 CALIBRATING, the small font at
twice its size (clock_face's glyph rows at scale 2); 39 and 47 what it means. Same font and
fill_rect/blit drawing as clock_face.py, so the bytes match on the board, under MicroPython
and in the host's PNGs.
"""

from micropython import const

from ingboard import gc_policy
from ingboard.faces.clock_face import (
    _SMALL_BITS,
    _SMALL_CHARS,
    WIDTH,
    _row,
    _small_rows,
    text,
    text_width,
)

TITLE = "CALIBRATING"
LINES = ("INGBOARD CALIBRATE", "STONES ARE NOT MOVES", "THE GAME IGNORES THE BOARD")
_TITLE_Y = const(20)
_LINE_Y = const(39)


def _centred(fb, y, s, c=1):
    text(fb, (WIDTH - text_width(s)) // 2, y, s, c)


def _twice(fb, y, s):
    # s in the small font at twice its size, centred: clock_face's glyph rows, each run of set
    # bits one fill_rect (its _row) at scale 2.
    x = (WIDTH - 2 * text_width(s)) // 2
    for ch in s:
        i = _SMALL_CHARS.find(ch)
        if i < 0:
            raise ValueError("no glyph for %r" % (ch,))
        rows = _small_rows(_SMALL_BITS[i])
        for r in range(5):
            if rows[r]:
                _row(fb, x, y + 2 * r, rows[r], 3, 2, 1)
        x += 8


def draw(fb):
    """Paint the calibration mode's face onto fb; this module's code is dropped after (loaded
    again for the next drawing: the face is drawn once a display for a mode)."""
    fb.fill(0)
    fb.fill_rect(0, 0, WIDTH, 9, 1)
    _centred(fb, 2, LINES[0], 0)
    _twice(fb, _TITLE_Y, TITLE)
    _centred(fb, _LINE_Y, LINES[1])
    _centred(fb, _LINE_Y + 8, LINES[2])
    gc_policy.drop(__name__)

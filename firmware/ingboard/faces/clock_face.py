"""One player's clock face, 128x64 monochrome (an SSD1306 per side), drawn from the clock.

`draw(fb, clock, color, now_ms)` paints onto any framebuf-like object that has `fill(c)` and
`fill_rect(x, y, w, h, c)`: MicroPython's `framebuf.FrameBuffer`, the micropython-lib `ssd1306`
driver (a FrameBuffer subclass: call its `show()` afterwards), or the CPython stand-in
host_tools/cpython_shims/framebuf.py. Every pixel is drawn by `fill_rect` from the two bitmap
fonts below (not framebuf's own `text()`), so a face is identical on the board, under
MicroPython on a PC and in the host's PNGs (tests compare them byte for byte).

Layout (y): 0-8 header bar (colour disc, BLACK/WHITE, time system; inverted while this side's
clock runs), 13-33 the time in big digits (basic time, or the current period's time once in
overtime; whole seconds rounded up, H:MM:SS from one hour), 40 status (period, byo-yomi periods
left, Canadian stones, paused, lost on time), 49 the penalty points of both players and the net
(Ing PP, Ing 1991 Art. 7 (1)), 58 moves made.
"""

from micropython import const

WIDTH = const(128)
HEIGHT = const(64)
_BIG = const(3)  # scale of the 5x7 digits
_HEADER_H = const(9)
_TIME_Y = const(13)
_STATUS_Y = const(40)
_PENALTY_Y = const(49)
_MOVES_Y = const(58)

# 3x5 font: 15 bits per glyph, rows top to bottom, 3 bits each, high bit = left column.
# _SMALL_BITS[i] is the glyph of _SMALL_CHARS[i]: a string and a tuple of small ints are
# constants of the code (flash on a ROMFS image), where a dict of them was ~430 bytes of heap.
_SMALL_CHARS = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ:/+-.x?!<>()=,"
_SMALL_BITS = (
    0,  # (space)
    0b111101101101111,  # 0
    0b010110010010111,  # 1
    0b111001111100111,  # 2
    0b111001111001111,  # 3
    0b101101111001001,  # 4
    0b111100111001111,  # 5
    0b111100111101111,  # 6
    0b111001001010010,  # 7
    0b111101111101111,  # 8
    0b111101111001111,  # 9
    0b010101111101101,  # A
    0b110101110101110,  # B
    0b011100100100011,  # C
    0b110101101101110,  # D
    0b111100110100111,  # E
    0b111100110100100,  # F
    0b011100101101011,  # G
    0b101101111101101,  # H
    0b111010010010111,  # I
    0b001001001101010,  # J
    0b101101110101101,  # K
    0b100100100100111,  # L
    0b101111101101101,  # M
    0b110101101101101,  # N
    0b010101101101010,  # O
    0b110101110100100,  # P
    0b010101101110011,  # Q
    0b110101110101101,  # R
    0b011100010001110,  # S
    0b111010010010010,  # T
    0b101101101101111,  # U
    0b101101101101010,  # V
    0b101101101111101,  # W
    0b101101010101101,  # X
    0b101101010010010,  # Y
    0b111001010100111,  # Z
    0b000010000010000,  # :
    0b001001010100100,  # /
    0b000010111010000,  # +
    0b000000111000000,  # -
    0b000000000000010,  # .
    0b000101010101000,  # x
    0b111001011000010,  # ?
    0b010010010000010,  # !
    0b001010100010001,  # <
    0b100010001010100,  # >
    0b010100100100010,  # (
    0b010001001001010,  # )
    0b000111000111000,  # =
    0b000000000010100,  # ,
)

# 5x7 digits (and "-"): 7 rows of 5 bits each, high bit = left column.
_DIGITS = (
    b"\x0e\x11\x11\x11\x11\x11\x0e"  # 0
    b"\x04\x0c\x04\x04\x04\x04\x0e"  # 1
    b"\x0e\x11\x01\x02\x04\x08\x1f"  # 2
    b"\x1f\x02\x04\x02\x01\x11\x0e"  # 3
    b"\x02\x06\x0a\x12\x1f\x02\x02"  # 4
    b"\x1f\x10\x1e\x01\x01\x11\x0e"  # 5
    b"\x06\x08\x10\x1e\x11\x11\x0e"  # 6
    b"\x1f\x01\x02\x04\x08\x08\x08"  # 7
    b"\x0e\x11\x11\x0e\x11\x11\x0e"  # 8
    b"\x0e\x11\x11\x0f\x01\x02\x0c"  # 9
    b"\x00\x00\x00\x1f\x00\x00\x00"  # -
)
_DASH = const(10)

# 7x7 discs marking the player's colour: Black filled, White an outline.
_STONE_B = b"\x1c\x3e\x7f\x7f\x7f\x3e\x1c"
_STONE_W = b"\x1c\x22\x41\x41\x41\x22\x1c"

_LABELS = {
    "none": "NO CLOCK",
    "absolute": "ABSOLUTE",
    "ing-pp": "ING PP",
    "byoyomi": "BYO-YOMI",
    "canadian": "CANADIAN",
    "fischer": "FISCHER",
}


def _row(fb, x, y, bits, width, scale, c):
    # One glyph row: each run of set bits is one fill_rect.
    col = 0
    while col < width:
        if bits & (1 << (width - 1 - col)):
            start = col
            while col < width and bits & (1 << (width - 1 - col)):
                col += 1
            fb.fill_rect(x + start * scale, y, (col - start) * scale, scale, c)
        else:
            col += 1


# Glyphs as small framebufs, made on first use by the same _row calls, then drawn with one
# blit each where the target has blit() (framebuf's): a face costs a few ms on the RP2040
# instead of ~100 (issue 20, "A CPU budget"), with the same pixels. Per font (small, big,
# stone) char -> fb, looked up before anything is made (a glyph's rows, made at every
# character, were ~0.5 ms of the RP2040's time each: a status line took 13 ms).
_GLYPHS = ({}, {}, {})
_INK0 = []  # a 2x1 palette mapping 1 -> 0 (and 0 -> 1, the key): glyphs drawn in colour 0


def _glyph(font, ch, w, h, rows, scale):
    # Makes font's glyph for ch (first use) and keeps it in _GLYPHS.
    import framebuf

    # MicroPython pads MONO_VLSB's stride for its size check: room for 8-column multiples.
    buf = bytearray(((h + 7) // 8) * ((w + 7) & ~7))
    g = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB)
    for r in range(len(rows)):
        if rows[r]:
            _row(g, 0, r * scale, rows[r], w // scale, scale, 1)
    _GLYPHS[font][ch] = g
    return g


def _blit(fb, g, x, y, c):
    # (Small: frames MicroPython keeps on the C stack, once a glyph - drivers/keys.py.)
    if c:
        fb.blit(g, x, y, 0)
    else:
        _blit_ink0(fb, g, x, y)


def _blit_ink0(fb, g, x, y):
    fb.blit(g, x, y, 1, _INK0[0] if _INK0 else _ink0())


def _ink0():
    # The palette that draws a glyph's set pixels in colour 0 (made once).
    import framebuf

    pal = framebuf.FrameBuffer(bytearray(8), 2, 1, framebuf.MONO_VLSB)
    pal.pixel(0, 0, 1)
    _INK0.append(pal)
    return pal


def _small_rows(g):
    return [(g >> (3 * (4 - r))) & 7 for r in range(5)]


def text_width(s):
    """Width in pixels of s in the small font (4 px per character, no trailing gap)."""
    return len(s) * 4 - 1 if s else 0


def text(fb, x, y, s, c=1):
    """Draw s in the 3x5 font with its top-left corner at (x, y); ValueError on a glyph it
    does not have."""
    blit = hasattr(fb, "blit")
    made = _GLYPHS[0]
    for ch in s:
        i = _SMALL_CHARS.find(ch)
        if i < 0:
            raise ValueError("no glyph for %r" % (ch,))
        g = _SMALL_BITS[i]
        if blit:
            if g:
                glyph = made.get(ch)
                if glyph is None:
                    glyph = _glyph(0, ch, 3, 5, _small_rows(g), 1)
                _blit(fb, glyph, x, y, c)
            x += 4
            continue
        for r in range(5):
            bits = (g >> (3 * (4 - r))) & 7
            if bits:
                _row(fb, x, y + r, bits, 3, 1, c)
        x += 4


def big_width(s):
    # (The colons counted, no character taken out: on MicroPython each str character made is a
    # look-up of the interned strings, ~0.1 ms of the RP2040 with the app's code loaded.)
    colons = s.count(":")
    return colons * 3 * _BIG + (len(s) - colons) * 6 * _BIG - _BIG


def big(fb, x, y, s, c=1):
    """Draw digits, ':' and '-' in the 5x7 font scaled 3x (21 px high)."""
    # The characters as the bytes' codes (big_width says why).
    for code in s.encode():
        x += _big_character(fb, x, y, code, c)


def _big_character(fb, x, y, code, c):
    # One character of big() by its code (ASCII); its advance.
    if code == 58:  # ":"
        fb.fill_rect(x, y + 2 * _BIG, _BIG, _BIG, c)
        fb.fill_rect(x, y + 4 * _BIG, _BIG, _BIG, c)
        return 3 * _BIG
    if code == 45:  # "-"
        i = _DASH
    elif 48 <= code <= 57:  # "0".."9"
        i = code - 48
    else:
        raise ValueError("no big glyph for %r" % (chr(code),))
    if hasattr(fb, "blit"):
        g = _GLYPHS[1].get(code)
        if g is None:
            g = _glyph(1, code, 5 * _BIG, 7 * _BIG, _DIGITS[i * 7 : i * 7 + 7], _BIG)
        _blit(fb, g, x, y, c)
        return 6 * _BIG
    for r in range(7):
        bits = _DIGITS[i * 7 + r]
        if bits:
            _row(fb, x, y + r * _BIG, bits, 5, _BIG, c)
    return 6 * _BIG


def _stone(fb, color, c):
    stone = _STONE_B if color == 1 else _STONE_W
    if hasattr(fb, "blit"):
        g = _GLYPHS[2].get(color)
        if g is None:
            g = _glyph(2, color, 7, 7, stone, 1)
        _blit(fb, g, 2, 1, c)
        return
    for r in range(7):
        _row(fb, 2, 1 + r, stone[r], 7, 1, c)


def clock_text(ms):
    """Time left as the face shows it: whole seconds rounded up; H:MM:SS from one hour."""
    s = (ms + 999) // 1000 if ms > 0 else 0
    h = s // 3600
    m = (s // 60) % 60
    if h:
        return "%d:%02d:%02d" % (h, m, s % 60)
    return "%d:%02d" % (m, s % 60)


def _short(ms):
    # A period length for the status line: "30S", "10:00".
    s = (ms + 999) // 1000
    if s < 60:
        return "%dS" % s
    return clock_text(ms)


def lines(clock, color, now_ms):
    """(header label, big time, status, penalty line, moves line) of color's face."""
    return _lines(clock, color, now_ms)[0]


def _lines(clock, color, now_ms):
    # lines(), and the ms of the time shown (None: no time shown).
    main, period, left, stones, points, forfeit = clock.player(color, now_ms)
    opp_points = clock.player(3 - color, now_ms)[4]
    system = clock.system
    if system == "none":
        time = "-:--"
        ms = None
    else:
        ms = left if period else main
        time = clock_text(ms)
    status, penalty, moves = _said(clock, color, period, stones, points, opp_points, forfeit)
    return (_LABELS[system], time, status, penalty, moves), ms


# Per side (Black's, White's): the clock and the values its face's text but the time was last
# made from, then that text (_said).
_SAID = [None, None]


def _said(clock, color, period, stones, points, opp_points, forfeit):
    # The face's status, penalty and moves lines: made again only when what they say changed.
    # A running clock's face is painted every second, and making them each time was most of
    # the ~0.8 KB of garbage a paint made (an idle board's collections, issue 32).
    moves = clock.moves(color)
    memo = _SAID[color - 1]
    if (
        memo is not None
        and memo[0] is clock
        and memo[1] == period
        and memo[2] == stones
        and memo[3] == points
        and memo[4] == opp_points
        and memo[5] == forfeit
        and memo[6] == clock.loser
        and memo[7] == clock.started
        and memo[8] == clock.paused
        and memo[9] == moves
    ):
        return memo[10]
    system = clock.system
    if forfeit:
        status = "LOST ON TIME"
    elif clock.loser:
        status = "OPPONENT OUT OF TIME"
    elif not clock.started:
        status = "READY"
    elif clock.paused:
        status = "PAUSED"
    elif system == "ing-pp":
        status = "PERIOD %d OF %d" % (period, clock.periods) if period else "BASIC TIME"
    elif system == "byoyomi":
        if period:
            status = "BYO-YOMI %d LEFT" % (clock.periods - period + 1)
        else:
            status = "BASIC  THEN %dx%s" % (clock.periods, _short(clock.period_ms))
    elif system == "canadian":
        if period:
            status = "%d OF %d STONES LEFT" % (stones, clock.stones)
        else:
            status = "BASIC  THEN %d/%s" % (clock.stones, _short(clock.period_ms))
    elif system == "fischer":
        status = "+%s PER MOVE" % _short(clock.increment_ms)
    elif system == "absolute":
        status = "SUDDEN DEATH"
    else:
        status = "NO TIME LIMIT"
    penalty = ""
    if system == "ing-pp":
        b, w = (points, opp_points) if color == 1 else (opp_points, points)
        # Ing 1991 Art. 7 (1): "opposing penalty points cancel" (as at now_ms, like b and w).
        net_text = "NET 0" if b == w else "NET %s%d" % ("B" if b > w else "W", abs(b - w))
        penalty = "PENALTY B%d W%d  %s" % (b, w, net_text)
    said = (status, penalty, "MOVES %d" % moves)
    _SAID[color - 1] = [
        clock, period, stones, points, opp_points, forfeit,
        clock.loser, clock.started, clock.paused, moves, said,
    ]  # fmt: skip
    return said


# The face's parts, each in a band of rows no other part draws in: (first row, rows).
_BANDS = ((0, _HEADER_H), (_TIME_Y, 7 * _BIG), (_STATUS_Y, 5), (_PENALTY_Y, 5), (_MOVES_Y, 5))
PARTS = const(5)
# The columns [first, end) draw_part() painted last: the whole width, or a time part's changed
# characters (a clock's seconds: 18 of 128 columns), which is all a display need be sent.
COLUMNS = [0, WIDTH]


def parts(clock, color, now_ms):
    """What each part of color's face shows at now_ms: a tuple of PARTS values, equal when
    the part looks the same (the header's: whether this side's clock runs, and the label)."""
    return parts_until(clock, color, now_ms)[0]


def parts_until(clock, color, now_ms):
    """(parts(), ms): for how long from now_ms the time shown stays the same while color's
    clock runs (to its next whole second: the face shows whole seconds rounded up), None when
    it does not run - the rest changes only with the clock's events and the moves."""
    (label, time, status, penalty, moves), ms = _lines(clock, color, now_ms)
    on = clock.running() and clock.turn == color
    stays = (ms - 1) % 1000 + 1 if on and ms is not None and ms > 0 else None
    return ((on, label), time, status, penalty, moves), stays


def band(i):
    """(first row, rows) of part i."""
    return _BANDS[i]


def draw_part(fb, i, value, color, clear=True, old=None):
    """Paint part i of color's face showing `value` (from parts()); its band cleared first
    unless `clear` is False (a frame filled with 0 already). `old`: what the part shows now,
    where the time's characters that stay in place need no drawing again."""
    if i == 1 and clear and old is not None and _same_places(old, value):
        _changed_characters(fb, old, value)
        return
    COLUMNS[0] = 0
    COLUMNS[1] = WIDTH
    if clear:
        y, h = _BANDS[i]
        fb.fill_rect(0, y, WIDTH, h, 0)
    if i == 0:
        on, label = value
        ink = 0 if on else 1
        if on:
            fb.fill_rect(0, 0, WIDTH, _HEADER_H, 1)
        else:
            fb.fill_rect(0, _HEADER_H - 1, WIDTH, 1, 1)
        _stone(fb, color, ink)
        text(fb, 12, 2, "BLACK" if color == 1 else "WHITE", ink)
        text(fb, WIDTH - 2 - text_width(label), 2, label, ink)
    elif i == 1:
        big(fb, (WIDTH - big_width(value)) // 2, _TIME_Y, value)
    elif value:
        text(fb, 2, _BANDS[i][0], value)


def _same_places(old, new):
    # Whether each character of the time `new` sits where `old`'s does (the same length, the
    # colons at the same places): then the part is the same drawn character by character.
    # (Compared as the bytes' codes: big_width says why.)
    if len(old) != len(new):
        return False
    was = old.encode()
    now = new.encode()
    for j in range(len(now)):
        if (was[j] == 58) != (now[j] == 58):
            return False
    return True


def _changed_characters(fb, old, new):
    # The time part where only some characters changed (the seconds, most of the time): each
    # changed character's cell - the part's full height, its advance wide - cleared and
    # drawn; the same pixels as the part drawn whole (~0.5 ms of the RP2040 a big character,
    # five of them a second while a clock runs). The characters as the bytes' codes: taken
    # out of the strings one by one they were ~4 ms of the RP2040 a second (big_width).
    # (COLUMNS: from the first changed cell to the last's end.)
    x = (WIDTH - big_width(new)) // 2
    was = old.encode()
    now = new.encode()
    COLUMNS[0] = WIDTH
    COLUMNS[1] = 0
    for j in range(len(now)):
        w = 3 * _BIG if now[j] == 58 else 6 * _BIG
        if now[j] != was[j]:
            fb.fill_rect(x, _TIME_Y, w, 7 * _BIG, 0)
            _big_character(fb, x, _TIME_Y, now[j], 1)
            if x < COLUMNS[0]:
                COLUMNS[0] = x
            COLUMNS[1] = x + w
        x += w


def draw(fb, clock, color, now_ms):
    """Paint color's face (1 = BLACK, 2 = WHITE) of clock at now_ms onto fb (128x64)."""
    shown = parts(clock, color, now_ms)
    fb.fill(0)
    for i in range(PARTS):
        draw_part(fb, i, shown[i], color, False)

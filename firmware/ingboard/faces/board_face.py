"""Faces with a mini-board, 128x64: an alert to act on, the count and its fill-in plan, and
the sensor health map.

No per-point LEDs: a player sees on their clock face *where* the board needs them. The
mini-board (left, up to 57x57 px: 3 px per line on 19x19, more on smaller boards) shows the
position with Black's stones filled and White's as rings, the star points as dots, and the
point(s) to act on framed; the right half says what to do in a few words. Drawn with
clock_face's font and fill_rect only, so the bytes are the same on the board, under
MicroPython on a PC and in the host's PNGs (host_tools/menu_png.py, tests/golden/menu/).

    alert(fb, rows, event)            an `alert` event of the tracker, bowls or clock
    result(fb, count, plan, rows)     the `count` event, its plan (scoring.ing_fill_in), result
    health(fb, rows)                  classifier.health_rows(): '+' healthy, R/F/C faulty

`rows` are the board's rows, top line first ('.', 'B', 'W'): a list of strings (board.rows()),
or one string of every point (the rows joined): the app gives that, one object where a list of
19 rows is 20 (~0.6 KB less of the heap held while a face is drawn and shown).
"""

from ingrules.board import COLUMNS
from micropython import const

from ingboard.alerts import face_words
from ingboard.faces.clock_face import HEIGHT, WIDTH, text

TEXT_X = const(64)
_LINE = const(7)
_CHARS = const(16)  # characters per line in the right half


def wrap(s, width=_CHARS):
    """Words of s in lines of at most `width` characters."""
    lines = []
    line = ""
    for word in s.split(" "):
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def point_xy(name, size):
    """(column, line from the top) of a point name like "Q16"; None if not on the board."""
    if not isinstance(name, str) or len(name) < 2:
        return None
    col = COLUMNS.find(name[0].upper())
    if col < 0 or col >= size or not name[1:].isdigit():
        return None
    row = size - int(name[1:])
    if row < 0 or row >= size:
        return None
    return col, row


def _cells(rows):
    # (every point's character in one string, top line first; the board's size) of `rows`.
    if not isinstance(rows, str):
        rows = "".join(rows)
    size = 0
    while size * size < len(rows):
        size += 1
    return rows, size


def _geometry(size):
    pitch = 54 // (size - 1) if size > 1 else 6
    if pitch > 6:
        pitch = 6
    r = (pitch - 1) // 2
    return pitch, r


# Board rows drawn between two yields of the *_steps generators: a row of 19 white stones is 76
# rectangles, ~6 ms of the RP2040 (two rows a piece held a long game's last scan up, issue 32).
_ROWS_A_STEP = 1


def mini_board(fb, rows, marked=(), x0=0, y0=0):
    """The position of `rows` in the left 64x64 of fb, the points `marked` ((col, row) from the
    top) framed."""
    for _ in mini_board_steps(fb, rows, marked, x0, y0):
        pass


def mini_board_steps(fb, rows, marked=(), x0=0, y0=0):
    """mini_board() a few rows at a time: a generator that yields between them (a full 19x19
    board is ~1000 rectangles, ~0.2 s of the RP2040: the display task lets the scan run in
    between, issue 20). The frame is the same."""
    rows, size = _cells(rows)
    pitch, r = _geometry(size)
    span = pitch * (size - 1)
    ox = x0 + (63 - span) // 2
    oy = y0 + (63 - span) // 2
    edge = r + 2
    fb.fill_rect(ox - edge, oy - edge, span + 2 * edge + 1, 1, 1)
    fb.fill_rect(ox - edge, oy + span + edge, span + 2 * edge + 1, 1, 1)
    fb.fill_rect(ox - edge, oy - edge, 1, span + 2 * edge + 1, 1)
    fb.fill_rect(ox + span + edge, oy - edge, 1, span + 2 * edge + 1, 1)
    d = 3 if size >= 13 else 2
    stars = (d, size // 2, size - 1 - d) if size >= 7 else ()
    k = 0
    for row in range(size):
        y = oy + row * pitch
        for col in range(size):
            x = ox + col * pitch
            ch = rows[k]
            k += 1
            if ch == "B":
                fb.fill_rect(x - r, y - r, 2 * r + 1, 2 * r + 1, 1)
            elif ch == "W":
                w = 2 * r + 1
                fb.fill_rect(x - r, y - r, w, 1, 1)
                fb.fill_rect(x - r, y + r, w, 1, 1)
                fb.fill_rect(x - r, y - r, 1, w, 1)
                fb.fill_rect(x + r, y - r, 1, w, 1)
            elif row in stars and col in stars:
                fb.fill_rect(x, y, 1, 1, 1)
        if row % _ROWS_A_STEP == _ROWS_A_STEP - 1:
            yield
    for col, row in marked:
        x = ox + col * pitch
        y = oy + row * pitch
        k = r + 2
        fb.fill_rect(x - k + 1, y - k + 1, 2 * k - 1, 1, 0)  # a dark gap inside the frame
        fb.fill_rect(x - k + 1, y + k - 1, 2 * k - 1, 1, 0)
        fb.fill_rect(x - k + 1, y - k + 1, 1, 2 * k - 1, 0)
        fb.fill_rect(x + k - 1, y - k + 1, 1, 2 * k - 1, 0)
        fb.fill_rect(x - k, y - k, 2 * k + 1, 1, 1)
        fb.fill_rect(x - k, y + k, 2 * k + 1, 1, 1)
        fb.fill_rect(x - k, y - k, 1, 2 * k + 1, 1)
        fb.fill_rect(x + k, y - k, 1, 2 * k + 1, 1)


def _title(fb, s):
    # An inverted bar over the right half.
    fb.fill_rect(TEXT_X, 0, WIDTH - TEXT_X, 9, 1)
    text(fb, TEXT_X + 2, 2, s[:15], 0)


def _lines(fb, lines, y=12):
    for y in _lines_steps(fb, lines, y):
        pass
    return y


def _lines_steps(fb, lines, y=12):
    # _lines() a line at a time (a generator yielding the next line's y): the font's
    # rectangles take ~10-20 ms a line on the RP2040.
    for line in lines:
        if y > HEIGHT - 6:
            break
        text(fb, TEXT_X + 1, y, line[:_CHARS])
        y += _LINE
        yield y
    yield y


def _marks(names, size):
    out = []
    for name in names:
        xy = point_xy(name, size)
        if xy is not None:
            out.append(xy)
    return out


def alert(fb, rows, event):
    """An alert event: the board with its points framed, what it is and what to do."""
    for _ in alert_steps(fb, rows, event):
        pass


def alert_steps(fb, rows, event):
    """alert() a piece at a time (a generator, see mini_board_steps)."""
    fb.fill(0)
    rows, size = _cells(rows)
    points = event.get("points") or []
    yield from mini_board_steps(fb, rows, _marks(points, size))
    yield
    title, todo = face_words(event["code"])  # (alerts.py: the few words of each code)
    _title(fb, title)
    yield
    lines = []
    if points:
        lines += wrap("AT " + " ".join(points[:4]))
    lines += wrap(todo)
    for _ in _lines_steps(fb, lines):
        yield


def result(fb, count, plan, rows):
    """The count at the end: the board (the fill-in plan's final position when there is one,
    the winning space framed), the result, both counts and what to fill in."""
    for _ in result_steps(fb, count, plan, rows):
        pass


def result_steps(fb, count, plan, rows):
    """result() a piece at a time (a generator, see mini_board_steps)."""
    fb.fill(0)
    rows, size = _cells(rows)
    marked = []
    final = plan.get("final") if plan else None
    if final:
        rows = final
        space = count.get("winning_space")
        if space:
            marked = _marks([space], size)
    yield from mini_board_steps(fb, rows, marked)
    yield
    _title(fb, "RESULT " + (count.get("result") or ""))
    yield
    lines = ["BLACK %s" % _num(count.get("black")), "WHITE %s" % _num(count.get("white"))]
    komi = count.get("komi")
    if komi:
        lines.append("KOMI %s" % _num(komi))
    penalty = count.get("penalty") or {}
    if penalty.get("B") or penalty.get("W"):
        lines.append("PENALTY B%d W%d" % (penalty.get("B", 0), penalty.get("W", 0)))
    if plan:
        fill = plan.get("fill") or {}
        lines.append("FILL B%d W%d" % (fill.get("B", 0), fill.get("W", 0)))
        comp = plan.get("compensation") or {}
        if comp.get("stones"):
            lines.append("KOMI STONES %d" % comp["stones"])
    for _ in _lines_steps(fb, lines):
        yield


def _num(v):
    if v is None:
        return "-"
    if v == int(v):
        return "%d" % v
    return "%d.5" % int(v) if v > 0 else "-%d.5" % int(-v)


def health(fb, rows):
    """The health map: every faulty point framed, how many and which."""
    fb.fill(0)
    rows, size = _cells(rows)
    marked = []
    names = []
    for r in range(size):
        for c in range(size):
            if rows[r * size + c] != "+":
                marked.append((c, r))
                names.append("%s%d" % (COLUMNS[c], size - r))
    mini_board(fb, "." * (size * size), marked)
    _title(fb, "SENSOR MAP")
    if not names:
        lines = ["ALL %d POINTS" % (size * size), "READ WELL"]
    else:
        lines = ["%d FAULTY:" % len(names)] + wrap(" ".join(names[:12]))
        if len(names) > 12:
            lines.append("AND %d MORE" % (len(names) - 12))
    _lines(fb, lines)

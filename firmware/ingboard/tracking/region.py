"""A small game (9x9, 13x13, ...) played on a region of the 19x19 board (for the Tracker).

The sensor grid is the full 19x19 board and every scan is 19 rows. A game of a smaller size is
played where players put one on a full-size board: in the lower-left corner, on lines A..(size)
and 1..(size) (9x9: A1-J9; 13x13: A1-N13). Two of the small board's edges are then the real
edges of the board, so the first line, the corner and edge play look and feel as they do on a
small board; only the two inner edges (line J/9 for 9x9) are drawn lines in the middle of the
board, and both are plain to see from either seat. The coordinates printed on the board's lower
and left edges read the same as the small board's (A1 is A1), so a record read aloud matches
the board. (Ing 1991 Art. 11 "Lines": "smaller boards can be used ... 13 X 13 = 169, ...,
9 X 9 = 81"; its points are named from the bottom left, A1, as here.)

The scan's region is read as the game's board; a stone anywhere else is not part of the game:
it raises `outside-board` with the points (in the full board's names) until it is taken off,
and changes nothing in the game. The Tracker imports this module at the first full-grid scan
of a smaller game: a game of the grid's own size never loads it.
"""

from ingboard.alerts import alert_text

GRID = 19  # the sensor grid's size (board_config: every variant's)
_LETTERS = "ABCDEFGHJKLMNOPQRST"  # the full board's columns (no I)


def region_rows(rows, size):
    """The small board's rows (top line first) out of the full grid's `rows`: the lower-left
    `size` x `size` corner. Rows already the game's size are returned as they are."""
    n = len(rows)
    if n == size:
        return rows
    if n != GRID or size > GRID:
        raise ValueError(
            "a scan of %d rows is neither the %dx%d game's nor the grid's" % (n, size, size)
        )
    return [row[:size] for row in rows[n - size :]]


def outside_stones(rows, size):
    """The full board's names of the stones ('B'/'W') outside the lower-left region."""
    n = len(rows)
    out = []
    for i in range(n):
        row = rows[i]
        line = n - i  # the full board's line number (1 at the bottom)
        for col in range(len(row)):
            c = row[col]
            if (c == "B" or c == "W") and (col >= size or line > size):
                out.append("%s%d" % (_LETTERS[col], line))
    return out


def grid_rows(rows, grid=GRID):
    """The full grid's rows with the small board's `rows` in its lower-left corner (the rest
    empty): what the sensors see of a small game (the twin's field, a replay)."""
    size = len(rows)
    if size == grid:
        return list(rows)
    if size > grid:
        raise ValueError("a %dx%d board does not fit a %dx%d grid" % (size, size, grid, grid))
    empty = "." * grid
    pad = "." * (grid - size)
    return [empty] * (grid - size) + [row + pad for row in rows]


def region_scan(tracker, t, rows):
    """(the game's rows, alert events, the stones outside) of a full-grid scan for a smaller
    game; `tracker.outside` is what the last one found (the Tracker keeps the new one)."""
    size = tracker.game.board.size
    outside = tuple(outside_stones(rows, size))
    events = []
    if outside != tracker.outside:
        key = ("outside-board", -1)
        if outside and not set(outside) <= set(tracker.outside):
            # A new stone outside: said at once (it is not a move, nothing waits for it).
            tracker.active[key] = True
            tracker.notes.add(
                len(tracker.game.plies), "alert outside-board %s" % " ".join(outside)
            )
            events.append(
                {
                    "t": t,
                    "type": "alert",
                    "code": "outside-board",
                    "points": list(outside),
                    "text": alert_text("outside-board"),
                }
            )
        elif not outside and key in tracker.active:
            del tracker.active[key]  # all taken off
    return region_rows(rows, size), events, outside

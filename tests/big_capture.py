"""A short 19x19 game that ends in one big capture (issue 32): White fills a `rows` x `cols`
block in the corner (rows from the bottom edge, columns from the left), Black walls it in
and plays elsewhere meanwhile; Black's last wall stone takes the whole block (`rows * cols`
stones, e.g. 2 x 16 = 32, 4 x 15 = 60), with no capture before it. The brisk players of the
twin's long game (host_tools/twin/long_game.brisk) then lift the prisoners all at once."""


def big_capture(rows=2, cols=16, size=19):
    """The moves [(colour "b"/"w", (row, col))] (sgfmill convention: row 0 the bottom edge),
    Black first; the last one captures rows * cols white stones."""
    if not (1 <= rows and 1 <= cols and rows + 4 <= size and cols + 1 < size):
        raise ValueError("a %d x %d block does not fit a %d board" % (rows, cols, size))
    block = [(r, c) for r in range(rows) for c in range(cols)]
    wall = [(rows, c) for c in range(cols)] + [(r, cols) for r in range(rows)]
    # Black's other stones: whole lines well away from the block (every other row from the
    # top), never short of liberties, never next to a white stone.
    elsewhere = [(r, c) for r in range(size - 1, rows + 2, -2) for c in range(size)]
    need = len(block) + 1 - len(wall)  # Black moves first and last: one more than White
    if need > len(elsewhere):
        raise ValueError("no room for Black's %d other stones" % need)
    black = wall[:-1] + elsewhere[:need] + wall[-1:]
    moves = []
    for k, point in enumerate(block):
        moves.append(("b", black[k]))
        moves.append(("w", point))
    moves.append(("b", black[-1]))
    return moves

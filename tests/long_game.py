"""A long 19×19 game for the memory tests and benchmarks (issue 20): 600+ plies, legal under
Ing 1991, with many captures (some large), and never more stones of a colour on the board than
its bowl holds (180), so that the simulated players can play it from real Ing bowls.

Seeded random play: a capture when there is one, else a random quiet move, else filling an own
eye; a side with `LIMIT` stones on the board fills its own eyes first, so its groups die and go
back to the bowl. Deterministic for a seed (CPython's random.Random).
"""

import random

LIMIT = 150
SEED = 1


def long_game(plies=600, seed=SEED, size=19, rules="ing1991"):
    """The moves [(colour "b"/"w", (row, col))] of a `plies`-ply game (sgfmill convention),
    ending with two passes (so plies + 2 in all), and the largest capture in it."""
    from ingrules.board import BLACK, EDGE, EMPTY
    from ingrules.game import Game

    rng = random.Random(seed)
    g = Game(size, rules)
    board = g.board
    points = [board.index(c, r) for r in range(size) for c in range(size)]
    moves = []
    largest = 0
    while len(moves) < plies:
        color = g.to_play
        other = 3 - color
        empty = [p for p in points if board.get(p) == EMPTY]
        rng.shuffle(empty)
        captures, quiet, eyes = [], [], []
        for p in empty:
            around = [board.get(q) for q in board.neighbours(p)]
            if any(
                c == other and board.liberties(q) == 1 for q, c in zip(board.neighbours(p), around)
            ):
                captures.append(p)
            elif all(c in (color, EDGE) for c in around):
                eyes.append(p)
            else:
                quiet.append(p)
        order = captures + (eyes + quiet if board.count[color] >= LIMIT else quiet + eyes)
        for p in order:
            if g.legality(color, p) is not None:
                continue
            trial = board.copy()
            trial.place(p, color, g.rules.suicide)
            if trial.self_removed:
                continue
            ply = g.play(color, p)
            largest = max(largest, len(ply.captured))
            row, col = board.col_row(p)[1], board.col_row(p)[0]
            moves.append(("b" if color == BLACK else "w", (row, col)))
            break
        else:
            raise ValueError("seed %d: no move left at ply %d" % (seed, len(moves)))
        if max(board.count[1], board.count[2]) > 180:
            raise ValueError("seed %d: more than 180 stones of a colour" % seed)
    last = moves[-1][0]
    first = "w" if last == "b" else "b"
    moves.append((first, None))
    moves.append(("w" if first == "b" else "b", None))
    return moves, largest

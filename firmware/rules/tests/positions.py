"""Building test positions from text diagrams (shared by the firmware tests)."""

from ingrules.board import BLACK, EMPTY, WHITE
from ingrules.game import Game


def game_from(rows, rules, to_play=BLACK, komi=None):
    """A game whose starting position is `rows` (top line first; '.', 'B'/'X', 'W'/'O')."""
    g = Game(len(rows), rules, komi=komi)
    size = len(rows)
    for i, line in enumerate(rows):
        row = size - 1 - i
        for col, ch in enumerate(line):
            if ch in "BX":
                g.add_setup(g.board.index(col, row), BLACK)
            elif ch in "WO":
                g.add_setup(g.board.index(col, row), WHITE)
            elif ch not in ".+":
                raise ValueError("bad point %r" % ch)
    g.set_to_play(to_play)
    return g


def play_all(g, moves):
    """Play 'B:C3 W:pass ...' style moves; returns the plies."""
    plies = []
    for token in moves.split():
        who, where = token.split(":")
        color = BLACK if who == "B" else WHITE
        if where == "pass":
            plies.append(g.pass_move(color))
        else:
            plies.append(g.play(color, g.board.parse(where)))
    return plies


def reason(g, who, where):
    """Why `who` may not play at `where` now (None if legal); nothing changes."""
    return g.legality(BLACK if who == "B" else WHITE, g.board.parse(where))


__all__ = ("game_from", "play_all", "reason", "EMPTY")

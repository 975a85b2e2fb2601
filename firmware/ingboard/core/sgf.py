"""A compact SGF writer (FF[4]) for the games the board records.

`game_sgf(game, root=(), per_ply=())` writes the game's main line: the root with GM/FF/CA/AP,
SZ, RU, KM, HA and the setup stones (AB/AW), extra root properties (e.g. the clock's TM/OT,
players, RE, the private IP), then one node per ply with B[]/W[] (a pass is an empty move) and
that ply's extra properties (BL/WL...). Property values are escaped as SGF requires.
"""

from ingboard.core.board import BLACK
from ingboard.core.game import PASS


def escape(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def _props(pairs):
    return "".join("%s[%s]" % (name, escape(value)) for name, value in pairs)


def game_sgf(game, root=(), per_ply=()):
    """The SGF text of `game`; `root` extra (property, value) pairs, `per_ply[i]` those of
    ply i as pairs or as ready SGF text (a list aligned with game.plies; shorter is fine)."""
    board = game.board
    head = [
        ("GM", "1"),
        ("FF", "4"),
        ("CA", "UTF-8"),
        ("AP", "ingboard"),
        ("SZ", str(game.size)),
        ("RU", game.rules.name),
        ("KM", _number(game.komi)),
    ]
    if game.handicap:
        head.append(("HA", str(game.handicap)))
    out = ["(;", _props(head)]
    for color, tag in ((1, "AB"), (2, "AW")):
        points = [board.sgf(p) for p, c in game.setup if c == color]
        if points:
            out.append(tag + "".join("[%s]" % q for q in points))
    out.append(_props(root))
    out.append("\n")
    plies = game.plies
    for i in range(len(plies)):
        ply = plies[i]
        tag = "B" if ply.color == BLACK else "W"
        where = "" if ply.point == PASS else board.sgf(ply.point)
        out.append(";%s[%s]" % (tag, where))
        if i < len(per_ply) and per_ply[i]:
            extra = per_ply[i]
            out.append(extra if isinstance(extra, str) else _props(extra))
        if i % 10 == 9:
            out.append("\n")
    out.append(")\n")
    return "".join(out)


def _number(value):
    if value == int(value):
        return "%d" % int(value)
    return "%s" % value

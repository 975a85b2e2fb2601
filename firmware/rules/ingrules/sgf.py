"""A compact SGF writer (FF[4]) for the games the board records.

`game_sgf(game, root=(), per_ply=(), notes=None, final=(), app=APP)` writes the game's main
line: the root with GM/FF/CA/AP[app] (the program that wrote it, "name:version"; ingboard passes
its own), SZ, a standard RU (`GOE` for the Ing rules, `AGA`,
`Japanese`, `NZ`, ...; rulesets.py's `sgf_ru`) with the ruleset's own name in the private
property IR, KM, HA and the setup stones (AB/AW), extra root properties (the clock's TM/OT,
DT/EV/RO/PB/PW, RE, the private IP and IC), then one node per ply with B[]/W[] (a pass is an
empty move) and that ply's extra properties (BL/WL...). `notes[k]` are comments (C) for the
node after k plies (0: the root): alerts, retractions, accepted shifts. `final` are properties
of the last node: the dead stones and territory (`dead_markup`). Values are escaped as SGF
requires.

Private properties (kept by other SGF programs, read back by `ingboard score`/`replay`):
IR the ruleset's name (ing1996, aga-territory, ...), IP penalty points (B4W2), IC the handicap
compensation convention when not the ruleset's own (kss), DS the dead stones.
"""

from . import VERSION
from .board import BLACK, WHITE
from .game import MANDATORY_PASS, PASS
from .rulesets import COMPENSATION_RULES


def escape(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def _props(pairs):
    out = []
    for name, value in pairs:
        if isinstance(value, (list, tuple)):
            if value:
                out.append(name + "".join("[%s]" % escape(v) for v in value))
        else:
            out.append("%s[%s]" % (name, escape(value)))
    return "".join(out)


def _write_props(write, pairs):
    # _props(pairs) given a value at a time: the last node's territory and dead stones of a
    # long game (~300 values) made one piece of ~30 ms of the RP2040 as one string.
    for name, value in pairs:
        if isinstance(value, (list, tuple)):
            if value:
                write(name)
                for v in value:
                    write("[%s]" % escape(v))
        else:
            write("%s[%s]" % (name, escape(value)))


def _write_comment(write, texts):
    # A comment at a time, not joined: a board swept clear raises an alert per stone, ~200
    # comments at one ply late in a game, ~8 KB as one string (issue 20).
    if texts:
        write("C[")
        for k in range(len(texts)):
            write(("\n" if k else "") + escape(texts[k]))
        write("]")


APP = "ingrules:" + VERSION  # the AP property when the caller names no program


def game_sgf(game, root=(), per_ply=(), notes=None, final=(), app=APP):
    """The SGF text of `game`; `root` extra (property, value) pairs, `per_ply[i]` those of
    ply i as pairs or as ready SGF text (a list aligned with game.plies; shorter is fine);
    `notes` {plies: [comment, ...]}; `final` (property, [values]) pairs for the last node;
    `app` the AP value, "name:version" of the program that wrote the record."""
    out = []
    write_sgf(out.append, game, root, per_ply, notes, final, app)
    return "".join(out)


def write_sgf(write, game, root=(), per_ply=(), notes=None, final=(), app=APP):
    """The same text given piece by piece to write(str) - a file's write on the board, so that
    a long game's SGF is never one large block of memory (issue 20)."""
    board = game.board
    rules = game.rules
    head = [
        ("GM", "1"),
        ("FF", "4"),
        ("CA", "UTF-8"),
        ("AP", app),
        ("SZ", str(game.size)),
        ("RU", rules.sgf_ru),
        ("IR", rules.name),
        ("KM", _number(game.komi)),
    ]
    if game.handicap:
        head.append(("HA", str(game.handicap)))
    if game.compensation != COMPENSATION_RULES:
        head.append(("IC", game.compensation))
    write("(;")
    write(_props(head))
    for color, tag in ((BLACK, "AB"), (WHITE, "AW")):
        points = [board.sgf(p) for p, c in game.setup if c == color]
        if points:
            write(tag + "".join("[%s]" % q for q in points))
    write(_props(root))
    notes = notes or {}
    plies = game.plies
    if not plies:
        _write_props(write, final)
    _write_comment(write, notes.get(0))
    write("\n")
    handicap_plays = 0
    for i in range(len(plies)):
        ply = plies[i]
        tag = "B" if ply.color == BLACK else "W"
        where = "" if ply.point == PASS else board.sgf(ply.point)
        write(";%s[%s]" % (tag, where))
        if i < len(per_ply) and per_ply[i]:
            extra = per_ply[i]
            write(extra if isinstance(extra, str) else _props(extra))
        texts = notes.get(i + 1) or []
        if ply.kind == MANDATORY_PASS:
            # Ing 1991 Art. 10 "Recorder": odd numbers for Black's plays, even for White's;
            # "Pass plays should be numbered and recorded" - the node's number is the play's.
            handicap_plays += 1
            texts = [
                "%d: White's mandatory pass play (handicap play %d)" % (i + 1, handicap_plays)
            ]
            texts += notes.get(i + 1) or []
        if i == len(plies) - 1:
            _write_props(write, final)
        _write_comment(write, texts)
        if i % 10 == 9:
            write("\n")
    write(")\n")


def _number(value):
    if value == int(value):
        return "%d" % int(value)
    return "%s" % value

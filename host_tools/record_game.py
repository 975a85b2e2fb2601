"""A game record (host_tools.sgf_input) played through the firmware's rules core."""

from ingboard.core import rulesets
from ingboard.core.board import BLACK, EMPTY, WHITE
from ingboard.core.game import Game, IllegalMove

import host_tools  # noqa: F401  (firmware on sys.path)
from host_tools.errors import InputError

COLOURS = {"b": BLACK, "w": WHITE}


def rules_name(record, override=None):
    name = override or record.rules or "ing1991"
    if name not in rulesets.RULESETS:
        raise InputError("unknown rules %r (known: %s)" % (name, ", ".join(rulesets.NAMES)))
    return name


def new_game(record, rules):
    """An empty Game with the record's size, komi and setup stones (AB/AW/AE, PL)."""
    try:
        game = Game(record.size, rules, komi=record.komi if record.komi is not None else None)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    board = game.board
    for colour, (row, col) in record.setup:
        game.add_setup(board.index(col, row), COLOURS[colour] if colour else EMPTY)
    if record.to_play:
        game.set_to_play(COLOURS[record.to_play])
    elif record.setup and record.moves and record.moves[0][0] == "w":
        game.set_to_play(WHITE)  # handicap stones set up: White moves first
    return game


def play_record(game, record, on_move=None):
    """Play the record's moves; on_move(n, colour, point, ply or None, reason) per move.
    Returns the number of the first illegal move, or None when all were legal."""
    board = game.board
    for n, (colour, point) in enumerate(record.moves, 1):
        color = COLOURS[colour]
        try:
            if point is None:
                ply = game.pass_move(color)
            else:
                row, col = point
                ply = game.play(color, board.index(col, row))
        except IllegalMove as exc:
            if on_move:
                on_move(n, color, point, None, exc.reason)
            return n
        if on_move:
            on_move(n, color, point, ply, None)
    return None

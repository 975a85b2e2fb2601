"""A game record (host_tools.sgf_input) played through the firmware's rules core."""

from ingrules import rulesets
from ingrules.board import BLACK, EMPTY, WHITE
from ingrules.game import MANDATORY_PASS, Game, IllegalMove

import host_tools  # noqa: F401  (firmware on sys.path)
from host_tools.errors import InputError

COLOURS = {"b": BLACK, "w": WHITE}


def rules_name(record, override=None):
    name = override or record.rules or "ing1991"
    if name not in rulesets.NAMES:
        raise InputError("unknown rules %r (known: %s)" % (name, ", ".join(rulesets.NAMES)))
    return name


def new_game(record, rules, compensation=None):
    """An empty Game with the record's size, komi, handicap (HA) and setup stones (AB/AW/AE,
    PL). With HA and Black setup stones, those are the handicap stones wherever they stand
    (the ruleset's compensation for them applies); with HA and none under Ing rules, the
    handicap is made of handicap plays, White's mandatory passes in the moves (Ing 1991
    Art. 6, Ing 1996 Rule 3). `compensation` (else the record's IC): the handicap convention."""
    handicap = record.handicap or 0
    black_setup = [p for colour, p in record.setup if colour == "b"]
    style = rulesets.HANDICAP_FREE if handicap and black_setup else None
    try:
        game = Game(
            record.size,
            rules,
            komi=record.komi if record.komi is not None else None,
            handicap=handicap,
            handicap_style=style,
            compensation=compensation or record.compensation,
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None
    board = game.board
    for colour, (row, col) in record.setup:
        p = board.index(col, row)
        if colour == "b" and game.free_stones_left:
            game.place_handicap_stone(p)
        elif board.get(p) != (COLOURS[colour] if colour else EMPTY):
            game.add_setup(p, COLOURS[colour] if colour else EMPTY)
    if game.free_stones_left:
        raise InputError("HA[%d] but only %d black setup stones" % (handicap, len(black_setup)))
    if record.to_play:
        game.set_to_play(COLOURS[record.to_play])
    elif record.setup and record.moves and record.moves[0][0] == "w":
        game.set_to_play(WHITE)  # handicap stones set up: White moves first
    return game


def play_record(game, record, on_move=None):
    """Play the record's moves; on_move(n, colour, point, ply or None, reason) per move.
    Returns the number of the first illegal move, or None when all were legal. White's
    mandatory passes of Ing handicap plays (made by the game itself after Black's play) match
    the record's White passes at those places."""
    board = game.board
    matched = 0  # plies of the game already matched by the record's moves
    for n, (colour, point) in enumerate(record.moves, 1):
        color = COLOURS[colour]
        plies = game.plies
        if (
            point is None
            and color == WHITE
            and len(plies) > matched
            and plies[matched].kind == MANDATORY_PASS
        ):
            matched += 1
            if on_move:
                on_move(n, color, point, plies[matched - 1], None)
            continue
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
        matched = len(game.plies) - (1 if game.plies[-1].kind == MANDATORY_PASS else 0)
        if on_move:
            on_move(n, color, point, ply, None)
    return None

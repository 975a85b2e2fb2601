"""The end-of-game count of a Game under its own ruleset: area, territory or Ing fill-in.

Turns the ruleset's data (scoring method, komi, handicap compensation, draw rule, seki) into
one call to scoring.py and returns the session log's `count` event.
"""

from . import rulesets as rs
from . import scoring
from .board import BLACK, WHITE


def count_game(game, dead=(), penalty_b=0, penalty_w=0, checkpoint=None):
    """(count, plan): the `count` event for the game's final position, and for fill-in rules
    the fill-in plan (scoring.ing_fill_in), else None. `dead` names chains still on the board
    that count as captured (those removed during the pause are already off the board).
    Penalty points are the clock's (Ing 1991 Art. 7). `checkpoint()` is called between the
    slices of the fill-in plan (the app's scan checkpoint, issue 20)."""
    rules = game.rules
    board = game.board
    penalty = {"B": penalty_b, "W": penalty_w}
    kss = game.compensation == rs.COMPENSATION_KSS and game.handicap > 0
    if rules.scoring == rs.ING_FILL_IN:
        style = scoring.HANDICAP_NONE
        draw_winner = None  # Ing's own (scoring.ing_draw_winner)
        if kss:
            # Kim/Simon/Straus Part 2 "Counting" 5: N points to White, White wins ties.
            style = scoring.HANDICAP_EACH
            draw_winner = WHITE
        return scoring.ing_fill_in(
            board,
            komi=game.komi,
            penalty_b=penalty_b,
            penalty_w=penalty_w,
            handicap=kss_stones(game) if kss else game.handicap,
            handicap_style=style,
            dead=dead,
            draw_winner=draw_winner,
            checkpoint=checkpoint,
        )
    draw_winner = WHITE if kss else rules.draw_winner
    if rules.scoring == rs.AREA:
        style = scoring.HANDICAP_NONE
        if kss:
            style = scoring.HANDICAP_EACH
        elif game.handicap_style != rs.HANDICAP_ING_PLAYS:
            # AGA Rule 4: one point per stone after the first; Chinese: one per stone.
            style = (scoring.HANDICAP_NONE, scoring.HANDICAP_AFTER_FIRST, scoring.HANDICAP_EACH)[
                rules.handicap_compensation
            ]
        score = scoring.area_score(
            board,
            komi=game.komi,
            handicap=kss_stones(game) if kss else game.handicap,
            handicap_style=style,
            penalty_b=penalty_b,
            penalty_w=penalty_w,
            dead=dead,
            draw_winner=draw_winner,
        )
    else:
        # Territory: prisoners include AGA pass stones (game.prisoners counts them).
        score = scoring.territory_score(
            board,
            komi=game.komi,
            prisoners_b=game.prisoners[BLACK],
            prisoners_w=game.prisoners[WHITE],
            penalty_b=penalty_b,
            penalty_w=penalty_w,
            dead=dead,
            seki_eyes=rules.seki_territory,
            draw_winner=draw_winner,
        )
    count = {
        "type": "count",
        "black": score.black,
        "white": score.white,
        "shared": score.neutral,
        "komi": game.komi,
        "penalty": penalty,
        "difference": score.difference(),
        "result": score.result,
    }
    return count, None


def kss_stones(game):
    """The N of Kim/Simon/Straus's "N-stone handicap" for this game: Black's stones before
    White's first board play - the handicap stones, or with Ing handicap plays (Ing 1991
    Art. 6) the h+1 initial board plays of an h-play handicap. N points make area counting
    give territory counting's result, which is the convention's purpose."""
    h = game.handicap
    if game.handicap_style == rs.HANDICAP_ING_PLAYS and h:
        return h + 1
    return h

"""`ingboard score GAME.sgf [--rules R] [--dead P1,P2,...] [--json]`."""

import json
import sys

from ingrules.rulesets import NAMES

from host_tools import record_game, sgf_input
from host_tools.errors import InputError

HELP = "count the final position of an SGF (area, territory, Ing fill-in, result)"


def add_arguments(parser):
    parser.add_argument("sgf", metavar="GAME.sgf")
    parser.add_argument(
        "--rules",
        metavar="RULES",
        help="ruleset, one of: %s (default: the SGF's RU, else ing1991)" % ", ".join(NAMES),
    )
    parser.add_argument(
        "--dead",
        default=None,
        help="points of dead chains, e.g. C3,Q16 (default: the SGF's DS or TB/TW markup)",
    )
    parser.add_argument(
        "--compensation",
        choices=("rules", "kss"),
        help="handicap compensation: the ruleset's, or Kim/Simon/Straus (N points, White wins"
        " ties); default: the SGF's IC, else rules",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args):
    record = sgf_input.load(args.sgf)
    out, final = score_record(record, args.rules, args.dead, args.compensation, args.sgf)
    if out["warning"]:
        print("warning: " + out["warning"], file=sys.stderr)
    if args.json:
        print(json.dumps(out))
        return 0
    count, fill_in, plan = out["count"], out["fill_in"], out["plan"]
    print("\n".join(final.rows()))
    print("rules %s, komi %s" % (out["rules"], out["komi"]))
    print("area: B %(B)d, W %(W)d, neutral %(neutral)d" % out["area"])
    print("territory: B %(B)d, W %(W)d" % out["territory"])
    print(
        "Ing fill-in: difference %s, winning space %s, losing stones %s"
        % (fill_in["difference"], fill_in["winning_space"], fill_in["losing_stones"])
    )
    if plan and plan.get("points"):
        print("fill-in plan: %s" % _plan_text(plan))
    if out["ended"] != "count":
        print("count of the position: %s" % count["result"])
    print("result: %s" % out["result"])
    return 0


def score_record(record, rules=None, dead_text=None, compensation=None, name="SGF"):
    """(the JSON object `score --json` prints, the final board without the dead stones)."""
    rules = record_game.rules_name(record, rules)
    game = record_game.new_game(record, rules, compensation)
    illegal = record_game.play_record(game, record)
    if illegal is not None:
        raise InputError("move %d of %s is illegal under %s" % (illegal, name, rules))
    board = game.board
    if dead_text is not None:
        dead = _dead_from_option(board, dead_text)
    else:
        dead = _dead_from_record(board, record)
    try:
        return _count(record, rules, game, board, dead)
    except ValueError as exc:  # a position no set of stones can make (too many stones)
        raise InputError("%s cannot be counted: %s" % (name, exc)) from None


def _count(record, rules, game, board, dead):
    from ingrules import rulesets, scoring
    from ingrules.counting import count_game

    final = scoring.without_dead(board, dead)[0]
    black_area, white_area, neutral = scoring.area(final)
    black_terr, white_terr = scoring.territory(final, game.rules.seki_territory)
    penalty = record.penalty
    if game.rules.fill_in:
        count, plan = count_game(game, dead, penalty["B"], penalty["W"])
        fill_in = count
    else:
        fill_in, plan = scoring.ing_fill_in(
            board, komi=game.komi, handicap=game.handicap, dead=dead
        )
        count = count_game(game, dead, penalty["B"], penalty["W"])[0]
    result = count["result"]
    ended = "count"
    recorded = record.result
    if recorded and recorded[2:3] in ("R", "T", "F") and recorded[:2] in ("B+", "W+"):
        # Won without counting (Ing 1991 Art. 1 "Game"): resignation, time, forfeit - the
        # record's result stands; the count of the position is shown beside it.
        result = recorded
        ended = {"R": "resign", "T": "time", "F": "forfeit"}[recorded[2]]
    elif recorded == "Void":
        result, ended = recorded, "forfeit"  # neither player appeared (Ing 1991 Art. 8)
    warning = rulesets.komi_warning(game.rules, game.komi, game.compensation)
    out = {
        "rules": rules,
        "komi": game.komi,
        "dead": [board.name(p) for p in dead],
        "area": {"B": black_area, "W": white_area, "neutral": neutral},
        "territory": {"B": black_terr, "W": white_terr},
        "fill_in": fill_in,
        "count": count,
        "plan": _plan_summary(plan),
        "penalty": penalty,
        "compensation": game.compensation,
        "handicap": game.handicap,
        "ended": ended,
        "recorded": recorded,
        "warning": warning,
        "result": result,
    }
    return out, final


def _dead_from_option(board, text):
    dead = []
    for name in filter(None, (t.strip() for t in text.split(","))):
        try:
            p = board.parse(name)
        except ValueError as exc:
            raise InputError("--dead: %s" % exc) from None
        if board.get(p) not in (1, 2):
            raise InputError("--dead: there is no stone at %s" % name)
        dead.append(p)
    return dead


def _dead_from_record(board, record):
    """The record's dead stones: DS, else the stones standing in the other colour's TB/TW."""
    points = record.dead
    if points is None and record.territory:
        tb, tw = record.territory
        points = [rc for rc in tb if board.get(board.index(rc[1], rc[0])) == 2]
        points += [rc for rc in tw if board.get(board.index(rc[1], rc[0])) == 1]
    dead = []
    for row, col in points or ():
        p = board.index(col, row)
        if board.get(p) not in (1, 2):
            raise InputError("dead stone %s: that point is empty at the end" % board.name(p))
        dead.append(p)
    return dead


def _plan_summary(plan):
    if not plan:
        return None
    keys = ("compensation", "penalty", "shared", "fill", "losing", "points", "bowls_after")
    return {k: plan.get(k) for k in keys}


def _plan_text(plan):
    pts = plan["points"]
    comp = plan["compensation"]
    parts = []
    if pts["winning_space"]:
        parts.append("winning space %s" % " ".join(pts["winning_space"]))
    if pts["losing"]:
        parts.append("losing %s" % " ".join(pts["losing"]))
    if comp["stones"]:
        parts.append("compensation (%s) %s" % (comp["by"], " ".join(pts["compensation"])))
    if pts["penalty"]:
        parts.append("penalty %s" % " ".join(pts["penalty"]))
    if pts["shared_empty"]:
        parts.append("shared empty %s" % " ".join(pts["shared_empty"]))
    return "; ".join(parts) or "every point filled"

"""`ingboard score GAME.sgf [--rules R] [--dead P1,P2,...] [--json]`."""

import json

from host_tools import record_game, sgf_input
from host_tools.errors import InputError

HELP = "count the final position of an SGF (area, territory, Ing fill-in, result)"


def add_arguments(parser):
    parser.add_argument("sgf", metavar="GAME.sgf")
    parser.add_argument("--rules", help="ruleset (default: the SGF's RU, else ing1991)")
    parser.add_argument("--dead", default="", help="points of dead chains, e.g. C3,Q16")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args):
    record = sgf_input.load(args.sgf)
    rules = record_game.rules_name(record, args.rules)
    game = record_game.new_game(record, rules)
    illegal = record_game.play_record(game, record)
    if illegal is not None:
        raise InputError("move %d of %s is illegal under %s" % (illegal, args.sgf, rules))
    board = game.board
    dead = []
    for text in filter(None, (t.strip() for t in args.dead.split(","))):
        try:
            p = board.parse(text)
        except ValueError as exc:
            raise InputError("--dead: %s" % exc) from None
        if board.get(p) not in (1, 2):
            raise InputError("--dead: there is no stone at %s" % text)
        dead.append(p)
    try:
        return _count(args, rules, game, board, dead)
    except ValueError as exc:  # a position no set of stones can make (too many stones)
        raise InputError("%s cannot be counted: %s" % (args.sgf, exc)) from None


def _count(args, rules, game, board, dead):
    from ingboard.core import scoring
    from ingboard.core.counting import count_game

    final = scoring.without_dead(board, dead)[0]
    black_area, white_area, neutral = scoring.area(final)
    black_terr, white_terr = scoring.territory(final, game.rules.seki_territory)
    fill_in, _plan = scoring.ing_fill_in(board, komi=game.komi, handicap=game.handicap, dead=dead)
    count = count_game(game, dead=dead)[0]
    out = {
        "rules": rules,
        "komi": game.komi,
        "dead": [board.name(p) for p in dead],
        "area": {"B": black_area, "W": white_area, "neutral": neutral},
        "territory": {"B": black_terr, "W": white_terr},
        "fill_in": fill_in,
        "count": count,
        "result": count["result"],
    }
    if args.json:
        print(json.dumps(out))
    else:
        print("\n".join(final.rows()))
        print("rules %s, komi %s" % (rules, game.komi))
        print("area: B %d, W %d, neutral %d" % (black_area, white_area, neutral))
        print("territory: B %d, W %d" % (black_terr, white_terr))
        print(
            "Ing fill-in: difference %s, winning space %s, losing stones %s"
            % (fill_in["difference"], fill_in["winning_space"], fill_in["losing_stones"])
        )
        print("result: %s" % count["result"])
    return 0

"""`ingboard replay GAME.sgf [--rules R] [--json]` (see docs/command-line.md)."""

import json

from ingrules.rulesets import NAMES

from host_tools import record_game, sgf_input

HELP = "play an SGF's main line through the firmware's rules core"


def add_arguments(parser):
    parser.add_argument("sgf", metavar="GAME.sgf")
    parser.add_argument(
        "--rules",
        metavar="RULES",
        help="ruleset, one of: %s (default: the SGF's RU, else ing1991)" % ", ".join(NAMES),
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per move")


def run(args):
    from ingrules.board import color_name
    from ingrules.scoring import area

    record = sgf_input.load(args.sgf)
    game = record_game.new_game(record, record_game.rules_name(record, args.rules))
    board = game.board
    captures = {"B": 0, "W": 0}

    def on_move(n, color, point, ply, reason):
        name = "pass" if point is None else board.name(board.index(point[1], point[0]))
        caught = [board.name(q) for q in ply.captured] if ply else []
        captures[color_name(color)] += len(caught)
        if args.json:
            print(
                json.dumps(
                    {
                        "n": n,
                        "color": color_name(color),
                        "move": name,
                        "legal": ply is not None,
                        "captures": caught,
                        "reason": reason,
                    }
                )
            )
        elif ply is None:
            print("%d %s %s illegal: %s" % (n, color_name(color), name, reason))
        else:
            extra = (" captures " + " ".join(caught)) if caught else ""
            print("%d %s %s%s" % (n, color_name(color), name, extra))

    illegal = record_game.play_record(game, record, on_move)
    if illegal is not None:
        return 1
    black, white, _neutral = area(board)
    end = {
        "end": True,
        "to_play": color_name(game.to_play),
        "area": {"B": black, "W": white},
        "captures": captures,
    }
    if args.json:
        print(json.dumps(end))
    else:
        print("\n".join(board.rows()))
        print(
            "end: %s to play; area B %d W %d; captures B %d W %d"
            % (color_name(game.to_play), black, white, captures["B"], captures["W"])
        )
    return 0

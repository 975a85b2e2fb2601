"""`ingboard gtp --engine "CMD"`: the simulated board against a GTP engine (GNU Go, KataGo)."""

import sys

from ingboard.records.sgf_record import tracker_sgf
from ingrules.rulesets import NAMES

from host_tools import gtp_play
from host_tools.gtp import GtpError
from host_tools.outputs import write_all

HELP = "play on the simulated board against a GTP engine; the tracker runs behind the board"


def add_arguments(parser):
    parser.add_argument("--engine", required=True, metavar="CMD", help='e.g. "gnugo --mode gtp"')
    parser.add_argument(
        "--player",
        default="random",
        metavar="CMD|random",
        help="who makes the other side's moves at the board: a second GTP engine, or random "
        "legal moves (default)",
    )
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--engine-color", choices=("B", "W"), default="W")
    parser.add_argument(
        "--rules",
        default="ing1991",
        metavar="RULES",
        help="ruleset, one of: %s (default: %%(default)s)" % ", ".join(NAMES),
    )
    parser.add_argument("--komi", type=float, default=None, help="default: the rules' komi")
    parser.add_argument("--time", type=int, default=600, metavar="S", help="basic time (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", metavar="F", help="write the session log here")
    parser.add_argument("--sgf", metavar="F", help="write the game record here")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def run(args):
    komi = args.komi
    if komi is not None and komi == int(komi):
        komi = int(komi)
    show = (lambda text: None) if args.quiet else (lambda text: print("display: " + text))
    game = gtp_play.GtpGame(
        args.engine,
        player=args.player,
        size=args.size,
        engine_color=args.engine_color,
        rules=args.rules,
        komi=komi,
        basic_s=args.time,
        seed=args.seed,
        on_display=show,
    )
    failed = None
    try:
        summary = game.run()
    except (gtp_play.PlayError, GtpError) as exc:
        failed = str(exc)
        summary = game.summary()
    finally:
        game.close()
    outputs = {}
    if args.log:
        outputs[args.log] = game.board.session_log()
    if args.sgf:
        outputs[args.sgf] = tracker_sgf(game.board.tracker)
    write_all(outputs)
    count = summary["count"]
    if count:
        print(
            "count: Black %d, White %d, komi %s -> %s"
            % (count["black"], count["white"], count["komi"], count["result"])
        )
    print(
        "%d moves, %d passes, dead stones: %s, result %s"
        % (
            summary["moves"],
            summary["passes"],
            " ".join(summary["removed"]) or "none",
            summary["result"] or "(not finished)",
        )
    )
    if failed:
        print("ingboard gtp: the game stopped: %s" % failed, file=sys.stderr)
        return 1
    return 0

"""`ingboard simulate GAME.sgf [--noise LEVEL] [--seed N] --log F`: a game as a session log."""

import sys

from host_tools import simulate as sim
from host_tools.errors import InputError
from host_tools.outputs import is_special, write_all

HELP = "turn a game record into a realistic session log (hands, late captures, flicker, bowls)"


def add_arguments(parser):
    parser.add_argument("sgf", metavar="GAME.sgf", help="the game record (main line is played)")
    parser.add_argument(
        "--noise",
        choices=sim.NOISE_LEVELS,
        default="typical",
        help="how messy the people and sensors are (default: typical)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument(
        "--mistake",
        action="append",
        default=[],
        metavar="KIND:N",
        help="inject a mistake at move N, taken back afterwards; KIND one of "
        + ", ".join(sim.MISTAKES)
        + " (repeatable)",
    )
    parser.add_argument(
        "--finish",
        action="store_true",
        help="play the game to its end: after the record's last two passes the dead stones "
        "come off (the record's DS or 'dead:' comment), the passes or agreement that end "
        "play, the fill-in count (Ing rules) and the put-away, so the log is a finished game",
    )
    parser.add_argument("--log", required=True, metavar="F", help="session log to write")


def _parse_mistake(text):
    kind, sep, n = text.rpartition(":")
    if not sep or not n.isdigit():
        raise InputError("--mistake must be KIND:N (e.g. ko:42), not %r" % (text,))
    return kind, int(n)


def run(args):
    mistakes = [_parse_mistake(m) for m in args.mistake]
    game = sim.read_game(args.sgf)
    try:
        result = sim.simulate(game, args.noise, args.seed, mistakes, finish=args.finish)
        from ingboard.tracking.tracker import Tracker

        Tracker(result.config)  # the settings must be ones the board takes (TM, KM...)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    for note in game.notes:
        print("ingboard simulate: note: %s" % note, file=sys.stderr)
    special = is_special(args.log)  # the log goes to a pipe or /dev/stdout: say the rest aside
    write_all({args.log: result.text()})
    say = sys.stderr if special else sys.stdout
    plays = sum(1 for m in result.moves if m["point"] is not None)
    if args.finish:
        ending = result.ending or {}
        count = ending.get("count") or {}
        print(
            "finished: dead stones %s, result %s"
            % (" ".join(ending.get("dead") or []) or "none", count.get("result", "(none)")),
            file=sys.stderr,
        )
    print(
        "%s: %d plays, %d passes, %d lines, %.1f s (noise %s, seed %d)"
        % (
            args.log,
            plays,
            len(result.moves) - plays,
            len(result.lines),
            result.duration_ms / 1000.0,
            args.noise,
            args.seed,
        ),
        file=say,
    )
    return 0

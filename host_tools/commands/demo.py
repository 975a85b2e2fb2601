"""`ingboard demo [--sgf GAME] [--out DIR] [--noise L] [--seed N]`: a real game on the virtual
board, tracked by the firmware, counted Ing-style, bowls checked; SGF, log and pictures."""

import sys

from host_tools import demo
from host_tools import simulate as sim
from host_tools.errors import InputError

HELP = "play a real game on the virtual board end to end (track, count, bowls, SGF, pictures)"


def add_arguments(parser):
    parser.add_argument(
        "--sgf",
        metavar="GAME.sgf",
        help="the game record (default: the shipped 13x13 GNU Go game with its dead stones)",
    )
    parser.add_argument("--out", default=demo.DEFAULT_OUT, help="output directory (out/demo)")
    parser.add_argument("--noise", choices=sim.NOISE_LEVELS, default="typical")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument(
        "--quiet", action="store_true", help="no progress bar (shown only on a terminal)"
    )


def run(args):
    if args.out is not None and not args.out.strip():
        raise InputError("--out must name a directory")
    # A progress bar redraws one line with \r: only a person at a terminal wants that.
    progress = None if args.quiet or not sys.stderr.isatty() else sys.stderr
    summary = demo.run_demo(args.sgf, args.out, args.noise, args.seed, progress)
    for line in demo.summary_lines(summary):
        print(line)
    return 0 if summary["ok"] else 1

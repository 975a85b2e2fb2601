"""Regenerate the demo's second record: GNU Go self-play on 13x13, with its dead stones.

    .venv/bin/python -m host_tools.data.make_demo_games [--seed N] [--out PATH]

GNU Go plays both sides (`--level 6 --seed N`, komi 8, Chinese rules inside GNU Go, the record
labelled RU[ing1991] like demo_game.sgf) until two consecutive passes. The engine is then asked
`final_status_list dead`, and the dead stones go into the game comment as `dead: C7 D6 ...`
(GTP vertices; host_tools/simulate.py reads them there), with GNU Go's own `final_score`.
The record is written with sgfmill. The result is committed; this script documents how.
"""

import argparse
import os
import sys

from sgfmill import sgf

from host_tools.gtp import GtpEngine, find_gnugo, parse_vertex

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "demo_game_13.sgf")


def self_play(size, seed, komi=8, level=6):
    """(moves, dead vertices, GNU Go's score, engine name) of one self-play game."""
    gnugo = find_gnugo()
    if gnugo is None:
        raise SystemExit("GNU Go (gnugo) is not installed: run `make setup`")
    argv = [gnugo, "--mode", "gtp", "--level", str(level), "--seed", str(seed), "--chinese-rules"]
    moves = []
    with GtpEngine(argv, timeout=120) as engine:
        engine.send("boardsize %d" % size)
        engine.send("clear_board")
        engine.send("komi %s" % komi)
        colour = "b"
        passes = 0
        while passes < 2 and len(moves) < 3 * size * size:
            reply = engine.send("genmove %s" % colour)
            if reply.lower() == "resign":
                raise SystemExit("GNU Go resigned; try another --seed")
            point = parse_vertex(reply, size)
            moves.append((colour, point))
            passes = passes + 1 if point is None else 0
            colour = "w" if colour == "b" else "b"
        dead = engine.send("final_status_list dead", timeout=60).split()
        score = engine.send("final_score", timeout=60)
        name = "GNU Go %s (level %d)" % (engine.send("version"), level)
    return moves, dead, score, name


def write_record(path, size, seed, komi, moves, dead, score, name):
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("KM", komi)
    root.set("RU", "ing1991")
    root.set("PB", name)
    root.set("PW", name)
    root.set(
        "GC",
        "GNU Go self-play, seed %d; GNU Go's own count: %s; dead: %s"
        % (seed, score, " ".join(dead)),
    )
    for colour, point in moves:
        game.extend_main_sequence().set_move(colour, point)
    with open(path, "wb") as f:
        f.write(game.serialise())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    moves, dead, score, name = self_play(args.size, args.seed)
    write_record(args.out, args.size, args.seed, 8, moves, dead, score, name)
    print("%s: %d moves, dead %s, GNU Go: %s" % (args.out, len(moves), " ".join(dead), score))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Inputs of the benchmarks, all made in this run: the corpus as compact text, sgfmill's board
module for MicroPython, and the 300-move 19×19 game of the heap figure.

The corpus is the tests' generated GNU Go corpus (tests/corpus.py, cached in .cache/corpus).
sgfmill is read from the installed package (never committed): its boards.py becomes
`sgfmill_boards.py` with every package-relative import `from .X import ...` rewritten to
`from sgfmill_X import ...`, and each such X.py is copied as `sgfmill_X.py` beside it.
"""

import importlib.util
import os
import random
import re

from bench import BenchError

_RELATIVE = re.compile(r"^from \.(\w+) import ", re.M)
HEAP_PLIES = 300
HEAP_SIZE = 19


def corpus_games():
    """Every corpus game (tests/corpus.py load_game dicts), generating the corpus if needed."""
    import corpus

    try:
        return [corpus.load_game(p) for p in corpus.corpus_paths()]
    except corpus.CorpusError as exc:
        raise BenchError(str(exc)) from None


def tiny_corpus(games):
    """The corpus of `python -m bench --tiny`: the longest 19×19 game (the scan's position and
    the heap game come from it) and the shortest game of every other size."""
    out = []
    for size in sorted(set(g["size"] for g in games)):
        same = [g for g in games if g["size"] == size]
        out.append(
            max(same, key=lambda g: len(g["moves"]))
            if size == 19
            else min(same, key=lambda g: len(g["moves"]))
        )
    return out


def encode(games):
    """The games as the compact text of bench/rules_job.py: `name size moves` per line."""
    lines = []
    for game in games:
        code = []
        for colour, move in game["moves"]:
            if move is None:
                code.append(colour + "--")
            else:
                row, col = move
                code.append(colour + chr(97 + col) + chr(97 + row))
        lines.append("%s %d %s" % (game["name"], game["size"], "".join(code)))
    return "\n".join(lines) + "\n"


def sgfmill_dir():
    spec = importlib.util.find_spec("sgfmill")
    if spec is None or not spec.submodule_search_locations:
        raise BenchError("sgfmill is not installed; run `make setup`")
    return list(spec.submodule_search_locations)[0]


def sgfmill_sources(folder=None):
    """{file name: text} of sgfmill's board for MicroPython: sgfmill_boards.py, rewritten,
    and the sgfmill modules it imports from."""
    folder = folder or sgfmill_dir()
    with open(os.path.join(folder, "boards.py")) as f:
        text = f.read()
    needed = sorted(set(_RELATIVE.findall(text)))
    if not needed:
        raise BenchError("sgfmill's boards.py has no package-relative import to rewrite")
    files = {"sgfmill_boards.py": _RELATIVE.sub(r"from sgfmill_\1 import ", text)}
    for name in needed:
        with open(os.path.join(folder, name + ".py")) as f:
            body = f.read()
        if _RELATIVE.search(body):
            raise BenchError("sgfmill's %s.py has its own relative imports" % name)
        files["sgfmill_%s.py" % name] = body
    return files


def heap_game(games, plies=HEAP_PLIES, size=HEAP_SIZE, rules="ing1991"):
    """A `plies`-move game on size×size, legal under `rules`: the longest corpus game of that
    size without its closing passes, continued (if it is shorter) by deterministic quiet
    moves (legal, capturing nothing, leaving the stone's chain at least two liberties, never
    in an own eye), cut to plies-2 moves, then two passes. Returns (moves, description)."""
    from ingrules.board import EDGE, EMPTY
    from ingrules.game import Game

    candidates = [g for g in games if g["size"] == size]
    if not candidates:
        raise BenchError("the corpus has no %d×%d game" % (size, size))
    base = max(candidates, key=lambda g: len(g["moves"]))
    moves = list(base["moves"])
    while moves and moves[-1][1] is None:
        moves.pop()
    moves = moves[: plies - 2]
    g = Game(size, rules)
    for colour, move in moves:
        color = 1 if colour == "b" else 2
        if move is None:
            g.pass_move(color)
        else:
            g.play(color, g.board.index(move[1], move[0]))
    added = 0
    order = [(row, col) for row in range(size) for col in range(size)]
    random.Random(plies).shuffle(order)
    while len(moves) < plies - 2:
        color = g.to_play
        board = g.board
        for row, col in order:
            p = board.index(col, row)
            if board.get(p) != EMPTY:
                continue
            if all(board.get(q) == color for q in board.neighbours(p) if board.get(q) != EDGE):
                continue  # an own eye
            if g.legality(color, p) is not None:
                continue
            trial = board.copy()
            trial.place(p, color, g.rules.suicide)
            if trial.captured or trial.self_removed or trial.liberties(p) < 2:
                continue
            g.play(color, p)
            moves.append(("b" if color == 1 else "w", (row, col)))
            added += 1
            break
        else:
            raise BenchError("no quiet move left to extend the heap game")
    last = moves[-1][0] if moves else "w"
    first_pass = "w" if last == "b" else "b"
    moves.append((first_pass, None))
    moves.append(("w" if first_pass == "b" else "b", None))
    description = "%s (%d moves) without its closing passes%s, then 2 passes" % (
        base["name"],
        len(base["moves"]),
        (", plus %d quiet moves" % added) if added else "",
    )
    return moves, description


def to_sgf(size, moves, rules="ing1991"):
    """SGF bytes of a game (sgfmill convention moves), for host_tools.simulate."""
    from sgfmill import sgf

    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("RU", rules)
    for colour, point in moves:
        game.extend_main_sequence().set_move(colour, point)
    return game.serialise()

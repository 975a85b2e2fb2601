"""The rules-core comparison itself: runs unchanged under CPython and under MicroPython.

Input: the games as compact text, one game a line, `name size moves`, each move three
characters: colour (`b`/`w`), column and row as letters from `a` (row `a` = the bottom line,
sgfmill's convention), or colour and `--` for a pass. `sgfmill_board` is sgfmill's `Board`
class (the installed package on CPython; its boards.py text loaded into MicroPython's file
system by the host, bench/rules.py).

For each game, an untimed first replay through our core (`Game(size, rules)`) finds how many
moves the rules accept: all of them, or those before the first move the ruleset refuses, or
before the core ended the game (the move count is `limit`). Both engines then replay exactly
those moves, timed around one loop over the whole corpus per engine, in the process's CPU time
(node's under the WebAssembly port, CPython's on the host; single games are too short to time;
the boards are all built before the clock starts): ours plays every move including
passes (legality, captures, position hash, superko/Ing ko bookkeeping); sgfmill plays the
board plays (a pass is nothing to it). After each
timed replay every game's two final positions and capture counts must agree, else `Mismatch`.
"""

import gc

try:
    # MicroPython's WebAssembly port in node: the node process's CPU time (js: the port's
    # JavaScript bridge), for the reason below. Its ticks_us is the wall clock in whole
    # milliseconds: the bench's whole run (2 cores, make test and the twin beside it) once took
    # our 53 ms replays at 26 us a move instead of 14 and printed 2.28x where alone it is
    # 3.2-3.6x (2026-11-29).
    from js import process as _node

    def ticks_us():
        used = _node.cpuUsage()
        return used.user + used.system

    def ticks_diff(a, b):
        return a - b

except ImportError:
    try:
        from time import ticks_diff, ticks_us
    except ImportError:  # CPython: the process's CPU time, not the wall clock - on a machine
        # shared by many (2 cores, a dozen processes) wall time ran 7x the CPU time and swung
        # the ratio between runs from 0.4x to 1.3x; the CPU time an engine takes is compared.
        from time import process_time_ns

        def ticks_us():
            return process_time_ns() // 1000

        def ticks_diff(a, b):
            return a - b


from ingrules.game import ENDED, PASS, Game, IllegalMove


class Mismatch(Exception):
    pass


def parse_games(text):
    """[(name, size, [(colour 1/2, col, row) or (colour, -1, -1) for a pass])]."""
    games = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        parts = line.split(" ")
        name = parts[0]
        size = int(parts[1])
        code = parts[2] if len(parts) > 2 else ""
        moves = []
        for i in range(0, len(code), 3):
            colour = 1 if code[i] == "b" else 2
            if code[i + 1] == "-":
                moves.append((colour, -1, -1))
            else:
                moves.append((colour, ord(code[i + 1]) - 97, ord(code[i + 2]) - 97))
        games.append((name, size, moves))
    return games


def accepted(size, moves, rules):
    """How many moves our core accepts from the start, and why it stopped (None: all)."""
    g = Game(size, rules)
    n = 0
    for colour, col, row in moves:
        if g.phase == ENDED:
            return n, "game ended"
        try:
            if col < 0:
                g.pass_move(colour)
            else:
                g.play(colour, g.board.index(col, row))
        except IllegalMove as e:
            return n, e.reason
        n += 1
    return n, None


def prepare(size, moves, limit):
    """The moves in each engine's own form: ours (colour, padded index or PASS), sgfmill's
    (row, col, 'b'/'w') for board plays only."""
    board = Game(size, "chinese").board
    ours = []
    theirs = []
    for colour, col, row in moves[:limit]:
        if col < 0:
            ours.append((colour, PASS))
        else:
            ours.append((colour, board.index(col, row)))
            theirs.append((row, col, "b" if colour == 1 else "w"))
    return ours, theirs


def time_ours(prepared, rules):
    """One timed replay of every game through our core; (µs, [Game])."""
    played = [Game(size, rules) for _name, size, _ours, _theirs in prepared]
    gc.collect()
    t0 = ticks_us()
    k = 0
    for _name, _size, ours, _theirs in prepared:
        g = played[k]
        k += 1
        play = g.play
        pass_move = g.pass_move
        for colour, p in ours:
            if p == PASS:
                pass_move(colour)
            else:
                play(colour, p)
    return ticks_diff(ticks_us(), t0), played


def time_sgfmill(prepared, board_class):
    """One timed replay of every game's board plays through sgfmill; (µs, [Board])."""
    played = [board_class(size) for _name, size, _ours, _theirs in prepared]
    gc.collect()
    t0 = ticks_us()
    k = 0
    for _name, _size, _ours, theirs in prepared:
        play = played[k].play
        k += 1
        for row, col, colour in theirs:
            play(row, col, colour)
    return ticks_diff(ticks_us(), t0), played


def check_same(name, g, b, plays):
    """Same final position, and the same number of stones captured, in both engines."""
    size = g.size
    board = g.board
    stones = 0
    for row in range(size):
        for col in range(size):
            ours = board.get(board.index(col, row))
            theirs = b.get(row, col)
            expected = 0 if theirs is None else (1 if theirs == "b" else 2)
            if ours != expected:
                raise Mismatch(
                    "%s: final positions differ at column %d row %d (ours %d, sgfmill %r)"
                    % (name, col, row, ours, theirs)
                )
            if theirs is not None:
                stones += 1
    captured = 0
    for ply in g.plies:
        captured += len(ply.captured) + len(ply.self_removed)
    if plays - captured != stones:
        raise Mismatch(
            "%s: %d plays, ours captured %d, but sgfmill has %d stones on the board"
            % (name, plays, captured, stones)
        )


def run(games_text, board_class, rules="ing1991", repeats=3):
    """Time both engines over every game `repeats` times (interleaved); the best total of each
    engine counts. Returns a dict of plain numbers and strings (JSON-safe)."""
    games = parse_games(games_text)
    prepared = []
    stops = []
    total_moves = 0
    for name, size, moves in games:
        limit, why = accepted(size, moves, rules)
        total_moves += len(moves)
        if why is not None:
            stops.append("%s: %d of %d moves (%s)" % (name, limit, len(moves), why))
        ours, theirs = prepare(size, moves, limit)
        prepared.append((name, size, ours, theirs))
    best_ours = None
    best_theirs = None
    runs_ours = []
    runs_theirs = []
    for r in range(repeats):
        if r % 2 == 0:
            total_ours, ours_games = time_ours(prepared, rules)
            total_theirs, their_boards = time_sgfmill(prepared, board_class)
        else:
            total_theirs, their_boards = time_sgfmill(prepared, board_class)
            total_ours, ours_games = time_ours(prepared, rules)
        for k in range(len(prepared)):
            check_same(prepared[k][0], ours_games[k], their_boards[k], len(prepared[k][3]))
        ours_games = their_boards = None
        runs_ours.append(total_ours)
        runs_theirs.append(total_theirs)
        if best_ours is None or total_ours < best_ours:
            best_ours = total_ours
        if best_theirs is None or total_theirs < best_theirs:
            best_theirs = total_theirs
    plays = 0
    passes = 0
    sizes = []
    for _name, size, ours, theirs in prepared:
        plays += len(theirs)
        passes += len(ours) - len(theirs)
        if size not in sizes:
            sizes.append(size)
    return {
        "rules": rules,
        "games": len(prepared),
        "sizes": sorted(sizes),
        "corpus_moves": total_moves,
        "plays": plays,
        "passes": passes,
        "stops": stops,
        "repeats": repeats,
        "ours_us": best_ours,
        "sgfmill_us": best_theirs,
        "runs_ours_us": runs_ours,
        "runs_sgfmill_us": runs_theirs,
    }

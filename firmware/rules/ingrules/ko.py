"""Ko policies: simple ko, positional and situational superko, and the Ing ko rule.

Every policy is asked about a board play *after* the board has made it (captures and
self-removal done), so it sees the resulting position; the game undoes the play when a policy
returns a reason. Reasons are the `ingboard replay` reasons: "ko", "superko", "recycle".

A hash match never decides alone: a repetition is confirmed by comparing the positions
(`history.position(i)` rebuilds the board as it was after ply i).

The Ing ko rule is read from the Ing texts as README.md ("The Ing ko rule, as implemented")
sets out: fighting ko (hot stones of the current run of ko captures, 1991 Art. 3) and
disturbing ko (a recorded cycle start may not be made again in the same kos, "recycle").
"""

from array import array

from . import const
from .board import EMPTY, WHITE_TO_PLAY_KEY
from .rulesets import KO_ING, KO_POSITIONAL, KO_SIMPLE, KO_SITUATIONAL

PASS = const(-1)


def flood_chain(cells, seen, p, s, out, k):
    """The chain at p (a stone, unmarked in `seen`) marked 1 in `seen` and written to `out`
    from out[k] on, in the order Board.chain(p) gives it; returns the index after its last
    point (liberty_viper.flood_chain is the same walk as native code)."""
    color = cells[p]
    seen[p] = 1
    out[k] = p
    i = k
    k += 1
    while i < k:
        q = out[i]
        i += 1
        for v in (q - s, q - 1, q + 1, q + s):
            if cells[v] == color and not seen[v]:
                seen[v] = 1
                out[k] = v
                k += 1
    return k


def _native_flood():
    """liberty_viper.flood_chain where this port has a native emitter, else flood_chain."""
    try:
        from . import liberty_viper
    except (ImportError, SyntaxError, ValueError):
        return flood_chain  # no native emitter (WebAssembly), CPython, or another CPU's .mpy
    return liberty_viper.flood_chain if liberty_viper.NATIVE else flood_chain


_FLOOD = _native_flood()


def situation_key(board_hash, to_play):
    """Hash of the position together with the player to move (situational superko)."""
    return board_hash ^ WHITE_TO_PLAY_KEY if to_play == 2 else board_hash


class KoRule:
    """The ko policy of one game. `history` is the game (see game.py), providing:
    `board`, `plies` (list of Ply), `keys` (situation key before ply 0 and after each ply:
    the board hash, with WHITE_TO_PLAY_KEY mixed in when White is to play) and `position(i)`
    (cells after i plies).

    `armed`: whether check() can refuse a play at all now - always for the superko and simple
    ko policies, for Ing only during a run of ko captures or once a cycle start is recorded;
    the game asks check() only then (bench: rules)."""

    def __init__(self, policy, history):
        self.policy = policy
        self.history = history
        # Ing: the current run of ko captures (points placed) and the points of the opposing
        # chains around it; the recorded cycle starts: (ply index, point, colour).
        self.run = []
        self.run_surround = []
        self.cycle_starts = []
        self.armed = policy != KO_ING
        self._out = None  # _surrounding's points, as its walks write them (made once)

    def _arm(self):
        self.armed = self.policy != KO_ING or bool(self.run) or bool(self.cycle_starts)

    # -- asked before a play is accepted

    def check(self, color, p):
        """Reason the play just made on `history.board` is forbidden, or None."""
        policy = self.policy
        if policy == KO_ING:
            if self.run:
                captured = self.history.board.captured
                for q in self.run:
                    if q in captured:
                        return "ko"
            if self.cycle_starts:
                # Ing 1991 Art. 3 "After one cycle, the disturber is never allowed to continue
                # disturbing" (Kim/Simon/Straus 5: "once and only once during the game"): the
                # same first move of the same cycle of the same kos - its points and the walls
                # around them as they were after that move - whatever happened elsewhere.
                cells = self.history.board.cells
                for start, point, who, points, after in self.cycle_starts:
                    if who == color and point == p:
                        k = 0
                        for q in points:
                            v = after[k]
                            k += 1
                            if cells[q] != v:
                                break
                        else:
                            return "recycle"
            return None
        board = self.history.board
        if policy == KO_SIMPLE:
            return self._simple_ko(board)
        if policy == KO_POSITIONAL:
            # The same stones whoever is to play: a key of either player's situation.
            h = board.hash
            return self._repeats(h, h ^ WHITE_TO_PLAY_KEY)
        if policy == KO_SITUATIONAL:
            key = situation_key(board.hash, 3 - color)
            return self._repeats(key, key)
        return None

    def _simple_ko(self, board):
        # Basic ko: a play taking one stone may not recreate the position before the
        # opponent's last play.
        history = self.history
        n = len(history.plies)
        if n < 1 or len(board.captured) != 1 or board.self_removed:
            return None
        last = history.plies[n - 1]
        if last.point == PASS:
            return None
        # The board hash then: its situation key, the opponent (who played last) to move.
        if situation_key(history.keys[n - 1], last.color) != board.hash:
            return None
        return "ko" if bytes(board.cells) == history.position(n - 1) else None

    def _repeats(self, key, other):
        # Superko: a situation key `key` or `other` seen before, confirmed by comparing whole
        # positions (a hash match never decides alone).
        keys = self.history.keys
        if not (keys.may_contain(key) and key in keys) and not (
            other != key and keys.may_contain(other) and other in keys
        ):
            return None  # the usual case: no scan of the game's keys at all (bench: rules)
        board = self.history.board
        current = None
        for i in range(len(keys)):
            value = keys[i]
            if value == key or value == other:
                if current is None:
                    current = bytes(board.cells)
                if self.history.position(i) == current:
                    return "superko"
        return None

    # -- told after a move is accepted

    def played(self, color, p, captured, self_removed):
        """Update the Ing bookkeeping after an accepted board play (p) or pass (PASS)."""
        if self.policy != KO_ING:
            return
        if p == PASS or not captured or self_removed:
            if self.run or self.run_surround:  # no new lists on every quiet move (bench: rules)
                self.run = []
                self.run_surround = []
        elif self._ko_capture(p, captured, self.history.board):
            board = self.history.board
            chain = board.chain(p)
            surround = self._surrounding(chain, captured, board)
            # The run's surround as marks on the board (speed: its list grows along a long
            # run, and a look-up in it for each point around each ko capture made the ko
            # bookkeeping of a 600-ply game's late plies ~0.2 s of the RP2040 each).
            mark = bytearray(len(board.cells))
            for q in self.run_surround:
                mark[q] = 1
            linked = False
            for q in surround:
                if mark[q]:
                    linked = True
                    break
            if not linked:
                self.run = []
                self.run_surround = []
                mark = bytearray(len(board.cells))
            for q in chain:
                self.run.append(q)
            for q in surround:
                if not mark[q]:
                    mark[q] = 1
                    self.run_surround.append(q)
        else:
            self.run = []
            self.run_surround = []
        # Speed (bench: rules): the usual case (the new situation's key never seen before, as
        # its bit in the keys' filter tells) scans no keys; list.count runs in C per chunk.
        keys = self.history.keys
        if keys.seen_before and keys.count(keys[len(self.history.plies)]) > 1:
            self._note_cycle(captured)
        self.armed = bool(self.run or self.cycle_starts)  # _arm() inline: the Ing policy here

    def _ko_capture(self, p, captured, board):
        # The playing stone's chain has as many stones as were captured and one liberty, on a
        # point just emptied. Speed (bench: rules): most captures are told from the four
        # neighbours of p alone, with no flood: two empty neighbours are two liberties; a
        # single captured stone (always next to p) needs p to stand alone, its only empty
        # neighbour then being the emptied point.
        cells = board.cells
        s = board.stride
        color = cells[p]
        empty = 0
        alone = True
        for n in (p - s, p - 1, p + 1, p + s):
            c = cells[n]
            if c == EMPTY:
                empty += 1
            elif c == color:
                alone = False
        if empty > 1:
            return False
        if len(captured) == 1:
            return alone and empty == 1
        chain = board.chain(p)
        return (
            len(chain) == len(captured)
            and board.liberties(p) == 1
            and self._liberty_in(chain, captured, board)
        )

    def _liberty_in(self, chain, captured, board):
        cells = board.cells
        for q in chain:
            for n in board.neighbours(q):
                if cells[n] == EMPTY:
                    return n in captured
        return False

    def _surrounding(self, chain, captured, board):
        # Points of the chains (either colour) touching the ko stones or the points they
        # emptied: the groups the ko is fought between, which link the kos of one run.
        cells = board.cells
        s = board.stride
        # Marks on the board, not look-ups in the lists (speed: a wall of a hundred stones
        # was a hundred look-ups in `points` for each of its stones): 2 in the ko stones'
        # chain, 1 in `points` (another chain never holds a stone of that chain). Each chain
        # is walked once into `out` (speed: late in a long game the walls around a ko are
        # ~200 stones, and walking them chain by chain with Board.chain was 25-50 ms of the
        # RP2040 in one piece of a stone's commit - the longest wait of the board's scan;
        # natively it is well under a millisecond).
        seen = bytearray(len(cells))
        out = self._out
        if out is None or len(out) < len(cells):
            out = self._out = array("H", bytes(2 * len(cells)))
        for q in chain:
            seen[q] = 2
        k = 0
        flood = _FLOOD
        for group in (chain, captured):
            for q in group:
                for n in (q - s, q - 1, q + 1, q + s):
                    c = cells[n]
                    if (c == 1 or c == 2) and not seen[n]:
                        k = flood(cells, seen, n, s, out, k)
        return [out[i] for i in range(k)]

    def _note_cycle(self, captured):
        # A cycle is complete when the new situation repeats an earlier one and stones were
        # removed on the way; its first move is recorded against its player.
        history = self.history
        keys = history.keys
        n = len(history.plies)
        key = keys[n]
        # Speed (bench: rules): list.count runs in C, so the usual case (no earlier equal key)
        # costs no Python loop; keys[n] itself is the one match then.
        earlier = keys.count(key) - 1
        if earlier <= 0:
            return
        current = None
        for i in range(n - 1, -1, -1):
            if keys[i] != key:
                continue
            earlier -= 1
            removed = False
            moved = False
            plies = history.plies
            for k in range(i, n):
                ply = plies[k]
                if ply.captured or ply.self_removed:
                    removed = True
                    break
                if ply.point != PASS:
                    moved = True
            if not removed and not earlier:
                # Nothing is recorded whether or not the positions are equal, and no earlier
                # match is left to try: skip rebuilding the position (two passes end here).
                return
            if not removed and not moved and not history.dead:
                # Only passes since ply i and no dead stone off the board: the position is
                # the current one, no rebuild needed (the four passes that end a long game
                # rebuilt all of it: ~1.5 s of the RP2040, issue 20), and with no stone
                # removed on the way there is nothing to record.
                return
            if current is None:
                current = bytes(history.board.cells)
            if history.position(i) != current:
                continue
            if not removed:
                return
            first = history.plies[i]
            if first.point == PASS:
                return
            entry = self._cycle_entry(i, n, first)
            for known in self.cycle_starts:
                if known[1:] == entry[1:]:
                    return
            self.cycle_starts.append(entry)
            return

    def _cycle_entry(self, i, n, first):
        # The cycle's kos: every point a play of plies i..n-1 placed a stone on or emptied,
        # with what it held after the first move (i), and the walls - the stones next to
        # those points then, which must still stand for the kos to be the same (an empty
        # neighbour, a liberty, is not part of them).
        history = self.history
        after = history.position(i + 1)
        board = history.board
        kos = []
        for k in range(i, n):
            ply = history.plies[k]
            if ply.point != PASS and ply.point not in kos:
                kos.append(ply.point)
            for q in ply.captured:
                if q not in kos:
                    kos.append(q)
        points = list(kos)
        values = [after[q] for q in kos]
        for q in kos:
            for m in board.neighbours(q):
                if m not in points:
                    c = after[m]
                    if c == 1 or c == 2:
                        points.append(m)
                        values.append(c)
        return (i, first.point, first.color, tuple(points), bytes(values))

    # -- persistence (undo, journal)

    def snapshot(self):
        return (list(self.run), list(self.run_surround), list(self.cycle_starts))

    def restore(self, state):
        self.run = list(state[0])
        self.run_surround = list(state[1])
        self.cycle_starts = list(state[2])
        self._arm()

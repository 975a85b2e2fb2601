"""What the sensors see: each point's reading and since when (part of the Tracker).

A scan's characters become point codes (EMPTY, BLACK, WHITE, or UNKNOWN for '?' and anything
else); the tracker keeps the latest reading per point (`seen`) and the board time it began
(`since`), which is all the stability rule needs, and how often each point's reading changed
lately (`flips` since the start of its window, `flip_base + flip_ms[p]`), which is how a
flickering sensor gives itself away (sensor_faults.py). Points found faulty (`faulty`) are
left out of every judgement.
"""

from array import array

from ingrules.board import BLACK, EMPTY, WHITE
from micropython import const

UNKNOWN = const(4)
# Scan character (byte) -> point code; anything else reads as unknown.
CODE_OF = bytearray(256)
for _i in range(256):
    CODE_OF[_i] = UNKNOWN
CODE_OF[46] = EMPTY  # '.'
CODE_OF[66] = BLACK  # 'B'
CODE_OF[87] = WHITE  # 'W'

FLIP_WINDOW_MS = const(3000)  # reading changes are counted per point over this window
_FLIP_MS_MAX = const(0xFFFF)


class Sensing:
    """Reading scans into `seen`/`since` (a Tracker mixin)."""

    def _init_board_view(self, n):
        # What the sensors see (EMPTY/BLACK/WHITE/UNKNOWN per padded index) and since when.
        self.seen = bytearray(n)
        self.since = [0] * n
        self.seen_version = 0  # counts the changes of seen/since (see Tracker._board_dues)
        self.before = bytearray(n)  # each point's reading before its last change
        self.flips = bytearray(n)  # reading changes in the point's window, at most 255
        # Each point's window start in board time: flip_base + flip_ms[p], in 16 bits (~0.9 KB
        # of the heap where a list of board times was ~1.8 KB; issue 32). _flip_start moves
        # the base on when a start no longer fits: a window that began within FLIP_WINDOW_MS
        # keeps its time, an older one becomes one that is older still (stale alike).
        self.flip_ms = array("H", bytes(2 * n))
        self.flip_base = 0

    def _read(self, t, row, k):
        seen = self.seen
        since = self.since
        order = self.order
        code_of = CODE_OF
        changed = False
        if isinstance(row, str):
            row = row.encode()
        for i in range(len(row)):
            v = code_of[row[i]]
            p = order[k + i]
            if seen[p] != v:
                self.before[p] = seen[p]
                seen[p] = v
                since[p] = t
                changed = True
                # Counted only on a change, so the steady state costs nothing (small ints).
                if t - self.flip_base - self.flip_ms[p] > FLIP_WINDOW_MS:
                    self._flip_start(p, t)
                    self.flips[p] = 1
                elif self.flips[p] < 255:
                    self.flips[p] += 1
        if changed:
            self.seen_version += 1
        return changed

    def _flip_start(self, p, t):
        # Point p's window starts at board time t.
        d = t - self.flip_base
        if d < 0 or d > _FLIP_MS_MAX:
            self._flip_rebase(t)
            d = t - self.flip_base
        self.flip_ms[p] = d

    def _flip_rebase(self, t):
        # The base moved to just over a window before t (once a minute at most, while readings
        # change): every start within a window of t kept exactly, an older one made the base
        # itself - older than a window at t and later, as it was.
        base = t - FLIP_WINDOW_MS - 2
        old = self.flip_base
        ms = self.flip_ms
        for p in range(len(ms)):
            d = old + ms[p] - base
            ms[p] = 0 if d < 0 else (d if d <= _FLIP_MS_MAX else _FLIP_MS_MAX)
        self.flip_base = base

    def _unknown_points(self):
        """True while a working point reads '?' (a hand over the board, say)."""
        seen = self.seen
        faulty = self.faulty
        for p in self.order:
            if seen[p] == UNKNOWN and not faulty[p]:
                return True
        return False

    def _changing(self, t):
        """True while a working point that matters for a press changed within the settle
        time: it shows something the game does not have, or what it showed before was a stone
        the game does not have (a stone seen briefly: its absence is no pass yet)."""
        since = self.since
        seen = self.seen
        before = self.before
        faulty = self.faulty
        cells = self.game.board.cells
        settle = self.settle_ms
        for p in self.order:
            if t - since[p] >= settle or faulty[p]:
                continue
            c = cells[p]
            if seen[p] != c or (before[p] != c and before[p] != EMPTY and before[p] != UNKNOWN):
                return True
        return False

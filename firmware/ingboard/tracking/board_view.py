"""What the sensors see: each point's reading and since when (part of the Tracker).

A scan's characters become point codes (EMPTY, BLACK, WHITE, or UNKNOWN for '?' and anything
else); the tracker keeps the latest reading per point (`seen`) and the board time it began
(`since`), which is all the stability rule needs, and how often each point's reading changed
lately (`flips` since the start of its window, `flip_start(p)`), which is how a flickering
sensor gives itself away (sensor_faults.py). Points found faulty (`faulty`) are
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


class Sensing:
    """Reading scans into `seen`/`since` (a Tracker mixin)."""

    def _init_board_view(self, n):
        # What the sensors see (EMPTY/BLACK/WHITE/UNKNOWN per padded index) and since when.
        self.seen = bytearray(n)
        self.since = [0] * n
        self.seen_version = 0  # counts the changes of seen/since (see Tracker._board_dues)
        self.before = bytearray(n)  # each point's reading before its last change
        self.flips = bytearray(n)  # reading changes in the point's window, at most 255
        # Each point's window start, its board time's low 16 bits (~0.9 KB of the heap where a
        # list of board times was ~1.8 KB; issue 32): the point's last change (`since`) is
        # never more than a window after it, so flip_start() has the whole time back.
        self.flip_ms = array("H", bytes(2 * n))

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
                # Counted only on a change, so the steady state costs nothing (small ints);
                # before `since` is the time of this one.
                self._flip(p, t)
                since[p] = t
                changed = True
        if changed:
            self.seen_version += 1
        return changed

    def _flip(self, p, t):
        # Point p's reading changed at t (`since` still its change before): a change more in
        # its window, or a new window.
        if t - self.flip_start(p) > FLIP_WINDOW_MS:
            self.flip_ms[p] = t & 0xFFFF
            self.flips[p] = 1
        elif self.flips[p] < 255:
            self.flips[p] += 1

    def flip_start(self, p):
        """The board time point p's window of reading changes began (0 before its first
        change): its last change (since[p]) is within FLIP_WINDOW_MS of it, which gives the
        time from its low 16 bits (flip_ms)."""
        if not self.flips[p]:
            return 0
        s = self.since[p]
        return s - ((s - self.flip_ms[p]) & 0xFFFF)

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

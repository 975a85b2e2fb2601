"""What the sensors see: each point's reading and since when (part of the Tracker).

A scan's characters become point codes (EMPTY, BLACK, WHITE, or UNKNOWN for '?' and anything
else); the tracker keeps the latest reading per point (`seen`) and the board time it began
(`since`), which is all the stability rule needs.
"""

from micropython import const

from ingboard.core.board import BLACK, EMPTY, WHITE

UNKNOWN = const(4)
# Scan character (byte) -> point code; anything else reads as unknown.
CODE_OF = bytearray(256)
for _i in range(256):
    CODE_OF[_i] = UNKNOWN
CODE_OF[46] = EMPTY  # '.'
CODE_OF[66] = BLACK  # 'B'
CODE_OF[87] = WHITE  # 'W'


class Sensing:
    """Reading scans into `seen`/`since` (a Tracker mixin)."""

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
                seen[p] = v
                since[p] = t
                changed = True
        return changed

    def _unknown_points(self):
        seen = self.seen
        for p in self.order:
            if seen[p] == UNKNOWN:
                return True
        return False

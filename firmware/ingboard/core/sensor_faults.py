"""Sensor faults found from the scans themselves (part of the Tracker; issue 14 class 5).

A point whose sensor is dead or mad gives itself away over time:
- stuck at '?': a lone '?' (every neighbour readable: no hand is that small) for
  LONE_UNKNOWN_MS, or any '?' for UNKNOWN_MS (no hand rests that long on one point);
- stuck at 'B'/'W': a stone no play, nudge or capture explains, unchanged for STUCK_MS while
  at least STUCK_PLIES plays were made around it (players remove a stone that is really there
  once the board asks them to);
- flickering far above the noise floor: FLIPS reading changes within FLIP_WINDOW_MS (single
  scan flicker of a working point is a few per minute for the whole board).
Each faulty point is reported once as `sensor-fault` with the point and left out of every
judgement from then on (moves, passes, alerts, the count checks): the game goes on without it.
A stone played on such a point is resolved by asking the players (presses.py, `dead-point`).
"""

from micropython import const

from ingboard.core.board import EMPTY
from ingboard.core.sensing import FLIP_WINDOW_MS, UNKNOWN

LONE_UNKNOWN_MS = const(2500)
UNKNOWN_MS = const(20000)
STUCK_MS = const(30000)
STUCK_PLIES = const(3)
FLIPS = const(12)
_CHECK_EVERY_MS = const(250)  # the search runs at most this often (it visits every point)


class SensorFaults:
    """Finding dead and flickering sensors (a Tracker mixin)."""

    def _find_faults(self, t):
        if t - self.fault_check_t < _CHECK_EVERY_MS and t < self.fault_due:
            return []
        self.fault_check_t = t
        events = []
        seen = self.seen
        since = self.since
        faulty = self.faulty
        flips = self.flips
        flip_t = self.flip_t
        cells = self.game.board.cells
        commits = self.commit_times
        # A stone no play explains must have outlived STUCK_PLIES plays (their commit times).
        played_after = commits[0] if len(commits) >= STUCK_PLIES else -1
        due = 0x3FFFFFFF
        for p in self.order:
            if faulty[p]:
                continue
            v = seen[p]
            found = False
            if flips[p] >= FLIPS and t - flip_t[p] <= FLIP_WINDOW_MS:
                found = True
            elif v == UNKNOWN:
                age = t - since[p]
                if age >= UNKNOWN_MS or (age >= LONE_UNKNOWN_MS and self._lone(p)):
                    found = True
                elif age < LONE_UNKNOWN_MS:
                    due = min(due, since[p] + LONE_UNKNOWN_MS)
                else:
                    due = min(due, since[p] + UNKNOWN_MS)
            elif v != cells[p] and v != EMPTY and p not in self.leaving and p not in self.moved:
                if t - since[p] >= STUCK_MS and played_after > since[p]:
                    found = True
                elif t - since[p] < STUCK_MS:
                    due = min(due, since[p] + STUCK_MS)
            if found:
                faulty[p] = 1
                self.extra.pop(p, None)
                for key in list(self.active):
                    if isinstance(key, tuple) and key[1] == p:
                        del self.active[key]  # what it read was the fault's doing
                events += self._alert(t, "sensor-fault", [p])
        self.fault_due = due
        return events

    def _lone(self, p):
        seen = self.seen
        faulty = self.faulty
        cells = self.game.board.cells
        stride = self.game.board.stride
        for q in (
            p - 1,
            p + 1,
            p - stride,
            p + stride,
            p - stride - 1,
            p - stride + 1,
            p + stride - 1,
            p + stride + 1,
        ):
            if cells[q] <= 2 and seen[q] == UNKNOWN and not faulty[q]:
                return False
        return True

"""Sensor faults found from the scans themselves (part of the Tracker; issue 14 class 5).

A point whose sensor is dead or mad gives itself away by a reading no board can give:
- stuck at '?': a lone '?' (every neighbour readable: no hand is that small) for
  LONE_UNKNOWN_MS, or any '?' for UNKNOWN_MS (no hand rests that long on one point);
- stuck at 'B'/'W': a stone no play explains that goes on reading as a stone while a hand
  covers it - every neighbour along the lines reads '?' (a hand that covers all four sides of
  a point covers the point) for at least the settle time, and its own reading never changed
  meanwhile. A real stone under a hand reads '?' like its neighbours. Players meet this at
  once: the board raises `stone-extra` (or `wrong-colour`) for the stone, and the player who
  reaches over to take it away finds the sensor out;
- flickering far above the noise floor: FLIPS reading changes within FLIP_WINDOW_MS (single
  scan flicker of a working point is a few per minute for the whole board).
A stone that is really there is never a fault, however long it stays: a stone dropped on the
board, one left from the last game, a prisoner that slipped from the fingers, left untouched
through many plays, is a stone on the board the game does not have - its alert stays (the
board waits to be put right, docs/tracking.md) and the game goes on around it. How long
a stone stays and how many plays are made around it say nothing about the sensor.
Each faulty point is reported once as `sensor-fault` with the point and left out of every
judgement from then on (moves, passes, alerts, the count checks): the game goes on without it.
A stone played on such a point is resolved by asking the players (presses.py, `dead-point`).
"""

from ingrules.board import BLACK, WHITE
from micropython import const

from ingboard.tracking.board_view import FLIP_WINDOW_MS, UNKNOWN

LONE_UNKNOWN_MS = const(2500)
UNKNOWN_MS = const(20000)
FLIPS = const(12)
_CHECK_EVERY_MS = const(250)  # the search runs at most this often (it visits every point)
_NOTHING_DUE = const(0x3FFFFFFF)
_NONE_FOUND = ()  # _find_faults' events when it finds nothing (read, never changed)


class SensorFaults:
    """Finding dead and flickering sensors (a Tracker mixin)."""

    def _init_sensor_faults(self, n):
        self.faulty = bytearray(n)  # 1: a dead or mad sensor, left out (_set_faulty)
        # A row of n zeros: what `faulty` is compared with (tracker_state._faulty_points), and
        # Tracker._board_dues' "no point left out of the deadlines". `faulty` itself until a
        # point is faulty (_set_faulty): ~0.5 KB of the heap while every sensor works.
        self._no_faulty = self.faulty
        self.covered = {}  # stone point -> when a hand covered it
        self.fault_check_t = -(1 << 29)
        self.fault_due = 0

    def _find_faults(self, t):
        if t - self.fault_check_t < _CHECK_EVERY_MS and t < self.fault_due:
            return _NONE_FOUND
        self.fault_check_t = t
        seen = self.seen
        flips = self.flips
        if max(flips) < FLIPS and max(seen) < UNKNOWN:
            # No point reads '?' and none flickered FLIPS times (each looked at in C): the walk
            # below would find nothing and leave nothing due (~2 ms of the RP2040 a look, one
            # or two a ply of a brisk game; issue 32).
            self.fault_due = _NOTHING_DUE
            return _NONE_FOUND
        events = []
        since = self.since
        faulty = self.faulty
        due = _NOTHING_DUE
        for p in self.order:
            if faulty[p]:
                continue
            v = seen[p]
            found = False
            if flips[p] >= FLIPS and t - self.flip_start(p) <= FLIP_WINDOW_MS:
                found = True
            elif v == UNKNOWN:
                age = t - since[p]
                if age >= UNKNOWN_MS or (age >= LONE_UNKNOWN_MS and self._lone(p)):
                    found = True
                elif age < LONE_UNKNOWN_MS:
                    due = min(due, since[p] + LONE_UNKNOWN_MS)
                else:
                    due = min(due, since[p] + UNKNOWN_MS)
            if found:
                events += self._faulty(t, p)
        self.fault_due = due
        return events

    def _set_faulty(self, p):
        # faulty[p] = 1, its own row of zeros (_no_faulty) made first at the first such point.
        if self._no_faulty is self.faulty:
            self._no_faulty = bytearray(len(self.faulty))
        self.faulty[p] = 1

    def _faulty(self, t, p):
        self._set_faulty(p)
        self.extra.pop(p, None)
        self.covered.pop(p, None)
        for key in list(self.active):
            if isinstance(key, tuple) and key[1] == p:
                del self.active[key]  # what it read was the fault's doing
        return self._alert(t, "sensor-fault", [p])

    def _under_hand(self, t, new):
        """After a change of the readings (hands come and go between two scans): the stones
        the game does not have (`new`, from plays._differences) and captured ones still to be
        lifted that a hand covers are remembered from when the cover was complete; when the
        hand leaves, a reading that never changed under it for the settle time is a stuck
        sensor (module docstring). Returns the `sensor-fault` events."""
        events = []
        covered = self.covered
        for p in new:
            events += self._cover(t, p)
        seen = self.seen
        for p in self.leaving:
            if seen[p] == BLACK or seen[p] == WHITE:
                events += self._cover(t, p)
        if covered:
            for p in list(covered):
                if seen[p] != BLACK and seen[p] != WHITE:
                    del covered[p]  # it read '?' or empty after all: a working sensor
        return events

    def _cover(self, t, p):
        if self.faulty[p]:
            return []
        covered = self.covered
        since = self.since
        start = self._cover_start(p)
        if start >= 0:
            if p not in covered and since[p] < start:
                covered[p] = start  # the hand covers it now; it still reads a stone
        elif p in covered:
            began = covered.pop(p)
            if since[p] < began and t - began >= self.settle_ms:
                return self._faulty(t, p)
        return []

    def _cover_start(self, p):
        # When every working neighbour of p along the lines became '?' (-1: not all are).
        seen = self.seen
        faulty = self.faulty
        cells = self.game.board.cells
        stride = self.game.board.stride
        start = -1
        n = 0
        for q in (p - 1, p + 1, p - stride, p + stride):
            if cells[q] > 2 or faulty[q]:
                continue  # off the board, or a dead sensor itself
            if seen[q] != UNKNOWN:
                return -1
            n += 1
            if self.since[q] > start:
                start = self.since[q]
        return start if n >= 2 else -1

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

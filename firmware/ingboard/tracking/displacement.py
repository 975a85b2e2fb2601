"""Displacement: stones moved or missing from their points (part of the Tracker; issue 14
classes 1 and 2).

A stone missing where the game has one, and not captured, was moved or lost. Each such stone is
paired with the nearest new stone of its colour within REACH points along the lines, or two
points away diagonally (slid along a line or diagonally, knocked two points away, a wall
dragged by a sleeve): that is `stone-moved`, naming
both points, and the stone it became is never a new move. A missing stone with no partner is
`stone-missing`; while the player to move has one, none of their new stones is committed (it
may be the lost stone, put down elsewhere) - the board waits until every stone is accounted for.

A moved stone left where it is does not stall the game: it is known, so it is not the player's
"new stone", and the next real move is recognised; the alert stays until the stone is put back
or both players accept the shift (`accept-shift`: the stone then stands for its game point,
recorded in the SGF as a comment; captured with its chain, it is lifted from where it stands).
"""

from micropython import const

from ingboard.tracking.board_view import UNKNOWN

REACH = const(3)  # farthest a knocked or dragged stone is paired (points, along the lines)


class Displacement:
    """Nudged, dragged and missing stones (a Tracker mixin)."""

    def _init_displacement(self):
        self.moved = {}  # point a stone was nudged to -> the point it came from
        self.shifted = {}  # accepted shifts, both ways: stone's point <-> its game point

    def _displaced(self, new, missing):
        """Pair missing stones with new stones of their colour (self.moved: dest -> origin);
        returns the missing stones left unexplained."""
        seen = self.seen
        cells = self.game.board.cells
        moved = self.moved
        for dest in list(moved):
            origin = moved[dest]
            d, o = seen[dest], seen[origin]
            if d == UNKNOWN or o == UNKNOWN:
                continue  # a hand over it: perhaps putting it back; keep the pair meanwhile
            if d != cells[origin] or o == cells[origin] or dest not in new:
                del moved[dest]  # put back, or gone from where it was pushed
        if not missing:
            return missing
        col_row = self.game.board.col_row
        extra = self.extra
        lost = []
        for q in missing:
            if q in moved.values():
                continue
            color = cells[q]
            qc, qr = col_row(q)
            best = -1
            best_d = REACH + 1
            for p in new:
                if seen[p] != color or p in moved or cells[p] != 0 or p in extra:
                    # A stone the game never had, on the board before the game (a stray stone,
                    # or a point stuck as a stone from power-on): it stood there before q was
                    # left empty, so it is not q's stone moved. Ing 1991 Art. 9 "Counting" (2):
                    # "no stones except the live and dead stones on the board, unplayed stones
                    # in the bowls, and removed stones in their designated containers" - a
                    # stuck point is none of them, never half of a move.
                    continue
                pc, pr = col_row(p)
                dc = abs(pc - qc)
                dr = abs(pr - qr)
                d = dc + dr
                if dc <= 2 and dr <= 2 and d > REACH:
                    d = REACH  # two points away diagonally: still within reach
                if d < best_d:
                    best = p
                    best_d = d
            if best >= 0:
                moved[best] = q
            else:
                lost.append(q)
        return lost

    def _slid_to(self, origin, settled_t):
        """Where the stone of `origin` was slid (its pair in self.moved) and has stood for the
        settle time (settled_t < 0: at once), or -1."""
        for dest in self.moved:
            if self.moved[dest] != origin:
                continue
            if settled_t >= 0 and (
                settled_t - self.since[dest] < self.settle_ms or self._hidden_neighbour(dest)
            ):
                return -1
            return dest
        return -1

    def _forget_slide(self, dest):
        """The stone at dest stands for its own play now: no longer a moved stone."""
        origin = self.moved.pop(dest, -1)
        self.active.pop(("stone-moved", origin), None)

    def _hidden_neighbour(self, p):
        # A neighbour of the same colour under the hand: the stone at p may be that stone,
        # nudged, rather than a new one. Wait until the board around it is readable.
        color = self.seen[p]
        cells = self.game.board.cells
        seen = self.seen
        faulty = self.faulty
        for q in self.game.board.neighbours(p):
            if cells[q] == color and seen[q] == UNKNOWN and not faulty[q]:
                return True
        return False

    def _accept_shift(self, t):
        """Both players accept the moved stones where they stand (button `accept-shift`)."""
        board = self.game.board
        events = []
        notes = []
        for dest in list(self.moved):
            origin = self.moved.pop(dest)
            self.shifted[dest] = origin
            self.shifted[origin] = dest
            self.active.pop(("stone-moved", origin), None)
            notes.append("%s-%s" % (board.name(origin), board.name(dest)))
            events.append(
                {
                    "t": t,
                    "type": "shift",
                    "from": board.name(origin),
                    "to": board.name(dest),
                }
            )
        if notes:
            self._note("accepted shift %s" % ", ".join(notes))
        return events

    def _shift_captured(self, q, color):
        """The game's stone at q left the board (captured): a stone accepted as standing for
        it elsewhere is the one to lift."""
        dest = self.shifted.pop(q, None)
        if dest is not None:
            self.shifted.pop(dest, None)
            self.leaving[dest] = color

    def _displacement_alerts(self, t, lost, wanted, paused):
        # `stone-moved` for each known pair, `stone-missing` for each stone unaccounted for -
        # not during the pause (stones taken off then are dead stones), not for the fixed
        # handicap stones while Black is still placing them (before the first play), not for
        # a changed play (`retraction` says it).
        alert_ms = self.alert_ms
        since = self.since
        seen = self.seen
        game = self.game
        board = game.board
        active = self.active
        for dest in self.moved:
            origin = self.moved[dest]
            if t - since[dest] >= alert_ms:
                wanted[("stone-moved", origin)] = [origin, dest]
        if paused:
            return
        placing = not game.plies and game.setup
        for p in lost:
            if t - since[p] < alert_ms:
                continue
            if placing and self._setup_point(p):
                continue
            if ("retraction", p) in active:
                continue
            hidden = False
            for q in board.neighbours(p):
                if seen[q] == UNKNOWN and not self.faulty[q]:
                    hidden = True
            if hidden:
                # A hand is next to it (putting it back, perhaps): no new alert, none withdrawn.
                for key in (("stone-moved", p), ("stone-missing", p)):
                    if key in active:
                        wanted[key] = None
                continue
            wanted[("stone-missing", p)] = [p]

    def _setup_point(self, p):
        for q, _color in self.game.setup:
            if q == p:
                return True
        return False

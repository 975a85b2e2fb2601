"""Displacement: stones moved or missing from their points (part of the Tracker).

A stone missing where the game has one and not captured is `stone-missing`, or `stone-moved`
when a stone of the same colour stands on a neighbouring point; such a stone is never a new
move.
"""

from ingboard.core.sensing import UNKNOWN


class Displacement:
    """Nudged and missing stones (a Tracker mixin)."""

    def _moved_stone(self, p, missing):
        # A stone nudged to a neighbouring point: the same colour is missing next to it - or
        # was, when the nudge was seen, and its point has not been seen holding it again since
        # (a hand putting it back hides both points for a while).
        color = self.seen[p]
        cells = self.game.board.cells
        origin = self.moved.get(p)
        if origin is not None:
            if self.seen[origin] != cells[origin]:
                return True
            del self.moved[p]
        for q in self.game.board.neighbours(p):
            if q in missing and cells[q] == color:
                return True
        return False

    def _hidden_neighbour(self, p):
        # A neighbour of the same colour under the hand: the stone at p may be that stone,
        # nudged, rather than a new one. Wait until the board around it is readable.
        color = self.seen[p]
        cells = self.game.board.cells
        seen = self.seen
        for q in self.game.board.neighbours(p):
            if cells[q] == color and seen[q] == UNKNOWN:
                return True
        return False

    def _displacement_alerts(self, t, new, missing, wanted, paused):
        # Each missing stone (not during the pause, when stones taken off are dead stones):
        # `stone-moved` to a neighbour holding its colour, else `stone-missing`.
        alert_ms = self.alert_ms
        since = self.since
        board = self.game.board
        cells = board.cells
        for p in missing:
            if paused or t - since[p] < alert_ms:
                continue
            moved_to = None
            hidden = False
            for q in board.neighbours(p):
                if q in new and self.seen[q] == cells[p]:
                    moved_to = q
                elif self.seen[q] == UNKNOWN:
                    hidden = True
            if moved_to is None and hidden:
                # A hand is next to it (putting it back, perhaps): no new alert, none withdrawn.
                for key in (("stone-moved", p), ("stone-missing", p)):
                    if key in self.active:
                        wanted[key] = None
                continue
            if moved_to is not None:
                wanted[("stone-moved", p)] = [p, moved_to]
                self.moved[moved_to] = p
            else:
                wanted[("stone-missing", p)] = [p]

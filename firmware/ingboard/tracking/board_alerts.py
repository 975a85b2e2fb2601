"""Alerts about the board: raised once per condition, withdrawn when it is put right
(part of the Tracker).
"""

from ingrules.board import EMPTY
from ingrules.game import PAUSED

from ingboard.alerts import alert_text
from ingboard.tracking.board_view import UNKNOWN


class BoardAlerts:
    """Raising and withdrawing alerts (a Tracker mixin)."""

    def _init_board_alerts(self):
        self.active = {}  # alert key -> True while its condition holds

    def _alerts(self, t, new, lost, color, mine, theirs):
        events = []
        wanted = {}
        since = self.since
        alert_ms = self.alert_ms
        board = self.game.board
        cells = board.cells
        paused = self.game.phase == PAUSED
        for p in theirs:
            if t - since[p] < alert_ms:
                continue
            if cells[p] != EMPTY or self._slipped(p):
                wanted[("stone-extra", p)] = [p]
            else:
                wanted[("wrong-colour", p)] = [p]
        for p in self.extra:
            # There before the first move (or a sensor reading as if): not Black's first move.
            if t - since[p] >= alert_ms and self.seen[p] != UNKNOWN:
                wanted[("stone-extra", p)] = [p]
        settled = []
        for p in mine:
            if t - since[p] < alert_ms:
                continue
            if self._slipped(p):
                wanted[("stone-extra", p)] = [p]
            else:
                settled.append(p)
        if len(settled) > 1 and not self.game.rules.resign_two_stones:
            # (Ing 1991: two stones are the resignation signal; the press offers it.)
            wanted[("two-stones", settled[0])] = settled
        self._displacement_alerts(t, lost, wanted, paused)
        for key, points in wanted.items():
            if key not in self.active:
                self.active[key] = True
                events.append(self._alert_event(t, key[0], points))
        seen = self.seen
        for key in list(self.active):
            if not isinstance(key, tuple) or key in wanted:
                continue
            code = key[0]
            if code in _BOARD_ALERTS or (code in _RULE_ALERTS and key[1] not in new):
                del self.active[key]  # the board was put right / the stone taken back
            elif code == "retraction" and seen[key[1]] == cells[key[1]]:
                del self.active[key]  # the play as made is back on its point
            elif code == "resign-offer" and not self.resign_offer:
                del self.active[key]  # a stone taken back: the offer is withdrawn
            elif code == "dead-point" and not self.dead_ask:
                del self.active[key]
        return events

    def _alert(self, t, code, points, force=False):
        key = (code, points[0] if points else -1)
        if key in self.active and not force:
            return []
        self.active[key] = True
        return [self._alert_event(t, code, points)]

    def _alert_event(self, t, code, points, text=None):
        board = self.game.board
        names = [board.name(p) for p in points]
        # Every alert is also an SGF comment at the ply it happened (notes.Notes).
        self.notes.add(len(self.game.plies), ("alert %s %s" % (code, " ".join(names))).strip())
        return {
            "t": t,
            "type": "alert",
            "code": code,
            "points": names,
            "text": text or alert_text(code),
        }


# Alerts about the physical board, withdrawn when the board is put right.
_BOARD_ALERTS = ("wrong-colour", "two-stones", "stone-moved", "stone-missing", "stone-extra")
# Alerts about an illegal stone, withdrawn when the stone is taken back.
_RULE_ALERTS = ("occupied", "suicide", "ko", "superko", "recycle", "not-your-turn")

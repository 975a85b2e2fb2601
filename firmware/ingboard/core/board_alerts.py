"""Alerts about the board: raised once per condition, withdrawn when it is put right
(part of the Tracker).
"""

from ingboard.core.alerts import alert_text
from ingboard.core.board import EMPTY
from ingboard.core.game import PAUSED


class BoardAlerts:
    """Raising and withdrawing alerts (a Tracker mixin)."""

    def _alerts(self, t, new, missing, color, mine, theirs):
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
            if cells[p] != EMPTY:
                wanted[("stone-extra", p)] = [p]
            elif not self._moved_stone(p, missing):
                wanted[("wrong-colour", p)] = [p]
        if len(mine) > 1:
            settled = [p for p in mine if t - since[p] >= alert_ms]
            if len(settled) > 1:
                wanted[("two-stones", settled[0])] = settled
        self._displacement_alerts(t, new, missing, wanted, paused)
        for key, points in wanted.items():
            if key not in self.active:
                self.active[key] = True
                events.append(self._alert_event(t, key[0], points))
        for key in list(self.active):
            if not isinstance(key, tuple) or key in wanted:
                continue
            if key[0] in _BOARD_ALERTS or (key[0] in _RULE_ALERTS and key[1] not in new):
                del self.active[key]  # the board was put right / the stone taken back
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
        # Every alert is also an SGF comment at the ply it happened (sgf_record.Notes).
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

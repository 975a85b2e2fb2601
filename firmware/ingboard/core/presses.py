"""Presses: the clock keys (part of the Tracker).

The press completes or confirms the presser's move; with no new stone and no unknown points it
is a pass (per the ruleset's pass semantics); with unknown points it waits (up to
PRESS_WAIT_MS) for the board to become readable.
"""

from micropython import const

from ingboard.core.board import color_name
from ingboard.core.game import ENDED, MANDATORY_PASS, PAUSED, IllegalMove

PRESS_WAIT_MS = const(1500)


class Presses:
    """What a press of a clock key means (a Tracker mixin)."""

    def _press(self, t, color):
        events = self._start(t) + self._evaluate(t)
        game = self.game
        if game.phase == ENDED:
            return events + self.fill_in_done(t)  # game_end.py: read the fill-in (again)
        if self.awaiting_press == color:
            # The press that confirms the presser's committed move: the clock switches now.
            # The opponent's late press for their own earlier move is then no longer expected.
            self.awaiting_press = 0
            self.press_owed[3 - color] = False
            return events + self._clock_moved(t, color)
        if game.free_stones_left:
            return events  # presses while Black places a free handicap change nothing
        if self.press_owed[color]:
            self.press_owed[color] = False
            return events
        if not self.arrived[color]:
            return events + self._arrive(t, color)  # the first press says "I am here"
        if color != game.to_play:
            return events  # a second press, or the opponent's key: nothing to do
        self.press_time = t
        if self._unknown_points():
            self.press_pending = color
            return events
        return events + self._press_now(t, color)

    def _press_now(self, t, color):
        # The press completes the presser's one new stone; with none, it is a pass play.
        self.press_pending = 0
        game = self.game
        new, _missing, _lifted = self._differences(t)
        mine = [p for p in new if self.seen[p] == color]
        if len(mine) > 1:
            # More than one candidate (a flicker, a second stone): never a pass. Wait for the
            # board to settle; past the wait, the two-stones alert stands.
            if t - self.press_time < PRESS_WAIT_MS:
                self.press_pending = color
                return []
            return self._alert(t, "two-stones", mine)
        if len(mine) == 1:
            reason = game.legality(color, mine[0])
            if reason is None:
                self.press_pending = color  # so that the commit switches the clock now
                return self._commit(t, color, mine[0])
            # The player completed an illegal move: the ruleset says what that means.
            outcome = game.commit_illegal(color, reason)
            if outcome == "forfeit":
                return self._ended(t)
            if outcome == "pass":
                return self._passed(t, color)
            return self._alert(t, reason, mine, force=True)
        if game.phase == ENDED or color != game.to_play:
            return []
        try:
            game.pass_move(color)
        except IllegalMove as exc:
            return [self._alert_event(t, "not-your-turn", [], str(exc))]
        return self._passed(t, color)

    def _passed(self, t, color):
        game = self.game
        events = [self._pass_event(t, color)]
        events += self._clock_moved(t, color)
        if game.phase == PAUSED and not self.pause_announced:
            # Play pauses (once: the passes made during the pause do not pause it again).
            self.pause_announced = True
            events += self._clock_events(t, self.clock.pause(t))
            events.append(self._ev(t, "pause"))
        elif game.phase == ENDED:
            events += self._ended(t)
        return events

    def _pass_event(self, t, color, mandatory=False):
        self.bowls.pass_stone(color, t)  # a pass stone leaves the bowl (bowls.PASS_STONES)
        n = len([x for x in self.game.plies if x.kind != MANDATORY_PASS or mandatory])
        ev = {"t": t, "type": "pass", "n": n, "color": color_name(color)}
        if mandatory:
            ev["mandatory"] = True
        return ev

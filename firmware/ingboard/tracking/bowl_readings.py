"""The bowls' readings as the tracker takes them: a bowl's or a lid's load cell read, the
readings the app may drop before the tracker (`bowl_quiet`), the enrolment of a set, the 180
checks' events and the bowls' alerts as the game's phase allows them. A Tracker part (mixin):
the weighing itself, the counts and the checks are the bowls room's (ingboard/bowls); this
part owns no state of its own.
"""

from ingrules.game import ENDED

# _feed()'s answer with no event (most readings): one tuple, read and never changed (a list
# made at every reading was ~32 bytes of garbage, issue 32).
_NO_EVENTS = ()


class BowlReadings:
    def lid(self, t, color, grams):
        """A reading of the load cell under the lid of color's bowl (the prisoners color took;
        Bowls.lid): the bowls account for them; alerts only."""
        self.bowls.lid(color, grams, t)
        return self._bowl_alerts(t)

    def _feed(self, t, color, grams):
        # The reading to the bowls, told first whether the game is between its checks
        # (Bowls.between); the before-game check once both bowls have settled. Its events: a
        # list of its own, or the empty tuple.
        game = self.game
        self.bowls.between(game.phase != ENDED and (self.checked_before or bool(game.plies)))
        self.bowls.feed(color, grams, t)
        if not self.checked_before and not game.plies and self.bowls.settled():
            return [self._before_check(t)]
        return _NO_EVENTS

    def _reading_events(self, t, color, grams):
        # _feed()'s events and the bowls' alerts: the empty tuple when there are none (most
        # readings: no list made, where poll() would make a new one; issue 32).
        events = self._feed(t, color, grams)
        if self.bowls.alerts:
            alerts = self._bowl_alerts(t)
            events = events + alerts if events else alerts
        return events

    def bowl_quiet(self, t, color, grams):
        """True when bowl(t, color, grams) would change nothing and give no event: the bowls
        ignore the reading (Bowls.quiet), nothing falls due at t and the stones are not being
        put away. The app then drops the reading before the tracker, the session log and the
        journal (issue 20: a reading's cost), so `ingboard track` on the log plays the same."""
        return self._before_due(t) and not self.press_pending and self.bowls.quiet(color, grams, t)

    def bowl_quiet_dg(self, t, index, dg):
        """bowl_quiet() for bowl `index` (0 Black, 1 White) and a plausible reading in whole
        tenths of a gram (an int): the app's bowl task asks it before it queues the reading."""
        # (_before_due() in line: twenty readings a second.)
        return (
            self.started
            and self.last_t <= t < self.due
            and not self.clock_behind
            and not self.press_pending
            and self.game.phase != ENDED
            and self.bowls.quiet_dg(index, dg, t)
        )

    def _enrol(self, t):
        # The players confirm they counted the set with the frame (Ing 1991 Art. 9 "Counting"
        # (1)): the bowls' weights now are the full set, kept for later games (the app stores
        # the `enrolled` event); the before-game check is made again with it.
        if self.game.plies:
            return [self._alert_event(t, "not-your-turn", [], "the set is enrolled before play")]
        event = self.bowls.confirm_set(t)
        return [event, self._bowls_event(t, "before")] + self._bowl_alerts(t)

    def _bowl_alerts(self, t):
        alerts = self.bowls.poll()
        if not alerts:
            # The usual case (every reading the tracker takes): the empty list poll() handed
            # over is the caller's, no other list or iterator made (issue 32: the bytes a ply
            # allocates decide how often the RP2040 collects).
            return alerts
        events = []
        counting = self.game.phase == ENDED and not self.filled
        for alert in alerts:
            if counting and alert.get("code") == "bowl-mismatch":
                continue  # stones are on their way to the board; the after-count check rules
            alert["t"] = t
            events.append(alert)
        return events

    def _bowls_event(self, t, phase):
        event = self.bowls.check(phase, t)
        event["t"] = t
        return event

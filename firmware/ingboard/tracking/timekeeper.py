"""The timekeeper: the clock driven by the presses and the game (part of the Tracker).

Arrival (lateness), the switch at each completed move, the undo stack of clock snapshots for a
retraction, pause/resume, and the `clock`/`cue` events.

A press kept while the board cannot be judged (presses.py: a hand over the board, a position
not yet still) holds the clock at the press (clock.hold): a player's clock stops when they
press it, whatever the board's sensors can see then. Judged a move or a pass, the clock
switches as of the press - the presser is never charged the wait, the opponent's time runs from
the press (its events at their own instants) - and the SGF's BL/WL are the time left at the
press; judged anything else (a double press, two stones, an illegal stone), the presser's time
runs on from the press as if the hold had never been. The hold and the press time are in the
journal (clock snapshot, Tracker.state()), so a power cut keeps both.
"""

from ingrules.board import BLACK, WHITE, color_name
from ingrules.game import ENDED, MANDATORY_PASS
from micropython import const

from ingboard.clock import clock_sgf

_UNDO_DEPTH = const(8)  # clock snapshots kept for accepted retractions


class Timekeeper:
    """The clock side of the tracker (a Tracker mixin)."""

    def _init_timekeeper(self):
        self.clock_behind = False  # a switch as of a press: the clock is behind last_t
        self.clock_before = []  # clock snapshots before the last switches (for undo)
        self.clock_pushes = 0  # snapshots pushed so far (the journal follows this count)
        self.clock_logged_t = -1  # board time of the last `clock` event
        self.pause_announced = False  # the pause after two passes has been announced

    def _arrive(self, t, color):
        # A player arrives (lateness, Ing 1991 Art. 8): twice the lateness comes off their
        # basic time; Ing 1996 Rule 10: more than 1/6 of it forfeits.
        if self.arrived[color]:
            return []
        self.arrived[color] = True
        events = []
        for ev in self.clock.apply_lateness(color, self.round_start, t):
            if ev[1] == "forfeit":
                self.game.forfeit(color)
                return events + self._ended(t)
            events.append(dict(self.clock.state(t), t=t, type="clock"))
        if self.arrived[BLACK] and self.arrived[WHITE] and self.game.phase != ENDED:
            self.clock.start(t, self.game.to_play)
        return events

    def _no_show_at(self, color):
        # When an absent player's lateness forfeits the game (clock.no_show_ms), or None.
        if self.arrived[color]:
            return None
        limit = self.clock.no_show_ms(color)
        return None if limit is None else self.round_start + limit

    def _no_show(self, t):
        # Ing 1991 Art. 8 "Forfeiture" (1) "Failure to appear: a player fails to appear within
        # his time limit" (Ing 1996 Rule 10): also a player who never arrives.
        game = self.game
        if game.phase == ENDED:
            return []
        absent = []
        for color in (BLACK, WHITE):
            due = self._no_show_at(color)
            if due is not None and t >= due:
                absent.append(color)
        if not absent:
            return []
        for color in absent:
            self.notes.add(0, "failure to appear: %s (Ing 1991 Art. 8)" % color_name(color))
        if len(absent) == 2:
            game.void()  # neither appeared: no result
        else:
            game.forfeit(absent[0])
        return self._ended(t)

    def _catch_up(self, t):
        """Step the clock to t, each event at its own instant (its state logged as it was)."""
        events = []
        clock = self.clock
        while True:
            due = clock.next_event_ms()
            if due is None or due > t:
                break
            for ev in clock.advance(due):
                events += self._clock_event(ev)
        for ev in clock.advance(t):
            events += self._clock_event(ev)
        return events

    def _hold_press(self, at, color):
        """color pressed at `at` and the press waits to be judged: their clock stops at the
        press (see the module docstring). Only a press of the running side holds."""
        clock = self.clock
        if clock.held or clock.turn != color or not clock.running():
            return []
        events = self._catch_up(at)
        return events + self._clock_events(at, clock.hold(at))

    def _release_hold(self, t):
        """The kept press switched nothing: the presser's time runs on from the press."""
        if not self.clock.held:
            return []
        self.clock.unhold()
        return self._catch_up(t)

    def _clock_moved(self, t, color):
        if not self.clock.started:
            return []  # the clock starts when both players are there (lateness)
        if self.clock.held and self.clock.turn == color:
            # The kept press is judged a move or a pass: the switch is as of the press.
            self.clock.unhold()
            t = min(t, self.press_time)
            self.clock_behind = True  # tracker._done steps the clock on to the input's time
        self.clock.advance(t)
        # Kept with the number of plies at the switch, so a retraction knows whether the move
        # it takes back had switched the clock (a stone not yet pressed has not).
        self.push_clock_snapshot([len(self.game.plies), self.clock.snapshot()])
        events = self._clock_events(t, self.clock.moved(t, color))
        plies = self.game.plies
        if plies and plies[-1].kind == MANDATORY_PASS and color == BLACK:
            # Ing 1991 Art. 6: White's mandatory pass play follows at once; so does its clock.
            events += self._clock_events(t, self.clock.moved(t, WHITE))
        # BL/WL of the presser's last ply (SGF: time left after the move).
        plies = self.game.plies
        for i in range(len(plies) - 1, -1, -1):
            if plies[i].color == color and plies[i].kind != MANDATORY_PASS:
                while len(self.ply_props) < len(plies):
                    self.ply_props.append(None)
                # Kept as the SGF text itself: one small str per ply, not lists of tuples.
                text = ""
                for name, value in clock_sgf.move_props(self.clock, color):
                    text += "%s[%s]" % (name, value)
                self.ply_props[i] = text or None
                break
        return events

    def undo_clock(self, t):
        """After a retraction: the clock as it was before the retracted moves switched it (a
        move retracted before its press leaves the clock as it is: it still runs for the
        player who is to move again)."""
        plies = len(self.game.plies)
        restore = None
        while self.clock_before and self.clock_before[-1][0] > plies:
            restore = self.clock_before.pop()[1]
        if restore is not None:
            self.clock.restore(restore, t)

    def push_clock_snapshot(self, snap):
        """Keep [plies, clock snapshot] from before a switch, for a retraction (the last few)."""
        if len(self.clock_before) >= _UNDO_DEPTH:
            self.clock_before.pop(0)
        self.clock_before.append(snap)
        self.clock_pushes += 1

    def _catch_up_press(self):
        # A kept press switched the clock as of the press (_clock_moved): the opponent's time
        # from then up to the input just taken, its events at their own instants.
        self.clock_behind = False
        return self._catch_up(self.last_t)

    def _paused(self, t):
        # Play pauses (once: the passes made during the pause do not pause it again).
        self.pause_announced = True
        events = self._clock_events(t, self.clock.pause(t))
        events.append(self._ev(t, "pause"))
        return events

    def _resumed(self, t):
        self.pause_announced = False
        events = self._clock_events(t, self.clock.resume(t))
        events.append(self._ev(t, "resume"))
        return events

    def _clock_events(self, t, clock_events):
        events = []
        for ev in clock_events:
            events += self._clock_event(ev)
        return events

    def _clock_event(self, ev):
        at, kind, color, value = ev
        if kind == "cue":
            # For the beeper / voice module (cues.py): warnings, countdown, penalty points, ...
            return [
                {
                    "t": at,
                    "type": "cue",
                    "color": color_name(color),
                    "cue": value[0],
                    "n": value[1],
                }
            ]
        if at == self.clock_logged_t and kind != "forfeit":
            events = []  # one `clock` event per instant (a period and its penalty coincide)
        else:
            events = [dict(self.clock.state(at), t=at, type="clock")]
            self.clock_logged_t = at
        if kind == "forfeit" and self.game.phase != ENDED:
            self.game.lose_on_time(color)
            events += self._ended(at)
        return events

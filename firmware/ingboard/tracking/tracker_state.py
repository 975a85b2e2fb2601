"""The tracker's bookkeeping as the journal keeps it (part of the Tracker)."""


class TrackerState:
    """state() / restore_state(): the journal contract (a Tracker mixin)."""

    def state(self):
        """The tracker's own bookkeeping as a short JSON-ready list of ints (the journal's
        contract with the tracker, undone by restore_state()):

            [awaiting_press, owed_B, owed_W, checked_before, started,
             leaving (flat: point, colour, point, colour...),
             end (1: after-count check made, 2: put-away check made; or-ed),
             empty_since, count_t (board time of the count, -1 if none),
             press_pending (colour of a press kept until the board can be read, 0 if none),
             press_time, resign_offer (colour, 0 if none),
             faulty (points of dead sensors), extra (points of stones there before the
             game), moved (flat: point pushed to, its game point...), shifted (the same, for
             accepted shifts), press_next (the opponent's press kept behind press_pending),
             press_next_time, agree_pending (1: `agree` waits for the dead stones to be off)]

        Not in it: what the game, clock and bowls hold (each has its own snapshot; the journal
        keeps `ply_props` and the undo stack of push_clock_snapshot()), the fill-in plan
        (recomputed from the position: count_game is exact), and what the sensors see (read
        again after a restart)."""
        leaving = _flat(self.leaving)
        owed = self.press_owed
        counted = self.counted
        return [
            self.awaiting_press,
            1 if owed[1] else 0,
            1 if owed[2] else 0,
            1 if self.checked_before else 0,
            1 if self.started else 0,
            leaving,
            (1 if self.filled else 0) | (2 if self.put_away else 0),
            self.empty_since,
            -1 if counted is None else counted["t"],
            self.press_pending,
            self.press_time,
            self.resign_offer,
            self._faulty_points(),
            sorted(self.extra) if self.extra else _NONE,
            _flat(self.moved),
            _flat(self.shifted),
            self.press_next,
            self.press_next_time,
            1 if self.agree_pending else 0,
        ]

    def _faulty_points(self):
        # Compared in C with a row of zeros first: the walk over every point cost ~1 ms of the
        # RP2040's time at every journal sync (issue 20), for a list that is nearly always [].
        faulty = self.faulty
        if faulty == self._no_faulty:  # (the same object while no point is: sensor_faults.py)
            return _NONE
        return [p for p in self.order if faulty[p]]

    def restore_state(self, state, t):
        """Continue at board time t from a list of state() (the first six items suffice) once
        the game, clock, bowls, ply_props and undo stack are what they were: the journal's
        recovery after a power cut. The sensors are taken to show the game, with the captured
        stones not yet lifted still there, as of t (the next scan puts that right) - unread
        while a press is kept (it is judged on the board as read again); the count
        and the fill-in plan of a counted game are computed again from its position; the
        bowls learn the stones on the board and the prisoners again (not after the after-count
        check: from then on they are not reconciled with the board). The code is
        tracker_restore.py, loaded for a recovery only: the app drops it after the resume
        (gc_policy.drop)."""
        from ingboard.tracking.tracker_restore import TrackerRestore

        TrackerRestore.restore_state(self, state, t)


# The empty items of state() are this one list (read, never changed by anyone): the journal
# takes state() at every sync, and each empty list made was ~32 bytes of garbage (issue 32).
_NONE = []


def _flat(pairs):
    if not pairs:
        return _NONE
    out = []
    for p in sorted(pairs):
        out.append(p)
        out.append(pairs[p])
    return out

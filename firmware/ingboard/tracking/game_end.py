"""The end of the game: dead stones in the pause, the count, the fill-in and the put-away
checks (part of the Tracker).

This mixin holds the concept's state and its entry points; the work is pause_and_count.py's,
imported the first time a game reaches its pause or its end (a resignation, a time-out, two
passes): its code is heap that no game needs before.
"""


def _work():
    from ingboard.tracking import pause_and_count

    return pause_and_count


class GameEnd:
    """The pause, the count and the checks after it (a Tracker mixin)."""

    def _init_game_end(self):
        self.counted = None
        self.plan = None  # the fill-in plan of the count (Ing rules)
        self.fill_target = None  # stones per colour on the board once filled in
        self.filled = False
        self.fill_check_due = False  # read the fill-in at the next settled scan
        self.fill_read = None  # the last `fill-in` event
        self.fill_waiting = False  # filled in, read, the after-count check waiting for the bowls
        self.put_away = False
        self.empty_since = 0  # board time since which the board has been empty after the end
        self.agree_pending = False  # `agree` pressed while dead stones were being taken off

    def _dead_stones(self, t, missing):
        # During the pause: a chain whose stones are all gone from the board is dead.
        return _work().dead_stones(self, t, missing)

    def _put_back(self, t, new):
        # During the pause: a stone put back where a dead stone was taken off.
        return _work().put_back(self, t, new)

    def _agree(self, t):
        """The players agree on the dead stones (button `agree`; pause_and_count.agree)."""
        return _work().agree(self, t)

    def _agreed_when_still(self, t):
        # The agreement kept by _agree, made once the dead stones are wholly off.
        if not self.agree_pending:
            return []
        return _work().agreed_when_still(self, t)

    def _ended(self, t):
        # The game is over (count, resignation, time, forfeit): the count and the `end` event.
        return _work().ended(self, t)

    def _after_end(self, t):
        # After the count: the fill-in and the after-count check of the bowls.
        return _work().after_end(self, t)

    def fill_in_done(self, t):
        """A clock press after the count: the players say the fill-in is done - read it
        (again, after a correction)."""
        if self.plan is None or self.put_away:
            return []
        return _work().fill_in_done(self, t)

    def _put_away(self, t):
        # Ing 1991 Art. 9, 1996 Rule 2: 180 each once the stones are back in the bowls.
        if self.put_away or not self.empty_since:
            return []
        return _work().put_away(self, t)

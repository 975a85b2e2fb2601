"""The 180 checks: the three times the players verify the set - before the game, after the
count, after putting the stones away - and the phase of the game the bowls are in between them.

Ing 1991 Art. 9 (Counting, customs 1 and 3) and Ing 1996 Rule 2 (Goe equipment 1-3) ask the
players to verify 180 stones per colour before the game and, after fill-in counting, to put the
stones away and check 180 "to confirm that the game was counted correctly". This part owns when
the bowls are between the checks (from the before-game check or the first move until the game
ends, when a still bowl needs evaluating less often) and whether the game has ended (from then on
the journal keeps the counts, so a check survives a power cut), and it makes each check: the
`bowls` event with each bowl's count and what the check expects of it, any difference an
immediate `bowl-mismatch`. The counts come from the weighing, the expectations from the
reconciliation's board counts, prisoners and pass stones.
"""

from ingboard import gc_policy
from ingboard.bowls.weighing import unsteady

PHASES = ("before", "play", "after-count", "put-away")


class SetChecks:
    """The three checks of the set (a mixin of Bowls) and the game's phase between them."""

    def _init_checks(self):
        # Between the before-game check (or the first move) and the after-count check: a still
        # bowl's count needs no evaluation every _EVAL_MS (see Weighing.feed, _STEADY_MS).
        self.between_checks = False
        # The game has ended (the count; the tracker's between(False) after play): from then on
        # the journal keeps the counts (snapshot "ref").
        self.ended = False

    def between(self, flag):
        """The tracker's word before each reading: True from the before-game check (or the
        first move) until the game ends (the count: the after-count and put-away checks count
        on plateaus evaluated every _EVAL_MS). Set here too by check() and on_board() for a
        Bowls used alone."""
        if self.between_checks and not flag:
            self.ended = True
            for bowl in self.bowls:
                unsteady(bowl)
        self.between_checks = flag

    def check(self, phase, now_ms, black=None, white=None, kept_out=False):
        """One of the three checks (or "play"): the `bowls` event; alerts go to poll().

        before: 180 each, enrolling now a set not yet enrolled (1991 Art. 9 custom 1);
        after-count: every stone on the board or in the bowl as the count requires (pass the
        board's counts after filling in); put-away: 180 each (1991 Art. 9 custom 3; 1996 Rule 2).
        kept_out (after-count): a count that leaves the prisoners where they are - AGA Rule 12
        area counting ("Prisoners are ignored"), or territory counted before the prisoners
        are filled in - so the prisoners and prisoner pass stones still out of the bowl are
        expected out of it (the Ing fill-in puts every stone on the board or in its bowl)."""
        if phase not in PHASES:
            raise ValueError("bowls check phase must be one of %s, not %r" % (PHASES, phase))
        # The counts and what each check expects: set_count.py, loaded for a check (the
        # before-game check drops it again; the end's checks keep it until the next game).
        from ingboard.bowls import set_count

        event = set_count.check(self, phase, now_ms, black, white, kept_out)
        if phase == "before":
            self.between_checks = True  # made: until the first move nothing needs counting
            gc_policy.drop("ingboard.bowls.set_count")  # once a game: not heap the game keeps
        if phase == "after-count":
            self.between_checks = False
            for bowl in self.bowls:
                unsteady(bowl)  # the put-away check counts on the latest readings
            self._counted()  # putting away follows: no reconciliation with the board
        return event

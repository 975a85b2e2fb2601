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

from ingboard.bowls.weighing import NAMES, colour_index, unsteady

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
        if black is not None or white is not None:
            self._told(black, white)
        event = {"type": "bowls", "t": now_ms, "phase": phase}
        expect = {}
        confident = True
        diffs = [0, 0]
        for i in (0, 1):
            bowl = self.bowls[i]
            if phase == "before" and not bowl.w180 and bowl.candidate is not None:
                if bowl.settled and not bowl.faulty:
                    self._enrol_candidate(bowl)
            n = self.count(bowl.name)
            if phase == "before" and not bowl.verified:
                # Ing 1991 Art. 9 "Counting" (1): a set never counted with the frame is not
                # confirmed as 180 by its own weight ("unverified"; check_text).
                n = None
            if phase == "put-away":
                expected = self.total
            elif phase == "play":
                expected = None
            elif phase == "after-count" and kept_out and bowl.lid_n >= 0:
                # The lid says how many prisoners are out (a few may still be on their way).
                expected = self.total - bowl.on_board
                low = expected - bowl.lid_n - bowl.in_lid
                if n is not None and low <= n < expected:
                    expected = n
                elif n is None or n < low:
                    expected = low
            elif phase == "after-count" and kept_out:
                expected = self.total - bowl.on_board - bowl.in_lid
                if self.pass_stones == "prisoner":
                    expected -= bowl.pass_out
            else:
                expected = self.total - bowl.on_board
            if (
                phase == "after-count"
                and self.pass_stones == "beside"
                and n is not None
                and expected - bowl.pass_out <= n < expected
            ):
                # Ing 1991 Art. 9 "Passing" (2): the stones of the last pass plays may still
                # lie beside the board ("one stone beside the board"): accounted for.
                expected = n
            if n is None:
                confident = False
            elif expected is not None:
                diffs[i] = n - expected
            event[bowl.name] = n
            expect[bowl.name] = expected
        for i in (0, 1):
            if diffs[i]:
                bowl = self.bowls[i]
                n = event[bowl.name]
                self._mismatch(bowl, n, n - diffs[i], diffs[1 - i], now_ms)
        event["confident"] = confident
        event["expected"] = expect
        event["verified"] = {"B": self.bowls[0].verified, "W": self.bowls[1].verified}
        if phase == "before":
            self.between_checks = True  # made: until the first move nothing needs counting
        if phase == "after-count":
            self.between_checks = False
            for bowl in self.bowls:
                unsteady(bowl)  # the put-away check counts on the latest readings
            self._counted()  # putting away follows: no reconciliation with the board
        return event


def check_text(event, color):
    """Display text of a `bowls` event for one colour: '180 ok', '179 !' (not as expected), '---'.

    '---' is an uncertain count (the bowl is moving, the scale is noisy or faulty); 'unverified'
    a before-game check of a set whose weight was never enrolled after a count with the frame.
    """
    name = NAMES[colour_index(color)]
    n = event.get(name)
    if event.get("phase") == "before" and not (event.get("verified") or {}).get(name, True):
        return "unverified"  # Ing 1991 Art. 9 "Counting" (1): count the set with the frame
    if n is None:
        return "---"
    expected = event.get("expected", {}).get(name)
    if expected is None:
        return "%d" % n
    return "%d %s" % (n, "ok" if n == expected else "!")

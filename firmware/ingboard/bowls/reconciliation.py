"""Reconciliation: the bowls against the board - stones taken and returned, prisoners, the lid,
pass stones, and the `bowl-mismatch` alert for a stone really lost.

This part owns each bowl's board bookkeeping: how many of its stones the board holds, the
prisoners that may still be outside the bowl (in a lid or on their way back), a lid weighed on
its own load cell, the pass stones the ruleset puts beside the board or hands over, and the
unexplained difference of each bowl with the time and board positions it has been seen at. For
each colour bowl + on board + prisoners (lid) + pass stones + hand = the full set (Ing 1996 Rule
2, "Location of stones"; Ing 1991 Art. 9 "Counting" (2)). The board's counts come from the
tracker; a decrease of a colour on the board is taken as prisoners (they may sit in a lid or be
returned to the bowl; once the bowl shows them back, they are no longer allowed for). One stone
short for the player to move is normal (a stone in hand). Anything else is a mismatch; it
becomes a `bowl-mismatch` alert when it is still there at a second board position or after
`persist_ms`, so a dropped stone is reported within two moves and a stone in flight is not. A
resting hand or a tilted bowl that stays still looks like a settled reading; the persistence
rule keeps that from raising alerts. A lid with its own cell (lid()) is counted by the stones
dropped in or taken out; without one, prisoners are allowed for from the board's counts.
"""

from micropython import const

from ingboard.bowls.weighing import centi, colour_index, isqrt, plausible, to_mg

# Where captured stones go (config bowls.prisoners): "lid" - kept out of the bowl, in the
# lid, until the count (Ing 1991 Art. 13 "The bowls should have removable lids that can be
# turned upside down to hold removed stones"; AGA prisoners); "bowl" - returned to their
# owner's bowl at once (Ing 1996 Rule 2 "(or return them to the opponent)"; Kim/Simon/Straus
# Part 1 2 "Captured stones are returned to the opponent's bowl").
PRISONERS = ("lid", "bowl")
# A stone taken out of the passer's bowl at each pass play (config bowls.pass_stones): "none";
# "prisoner" - handed to the opponent as a prisoner (AGA Rule 7: "a player passing must hand
# the opponent a stone as a prisoner"); "beside" - Ing 1991 Art. 9 "Passing" (2): "he should
# place one stone beside the board" (Ing 1996 Rule 2 "Shoutan": "at the side of the board").
# A prisoner pass stone is allowed for outside the bowl until the count, like any prisoner. A
# stone beside the board is only the pass's signal: the passer's own stone, which goes back to
# their bowl once play goes on (Ing 1991 Art. 9 "Counting" (2) "Location of stones: During the
# game, there should be no stones except the live and dead stones on the board, unplayed stones
# in the bowls, and removed stones in their designated containers"). It is allowed for from the
# pass until the passer's next board play, and no longer once the bowl shows it back - so it
# never hides a stone dropped later.
PASS_STONES = ("none", "prisoner", "beside")
# Board positions after a capture by which (under rules that return prisoners at once) the
# captured stones must be back in their bowl: three moves of each player.
_PRISONER_POSITIONS = const(6)
# Where a lid is weighed (lid()), the board positions after a capture by which its prisoners
# must be in the lid or back in their bowl: lifted, then dropped in by the next move.
_LID_POSITIONS = const(2)


def _fresh(bowl):
    # The last weighing was made after this colour's stones on the board last changed: it is
    # no count from before the stone just played left the bowl (placed and pressed before
    # the bowl was read again).
    return bowl.eval_fed > bowl.changed_fed


def _board_count(c, total):
    if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= total:
        raise ValueError("stones on the board must be 0..%d, not %r" % (total, c))


class Reconciliation:
    """The Bowls against the board (a mixin of Bowls): prisoners, lid, pass stones, mismatches."""

    def _init_reconciliation(self, cfg, prisoners_returned, pass_stones):
        self.persist_ms = cfg.get("persist_ms", 120000)
        if not isinstance(self.persist_ms, int) or self.persist_ms <= 0:
            raise ValueError("bowls.persist_ms must be a positive int")
        # Captured stones returned to their owner's bowl at once (PRISONERS "bowl"; the
        # ruleset's default, or the config's): then a prisoner is allowed for outside the bowl
        # only for a few board positions, so it cannot hide a drop.
        prisoners = cfg.get("prisoners", "bowl" if prisoners_returned else "lid")
        if prisoners not in PRISONERS:
            raise ValueError("bowls.prisoners must be one of %s, not %r" % (PRISONERS, prisoners))
        self.prisoners_returned = prisoners == "bowl"
        self.pass_stones = cfg.get("pass_stones", pass_stones)
        if self.pass_stones not in PASS_STONES:
            raise ValueError(
                "bowls.pass_stones must be one of %s, not %r" % (PASS_STONES, self.pass_stones)
            )
        self.playing = False
        self.version = 0  # board position counter (one per on_board call that changes it)
        self.to_play = -1
        for bowl in self.bowls:
            bowl.on_board = 0
            # A weighing is fresh (_fresh) when it was made after the last change of this
            # colour's stones on the board: the scale's reading count (fed) at that change.
            bowl.changed_fed = 0
            bowl.in_lid = 0  # prisoners that may still be outside the bowl (see lid())
            # Stones of this set in the opponent's lid as its own load cell counts them (lid());
            # -1: no lid cell, or its count is uncertain - then in_lid allows for them.
            bowl.lid_n = -1
            bowl.lid_ref_n = 0  # the lid's last confident count and its weight (mg): counted on
            bowl.lid_ref_mg = 0  # from there by the stones dropped in or taken out
            # The lid's count and weight as of the last change of its confident count ((n, mg),
            # a new tuple at each change): what the journal keeps (snapshot "lid"), so a lid
            # holding many stones counts on from there after a power cut.
            bowl.lid_kept = None
            bowl.lid_version = 0  # board position at which prisoners were last taken
            bowl.pass_out = 0  # pass stones allowed for outside this bowl (PASS_STONES)
            bowl.pass_seen = 0  # of them, seen out of the bowl ("beside": then seen back)
            bowl.mis = 0  # unexplained difference (+ surplus / - deficit), 0 = none
            bowl.mis_version = -1
            bowl.mis_seen = 0
            bowl.mis_since = 0
            bowl.mis_alerted = 0

    def _off_board(self, bowl):
        # The stones of this set out of its bowl and off the board (prisoners, pass stones) as a
        # set never enrolled is weighed against (_evaluate): a weighed lid counts those in it
        # (lid()) - the prisoners' allowance in_lid is cleared once they are there, so it alone
        # would take them for stones in the bowl - and in_lid the ones still on their way to it.
        # Pass stones handed over as prisoners (AGA Rule 7) lie in that lid too.
        lidded = bowl.in_lid
        beside = bowl.pass_out
        if self.pass_stones == "prisoner":
            lidded += beside
            beside = 0
        if bowl.lid_n > lidded:
            lidded = bowl.lid_n
        return lidded + beside

    # ---------------------------------------------------------------- the board
    def on_board(self, black, white, now_ms, to_play=None):
        """The game's stone counts changed (after a move, a removal, a retraction, a fill-in)."""
        counts = (black, white)
        for c in counts:
            _board_count(c, self.total)
        self.to_play = -1 if to_play is None else colour_index(to_play)
        for i in (0, 1):
            bowl = self.bowls[i]
            if not bowl.w180 and bowl.candidate is not None and counts[i] > 0:
                self._enrol_candidate(bowl)
            if counts[i] != bowl.on_board:
                bowl.changed_fed = bowl.fed
            if counts[i] < bowl.on_board:
                if bowl.lid_n >= 0 and self.version - bowl.lid_version >= _LID_POSITIONS:
                    # A weighed lid: the earlier prisoners are in it or back in the bowl by
                    # now; only the new ones may be on their way (a later capture never
                    # renews the allowance of an earlier one: a lost stone shows).
                    bowl.in_lid = 0
                bowl.in_lid += bowl.on_board - counts[i]  # prisoners (or a retraction)
                bowl.lid_version = self.version
            elif counts[i] > bowl.on_board and self.pass_stones == "beside" and self.playing:
                # (not the first position told after a restart: the journal's pass_out stands)
                # The passer plays on: the stone beside the board is back in the bowl by now
                # (PASS_STONES); one still out is missing from here on.
                bowl.pass_out = 0
                bowl.pass_seen = 0
            elif bowl.in_lid and (
                (bowl.lid_n >= 0 and self.version - bowl.lid_version >= _LID_POSITIONS)
                or (
                    self.prisoners_returned
                    and self.version - bowl.lid_version >= _PRISONER_POSITIONS
                )
            ):
                # Long enough to put them back (or, where the lid is weighed, into the lid):
                # a shortage is now a loss.
                bowl.in_lid = 0
            bowl.on_board = counts[i]
        self.version += 1
        self.playing = True
        self.between(True)  # the set checks' word: play has begun
        for bowl in self.bowls:
            if bowl.count >= 0 and bowl.settled and not bowl.faulty:
                self._reconcile(bowl, now_ms)

    def lid(self, owner, grams, now_ms):
        """A reading of the load cell under the lid of `owner`'s bowl, in grams net of the
        empty lid: the prisoners `owner` took, stones of the other colour (Ing 1991 Art. 13
        "The bowls should have removable lids that can be turned upside down to hold removed
        stones"; 1996 Rule 2 "Goe equipment" (2) "captured stones in their designated
        containers (or return them to the opponent)"; AGA Rule 7 pass stones handed over as
        prisoners go there too).

        The lid is counted like a bowl, by the stones dropped in or taken out since its last
        confident count (an empty lid is exact), and from then on that set's stones in the lid
        are accounted for exactly: never a mismatch, under either ruleset's convention, and
        no longer a blanket allowance either - a prisoner neither in the lid nor back in its
        bowl two board positions after its capture is missing (a stone really lost). A lid
        reading that is not a whole number of stones (a hand in it, a stone on its rim) leaves
        the lid uncertain: the allowances of PRISONERS apply until a confident reading."""
        bowl = self.bowls[1 - colour_index(owner)]
        if not plausible(grams):
            bowl.lid_n = -1
            return
        mg = to_mg(grams, "lid reading")
        stone = bowl.stone_mg()
        sd_s = stone * bowl.spread_pct // 100
        cs = bowl.lid_ref_n * 100 + centi(mg - bowl.lid_ref_mg, stone)
        j = abs((cs + 50) // 100 - bowl.lid_ref_n)
        u = isqrt(sd_s * sd_s * j) + self.bias
        found, _conflict = self._judge(cs, u, stone, -1, False)
        if found < 0 or found > self.total:
            bowl.lid_n = -1
            return
        bowl.lid_n = found
        bowl.lid_ref_n = found
        bowl.lid_ref_mg = mg
        if bowl.lid_kept is None or bowl.lid_kept[0] != found:
            bowl.lid_kept = (found, mg)
        if self.playing and bowl.count >= 0 and bowl.settled and not bowl.faulty:
            self._reconcile(bowl, now_ms)

    def pass_stone(self, color, now_ms, n=1):
        """color made a pass play (n=-1: it was retracted): under the pass-stone convention a
        stone of color's set leaves the bowl (PASS_STONES) and is allowed for from now on."""
        if self.pass_stones == "none":
            return
        bowl = self.bowls[colour_index(color)]
        bowl.pass_out = max(0, bowl.pass_out + n)
        bowl.pass_seen = min(bowl.pass_seen, bowl.pass_out)

    def _reconcile(self, bowl, now_ms):
        n = bowl.count
        hi = self.total - bowl.on_board
        lid = bowl.lid_n
        # Counted in a weighed lid: neither on the board nor in the bowl, never missing. (The
        # lid only narrows what may be missing: a surplus is judged as without it.)
        base = hi - lid if lid >= 0 else hi
        out = base - n  # stones of this set neither on the board, in the bowl nor a weighed lid
        if self.pass_stones == "beside" and bowl.pass_out:
            # A stone beside the board seen back in the bowl is no longer allowed for (one
            # not yet seen out still is: the press may come before it leaves the bowl).
            seen = out - bowl.in_lid
            if seen > bowl.pass_seen:
                bowl.pass_seen = min(seen, bowl.pass_out)
            elif seen < bowl.pass_seen:
                back = bowl.pass_seen - (seen if seen > 0 else 0)
                bowl.pass_out -= back
                bowl.pass_seen -= back
        passing = bowl.pass_out
        if lid >= 0 and self.pass_stones == "prisoner":
            passing = 0  # AGA pass stones go into the opponent's lid: counted there
        lo = base - bowl.in_lid - passing
        if lo <= n <= hi:
            # Prisoners seen back in the bowl are no longer allowed for. Prisoner pass stones
            # stay allowed for: the press may come before the stone leaves the bowl.
            # Only on a weighing made since this colour's stones on the board last changed:
            # a stale one (the bowl not settled since the stone just played left it) would
            # take a prisoner for one returned.
            out -= passing
            if _fresh(bowl):
                bowl.in_lid = out if out > 0 else 0
            bowl.mis = 0
            bowl.mis_alerted = 0
            return
        if n > hi:
            diff = n - hi
        else:
            diff = n - lo
            if self.to_play == colour_index(bowl.name):
                diff += 1  # one stone in the hand of the player to move is normal
                if not diff:
                    return
        if bowl.mis == 0 or (bowl.mis > 0) != (diff > 0):
            # A new episode: seen at how many board positions, since when.
            bowl.mis_seen = 0
            bowl.mis_since = now_ms
            bowl.mis_version = -1
            bowl.mis_alerted = 0
        bowl.mis = diff
        if bowl.mis_version != self.version and _fresh(bowl):
            # Seen at a new board position, weighed since this colour's stones on the board
            # last changed: a count weighed before the stone just played left the bowl (the
            # bowl has not settled since: place and press within a reading) is not a sighting.
            bowl.mis_version = self.version
            bowl.mis_seen += 1
        if abs(diff) > bowl.mis_alerted and (
            bowl.mis_seen >= 2 or now_ms - bowl.mis_since >= self.persist_ms
        ):
            bowl.mis_alerted = abs(diff)
            other = self.bowls[1 - colour_index(bowl.name)]
            self._mismatch(bowl, n, n - diff, other.mis, now_ms)

    def _mismatch(self, bowl, n, expected, other_diff, now_ms):
        d = n - expected
        colour = "Black" if bowl.name == "B" else "White"
        if d < 0:
            cause = "dropped or pocketed"
            if other_diff > 0:
                cause = "in the %s bowl" % ("white" if bowl.name == "B" else "black")
            text = "%s: %d stone%s short (%s?); bowl %d, expected %d" % (
                colour, -d, "" if d == -1 else "s", cause, n, expected)  # fmt: skip
        else:
            cause = "from the other bowl or not of this set"
            if other_diff < 0:
                cause = "from the %s bowl" % ("white" if bowl.name == "B" else "black")
            text = "%s: %d stone%s too many (%s?); bowl %d, expected %d" % (
                colour, d, "" if d == 1 else "s", cause, n, expected)  # fmt: skip
        self._alert("bowl-mismatch", text, bowl.name, now_ms)

    def _told(self, black, white):
        # The board's counts as a check is told them (None: as the board last said).
        b = self.bowls[0].on_board if black is None else black
        w = self.bowls[1].on_board if white is None else white
        for c in (b, w):
            _board_count(c, self.total)
        self.bowls[0].on_board = b
        self.bowls[1].on_board = w

    def _counted(self):
        # The after-count check is made: putting away follows, no reconciliation with the
        # board; the count filled every prisoner and every pass stone in.
        self.playing = False
        for bowl in self.bowls:
            bowl.in_lid = 0
            bowl.pass_out = 0

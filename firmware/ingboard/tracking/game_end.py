"""The end of the game: dead stones in the pause, the count, the fill-in and the put-away
checks (part of the Tracker).
"""

from ingrules.board import BLACK, EMPTY, WHITE, color_name
from ingrules.game import PAUSED
from micropython import const

from ingboard.alerts import alert_text
from ingboard.tracking.board_view import UNKNOWN

PUT_AWAY_MS = const(2000)


def _no_checkpoint():
    pass


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
        events = []
        board = self.game.board
        done = []
        for p in missing:
            if p in done or board.get(p) == EMPTY:
                continue
            chain = board.chain(p)
            gone = True
            for q in chain:
                if q not in missing or t - self.since[q] < self.settle_ms:
                    gone = False
            for q in chain:
                done.append(q)
            if gone:
                color = board.get(p)
                self.game.remove_dead(p)
                events.append(
                    {
                        "t": t,
                        "type": "removal",
                        "color": color_name(color),
                        "points": [board.name(q) for q in chain],
                    }
                )
        return events

    def _agree(self, t):
        """The players agree on the dead stones as they now stand on the board (button
        `agree`). While they are still taking them off - a chain partly lifted, a stone lifted
        within the settle time, a hand over the board - the agreement waits for the board to
        be still: a count never counts a board that holds stones being removed (Ing 1991
        Art. 1 "Pass Play": "After the dead stones have been taken away, both players pass
        again and play ends"; AGA Rule 9: "If the players agree on the status of all such
        groups, they are removed from the board ... and the game is scored")."""
        if self.game.phase == PAUSED and self._removing(t):
            self.agree_pending = True
            return []
        self.agree_pending = False
        self.game.agree()
        # A count with nothing to fill in (AGA, Chinese, ...) is checked at once: the board
        # may never change again before the stones are put away.
        return self._ended(t) + self._after_end(t)

    def _agreed_when_still(self, t):
        # The agreement kept by _agree: made once the dead stones are wholly off (or back);
        # withdrawn when play resumes.
        if not self.agree_pending:
            return []
        if self.game.phase != PAUSED:
            self.agree_pending = False
            return []
        if self._removing(t):
            return []
        return self._agree(t)

    def _removing(self, t):
        # Dead stones being taken off: a stone the game still has reads empty (a chain not yet
        # wholly off, or just lifted), or the board is hidden or changing.
        if self._unknown_points() or self._changing(t):
            return True
        seen = self.seen
        cells = self.game.board.cells
        faulty = self.faulty
        leaving = self.leaving
        for p in self.order:
            if seen[p] == EMPTY and cells[p] != EMPTY and not faulty[p] and p not in leaving:
                return True
        return False

    def _put_back(self, t, new):
        # During the pause a stone put back where a dead stone was taken off (by mistake)
        # restores that removal (Ing 1991 Art. 8 "Mistaken removal": parity is restored with no
        # penalty); it is no move.
        events = []
        game = self.game
        for p in new:
            color = self.seen[p]
            if (p, color) in game.dead and t - self.since[p] >= self.settle_ms:
                chain = game.restore_dead_chain(p)
                board = game.board
                events.append(
                    {
                        "t": t,
                        "type": "restored",
                        "color": color_name(color),
                        "points": [board.name(q) for q in chain],
                    }
                )
        return events

    def _ended(self, t):
        game = self.game
        self.clock.unhold()  # a press kept for the board no longer matters: the game is over
        events = self._clock_events(t, self.clock.pause(t)) if self.clock.running() else []
        if game.end_reason == "count":
            # Imported at the count, not with the tracker: the scoring is heap the game does
            # not need until then (.mpy on littlefs, docs/flashing.md). Loading a module
            # is a slice of its own on the Pico: the scan may run between (issue 20).
            cp = self.checkpoint or _no_checkpoint
            cp()
            from ingrules import scoring  # noqa: F401  (loaded here, used by counting)

            cp()
            from ingrules.counting import count_game

            cp()
            pb = self.clock.penalty(BLACK)
            pw = self.clock.penalty(WHITE)
            count, plan = count_game(game, penalty_b=pb, penalty_w=pw, checkpoint=self.checkpoint)
            if self.checkpoint is not None:
                self.checkpoint()
            count["t"] = t
            game.result = count["result"]
            self.counted = count
            self.plan = plan
            board = game.board
            if plan is None:
                self.fill_target = (board.count[BLACK], board.count[WHITE])
            elif plan.get("final"):
                # Ing 1991 Art. 4 "All stones are filled in to count": the board will hold
                # the plan's final position once both players have filled in.
                final = "".join(plan["final"])
                self.fill_target = (final.count("B"), final.count("W"))
            else:
                self.fill_target = None  # no layout fits (territory too small): no check
            events.append(count)
            if plan is not None:
                # Imported here: the fill-in modules are needed only at the end (heap_code).
                from ingboard.tracking.fill_in_check import plan_event

                if self.checkpoint is not None:
                    self.checkpoint()
                events.append(plan_event(plan, t))
        events.append({"t": t, "type": "end", "result": game.result, "reason": game.end_reason})
        return events

    def _after_end(self, t):
        # After the count: the bowls are checked when the fill-in is complete (Ing 1991 Art. 9
        # "to confirm that the game was counted correctly") and once the stones are put away.
        if self.checkpoint is not None:
            self.checkpoint()  # right after the count, this look at every point is a slice
        counts = [0, 0, 0, 0, 0]
        seen = self.seen
        since = self.since
        latest = 0
        for p in self.order:
            counts[seen[p]] += 1
            if since[p] > latest:
                latest = since[p]
        if counts[UNKNOWN] or t - latest < self.settle_ms:
            return []
        events = []
        target = self.fill_target
        filled = not self.filled and target and (counts[BLACK], counts[WHITE]) == target
        if filled and self.plan and not self.bowls.settled() and t - latest < 2 * PUT_AWAY_MS:
            # The last stone of the fill-in came out of a bowl a moment ago: the check waits
            # for the bowls to settle (each reading looks again, tracker._bowl), as the
            # put-away check does - a count is never taken from a bowl still moving. The
            # fill-in itself is read at once.
            filled = False
            if not self.fill_waiting:
                self.fill_waiting = True
                self.fill_check_due = True
        elif not filled:
            self.fill_waiting = False
        if filled:
            self.filled = True
            # Ing fill-in counting puts every stone on the board or in its bowl; any other
            # count leaves the prisoners (and AGA pass stones) where they are (bowls.check).
            event = self.bowls.check(
                "after-count", t, counts[BLACK], counts[WHITE], self.plan is None
            )
            event["t"] = t
            events.append(event)
            events += self._bowl_alerts(t)
            if not self.fill_waiting:
                self.fill_check_due = True  # (read already while the bowls settled)
            self.fill_waiting = False
        if self.fill_check_due:
            self.fill_check_due = False
            events += self._check_fill_in(t)
        if not counts[BLACK] and not counts[WHITE]:
            if not self.empty_since:
                self.empty_since = t  # the put-away check waits for the bowls (see _bowl)
        else:
            self.empty_since = 0
        return events

    def _check_fill_in(self, t):
        # The fill-in read off the board (fill_in_check.py): an alert naming the points when it
        # is not as the plan has it; the `fill-in` event carries the result the board reads.
        plan = self.plan
        if plan is None or not plan.get("final") or self.counted is None:
            return []
        seen = self.seen
        stones = 0
        for p in self.order:
            if seen[p] == BLACK or seen[p] == WHITE:
                stones += 1
        board = self.game.board
        if stones < board.count[BLACK] + board.count[WHITE]:
            return []  # fewer stones than the counted position: being put away, not filled in
        from ingboard.tracking.fill_in_check import read_fill_in

        event = read_fill_in(self.game.board, plan, self.seen, self.counted)
        event["t"] = t
        self.fill_read = event
        events = [event]
        if event["disturbed"]:
            points = [board.parse(n) for n in event["disturbed"]]
            events.append(self._alert_event(t, "fill-in-disturbed", points))
        if event["wrong"] or not event["ok"]:
            points = [board.parse(n) for n in event["wrong"]]
            text = alert_text("fill-in-wrong") + " " + "; ".join(event["reasons"])
            events.append(self._alert_event(t, "fill-in-wrong", points, text))
        if event["result"] != self.counted["result"]:
            self.notes.add(
                len(self.game.plies),
                "fill-in on the board reads %s (count %s)"
                % (event["result"], self.counted["result"]),
            )
        return events

    def fill_in_done(self, t):
        """A clock press after the count: the players say the fill-in is done - read it
        (again, after a correction)."""
        if self.plan is None or self.put_away:
            return []
        self.fill_check_due = True
        return self._after_end(t)

    def _put_away(self, t):
        # Ing 1991 Art. 9, 1996 Rule 2: 180 each once the stones are back in the bowls - when
        # the board has been empty a while and both bowls have settled since.
        if self.put_away or not self.empty_since or t - self.empty_since < PUT_AWAY_MS:
            return []
        if not self.bowls.settled() and t - self.empty_since < 2 * PUT_AWAY_MS:
            return []  # a scale that never settles gives an uncertain count (null), not none
        self.put_away = True
        return [self._bowls_event(t, "put-away")] + self._bowl_alerts(t)

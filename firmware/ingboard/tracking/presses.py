"""Presses: the clock keys (part of the Tracker; issue 14 classes 3, 4, 6 and 7).

The press completes or confirms the presser's move. It is judged only on a board that can be
judged: while a working point reads '?' (a hand, an arm) or something changed within the settle
time, the press is kept (`press_pending`, journaled) and judged as soon as the board is
readable and stable - a stone seen and then hidden is never turned into a pass, and a stone
seen in a single scan at the press is neither a move nor, by its absence, a pass. The clock
stops for the presser at the press meanwhile and, judged a move or a pass, switches as of the
press (timekeeper.py: the presser is never charged the board's wait).

Judged, the press is:
- the presser's one new stone, stable and legal: their move (an illegal one: the ruleset says,
  game.commit_illegal);
- no new stone: a pass play (per the ruleset's pass semantics) - unless a dead sensor's point
  had the presser's hand near it this turn: then the board asks (`dead-point`); a second press
  before the opponent moves says "my stone is on that point";
- two new stones under Ing 1991 (Art. 9 "Resigning": "he should place two stones on the board
  to indicate that he has resigned"): offered as resignation (`resign-offer`), confirmed by a
  second press or the resign button; taking a stone back withdraws the offer. Other rulesets:
  `two-stones` stands and the press waits until one is taken back;
- while a stone of the presser is unaccounted for (`stone-missing`): kept until it is.
A press by the player whose clock is not running goes to out_of_turn.py (two moves in a row, a
changed play; otherwise a double press, a bounce, a wrong key, a key held across a reboot:
nothing at all).
"""

from ingrules.board import BLACK, EMPTY, WHITE, color_name
from ingrules.game import ENDED, PAUSED, IllegalMove
from micropython import const

PRESS_WAIT_MS = const(1500)


class Presses:
    """What a press of a clock key means (a Tracker mixin)."""

    def _init_presses(self):
        # The handshake of a committed play and its press (shared with plays.py, the one
        # documented exception in tests/test_architecture.py):
        self.awaiting_press = 0  # colour whose committed move has not been pressed yet
        # A colour whose move the tracker confirmed itself (the opponent played before the
        # press): that player's late press is then expected and changes nothing.
        self.press_owed = [False, False, False]
        self.resign_offer = 0  # colour whose two stones + press offer resignation (Ing 1991)
        self.dead_ask = None  # (colour, point, plies): "a stone on the dead point?"
        self.press_pending = 0  # colour whose press waits for a readable board
        self.press_time = 0  # when the kept press was made (the clock switches as of then)
        self.press_next = 0  # the opponent's press that came while press_pending waits
        self.press_next_time = 0

    def _press(self, t, color):
        # The scan may run between the parts of a press (tracker._slice).
        events = self._start(t)
        self._slice()
        events += self._evaluate(t)
        self._slice()
        return events + self._key(t, color)

    def _key(self, t, color, at=-1):
        # at: when the key was pressed (a press kept behind another one is judged later).
        if at < 0:
            at = t
        events = []
        game = self.game
        if game.phase == ENDED:
            return events + self.fill_in_done(t)  # game_end.py: read the fill-in (again)
        if self.resign_offer == color:
            # Ing 1991 Art. 9 "Resigning": the second press confirms the two stones.
            self.resign_offer = 0
            game.resign(color)
            return events + self._ended(t)
        if self.dead_ask and self.dead_ask[0] == color:
            return events + self._dead_point_stone(t)
        if self.awaiting_press == color and self._slid_before_press(t, color):
            events += self._slide_events  # plays.py: the play is where the stone lies now
        if self.awaiting_press == color:
            # The press that confirms the presser's committed move: the clock switches now.
            # The opponent's late press for their own earlier move is then no longer expected.
            self.awaiting_press = 0
            self.press_owed[3 - color] = False
            return events + self._clock_moved(at, color)
        if game.free_stones_left:
            return events  # presses while Black places a free handicap change nothing
        if self.press_owed[color]:
            self.press_owed[color] = False
            return events
        if not self.arrived[color]:
            return events + self._arrive(t, color)  # the first press says "I am here"
        if self.press_pending == color:
            return events  # a bounce or a second press while the first waits: kept once
        if self.press_pending:
            # The opponent's press while the first one waits: kept, judged right after it.
            self.press_next = color
            self.press_next_time = at
            return events
        if color != self._clock_side() and not self._own_new_stones(color):
            # A double press, a bounce, the wrong key: nothing at all. The side whose clock is
            # not running is also the player to move while the opponent's play is on the
            # board but not pressed yet (the opponent played before this player's own press,
            # then that press bounced): never a pass (Ing 1991 Art. 10 "Timekeeper": "The
            # players must play stones and press the clock with the same hand").
            return events
        self.press_time = at
        self.press_pending = color
        # The presser's clock stops at the press until it is judged (timekeeper.py).
        events += self._hold_press(at, color)
        return events + self._judge_press(t)

    def _own_new_stones(self, color):
        """New stones of `color` that are not known otherwise (moved, extra, slipped)."""
        seen = self.seen
        out = []
        for p in self._differences(self.last_t)[0]:
            if seen[p] != color or p in self.moved or p in self.extra or self._slipped(p):
                continue
            out.append(p)
        return out

    def _clock_side(self):
        # Whose clock runs as the presses have left it: the player whose committed play is not
        # pressed yet, else the player to move.
        return self.awaiting_press or self.game.to_play

    def _judge_press(self, t):
        """Judge the pending press if the board can be judged now (else keep it); then the
        opponent's press that came meanwhile, if any."""
        events = []
        while self.press_pending:
            if self._unknown_points() or self._changing(t):
                return events
            color = self.press_pending
            self._slice()
            if color != self.game.to_play:
                self.press_pending = 0
                from ingboard.tracking.out_of_turn import out_of_turn

                events += out_of_turn(self, t, color)
            else:
                events += self._press_now(t, color)
            # Judged and not a switch (or still waiting for the players to put the board
            # right): the presser's time runs on from the press.
            events += self._release_hold(t)
            if self.press_pending or not self.press_next:
                return events
            color = self.press_next
            self.press_next = 0
            at = self.press_next_time
            events += self._catch_up(at)  # the clock as it was at that press
            events += self._key(t, color, at)
        return events

    def _press_now(self, t, color):
        game = self.game
        if game.phase == ENDED:
            self.press_pending = 0
            return []
        new, missing, _lifted = self._differences(t)
        lost = self._displaced(new, missing)
        cells = game.board.cells
        for q in lost:
            if cells[q] == color:
                return []  # a stone of the presser is unaccounted for: wait (class 1)
        if lost and game.phase == PAUSED:
            # Dead stones half taken off (a chain partly lifted): the players are still
            # removing them, so the pass that may end play and count waits until every chain
            # is wholly off or back (never count a board that holds stones being removed).
            return []
        seen = self.seen
        active = self.active
        # A stone put down in the opponent's turn (`wrong-colour`, a stray stone left on the
        # board) is not this player's move later: the press is judged without it.
        mine = [
            p
            for p in new
            if seen[p] == color
            and p not in self.moved
            and p not in self.extra
            and ("wrong-colour", p) not in active
        ]
        candidates = [p for p in mine if not self._slipped(p)] or mine
        if len(candidates) > 1:
            if game.rules.resign_two_stones and len(candidates) == 2:
                # Ing 1991 Art. 9 "Resigning": two stones and the press offer resignation.
                self.press_pending = 0
                self.resign_offer = color
                return self._alert(t, "resign-offer", candidates, force=True)
            return []  # two stones (`two-stones` stands): kept until one is taken back
        if len(candidates) == 1:
            p = candidates[0]
            reason = game.legality(color, p)
            if reason is None:
                return self._commit(t, color, p)  # press_pending: the clock switches now
            self.press_pending = 0
            # The player completed an illegal move: the ruleset says what that means.
            outcome = game.commit_illegal(color, reason)
            if outcome == "forfeit":
                return self._ended(t)
            if outcome == "pass":
                self.leaving[p] = color  # AGA Rule 8: taken back, treated as a pass
                return self._passed(t, color)
            return self._alert(t, reason, [p], force=True)
        self.press_pending = 0
        dead = self._dead_point_near(color)
        first_pass = game.consecutive_passes == 0
        try:
            game.pass_move(color)
        except IllegalMove as exc:
            return [self._alert_event(t, "not-your-turn", [], str(exc))]
        self._slice()
        events = self._passed(t, color)
        if dead >= 0 and first_pass and game.phase != ENDED:
            # The board cannot see that point: ask (never guess). The pass stands unless the
            # presser presses again before the opponent moves (then: a stone on that point).
            self.dead_ask = (color, dead, len(game.plies))
            events += self._alert(t, "dead-point", [dead], force=True)
        return events

    def _dead_point_near(self, color):
        # A dead sensor's empty point, legal for the presser, with their hand near it during
        # this turn (a neighbour's reading changed since the opponent's last play).
        faulty = self.faulty
        game = self.game
        cells = game.board.cells
        since = self.since
        turn = self.commit_times[-1] if self.commit_times else -1
        board = game.board
        for p in self.order:
            if not faulty[p] or cells[p] != EMPTY or game.legality(color, p) is not None:
                continue
            for q in board.neighbours(p):
                if not faulty[q] and since[q] > turn:
                    return p
        return -1

    def _dead_point_stone(self, t):
        # The second press: "my stone is on the unreadable point" - the pass becomes that play.
        color, p, plies = self.dead_ask
        self.dead_ask = None
        game = self.game
        if len(game.plies) != plies or self.faulty[p] == 0:
            return []
        game.undo()
        self.bowls.pass_stone(color, t, -1)  # not a pass after all: its stone goes back
        if game.legality(color, p) is not None:
            game.pass_move(color)  # not a legal play there after all: the pass stands
            self.bowls.pass_stone(color, t)
            return self._alert(t, "dead-point", [p], force=True)
        del self.ply_props[len(game.plies) :]
        events = [{"t": t, "type": "undo", "to_play": color_name(game.to_play)}]
        self.active.pop(("dead-point", p), None)
        # The clock switched at the first press; the play replaces the pass without a switch.
        pending = self.press_pending
        self.press_pending = 0
        self.awaiting_press = 0
        events += self._commit(t, color, p)
        self.awaiting_press = 0
        self.press_pending = pending
        return events

    def _passed(self, t, color):
        game = self.game
        events = [self._pass_event(t, color)]
        self._played(t, color)
        self._slice()
        events += self._clock_moved(t, color)
        if game.phase == PAUSED and not self.pause_announced:
            events += self._paused(t)
        elif game.phase == ENDED:
            events += self._ended(t) + self._after_end(t)  # (as tracker's `agree`)
        return events

    def _pass_event(self, t, color, mandatory=False):
        self.bowls.pass_stone(color, t)  # a pass stone leaves the bowl (bowls.PASS_STONES)
        game = self.game
        board = game.board
        # A pass is a play too: the bowls learn who is to move now (a stone in hand).
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        n = len(game.plies) if mandatory else game.moves_made
        ev = {"t": t, "type": "pass", "n": n, "color": color_name(color)}
        if mandatory:
            ev["mandatory"] = True
        return ev

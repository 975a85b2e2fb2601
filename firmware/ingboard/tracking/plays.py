"""Plays: explaining the board's new stones as moves of the game (part of the Tracker).

A new stone of the player to move, stable for `settle_ms` of board time, at a legal point, is
committed as that player's move; free handicap stones are placed the same way; a retraction
both players accept (`undo`) takes the last play back.
"""

from ingrules.board import BLACK, EMPTY, WHITE, color_name
from ingrules.game import ENDED, MANDATORY_PASS, PAUSED, PLAY, IllegalMove
from micropython import const

from ingboard.tracking.board_view import UNKNOWN

SLIP_MS = const(600)  # a stone appearing this close to a prisoner's lift is a slipped prisoner


def _differ():
    # differ_viper.next_differing where this port has a native emitter, else None (the pure
    # walk).
    try:
        from ingboard.tracking import differ_viper
    except (ImportError, SyntaxError, ValueError):
        return None  # no native emitter (WebAssembly) or an .mpy for another architecture
    return differ_viper.next_differing if differ_viper.NATIVE else None


_DIFFER = [_differ()]  # a list: tests set [None] to compare with the pure walk


class Plays:
    """Committing moves and handicap stones from the board (a Tracker mixin)."""

    def _init_plays(self):
        self.commit_times = []  # board times of the last three plies
        # Stones on the board before the first move (not in the game): point -> True
        self.extra = {}
        self.lift_t = [-1, -1, -1]  # when each colour's prisoners were last lifted
        # Captured (or retracted) stones still allowed on the board until lifted: point -> colour
        self.leaving = {}
        self.covered_version = -1  # seen_version when stones under a hand were last looked at
        self._slide_events = []  # what _slid_before_press did

    def _evaluate(self, t):
        events = []
        game = self.game
        if game.phase == ENDED:
            return events + self._after_end(t)
        events += self._find_faults(t)
        self._slice()
        settle = self.settle_ms
        seen = self.seen
        since = self.since
        # Keep committing while the board explains a move (an early next move follows at once).
        while True:
            new, missing, lifted = self._differences(t)
            if self.covered_version != self.seen_version:
                # A stone that still reads as one under a hand: a stuck sensor (sensor_faults).
                self.covered_version = self.seen_version
                found = self._under_hand(t, new)
                if found:
                    events += found
                    continue  # that point is left out now: read the board again
            for p in lifted:
                # When the prisoners of a colour were lifted (a slipped one: see _slipped).
                self.lift_t[self.leaving.pop(p)] = t
            if game.phase == PAUSED:
                events += self._dead_stones(t, missing)
                back = self._put_back(t, new)
                if back:
                    events += back
                    continue  # the position changed: read the board again
            if game.free_stones_left:
                placed = self._handicap_stones(t, new)
                if placed:
                    events += placed
                    continue
            color = game.to_play
            lost = self._displaced(new, missing)
            mine = []
            theirs = []
            active = self.active
            for p in new:
                if p in self.moved or p in self.extra:
                    continue  # a known stone: moved, or there before the game
                if seen[p] == color and ("wrong-colour", p) not in active:
                    mine.append(p)
                else:
                    # (A stone the board called the wrong colour in the opponent's turn is
                    # not this player's move later: it stays that alert until removed.)
                    theirs.append(p)
            if self.awaiting_press and self.awaiting_press != color:
                # A second stone of the player whose move is not pressed yet: that move was
                # not complete - two new stones (Ing 1991: resigning; else `two-stones`).
                second = [
                    p
                    for p in theirs
                    if seen[p] == self.awaiting_press
                    and t - since[p] >= settle
                    and not self._slipped(p)
                    and ("wrong-colour", p) not in active
                ]
                if second:
                    events += self._reopen(t)
                    continue
            if self.awaiting_press and self._slid_before_press(t, self.awaiting_press, t):
                events += self._slide_events
                continue  # the play stands where the stone lies now: read the board again
            cells = game.board.cells
            # Issue 14 class 1: while a stone of the player to move is unaccounted for, none
            # of their new stones is a move (it may be that stone, put down elsewhere).
            blocked = False
            for q in lost:
                if cells[q] == color:
                    blocked = True
            candidates = [p for p in mine if not self._slipped(p)]
            if not candidates and len(mine) == 1 and self.press_pending == color:
                candidates = mine  # a fast reply after a capture: the press confirms it
            if self.resign_offer and (self.resign_offer != color or len(candidates) != 2):
                self.resign_offer = 0  # a stone taken back: the offer is withdrawn
            committed = False
            if len(candidates) == 1 and not blocked:
                p = candidates[0]
                # The stability rule, at the press too (class 4): never a stone seen briefly.
                if t - since[p] >= settle and not self._hidden_neighbour(p):
                    reason = game.legality(color, p)
                    if reason is None:
                        # A play that takes many stones is tens of ms of the RP2040's time in
                        # each part (its check, the play, the prisoners' bookkeeping; issue
                        # 32): the app's scan may run between them (tracker._slice).
                        self._slice()
                        events += self._commit(t, color, p)
                        committed = True
                        self._slice()
                    else:
                        events += self._alert(t, reason, [p])
            if not committed:
                break
        events += self._alerts(t, new, lost, color, mine, theirs)
        if self.press_pending:
            events += self._judge_press(t)
        if self.agree_pending:
            events += self._agreed_when_still(t)  # game_end.py
        return events

    def _slipped(self, p):
        # A stone of a colour whose prisoners are being lifted (under the hand now, or seen
        # lifted within SLIP_MS after it appeared), that came straight onto an empty point (no hand
        # over it first): a prisoner slipping from the fingers, not a move (`stone-extra`).
        color = self.seen[p]
        if self.before[p] != EMPTY:
            return False
        if self.since[p] == self.unordered_t:
            # Down when the board came back from a power cut, and the prisoners lifted in the
            # same first scan: which came first nobody saw. The usual case is the move made
            # after the lift, the power gone before the board took it (the twin's soak): a
            # stone of the player to move is judged as their move, not as a slipped prisoner.
            return False
        lifted = self.lift_t[color]
        if lifted >= 0 and 0 <= lifted - self.since[p] <= SLIP_MS:
            return True  # it appeared, then the lift was seen: dropped as it was lifted
        seen = self.seen
        for q in self.leaving:
            if self.leaving[q] == color and seen[q] == UNKNOWN:
                return True
        return False

    def _differences(self, t):
        seen = self.seen
        cells = self.game.board.cells
        leaving = self.leaving
        faulty = self.faulty
        shifted = self.shifted
        new = []
        missing = []
        lifted = []
        differ = _DIFFER[0]
        order = self.order
        n = len(order)
        if differ is not None:
            # Only the points that read otherwise than the game (differ_viper.py: the walk over
            # every point in native code), then each prisoner being lifted.
            for p in leaving:
                if seen[p] == EMPTY and not faulty[p] and cells[p] == EMPTY:
                    lifted.append(p)  # read as the game: not among the points
            k = differ(order, seen, cells, faulty, 0)
        else:
            k = 0
        while k < n:
            p = order[k]
            k = k + 1 if differ is None else differ(order, seen, cells, faulty, k + 1)
            v = seen[p]
            if v == UNKNOWN or faulty[p]:
                continue
            c = cells[p]
            if p in leaving:
                if v == EMPTY:
                    lifted.append(p)
                continue
            if v == c:
                continue
            if shifted and p in shifted:
                continue  # an accepted shift: the stone stands for its game point
            if c == EMPTY:
                new.append(p)
            elif v == EMPTY:
                missing.append(p)
            else:
                new.append(p)  # a stone of the other colour where the game has one
        extra = self.extra
        if extra:
            for p in list(extra):
                if seen[p] == cells[p]:
                    del extra[p]  # taken away: the board is as the game
        return new, missing, lifted

    def _commit(self, t, color, p):
        game = self.game
        events = []
        if self.awaiting_press and self.awaiting_press != color:
            # The opponent played before pressing: their move is confirmed now.
            events += self._clock_moved(t, self.awaiting_press)
            self.press_owed[self.awaiting_press] = True
            self.awaiting_press = 0
        left_over = [q for q in self.leaving if self.game.board.get(q) == EMPTY]
        if not self.arrived[color]:
            events += self._arrive(t, color)  # playing a stone is arriving too
            if game.phase == ENDED:
                return events
        was_paused = game.phase == PAUSED
        try:
            ply = game.play(color, p)
        except IllegalMove as exc:
            # The board changed between the check and the play: an alert, never a crash.
            return events + self._alert(t, exc.reason, [p])
        self._slice()
        if was_paused:
            events += self._resumed(t)  # a board play during the pause resumes play and time
        for q in ply.captured:
            self.leaving[q] = 3 - color
            if self.shifted:
                self._shift_captured(q, 3 - color)
        self._played(t, color)
        for q in ply.self_removed:
            self.leaving[q] = color
        self._slice()
        board = game.board
        events.append(
            {
                "t": t,
                "type": "move",
                "n": game.moves_made,
                "color": color_name(color),
                "point": board.name(p),
                "captures": [board.name(q) for q in ply.captured],
            }
        )
        if ply.self_removed:
            events[-1]["self_removed"] = [board.name(q) for q in ply.self_removed]
        if game.plies[-1].kind == MANDATORY_PASS:
            events.append(self._pass_event(t, WHITE, mandatory=True))
        if self.press_pending == color:
            self.press_pending = 0
            events += self._clock_moved(t, color)
        else:
            self.awaiting_press = color
        if left_over:
            events += self._alert(t, "remove-captured", left_over, force=True)
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        if not self.checked_before:
            # Ing 1991 Art. 9: 180 each before the game (the first stone is on the board now).
            events.append(self._before_check(t))
        return events + self._bowl_alerts(t)

    def _handicap_stones(self, t, new):
        # Free handicap (AGA Rule 4; Ing "free placement"): Black places the stones one by one
        # before White's first move; each stable black stone is one of them.
        events = []
        game = self.game
        board = game.board
        for p in new:
            if not game.free_stones_left:
                break
            if self.seen[p] != BLACK or board.get(p) != EMPTY:
                continue
            if t - self.since[p] < self.settle_ms:
                continue
            game.place_handicap_stone(p)
            events.append({"t": t, "type": "handicap", "point": board.name(p)})
            if not game.free_stones_left:
                events += self._clock_moved(t, BLACK)  # White's clock runs now
        if events:
            self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        return events

    def _undo(self, t):
        game = self.game
        if not game.plies:
            return []
        last = game.plies[-1]
        if last.kind == MANDATORY_PASS and len(game.plies) > 1:
            last = game.plies[-2]
        n = len(game.plies)
        game.undo()
        del self.ply_props[len(game.plies) :]
        # Ing 1991 Art. 8 "Retraction of a play" is always recorded (an SGF comment).
        where = "pass" if last.point < 0 else game.board.name(last.point)
        self.notes.add(
            len(game.plies),
            "retraction: %s %s (ply %d) taken back" % (color_name(last.color), where, n),
        )
        if last.point < 0:
            self.bowls.pass_stone(last.color, t, -1)  # a retracted pass: its stone goes back
        if last.point >= 0:
            self.leaving[last.point] = last.color  # the retracted stone goes back to the bowl
        for q in last.captured:
            self.leaving.pop(q, None)
        self.awaiting_press = 0
        self.press_owed = [False, False, False]
        self.undo_clock(t)
        board = game.board
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        return [{"t": t, "type": "undo", "to_play": color_name(game.to_play)}]

    def _slid_before_press(self, t, color, settled_t=-1):
        """The stone of `color`'s committed play, not pressed yet, slid to a neighbouring
        point (within displacement's reach): until the press the play is where the stone lies
        (the slide is part of placing it; Ing 1991 Art. 10: "The players must play stones and
        press the clock with the same hand" - the press ends the play), so the play is made
        again there, noted in the record. After the press a slide is a nudge (`stone-moved`).
        settled_t: the slid stone must have stood still since settled_t - settle time (< 0:
        at the press, as it lies). True when done (its events in self._slide_events)."""
        game = self.game
        last = None
        for ply in reversed(game.plies):
            if ply.kind != MANDATORY_PASS:
                last = ply
                break
        if last is None or last.color != color or last.point < 0 or game.phase != PLAY:
            return False
        origin = last.point
        if self.seen[origin] != EMPTY:
            return False
        dest = self._slid_to(origin, settled_t)
        if dest < 0:
            return False
        # Legal there instead, on the position before the play?
        game.undo()
        reason = game.legality(color, dest)
        game.play(color, origin)  # as it was (the same captures: the game is deterministic)
        if reason is not None:
            return False
        self._forget_slide(dest)
        board = game.board
        events = self._reopen(t)
        events += self._commit(t, color, dest)
        self._note(
            "%s slid from %s to %s before the press"
            % (color_name(color), board.name(origin), board.name(dest))
        )
        self._slide_events = events
        return True

    def _played(self, t, color):
        # Every ply: its time (sensor_faults.py counts plays around a stuck reading; the
        # dead-point question looks at this turn only), and the question of the opponent's
        # dead-point pass is answered: they played on.
        times = self.commit_times
        times.append(t)
        if len(times) > 3:
            times.pop(0)
        ask = self.dead_ask
        if ask and ask[0] != color:
            self.dead_ask = None

    def _reopen(self, t):
        # Take back the last play, committed but not pressed, as not yet made (no clock change:
        # the clock was never switched for it).
        game = self.game
        last = game.plies[-1]
        if last.kind == MANDATORY_PASS and len(game.plies) > 1:
            last = game.plies[-2]
        game.undo()
        del self.ply_props[len(game.plies) :]
        for q in last.captured:
            self.leaving.pop(q, None)
        self.awaiting_press = 0
        board = game.board
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)
        return [{"t": t, "type": "undo", "to_play": color_name(game.to_play)}]

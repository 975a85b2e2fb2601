"""Plays: explaining the board's new stones as moves of the game (part of the Tracker).

A new stone of the player to move, stable for `settle_ms` of board time, at a legal point, is
committed as that player's move; free handicap stones are placed the same way; a retraction
both players accept (`undo`) takes the last play back.
"""

from ingboard.core.board import BLACK, EMPTY, WHITE, color_name
from ingboard.core.game import ENDED, MANDATORY_PASS, PAUSED, IllegalMove
from ingboard.core.presses import PRESS_WAIT_MS
from ingboard.core.sensing import UNKNOWN


class Plays:
    """Committing moves and handicap stones from the board (a Tracker mixin)."""

    def _evaluate(self, t):
        events = []
        game = self.game
        if game.phase == ENDED:
            return events + self._after_end(t)
        settle = self.settle_ms
        # Keep committing while the board explains a move (an early next move follows at once).
        while True:
            new, missing, lifted = self._differences(t)
            for p in lifted:
                del self.leaving[p]
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
            mine = [p for p in new if self.seen[p] == color]
            theirs = [p for p in new if self.seen[p] != color]
            committed = False
            if (
                len(mine) == 1
                and not self._moved_stone(mine[0], missing)
                and not self._hidden_neighbour(mine[0])
            ):
                p = mine[0]
                stable = t - self.since[p] >= settle
                forced = self.press_pending == color
                if stable or forced:
                    reason = game.legality(color, p)
                    if reason is None:
                        events += self._commit(t, color, p)
                        committed = True
                    elif t - self.since[p] >= settle:
                        events += self._alert(t, reason, [p])
            if not committed:
                break
        events += self._alerts(t, new, missing, color, mine, theirs)
        if self.press_pending and (
            not self._unknown_points() or t - self.press_time >= PRESS_WAIT_MS
        ):
            events += self._press_now(t, self.press_pending)
        return events

    def _differences(self, t):
        seen = self.seen
        cells = self.game.board.cells
        leaving = self.leaving
        new = []
        missing = []
        lifted = []
        for p in self.order:
            v = seen[p]
            if v == UNKNOWN:
                continue
            c = cells[p]
            if p in leaving:
                if v == EMPTY:
                    lifted.append(p)
                continue
            if v == c:
                continue
            if c == EMPTY:
                new.append(p)
            elif v == EMPTY:
                missing.append(p)
            else:
                new.append(p)  # a stone of the other colour where the game has one
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
        if was_paused:
            events += self._resumed(t)  # a board play during the pause resumes play and time
        for q in ply.captured:
            self.leaving[q] = 3 - color
        for q in ply.self_removed:
            self.leaving[q] = color
        board = game.board
        events.append(
            {
                "t": t,
                "type": "move",
                "n": len([x for x in game.plies if x.kind != MANDATORY_PASS]),
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
            self.checked_before = True
            events.append(self._bowls_event(t, "before"))
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

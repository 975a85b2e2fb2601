"""The tracker's bookkeeping put back after a power cut: the other half of the journal's
contract (tracker_state.py's state()), loaded only for a recovery (TrackerState.restore_state)
and dropped after it with the journal's reader (app/recorder.py, gc_policy.drop): on the stock
image its code would otherwise be heap for the whole game."""

from ingrules.board import BLACK, EMPTY, WHITE
from ingrules.game import ENDED

from ingboard.tracking.board_view import UNKNOWN


class TrackerRestore:
    """restore_state() of a Tracker, called as TrackerRestore.restore_state(tracker, state, t)
    (tracker_state.py; it may assign every concept's state, as the journal's contract)."""

    def restore_state(self, state, t):
        """See TrackerState.restore_state."""
        self.awaiting_press = state[0]
        self.press_owed = [False, bool(state[1]), bool(state[2])]
        self.checked_before = bool(state[3])
        self.started = bool(state[4])
        flat = state[5]
        self.leaving = {}
        for k in range(0, len(flat), 2):
            self.leaving[flat[k]] = flat[k + 1]
        end = state[6] if len(state) > 6 else 0
        self.filled = bool(end & 1)
        self.put_away = bool(end & 2)
        self.empty_since = state[7] if len(state) > 7 else 0
        count_t = state[8] if len(state) > 8 and state[8] >= 0 else t
        # A press kept for a readable board survives the cut (issue 14 class 3): judged when
        # the board is read again.
        self.press_pending = state[9] if len(state) > 9 else 0
        self.press_time = state[10] if len(state) > 10 else 0
        self.resign_offer = state[11] if len(state) > 11 else 0
        for p in state[12] if len(state) > 12 else ():
            self._set_faulty(p)
        self.extra = {}
        for p in state[13] if len(state) > 13 else ():
            self.extra[p] = True
        self.moved = _pairs(state[14]) if len(state) > 14 else {}
        self.shifted = _pairs(state[15]) if len(state) > 15 else {}
        self.press_next = state[16] if len(state) > 16 else 0
        self.press_next_time = state[17] if len(state) > 17 else 0
        self.agree_pending = bool(state[18]) if len(state) > 18 else False
        if self.clock.held:
            # The press the clock is held for was made at press_time (timekeeper.py): the
            # switch, once judged, is as of then.
            self.clock.restore(self.clock.snapshot(), self.press_time)
        self.active = {}
        self.scanned = True  # stones seen from now on are judged as in play, not as "extra"
        self.unordered_t = -2  # tracker._RESUMED: the next scan shows what changed meanwhile
        self.last_t = t
        self.due = 0
        game = self.game
        cells = game.board.cells
        for p in self.order:
            self.seen[p] = cells[p]
            self.since[p] = t
        for p in self.leaving:
            if cells[p] == EMPTY:
                self.seen[p] = self.leaving[p]
        for p in self.extra:
            self.seen[p] = BLACK  # some stone: the next scan says which (or that it is gone)
        for dest in self.moved:
            origin = self.moved[dest]
            self.seen[dest] = cells[origin]
            self.seen[origin] = EMPTY
        for dest in self.shifted:
            origin = self.shifted[dest]
            if cells[origin] != EMPTY and cells[dest] == EMPTY:
                self.seen[dest] = cells[origin]
                self.seen[origin] = EMPTY
        if self.press_pending:
            # A kept press is judged on the board as it is read, never on this assumed one:
            # unread until the first scan after the restart (presses.py waits for it).
            for p in self.order:
                self.seen[p] = UNKNOWN
        self.seen_version += 1  # what the sensors see was set here (tracker._board_dues)
        self.counted = None
        self.plan = None
        self.fill_target = None
        if game.phase == ENDED and game.end_reason == "count":
            self._ended(count_t)  # the count as it was made (the clock is stopped): exact
        if self.filled:
            return
        # Stones that left the board are prisoners (in a lid), the rest are on the board.
        placed = [0, 0, 0]
        for _p, color in game.setup:
            placed[color] += 1
        for ply in game.plies:
            if ply.point >= 0:
                placed[ply.color] += 1
        total = self.bowls.total
        self.bowls.on_board(min(total, placed[BLACK]), min(total, placed[WHITE]), t)
        board = game.board
        self.bowls.on_board(board.count[BLACK], board.count[WHITE], t, game.to_play)


def _pairs(flat):
    out = {}
    for k in range(0, len(flat), 2):
        out[flat[k]] = flat[k + 1]
    return out

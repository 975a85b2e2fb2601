"""The tracker's bookkeeping as the journal keeps it (part of the Tracker)."""

from ingrules.board import BLACK, EMPTY, WHITE
from ingrules.game import ENDED

from ingboard.tracking.board_view import UNKNOWN


class TrackerState:
    """state() / restore_state(): the journal contract (a Tracker mixin)."""

    def _init_tracker_state(self):
        self._no_faults = None  # bytes of zeros as long as `faulty` (made at the first use)

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
        leaving = []
        for p in sorted(self.leaving):
            leaving.append(p)
            leaving.append(self.leaving[p])
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
            sorted(self.extra),
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
        zeros = self._no_faults
        if zeros is None or len(zeros) != len(faulty):
            zeros = self._no_faults = bytes(len(faulty))
        if faulty == zeros:
            return []
        return [p for p in self.order if faulty[p]]

    def restore_state(self, state, t):
        """Continue at board time t from a list of state() (the first six items suffice) once
        the game, clock, bowls, ply_props and undo stack are what they were: the journal's
        recovery after a power cut. The sensors are taken to show the game, with the captured
        stones not yet lifted still there, as of t (the next scan puts that right) - unread
        while a press is kept (it is judged on the board as read again); the count
        and the fill-in plan of a counted game are computed again from its position; the
        bowls learn the stones on the board and the prisoners again (not after the after-count
        check: from then on they are not reconciled with the board)."""
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
            self.faulty[p] = 1
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


def _flat(pairs):
    out = []
    for p in sorted(pairs):
        out.append(p)
        out.append(pairs[p])
    return out


def _pairs(flat):
    out = {}
    for k in range(0, len(flat), 2):
        out[flat[k]] = flat[k + 1]
    return out

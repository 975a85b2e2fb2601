"""The simulated players' mishaps, injected to test the tracker's alerts: a stone of the wrong
colour played and taken back, a ko retaken at once and taken back, a stone nudged to a
neighbour or knocked off and put back, and a stone dropped on the floor on its way from the
bowl (lost for good: the bowl comes up short). Each is noted with the alert the tracker should
raise and when (`Simulation.injected`). A mixin of the simulator (host_tools/simulate.py).
"""

from ingrules.board import BLACK, EMPTY, opponent

# Mistake kind -> the alert code the tracker should raise for it (alerts.py).
MISTAKE_ALERTS = {
    "wrong-colour": "wrong-colour",
    "ko": "ko",
    "nudge": "stone-moved",
    "knock-off": "stone-missing",
    "drop": "bowl-mismatch",
}
# The board mistakes, each taken back by the player and alerted while it stands. A drop is not
# taken back and its alert comes from the bowls, up to two moves later
# (tests/host/test_bowls_tracked.py checks it); simulate() accepts every kind above.
MISTAKES = tuple(sorted(k for k in MISTAKE_ALERTS if k != "drop"))


def ko_point(board, prev):
    """The point where the opponent of `prev` would retake a ko just taken by `prev`."""
    if prev.point is None or len(prev.captured) != 1 or prev.self_removed:
        return None
    if len(board.chain(prev.point)) != 1 or board.liberties(prev.point) != 1:
        return None
    return prev.captured[0]


class Mishaps:
    """The mistakes the simulated players make and take back (a mixin: uses the simulator's
    hands, `board`, `rng`, `injected`, `moves_out`)."""

    def _dwell(self):
        return self._u((1000, 3000))

    def _note(self, kind, move, points, t0, t1):
        self.injected.append(
            {
                "kind": kind,
                "n": move.n,
                "color": "B" if move.color == BLACK else "W",
                "alert": MISTAKE_ALERTS[kind],
                "points": [self.board.name(q) for q in points],
                "t_ms": t0,
                "until_ms": t1,
            }
        )

    def _empty_point(self):
        pts = [q for q in self.board.points if self.board.get(q) == EMPTY]
        pts = [q for q in pts if not self._is_pending(q)]
        if not pts:
            raise ValueError("no empty point for a mistake")
        return self.rng.choice(pts)

    def _wrong_colour(self, t, move):
        """The player takes a stone from the opponent's bowl, plays it, then takes it back."""
        color, other = move.color, opponent(move.color)
        p = move.point if move.point is not None else self._empty_point()
        t = self._clear_pending(t, p)
        t0, gone = self._place(t + self._u((500, 2000)), color, p, stone=other)
        _act, back = self._hand(gone + self._dwell(), p, color, [(p, EMPTY)], lifting=True)
        self._bowl(back + self._u((300, 800)), other, "put")
        self._note("wrong-colour", move, [p], t0, back)
        return back + self._u((300, 1000))

    def _ko(self, t, move, prev):
        """The player retakes a ko at once, (sometimes lifts the stone), then takes it back."""
        color = move.color
        q = ko_point(self.board, prev)
        t = self._clear_pending(t, q)
        t0, gone = self._place(t + self._u((300, 1500)), color, q)
        last = gone
        lifted = self.level.occlusion and self.rng.random() < 0.4
        if lifted:
            # As if it were a capture: the ko stone comes off, and goes back on after the alert.
            p = prev.point
            _a, last = self._hand(gone + self._u((200, 600)), p, color, [(p, EMPTY)], True)
            _a, last = self._hand(last + self._dwell(), p, color, [(p, prev.color)], True)
        _a, back = self._hand(last + self._dwell(), q, color, [(q, EMPTY)], lifting=True)
        self._bowl(back + self._u((300, 800)), color, "put")
        self._note("ko", move, [q], t0, back)
        return back + self._u((300, 1000))

    def _drop(self, t, t_play, move):
        """A stone taken from the bowl falls on the floor (lost for good); the player gives up
        looking for it after a moment and takes another. Returns when the hand is free."""
        t0 = max(t + self._u((200, 600)), t_play - self._u((2000, 4000)))
        self._bowl(t0, move.color, "drop")
        self._note("drop", move, [], t0, t0)  # until_ms: see _drop_deadlines()
        return t0 + self._u((1500, 3000))

    def _drop_deadlines(self):
        """A drop's alert is due within two of the dropper's moves after it: `until_ms` is when
        their third move after it is made (the stone down, or the press of a pass), else the
        last press. (The bowls core reports a deficit seen at a second board position once
        the bowl has settled; the bowl is busy while its player takes stones.)"""
        for entry in self.injected:
            if entry["kind"] != "drop":
                continue
            later = [
                m["visible_ms"] if m["visible_ms"] is not None else m["press_ms"]
                for m in self.moves_out
                if m["n"] > entry["n"] and m["color"] == entry["color"]
            ]
            entry["until_ms"] = later[2] if len(later) > 2 else self.moves_out[-1]["press_ms"]

    def _disturb(self, t, kind, move):
        """After the move, a stone near it is nudged to a neighbour or knocked off; put back."""
        board = self.board
        stones = [q for q in board.points if board.get(q) != EMPTY and not self._is_pending(q)]
        if move.point is not None:
            pc, pr = board.col_row(move.point)

            def near(q):
                c, r = board.col_row(q)
                return max(abs(c - pc), abs(r - pr)) <= 2

            stones = [q for q in stones if near(q)] or stones
        candidates = []
        for s in stones:
            for e in board.neighbours(s):
                if board.get(e) == EMPTY and not self._is_pending(e):
                    candidates.append((s, e))
        if kind == "knock-off":
            candidates = [(s, None) for s in stones]
        if not candidates:
            raise ValueError("mistake %s at move %d: no stone to disturb" % (kind, move.n))
        s, e = self.rng.choice(candidates)
        c = board.get(s)
        who = move.color
        if kind == "nudge":
            t0, gone = self._hand(t, s, who, [(s, EMPTY), (e, c)], lifting=True)
            _a, back = self._hand(gone + self._dwell(), e, who, [(e, EMPTY), (s, c)], lifting=True)
            self._note(kind, move, [s, e], t0, back)
        else:
            t0, gone = self._hand(t, s, who, [(s, EMPTY)], lifting=True)
            _a, back = self._hand(gone + self._u((2000, 5000)), s, who, [(s, c)], lifting=True)
            self._note(kind, move, [s], t0, back)
        return back

"""The simulated players' hands: how two people put stones on the physical board and take them
off. A hand (and the arm behind it, from the player's own edge) hides the points around its
target as '?' while it is over the board; a stone is taken from the bowl before it is placed;
captured stones are lifted one by one and go back to their owner's bowl; a player's thinking
time is drawn per move within the basic time; the clock is pressed. A mixin of the simulator
(host_tools/simulate.py): every draw comes from its seeded `rng`, in the order the game calls
for them, so a seed gives the same log.
"""

import math

from ingrules.board import BLACK, EMPTY, WHITE


class Players:
    """The hands and the clock presses of the simulator's two players (a mixin: uses the
    simulator's `game`, `board`, `level`, `rng`, `events`, `bowl_events`, `presses`,
    `pending`, `seq`)."""

    def _u(self, pair):
        lo, hi = pair
        return lo if lo >= hi else self.rng.randint(lo, hi)

    def _event(self, t, what, a, b=None):
        self.seq += 1
        self.events.append((t, self.seq, what, a, b))

    def _bowl(self, t, color, action, n=1):
        self.seq += 1
        self.bowl_events.append((max(0, t), self.seq, color, action, n))

    def _hand_points(self, p, side, radius, arm_len):
        size = self.game.size
        col, row = self.board.col_row(p)
        pts = []
        for dr in range(-radius, radius + 1):
            for dc in range(-radius, radius + 1):
                c, r = col + dc, row + dr
                if 0 <= c < size and 0 <= r < size:
                    pts.append(self.board.index(c, r))
        # The arm reaches in from the player's edge: Black sits at line 1, White at the top.
        step = -1 if side == BLACK else 1
        arm = []
        c = col
        for i in range(1, arm_len + 1):
            r = row + step * (radius + i)
            if self.rng.random() < 0.3:
                c += self.rng.choice((-1, 1))
            for cc in (c, c + (1 if self.rng.random() < 0.5 else -1)):
                if 0 <= cc < size and 0 <= r < size:
                    q = self.board.index(cc, r)
                    if q not in pts and q not in arm:
                        arm.append(q)
        return pts, arm

    def _hand(self, t, p, side, actions, lifting=False):
        """A hand over p from `side`'s edge; `actions` [(point, colour)] happen under it.

        Returns (time of the actions, time the hand has left the board)."""
        lv = self.level
        if not lv.occlusion:
            for q, c in actions:
                self._event(t, "stone", q, c)
            return t, t
        d = self._u(lv.lift_ms if lifting else lv.place_ms)
        radius = lv.lift_radius if lifting else lv.radius
        blob, arm = self._hand_points(p, side, radius, self._u(lv.arm))
        a1 = self._u((20, 100))
        a2 = self._u((20, 100))
        self._event(t - a1, "occ", arm, 1)
        self._event(t, "occ", blob, 1)
        t_act = t + int(d * self.rng.uniform(0.35, 0.75))
        for q, c in actions:
            self._event(t_act, "stone", q, c)
        self._event(t + d, "occ", blob, -1)
        self._event(t + d + a2, "occ", arm, -1)
        return t_act, t + d + a2

    def _place(self, t_hand, color, p, stone=None):
        """`color` takes a stone (of `stone`'s colour if given) from its bowl and puts it on p.

        Returns (time the stone is down, time the hand has left)."""
        stone = stone or color
        self._bowl(t_hand - self._u((400, 1200)), stone, "take")
        return self._hand(t_hand, p, color, [(p, stone)])

    def _lift(self, t, who, stones):
        """`who` lifts stones [(point, colour)] one by one from t; returns when the hand is gone.

        They go back to their owner's bowl (Ing: captured stones return to the bowls)."""
        lv = self.level
        gone = t
        by_colour = {BLACK: 0, WHITE: 0}
        for i, (q, c) in enumerate(stones):
            if i:
                t = gone + self._u(lv.lift_gap)
            _act, gone = self._hand(t, q, who, [(q, EMPTY)], lifting=True)
            by_colour[c] += 1
        for c in (BLACK, WHITE):
            if by_colour[c]:
                self._bowl(gone + self._u((300, 1200)), c, "put", by_colour[c])
        return gone

    def _clear_pending(self, t, point):
        """Before anything is put on `point`, a captured stone still there is lifted."""
        for owner in (BLACK, WHITE):
            stones = self.pending[owner]
            if any(q == point for q, _c in stones):
                self.pending[owner] = []
                t = self._lift(t + self._u((200, 800)), owner, stones) + self._u((200, 500))
        return t

    def _is_pending(self, point):
        return any(q == point for owner in (BLACK, WHITE) for q, _c in self.pending[owner])

    def _thinking(self):
        """Seeded thinking times (ms) per move; each player's total stays within 60% of the
        basic time, so the clock runs realistically but nobody loses on time by accident."""
        thinks = []
        totals = {BLACK: 0, WHITE: 0}
        for move in self.game.moves:
            if move.point is None:
                ms = self.rng.randint(1000, 6000)
            else:
                ms = int(min(45000, max(700, self.rng.lognormvariate(math.log(4000), 0.7))))
            thinks.append(ms)
            totals[move.color] += ms
        budget = self.game.basic_s * 1000 * 0.6
        for i, move in enumerate(self.game.moves):
            if totals[move.color] > budget:
                thinks[i] = max(300, int(thinks[i] * budget / totals[move.color]))
        return thinks

    def _press(self, t, color):
        self.presses.append((t, color))

"""Simulated games through the bowls core: a dropped stone is reported within two moves, a
correctly played game raises nothing, and the three checks come out right (Ing 1991 Art. 9
customs 1-3; 1996 Rule 2: location of stones, putting away and checking 180).

No tracker yet: the game is a sequence of board stone counts (moves, captures into the lids,
occasionally prisoners returned) driven together with two BowlModel bowls read at 10 Hz.
"""

import random

from ingboard.bowls.bowls import Bowls

from host_tools.bowl_model import BowlModel

RATE_MS = 100


class Game:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        rng = self.rng
        self.models = {
            c: BowlModel(
                seed * 2 + i,
                spread_pct=rng.uniform(1, 3),
                noise_g=rng.uniform(0.1, 1.0),
                bias_g=rng.uniform(-0.3, 0.3),
                creep_g=2.0,
            )
            for i, c in enumerate("BW")
        }
        cfg = {c: {"w180_g": round(m.full_weight(), 1)} for c, m in self.models.items()}
        self.bowls = Bowls(cfg, 19)
        self.t = 0
        self.board = {"B": 0, "W": 0}
        self.lids = {"B": [], "W": []}  # prisoners of that colour, out of their bowl
        self.alerts = []

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            for c in "BW":
                self.bowls.feed(c, self.models[c].reading(self.t), self.t)
            self.t += RATE_MS
        self.alerts.extend(self.bowls.poll())

    def move(self, color, drop=False):
        rng = self.rng
        other = "W" if color == "B" else "B"
        model = self.models[color]
        if drop:  # the stone falls on the floor; the player takes another
            model.lose(model.take(self.t))
            self.run(rng.randint(1500, 3000))
        model.take(self.t)
        self.run(rng.randint(1500, 6000))  # the stone travels to the board
        self.board[color] += 1
        if self.board[other] > 4 and rng.random() < 0.1:
            k = rng.randint(1, 3)
            self.board[other] -= k
            self.lids[other].append(k)
        self.bowls.on_board(self.board["B"], self.board["W"], self.t, other)
        self.run(rng.randint(500, 2000))
        if self.lids[other] and rng.random() < 0.05:  # prisoners returned (1996 Rule 2)
            self.models[other].put(self.lids[other].pop(), self.t)
            self.run(2000)

    def fill_in_and_put_away(self):
        """Fill-in counting puts every stone on the board; then each player puts his away."""
        for c in "BW":
            m = self.models[c]
            while m.count():
                m.take(self.t)
        self.run(5000)
        counted = self.bowls.check("after-count", self.t, 180, 180)
        for c in "BW":
            m = self.models[c]
            m.put(len(m.out), self.t)
        self.run(5000)
        return counted, self.bowls.check("put-away", self.t)


def play(seed, moves, drop_at=None):
    g = Game(seed)
    g.run(3000)
    before = g.bowls.check("before", g.t)
    alert_move = None
    for k in range(moves):
        g.move("B" if k % 2 == 0 else "W", drop=(k == drop_at))
        if alert_move is None and any(a["code"] == "bowl-mismatch" for a in g.alerts):
            alert_move = k
    return g, before, alert_move


def test_correct_games_raise_nothing_and_all_checks_are_180():
    for seed in range(6):
        g, before, _ = play(seed, 120)
        assert before["B"] == 180 and before["W"] == 180 and before["confident"]
        assert g.alerts == [], (seed, g.alerts)
        counted, away = g.fill_in_and_put_away()
        assert counted["B"] == 0 and counted["W"] == 0 and counted["confident"], counted
        assert away["B"] == 180 and away["W"] == 180 and away["confident"], away
        assert g.alerts == [] and g.bowls.poll() == []


def test_dropped_stone_is_reported_within_two_moves():
    for seed in range(10):
        drop_at = 30 + seed * 7
        g, _, alert_move = play(100 + seed, drop_at + 4, drop_at)
        assert alert_move is not None and alert_move <= drop_at + 2, (seed, alert_move)
        dropped = "B" if drop_at % 2 == 0 else "W"
        first = [a for a in g.alerts if a["code"] == "bowl-mismatch"][0]
        assert first["color"] == dropped and "1 stone short" in first["text"]
        _, away = g.fill_in_and_put_away()
        assert away[dropped] in (179, None)  # never 180: the stone is on the floor

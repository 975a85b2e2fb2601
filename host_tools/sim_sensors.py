"""The simulated sensors: what the board's grid and the bowls' load cells report of what the
players do. The grid is scanned at the simulator's scan period and a scan is written only when
something physical changed (a stone, a hand's shadow, a one-scan flicker of a single point at
the noise level's rate); each bowl's load cell is read at 2 Hz, 10 Hz around a take or put,
through the bowl model (host_tools/bowl_model.py). A mixin of the simulator
(host_tools/simulate.py); the flicker has its own seeded stream, so a mistake does not
reshuffle it.
"""

from ingrules.board import BLACK, WHITE, stones_per_colour

from host_tools.bowl_model import BowlModel
from host_tools.errors import InputError


class Sensors:
    """The grid's scans and the load cells' readings of the simulated game (a mixin: reads the
    simulator's `events`, `bowl_events`, `board`, `game`, `level`, `scan_ms`; sets
    `set_weights`)."""

    def _flicker(self, end):
        rate = self.level.flicker_per_min
        if rate <= 0:
            return
        rng = self.flicker_rng
        period = self.scan_ms
        points = self.board.points
        t = 0
        while True:
            t += int(rng.expovariate(rate / 60000.0)) + 1
            if t >= end - 2 * period:
                break
            tick = -(-t // period) * period
            self._event(tick, "flick", rng.choice(points), rng.random())
            self._event(tick + period, "unflick", None)

    def _scans(self, end):
        """(tick, rows) at every scan tick where something physical happened."""
        period = self.scan_ms
        board = self.board
        size = self.game.size
        stride = board.stride
        state = bytearray(len(board.cells))
        occ = [0] * len(board.cells)
        flick = {}
        events = sorted(self.events, key=lambda e: (e[0], e[1]))
        yield 0, rows(size, stride, state, occ, flick)
        i = 0
        while i < len(events):
            tick = max(0, -(-events[i][0] // period) * period)
            if tick > end:
                break
            while i < len(events) and events[i][0] <= tick:
                _t, _s, what, a, b = events[i]
                i += 1
                if what == "stone":
                    state[a] = b
                elif what == "occ":
                    for q in a:
                        occ[q] += b
                elif what == "flick":
                    flick.clear()
                    flick[a] = b
                else:
                    flick.clear()
            yield tick, rows(size, stride, state, occ, flick)

    def _bowl_readings(self, end):
        """Each bowl read at 2 Hz, and at 10 Hz from just before a take or put to 4 s after
        (long enough for the firmware's window of readings to settle); every reading is a line,
        as the board's logger writes them (only scans are written on change)."""
        game = self.game
        stones = stones_per_colour(game.size)
        rng = self.rng
        out = []
        for color in (BLACK, WHITE):
            bowl = new_bowl(rng.randint(0, 2**31), stones, self.level.bowl)
            # The set was counted with the frame and enrolled in an earlier game, its weight
            # kept on the board (Ing 1991 Art. 9 "Counting" (1)): the config carries it.
            self.set_weights[color] = bowl.full_weight()
            mine = sorted(
                (e for e in self.bowl_events if e[2] == color), key=lambda e: (e[0], e[1])
            )
            times = set(range(rng.randint(0, 499), end, 500))
            for t, _s, _c, _a, _n in mine:
                times.update(range(max(0, t - 200), min(end, t + 4000), 100))
            j = 0
            for t in sorted(times):
                while j < len(mine) and mine[j][0] <= t:
                    et, _s, _c, action, n = mine[j]
                    j += 1
                    if action in ("take", "drop"):
                        try:
                            for _k in range(n):
                                stone = bowl.take(et)
                                if action == "drop":
                                    bowl.lose(stone)  # on the floor: never put back
                        except IndexError:
                            raise InputError(
                                "the game needs more than %d %s stones"
                                % (stones, "black" if color == BLACK else "white")
                            ) from None
                    else:
                        bowl.put(n, et)
                out.append((t, color, round(bowl.reading(t), 1)))
        return out


def new_bowl(seed, stones, options):
    """The simulated bowl on its load cell (host_tools/bowl_model.py)."""
    return BowlModel(seed, stones=stones, **options)


def rows(size, stride, state, occ, flick):
    rows = []
    for row in range(size - 1, -1, -1):
        base = (row + 1) * stride + 1
        chars = []
        for col in range(size):
            q = base + col
            ch = "?" if occ[q] > 0 else ".BW"[state[q]]
            if q in flick:
                # A glitch: mostly unreadable, otherwise one of the two wrong values.
                r = flick[q]
                if r < 0.6:
                    ch = "?"
                else:
                    wrong = [x for x in ".BW" if x != ch]
                    ch = wrong[0] if r < 0.8 else wrong[-1]
            chars.append(ch)
        rows.append("".join(chars))
    return rows

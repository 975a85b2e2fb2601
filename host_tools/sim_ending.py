"""The simulated end of a game, past the two passes that pause it: the players take the dead
stones off (Ing 1991 Art. 1), make the two passes that end play under Ing rules or press
`agree` under rules without them, fill the board in to the count plan under fill-in rules
(each player takes handfuls of stones from the bowl and places them one by one), then put every
stone back into its bowl a handful at a time. `Simulation.ending` says what happened and when.
A mixin of the simulator (host_tools/simulate.py).
"""

from ingrules.board import BLACK, EMPTY, WHITE, opponent


class Ending:
    """The dead stones, the ending passes, fill-in and put-away (a mixin: uses the simulator's
    hands, `game`, `board`, `moves_out`, `buttons`; sets `ending`)."""

    def _finish(self, t):
        """After the two passes that pause the game: dead stones off, the passes (or agreement)
        that end play, fill-in to the count plan, put-away. Returns when the last hand left."""
        from ingrules import rulesets
        from ingrules.counting import count_game
        from ingrules.game import Game as RulesGame

        game = self.game
        board = self.board
        rules = rulesets.get(game.rules)
        last = game.moves[-1].color
        ending = {"dead": [], "plan": None, "count": None, "final": None}
        self.ending = ending
        t += self._u((1500, 4000))
        if not rules.ends_at_pause:
            # The pause (Ing 1991 Art. 1): the dead stones are taken off, chain by chain, by
            # the player in whose territory they lie; they go back to their owner's bowl.
            ending["t_dead"] = t
            done = set()
            for p in self.game.dead:
                if p in done or board.get(p) == EMPTY:
                    continue
                chain = board.chain(p)
                done.update(chain)
                color = board.get(p)
                stones = [(q, color) for q in sorted(chain)]
                t = self._lift(t, opponent(color), stones) + self._u((500, 1500))
                for q in chain:
                    board.set(q, EMPTY)
                ending["dead"].extend(board.name(q) for q in sorted(chain))
            t += self._u((1000, 3000))
            if rules.scoring == rulesets.ING_FILL_IN:
                # Ing 1991 Art. 1: "both players pass again and play ends" (four passes).
                for color in (opponent(last), last):
                    t += self._u((800, 2500))
                    self._press(t, color)
                    n = len(self.moves_out) + 1
                    self.moves_out.append(ending_pass(n, color, t))
            else:
                self._button(t, "agree")
        ending["t_end"] = t
        rules_game = RulesGame(
            game.size,
            game.rules,
            komi=game.komi,
            handicap=game.handicap,
            handicap_style=game.config().get("handicap_style"),
        )
        rules_game.board = board.copy()  # count_game only reads the final position
        count, plan = count_game(rules_game)
        ending["count"] = count
        ending["plan"] = plan
        self._counted_stones = [q for q in board.points if board.get(q) != EMPTY]
        t += self._u((2000, 4000))
        if plan is not None and plan.get("final"):
            ending["final"] = list(plan["final"])
            ending["t_fill"] = t
            t = self._fill_in(t, plan["final"])
            t += self._u((3000, 6000))
        ending["t_put_away"] = t
        t = self._put_away(t)
        ending["t_done"] = t
        return t

    def _fill_in(self, t, final):
        """Both players at once: stones from their bowls until the board shows `final`."""
        board = self.board
        size = self.game.size
        wanted = {BLACK: [], WHITE: []}
        for i, line in enumerate(final):
            row = size - 1 - i
            for col, ch in enumerate(line):
                p = board.index(col, row)
                have = board.get(p)
                want = EMPTY if ch == "." else BLACK if ch == "B" else WHITE
                if have == want:
                    continue
                if have != EMPTY:
                    raise ValueError("the fill-in plan would move the stone at %s" % board.name(p))
                wanted[want].append(p)
        finished = t
        for color in (BLACK, WHITE):
            points = wanted[color]
            # Nearest first from the player's own edge, so the hands sweep across the board.
            points.sort(key=lambda q: board.col_row(q)[1] * (1 if color == BLACK else -1))
            cursor = t + self._u((300, 1500))
            i = 0
            while i < len(points):
                # A handful from the bowl (the last one never tiny: the bowl has settled on
                # it well before its last stone is down), then the stones one by one.
                k = min(len(points) - i, self._u((6, 12)))
                if 0 < len(points) - i - k < 4:
                    k = len(points) - i
                self._bowl(cursor, color, "take", k)
                cursor += self._u((1500, 3000))
                for q in points[i : i + k]:
                    _vis, gone = self._hand(cursor, q, color, [(q, color)])
                    board.set(q, color)
                    cursor = gone + self._u((150, 600))
                i += k
            finished = max(finished, cursor)
        return finished

    def _put_away(self, t):
        """Every stone back into its bowl: each player lifts their own colour, a handful at a
        time (a few stones near each other), and pours it into the bowl; the last few stones
        go into the bowl one by one as they are picked up. The stones the fill-in added come
        off first, the game's own stones last."""
        board = self.board
        game_stones = set(self._counted_stones)
        finished = t
        for color in (BLACK, WHITE):
            stones = [q for q in board.points if board.get(q) == color]
            stones.sort(key=lambda q: (q in game_stones, board.col_row(q)[::-1]))
            cursor = t + self._u((300, 1500))
            i = 0
            while i < len(stones):
                left = len(stones) - i
                k = 1 if left <= 3 else min(left - 3, self._u((3, 6)))
                gone = cursor
                for q in stones[i : i + k]:
                    _act, gone = self._hand(cursor, q, color, [(q, EMPTY)], lifting=True)
                    board.set(q, EMPTY)
                    cursor = gone + self._u((50, 250))
                # A handful is poured in a moment later; a last stone is slid off the board's
                # edge straight into the bowl.
                self._bowl(gone + (self._u((150, 400)) if k > 1 else self._u((30, 90))), color,
                           "put", k)  # fmt: skip
                cursor = gone + (self._u((900, 1600)) if k > 1 else self._u((50, 150)))
                i += k
            finished = max(finished, cursor)
        return finished

    def _button(self, t, name):
        self.buttons.append((t, name))


def ending_pass(n, color, press):
    return {
        "n": n,
        "color": "B" if color == BLACK else "W",
        "point": None,
        "visible_ms": None,
        "press_ms": press,
        "appended": True,
        "ending": True,
    }

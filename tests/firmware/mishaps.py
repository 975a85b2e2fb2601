"""Everyday mishaps at a real board, as session logs (shared: CPython and MicroPython).

An independent model of two people at an instrumented board - not `ingboard simulate`: its own
hands (a hand hides a patch of points as '?' while it places or lifts a stone), sleeves (a
sleeve drags stones along), slips (a stone knocked, a prisoner dropped back onto the board),
sensors (stuck '?', stuck 'B'/'W', a point flickering far above the noise floor) and keys
(bounce, double presses, the key of the player whose clock is not running, a key held across a
reboot). Each scenario plays a short game with one mishap in it and states what the players
expect from the rules: the main line (moves and passes in order), the alerts the board must
raise (and no others), and the end of the game when there is one.

The expectations are written from the rule texts and from what players at the board expect,
never from what the tracker does; the seed paragraph is cited at each rule.
"""

import json

from ingrules.game import Game

COLS = "ABCDEFGHJKLMNOPQRST"


class Rng:
    """A small deterministic generator (xorshift), identical on both interpreters."""

    def __init__(self, seed):
        self.s = (seed * 7919 + 12345) & 0x3FFFFFFF or 1

    def below(self, n):
        s = self.s
        s ^= (s << 7) & 0x3FFFFFFF
        s ^= s >> 9
        s ^= (s << 8) & 0x3FFFFFFF
        self.s = s or 1
        return s % n

    def between(self, lo, hi):
        return lo + self.below(hi - lo + 1)

    def choice(self, items):
        return items[self.below(len(items))]


def name(size, col, row):
    """Point name as the seeds write it (column letter without I, line from the bottom)."""
    return "%s%d" % (COLS[col], row + 1)


def coords(point):
    return COLS.index(point[0]), int(point[1:]) - 1


def other(color):
    return "W" if color == "B" else "B"


class Table:
    """Two players, a board with its sensors and the clock keys; writes a session log."""

    def __init__(self, size, rules, seed, **config):
        self.size = size
        self.rng = Rng(seed)
        config = dict(config)
        config["size"] = size
        config["rules"] = rules
        self.config = config
        self.game = Game(
            size,
            rules,
            komi=config.get("komi"),
            handicap=config.get("handicap", 0),
            handicap_style=config.get("handicap_style"),
        )
        self.stones = {}  # point name -> "B"/"W": what physically lies on the board
        self.hands = {}  # point name -> number of hands/arms over it (reads '?')
        self.stuck = {}  # point name -> what its dead sensor reads forever
        self.flicker = {}  # point name -> the stone a faulty sensor keeps flashing
        self.scan_ms = self.rng.between(20, 45)
        self.cached = None  # the scan text while nothing on or over the board changes
        self.t = 0
        self.n_scans = 0
        self.lines = ["ingboard-session 1", "0 config " + json.dumps(config)]
        self.main_line = []  # what the players expect the record to be
        self.alerts = []  # (code, sorted points) the board must raise
        self.may = []  # alerts the board may raise, depending on how long a slip lasted
        self.end = None  # (result, reason) when the game must end
        self.sgf_has = []  # texts the SGF must contain
        self.presses = []  # (colour, t) of every press, in order
        # With a clock: each player's clock stops at their own press (a chess clock), so the
        # time charged for a ply is from the opponent's press to the player's (check()).
        self.clock_check = "time" in config

    # -- the sensors ----------------------------------------------------------------------------

    def rows(self):
        if self.cached is not None and not self.flicker:
            return self.cached
        n = self.size
        out = []
        for r in range(n - 1, -1, -1):
            line = []
            for c in range(n):
                p = name(n, c, r)
                if p in self.stuck:
                    ch = self.stuck[p]
                elif p in self.flicker and self.n_scans % 2:
                    ch = self.flicker[p]
                elif self.hands.get(p):
                    ch = "?"
                else:
                    ch = self.stones.get(p, ".")
                line.append(ch)
            out.append("".join(line))
        self.cached = "/".join(out)
        return self.cached

    def scan(self):
        self.n_scans += 1
        self.lines.append("%d scan %s" % (self.t, self.rows()))

    def wait(self, ms):
        """Time passes; the grid is scanned every scan_ms."""
        end = self.t + ms
        while self.t + self.scan_ms <= end:
            self.t += self.scan_ms
            self.scan()
        self.t = end

    # -- hands and keys -------------------------------------------------------------------------

    def patch(self, point, radius=1):
        col, row = coords(point)
        out = []
        for dc in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                c, r = col + dc, row + dr
                if 0 <= c < self.size and 0 <= r < self.size:
                    out.append(name(self.size, c, r))
        return out

    def hand_over(self, points):
        self.cached = None
        for p in points:
            self.hands[p] = self.hands.get(p, 0) + 1

    def hand_off(self, points):
        self.cached = None
        for p in points:
            self.hands[p] -= 1
            if not self.hands[p]:
                del self.hands[p]

    def handle(self, point, action, radius=1):
        """A hand reaches over `point`, does `action()` under it, and leaves."""
        hidden = self.patch(point, radius)
        self.hand_over(hidden)
        self.wait(self.rng.between(120, 400))
        action()
        self.wait(self.rng.between(60, 250))
        self.hand_off(hidden)

    def press(self, color, after=None):
        if after is None:
            after = self.rng.between(150, 900)
        self.wait(after)
        self.t += 1
        self.lines.append("%d press %s" % (self.t, color))
        self.presses.append((color, self.t))

    def press_now(self, color, dt=1):
        self.t += dt
        self.lines.append("%d press %s" % (self.t, color))
        self.presses.append((color, self.t))

    def button(self, button_name):
        self.wait(self.rng.between(200, 600))
        self.t += 1
        self.lines.append("%d button %s" % (self.t, button_name))

    def put(self, point, color):
        self.cached = None
        self.stones[point] = color

    def take(self, point):
        self.cached = None
        self.stones.pop(point, None)

    # -- the players ----------------------------------------------------------------------------

    def to_play(self):
        return "B" if self.game.to_play == 1 else "W"

    def point_index(self, point):
        col, row = coords(point)
        return self.game.board.index(col, row)

    def legal(self, color, point):
        if point in self.stones or point in self.stuck or point in self.flicker:
            return False
        c = 1 if color == "B" else 2
        if c != self.game.to_play:
            return self.game.board.get(self.point_index(point)) == 0  # a place for the hand
        return self.game.legality(c, self.point_index(point)) is None

    def record_move(self, color, point):
        """The intended move in the players' game (what they expect recorded)."""
        ply = self.game.play(1 if color == "B" else 2, self.point_index(point))
        self.main_line.append("%s %s" % (color, point))
        return [self.game.board.name(q) for q in ply.captured]

    def place(self, color, point, press=True):
        """A normal move: hand, stone, hand away, press; the capturer lifts the prisoners."""
        captured = self.record_move(color, point)
        self.handle(point, lambda: self.put(point, color))
        lift_first = self.rng.below(2)
        if captured and lift_first:
            self.lift_all(captured)
        if press:
            self.press(color)
        if captured and not lift_first:
            self.lift_all(captured)
        return captured

    def lift_all(self, points):
        for q in points:
            self.handle(q, lambda q=q: self.take(q))
            self.wait(self.rng.between(50, 200))

    def pass_play(self, color):
        self.main_line.append("%s pass" % color)
        self.game.pass_move(1 if color == "B" else 2)
        self.press(color, self.rng.between(600, 2000))

    def random_point(self, color, avoid=(), margin=1):
        """A legal point for `color`, away from the edge and from `avoid`."""
        n = self.size
        for _ in range(400):
            c = self.rng.between(margin, n - 1 - margin)
            r = self.rng.between(margin, n - 1 - margin)
            p = name(n, c, r)
            if p in avoid or not self.legal(color, p):
                continue
            if self.own_eye(color, p):
                continue
            return p
        raise AssertionError("no legal point left")

    def own_eye(self, color, p):
        col, row = coords(p)
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = col + dc, row + dr
            if 0 <= c < self.size and 0 <= r < self.size:
                if self.stones.get(name(self.size, c, r)) != color:
                    return False
        return True

    def opening(self, moves, avoid=()):
        """`moves` ordinary moves at random points (each player thinks a little)."""
        for _ in range(moves):
            color = self.to_play()
            self.wait(self.rng.between(200, 1500))
            self.place(color, self.random_point(color, avoid))

    def expect_alert(self, code, points):
        key = (code, tuple(sorted(points)))
        if key not in self.alerts:
            self.alerts.append(key)

    def may_alert(self, code, points):
        self.may.append((code, tuple(sorted(points))))

    def neighbours(self, point, diagonal=False):
        col, row = coords(point)
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if diagonal:
            steps = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
        out = []
        for dc, dr in steps:
            c, r = col + dc, row + dr
            if 0 <= c < self.size and 0 <= r < self.size:
                out.append(name(self.size, c, r))
        return out

    def free(self, point):
        return (
            point not in self.stones
            and point not in self.stuck
            and point not in self.flicker
            and self.game.board.get(self.point_index(point)) == 0
        )

    def log(self):
        return "\n".join(self.lines) + "\n"


# -- reading what the board decided ---------------------------------------------------------------


def main_line(events):
    """The record the events describe: moves and passes in order, retractions applied."""
    line = []
    for e in events:
        kind = e["type"]
        if kind == "move":
            line.append("%s %s" % (e["color"], e["point"]))
        elif kind == "pass" and not e.get("mandatory"):
            line.append("%s pass" % e["color"])
        elif kind == "undo":
            line.pop()
    return line


def alerts(events):
    return [(e["code"], tuple(sorted(e["points"]))) for e in events if e["type"] == "alert"]


def sgf_move_times(sgf_text):
    """[(colour, ms left or None)] of the SGF's move nodes in order (BL/WL read exactly)."""
    out = []
    node = None
    i = 0
    n = len(sgf_text)
    ident = ""
    while i < n:
        ch = sgf_text[i]
        if ch == "[":
            j = i + 1
            value = ""
            while sgf_text[j] != "]":
                if sgf_text[j] == "\\":
                    j += 1
                value += sgf_text[j]
                j += 1
            if node is not None and ident:
                node[ident] = value
            i = j + 1
            continue
        if ch == ";":
            if node is not None:
                out.append(node)
            node = {}
            ident = ""
        elif "A" <= ch <= "Z":
            if i == 0 or not ("A" <= sgf_text[i - 1] <= "Z"):
                ident = ""
            ident += ch
        i += 1
    if node is not None:
        out.append(node)
    times = []
    for node in out:
        for color in ("B", "W"):
            if color in node:
                left = node.get(color + "L")
                times.append((color, None if left is None else _ms(left)))
    return times


def _ms(text):
    whole, _, frac = text.partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def clock_problems(table, sgf_text):
    """A player's clock stops at their press (Ing 1991 Art. 7: the time used is the time
    "taken ... to make a move", a press completing it; issue 14: never the board's wait):
    between two plies of one player, their time left drops by exactly the time from the
    opponent's press to theirs."""
    problems = []
    times = sgf_move_times(sgf_text)
    presses = table.presses
    if len(times) != len(table.main_line) or len(presses) != len(times):
        return [
            "%d SGF moves, %d expected, %d presses"
            % (len(times), len(table.main_line), len(presses))
        ]
    for k in range(2, len(times)):
        color, left = times[k]
        _c, before = times[k - 2]
        if presses[k][0] != color or presses[k - 1][0] == color:
            return ["press %d is %s, ply %d is %s" % (k, presses[k][0], k, color)]
        used = presses[k][1] - presses[k - 1][1]
        if left is None or before is None or before - left != used:
            problems.append(
                "ply %d (%s): charged %s ms, the player's clock ran %d ms"
                % (k + 1, table.main_line[k], None if left is None else before - left, used)
            )
    return problems


def check(scenario, events, sgf_text=None):
    """Compare what the board decided with what the players expect; returns a list of
    differences (empty when the board behaved as the players expect)."""
    table = scenario.table
    problems = []
    got = main_line(events)
    if got != table.main_line:
        problems.append("main line %s, expected %s" % (got, table.main_line))
    raised = alerts(events)
    for key in table.alerts:
        if key not in raised:
            problems.append("alert %s %s not raised (raised: %s)" % (key[0], key[1], raised))
    for key in raised:
        if key not in table.alerts and key not in table.may:
            problems.append("unexpected alert %s %s" % key)
        if key[0] == "sensor-fault" and raised.count(key) > 1:
            problems.append("sensor-fault %s reported %d times" % (key[1], raised.count(key)))
    ends = [e for e in events if e["type"] == "end"]
    if table.end is None and ends:
        problems.append("the game ended (%s) but should go on" % ends[-1])
    if table.end is not None:
        want = table.end
        if not ends:
            problems.append("the game did not end; expected %s" % (table.end,))
        elif isinstance(want, str) and ends[-1]["reason"] != want:
            problems.append("end %s, expected reason %s" % (ends[-1], want))
        elif not isinstance(want, str) and (ends[-1]["result"], ends[-1]["reason"]) != want:
            problems.append("end %s, expected %s" % (ends[-1], table.end))
    if sgf_text is not None and table.clock_check:
        problems += clock_problems(table, sgf_text)
    if sgf_text is not None:
        for text in table.sgf_has:
            if text not in sgf_text:
                problems.append("the SGF lacks %r" % text)
    return problems


class Scenario:
    def __init__(self, label, mishap, table):
        self.label = label
        self.mishap = mishap
        self.table = table

    def __repr__(self):
        return "<%s>" % self.label


# -- the mishaps ---------------------------------------------------------------------------------


def _mover_stone_with_free(table, color, diagonal=False, distance=1):
    """A stone of `color` with a free point `distance` away (straight, or diagonal)."""
    if diagonal:
        steps = ((1, 1), (-1, 1), (1, -1), (-1, -1))
    else:
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    for point in sorted(table.stones):
        if table.stones[point] != color:
            continue
        col, row = coords(point)
        for dc, dr in steps:
            c, r = col + dc * distance, row + dr * distance
            if not (0 <= c < table.size and 0 <= r < table.size):
                continue
            q = name(table.size, c, r)
            if table.free(q) and table.free(name(table.size, col + dc, row + dr)):
                return point, q
    raise AssertionError("no displaceable stone")


def own_displaced(table, how):
    """Issue 14 class 1: a stone of the player to move leaves its point (not captured): slid,
    dragged diagonally, knocked two points away. It is never a new move: `stone-moved` names
    both points, and once it is back the player's real move is recorded as usual."""
    table.opening(6)
    color = table.to_play()
    distance = 2 if how.startswith("knocked") else 1
    diagonal = how in ("diagonal", "knocked-diagonal")
    origin, dest = _mover_stone_with_free(table, color, diagonal, distance)

    def slide():
        table.take(origin)
        table.put(dest, color)

    table.handle(origin, slide, radius=distance)
    table.wait(table.rng.between(900, 2500))  # the players notice the alert
    table.expect_alert("stone-moved", [origin, dest])

    def back():
        table.take(dest)
        table.put(origin, color)

    table.handle(dest, back, radius=distance)
    table.wait(400)
    table.opening(3)


def wall_shift(table):
    """A sleeve drags a two-stone wall of the player to move one line sideways: each stone is
    `stone-moved`; none is a move; put back, play goes on."""
    table.opening(4)
    color = table.to_play()
    n = table.size
    for _ in range(200):
        c = table.rng.between(2, n - 4)
        r = table.rng.between(2, n - 4)
        a, b = name(n, c, r), name(n, c + 1, r)
        a2, b2 = name(n, c, r + 1), name(n, c + 1, r + 1)
        if all(table.free(p) for p in (a, b, a2, b2)) and table.legal(color, a):
            break
    table.place(color, a)
    table.place(other(color), table.random_point(other(color), avoid=(a, b, a2, b2)))
    table.place(color, b)
    table.place(other(color), table.random_point(other(color), avoid=(a, b, a2, b2)))
    # `color` is to move again; the sleeve drags the wall one line up.
    hidden = table.patch(a) + table.patch(b)
    table.hand_over(hidden)
    table.wait(200)
    table.take(a)
    table.take(b)
    table.put(a2, color)
    table.put(b2, color)
    table.wait(120)
    table.hand_off(hidden)
    table.wait(1500)
    table.expect_alert("stone-moved", [a, a2])
    table.expect_alert("stone-moved", [b, b2])
    table.hand_over(hidden)
    table.wait(250)
    table.take(a2)
    table.take(b2)
    table.put(a, color)
    table.put(b, color)
    table.wait(100)
    table.hand_off(hidden)
    table.wait(300)
    table.opening(2, avoid=(a2, b2))


def prisoner_slip(table, pick_up=True):
    """The capturer lifts the prisoners and one slips from the fingers back onto an empty
    point: it is the captured player's colour and that player is to move, but it is nobody's
    move (`stone-extra`); that player's real move is recorded."""
    n = table.size
    m = n // 2
    # A quick capture in the centre: the black stone at the centre point gets surrounded.
    target = name(n, m, m)
    around = [name(n, m + 1, m), name(n, m - 1, m), name(n, m, m + 1), name(n, m, m - 1)]
    table.place("B", target)
    for i, w in enumerate(around):
        if i == 3:
            break
        table.place("W", w)
        table.place("B", table.random_point("B", avoid=around))
    captured = table.record_move("W", around[3])
    table.handle(around[3], lambda: table.put(around[3], "W"))
    table.press("W")
    spot = table.random_point("B", avoid=around + [target])

    def slip():
        table.take(target)
        table.put(spot, "B")  # it falls from the fingers onto another point

    assert captured == [target]
    table.handle(target, slip)
    table.wait(table.rng.between(900, 2000))
    table.expect_alert("stone-extra", [spot])
    if not pick_up:
        return spot
    table.handle(spot, lambda: table.take(spot))  # the capturer picks it up again
    table.wait(300)
    table.opening(3, avoid=[spot])
    return spot


def nudge_left(table, accept):
    """Issue 14 class 2: a stone nudged to a neighbouring point and left there. `stone-moved`
    once; the next moves (the owner's included) are recorded; with `accept`, the players accept
    the shift with the button and the SGF records it."""
    table.opening(5)
    color = table.to_play()
    owner = other(color)  # a stone of the player who just moved
    origin, dest = _mover_stone_with_free(table, owner)

    def nudge():
        table.take(origin)
        table.put(dest, owner)

    table.handle(origin, nudge)
    table.wait(800)
    table.expect_alert("stone-moved", [origin, dest])
    avoid = table.patch(origin) + table.patch(dest)
    table.opening(4, avoid=avoid)
    if accept:
        table.button("accept-shift")
        table.game.board.set(table.point_index(origin), 0)
        table.game.board.set(table.point_index(dest), 1 if owner == "B" else 2)
        table.sgf_has.append("shift %s-%s" % (origin, dest))
        table.opening(2, avoid=avoid)


def slide_before_press(table):
    """The player's own new stone slides to a neighbouring point as the hand leaves, before
    the press: until the press the play is where the stone lies (docs/tracking.md; Ing 1991 Art. 10
    "The players must play stones and press the clock with the same hand"), so the move is
    the point it slid to, noted in the record; no `stone-moved`, nothing stalls."""
    table.opening(4)
    color = table.to_play()
    point = table.random_point(color)
    dest = [
        q
        for q in table.neighbours(point)
        if table.free(q) and q != point and table.legal(color, q) and not table.own_eye(color, q)
    ][0]
    table.record_move(color, dest)
    table.handle(point, lambda: table.put(point, color))
    table.wait(300)  # it stood still on its point: the board took it as the play

    def slide():
        table.take(point)
        table.put(dest, color)

    table.handle(point, slide)
    table.press(color)
    table.wait(800)
    table.opening(3)


def hidden_at_press(table, how):
    """Issue 14 class 3: a press while points are hidden ('?'). A stone seen and then hidden
    is the move, never a pass; a pass made with a hand over the board is judged when it
    leaves; the opponent's press while the board is unreadable is kept and judged later."""
    table.opening(4)
    color = table.to_play()
    if how == "stone-hidden":
        point = table.random_point(color)
        table.record_move(color, point)
        table.handle(point, lambda: table.put(point, color))
        table.wait(table.rng.between(150, 400))
        arm = table.patch(point, 2)  # the opponent reaches across to the bowl
        table.hand_over(arm)
        table.press(color, 200)
        table.wait(table.rng.between(1600, 3500))
        table.hand_off(arm)
        table.wait(300)
    elif how == "pressed-under-hand":
        point = table.random_point(color)
        table.record_move(color, point)
        hidden = table.patch(point)
        table.hand_over(hidden)
        table.wait(200)
        table.put(point, color)
        table.press(color, 100)  # the other hand presses while this one still covers it
        table.wait(table.rng.between(300, 2500))
        table.hand_off(hidden)
        table.wait(300)
    elif how == "pass-under-arm":
        table.main_line.append("%s pass" % color)
        table.game.pass_move(1 if color == "B" else 2)
        arm = table.patch(table.random_point(color), 2)
        table.hand_over(arm)
        table.press(color, 300)
        table.wait(table.rng.between(1700, 4000))
        table.hand_off(arm)
        table.wait(300)
    else:  # "flash-then-hidden": seen in one scan only, then hidden, then pressed
        point = table.random_point(color)
        table.record_move(color, point)
        hidden = table.patch(point)
        table.put(point, color)
        table.scan()
        table.hand_over(hidden)
        table.press(color, table.scan_ms)
        table.wait(2000)
        table.hand_off(hidden)
        table.wait(300)
    table.opening(3)


def opponent_press_unreadable(table):
    """The opponent plays and presses while the first player's hand still covers the board
    (lifting prisoners, say): the press is kept, judged when the board can be read."""
    table.opening(4)
    color = table.to_play()
    point = table.random_point(color)
    table.record_move(color, point)
    hidden = table.patch(point)
    table.hand_over(hidden)
    table.wait(150)
    table.put(point, color)
    arm = table.patch(table.random_point(other(color), avoid=hidden), 1)
    table.hand_over(arm)
    table.press(color, 80)
    table.wait(200)
    table.hand_off(hidden)
    table.wait(table.rng.between(1600, 3000))
    table.hand_off(arm)
    table.wait(300)
    table.opening(3)


def flicker_at_press(table):
    """Issue 14 class 4: a stone seen in a single scan at the moment of a pass press is no
    move: the press is a pass once the board is stable."""
    table.opening(4)
    color = table.to_play()
    spot = table.random_point(color)
    table.main_line.append("%s pass" % color)
    table.game.pass_move(1 if color == "B" else 2)
    table.wait(table.rng.between(600, 1500))
    table.put(spot, color)
    table.scan()  # one scan only
    table.press_now(color)
    table.take(spot)
    table.wait(600)
    table.opening(2)


def blitz_press(table):
    """A stone pressed for at once (blitz): it is the move once it has stood still."""
    table.opening(4)
    for _ in range(3):
        color = table.to_play()
        point = table.random_point(color)
        table.record_move(color, point)
        table.put(point, color)
        table.scan()
        table.press_now(color, table.rng.between(1, 20))
        table.wait(table.rng.between(300, 700))


def stuck_sensor(table, reading, when):
    """Issue 14 class 5: a dead sensor (always '?', always 'B' or 'W') or a flickering one is
    found from the scans, reported once as `sensor-fault`, excluded; the game goes on to the
    end: moves, passes in quick succession, the pause, the count."""
    n = table.size
    dead = name(n, table.rng.between(0, n - 1), 0)  # on the first line, away from play
    if when == "start":
        table.stuck[dead] = reading
        table.cached = None
        if reading in "BW":
            # Before the first move a stone (or a sensor reading as one) is no move (class 5).
            table.expect_alert("stone-extra", [dead])
    table.wait(500)
    table.opening(4, avoid=table.patch(dead))
    if when == "mid":
        if reading == "flicker":
            table.flicker[dead] = table.to_play()
        else:
            if reading == "stone":
                # A sensor dying as a stone of the player who just moved: a wrong colour
                # until the board finds it is stuck.
                reading = other(table.to_play())
                table.expect_alert("wrong-colour", [dead])
            table.stuck[dead] = reading
            table.cached = None
    if reading not in ("?", "flicker"):
        # The board asks for the stone to be taken away (`stone-extra`, `wrong-colour`); the
        # player who reaches over it finds nothing to take: under the hand the point still
        # reads a stone, which no real stone does (a sensor fault, not a stray stone).
        table.wait(table.rng.between(1500, 4000))
        table.handle(dead, lambda: None)
    table.expect_alert("sensor-fault", [dead])
    table.wait(table.rng.between(500, 2000))
    table.opening(6, avoid=table.patch(dead))
    table.wait(31000)  # long enough for any detection
    # Quick passes to the pause (two), then (no dead stones) two more to the end.
    for _ in range(4):
        color = table.to_play()
        table.main_line.append("%s pass" % color)
        table.game.pass_move(1 if color == "B" else 2)
        table.press(color, table.rng.between(150, 400))
    table.end = "count"


def dead_point_play(table):
    """A stone played on a dead ('?') point: the board cannot see it, so it asks; the player's
    second press confirms "a stone at the unreadable point"."""
    n = table.size
    m = n // 2
    dead = name(n, m + 2, m + 2)
    table.stuck[dead] = "?"
    table.cached = None
    table.wait(500)
    table.opening(4, avoid=table.patch(dead))
    table.wait(31000)
    table.expect_alert("sensor-fault", [dead])
    color = table.to_play()
    table.record_move(color, dead)
    table.handle(dead, lambda: table.put(dead, color))
    table.press(color)
    table.expect_alert("dead-point", [dead])  # the board asks: a stone on that point?
    table.press(color, table.rng.between(500, 1500))  # yes: a stone on the unreadable point
    table.opening(3, avoid=table.patch(dead))


def keys(table, how):
    """Issue 14 class 6: key bounce, double press, the key of the player whose clock is not
    running, a key held across a reboot: logged and ignored, never a pass for anyone."""
    table.opening(4)
    color = table.to_play()
    if how == "bounce":
        point = table.random_point(color)
        table.record_move(color, point)
        table.handle(point, lambda: table.put(point, color))
        table.press(color)
        table.press_now(color, table.rng.between(2, 8))
    elif how == "double":
        point = table.random_point(color)
        table.record_move(color, point)
        table.handle(point, lambda: table.put(point, color))
        table.press(color)
        table.press(color, table.rng.between(80, 400))
    elif how == "not-running":
        table.press(other(color), table.rng.between(500, 3000))  # the waiting player's key
        table.press(other(color), table.rng.between(100, 300))
    else:  # "held-reboot": the same press reported again when the board starts
        point = table.random_point(color)
        table.record_move(color, point)
        table.handle(point, lambda: table.put(point, color))
        table.press(color)
        table.press(color, table.rng.between(2000, 6000))
    table.opening(4)


def two_moves(table, rules_effect):
    """A player moves twice in a row (plays, presses, plays again and presses).
    AGA Rule 8: "the player must take back ... both moves ... it shall be treated as a pass,
    and a pass stone exchanged"; Ing 1996 "Penalized mistakes": "Making two consecutive
    moves ... the game is forfeited"; Ing 1991: no penalty, the extra stone is taken back."""
    table.opening(4)
    color = table.to_play()
    first = table.random_point(color)
    table.place(color, first)
    second = table.random_point(color)
    table.handle(second, lambda: table.put(second, color))
    table.press(color, 100)
    table.may_alert("wrong-colour", [second])
    table.expect_alert("two-moves", [second] if rules_effect == "reject" else [first, second])
    if rules_effect == "forfeit":
        table.end = ("%s+F" % other(color), "forfeit")
        return
    if rules_effect == "pass":
        table.main_line.pop()
        table.main_line.append("%s pass" % color)
        table.game.undo()
        table.game.pass_move(1 if color == "B" else 2)
        table.handle(first, lambda: table.take(first))
    table.handle(second, lambda: table.take(second))
    table.wait(300)
    table.opening(3)


def retraction(table, forfeit):
    """Ing 1991 Art. 8 "Forfeiture" (3) "Retraction of a play: a player changes a play after
    making it": the player lifts their pressed stone, plays elsewhere and presses again. With
    the forfeit setting the game is lost; without, it is recorded (`retraction`) and the play
    as made stands: the stone goes back."""
    table.opening(4)
    color = table.to_play()
    first = table.random_point(color)
    table.place(color, first)
    changed = table.random_point(color, avoid=table.patch(first, 2))

    def change():
        table.take(first)

    table.handle(first, change)
    table.handle(changed, lambda: table.put(changed, color))
    table.press(color, 150)
    table.expect_alert("retraction", [first, changed])
    # Lifting the pressed stone and putting down another takes a moment: the board may
    # already have said so before the press.
    table.may_alert("stone-missing", [first])
    table.may_alert("wrong-colour", [changed])
    table.sgf_has.append("retraction")
    if forfeit:
        table.end = ("%s+F" % other(color), "forfeit")
        return
    table.handle(changed, lambda: table.take(changed))
    table.handle(first, lambda: table.put(first, color))
    table.wait(300)
    table.opening(3)


def two_stone_resignation(table, ing, confirm):
    """Ing 1991 Art. 9 "Resigning": "he should place two stones on the board to indicate
    that he has resigned" - two new stones and the press are offered as resignation, confirmed
    by a second press or the button. Other rulesets: `two-stones`; one is taken back and the
    other is the move."""
    table.opening(4)
    color = table.to_play()
    a = table.random_point(color)
    b = table.random_point(color, avoid=table.patch(a))
    table.handle(a, lambda: table.put(a, color))
    table.handle(b, lambda: table.put(b, color))
    table.press(color, 700)
    if ing:
        table.expect_alert("resign-offer", [a, b])
        if confirm == "press":
            table.press(color, 900)
        else:
            table.button("resign-%s" % color)
        table.end = ("%s+R" % other(color), "resign")
        return
    table.wait(900)
    table.expect_alert("two-stones", [a, b])
    table.handle(b, lambda: table.take(b))
    table.record_move(color, a)
    table.press(color, 500)
    table.opening(3)


def extra_before_first(table, color, removed):
    """A stone on the board before the first move is `stone-extra`, not Black's first move."""
    n = table.size
    spot = name(n, table.rng.between(1, n - 2), table.rng.between(1, n - 2))
    table.put(spot, color)
    table.wait(1200)
    table.expect_alert("stone-extra", [spot])
    if removed:
        table.handle(spot, lambda: table.take(spot))
        table.wait(300)
    table.opening(5, avoid=table.patch(spot))


def stray_stone(table, how, removed):
    """A real stone left where no one played it - dropped from the bowl's rim in the opponent's
    turn, left from the last game, a prisoner slipped from the fingers - and left untouched
    through several plays and more than half a minute. It is a stone on the board the game
    does not have: its alert (`wrong-colour`, `stone-extra`) stays until it is taken away, it
    is never anyone's move, the game goes on around it, and it is never a `sensor-fault` (a
    sensor fault is a reading no real stone gives: sensor_faults.py)."""
    n = table.size
    if how == "last-game":
        spot = name(n, table.rng.between(1, n - 2), table.rng.between(1, n - 2))
        table.put(spot, table.rng.choice(("B", "W")))
        table.wait(1200)
        table.expect_alert("stone-extra", [spot])
        table.opening(3, avoid=table.patch(spot))
    elif how == "dropped":
        table.opening(4)
        color = other(table.to_play())  # the player who just moved drops another stone
        spot = table.random_point(color)
        table.put(spot, color)  # it rolls off the bowl's rim onto the board: no hand over it
        table.wait(1500)
        table.expect_alert("wrong-colour", [spot])
    else:  # "slipped": a prisoner falls back onto the board while the capturer lifts it
        spot = prisoner_slip(table, pick_up=False)
    avoid = table.patch(spot)
    table.opening(3, avoid=avoid)
    table.wait(31000)
    table.opening(3, avoid=avoid)
    if removed:
        table.handle(spot, lambda: table.take(spot))
        table.wait(600)
        table.opening(2)


def fixed_handicap(table):
    """Fixed handicap (AGA Rule 4) placed stone by stone: no `stone-missing` while the
    placement is in progress; White then plays first."""
    for col, row in _fixed_points(table):
        p = name(table.size, col, row)
        table.handle(p, lambda p=p: table.put(p, "B"))
        table.wait(table.rng.between(300, 1200))
    table.opening(5)


def _fixed_points(table):
    from ingrules.rulesets import fixed_handicap_points

    return fixed_handicap_points(table.size, table.config["handicap"])


# -- the scenarios -------------------------------------------------------------------------------


def _make(label, mishap, size, rules, seed, build, **config):
    table = Table(size, rules, seed, **config)
    build(table)
    table.wait(1000)
    return Scenario(label, mishap, table)


# A clock for the scenarios whose clock is checked (one press per ply: clock_problems).
CLOCK = {"system": "absolute", "basic_s": 3600}


def scenarios():
    """Every scenario: (label, mishap class, Table with the log and the expectations)."""
    out = []
    for size in (9, 19):
        for k, rules in enumerate(("ing1991", "aga", "chinese")):
            seed = size * 100 + k
            for how in ("slide", "diagonal", "knocked", "knocked-diagonal"):
                out.append(
                    _make(
                        "%s own %s %d" % (rules, how, size),
                        "displacement",
                        size,
                        rules,
                        seed + len(how),
                        lambda t, how=how: own_displaced(t, how),
                        time=CLOCK,
                    )
                )
        for rules in ("ing1991", "japanese"):
            out.append(
                _make(
                    "wall %s %d" % (rules, size), "displacement", size, rules, size + 7, wall_shift
                )
            )
            out.append(
                _make(
                    "prisoner slip %s %d" % (rules, size),
                    "displacement",
                    size,
                    rules,
                    size + 8,
                    prisoner_slip,
                )
            )
        for accept in (False, True):
            out.append(
                _make(
                    "nudge left accept=%s %d" % (accept, size),
                    "nudge",
                    size,
                    "ing1991",
                    size + 11 + accept,
                    lambda t, a=accept: nudge_left(t, a),
                )
            )
        out.append(
            _make(
                "slide before press %d" % size, "nudge", size, "aga", size + 13, slide_before_press
            )
        )
        for how in ("stone-hidden", "pressed-under-hand", "pass-under-arm", "flash-then-hidden"):
            out.append(
                _make(
                    "hidden %s %d" % (how, size),
                    "hidden",
                    size,
                    "ing1991",
                    size + 17 + len(how),
                    lambda t, how=how: hidden_at_press(t, how),
                    time=CLOCK,
                )
            )
        out.append(
            _make(
                "opponent press unreadable %d" % size,
                "hidden",
                size,
                "chinese",
                size + 19,
                opponent_press_unreadable,
                time=CLOCK,
            )
        )
        out.append(
            _make(
                "flicker at press %d" % size,
                "stability",
                size,
                "ing1991",
                size + 23,
                flicker_at_press,
                time=CLOCK,
            )
        )
        out.append(
            _make(
                "blitz press %d" % size,
                "stability",
                size,
                "aga",
                size + 29,
                blitz_press,
                time=CLOCK,
            )
        )
        for reading, when in (
            ("?", "start"),
            ("B", "start"),
            ("stone", "mid"),
            ("flicker", "mid"),
            ("?", "mid"),
        ):
            out.append(
                _make(
                    "sensor %s %s %d" % (reading, when, size),
                    "sensor",
                    size,
                    "ing1991" if size == 19 else "chinese",
                    size + 31 + len(reading) + len(when),
                    lambda t, r=reading, w=when: stuck_sensor(t, r, w),
                )
            )
        out.append(
            _make("dead point play %d" % size, "sensor", size, "aga", size + 37, dead_point_play)
        )
        for how in ("bounce", "double", "not-running", "held-reboot"):
            out.append(
                _make(
                    "keys %s %d" % (how, size),
                    "keys",
                    size,
                    "ing1991",
                    size + 41 + len(how),
                    lambda t, how=how: keys(t, how),
                )
            )
        for rules, effect in (("aga", "pass"), ("ing1996", "forfeit"), ("ing1991", "reject")):
            out.append(
                _make(
                    "two moves %s %d" % (rules, size),
                    "keys",
                    size,
                    rules,
                    size + 43,
                    lambda t, e=effect: two_moves(t, e),
                )
            )
        for forfeit in (False, True):
            config = {"retraction": "forfeit"} if forfeit else {}
            out.append(
                _make(
                    "retraction forfeit=%s %d" % (forfeit, size),
                    "keys",
                    size,
                    "ing1991",
                    size + 47 + forfeit,
                    lambda t, f=forfeit: retraction(t, f),
                    **config,
                )
            )
        for rules, ing, confirm in (
            ("ing1991", True, "press"),
            ("ing1991", True, "button"),
            ("aga", False, None),
            ("ing1996", False, None),
        ):
            out.append(
                _make(
                    "two stones %s %s %d" % (rules, confirm, size),
                    "resignation",
                    size,
                    rules,
                    size + 53,
                    lambda t, i=ing, c=confirm: two_stone_resignation(t, i, c),
                )
            )
        for color, removed in (("B", True), ("W", False), ("B", False)):
            out.append(
                _make(
                    "extra before first %s removed=%s %d" % (color, removed, size),
                    "extra",
                    size,
                    "ing1991",
                    size + 59 + removed,
                    lambda t, c=color, r=removed: extra_before_first(t, c, r),
                )
            )
        for how, removed in (("last-game", False), ("dropped", True), ("slipped", False)):
            out.append(
                _make(
                    "stray stone %s removed=%s %d" % (how, removed, size),
                    "extra",
                    size,
                    "ing1991" if how != "dropped" else "chinese",
                    size + 71 + len(how),
                    lambda t, h=how, r=removed: stray_stone(t, h, r),
                    time=CLOCK,
                )
            )
        for rules, stones in (("aga", 4), ("japanese", 2)):
            out.append(
                _make(
                    "fixed handicap %s %d %d" % (rules, stones, size),
                    "handicap",
                    size,
                    rules,
                    size + 61 + stones,
                    fixed_handicap,
                    handicap=stones,
                    handicap_style="fixed",
                )
            )
    return out

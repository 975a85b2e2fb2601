"""Turn a game record into the session log of two people playing it on the physical board.

`load_game(sgf_bytes)` reads the SGF's main line (setup stones honoured) and plays it through the
firmware's Board to learn every capture; `simulate(game, noise, seed, mistakes)` produces the
log. What the simulated people and sensors do:

- a player thinks (a few seconds, seeded; the total stays inside the basic time), takes a stone
  from the bowl, the hand (and arm, from that player's side of the board) hides the points
  around the target as '?' for 100-600 ms, and when the hand leaves the stone is there;
- captured stones are lifted one by one, in any order, some before the clock press, some after
  it, some only after the opponent's next stone is down; they go back into their owner's bowl;
- the clock is pressed 150-900 ms after the hand leaves the board; a pass is a press alone;
- now and then the opponent plays before the press (an early next move);
- single points flicker for one scan at a rate set by the noise level;
- the grid is scanned at 20-50 Hz but only changed scans are written (the format allows it);
- each bowl's load cell is read at 2 Hz, 10 Hz around a take or put (host_tools/bowl_model.py).

Noise levels: `none` (no hands, no flicker, captures lifted promptly in order, ideal bowls
that read exactly and settle at once), `typical`, `harsh` (bigger hands held longer, more
flicker, later lifts, noisier and creeping load cells). Mistakes can be injected for
tracker tests: `wrong-colour`, `ko`, `nudge`, `knock-off` at a move number; each is taken back
by the player, and `Simulation.injected` says when and which alert it should raise. A `drop`
is not taken back: at that move the player takes a stone from the bowl, it falls on the floor
(it never reaches the board or a bowl again), and the player takes another stone and plays the
move as recorded; the bowl has lost two stones and the board got one (`bowl-mismatch`, due
within two of that player's moves after it: `until_ms` is when their third one is made).
Everything is deterministic for a given seed.

`simulate(..., finish=True)` plays a game that reaches the end past the two passes that pause
it (`Simulation.ending` says what happened): the players take the dead stones off (the record's
dead-stone list, `dead_stones()`), then make two more passes (Ing: four consecutive passes end
play) or press `agree` (rules without passes to end), then under fill-in rules fill the board
until it shows the count plan (scoring.ing_fill_in of the final position, `final` rows: each
player takes their stones from the bowl in a few handfuls, then places them one by one), then
put every stone back into its bowl, a handful at a time. The bowls are read throughout.

Dead stones in a record: a private root property `DS` holding the dead points in SGF
coordinates (`DS[cc][dd]`), or else the game comment's `dead: C7 D6` (GTP vertices, as GNU Go's
`final_status_list dead` prints them; how host_tools/data/make_demo_games.py writes them).
"""

import math
import random
import re

from ingboard.records import session
from ingrules.board import (
    BLACK,
    EMPTY,
    OCCUPIED,
    SUICIDE_ALLOWED,
    WHITE,
    Board,
    opponent,
    stones_per_colour,
)

import host_tools  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.bowl_model import BowlModel
from host_tools.errors import InputError
from host_tools.sgf_input import rules_from_ru

NOISE_LEVELS = ("none", "typical", "harsh")
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

DEFAULT_TIME = {"system": "ing-pp", "basic_s": 3600}


class _Level:
    def __init__(self, **values):
        self.__dict__.update(values)


_LEVELS = {
    "none": _Level(
        occlusion=False,
        place_ms=(0, 0),
        radius=0,
        arm=(0, 0),
        lift_ms=(0, 0),
        lift_radius=0,
        flicker_per_min=0.0,
        lift_start=(250, 400),
        lift_gap=(150, 250),
        shuffle=False,
        late=0.0,
        after_press=0.0,
        early=0.0,
        bowl={"noise_g": 0.0, "creep_g": 0.0, "drift_g": 0.0, "settle": False},
    ),
    "typical": _Level(
        occlusion=True,
        place_ms=(100, 600),
        radius=1,
        arm=(1, 3),
        lift_ms=(100, 300),
        lift_radius=0,
        flicker_per_min=1.0,
        lift_start=(200, 1500),
        lift_gap=(150, 700),
        shuffle=True,
        late=0.2,
        after_press=0.3,
        early=0.03,
        bowl={},  # the bowl model's own realistic defaults
    ),
    "harsh": _Level(
        occlusion=True,
        place_ms=(200, 1000),
        radius=2,
        arm=(2, 5),
        lift_ms=(150, 500),
        lift_radius=1,
        flicker_per_min=8.0,
        lift_start=(500, 4000),
        lift_gap=(200, 1500),
        shuffle=True,
        late=0.45,
        after_press=0.35,
        early=0.08,
        bowl={"noise_g": 0.6, "creep_g": 4.0, "drift_g": 0.5},
    ),
}


# -- the game record ---------------------------------------------------------------------------


class Move:
    """One play of the main line: colour, point (None for a pass), what it removed."""

    def __init__(self, n, color, point, captured, self_removed, appended=False):
        self.n = n
        self.color = color
        self.point = point
        self.captured = captured  # opponent stones removed
        self.self_removed = self_removed  # own stones removed (permitted self-removal)
        self.appended = appended  # a pass added to end the game


class Game:
    """What the simulation needs from a record: settings, setup stones and the moves."""

    def __init__(
        self, size, rules, komi, handicap, setup, moves, players, basic_s, notes, dead=None
    ):
        self.size = size
        self.rules = rules
        self.komi = komi
        self.handicap = handicap
        self.setup = setup  # [(colour, point)], black first
        self.moves = moves  # [Move], ending in two passes
        self.players = players
        self.basic_s = basic_s
        self.notes = notes  # things the reader could not honour exactly (for the user)
        self.dead = dead or []  # points of the stones dead in the final position

    def config(self):
        config = {"size": self.size, "rules": self.rules}
        if self.komi is not None:
            config["komi"] = int(self.komi) if self.komi == int(self.komi) else self.komi
        if self.handicap:
            config["handicap"] = self.handicap
            has_black_setup = any(c == BLACK for c, _p in self.setup)
            config["handicap_style"] = "free" if has_black_setup else "ing-plays"
        config["time"] = {"system": DEFAULT_TIME["system"], "basic_s": self.basic_s}
        if self.players:
            config["players"] = dict(self.players)
        return config


def rules_from_sgf(ru):
    """Our rules name for an SGF RU value, and a note when it had to fall back to ing1991."""
    if ru is None:
        return "ing1991", None
    name = rules_from_ru(ru)
    if name is not None:
        return name, None
    return "ing1991", "rules %r not known; using ing1991" % (ru,)


def _text(node, prop):
    if not node.has_property(prop):
        return None
    value = node.get(prop)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return value


def load_game(data):
    """Read an SGF (bytes) into a Game; InputError (one line) for anything malformed."""
    from sgfmill import sgf

    try:
        record = sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise InputError("bad SGF: %s" % (exc or "unreadable",)) from None
    try:
        return _read_record(record)
    except ValueError as exc:
        raise InputError("bad SGF: %s" % (exc or "unreadable",)) from None


def _property(what, func):
    try:
        return func()
    except ValueError:
        raise ValueError("%s is not a number" % what) from None


def _read_record(record):
    size = record.get_size()
    if size < 5 or size > 19:
        raise InputError("board size %d is not supported (5..19)" % size)
    root = record.get_root()
    notes = []
    rules, note = rules_from_sgf(_text(root, "RU"))
    if note:
        notes.append(note)
    komi = _property("KM", record.get_komi) if root.has_property("KM") else None
    if komi is not None and (math.isnan(komi) or math.isinf(komi)):
        raise ValueError("KM is not a number")
    handicap = _property("HA", record.get_handicap) or 0
    basic_s = DEFAULT_TIME["basic_s"]
    if root.has_property("TM"):
        tm = _property("TM", lambda: float(root.get("TM")))
        if tm > 0 and not math.isinf(tm):
            basic_s = int(tm)
    players = {}
    for prop, key in (("PB", "B"), ("PW", "W")):
        name = _text(root, prop)
        if name:
            players[key] = name
    board = Board(size)
    setup = []
    black, white, empty = root.get_setup_stones()
    if empty:
        notes.append("AE in the root ignored")
    for color, points in ((BLACK, black), (WHITE, white)):
        for row, col in sorted(points):
            p = board.index(col, row)
            setup.append((color, p))
            board.set(p, color)
    moves = []
    for i, node in enumerate(record.get_main_sequence()):
        if i and node.has_setup_stones():
            raise ValueError("setup stones after the first node are not supported")
        try:
            color_name, where = node.get_move()
        except ValueError:
            raise ValueError("node %d has a bad move" % (i + 1,)) from None
        if color_name is None:
            continue
        color = BLACK if color_name == "b" else WHITE
        n = len(moves) + 1
        if where is None:
            moves.append(Move(n, color, None, [], []))
            continue
        row, col = where
        p = board.index(col, row)
        if board.place(p, color, SUICIDE_ALLOWED) == OCCUPIED:
            raise ValueError("move %d (%s) is on an occupied point" % (n, board.name(p)))
        moves.append(Move(n, color, p, list(board.captured), list(board.self_removed)))
    # The game ends with two passes: add what the record leaves out.
    while len(moves) < 2 or moves[-1].point is not None or moves[-2].point is not None:
        last = moves[-1].color if moves else WHITE
        moves.append(Move(len(moves) + 1, opponent(last), None, [], [], appended=True))
    dead = _dead_points(root, board, size)
    return Game(size, rules, komi, handicap, setup, moves, players, basic_s, notes, dead)


def _dead_points(root, board, size):
    """The record's dead stones (see the module docstring), checked against the final board."""
    from host_tools.gtp import parse_vertex

    points = []
    if root.has_property("DS"):
        for text in root.get_raw_list("DS"):
            text = text.decode("ascii", "replace")
            if len(text) != 2 or not all("a" <= ch < chr(ord("a") + size) for ch in text):
                raise ValueError("DS holds a point that is not on the board: %r" % text)
            col = ord(text[0]) - ord("a")
            row = size - 1 - (ord(text[1]) - ord("a"))
            points.append(board.index(col, row))
    else:
        comment = _text(root, "GC") or ""
        found = re.search(r"dead:([A-Za-z0-9 ,]*)", comment)
        for word in (found.group(1) if found else "").replace(",", " ").split():
            try:
                row, col = parse_vertex(word, size)
            except (ValueError, TypeError):
                raise ValueError("the comment's dead list holds %r, not a point" % word) from None
            points.append(board.index(col, row))
    for p in points:
        if board.get(p) == EMPTY:
            raise ValueError("dead stone %s: that point is empty at the end" % board.name(p))
    return sorted(set(points))


def dead_stones(game):
    """The dead points of the final position (padded indexes), whole chains."""
    board = final_board(game)
    out = set()
    for p in game.dead:
        out.update(board.chain(p))
    return sorted(out)


def final_board(game):
    """The position after the record's last move (a firmware Board)."""
    board = _setup_board(game)
    for move in game.moves:
        _play(board, move)
    return board


def read_game(path):
    """load_game() of a file; InputError when it cannot be read."""
    from host_tools.sgf_input import MAX_BYTES

    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    if len(data) > MAX_BYTES:
        raise InputError("%s is larger than %d MiB: not a game record" % (path, MAX_BYTES >> 20))
    return load_game(data)


def ko_moves(game):
    """Move numbers n at which the player could retake a ko illegally (for `ko` mistakes)."""
    out = []
    board = _setup_board(game)
    prev = None
    for move in game.moves:
        if prev is not None and _ko_point(board, prev) is not None and move.point is not None:
            out.append(move.n)
        _play(board, move)
        prev = move
    return out


def _setup_board(game):
    board = Board(game.size)
    for color, p in game.setup:
        board.set(p, color)
    return board


def _play(board, move):
    if move.point is not None:
        board.place(move.point, move.color, SUICIDE_ALLOWED)


def _ko_point(board, prev):
    """The point where the opponent of `prev` would retake a ko just taken by `prev`."""
    if prev.point is None or len(prev.captured) != 1 or prev.self_removed:
        return None
    if len(board.chain(prev.point)) != 1 or board.liberties(prev.point) != 1:
        return None
    return prev.captured[0]


# -- the simulation ----------------------------------------------------------------------------


class Simulation:
    """A simulated session: the log's lines and the ground truth behind them."""

    def __init__(self, config, lines, moves, injected, duration_ms, scan_ms, ending=None):
        self.config = config
        self.lines = lines  # log lines without newlines, header first
        self.moves = moves  # [{"n", "color", "point", "visible_ms", "press_ms"}]
        # [{"kind", "n", "color" (who made it), "alert", "points", "t_ms", "until_ms"}]
        self.injected = injected
        self.duration_ms = duration_ms
        self.scan_ms = scan_ms  # the grid's scan period
        # finish=True: {"dead": [names], "plan": fill-in plan or None, "count": count event
        # expected from the tracker, "final": rows once filled in, "t_*": when each step began}
        self.ending = ending

    def text(self):
        return "\n".join(self.lines) + "\n"


class _Lines:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.extend(text.rstrip("\n").split("\n"))


def simulate(game, noise="typical", seed=0, mistakes=(), finish=False):
    """The session log of `game` played on the board; see the module docstring.

    `mistakes`: (kind, n) pairs, kind from MISTAKE_ALERTS, n a 1-based move number. ValueError
    for a noise level, mistake or move number that does not fit the game. `finish`: play on to
    the end (dead stones, the passes or agreement that end play, fill-in, put-away).
    """
    if noise not in _LEVELS:
        raise ValueError("noise must be one of %s, not %r" % (", ".join(NOISE_LEVELS), noise))
    if not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    return _Simulator(game, _LEVELS[noise], seed, mistakes, finish).run()


class _Simulator:
    def __init__(self, game, level, seed, mistakes, finish=False):
        self.game = game
        self.finish = finish
        self.ending = None
        self.buttons = []  # (t, name)
        self.level = level
        self.seed = seed
        # Independent streams, so that e.g. a mistake does not reshuffle the flicker.
        self.rng = random.Random("%d:people" % seed)
        self.flicker_rng = random.Random("%d:flicker" % seed)
        self.board = Board(game.size)  # geometry, and the game position as it goes
        self.events = []  # physical: (t, seq, what, a, b)
        self.bowl_events = []  # (t, seq, colour, "take" | "put" | "drop", n)
        self.presses = []  # (t, colour)
        self.pending = {BLACK: [], WHITE: []}  # captured stones a player has yet to lift
        self.seq = 0
        self.mistakes = self._check_mistakes(mistakes)
        self.injected = []
        self.moves_out = []

    # -- inputs ---------------------------------------------------------------------------

    def _check_mistakes(self, mistakes):
        out = {}
        count = len(self.game.moves)
        kos = None
        for item in mistakes:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise ValueError("a mistake is (kind, move number), not %r" % (item,))
            kind, n = item
            if kind not in MISTAKE_ALERTS:
                raise ValueError(
                    "unknown mistake %r (one of %s)" % (kind, ", ".join(sorted(MISTAKE_ALERTS)))
                )
            if not isinstance(n, int) or n < 1 or n > count:
                raise ValueError(
                    "mistake %s: move number must be 1..%d, not %r" % (kind, count, n)
                )
            if kind == "ko":
                if kos is None:
                    kos = ko_moves(self.game)
                if n not in kos:
                    raise ValueError("mistake ko: no ko to retake at move %d" % n)
            if kind == "drop" and self.game.moves[n - 1].point is None:
                raise ValueError("mistake drop: move %d is a pass, no stone is taken" % n)
            out.setdefault(n, []).append(kind)
        return out

    def _u(self, pair):
        lo, hi = pair
        return lo if lo >= hi else self.rng.randint(lo, hi)

    def _event(self, t, what, a, b=None):
        self.seq += 1
        self.events.append((t, self.seq, what, a, b))

    def _bowl(self, t, color, action, n=1):
        self.seq += 1
        self.bowl_events.append((max(0, t), self.seq, color, action, n))

    # -- hands ----------------------------------------------------------------------------

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

    # -- thinking time ----------------------------------------------------------------------

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

    # -- the game -----------------------------------------------------------------------------

    def run(self):
        game = self.game
        lv = self.level
        self.scan_ms = self.rng.randint(20, 50)
        thinks = self._thinking()
        t = self._u((2000, 5000))
        # Setup (handicap) stones, placed one by one before the first move.
        board = self.board
        for color, p in game.setup:
            _vis, gone = self._place(t, color, p)
            board.set(p, color)
            t = gone + self._u((300, 1200))
        ready = t + self._u((1000, 3000))  # hands are free from here
        clock = ready  # the clock starts: thinking is counted from the last press
        early = None  # (visible, gone) of a move already placed before the previous press
        moves = game.moves
        for i, move in enumerate(moves):
            color, p = move.color, move.point
            other = opponent(color)
            kinds = self.mistakes.get(move.n, [])
            t = ready
            # Stones this player captured earlier and forgot: lifted now, while thinking.
            if self.pending[color]:
                stones = self.pending[color]
                self.pending[color] = []
                t = self._lift(t + self._u((300, 1500)), color, stones) + self._u((200, 600))
            prev = moves[i - 1] if i else None
            for kind in kinds:
                if kind == "wrong-colour":
                    t = self._wrong_colour(t, move)
                elif kind == "ko":
                    t = self._ko(t, move, prev)
            if p is None:
                press = max(clock + thinks[i], t + self._u((150, 900)))
                self._press(press, color)
                self.moves_out.append(_move_record(board, move, None, press))
                ready = clock = press
                continue
            was_early = early is not None
            if was_early:
                visible, gone = early
                early = None
            else:
                if "drop" in kinds:
                    t = self._drop(t, clock + thinks[i], move)
                t = self._clear_pending(t, p)
                t_hand = max(clock + thinks[i], t + self._u((200, 600)))
                visible, gone = self._place(t_hand, color, p)
            board.place(p, color, SUICIDE_ALLOWED)
            removed = [(q, other) for q in move.captured] + [(q, color) for q in move.self_removed]
            before, after, late = self._split_lifts(removed)
            last = gone
            if before:
                last = self._lift(gone + self._u(lv.lift_start), color, before)
            nxt = moves[i + 1] if i + 1 < len(moves) else None
            press = last + self._u((150, 900))
            if not was_early and self._can_play_early(move, nxt, removed):
                # The opponent does not wait for the press.
                e_vis, e_gone = self._place(last + self._u((50, 300)), nxt.color, nxt.point)
                early = (e_vis, e_gone)
                press = max(press, e_gone + self._u((100, 300)))
            elif was_early:
                # This move was itself played early: its press follows the opponent's.
                press = max(press, clock + self._u((150, 900)), t + self._u((150, 900)))
            self._press(press, color)
            self.moves_out.append(_move_record(board, move, visible, press))
            end = press
            if after:
                end = self._lift(press + self._u((200, 800)), color, after)
            self.pending[color].extend(late)
            for kind in kinds:
                if kind in ("nudge", "knock-off"):
                    end = self._disturb(end + self._u((200, 800)), kind, move)
            clock = press
            ready = max(press, end) + self._u((100, 400))
        self._drop_deadlines()
        # The game is over: anything still on the board that was captured is put away.
        t = ready
        for owner in (BLACK, WHITE):
            if self.pending[owner]:
                t = self._lift(t + self._u((500, 2000)), owner, self.pending[owner])
                self.pending[owner] = []
        if self.finish:
            # The players wait for the bowls' put-away check (the scales settle in seconds).
            t = self._finish(t) + self._u((4000, 6000))
        end = t + self._u((2000, 4000))
        return self._render(end)

    def _split_lifts(self, removed):
        """Which captured stones are lifted before the press, after it, or only later."""
        lv = self.level
        stones = list(removed)
        if not stones:
            return [], [], []
        if lv.shuffle:
            self.rng.shuffle(stones)
        else:
            stones.sort()
        r = self.rng.random()
        if r < lv.late:
            k = self.rng.randint(0, len(stones) - 1)
            return stones[:k], [], stones[k:]
        if r < lv.late + lv.after_press:
            k = self.rng.randint(0, len(stones) - 1)
            return stones[:k], stones[k:], []
        return stones, [], []

    def _can_play_early(self, move, nxt, removed):
        if nxt is None or nxt.point is None or self.level.early <= 0:
            return False
        if removed or nxt.captured or nxt.self_removed or nxt.color == move.color:
            return False
        if self.mistakes.get(move.n) or self.mistakes.get(nxt.n):
            return False
        if self.pending[nxt.color] or self._is_pending(nxt.point):
            return False
        return self.rng.random() < self.level.early

    def _press(self, t, color):
        self.presses.append((t, color))

    # -- the end of the game ----------------------------------------------------------------------

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
                    self.moves_out.append(_ending_pass(n, color, t))
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

    # -- mistakes -------------------------------------------------------------------------------

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
        q = _ko_point(self.board, prev)
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

    # -- the log --------------------------------------------------------------------------------

    def _render(self, end):
        game = self.game
        records = []  # (t, order, seq, Record)
        config = game.config()
        records.append((0, 0, 0, session.Record(0, session.CONFIG, config)))
        self._flicker(end)
        n = 0
        for t, rows in self._scans(end):
            n += 1
            records.append((t, 1, n, session.Record(t, session.SCAN, rows)))
        for t, color in self.presses:
            n += 1
            records.append((t, 2, n, session.Record(t, session.PRESS, color)))
        self.set_weights = {}
        for t, color, grams in self._bowl_readings(end):
            n += 1
            records.append((t, 3, n, session.Record(t, session.BOWL, (color, grams))))
        config["bowls"] = {
            "B": {"w180_g": round(self.set_weights[BLACK], 3)},
            "W": {"w180_g": round(self.set_weights[WHITE], 3)},
        }
        for t, name in self.buttons:
            n += 1
            records.append((t, 2, n, session.Record(t, session.BUTTON, name)))
        records.sort(key=lambda r: (r[0], r[1], r[2]))
        out = _Lines()
        writer = session.SessionWriter(out)
        for _t, _o, _s, record in records:
            writer.write(record)
        return Simulation(
            config, out.lines, self.moves_out, self.injected, end, self.scan_ms, self.ending
        )

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
        yield 0, _rows(size, stride, state, occ, flick)
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
            yield tick, _rows(size, stride, state, occ, flick)

    def _bowl_readings(self, end):
        """Each bowl read at 2 Hz, and at 10 Hz from just before a take or put to 4 s after
        (long enough for the firmware's window of readings to settle); every reading is a line,
        as the board's logger writes them (only scans are written on change)."""
        game = self.game
        stones = stones_per_colour(game.size)
        rng = self.rng
        out = []
        for color in (BLACK, WHITE):
            bowl = _new_bowl(rng.randint(0, 2**31), stones, self.level.bowl)
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


def _new_bowl(seed, stones, options):
    """The simulated bowl on its load cell (host_tools/bowl_model.py)."""
    return BowlModel(seed, stones=stones, **options)


def _rows(size, stride, state, occ, flick):
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


def _ending_pass(n, color, press):
    return {
        "n": n,
        "color": "B" if color == BLACK else "W",
        "point": None,
        "visible_ms": None,
        "press_ms": press,
        "appended": True,
        "ending": True,
    }


def _move_record(board, move, visible, press):
    return {
        "n": move.n,
        "color": "B" if move.color == BLACK else "W",
        "point": None if move.point is None else board.name(move.point),
        "visible_ms": visible,
        "press_ms": press,
        "appended": move.appended,
    }

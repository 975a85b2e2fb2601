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
)

import host_tools  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.errors import InputError
from host_tools.sgf_input import rules_from_ru
from host_tools.sim_ending import Ending
from host_tools.sim_mishaps import MISTAKE_ALERTS, Mishaps, ko_point
from host_tools.sim_mishaps import MISTAKES as MISTAKES  # the kinds tests inject
from host_tools.sim_players import Players
from host_tools.sim_sensors import Sensors

NOISE_LEVELS = ("none", "typical", "harsh")
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
        if prev is not None and ko_point(board, prev) is not None and move.point is not None:
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


class _Simulator(Players, Mishaps, Ending, Sensors):
    """One simulated session: the game's moves in order, each by a player's hands, with the
    mishaps asked for, the end of the game when asked, then the log the sensors would give."""

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


def _move_record(board, move, visible, press):
    return {
        "n": move.n,
        "color": "B" if move.color == BLACK else "W",
        "point": None if move.point is None else board.name(move.point),
        "visible_ms": visible,
        "press_ms": press,
        "appended": move.appended,
    }

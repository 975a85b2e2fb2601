"""The virtual board, live: a person (or a script) places and lifts stones, presses the clock
and the buttons; the firmware's tracker runs behind it exactly as on the device.

`LiveBoard(config)` is the physical set in software: the grid (every change becomes a scan
fed to tracking/tracker.Tracker with the board time), both bowls on their load cells
(host_tools/bowl_model.py, read every 250 ms), each lid on its own (read whenever a stone
goes in or out), the clock keys and buttons. Everything is also
written to a session log (records/session.SessionWriter), so `ingboard track` on that log
reproduces the same events. Times are board milliseconds, given by the caller (`advance`), so
a test or a script runs at any speed and the web page runs on the wall clock.

`make_server(port)` (ingboard sim) serves the page host_tools/sim_page/index.html and a JSON API
over the stdlib's ThreadingHTTPServer, for one `Session` (a LiveBoard on the wall clock):
  GET  /api/state                                  rows, to play, events, bowls, clock, plan
  POST /api/click {"point": "D4", "color": null}   place (empty point: colour to play, or the
                                                   given one) or lift (a stone)
  POST /api/press {"color": "B"}                   that side of the clock
  POST /api/button {"name": "pause"}               pause resume agree dispute undo resign-B/W
  POST /api/new {"size": 9, "rules": "ing1991", "komi": 8, "assist": true}
  POST /api/pass                                   the side to play presses with no stone
  POST /api/open {"sgf": "(;GM[1]...)"}            a record set up move by move, to continue
  POST /api/estimate                               GNU Go's score estimate (state "estimate")
  GET  /api/clock/B.png, /api/clock/W.png          the firmware's clock faces (clock_png)
  GET  /api/session.log, /api/game.sgf             downloads
"""

import io
import json
import os
import threading
import time

from ingboard.config_check import check_config
from ingboard.records.session import SessionWriter
from ingboard.records.sgf_record import tracker_sgf
from ingboard.tracking.tracker import Tracker
from ingrules.board import BLACK, WHITE, Board, stones_per_colour

from host_tools.bowl_model import BowlModel
from host_tools.device import DeviceError
from host_tools.errors import InputError
from host_tools.sim_assist import Assist
from host_tools.sim_marks import board_marks, standing_alerts

BOWL_PERIOD_MS = 250
_COLOURS = {"B": BLACK, "W": WHITE}


class LiveBoard:
    """The physical set in software, with the firmware's tracker behind it."""

    def __init__(self, config, seed=0):
        check_config(config)
        self.config = config
        self.size = config["size"]
        self.geometry = Board(self.size)
        self.cells = bytearray(len(self.geometry.cells))  # what lies on the board
        self.tracker = Tracker(config)
        self.log = io.StringIO()
        self.writer = SessionWriter(self.log)
        self.writer.config(0, config)
        stones = stones_per_colour(self.size)
        ideal = {"noise_g": 0.0, "creep_g": 0.0, "drift_g": 0.0, "settle": False}
        self.bowls = {c: BowlModel(seed + c, stones=stones, **ideal) for c in (BLACK, WHITE)}
        # Where the stones off the board are, as the ruleset (or the config) has them: the
        # prisoners each player captured in the lid of their bowl (Ing 1991 Art. 13 "lids ...
        # to hold removed stones"; AGA) or back in their owner's bowl (Ing 1996 Rule 2 "(or
        # return them to the opponent)"); pass stones handed over as prisoners (AGA Rule 7) or
        # placed beside the board (Ing 1991 Art. 9 "Passing" (2)) until the passer plays on.
        rules = self.tracker.game.rules
        self.prisoners_to = config.get("prisoners", rules.prisoners)
        self.pass_stones = self.tracker.bowls.pass_stones
        self.lids = {BLACK: [], WHITE: []}  # weights of the stones in each player's lid
        self.beside = {BLACK: [], WHITE: []}  # each player's pass stones beside the board
        self.t = 0
        self.next_reading = 0
        self.events = []
        self._scan()

    # -- time ---------------------------------------------------------------------------------

    def advance(self, t):
        """Board time moves on to t: bowl readings and tracker deadlines on the way."""
        out = []
        while True:
            due = self.tracker.next_deadline()
            step = self.next_reading
            if due is not None and due <= t and due <= step:
                self.t = max(self.t, due)
                out += self._record(self.tracker.tick(self.t))
                continue
            if step <= t:
                self.t = max(self.t, step)
                for c in (BLACK, WHITE):
                    grams = round(self.bowls[c].reading(self.t), 1)
                    self.writer.bowl(self.t, c, grams)
                    out += self._record(self.tracker.bowl(self.t, c, grams))
                self.next_reading = step + BOWL_PERIOD_MS
                continue
            break
        self.t = max(self.t, t)
        return out

    def wait(self, ms):
        return self.advance(self.t + ms)

    # -- what the people do ---------------------------------------------------------------------

    def point(self, name):
        try:
            return self.geometry.parse(name)
        except ValueError as exc:
            raise InputError(str(exc)) from None

    def stone(self, name):
        return ".BW"[self.cells[self.point(name)]]

    def place(self, name, color):
        """A stone of `color` ("B"/"W") from its bowl onto an empty point."""
        p = self.point(name)
        c = _COLOURS[color]
        if self.cells[p]:
            raise InputError("%s is not empty" % name)
        try:
            self.bowls[c].take(self.t)
        except IndexError:
            raise InputError(
                "the %s bowl is empty" % ("black" if c == BLACK else "white")
            ) from None
        self.cells[p] = c
        if self.beside[c]:
            # Playing on: the pass stones beside the board go back into the bowl.
            self.bowls[c].put(len(self.beside[c]), self.t, self.beside[c])
            self.beside[c] = []
        return self._scan()

    def lift(self, name):
        """The stone on a point comes off the board: a prisoner (a stone the game no longer
        has, captured or dead) goes where the rules put prisoners (the capturer's lid, or its
        owner's bowl); any other stone back into its own bowl."""
        p = self.point(name)
        c = self.cells[p]
        if not c:
            raise InputError("there is no stone on %s" % name)
        self.cells[p] = 0
        game = self.tracker.game
        prisoner = (p, c) in game.dead or (
            self.tracker.leaving.get(p) == c and _captured_lately(game, p)
        )
        if prisoner and self.prisoners_to == "lid" and self.bowls[c].out:
            self._to_lid(3 - c, [self.bowls[c].out.pop()])
        else:
            self.bowls[c].put(1, self.t)
        return self._scan()

    def _to_lid(self, owner, weights):
        self.lids[owner].extend(weights)
        self._lid(owner)

    def _lid(self, owner):
        # The lid's own load cell (Ing 1991 Art. 13): logged, and read by the tracker.
        grams = round(sum(self.lids[owner]), 1)
        self.writer.lid(self.t, owner, grams)
        return self._record(self.tracker.lid(self.t, owner, grams))

    def empty_lids(self):
        """The prisoners go back to their owners' bowls, and the pass stones beside the board
        to theirs (before the Ing fill-in: "all stones are filled in to count", Ing 1991
        Art. 4; and when the stones are put away)."""
        for who in (BLACK, WHITE):
            if self.beside[who]:
                self.bowls[who].put(len(self.beside[who]), self.t, self.beside[who])
                self.beside[who] = []
        for owner in (BLACK, WHITE):
            weights = self.lids[owner]
            if weights:
                self.bowls[3 - owner].put(len(weights), self.t, weights)
                self.lids[owner] = []
                self._lid(owner)

    def press(self, color):
        c = _COLOURS[color]
        self.writer.press(self.t, c)
        game = self.tracker.game
        plies = len(game.plies)
        events = self._record(self.tracker.press(self.t, c))
        if len(game.plies) == plies + 1 and game.plies[plies].point < 0:
            self._pass_stone(game.plies[plies].color)
        if game.phase == "ended" and game.rules.fill_in:
            self.empty_lids()
        return events

    def _pass_stone(self, color):
        # AGA Rule 7 "a player passing must hand the opponent a stone as a prisoner"; Ing
        # 1991 Art. 9 "Passing" (2) "he should place one stone beside the board".
        if self.pass_stones == "none" or not self.bowls[color].in_bowl:
            return
        weight = self.bowls[color].take(self.t)
        self.bowls[color].out.pop()
        if self.pass_stones == "prisoner":
            self._to_lid(3 - color, [weight])
        else:
            self.beside[color].append(weight)

    def button(self, name):
        self.writer.button(self.t, name)
        events = self._record(self.tracker.button(self.t, name))
        game = self.tracker.game
        if game.phase == "ended" and game.rules.fill_in:
            self.empty_lids()
        return events

    # -- what the board sees ------------------------------------------------------------------

    def rows(self):
        size = self.size
        stride = self.geometry.stride
        out = []
        for row in range(size - 1, -1, -1):
            base = (row + 1) * stride + 1
            out.append("".join(".BW"[self.cells[base + col]] for col in range(size)))
        return out

    def _scan(self):
        rows = self.rows()
        if self.writer.scan(self.t, rows):
            return self._record(self.tracker.scan(self.t, rows))
        return []

    def _record(self, events):
        self.events.extend(events)
        return events

    def session_log(self):
        return self.log.getvalue()

    def state(self):
        tracker = self.tracker
        game = tracker.game
        return {
            "t": self.t,
            "size": self.size,
            "rows": self.rows(),
            "game_rows": game.board.rows(),
            "to_play": "B" if game.to_play == BLACK else "W",
            "phase": game.phase,
            "result": game.result,
            "events": self.events,
            "bowls": {"B": self.bowls[BLACK].count(), "W": self.bowls[WHITE].count()},
            "lids": {"B": len(self.lids[BLACK]), "W": len(self.lids[WHITE])},
            "clock": tracker.clock.state(self.t),
            "clock_started": tracker.clock.started,
            "plan": tracker.plan,
            "count": tracker.counted,
            "config": self.config,
            "moves": moves(game),
            "setup": [[game.board.name(p), "B" if c == BLACK else "W"] for p, c in game.setup],
            "prisoners": {"B": game.prisoners[BLACK], "W": game.prisoners[WHITE]},
            "marks": board_marks(self.rows(), game, tracker),
            "alerts": standing_alerts(tracker),
            "owner": owner_rows(game) if game.phase != "play" else None,
            "stars": star_points(self.size),
        }


def _captured_lately(game, p):
    # A stone captured by one of the last plies (not self-removed: that one is its owner's).
    n = len(game.plies)
    for i in range(max(0, n - 4), n):
        if p in game.plies[i].captured:
            return True
    return False


def moves(game):
    """The game's plies for the move list: {"n", "c", "p" (or "pass"), "x" (captures)}."""
    board = game.board
    out = []
    for i, ply in enumerate(game.plies):
        out.append(
            {
                "n": i + 1,
                "c": "B" if ply.color == BLACK else "W",
                "p": board.name(ply.point) if ply.point >= 0 else "pass",
                "x": [board.name(q) for q in list(ply.captured) + list(ply.self_removed)],
            }
        )
    return out


def owner_rows(game):
    """Who owns each empty point of the game's position (rows as Board.rows(), 'b'/'w' for
    an empty point reached by one colour only, '.' otherwise): the territory drawn at the
    pause and after the end."""
    from ingrules.scoring import empty_regions

    board = game.board
    size = game.size
    grid = [["."] * size for _ in range(size)]
    for points, touches in empty_regions(board):
        if touches not in (BLACK, WHITE):
            continue
        mark = "b" if touches == BLACK else "w"
        for p in points:
            col, row = board.col_row(p)
            grid[size - 1 - row][col] = mark
    return ["".join(r) for r in grid]


def star_points(size):
    """The star points drawn on the board: the nine handicap points where they exist."""
    from ingrules.rulesets import fixed_handicap_points

    for count in (9,) if size >= 13 else (5, 4):
        try:
            spots = fixed_handicap_points(size, count)
        except ValueError:
            continue
        board = Board(size)
        return [board.name(board.index(col, row)) for col, row in spots]
    return []


# -- the web page (ingboard sim) -----------------------------------------------------------------

PAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sim_page")
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/sim.js": ("sim.js", "text/javascript; charset=utf-8"),
    "/sim_board.js": ("sim_board.js", "text/javascript; charset=utf-8"),
    "/sim_sound.js": ("sim_sound.js", "text/javascript; charset=utf-8"),
    "/sim.css": ("sim.css", "text/css; charset=utf-8"),
}
DEFAULT_CONFIG = {
    "size": 9,
    "rules": "ing1991",
    "komi": 8,
    "time": {"system": "ing-pp", "basic_s": 600},
}
# The page's own files only: no inline script or style, nothing from elsewhere.
CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'"
_BUTTONS = ("pause", "resume", "agree", "dispute", "undo", "resign-B", "resign-W")
_SETTINGS = ("size", "rules", "komi", "handicap", "handicap_style", "time", "players")


def options():
    """What the settings form offers: every ruleset (name, title, komi), handicap style and
    time system with the numbers it takes."""
    from ingboard.game_config import HANDICAP_STYLES, TIME_SYSTEMS
    from ingrules import rulesets

    return {
        "rules": [
            {"name": n, "title": rulesets.get(n).title, "komi": rulesets.get(n).komi}
            for n in rulesets.NAMES
        ],
        "handicap_styles": list(HANDICAP_STYLES),
        "time_systems": {k: list(v) for k, v in sorted(TIME_SYSTEMS.items())},
    }


def settings(body):
    """A game config from the settings form's JSON (only the known keys; check_config judges)."""
    config = {"size": DEFAULT_CONFIG["size"], "rules": DEFAULT_CONFIG["rules"]}
    config.update({k: body[k] for k in _SETTINGS if k in body and body[k] is not None})
    if "komi" not in body and config["rules"] == DEFAULT_CONFIG["rules"]:
        config["komi"] = DEFAULT_CONFIG["komi"]
    if "time" not in config:
        config["time"] = DEFAULT_CONFIG["time"]
    players = config.get("players")
    if isinstance(players, dict):
        config["players"] = {k: str(v).strip()[:40] for k, v in players.items() if str(v).strip()}
        if not config["players"]:
            del config["players"]
    return config


class Session:
    """One LiveBoard, shared by the page's requests (one lock).

    Board time is the wall clock from the first stone or clock press on (the clocks do not
    run while nobody plays), or, with `manual_time`, moves only when asked (`POST /api/wait`):
    scripted demonstrations and the browser tests get the same board times every run."""

    def __init__(
        self,
        config=None,
        clock=time.monotonic,
        manual_time=False,
        engine=None,
        assist=True,
        counsel=None,
    ):
        self.lock = threading.Lock()
        self.clock = clock
        self.manual_time = manual_time
        self.engine = engine
        self.assist_default = assist
        self.counsel = counsel  # sim_counsel.Counsel: dead stones and score estimates
        self.new(config or DEFAULT_CONFIG)

    def _make_board(self, config):
        return LiveBoard(config)

    def new(self, config, assist=None):
        try:
            board = self._make_board(config)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        self.board = board
        self.assist = Assist(self.assist_default if assist is None else bool(assist))
        self.start = None  # wall clock of board time 0 (the first stone or press)
        self.manual_t = 0
        self.estimate = None

    def open_sgf(self, text, assist=None):
        """A game record (SGF text) set up on a new board, move by move as players would
        (stone, press, captures lifted), to continue from its last move."""
        from host_tools.sim_record import replay_onto

        config, plays = _read_sgf(text)
        self.new(config, assist)
        self.manual_t = replay_onto(self.board, plays)
        if not self.manual_time:
            self.start = self.clock() - self.board.t / 1000.0

    def now(self):
        if self.manual_time:
            return self.manual_t
        if self.start is None:
            return 0
        return int((self.clock() - self.start) * 1000)

    def _play_starts(self):
        if self.start is None:
            self.start = self.clock()

    def handle(self, action, body):
        with self.lock:
            board = self.board
            board.advance(self.now())
            if action == "click":
                self._play_starts()
                self._click(board, str(body.get("point", "")), body.get("color"))
            elif action == "pass":
                self._play_starts()
                game = board.tracker.game
                if game.phase == "ended":
                    raise InputError("the game is over")
                board.press("B" if game.to_play == BLACK else "W")
            elif action == "open":
                sgf = body.get("sgf")
                if not isinstance(sgf, str) or not sgf.strip():
                    raise InputError("no SGF text was given")
                self.open_sgf(sgf, body.get("assist"))
            elif action == "estimate":
                self._estimate()
            elif action == "press":
                color = body.get("color")
                if color not in ("B", "W"):
                    raise InputError("colour must be B or W")
                self._play_starts()
                board.press(color)
            elif action == "button":
                name = body.get("name")
                if name not in _BUTTONS:
                    raise InputError("unknown button %r" % (name,))
                board.button(name)
            elif action == "new":
                self.new(settings(body), body.get("assist"))
            elif action == "wait":
                ms = body.get("ms")
                if not self.manual_time:
                    raise InputError(
                        "board time follows the wall clock (start with --manual-time)"
                    )
                if not isinstance(ms, int) or not 0 <= ms <= 3600000:
                    raise InputError("ms must be 0..3600000")
                self.manual_t += ms
            elif action != "state":
                raise InputError("unknown action %r" % (action,))
            self._settle()
            state = self.board.state()
            game = self.board.tracker.game
            if self.engine is not None:
                state["engine"] = self.engine.view(game)
            state["assist"] = self.assist.on
            state["lifted_chains"] = [names for names, _c in self.assist.lifted_chains]
            state["counsel"] = self._counsel_view(game)
            state["estimate"] = self.estimate
            return state

    def _settle(self):
        """Board time up to now, and the chores assist does (each may be followed by more:
        a capture lifted after the press that made it)."""
        board = self.board
        board.advance(self.now())
        for _ in range(8):
            game = board.tracker.game
            if self.engine is not None and game.phase != "ended":
                self.engine.want(game)
            if self.counsel is not None and game.phase == "paused":
                self.counsel.want(game)
            if not self.assist.chores(board, self.engine):
                break
            board.advance(self.now())

    def _click(self, board, name, color):
        game = board.tracker.game
        if board.stone(name) != ".":
            if game.phase == "paused" and self.assist.click_stone_in_pause(board, name):
                return
            if self.assist.on and game.phase == "play" and _in_game(game, board, name):
                raise InputError("%s is a stone of the game: undo takes a move back" % name)
            board.lift(name)
            return
        if game.phase == "paused" and self.assist.click_empty_in_pause(board, name):
            return
        color = color or ("B" if game.to_play == BLACK else "W")
        if color not in ("B", "W"):
            raise InputError("colour must be B or W")
        board.place(name, color)
        self.assist.placed(board, color)

    def _counsel_view(self, game):
        if self.counsel is None:
            return None
        return self.counsel.view(game)

    def _estimate(self):
        if self.counsel is None:
            raise InputError("no engine to estimate the score (GNU Go is not installed)")
        self.estimate = self.counsel.estimate(self.board.tracker.game)

    def clock_png(self, color):
        from host_tools.clock_png import face_image

        with self.lock:
            self.board.advance(self.now())
            tracker = self.board.tracker
            if tracker.game.phase == "ended":
                img = result_face(tracker)  # as the board's displays show it (standalone.py)
            else:
                img = face_image(tracker.clock, _COLOURS[color], self.board.t, scale=2)
        out = io.BytesIO()
        img.save(out, format="PNG")
        return out.getvalue()

    def close(self):
        if self.engine is not None:
            self.engine.close()
        if self.counsel is not None:
            self.counsel.close()


def _in_game(game, board, name):
    """True when the stone on `name` is the game's own (same colour on the same point)."""
    p = game.board.parse(name)
    return game.board.cells[p] == _COLOURS.get(board.stone(name))


def result_face(tracker):
    """The face both displays show once the game has ended: the count, the fill-in and the
    result (core/board_face.result) after a count; the result alone after a resignation or a
    loss on time."""
    import framebuf
    from ingboard.faces import board_face, clock_face

    from host_tools.clock_png import bytes_to_image

    buf = bytearray(clock_face.WIDTH * clock_face.HEIGHT // 8)
    fb = framebuf.FrameBuffer(buf, clock_face.WIDTH, clock_face.HEIGHT, framebuf.MONO_VLSB)
    game = tracker.game
    if tracker.counted is not None:
        for _ in board_face.result_steps(fb, tracker.counted, tracker.plan, game.board.rows()):
            pass
    else:
        fb.fill(0)
        clock_face.text(fb, 4, 8, "RESULT")
        clock_face.big(fb, 4, 24, str(game.result or "-")[:8])
    return bytes_to_image(bytes(buf), scale=2)


def _read_sgf(text):
    """(config, plays) of an SGF text for the virtual board; InputError for what it cannot
    continue from (setup stones other than a handicap)."""
    from host_tools.simulate import load_game

    game = load_game(text.encode("utf-8"))
    if game.setup:
        raise InputError(
            "the SGF has setup stones (AB/AW): the virtual board continues only games "
            "that start from an empty board"
        )
    if game.size not in (5, 7, 9, 13, 19):
        raise InputError("board size %d is not offered by the virtual board" % game.size)
    config = game.config()
    config.pop("handicap", None)
    config.pop("handicap_style", None)
    plays = [m for m in game.moves if not m.appended]
    return config, plays


def make_server(port=8000, host="127.0.0.1", session=None):
    """A ThreadingHTTPServer serving the page and the API for one Session."""
    from http.server import BaseHTTPRequestHandler

    from host_tools.page_server import QuietServer

    session = session or Session()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass  # quiet: the page polls

        def _send(self, code, body, ctype, extra=None):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Security-Policy", CSP)
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code, obj):
            self._send(code, json.dumps(obj).encode(), "application/json")

        def do_GET(self):
            path = self.path.split("?")[0]
            if path in STATIC:
                name, ctype = STATIC[path]
                with open(os.path.join(PAGE_DIR, name), "rb") as f:
                    return self._send(200, f.read(), ctype)
            if path == "/api/options":
                return self._json(200, options())
            if path == "/api/state":
                try:  # (the assist's due presses are made here too: live_board.py may fail)
                    return self._json(200, session.handle("state", {}))
                except DeviceError as exc:
                    return self._json(503, {"error": str(exc)})
            if path in ("/api/clock/B.png", "/api/clock/W.png"):
                return self._send(200, session.clock_png(path[-5]), "image/png")
            if path == "/api/session.log":
                with session.lock:
                    text = session.board.session_log().encode()
                disp = {"Content-Disposition": 'attachment; filename="session.log"'}
                return self._send(200, text, "text/plain; charset=utf-8", disp)
            if path == "/api/game.sgf":
                with session.lock:
                    text = tracker_sgf(session.board.tracker).encode()
                disp = {"Content-Disposition": 'attachment; filename="game.sgf"'}
                return self._send(200, text, "application/x-go-sgf", disp)
            self._json(404, {"error": "not found"})

        def do_POST(self):
            path = self.path.split("?")[0]
            if not path.startswith("/api/"):
                return self._json(404, {"error": "not found"})
            try:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not isinstance(body, dict):
                    raise InputError("the request body must be a JSON object")
                return self._json(200, session.handle(path[5:], body))
            except (InputError, ValueError) as exc:
                return self._json(400, {"error": str(exc)})
            except DeviceError as exc:
                # The board behind the page (the device twin, live_board.py) failed: the
                # page says so, as it says a bad request.
                return self._json(503, {"error": str(exc)})

    try:
        server = QuietServer((host, port), Handler)
    except OSError as exc:
        raise InputError(
            "cannot listen on %s:%d: %s" % (host, port, exc.strerror or exc)
        ) from None
    server.daemon_threads = True
    server.session = session
    return server

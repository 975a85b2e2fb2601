"""The virtual board, live: a person (or a script) places and lifts stones, presses the clock
and the buttons; the firmware's tracker runs behind it exactly as on the device.

`LiveBoard(config)` is the physical set in software: the grid (every change becomes a scan
fed to core/tracker.Tracker with the board time), both bowls on their load cells
(host_tools/bowl_model.py, read every 250 ms), the clock keys and buttons. Everything is also
written to a session log (core/session.SessionWriter), so `ingboard track` on that log
reproduces the same events. Times are board milliseconds, given by the caller (`advance`), so
a test or a script runs at any speed and the web page runs on the wall clock.

`make_server(port)` (ingboard sim) serves the page host_tools/sim_page/index.html and a JSON API
over the stdlib's ThreadingHTTPServer, for one `Session` (a LiveBoard on the wall clock):
  GET  /api/state                                  rows, to play, events, bowls, clock, plan
  POST /api/click {"point": "D4", "color": null}   place (empty point: colour to play, or the
                                                   given one) or lift (a stone)
  POST /api/press {"color": "B"}                   that side of the clock
  POST /api/button {"name": "pause"}               pause resume agree dispute undo resign-B/W
  POST /api/new {"size": 9, "rules": "ing1991", "komi": 8}
  GET  /api/clock/B.png, /api/clock/W.png          the firmware's clock faces (clock_png)
  GET  /api/session.log, /api/game.sgf             downloads
"""

import io
import json
import os
import threading
import time

from ingboard.core.board import BLACK, WHITE, Board, stones_per_colour
from ingboard.core.session import SessionWriter, check_config
from ingboard.core.tracker import Tracker

from host_tools.bowl_model import BowlModel
from host_tools.errors import InputError

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
        return self._scan()

    def lift(self, name):
        """The stone on a point goes back into its own bowl."""
        p = self.point(name)
        c = self.cells[p]
        if not c:
            raise InputError("there is no stone on %s" % name)
        self.cells[p] = 0
        self.bowls[c].put(1, self.t)
        return self._scan()

    def press(self, color):
        self.writer.press(self.t, _COLOURS[color])
        return self._record(self.tracker.press(self.t, _COLOURS[color]))

    def button(self, name):
        self.writer.button(self.t, name)
        return self._record(self.tracker.button(self.t, name))

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
            "clock": tracker.clock.state(self.t),
            "plan": tracker.plan,
        }


# -- the web page (ingboard sim) -----------------------------------------------------------------

PAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sim_page")
DEFAULT_CONFIG = {
    "size": 9,
    "rules": "ing1991",
    "komi": 8,
    "time": {"system": "ing-pp", "basic_s": 600},
}
_BUTTONS = ("pause", "resume", "agree", "dispute", "undo", "resign-B", "resign-W")


class Session:
    """One LiveBoard on the wall clock, shared by the page's requests (one lock)."""

    def __init__(self, config=None, clock=time.monotonic):
        self.lock = threading.Lock()
        self.clock = clock
        self.new(config or DEFAULT_CONFIG)

    def new(self, config):
        try:
            board = LiveBoard(config)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        self.board = board
        self.start = self.clock()

    def now(self):
        return int((self.clock() - self.start) * 1000)

    def handle(self, action, body):
        with self.lock:
            board = self.board
            board.advance(self.now())
            if action == "click":
                name = str(body.get("point", ""))
                if board.stone(name) != ".":
                    board.lift(name)
                else:
                    color = body.get("color") or board.state()["to_play"]
                    if color not in ("B", "W"):
                        raise InputError("colour must be B or W")
                    board.place(name, color)
            elif action == "press":
                color = body.get("color")
                if color not in ("B", "W"):
                    raise InputError("colour must be B or W")
                board.press(color)
            elif action == "button":
                name = body.get("name")
                if name not in _BUTTONS:
                    raise InputError("unknown button %r" % (name,))
                board.button(name)
            elif action == "new":
                config = dict(DEFAULT_CONFIG)
                config.update({k: v for k, v in body.items() if k in ("size", "rules", "komi")})
                self.new(config)
            elif action != "state":
                raise InputError("unknown action %r" % (action,))
            self.board.advance(self.now())
            return self.board.state()

    def clock_png(self, color):
        from host_tools.clock_png import face_image

        with self.lock:
            self.board.advance(self.now())
            img = face_image(self.board.tracker.clock, _COLOURS[color], self.board.t, scale=2)
        out = io.BytesIO()
        img.save(out, format="PNG")
        return out.getvalue()


def make_server(port=8000, host="127.0.0.1", session=None):
    """A ThreadingHTTPServer serving the page and the API for one Session."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    session = session or Session()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass  # quiet: the page polls

        def _send(self, code, body, ctype, extra=None):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code, obj):
            self._send(code, json.dumps(obj).encode(), "application/json")

        def do_GET(self):
            path = self.path.split("?")[0]
            if path in ("/", "/index.html"):
                with open(os.path.join(PAGE_DIR, "index.html"), "rb") as f:
                    return self._send(200, f.read(), "text/html; charset=utf-8")
            if path == "/api/state":
                return self._json(200, session.handle("state", {}))
            if path in ("/api/clock/B.png", "/api/clock/W.png"):
                return self._send(200, session.clock_png(path[-5]), "image/png")
            if path == "/api/session.log":
                with session.lock:
                    text = session.board.session_log().encode()
                disp = {"Content-Disposition": 'attachment; filename="session.log"'}
                return self._send(200, text, "text/plain; charset=utf-8", disp)
            if path == "/api/game.sgf":
                with session.lock:
                    text = session.board.tracker.sgf().encode()
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

    try:
        server = ThreadingHTTPServer((host, port), Handler)
    except OSError as exc:
        raise InputError(
            "cannot listen on %s:%d: %s" % (host, port, exc.strerror or exc)
        ) from None
    server.daemon_threads = True
    server.session = session
    return server

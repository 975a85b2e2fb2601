"""The relay's live page: read-only, server-sent events that resume, optional broadcast delay.

`Broadcaster` takes the relay's events (`push(kind, data, now)`), holds each for `delay_s`
(a broadcast delay, so a player cannot be helped from the hall) and then publishes it: the
public state per board changes and the event gets the next id `{epoch}:{seq}`. A page that
reconnects sends `Last-Event-ID`; if its epoch is this relay run's and the events since are still
in the ring, it gets exactly those, otherwise one `snapshot` of every board. Nothing the page
sends can change anything: the server answers GET only, except the director's requests
(desk_web.py), which need the director's credentials (auth.py).

    GET /             the hall page (page.html + board.js + page.js): event and round, a card
                      per board (position, last move, running clocks, penalty points, the
                      result until the board's next game starts, online or not), the results
                      table per round
    GET /game?e=E&b=B&g=G   one game (game.html + game.js): board, move list, clocks, SGF
    GET /events       text/event-stream: `snapshot` {"boards": [...], "relay": {...}},
                      `board` {...}, `clock` {"event", "board", "g", "clock"}, `relay`
                      {"broker": "connected" | "connecting" | "unreachable" | "refused" |
                      "denied" (the subscription), "detail": text}
    GET /api/boards   the public state as JSON
    GET /api/results  {"rounds": [{"round", "games": [{"event", "board", "g", "black",
                      "white", "result", "reason"}]}]}
    GET /api/game?e=E&b=B&g=G   {"info", "moves": [[n, c, p]], "result", "reason", "clock"}
    GET /api/game.sgf?e=E&b=B&g=G   the game record (host_tools/relay/exports.sgf)
With a broadcast delay the game and result views show only what has been broadcast.
    GET /api/quarantine   messages the relay could not process (kept for the TD), as JSON
    GET /api/round, /api/standings, /api/player, /projector, /standings, /director...
                      the tournament: desk_web.py (the director's requests need credentials)
    GET /page.js, /page.css   the page's script and style (served files: no inline script)

Safety (issue 19): every response carries a Content-Security-Policy that allows only this
server's own script and style (no inline script, no eval, no frames, no plugins) and
`nosniff`; the page puts board-supplied text into the document only escaped. At most
`max_streams` event streams and `max_connections` connections are served at once (beyond them:
503 with Retry-After, or the connection is closed), and a client that stops reading is dropped
after `TIMEOUT_S`.
"""

import collections
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from host_tools.relay import desk_web

RING = 50000
KEEPALIVE_S = 10
TIMEOUT_S = 20  # a socket read or write blocked this long ends that connection
MAX_STREAMS = 256  # live pages at once
MAX_CONNECTIONS = 320  # connections at once (streams + page loads + API)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class Broadcaster:
    def __init__(self, delay_s=0.0, ring=RING, clock=time.monotonic):
        self.delay_s = delay_s
        self.clock = clock
        self.epoch = "%x" % int(time.time() * 1000)
        self.cond = threading.Condition()
        self.seq = 0
        self.ring = collections.deque(maxlen=ring)  # (seq, kind, json text)
        self.waiting = collections.deque()  # (due, kind, data)
        self.state = {}  # (event, board) -> public view
        self.relay = {"broker": "connecting", "detail": ""}
        self.stamps = {}  # seq -> monotonic time published (for latency measurements)

    def push(self, kind, data, now=None):
        now = self.clock() if now is None else now
        with self.cond:
            if self.delay_s <= 0:
                self._publish(kind, data, now)
            else:
                self.waiting.append((now + self.delay_s, kind, data))

    def release(self, now=None):
        now = self.clock() if now is None else now
        with self.cond:
            while self.waiting and self.waiting[0][0] <= now:
                _due, kind, data = self.waiting.popleft()
                self._publish(kind, data, now)

    def _publish(self, kind, data, now):
        if kind == "relay":
            self.relay = dict(data)
            self.seq += 1
            self.ring.append((self.seq, kind, json.dumps(data, separators=(",", ":"))))
            self.cond.notify_all()
            return
        key = (data["event"], data["board"])
        if kind == "board":
            view = dict(data)
            old = self.state.get(key)
            if old is not None and "clock" in old and view.get("g") == old.get("g"):
                view["clock"] = old["clock"]
            self.state[key] = view
        elif kind == "clock":
            view = self.state.setdefault(key, {"event": key[0], "board": key[1]})
            if view.get("g") not in (None, data.get("g")):
                return
            view["clock"] = data["clock"]
        self.seq += 1
        self.ring.append((self.seq, kind, json.dumps(data, separators=(",", ":"))))
        self.cond.notify_all()

    def snapshot(self):
        with self.cond:
            return self.seq, [self.state[k] for k in sorted(self.state)]

    def snapshot_data(self):
        """(seq, the `snapshot` event's data)."""
        with self.cond:
            seq, boards = self.snapshot()
            return seq, {"boards": boards, "relay": self.relay}

    def published(self, event, board):
        """The broadcast view of a board (a copy), or None."""
        with self.cond:
            v = self.state.get((event, board))
            return dict(v) if v is not None else None

    def since(self, seq):
        """Events after `seq`, or None when some of them have left the ring."""
        with self.cond:
            if seq > self.seq:
                return None
            if seq == self.seq:
                return []
            if not self.ring or self.ring[0][0] > seq + 1:
                return None
            return [e for e in self.ring if e[0] > seq]

    def event_id(self, seq):
        return "%s:%d" % (self.epoch, seq)

    def parse_id(self, text):
        """The seq of a Last-Event-ID of this run, or None."""
        if not text or ":" not in text:
            return None
        epoch, _, seq = text.partition(":")
        if epoch != self.epoch or not seq.isdigit():
            return None
        return int(seq)


def _sse(event_id, kind, data_text):
    return ("id: %s\nevent: %s\ndata: %s\n\n" % (event_id, kind, data_text)).encode()


class _Handler(BaseHTTPRequestHandler):
    server_version = "ingboard-relay"
    protocol_version = "HTTP/1.1"
    timeout = TIMEOUT_S

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        b = self.server.broadcaster
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path in STATIC:
            ctype, body = STATIC[url.path]
            self._send(200, ctype, body)
        elif url.path == "/api/results":
            self._json(self.server.results())
        elif url.path in ("/api/game", "/api/game.sgf"):
            self._game(url.path, query)
        elif url.path == "/api/boards":
            _seq, boards = b.snapshot()
            self._send(200, "application/json", json.dumps({"boards": boards}).encode())
        elif url.path == "/api/quarantine":
            rows = self.server.quarantine()
            self._send(200, "application/json", json.dumps({"quarantine": rows}).encode())
        elif url.path in desk_web.PUBLIC:
            desk_web.public(self, url.path, query)
        elif url.path == "/director" or url.path.startswith("/director/"):
            desk_web.get(self, url.path, query, STATIC)
        elif url.path == "/events":
            last = self.headers.get("Last-Event-ID")
            if last is None:
                last = (parse_qs(url.query).get("last") or [None])[0]
            if not self.server.open_stream():
                self._send(503, "text/plain", b"too many live pages\n", retry=10)
                return
            try:
                self._stream(b, b.parse_id(last))
            finally:
                self.server.close_stream()
        else:
            self._send(404, "text/plain", b"not found\n")

    def _json(self, obj):
        self._send(200, "application/json", json.dumps(obj).encode())

    def _game(self, path, query):
        game = self.server.game(query.get("e"), query.get("b"), query.get("g"))
        if game is None:
            self._send(404, "text/plain", b"no such game\n")
        elif path == "/api/game":
            self._json(game)
        else:
            from host_tools.relay.exports import sgf

            e, b, g = query["e"], query["b"], query["g"]
            store = self.server.store
            text = sgf(
                game["info"],
                [m + ["legal"] for m in game["moves"]],
                game["result"],
                event=e,
                date=store.date(e, b, g),
                clocks=store.clocks(e, b, g),
            )
            name = "%s-%s-%s.sgf" % (query["e"], query["b"], query["g"])
            self._send(
                200,
                "application/x-go-sgf",
                text.encode(),
                disposition='attachment; filename="%s"' % name,
            )

    def _refuse(self):
        self._send(405, "text/plain", b"read-only\n", allow="GET")

    def do_POST(self):
        url = urlparse(self.path)
        if url.path.startswith("/director/api/"):
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            desk_web.post(self, url.path, query)
        else:
            self._refuse()

    do_PUT = do_DELETE = do_PATCH = _refuse

    def _safety_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")

    def _send(self, status, ctype, body, allow=None, retry=None, disposition=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self._safety_headers()
        if allow:
            self.send_header("Allow", allow)
        if retry:
            self.send_header("Retry-After", str(retry))
        if disposition:
            self.send_header("Content-Disposition", disposition)
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, b, seq):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self._safety_headers()
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        out = self.wfile
        try:
            out.write(b"retry: 1000\n\n")
            events = b.since(seq) if seq is not None else None
            if events is None:
                seq, data = b.snapshot_data()
                out.write(_sse(b.event_id(seq), "snapshot", json.dumps(data)))
                events = b.since(seq) or []
            while not self.server.stopping:
                for s, kind, text in events:
                    out.write(_sse(b.event_id(s), kind, text))
                    seq = s
                out.flush()
                with b.cond:
                    if b.seq == seq:
                        b.cond.wait(KEEPALIVE_S)
                    idle = b.seq == seq
                if idle:  # written without the lock: a page that stops reading blocks only its
                    out.write(b": keepalive\n\n")  # own thread, never push() (paho's thread)
                    out.flush()
                events = b.since(seq)
                if events is None:  # this page fell too far behind: start it again
                    seq, data = b.snapshot_data()
                    out.write(_sse(b.event_id(seq), "snapshot", json.dumps(data)))
                    events = []
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


class LiveServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def __init__(
        self,
        address,
        broadcaster,
        quarantine=None,
        max_streams=MAX_STREAMS,
        max_connections=MAX_CONNECTIONS,
        store=None,
        event=None,
        director=None,
        auth=None,
    ):
        self.broadcaster = broadcaster
        self.director = director  # director.Director: the tournament's desk (or None)
        self.auth = auth  # auth.DirectorAuth: the director's credentials (or None: desk off)
        self.store = store
        self.event = event
        self.quarantine = quarantine or (lambda: [])
        self.stopping = False
        self.max_streams = max_streams
        self.max_connections = max_connections
        self.streams = 0
        self.connections = 0
        self.refused = 0
        self._count_lock = threading.Lock()
        super().__init__(address, _Handler)
        self._ticker = threading.Thread(target=self._tick, daemon=True)

    def open_stream(self):
        with self._count_lock:
            if self.streams >= self.max_streams:
                self.refused += 1
                return False
            self.streams += 1
            return True

    def close_stream(self):
        with self._count_lock:
            self.streams -= 1

    def process_request(self, request, client_address):
        with self._count_lock:
            full = self.connections >= self.max_connections
            if full:
                self.refused += 1
            else:
                self.connections += 1
        if full:
            try:
                request.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\n"
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                )
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count_lock:
                self.connections -= 1

    def handle_error(self, request, client_address):
        pass  # one connection's failure is that connection's (the handler never stops the server)

    def start(self):
        self._ticker.start()
        threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True
        ).start()

    def _tick(self):
        while not self.stopping:
            self.broadcaster.release()
            time.sleep(0.05)

    def stop(self):
        self.stopping = True
        with self.broadcaster.cond:
            self.broadcaster.cond.notify_all()
        self.shutdown()
        self.server_close()

    # -- the archive, as far as it has been broadcast ------------------------------------------

    def game(self, event, board, gid):
        """One game's public record, or None (unknown, or not yet broadcast)."""
        if self.store is None or not all(isinstance(x, str) for x in (event, board, gid)):
            return None
        stored = self.store.game(event, board, gid)
        view = self.broadcaster.published(event, board)
        if stored is None or view is None:
            return None
        current = view.get("g") == gid
        moves = [
            [n, c, p]
            for n, c, p, status, _reason, _t in self.store.moves(event, board, gid)
            if status == "legal"
        ]
        result, reason = stored["result"], stored["reason"]
        clock = None
        if current:
            moves = moves[: view.get("n") or 0]  # the broadcast delay holds the rest back
            result, reason, clock = view.get("result"), view.get("reason"), view.get("clock")
        return {
            "event": event,
            "board": board,
            "g": gid,
            "info": stored["info"],
            "moves": moves,
            "result": result,
            "reason": reason,
            "clock": clock,
            "current": current,
        }

    def results(self):
        """Every game of the archive by round, as far as broadcast (see game()); where the
        director has confirmed or corrected a game's result, that result."""
        rounds = {}
        decided = {}
        if self.director is not None:
            from host_tools.relay.director import DONE

            for row in self.director.desk.results(self.director.event).values():
                if row["status"] in DONE and row["board"] and row["gid"]:
                    decided[(row["board"], row["gid"])] = (row["result"], row["status"])
        if self.store is not None:
            for ev, board, gid, info, result, reason in self.store.games(self.event):
                view = self.broadcaster.published(ev, board)
                if view is None:
                    continue
                if view.get("g") == gid:
                    result, reason = view.get("result"), view.get("reason")
                if (board, gid) in decided and result is not None:
                    result, reason = decided[(board, gid)]
                rnd = info.get("round", 1)
                rounds.setdefault(rnd if isinstance(rnd, int) else 0, []).append(
                    {
                        "event": ev,
                        "board": board,
                        "g": gid,
                        "black": _name(info, "B"),
                        "white": _name(info, "W"),
                        "result": result,
                        "reason": reason,
                    }
                )
        return {
            "rounds": [
                {"round": r, "games": sorted(rounds[r], key=lambda x: (x["event"], x["board"]))}
                for r in sorted(rounds)
            ]
        }


def _name(info, color):
    p = (info.get("players") or {}).get(color)
    if isinstance(p, dict):
        p = p.get("name")
    return str(p)[:60] if p else "?"


def _read(name):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "rb") as f:
        return f.read()


STATIC = {
    "/": ("text/html; charset=utf-8", _read("page.html")),
    "/page.js": ("text/javascript; charset=utf-8", _read("page.js")),
    "/page.css": ("text/css; charset=utf-8", _read("page.css")),
    "/board.js": ("text/javascript; charset=utf-8", _read("board.js")),
    "/game": ("text/html; charset=utf-8", _read("game.html")),
    "/game.js": ("text/javascript; charset=utf-8", _read("game.js")),
    "/projector": ("text/html; charset=utf-8", _read("projector.html")),
    "/projector.js": ("text/javascript; charset=utf-8", _read("projector.js")),
    "/standings": ("text/html; charset=utf-8", _read("standings.html")),
    "/standings.js": ("text/javascript; charset=utf-8", _read("standings.js")),
    "director.html": ("text/html; charset=utf-8", _read("director.html")),  # behind auth
    "/director.js": ("text/javascript; charset=utf-8", _read("director.js")),
}
PAGE = STATIC["/"][1].decode()

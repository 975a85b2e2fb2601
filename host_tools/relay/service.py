"""The relay: board messages from MQTT in; archive, rules check, acks and page events out.

`Relay.handle(topic, payload, now_ms)` is the whole protocol (see firmware/ingboard/
relay_link.py for the board's side) and needs no network, so tests drive it directly;
`MqttRelay` connects it to a broker with paho-mqtt.

Per game the relay keeps the highest *unbroken* ply it has stored (`have`). A move n == have+1
is checked with the rules core and stored; a later one waits in memory until the gap is filled
(the board resends it); an earlier one is a duplicate (acknowledged again) or, if it differs
from the stored ply, a rewrite flagged for the tournament director. An illegal move is stored
(the archive keeps what the board sent), flagged, and holds the game: neither it nor any later
move of that game is broadcast. Every message is answered with an ack of `have`.

Every message is a trust boundary (issue 19): at most MAX_PAYLOAD bytes of UTF-8 JSON, nested
at most MAX_DEPTH deep, every number finite and within +-MAX_NUMBER, every string at most
MAX_TEXT characters, each field of the kind it must be. A message that breaks a bound, or that
makes a handler raise, is quarantined: kept once in the archive (`Store.quarantine`, with how
often it came), flagged for the tournament director, counted on the board's card on the live
page, and never raised out of `handle()` - so the MQTT client acknowledges it and the broker
does not deliver it again after every restart.
"""

import datetime
import json
import threading

from ingboard.link.protocol import too_deep
from ingboard.link.relay_link import split_topic, topic, valid_name

from host_tools.relay import checker
from host_tools.relay.page_events import PageEvents

MAX_AHEAD = 2000  # moves buffered past a gap, per game
OFFLINE_AFTER_MS = 20000  # a board silent this long shows offline (its clock speaks at 1 Hz)
MAX_PAYLOAD = 8192  # bytes of one message (a game's settings are a few hundred)
MAX_DEPTH = 6  # JSON nesting: {"players": {"B": {"name": ...}}} is 3
MAX_NUMBER = 2**53  # every number (plies, ms, komi) is far smaller
MAX_TEXT = 256  # characters of any string (names, results)
MAX_GAMES = 500  # games per board (a day of blitz is a few dozen)
MAX_EVENTS = 8  # events one board publishes under (a relay without --event keeps them all)
CLOCK_KEYS = ("main_ms", "period", "period_ms", "stones", "penalty", "forfeit")


class BadMessage(ValueError):
    """A message outside the protocol's bounds: quarantined with this reason."""


def _refuse_constant(name):
    raise BadMessage("%s is not a number JSON allows" % name)


def _bounded(value, depth=0):
    """Raise BadMessage unless every number and string inside `value` is within bounds."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        if not -MAX_NUMBER <= value <= MAX_NUMBER:  # also NaN
            raise BadMessage("number out of range: %.40s" % (value,))
    elif isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BadMessage("text longer than %d characters" % MAX_TEXT)
    elif isinstance(value, list):
        for v in value:
            _bounded(v, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _bounded(k, depth + 1)
            _bounded(v, depth + 1)


def decode(payload):
    """The message object of one payload (bytes or str); BadMessage naming what is wrong."""
    if payload is None or len(payload) == 0:
        raise BadMessage("empty message")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage("message of %d bytes (at most %d)" % (len(payload), MAX_PAYLOAD))
    if isinstance(payload, (bytes, bytearray)):
        try:
            payload = bytes(payload).decode()
        except UnicodeError:
            raise BadMessage("message is not UTF-8") from None
    if too_deep(payload, MAX_DEPTH):
        raise BadMessage("JSON nested deeper than %d" % MAX_DEPTH)
    try:
        msg = json.loads(payload, parse_constant=_refuse_constant)
    except BadMessage:
        raise
    except (ValueError, RecursionError) as exc:
        raise BadMessage("not JSON (%s)" % str(exc)[:80]) from None
    if not isinstance(msg, dict):
        raise BadMessage("a message is a JSON object")
    _bounded(msg)
    return msg


def _time_left(side):
    """The time a clock side shows: basic time, else the period's."""
    if not side:
        return None
    if side.get("main_ms", 0) > 0:
        return side["main_ms"]
    return side.get("period_ms")


def _clock_side(side):
    if side is None:
        return None
    if not isinstance(side, dict):
        raise BadMessage("a clock side is an object")
    out = {}
    for key in CLOCK_KEYS:
        v = side.get(key)
        if v is None:
            continue
        if not isinstance(v, (int, bool)):
            raise BadMessage("clock %s must be an integer" % key)
        out[key] = v
    return out


def _gid_order(gid):
    """Game ids are "{boot}-{k}": order them by boot, then by game number."""
    try:
        return tuple(int(x) for x in gid.split("-"))
    except ValueError:
        return (-1,)


class _GameState:
    def __init__(self, info, check):
        self.info = info
        self.check = check
        self.have = 0
        self.held = False
        self.result = None
        self.result_n = None
        self.last = None  # (n, color, point) of the last broadcast move
        self.pending = {}


class Relay:
    def __init__(
        self, store, event=None, publish=None, on_event=None, offline_ms=None, today=None
    ):
        self.store = store
        # The day as the venue's calendar says (SGF DT): today() -> "YYYY-MM-DD".
        self.today = today or (lambda: datetime.date.today().isoformat())
        self.event = event
        self.publish = publish or (lambda t, payload, qos, retain: None)
        self.on_event = on_event or (lambda kind, data: None)
        self.offline_ms = OFFLINE_AFTER_MS if offline_ms is None else offline_ms
        self.lock = threading.RLock()
        # Page events go out after the lock is released (page_events.py: a deadlock with the
        # director's desk otherwise).
        self.page_events = PageEvents(self.lock, lambda kind, data: self.on_event(kind, data))
        self.games = {}  # (event, board, gid) -> _GameState
        self.boards = {}  # (event, board) -> view dict (what the page shows)
        self.events_of = {}  # board -> the events it was seen under (bounded: MAX_EVENTS)
        self.ignored = 0
        self.stats = {"moves": 0, "duplicates": 0, "acks": 0, "quarantined": 0, "lost": 0}

    # -- start-up --------------------------------------------------------------------------

    def restore(self):
        """Rebuild games and board views from the archive (after a relay restart)."""
        with self.lock:
            for ev, board, gid, info, result, reason in self.store.games(self.event):
                try:
                    g = self._load(ev, board, gid, info, result, reason)
                    if g is not None:
                        self._view_game(ev, board, gid, g, emit=False)
                except Exception as exc:  # noqa: BLE001 (one archived game never stops a start)
                    self.store.flag(ev, board, gid, None, "unrestorable", str(exc)[:200], 0)

    def _load(self, ev, board, gid, info, result, reason):
        try:
            check = checker.GameCheck(info)
        except checker.BadGame:
            return None
        g = _GameState(info, check)
        for n, color, point, status, _reason, _t in self.store.moves(ev, board, gid):
            g.have = n
            if status == "legal":
                check.play(color, point)
                g.last = (n, color, point)
            else:
                g.held = True
        stored = self.store.game(ev, board, gid)
        g.result, g.reason, g.result_n = stored["result"], stored["reason"], stored["result_n"]
        self.games[(ev, board, gid)] = g
        return g

    def _state(self, ev, board, gid):
        key = (ev, board, gid)
        g = self.games.get(key)
        if g is None:
            stored = self.store.game(ev, board, gid)
            if stored is not None:
                g = self._load(ev, board, gid, stored["info"], stored["result"], stored["reason"])
        return g

    # -- messages ----------------------------------------------------------------------------

    def handle(self, topic_name, payload, now_ms):
        """One MQTT message. Returns what it was taken as (for tests), None if ignored, or
        "quarantined". Never raises: no message can stop the relay (issue 19)."""
        try:
            return self._handle(topic_name, payload, now_ms)
        except Exception as exc:  # noqa: BLE001 (a handler that fails quarantines, goes on)
            reason = "%s: %s" % (exc.__class__.__name__, str(exc)[:200])
            return self._quarantine(topic_name, payload, reason, now_ms)
        finally:
            self.page_events.deliver()

    def _event(self, kind, data):
        self.page_events.add(kind, data)

    def _handle(self, topic_name, payload, now_ms):
        if not isinstance(topic_name, str):
            self.ignored += 1
            return None
        parts = split_topic(topic_name)
        if parts is None or (self.event is not None and parts[0] != self.event):
            self.ignored += 1
            return None
        ev, board, kind = parts
        if not valid_name(ev) or not valid_name(board) or kind in ("ack", "pairing"):
            self.ignored += 1
            return None
        try:
            msg = decode(payload)
        except BadMessage as exc:
            return self._quarantine(topic_name, payload, str(exc), now_ms)
        with self.lock:
            if not self._event_allowed(ev, board):
                reason = "more than %d events from one board" % MAX_EVENTS
                return self._quarantine(topic_name, payload, reason, now_ms)
            self._seen(ev, board, now_ms, kind)
            handler = getattr(self, "_on_" + kind)
            try:
                return handler(ev, board, msg, now_ms)
            except BadMessage as exc:
                return self._quarantine(topic_name, payload, str(exc), now_ms)

    def _quarantine(self, topic_name, payload, reason, now_ms):
        """Keep a message that cannot be processed for the TD, flag it, show it; never raise."""
        self.stats["quarantined"] += 1
        if isinstance(payload, str):
            payload = payload.encode("utf-8", "replace")
        elif not isinstance(payload, (bytes, bytearray)):
            payload = repr(payload).encode()
        parts = split_topic(topic_name) if isinstance(topic_name, str) else None
        ev, board = (parts[0], parts[1]) if parts else ("?", "?")
        if not (valid_name(ev) and valid_name(board)):
            ev, board = "?", "?"
        try:
            with self.lock:
                new = self.store.quarantine(
                    ev, board, str(topic_name)[:200], bytes(payload), reason, now_ms
                )
                if new:
                    self.store.flag(ev, board, None, None, "quarantined", reason, now_ms)
                if board != "?" and self._event_allowed(ev, board):
                    v = self._view(ev, board)
                    v["quarantined"] = v.get("quarantined", 0) + 1
                    self._emit_board(v)
        except Exception as exc:  # noqa: BLE001 (the archive itself failed: say so, go on)
            self.stats["lost"] += 1
            import sys

            print("relay: could not quarantine a message: %s" % exc, file=sys.stderr)
        return "quarantined"

    def _event_allowed(self, ev, board):
        events = self.events_of.get(board, ())
        return ev in events or len(events) < MAX_EVENTS

    def _view(self, ev, board):
        key = (ev, board)
        v = self.boards.get(key)
        if v is None:
            self.events_of.setdefault(board, set()).add(ev)
            v = {"event": ev, "board": board, "online": False, "boot": None, "seen_ms": 0}
            self.boards[key] = v
        return v

    def _seen(self, ev, board, now_ms, kind=None):
        v = self._view(ev, board)
        v["seen_ms"] = now_ms
        if kind != "status" and v.pop("silent", False) and not v["online"]:
            v["online"] = True  # it was only silent (tick), and it talks again
            self._emit_board(v)

    def _emit_board(self, v):
        out = dict(v)
        out.pop("seen_ms", None)
        out.pop("silent", None)
        self._event("board", out)

    def _on_status(self, ev, board, msg, now_ms):
        v = self._view(ev, board)
        state, boot = msg.get("state"), msg.get("boot")
        if state not in ("online", "offline"):
            raise BadMessage("status state must be online or offline")
        if not (boot is None or isinstance(boot, int) or valid_name(boot)):
            raise BadMessage("status boot must be a number or a name")
        online = state == "online"
        v.pop("silent", None)
        if online != v["online"] or boot != v["boot"]:
            v["online"] = online
            if online:
                v["boot"] = boot
            self._emit_board(v)
        return "status"

    def _on_game(self, ev, board, msg, now_ms):
        gid = msg.get("g")
        if not isinstance(gid, str) or not valid_name(gid):
            raise BadMessage("a game message needs a game id g (a name)")
        g = self._state(ev, board, gid)
        if g is None:
            if self.store.count_games(ev, board) >= MAX_GAMES:
                raise BadMessage("more than %d games from one board" % MAX_GAMES)
            try:
                checker.GameCheck(msg)
            except checker.BadGame as exc:
                self.store.flag(ev, board, gid, None, "bad-game", str(exc), now_ms)
                return None
            self.store.add_game(ev, board, gid, msg, now_ms)
            self.store.set_date(ev, board, gid, self.today())
            g = self._state(ev, board, gid)
            self._view_game(ev, board, gid, g)
        elif json.dumps(msg, sort_keys=True) != json.dumps(g.info, sort_keys=True):
            self.store.flag(ev, board, gid, None, "game-rewrite", json.dumps(msg), now_ms)
        self._advance(ev, board, gid, g, now_ms)
        return "game"

    def _view_game(self, ev, board, gid, g, emit=True):
        v = self._view(ev, board)
        old = v.get("g")
        if old is not None and old != gid:
            if _gid_order(gid) < _gid_order(old):
                return  # an older game finishing its resends: the page shows the newest
            shown = self.games.get((ev, board, old))
            if shown is not None and shown.result is not None and g.last is None:
                return  # a finished game stays on the page until the board's next one starts
        v["g"] = gid
        v["info"] = g.info
        v["n"] = g.last[0] if g.last else 0
        v["last"] = {"c": g.last[1], "p": g.last[2]} if g.last else None
        v["rows"] = g.check.rows()
        v["captures"] = g.check.captures()
        v["result"] = g.result
        v["reason"] = g.reason if g.result else None
        v["held"] = g.held
        v.setdefault("clock", None)
        if emit:
            self._emit_board(v)

    def _on_move(self, ev, board, msg, now_ms):
        gid, n, color, point = msg.get("g"), msg.get("n"), msg.get("c"), msg.get("p")
        t_ms = msg.get("t")
        if (
            not isinstance(gid, str)
            or not isinstance(n, int)
            or n < 1
            or color not in ("B", "W")
            or not isinstance(point, str)
            or len(point) > 8
            or not (t_ms is None or isinstance(t_ms, int))
        ):
            raise BadMessage("a move needs g, n >= 1, c B or W, p a point and t ms")
        g = self._state(ev, board, gid)
        if g is None:
            return "unknown-game"  # no ack: the board resends the settings, then the move
        if n <= g.have:
            stored = self.store.move(ev, board, gid, n)
            if stored is not None and (stored[0], stored[1]) != (color, point):
                self.store.flag(
                    ev,
                    board,
                    gid,
                    n,
                    "rewrite",
                    "ply %d stored as %s %s, now sent as %s %s"
                    % (n, stored[0], stored[1], color, point),
                    now_ms,
                )
                self._ack(ev, board, gid, g)
                return "rewrite"
            self.stats["duplicates"] += 1
            self._ack(ev, board, gid, g)
            return "duplicate"
        if n - g.have <= MAX_AHEAD:
            g.pending[n] = (color, point, t_ms)
        self._advance(ev, board, gid, g, now_ms)
        return "move"

    def _advance(self, ev, board, gid, g, now_ms):
        moved = False
        while g.have + 1 in g.pending:
            n = g.have + 1
            color, point, t_ms = g.pending.pop(n)
            if g.held:
                status, reason = "held", None
            else:
                reason = g.check.play(color, point)
                status = "legal" if reason is None else "illegal"
            self.store.add_move(ev, board, gid, n, color, point, t_ms, now_ms, status, reason)
            g.have = n
            self.stats["moves"] += 1
            if status == "legal":
                g.last = (n, color, point)
                moved = True
            elif status == "illegal":
                g.held = True
                detail = "%s %s is illegal (%s)" % (color, point, reason)
                self.store.flag(ev, board, gid, n, "illegal", detail, now_ms)
                moved = True
        if moved:
            self._view_game(ev, board, gid, g)
        self._ack(ev, board, gid, g)

    def _on_result(self, ev, board, msg, now_ms):
        gid, n, result, reason = msg.get("g"), msg.get("n"), msg.get("result"), msg.get("reason")
        if not isinstance(gid, str) or not isinstance(n, int) or not isinstance(result, str):
            raise BadMessage("a result needs g, n and result")
        g = self._state(ev, board, gid)
        if g is None:
            return "unknown-game"
        if g.result is None:
            g.result, g.reason, g.result_n = result[:16], str(reason)[:16], n
            self.store.set_result(ev, board, gid, g.result, g.reason, n)
            self._view_game(ev, board, gid, g)
        elif (g.result, g.result_n) != (result, n):
            detail = "result stored as %s after %d plies, now %s after %d" % (
                g.result,
                g.result_n,
                result,
                n,
            )
            self.store.flag(ev, board, gid, n, "result-rewrite", detail, now_ms)
        self._ack(ev, board, gid, g)
        return "result"

    def _on_alert(self, ev, board, msg, now_ms):
        """A board's alert (its code, ingboard/alerts.py): flagged in the archive, and passed on
        to the director's desk (director.py) as an `alert` event."""
        code, gid, n = msg.get("code"), msg.get("g"), msg.get("n")
        if not valid_name(code) or not (gid is None or valid_name(gid)):
            raise BadMessage("an alert needs a code (a name) and g a game id")
        if not (n is None or isinstance(n, int)):
            raise BadMessage("an alert's n is a ply number")
        detail = msg.get("detail")
        detail = detail if isinstance(detail, str) else ""
        new = self.store.flag(ev, board, gid, n, "alert", (code + " " + detail).strip(), now_ms)
        if new:
            data = {"event": ev, "board": board, "g": gid, "n": n, "code": code}
            self._event("alert", dict(data, detail=detail))
        self._view(ev, board)
        return "alert"

    def _on_clock(self, ev, board, msg, now_ms):
        v = self._view(ev, board)
        if msg.get("g") != v.get("g"):
            return "clock"  # an old game's clock, or one the relay does not know yet
        run, n = msg.get("run"), msg.get("n")
        if run not in ("B", "W", None) or not (n is None or isinstance(n, int)):
            raise BadMessage("clock run must be B, W or null and n a ply number")
        clock = {
            "run": run,
            "B": _clock_side(msg.get("B")),
            "W": _clock_side(msg.get("W")),
            "n": n,
        }
        v["clock"] = clock
        if isinstance(n, int) and n >= 0:
            left = [_time_left(clock[c]) for c in ("B", "W")]
            if left != [None, None]:
                self.store.add_clock(ev, board, v["g"], n, left[0], left[1])
        self._event("clock", {"event": ev, "board": board, "g": v["g"], "clock": clock})
        return "clock"

    def _ack(self, ev, board, gid, g):
        end = g.result is not None and g.result_n is not None and g.have >= g.result_n
        payload = json.dumps({"g": gid, "n": g.have, "end": end}, separators=(",", ":"))
        self.stats["acks"] += 1
        self.publish(topic(ev, board, "ack"), payload, 1, True)

    # -- time ----------------------------------------------------------------------------

    def tick(self, now_ms):
        """Boards silent for `offline_ms` show offline (a board whose network froze)."""
        try:
            with self.lock:
                for v in self.boards.values():
                    if v["online"] and now_ms - v["seen_ms"] > self.offline_ms:
                        v["online"] = False
                        v["silent"] = True
                        self._emit_board(v)
        finally:
            self.page_events.deliver()

    def views(self):
        with self.lock:
            out = []
            for key in sorted(self.boards):
                v = dict(self.boards[key])
                v.pop("seen_ms", None)
                v.pop("silent", None)
                out.append(v)
            return out


class MqttRelay:
    """Runs a Relay on a broker with paho-mqtt (network thread; reconnects by itself)."""

    def __init__(
        self, relay, host, port, username=None, password=None, client_id="relay", on_status=None
    ):
        import paho.mqtt.client as mqtt

        self.relay = relay
        self.connected = threading.Event()
        # on_status(state, detail): "connected", "connecting", "unreachable", "refused" (the
        # login), "denied" (the subscription)
        self.on_status = on_status or (lambda state, detail: None)
        self.status = None
        self.stopping = False
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False
        )
        if username:
            self.client.username_pw_set(username, password)
        self.client.max_queued_messages_set(0)
        self.client.reconnect_delay_set(0.2, 2)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        relay.publish = self._publish
        self.host, self.port = host, port

    def start(self):
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()

    def stop(self):
        self.stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    def _publish(self, t, payload, qos, retain):
        self.client.publish(t, payload, qos=qos, retain=retain)

    def _status(self, state, detail=""):
        if (state, detail) != self.status:
            self.status = (state, detail)
            self.on_status(state, detail)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            self._status("refused", str(reason_code))
            return
        ev = self.relay.event or "+"
        client.subscribe("go/v1/%s/+/+" % ev, qos=1)
        # connected once the broker has granted the subscription (_on_subscribe): a board's
        # message published before that would not reach the relay.

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties):
        refused = [str(rc) for rc in reason_codes if rc.is_failure]
        if refused:
            self._status("denied", ", ".join(refused))  # the broker's ACL for the relay's user
            return
        self.connected.set()
        self._status("connected")

    def _on_connect_fail(self, client, userdata):
        self._status("unreachable", "nothing accepts connections there")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()
        if self.status and self.status[0] == "connected" and not self.stopping:
            self._status("connecting", "connection lost (%s)" % reason_code)

    def _on_message(self, client, userdata, msg):
        import time

        # handle() never raises, so paho acknowledges every message: none is redelivered.
        self.relay.handle(msg.topic, msg.payload, int(time.monotonic() * 1000))

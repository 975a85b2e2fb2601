"""The club relay link, board side: every move goes out over MQTT until the relay has it.

Pure logic: no sockets, no clock (every call that depends on time takes `now_ms`), so it runs
the same on the board, on CPython with a real MQTT client (the relay's load test) and under
MicroPython on a PC. The socket side is drivers/mqtt_transport.py, which hands this module a
*transport*: any object with `publish(topic, payload, qos, retain) -> bool` that returns at once
(False: not sent now, e.g. offline or its queue is full; the link tries again later). Nothing
here ever waits for the network, so play goes on offline.

Topics are `go/v1/{event}/{board}/{kind}`; payloads are compact JSON:

    status  QoS 1, retained; last will  {"state": "online"|"offline", "boot": 7}
    game    QoS 1, retained  {"g": "7-1", "size": 19, "rules": "ing1991", "komi": 8, ...}
    move    QoS 1            {"g": "7-1", "n": 12, "c": "B", "p": "Q16"|"pass", "t": ms}
    clock   QoS 0, ~1 Hz     {"g": "7-1", "n": 12, "run": "B"|"W"|null, "B": {...}, "W": {...}}
    result  QoS 1, retained  {"g": "7-1", "n": 212, "result": "B+3", "reason": "count"}
    alert   QoS 1            {"g": "7-1", "n": 40, "code": "bowl-mismatch", "t": ms}
    ack     (relay → board)  {"g": "7-1", "n": 11, "end": false}
    pairing (relay → board, retained)  {"round": 3, "table": 12, "B": {"name": "Ito Ann",
            "rank": "3d"}, "W": {...}, "handicap": 0, "komi": 6.5}

A game id is "{boot}-{k}": the board's boot counter (kept in the journal, one more at every
start) and the game's number since that boot, so ids never repeat on a board; (game id, ply)
keys every move. `ack.n` is the highest ply up to which the relay has stored every move (the
highest *unbroken* ply); `end` says it has the result too. Until then the link keeps the rest in
its journal and sends it again: all of it after any (re)connect or reboot, and what stays
unacknowledged for `resend_ms`. The relay stores each (game, ply) once, so resending is safe.
Resends back off: each round of resends that brings no acknowledged progress doubles the wait
before the next (up to 8 x `resend_ms`), and any progress (or a reconnect) brings it back to
`resend_ms` - so a venue full of boards cannot bury a relay that fell behind under copies of
what it has not read yet (issue 19's soak: a congestion collapse on a loaded machine).

Only acks and the pairing are read from the network. An ack can only let the link forget moves
it already sent; the pairing (the director's players for this board's table) is kept in
`pairing` for the board to name the players on its clock faces and to start the table's game
with (`on_pairing` is called when it changes): nothing from the network changes a game in
progress. Alerts (the board's alert codes, ingboard/alerts.py) go out as they happen, QoS 1, not
journaled: up to _MAX_ALERTS raised while offline wait in RAM for the next connection.

Persistence goes through a *journal*, the small interface below; the board's crash-safe journal
implements it, `MemoryJournal` and `FileJournal` are here for tests and simple boards:

    records()         -> the records appended so far (dicts), oldest first
    append(record)    writes one record durably before returning
    rewrite(records)  replaces everything with `records` atomically (compaction)
"""

import json

from micropython import const

_MAX_BACKOFF = const(8)  # resends wait at most this many resend_ms
_MAX_ALERTS = const(8)  # alerts kept while offline
_MAX_PAIRING = const(1024)  # bytes of a pairing message

KINDS = ("status", "game", "move", "clock", "result", "ack", "alert", "pairing")
_MAX_PLY = const(10000)


def topic(event, board, kind):
    return "go/v1/%s/%s/%s" % (event, board, kind)


def split_topic(text):
    """(event, board, kind) of a go/v1 topic, or None when it is not one."""
    parts = text.split("/")
    if len(parts) != 5 or parts[0] != "go" or parts[1] != "v1" or parts[4] not in KINDS:
        return None
    if not parts[2] or not parts[3]:
        return None
    return parts[2], parts[3], parts[4]


def valid_name(name):
    """Event and board names: 1-32 letters, digits, '-', '_' (no MQTT wildcards or '/')."""
    if not isinstance(name, str) or not 0 < len(name) <= 32:
        return False
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch in "-_"):
            return False
    return True


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"))


class MemoryJournal:
    """The journal interface in RAM (tests; a board without flash to spare)."""

    def __init__(self, records=None):
        self._records = list(records or ())

    def records(self):
        return list(self._records)

    def append(self, record):
        self._records.append(dict(record))

    def rewrite(self, records):
        self._records = [dict(r) for r in records]


class FileJournal:
    """The journal interface as a line-JSON file; `rewrite` goes through a temp file + rename.

    A torn last line (power cut mid-write) is ignored on reading.
    """

    def __init__(self, path):
        self.path = path

    def records(self):
        out = []
        try:
            f = open(self.path)
        except OSError:
            return out
        with f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    out.append(json.loads(line))
                except ValueError:
                    break  # torn tail: everything before it is good
        return out

    def append(self, record):
        with open(self.path, "a") as f:
            f.write(dumps(record) + "\n")
            f.flush()

    def rewrite(self, records):
        import os

        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            for r in records:
                f.write(dumps(r) + "\n")
            f.flush()
        os.rename(tmp, self.path)


class _Game:
    def __init__(self, info):
        self.gid = info["g"]
        self.info = info
        self.moves = {}  # ply -> move record, only the unacknowledged ones
        self.last = 0  # highest ply played
        self.acked = 0  # highest unbroken ply the relay has
        self.result = None
        self.end_acked = False
        self.sent = {}  # ply (0 = result) -> now_ms of the last send

    def done(self):
        return self.result is not None and self.end_acked and not self.moves


class RelayLink:
    """Outbox of unacknowledged moves keyed (game id, ply), their resending, and the acks.

    The board calls `new_game`, `move`, `result`, `clock` as play goes on; the transport calls
    `connected`, `disconnected`, `message`; the app calls `poll(now_ms)` often (every 100 ms).
    """

    def __init__(
        self,
        event,
        board,
        journal,
        transport=None,
        resend_ms=5000,
        clock_ms=1000,
        window=32,
        compact_at=256,
    ):
        if not valid_name(event) or not valid_name(board):
            raise ValueError("event and board names: 1-32 of A-Z a-z 0-9 - _")
        self.event = event
        self.board = board
        self.journal = journal
        self.transport = transport
        self.resend_ms = resend_ms
        self.backoff_ms = resend_ms  # the wait before a resend now (see the module docstring)
        self._resent = False
        self.clock_ms = clock_ms
        self.window = window
        self.compact_at = compact_at
        self.online = False
        self.games = []  # live games, oldest first
        self.current = None
        self.boot = 0
        self.ignored = 0  # network messages ignored (malformed, unknown game, not an ack)
        self.pairing = None  # the director's pairing for this board (see the module docstring)
        self.on_pairing = None  # called with the new pairing when it changes
        self._alerts = []  # alerts not sent yet (offline)
        self._clock_sent = None
        self._records = 0
        self._recover()

    # -- persistence -----------------------------------------------------------------------

    def _recover(self):
        boot = 0
        games = {}
        order = []
        current = None
        records = self.journal.records()
        for r in records:
            k = r.get("k")
            if k == "boot":
                boot = max(boot, r["n"])
            elif k == "game":
                g = _Game(r["info"])
                games[g.gid] = g
                order.append(g.gid)
                current = g
            elif r.get("g") in games:
                g = games[r["g"]]
                if k == "move":
                    self._apply_move(g, r)
                elif k == "result":
                    g.result = r
                elif k == "ack":
                    self._apply_ack(g, r["n"], r.get("end", False))
        self.boot = boot + 1
        self.games = [games[gid] for gid in order if not games[gid].done()]
        self.current = current if current in self.games else None
        self._game_count = 0
        self.journal.rewrite(self._live_records())
        self._records = len(self._live_records())

    def _live_records(self):
        out = [{"k": "boot", "n": self.boot}]
        for g in self.games:
            out.append({"k": "game", "info": g.info})
            if g.acked:
                out.append({"k": "ack", "g": g.gid, "n": g.acked, "end": False})
            for n in sorted(g.moves):
                out.append(g.moves[n])
            if g.result is not None:
                out.append(g.result)
        return out

    def _journal(self, record):
        self.journal.append(record)
        self._records += 1
        if self._records >= self.compact_at:
            live = self._live_records()
            self.journal.rewrite(live)
            self._records = len(live)
            if self._records * 2 > self.compact_at:
                self.compact_at = self._records * 2

    # -- what the board reports ------------------------------------------------------------

    def new_game(self, info, now_ms):
        """Start a game; `info` holds its settings and players (size, rules, komi, ...).

        Returns the new game id.
        """
        self._game_count += 1
        info = dict(info)
        info["g"] = "%d-%d" % (self.boot, self._game_count)
        g = _Game(info)
        self.games.append(g)
        self.current = g
        self._journal({"k": "game", "info": info})
        self._send_game(g)
        return g.gid

    def move(self, n, color, point, now_ms, t_ms=None):
        """Ply `n` (1, 2, ...) of the current game: `color` "B"/"W", `point` "Q16" or "pass".

        A ply at or below the last one is a retraction followed by a new move: later plies
        are dropped and the relay is told the new one (it flags a rewrite it already stored).
        """
        g = self.current
        if g is None:
            raise ValueError("no game: call new_game first")
        if not isinstance(n, int) or not 0 < n <= _MAX_PLY:
            raise ValueError("ply must be 1..%d, not %r" % (_MAX_PLY, n))
        if color not in ("B", "W"):
            raise ValueError("colour must be B or W")
        rec = {"k": "move", "g": g.gid, "n": n, "c": color, "p": point}
        if t_ms is not None:
            rec["t"] = t_ms
        self._journal(rec)
        self._apply_move(g, rec)
        self._send_move(g, n, now_ms)

    def _apply_move(self, g, rec):
        n = rec["n"]
        if n <= g.last:
            for m in [m for m in g.moves if m >= n]:
                del g.moves[m]
            if n <= g.acked:
                g.acked = n - 1
        g.moves[n] = rec
        g.last = n

    def result(self, result, reason, now_ms):
        """The current game's result ("B+3", "W+R", "Draw") and how it ended."""
        g = self.current
        if g is None:
            raise ValueError("no game")
        rec = {"k": "result", "g": g.gid, "n": g.last, "result": result, "reason": reason}
        self._journal(rec)
        g.result = rec
        g.end_acked = False
        self._send_result(g, now_ms)

    def clock(self, state, now_ms, running=None, force=False):
        """Both clocks (`state` = {"B": {...}, "W": {...}}), at most once per `clock_ms`.

        QoS 0 and never journaled: a lost clock message is replaced by the next one.
        """
        g = self.current
        if g is None or not self.online:
            return False
        if not force and self._clock_sent is not None:
            if now_ms - self._clock_sent < self.clock_ms:
                return False
        payload = {"g": g.gid, "n": g.last, "run": running, "B": state["B"], "W": state["W"]}
        if self._publish("clock", payload, 0, False):
            self._clock_sent = now_ms
            return True
        return False

    # -- the network -----------------------------------------------------------------------

    def will(self):
        """(topic, payload, qos, retain) to register as the MQTT last will."""
        return topic(self.event, self.board, "status"), dumps({"state": "offline"}), 1, True

    def subscriptions(self):
        return [
            (topic(self.event, self.board, "ack"), 1),
            (topic(self.event, self.board, "pairing"), 1),
        ]

    def alert(self, code, now_ms, n=None):
        """One of the board's alerts (ingboard/alerts.py code) for the director."""
        rec = {"code": str(code)[:32], "t": now_ms}
        g = self.current
        if g is not None:
            rec["g"] = g.gid
            rec["n"] = g.last if n is None else n
        self._alerts.append(rec)
        if len(self._alerts) > _MAX_ALERTS:
            self._alerts.pop(0)
        self._flush_alerts()

    def _flush_alerts(self):
        while self._alerts and self._publish("alert", self._alerts[0], 1, False):
            self._alerts.pop(0)

    def _take_pairing(self, payload):
        if isinstance(payload, (bytes, bytearray)):
            if len(payload) > _MAX_PAIRING:
                return False
            payload = payload.decode()
        p = json.loads(payload)
        if not isinstance(p, dict) or not isinstance(p.get("round"), int):
            return False
        for c in ("B", "W"):
            side = p.get(c)
            if not isinstance(side, dict) or not isinstance(side.get("name"), str):
                return False
        if p != self.pairing:
            self.pairing = p
            if self.on_pairing is not None:
                self.on_pairing(p)
        return True

    def connected(self, now_ms):
        """The transport is (again) connected: announce, then send everything pending."""
        self.online = True
        self.backoff_ms = self.resend_ms
        self._publish("status", {"state": "online", "boot": self.boot}, 1, True)
        self._flush_alerts()
        for g in self.games:
            g.sent = {}
            self._send_game(g)
        if self.current is not None and self.current not in self.games:
            self._send_game(self.current)
        self.poll(now_ms)

    def disconnected(self):
        self.online = False

    def message(self, topic_name, payload, now_ms):
        """An incoming MQTT message; only this board's acks and pairing are acted on."""
        parts = split_topic(topic_name)
        if parts is not None and parts[2] == "pairing" and parts[:2] == (self.event, self.board):
            try:
                if self._take_pairing(payload):
                    return True
            except (ValueError, TypeError, AttributeError, UnicodeError, RuntimeError):
                pass
            self.ignored += 1
            return False
        if parts is None or parts[2] != "ack" or parts[:2] != (self.event, self.board):
            self.ignored += 1
            return False
        try:
            if isinstance(payload, (bytes, bytearray)):
                payload = payload.decode()
            ack = json.loads(payload)
            gid = ack["g"]
            n = ack["n"]
            end = ack.get("end", False) is True
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeError, RuntimeError):
            self.ignored += 1  # RuntimeError: JSON nested deeper than the parser's recursion
            return False
        g = None
        for cand in self.games:
            if cand.gid == gid:
                g = cand
        if g is None or not isinstance(n, int) or n < 0:
            self.ignored += 1
            return False
        before = (g.acked, g.end_acked)
        self._apply_ack(g, n, end)
        if (g.acked, g.end_acked) != before:
            self._journal({"k": "ack", "g": g.gid, "n": g.acked, "end": g.end_acked})
        if g.done():
            self.games.remove(g)
        self.poll(now_ms)
        return True

    def _apply_ack(self, g, n, end):
        n = min(n, g.last)  # the relay cannot have what was never played
        if n > g.acked:
            g.acked = n
            self.backoff_ms = self.resend_ms  # progress: the relay keeps up again
        for m in [m for m in g.moves if m <= g.acked]:
            del g.moves[m]
            g.sent.pop(m, None)
        if end and g.result is not None and g.acked >= g.result["n"] and not g.moves:
            g.end_acked = True

    def poll(self, now_ms):
        """Resend what is due; at most `window` messages in flight. Returns messages sent."""
        if not self.online:
            return 0
        sent = 0
        in_flight = 0
        wait = self.backoff_ms
        self._resent = False
        for g in self.games:
            for n in g.sent:
                if now_ms - g.sent[n] < wait:
                    in_flight += 1
        for g in self.games:
            for n in sorted(g.moves):
                if in_flight >= self.window:
                    return self._backoff(sent)
                last = g.sent.get(n)
                if last is not None and now_ms - last < wait:
                    continue
                if last is not None:
                    self._resent = True
                    if n == min(g.moves) and g.acked == 0:
                        self._send_game(g)  # the relay may have missed the settings
                if not self._send_move(g, n, now_ms):
                    return self._backoff(sent)
                sent += 1
                in_flight += 1
            if g.result is not None and not g.end_acked and not g.moves:
                last = g.sent.get(0)
                if last is None or now_ms - last >= wait:
                    if last is not None:
                        self._resent = True
                    if self._send_result(g, now_ms):
                        sent += 1
        return self._backoff(sent)

    def _backoff(self, sent):
        # A round of resends without progress since the last: wait twice as long next time.
        if self._resent:
            self.backoff_ms = min(self.backoff_ms * 2, self.resend_ms * _MAX_BACKOFF)
        return sent

    def pending(self):
        """Moves and results not yet acknowledged by the relay."""
        count = 0
        for g in self.games:
            count += len(g.moves)
            if g.result is not None and not g.end_acked:
                count += 1
        return count

    def _send_game(self, g):
        return self._publish("game", g.info, 1, True)

    def _send_move(self, g, n, now_ms):
        rec = g.moves[n]
        payload = {"g": g.gid, "n": n, "c": rec["c"], "p": rec["p"]}
        if "t" in rec:
            payload["t"] = rec["t"]
        if self._publish("move", payload, 1, False):
            g.sent[n] = now_ms
            return True
        return False

    def _send_result(self, g, now_ms):
        r = g.result
        payload = {"g": g.gid, "n": r["n"], "result": r["result"], "reason": r["reason"]}
        if self._publish("result", payload, 1, True):
            g.sent[0] = now_ms
            return True
        return False

    def _publish(self, kind, payload, qos, retain):
        if self.transport is None or not self.online:
            return False
        return bool(
            self.transport.publish(
                topic(self.event, self.board, kind), dumps(payload), qos, retain
            )
        )

"""The tournament director's desk: pairings in, boards bound to tables, results confirmed or
corrected, alerts listed until handled, standings.

The desk follows the relay (service.Relay) through its page events: every `board` view (a
board's current game, result, online or not, held by an illegal move) and every board `alert`.
A board's game belongs to the table its board is bound to in the game's round (the round the
board took from the pairing the relay published to it; else the current round), or failing
that to the table of that round with the same two players. Its result waits for the director's
confirmation; a correction keeps the result before, the reason, who and when.

Pairings go out to the boards as retained MQTT messages `go/v1/{event}/{board}/pairing`
{"round", "table", "B": {"name", "rank"}, "W": {...}, "handicap", "komi"} (firmware/ingboard/
relay_link.py keeps the last one; the board names the players on its clock faces and starts the
table's game with them).
"""

import json
import re
import threading
import time

from host_tools.relay import alerts as alert_kinds
from host_tools.relay import desk_import, pairing_files, pairings, standings
from host_tools.relay.desk_import import DONE
from host_tools.relay.desk_store import DeskStore
from host_tools.relay.pairings import PairingError, Player, Table, Tournament


class DeskError(ValueError):
    """A director's request that cannot be done (the message says why)."""


def _norm(name):
    return " ".join(str(name or "").split()).lower()


def _name(p):
    return p.get("name") if isinstance(p, dict) else p


class Director:
    def __init__(self, store, event, publish=None, views=None, wall=time.time):
        self.store = store
        self.desk = DeskStore(store)
        self.event = event
        self.publish = publish or (lambda topic, payload, qos, retain: None)
        self.views = views or (lambda: [])  # the relay's board views (Relay.views)
        self.wall = wall
        self.lock = threading.RLock()
        self.online = {}  # board -> last online state seen
        self.sent = {}  # board -> the pairing payload last published to it
        self.on_change = lambda what: None  # the page server's nudge ("round", "alerts")
        self._cache = None  # see _index()
        self.known = set()  # boards seen
        self._alerted = set()  # dedupe keys of the alerts already kept

    def now(self):
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.wall()))

    # -- the tournament as imported --------------------------------------------------------

    def tournament(self):
        meta, _rnd = self.desk.meta(self.event)
        t = Tournament(source=(meta or {}).get("source", ""))
        for k, v in (meta or {}).items():
            if k != "source" and hasattr(t, k):
                setattr(t, k, v)
        for key, d in self.desk.players(self.event).items():
            t.players[key] = Player(key, d.get("surname", ""), d.get("given", ""),
                                    d.get("rank", ""), d.get("rating"), d.get("country", ""),
                                    d.get("club", ""), d.get("egd", ""), d.get("aga", ""),
                                    d.get("extra") or {})  # fmt: skip
        for rnd, tbl, black, white, handicap, komi in self.desk.tables(self.event):
            t.tables.setdefault(rnd, {})[tbl] = Table(rnd, tbl, black, white, handicap, komi)
        t.byes = self.desk.byes(self.event)
        return t

    def current_round(self):
        return self.desk.meta(self.event)[1]

    def _index(self):
        """What every board event needs, kept until an import, a binding, a round change or a
        new board: {"on": a tournament is imported, "round", "tables": {round: {table:
        Table}}, "names": {key: name}, "seats": {table: board}} (boards send many messages
        a second: this is read from memory, not the archive)."""
        with self.lock:
            if self._cache is None:
                t = self.tournament()
                meta, rnd = self.desk.meta(self.event)
                self._cache = {"on": meta is not None, "round": rnd, "tables": t.tables,
                               "names": {k: p.name for k, p in t.players.items()},
                               "seats": self.seats()}  # fmt: skip
            return self._cache

    def _changed(self):
        with self.lock:
            self._cache = None

    def import_file(self, data, filename="", round_no=None, by="director"):
        """Import a pairings file (OpenGotha XML or CSV); returns what was imported. All or
        nothing: a file with an error (PairingError) changes nothing."""
        new = pairing_files.read(data, filename, round_no)
        with self.lock:
            report = self.desk.transaction(lambda: desk_import.apply(self, new))
            self._changed()
        self.publish_pairings()
        self.on_change("round")
        return report

    def set_round(self, rnd):
        if not isinstance(rnd, int) or rnd < 1 or rnd not in self.tournament().tables:
            raise DeskError("round %r has no pairings: import them first" % (rnd,))
        self.desk.set_round(self.event, rnd)
        self._changed()
        self.publish_pairings()
        self.on_change("round")

    # -- tables and boards -------------------------------------------------------------------

    def seats(self):
        """{table: board}: the director's binding, else a board the relay knows whose name's
        number is the table's (t12, b012, table-12 for table 12)."""
        bound = self.desk.seats(self.event)
        taken = set(bound.values())
        out = dict(bound)
        for v in self.views():
            m = re.search(r"(\d+)$", v["board"])
            if v["event"] == self.event and m and v["board"] not in taken:
                out.setdefault(int(m.group(1)), v["board"])
        return out

    def bind(self, table, board):
        from ingboard.link.relay_link import valid_name

        if not isinstance(table, int) or table < 1:
            raise DeskError("a table is a number from 1")
        if board and not valid_name(board):
            raise DeskError("a board's name is 1-32 of A-Z a-z 0-9 - _")
        with self.lock:
            for other, b in self.desk.seats(self.event).items():
                if board and b == board and other != table:
                    self.desk.seat(self.event, other, None)  # a board sits at one table
            self.desk.seat(self.event, table, board or None)
            self._changed()
        self.publish_pairings()
        self.on_change("round")

    def publish_pairings(self):
        """The current round's pairing to each bound board (retained: a board that connects
        later gets it too). Only what changed is sent again."""
        if not self._index()["on"]:
            return
        rnd = self.current_round()
        t = self.tournament()
        seats = self._index()["seats"]
        for tbl in t.tables.get(rnd, {}).values():
            board = seats.get(tbl.table)
            if not board:
                continue
            msg = {"round": rnd, "table": tbl.table, "handicap": tbl.handicap}
            komi = tbl.komi if tbl.komi is not None else (t.komi if not tbl.handicap else None)
            if komi is not None:
                msg["komi"] = komi
            for colour, key in (("B", tbl.black), ("W", tbl.white)):
                p = t.players.get(key)
                msg[colour] = {"name": p.name if p else key, "rank": p.rank if p else ""}
            payload = json.dumps(msg, separators=(",", ":"), sort_keys=True)
            with self.lock:
                if self.sent.get(board) == payload:
                    continue
                self.sent[board] = payload
            self.publish("go/v1/%s/%s/pairing" % (self.event, board), payload, 1, True)

    # -- what the relay sees -----------------------------------------------------------------

    def on_relay_event(self, kind, data):
        """The relay's page events (Relay.on_event): board views and board alerts."""
        if data.get("event") != self.event:
            return
        with self.lock:
            if kind == "board":
                self._board(data)
            elif kind == "alert":
                code = str(data.get("code"))
                if code in alert_kinds.TABLE_ONLY:
                    return  # the board deals with it at the table (alerts.py)
                k = alert_kinds.BOARD_CODES.get(code, code)
                detail = "the board says %s%s%s" % (
                    code,
                    " at move %s" % data["n"] if data.get("n") else "",
                    ": " + data["detail"] if data.get("detail") else "",
                )
                self._alert(data["board"], k, detail, "board:%s:%s:%s:%s" % (
                    data["board"], data.get("g"), data.get("n"), code))  # fmt: skip

    def _table_of(self, board, info):
        ix = self._index()
        rnd = info.get("round") if isinstance(info.get("round"), int) else ix["round"]
        tables = ix["tables"].get(rnd, {})
        for n, tbl in tables.items():
            if ix["seats"].get(n) == board:
                return ix, rnd, tbl
        names = {_norm(_name((info.get("players") or {}).get(c))) for c in "BW"}
        for tbl in tables.values():
            if {_norm(ix["names"].get(k, k)) for k in (tbl.black, tbl.white)} == names:
                return ix, rnd, tbl
        return ix, rnd, None

    def _board(self, v):
        board = v["board"]
        if board not in self.known:
            self.known.add(board)
            self._changed()  # a board that may sit at the table of its number
        was = self.online.get(board)
        self.online[board] = v.get("online")
        if was and not v.get("online") and v.get("g") and not v.get("result"):
            # (a board switched off after its game is no referee's business)
            self._alert(board, "offline", "no message for a while",
                        "offline:%s:%s" % (board, self.now()))  # fmt: skip
        if v.get("online") and not was:
            self.sent.pop(board, None)  # (again) online: its pairing once more
            self.publish_pairings()
        if not v.get("g") or not isinstance(v.get("info"), dict) or not self._index()["on"]:
            return
        ix, rnd, tbl = self._table_of(board, v["info"])
        if tbl is None:
            return
        row = self.desk.results(self.event, rnd).get((rnd, tbl.table))
        if v.get("held"):
            why = [d for _e, b, g, _n, kind, d in self.store.flags()
                   if b == board and g == v["g"] and kind == "illegal"]  # fmt: skip
            self._alert(board, "illegal-move", why[-1] if why else "a move the rules refuse",
                        "illegal:%s:%s" % (board, v["g"]), rnd, tbl.table)  # fmt: skip
        names = {_norm(_name((v["info"].get("players") or {}).get(c))) for c in "BW"}
        want = {_norm(ix["names"].get(k, k)) for k in (tbl.black, tbl.white)}
        if names != want and names != {""}:
            self._alert(board, "wrong-players", "table %d: the board has %s" % (
                tbl.table, " - ".join(sorted(names))), "players:%s:%s" % (board, v["g"]),
                rnd, tbl.table)  # fmt: skip
        if row is not None and row["status"] in DONE:
            return
        same = row is not None and (row["board"], row["gid"]) == (board, v["g"])
        if same and (row["board_result"] if row["status"] == "reported" else None) == v.get(
            "result"
        ):
            return  # a move: nothing the desk keeps has changed
        fields = {"board": board, "gid": v["g"]}
        if v.get("result"):
            try:
                outcome, bydef = pairings.parse_result(v["result"])
            except PairingError:
                outcome, bydef = None, False
            if str(v.get("reason") or "").lower() in ("forfeit", "bydef"):
                bydef = True
            fields.update(board_result=v["result"], board_reason=v.get("reason"),
                          outcome=outcome, bydef=int(bydef), result=v["result"],
                          status="reported", at=self.now())  # fmt: skip
        elif row is None or row["gid"] != v["g"]:
            fields.update(status="playing", result=None, outcome=None)
        self.desk.put_result(self.event, rnd, tbl.table, **fields)
        self.on_change("round")

    def _alert(self, board, kind, detail, dedupe, rnd=None, tbl=None):
        if dedupe in self._alerted:
            return  # (the archive has it: every later message of that game would say it again)
        self._alerted.add(dedupe)
        if tbl is None:
            rnd = self._index()["round"]
            for n, b in self._index()["seats"].items():
                if b == board:
                    tbl = n
        if self.desk.add_alert(self.event, board, rnd, tbl, kind, detail, self.now(), dedupe):
            self.on_change("alerts")

    # -- the director's decisions ---------------------------------------------------------------

    def confirm(self, rnd, table, by="director"):
        row = self.desk.results(self.event, rnd).get((rnd, table))
        if row is None or row["status"] != "reported" or row["outcome"] is None:
            raise DeskError("round %s table %s has no reported result to confirm" % (rnd, table))
        self.desk.put_result(self.event, rnd, table, status="confirmed", at=self.now())
        self.on_change("round")

    def confirm_all(self, rnd, by="director"):
        n = 0
        for (r, table), row in self.desk.results(self.event, rnd).items():
            if row["status"] == "reported" and row["outcome"] is not None:
                self.confirm(r, table, by)
                n += 1
        return n

    def correct(self, rnd, table, result, reason, by="director"):
        if table not in self.tournament().tables.get(rnd, {}):
            raise DeskError("round %s has no table %s" % (rnd, table))
        reason = " ".join(str(reason or "").split())[:200]
        if not reason:
            raise DeskError("a correction needs a reason (it is kept in the archive)")
        try:
            outcome, bydef = pairings.parse_result(result, "the result")
        except PairingError as exc:
            raise DeskError(str(exc)) from None
        if outcome is None:
            raise DeskError("the result is empty: B+R, W+3.5, B+T, B+F, =, 0-0 or 1-1")
        row = self.desk.results(self.event, rnd).get((rnd, table)) or {}
        text = str(result).strip()[:16]
        with self.lock:
            self.desk.add_correction(self.event, rnd, table, row.get("result"), text, reason,
                                     by, self.now())  # fmt: skip
            self.desk.put_result(self.event, rnd, table, outcome=outcome, bydef=int(bydef),
                                 result=text, status="corrected", at=self.now())  # fmt: skip
        self.on_change("round")

    def handle_alert(self, alert_id, by="director"):
        if not self.desk.handle_alert(self.event, alert_id, by, self.now()):
            raise DeskError("no open alert %r" % (alert_id,))
        self.on_change("alerts")

    # -- views ------------------------------------------------------------------------------------

    def alerts(self):
        out = []
        for a in self.desk.alerts(self.event):
            title, todo = alert_kinds.describe(a["kind"])
            out.append(dict(a, title=title, todo=todo))
        return out

    def corrections(self):
        return self.desk.corrections(self.event)

    def confirmed_games(self, upto=None):
        """[(round, black, white, outcome, bydef)] of every confirmed result."""
        out = []
        t = self.tournament()
        for (rnd, table), row in sorted(self.desk.results(self.event).items()):
            tbl = t.tables.get(rnd, {}).get(table)
            if tbl and row["status"] in DONE and (upto is None or rnd <= upto):
                out.append((rnd, tbl.black, tbl.white, row["outcome"], bool(row["bydef"])))
        return out

    def standings(self, upto=None):
        t = self.tournament()
        return standings.compute(t.players, self.confirmed_games(upto), t.byes, t.criteria,
                                 t.mcmahon, upto)  # fmt: skip

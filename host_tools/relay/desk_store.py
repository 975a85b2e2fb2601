"""The director's desk in the relay's archive: the tournament, its tables, results, corrections
and alerts, in the same SQLite file as the games (store.py), so one file is the whole event.

Nothing here is ever deleted: a correction keeps the result before, the result after, the
reason, who and when; an alert marked handled keeps when and by whom.
"""

import json

SCHEMA = """
CREATE TABLE IF NOT EXISTS td_event (
    event TEXT PRIMARY KEY, meta TEXT NOT NULL, current_round INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS td_players (
    event TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (event, key));
CREATE TABLE IF NOT EXISTS td_tables (
    event TEXT NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL, black TEXT NOT NULL,
    white TEXT NOT NULL, handicap INTEGER NOT NULL, komi REAL, PRIMARY KEY (event, round, tbl));
CREATE TABLE IF NOT EXISTS td_byes (
    event TEXT NOT NULL, round INTEGER NOT NULL, key TEXT NOT NULL,
    PRIMARY KEY (event, round, key));
CREATE TABLE IF NOT EXISTS td_seats (  -- the board on each table (kept from round to round)
    event TEXT NOT NULL, tbl INTEGER NOT NULL, board TEXT NOT NULL, PRIMARY KEY (event, tbl));
CREATE TABLE IF NOT EXISTS td_results (
    event TEXT NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL,
    board TEXT, gid TEXT, board_result TEXT, board_reason TEXT,
    outcome TEXT, bydef INTEGER NOT NULL DEFAULT 0, result TEXT,
    status TEXT NOT NULL,  -- playing, reported, confirmed, corrected, imported
    at TEXT, PRIMARY KEY (event, round, tbl));
CREATE TABLE IF NOT EXISTS td_corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, round INTEGER NOT NULL,
    tbl INTEGER NOT NULL, before TEXT, after TEXT NOT NULL, reason TEXT NOT NULL,
    by TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS td_alerts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, board TEXT, round INTEGER,
    tbl INTEGER, kind TEXT NOT NULL, detail TEXT NOT NULL, at TEXT NOT NULL,
    dedupe TEXT NOT NULL, handled_at TEXT, handled_by TEXT, UNIQUE (event, dedupe));
"""


class DeskStore:
    def __init__(self, store):
        self.lock = store.lock
        self.db = store.db
        with self.lock:
            self.db.executescript(SCHEMA)

    def _q(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args).fetchall()

    def _x(self, sql, args=()):
        with self.lock:
            return self.db.execute(sql, args)

    def transaction(self, fn):
        """Run fn() in one transaction: an import is all or nothing."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                out = fn()
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return out

    # -- the event ---------------------------------------------------------------------------

    def meta(self, event):
        rows = self._q("SELECT meta, current_round FROM td_event WHERE event=?", (event,))
        if not rows:
            return None, 0
        return json.loads(rows[0][0]), rows[0][1]

    def set_meta(self, event, meta):
        self._x(
            "INSERT INTO td_event (event, meta) VALUES (?, ?)"
            " ON CONFLICT(event) DO UPDATE SET meta=excluded.meta",
            (event, json.dumps(meta, sort_keys=True)),
        )

    def set_round(self, event, rnd):
        self._x("UPDATE td_event SET current_round=? WHERE event=?", (rnd, event))

    # -- players, tables, byes, seats ----------------------------------------------------------

    def players(self, event):
        return {k: json.loads(d) for k, d in self._q(
            "SELECT key, data FROM td_players WHERE event=?", (event,))}  # fmt: skip

    def put_player(self, event, key, data):
        self._x(
            "INSERT OR REPLACE INTO td_players (event, key, data) VALUES (?, ?, ?)",
            (event, key, json.dumps(data, sort_keys=True)),
        )

    def tables(self, event, rnd=None):
        """[(round, table, black, white, handicap, komi)] by round and table."""
        sql = "SELECT round, tbl, black, white, handicap, komi FROM td_tables WHERE event=?"
        args = [event]
        if rnd is not None:
            sql += " AND round=?"
            args.append(rnd)
        return self._q(sql + " ORDER BY round, tbl", args)

    def replace_round(self, event, rnd, tables):
        self._x("DELETE FROM td_tables WHERE event=? AND round=?", (event, rnd))
        for t in tables:
            self._x(
                "INSERT INTO td_tables (event, round, tbl, black, white, handicap, komi)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (event, rnd) + tuple(t),
            )

    def byes(self, event):
        out = {}
        for rnd, key in self._q("SELECT round, key FROM td_byes WHERE event=?", (event,)):
            out.setdefault(rnd, []).append(key)
        return out

    def set_byes(self, event, rnd, keys):
        self._x("DELETE FROM td_byes WHERE event=? AND round=?", (event, rnd))
        for k in keys:
            self._x("INSERT OR IGNORE INTO td_byes VALUES (?, ?, ?)", (event, rnd, k))

    def seats(self, event):
        return dict(self._q("SELECT tbl, board FROM td_seats WHERE event=?", (event,)))

    def seat(self, event, tbl, board):
        if board:
            self._x("INSERT OR REPLACE INTO td_seats VALUES (?, ?, ?)", (event, tbl, board))
        else:
            self._x("DELETE FROM td_seats WHERE event=? AND tbl=?", (event, tbl))

    # -- results ---------------------------------------------------------------------------

    _RESULT_COLS = (
        "round, tbl, board, gid, board_result, board_reason, outcome, bydef, result, status, at"
    )

    def results(self, event, rnd=None):
        """{(round, table): row dict}."""
        sql = "SELECT %s FROM td_results WHERE event=?" % self._RESULT_COLS
        args = [event]
        if rnd is not None:
            sql += " AND round=?"
            args.append(rnd)
        names = [c.strip() for c in self._RESULT_COLS.split(",")]
        return {(r[0], r[1]): dict(zip(names, r)) for r in self._q(sql, args)}

    def put_result(self, event, rnd, tbl, **fields):
        row = self.results(event, rnd).get((rnd, tbl))
        if row is None:
            self._x(
                "INSERT INTO td_results (event, round, tbl, status) VALUES (?, ?, ?, 'playing')",
                (event, rnd, tbl),
            )
        sets = ", ".join("%s=?" % k for k in fields)
        self._x(
            "UPDATE td_results SET %s WHERE event=? AND round=? AND tbl=?" % sets,
            tuple(fields.values()) + (event, rnd, tbl),
        )

    def add_correction(self, event, rnd, tbl, before, after, reason, by, at):
        self._x(
            "INSERT INTO td_corrections (event, round, tbl, before, after, reason, by, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (event, rnd, tbl, before, after, reason, by, at),
        )

    def corrections(self, event):
        names = ("id", "round", "table", "before", "after", "reason", "by", "at")
        rows = self._q(
            "SELECT id, round, tbl, before, after, reason, by, at FROM td_corrections"
            " WHERE event=? ORDER BY id",
            (event,),
        )
        return [dict(zip(names, r)) for r in rows]

    # -- alerts ----------------------------------------------------------------------------

    def add_alert(self, event, board, rnd, tbl, kind, detail, at, dedupe):
        """Keep an alert once (same dedupe key); True if new."""
        cur = self._x(
            "INSERT OR IGNORE INTO td_alerts (event, board, round, tbl, kind, detail, at,"
            " dedupe) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (event, board, rnd, tbl, kind, detail[:300], at, dedupe[:300]),
        )
        return cur.rowcount == 1

    def alerts(self, event):
        names = ("id", "board", "round", "table", "kind", "detail", "at", "handled_at",
                 "handled_by")  # fmt: skip
        rows = self._q(
            "SELECT id, board, round, tbl, kind, detail, at, handled_at, handled_by"
            " FROM td_alerts WHERE event=? ORDER BY (handled_at IS NOT NULL), id DESC",
            (event,),
        )
        return [dict(zip(names, r)) for r in rows]

    def handle_alert(self, event, alert_id, by, at):
        cur = self._x(
            "UPDATE td_alerts SET handled_at=?, handled_by=? WHERE event=? AND id=?"
            " AND handled_at IS NULL",
            (at, by, event, alert_id),
        )
        return cur.rowcount == 1

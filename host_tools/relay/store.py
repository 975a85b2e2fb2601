"""The relay's SQLite archive: every (board, game, ply) once, in order, plus flags for the TD.

One connection, used under one lock (paho's network thread writes, the web threads read).
WAL mode with synchronous=NORMAL: a committed row survives the relay being killed (only an OS
crash could lose the last commits, and the boards resend anything not acknowledged). The relay
acknowledges a ply only after the commit that stores it.
"""

import hashlib
import json
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    event TEXT NOT NULL, board TEXT NOT NULL, gid TEXT NOT NULL, info TEXT NOT NULL,
    received_ms INTEGER NOT NULL, result TEXT, reason TEXT, result_n INTEGER,
    PRIMARY KEY (event, board, gid));
CREATE TABLE IF NOT EXISTS moves (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event TEXT NOT NULL, board TEXT NOT NULL, gid TEXT NOT NULL, n INTEGER NOT NULL,
    color TEXT NOT NULL, point TEXT NOT NULL, t_ms INTEGER, received_ms INTEGER NOT NULL,
    status TEXT NOT NULL,  -- legal, illegal, held (after an illegal move: not checked)
    reason TEXT,
    UNIQUE (event, board, gid, n));
CREATE TABLE IF NOT EXISTS flags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event TEXT NOT NULL, board TEXT NOT NULL, gid TEXT, n INTEGER, kind TEXT NOT NULL,
    detail TEXT NOT NULL, received_ms INTEGER NOT NULL,
    UNIQUE (event, board, gid, n, kind, detail));
CREATE TABLE IF NOT EXISTS clocks (  -- time left after ply n, from the board's clock messages
    event TEXT NOT NULL, board TEXT NOT NULL, gid TEXT NOT NULL, n INTEGER NOT NULL,
    b_ms INTEGER, w_ms INTEGER, PRIMARY KEY (event, board, gid, n));
CREATE TABLE IF NOT EXISTS dates (  -- the day the relay first saw a game (SGF DT, exports)
    event TEXT NOT NULL, board TEXT NOT NULL, gid TEXT NOT NULL, date TEXT NOT NULL,
    PRIMARY KEY (event, board, gid));
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event TEXT NOT NULL, board TEXT NOT NULL, topic TEXT NOT NULL, payload BLOB NOT NULL,
    digest TEXT NOT NULL, reason TEXT NOT NULL, received_ms INTEGER NOT NULL,
    times INTEGER NOT NULL DEFAULT 1,
    UNIQUE (event, board, digest));
"""

KEEP_BYTES = 16384  # of a quarantined message (the rest is cut; its digest is of the whole)
MAX_QUARANTINE = 10000  # distinct quarantined messages kept; later ones are only counted


class Store:
    def __init__(self, path):
        self.path = path
        self.lock = threading.RLock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self):
        with self.lock:
            self.db.close()

    # -- games ---------------------------------------------------------------------------

    def game(self, event, board, gid):
        """{"info", "result", "reason", "result_n"} or None."""
        with self.lock:
            row = self.db.execute(
                "SELECT info, result, reason, result_n FROM games"
                " WHERE event=? AND board=? AND gid=?",
                (event, board, gid),
            ).fetchone()
        if row is None:
            return None
        return {"info": json.loads(row[0]), "result": row[1], "reason": row[2], "result_n": row[3]}

    def add_game(self, event, board, gid, info, now_ms):
        """Store a game's settings once; returns True if new."""
        with self.lock:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games (event, board, gid, info, received_ms)"
                " VALUES (?, ?, ?, ?, ?)",
                (event, board, gid, json.dumps(info, sort_keys=True), now_ms),
            )
            return cur.rowcount == 1

    def set_result(self, event, board, gid, result, reason, n):
        with self.lock:
            self.db.execute(
                "UPDATE games SET result=?, reason=?, result_n=? WHERE event=? AND board=?"
                " AND gid=?",
                (result, reason, n, event, board, gid),
            )

    def games(self, event=None):
        """[(event, board, gid, info, result, reason)] in the order they were first seen."""
        sql = "SELECT event, board, gid, info, result, reason FROM games"
        args = ()
        if event is not None:
            sql += " WHERE event=?"
            args = (event,)
        with self.lock:
            rows = self.db.execute(sql + " ORDER BY received_ms, board, gid", args).fetchall()
        return [(e, b, g, json.loads(i), r, why) for e, b, g, i, r, why in rows]

    def set_date(self, event, board, gid, date):
        with self.lock:
            self.db.execute(
                "INSERT OR IGNORE INTO dates (event, board, gid, date) VALUES (?, ?, ?, ?)",
                (event, board, gid, date),
            )

    def date(self, event, board, gid):
        """The day (YYYY-MM-DD) the relay first saw the game, or None."""
        with self.lock:
            row = self.db.execute(
                "SELECT date FROM dates WHERE event=? AND board=? AND gid=?", (event, board, gid)
            ).fetchone()
        return row[0] if row else None

    # -- clocks --------------------------------------------------------------------------

    def add_clock(self, event, board, gid, n, b_ms, w_ms):
        """Both players' time left after ply n (the first clock message with that n)."""
        with self.lock:
            self.db.execute(
                "INSERT OR IGNORE INTO clocks (event, board, gid, n, b_ms, w_ms)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (event, board, gid, n, b_ms, w_ms),
            )

    def clocks(self, event, board, gid):
        """{n: (b_ms, w_ms)} of a game."""
        with self.lock:
            rows = self.db.execute(
                "SELECT n, b_ms, w_ms FROM clocks WHERE event=? AND board=? AND gid=?",
                (event, board, gid),
            ).fetchall()
        return {n: (b, w) for n, b, w in rows}

    # -- moves ---------------------------------------------------------------------------

    def last_ply(self, event, board, gid):
        """The highest stored ply (stored plies are always 1..n without a gap)."""
        with self.lock:
            row = self.db.execute(
                "SELECT MAX(n) FROM moves WHERE event=? AND board=? AND gid=?",
                (event, board, gid),
            ).fetchone()
        return row[0] or 0

    def move(self, event, board, gid, n):
        """(color, point, status) of a stored ply, or None."""
        with self.lock:
            return self.db.execute(
                "SELECT color, point, status FROM moves WHERE event=? AND board=? AND gid=?"
                " AND n=?",
                (event, board, gid, n),
            ).fetchone()

    def add_move(self, event, board, gid, n, color, point, t_ms, now_ms, status, reason=None):
        """Store ply n; the caller guarantees n == last_ply + 1. Returns its sequence number."""
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO moves (event, board, gid, n, color, point, t_ms, received_ms,"
                " status, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (event, board, gid, n, color, point, t_ms, now_ms, status, reason),
            )
            return cur.lastrowid

    def moves(self, event, board, gid):
        """[(n, color, point, status, reason, received_ms)] in ply order."""
        with self.lock:
            return self.db.execute(
                "SELECT n, color, point, status, reason, received_ms FROM moves"
                " WHERE event=? AND board=? AND gid=? ORDER BY n",
                (event, board, gid),
            ).fetchall()

    def all_moves(self):
        """[(seq, event, board, gid, n, color, point, status)] in arrival order."""
        with self.lock:
            return self.db.execute(
                "SELECT seq, event, board, gid, n, color, point, status FROM moves ORDER BY seq"
            ).fetchall()

    # -- flags for the tournament director ---------------------------------------------------

    def flag(self, event, board, gid, n, kind, detail, now_ms):
        """Record a problem once (same board, game, ply, kind and detail); True if new."""
        with self.lock:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO flags (event, board, gid, n, kind, detail, received_ms)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (event, board, gid, n, kind, detail, now_ms),
            )
            return cur.rowcount == 1

    # -- quarantine: messages the relay could not process ----------------------------------------

    def quarantine(self, event, board, topic, payload, reason, now_ms):
        """Keep a message once (the same bytes again only count up); True if new. Bounded:
        past MAX_QUARANTINE distinct messages nothing new is kept (the relay counts them)."""
        digest = hashlib.sha256(topic.encode() + b"\0" + payload).hexdigest()
        with self.lock:
            cur = self.db.execute(
                "UPDATE quarantine SET times = times + 1 WHERE event=? AND board=? AND digest=?",
                (event, board, digest),
            )
            if cur.rowcount:
                return False
            (count,) = self.db.execute("SELECT COUNT(*) FROM quarantine").fetchone()
            if count >= MAX_QUARANTINE:
                return False
            self.db.execute(
                "INSERT INTO quarantine (event, board, topic, payload, digest, reason,"
                " received_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (event, board, topic, payload[:KEEP_BYTES], digest, reason, now_ms),
            )
            return True

    def quarantined(self, limit=1000):
        """[(event, board, topic, payload bytes, reason, times)], oldest first."""
        with self.lock:
            return self.db.execute(
                "SELECT event, board, topic, payload, reason, times FROM quarantine"
                " ORDER BY id LIMIT ?",
                (limit,),
            ).fetchall()

    def count_games(self, event, board):
        with self.lock:
            (n,) = self.db.execute(
                "SELECT COUNT(*) FROM games WHERE event=? AND board=?", (event, board)
            ).fetchone()
        return n

    def flags(self):
        with self.lock:
            return self.db.execute(
                "SELECT event, board, gid, n, kind, detail FROM flags ORDER BY id"
            ).fetchall()

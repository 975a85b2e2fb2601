"""The journal: an append-only record on flash of everything a game needs to resume.

Why: a board on a battery or a table socket loses power; the game in progress must come back
exactly - board, turn, clock (within one second), penalty points, bowl enrolment, the SGF's
BL/WL - and a half-written last record must never corrupt what came before it.

Framing, per record (bytes):

    4 hex digits  length n of the payload in bytes
    8 hex digits  CRC-32 of the payload
    n bytes       payload: one JSON array [t_ms, op, op, ...]
    b"\\n"

A record is whole or it is not there: a short header, a short payload, a missing newline, a bad
CRC or a payload that is not a JSON array ends the readable journal at that record (a power cut
tears only the last one; everything before it is kept). A bad record with whole records after it
is not a torn tail but corruption (flash wear, a bug): `recover` says so (`info["corrupt"]`, the
byte offset, and `info["lost"]`, the whole records after it) so the app reports it and rebuilds
the game from the session log on flash when that holds more (`rebuild`), never rolling the game
back silently. One tracker input gives at most one
record, so every record boundary is a state the tracker really was in.

Ops (each a JSON array; colours and points are the board's ints, points padded indices):

    ["game", config]           settings (the session log's config), first op of the journal
    ["ply", color, point, kind] an accepted move or pass (game.Ply; point -1 = pass)
    ["dead", point]            during the pause: the chain at point taken away as dead
    ["dispute"]                life and death disputed: removed stones back, play resumes
    ["undo"]                   an accepted retraction
    ["end", result, reason]    the game ended (a count is made again from the position)
    ["clock", snapshot]        the clock as of the record's t (clock.snapshot())
    ["push", snapshot]         the clock before a switch (the tracker's undo stack)
    ["props", i, props]        SGF properties of ply i (BL/WL...)
    ["flags", ...]             the tracker's bookkeeping: Tracker.state(), items spread
    ["bowls", snapshot]        enrolment and zero of the bowls (bowls.snapshot())
    ["note", plies, text]      an SGF comment made at that many plies (alerts, retractions,
                               accepted shifts: sgf_record.Notes), so the SGF of a resumed
                               game has them all

A record with no op is a time mark: the clock ran on until t without anything else happening
(written at most every `mark_ms` while the clock runs, so the clock comes back within that).

`JournalWriter(out).sync(tracker, t, events, button)` after every tracker call appends what
changed (out: anything with write(bytes); the app flushes it). `read(data)` gives the records
of a journal's bytes, `recover(data)` a Tracker that continues the game, `compact(data)` the
same journal without superseded clock records and time marks (the app rewrites the file with
it when it grows). Nothing here reads a clock or opens a file.
"""

import io
import json
from binascii import crc32

from micropython import const

from ingboard.core.chunked import Chunked
from ingboard.core.game import ENDED, MANDATORY_PASS
from ingboard.core.ko import PASS
from ingboard.core.tracker import Tracker

_HEADER = const(12)
MAX_PAYLOAD = const(0xFFFF)
MARK_MS = const(1000)
_HEX = b"0123456789abcdef"
_STATE_OPS = ("clock", "flags", "bowls")
_CHUNK = const(2048)
_SLICE = const(4096)  # bytes read per Compactor.step() of a whole compact()


class JournalError(ValueError):
    """The journal cannot describe what the tracker did (a bug, not a torn record)."""


def encode(t, ops):
    """One framed record: [t] + ops as JSON, length and CRC in front, newline after."""
    payload = json.dumps([t] + list(ops)).encode()
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise JournalError("journal record of %d bytes is too long" % n)
    head = "%04x%08x" % (n, crc32(payload) & 0xFFFFFFFF)
    return head.encode() + payload + b"\n"


def _hex_value(data, start, end):
    v = 0
    for i in range(start, end):
        d = _HEX.find(data[i : i + 1])
        if d < 0:
            return -1
        v = v * 16 + d
    return v


def later_records(data, end):
    """The whole records after a bad one at byte `end` (0 when `end` is a torn tail): they
    start after the next newline (a payload is JSON: it never holds a raw newline)."""
    nl = data.find(b"\n", end)
    while 0 <= nl < len(data) - 1:
        records, _stop, _dropped = read(data, nl + 1)
        if records:
            return len(records)
        nl = data.find(b"\n", nl + 1)
    return 0


def _source(data):
    # Bytes are read like the journal file on flash: record by record, never all at once.
    if isinstance(data, (bytes, bytearray)):
        return io.BytesIO(data)
    return data


def _next(f, last_t):
    """The next whole record of the file `f` (read(n)) and its length in bytes, or (None, 0)
    when there is none (the end, or a torn or bad record)."""
    head = f.read(_HEADER)
    if not head or len(head) < _HEADER:
        return None, 0
    n = _hex_value(head, 0, 4)
    crc = _hex_value(head, 4, _HEADER)
    if n < 0 or crc < 0:
        return None, 0
    payload = f.read(n) if n else b""
    if len(payload) < n or f.read(1) != b"\n":
        return None, 0
    if crc32(payload) & 0xFFFFFFFF != crc:
        return None, 0
    try:
        record = json.loads(payload)
    except ValueError:
        return None, 0
    if not isinstance(record, list) or not record or not isinstance(record[0], int):
        return None, 0
    if record[0] < last_t:
        return None, 0
    return record, _HEADER + n + 1


def each(data, start=0):
    """Yield the whole records of a journal one at a time, each [t, op...]: `data` is its bytes
    or its file opened for reading (memory: one record at a time, whatever the journal's
    size). Ends at the first torn or bad record."""
    f = _source(data)
    if start:
        f.seek(start)
    last_t = 0
    while True:
        record, _size = _next(f, last_t)
        if record is None:
            return
        last_t = record[0]
        yield record


def read(data, start=0):
    """(records, end, dropped): the whole records from byte `start`, each [t, op...]; `end` is
    the offset after the last whole record; `dropped` the bytes after it (a torn tail)."""
    records = []
    i = start
    size = len(data)
    last_t = 0
    while i < size:
        if size - i < _HEADER:
            break
        n = _hex_value(data, i, i + 4)
        crc = _hex_value(data, i + 4, i + _HEADER)
        stop = i + _HEADER + n
        if n < 0 or crc < 0 or stop >= size or data[stop] != 10:  # 10: b"\n"
            break
        payload = bytes(data[i + _HEADER : stop])
        if crc32(payload) & 0xFFFFFFFF != crc:
            break
        try:
            record = json.loads(payload)
        except ValueError:
            break
        if not isinstance(record, list) or not record or not isinstance(record[0], int):
            break
        if record[0] < last_t:
            break
        last_t = record[0]
        records.append(record)
        i = stop + 1
    return records, i, size - i


def _ply_code(color, point, kind):
    # colour (2 bits), kind (2 bits), point + 1 (0: a pass): a small int.
    return ((point + 1) << 4) | (kind << 2) | color


def _ply_kind(code):
    return (code >> 2) & 3


class JournalWriter:
    """Appends the changes of one game's tracker to `out` (write(bytes)); see the docstring."""

    def __init__(self, out, mark_ms=MARK_MS):
        self.out = out
        self.mark_ms = mark_ms
        self.written = 0  # bytes
        self.records = 0
        # The plies as journaled, mandatory passes included, each as one small int
        # (_ply_code): nothing allocated per ply, no block that grows with the game.
        self.plies = Chunked()
        self.pushed = 0
        self.props = Chunked()
        self.flags = None
        self.clock = None
        self.bowls = None
        self.bowls_key = None  # tracker.bowls.snapshot_key() when self.bowls was compared
        self.notes = 0  # the tracker's comments journaled so far (Notes.total)
        self.noted = {}  # plies -> comments journaled at that ply
        self.last_t = -1

    def start(self, tracker, t):
        """The first record: the game's settings and the state it starts from."""
        if self.records:
            raise JournalError("the journal already has a game")
        ops = [["game", tracker.config]]
        self._state(tracker, ops, True)
        self._append(t, ops)

    def _append(self, t, ops):
        data = encode(t, ops)
        self.out.write(data)
        self.written += len(data)
        self.records += 1
        self.last_t = t

    def sync(self, tracker, t, events, button=None):
        """Journal what the tracker call at t (its `events`) changed; True if a record was
        written. JournalError if the tracker's game no longer matches the journal's."""
        ops = []
        # The tracker keeps only its last few clock snapshots (for retractions): journal the
        # ones pushed since the last record - first, since within one tracker call they all
        # come before a retraction's pop.
        new = tracker.clock_pushes - self.pushed
        if new > 0:
            kept = tracker.clock_before
            for snap in kept[max(0, len(kept) - new) :]:
                ops.append(["push", snap])
        self.pushed = tracker.clock_pushes
        game = tracker.game
        plies = game.plies
        mine = self.plies
        for ev in events:
            kind = ev["type"]
            if kind == "move" or (kind == "pass" and not ev.get("mandatory")):
                if len(mine) >= len(plies):
                    raise JournalError("journal: a %s the game does not have" % kind)
                self._ply(plies[len(mine)], ops)
                while len(mine) < len(plies) and plies[len(mine)].kind == MANDATORY_PASS:
                    self._ply(plies[len(mine)], ops)
            elif kind == "removal":
                ops.append(["dead", game.board.parse(ev["points"][0])])
            elif kind == "resume" and button == "dispute":
                ops.append(["dispute"])
            elif kind == "undo":
                ops.append(["undo"])
                last = mine.pop() if mine else None
                if last is not None and _ply_kind(last) == MANDATORY_PASS and mine:
                    mine.pop()
                del self.props[len(mine) :]
            elif kind == "end":
                ops.append(["end", ev["result"], ev["reason"]])
        if len(mine) != len(plies):
            raise JournalError("journal has %d plies, the game %d" % (len(mine), len(plies)))
        props = tracker.ply_props
        # A ply's properties change only with a clock switch (a push) or an event: not at a
        # bowl reading or a tick, the most frequent calls (issue 20: their cost).
        first = max(0, len(props) - 3) if new > 0 or events or button is not None else len(props)
        for i in range(first, len(props)):
            have = self.props[i] if i < len(self.props) else None
            if props[i] is not None and props[i] != have:
                while len(self.props) <= i:
                    self.props.append(None)
                self.props[i] = props[i]
                ops.append(["props", i, props[i]])
        if tracker.notes.total != self.notes:
            self._notes(tracker.notes, ops)
        self._state(tracker, ops, bool(events) or button is not None or bool(ops))
        if ops:
            self._append(t, ops)
            return True
        if self.mark_due(tracker, t):
            self._append(t, ())
            return True
        return False

    def mark_due(self, tracker, t):
        """True when sync() at t would write a mark (the clock runs and mark_ms passed since
        the last record) even if nothing else changed."""
        return tracker.clock.running() and t - self.last_t >= self.mark_ms

    def resume(self, tracker, data):
        """Continue a journal whose bytes are `data` and whose game `tracker` recovered."""
        records, end, _dropped = read(data)
        return self.resume_at(tracker, len(records), end, records[-1][0] if records else 0)

    def resume_at(self, tracker, records, written, last_t):
        """Continue a journal of `records` records and `written` bytes, the last at `last_t`
        (what compact() wrote), whose game `tracker` recovered."""
        self.records = records
        self.written = written
        self.last_t = last_t
        self.plies = Chunked()
        for p in tracker.game.plies:
            self.plies.append(_ply_code(p.color, p.point, p.kind))
        self.pushed = tracker.clock_pushes
        self.props = Chunked()
        for text in tracker.ply_props:
            self.props.append(text)
        self.clock = tracker.clock.snapshot()
        self.bowls = tracker.bowls.snapshot()
        self.bowls_key = None
        self.flags = tracker.state()
        self.notes = tracker.notes.total
        self.noted = {}
        for plies in tracker.notes.by_ply:
            self.noted[plies] = len(tracker.notes.by_ply[plies])
        return self

    def _notes(self, notes, ops):
        # The comments added since the last record, in the order made within each ply.
        noted = self.noted
        by_ply = notes.by_ply
        for plies in sorted(by_ply):
            texts = by_ply[plies]
            for k in range(noted.get(plies, 0), len(texts)):
                ops.append(["note", plies, texts[k]])
            noted[plies] = len(texts)
        self.notes = notes.total

    def _ply(self, ply, ops):
        self.plies.append(_ply_code(ply.color, ply.point, ply.kind))
        ops.append(["ply", ply.color, ply.point, ply.kind])

    def _state(self, tracker, ops, clock_too):
        flags = tracker.state()
        if flags != self.flags:
            self.flags = flags
            ops.append(["flags"] + flags)
        # The bowls' snapshot (dicts of grams: ~0.7 KB of floats and dicts made on the RP2040
        # at every bowl reading, issue 20) only when what it is made of changed.
        key = tracker.bowls.snapshot_key()
        if key != self.bowls_key:
            self.bowls_key = key
            bowls = tracker.bowls.snapshot()
            if bowls != self.bowls:
                self.bowls = bowls
                ops.append(["bowls", bowls])
        if clock_too or ops:
            snap = tracker.clock.snapshot()
            if snap != self.clock:
                self.clock = snap
                ops.append(["clock", snap])


def recover(data, settle_ms=None):
    """(tracker, info) from a journal's bytes or its file opened for reading (read record by
    record: a long game's journal is never held whole, issue 20): the game as of the last
    whole record, ready to continue; info = {"records", "t", "dropped", "corrupt", "lost"}.
    (None, info) for a journal with no game. ValueError if a whole record cannot be applied
    (a journal from other firmware)."""
    f = _source(data)
    replay = None
    records = 0
    end = 0
    last_t = 0
    while True:
        record, size = _next(f, last_t)
        if record is None:
            break
        if replay is None:
            if len(record) < 2 or not isinstance(record[1], list) or record[1][:1] != ["game"]:
                raise ValueError("journal does not start with a game")
            replay = _Replay(record[1][1], settle_ms)
        replay.apply(record)
        last_t = record[0]
        records += 1
        end += size
    f.seek(0, 2)
    dropped = f.tell() - end
    info = {"records": records, "t": 0, "dropped": dropped, "corrupt": None, "lost": 0}
    if dropped:
        f.seek(end)
        lost = later_records(f.read(), 0)  # a torn tail is short; the rest only when corrupt
        if lost:
            info["corrupt"] = end
            info["lost"] = lost
    if replay is None:
        return None, info
    info["t"] = replay.t
    return replay.finish(), info


class _Replay:
    def __init__(self, config, settle_ms):
        if settle_ms is None:
            self.tracker = Tracker(config)
        else:
            self.tracker = Tracker(config, settle_ms=settle_ms)
        self.t = 0
        self.clock_t = None
        self.state = None  # the last Tracker.state() journaled

    def apply(self, record):
        t = record[0]
        self.t = t
        tr = self.tracker
        game = tr.game
        for op in record[1:]:
            name = op[0]
            if name == "game":
                continue
            if name == "ply":
                color, point, kind = op[1], op[2], op[3]
                if kind == MANDATORY_PASS:
                    continue  # game.play() makes White's handicap pass itself
                if point == PASS:
                    game.pass_move(color, kind)
                else:
                    game.play(color, point)
            elif name == "dead":
                game.remove_dead(op[1])
            elif name == "dispute":
                game.dispute()
            elif name == "undo":
                game.undo()
                del tr.ply_props[len(game.plies) :]
                tr.undo_clock(t)
            elif name == "end":
                game.phase = ENDED
                game.result = op[1]
                game.end_reason = op[2]  # op[3], a count from older firmware: made again
            elif name == "clock":
                tr.clock.restore(op[1], t)
                self.clock_t = t
            elif name == "push":
                tr.push_clock_snapshot(op[1])
            elif name == "props":
                i = op[1]
                while len(tr.ply_props) <= i:
                    tr.ply_props.append(None)
                tr.ply_props[i] = op[2]  # the SGF text of that ply's clock properties
            elif name == "flags":
                self.state = op[1:]
            elif name == "bowls":
                tr.bowls.restore(op[1])
            elif name == "note":
                tr.notes.add(op[1], op[2])
            else:
                raise ValueError("unknown journal op %r" % (name,))

    def finish(self):
        tr = self.tracker
        t = self.t
        if self.clock_t is not None and t > self.clock_t:
            tr.clock.advance(t)  # a time mark: nothing else happened in between
        tr.restore_state(self.state if self.state is not None else tr.state(), t)
        return tr


def rebuild(lines, out, mark_ms=MARK_MS):
    """(tracker, info) of the game a session log's `lines` describe, replayed through a
    Tracker as the app ran it, and journaled to `out` (write(bytes)) as the app journals it:
    the fallback when the journal is corrupted. A torn or malformed last line ends the log.
    info = {"records": records replayed, "t": time of the last one}; (None, info) when the log
    has no config."""
    from ingboard.core.session import SessionLogError, SessionReader

    reader = SessionReader()
    tracker = None
    writer = None
    info = {"records": 0, "t": 0}
    for line in lines:
        if not line.endswith("\n"):
            break  # the torn last line of a power cut
        try:
            record = reader.feed(line)
        except SessionLogError:
            break
        if record is None:
            continue
        t = record.t_ms
        if record.kind == "config":
            if tracker is not None:
                break
            tracker = Tracker(record.payload)
            writer = JournalWriter(out, mark_ms)
            writer.start(tracker, t)
            continue
        if tracker is None:
            break
        while True:
            due = tracker.next_deadline()
            if due is None or due >= t:
                break
            writer.sync(tracker, due, tracker.tick(due))
        button = record.payload if record.kind == "button" else None
        try:
            events = tracker.take(record)
        except (ValueError, TypeError):
            continue  # the app refused this input too (and reported it): it changed nothing
        writer.sync(tracker, t, events, button)
        info["records"] += 1
        info["t"] = t
    return tracker, info


def should_compact(written, compacted, limit):
    """True when a journal of `written` bytes, `compacted` bytes right after its last
    compaction, is due for one: past `limit` and past twice what the last compaction kept. Late
    in a long game the essential part (every ply) alone may pass `limit`; doubling keeps the
    journal within twice that while rewriting it only after as many bytes again were appended -
    never on every record."""
    return written > limit and written > 2 * compacted


def compact(data, out=None):
    """The journal's whole records without superseded state: every game op in order (merged
    into records of about _CHUNK bytes), then one record with the last clock, flags and bowls,
    and a time mark. Recovers the same game. `data`: the journal's bytes or its file opened for
    reading; `out`: where to write (write(bytes)), or None to get the bytes back. With `out`,
    returns (records, bytes, last t) written - for JournalWriter.resume_at()."""
    if out is None:
        buf = io.BytesIO()
        compact(data, buf)
        return buf.getvalue()
    job = Compactor(data, out)
    while not job.step(_SLICE):
        pass
    return job.records, job.bytes, job.last_t


class Compactor:
    """compact() in slices, so that the app can compact a long game's journal between two
    scans (issue 20: no burst may delay a scan by more than one period): step(budget) reads
    records until `budget` bytes of them are read (at least one) and returns True once
    everything is written. Memory: one record read and one
    merged record pending at a time, whatever the journal's size. `limit`: read no further
    than this byte offset (the records the app appends meanwhile are copied as they are)."""

    def __init__(self, data, out, limit=-1):
        self.f = _source(data)
        self.out = out
        self.limit = limit
        self.offset = 0
        self.records = 0  # written
        self.bytes = 0
        self.last_t = 0  # of the last record written
        self.pending = []
        self.pending_t = 0
        self.size = 0
        self.last = {}
        self.read_t = 0  # t of the last record read
        self.state_t = 0
        self.seen = False
        self.done = False

    def _put(self, t, ops):
        record = encode(t, ops)
        self.out.write(record)
        self.records += 1
        self.bytes += len(record)
        self.last_t = t

    def step(self, budget):
        """Read records worth `budget` bytes (at least one); True when the compacted journal is
        complete."""
        if self.done:
            return True
        start = self.offset
        while self.offset - start < budget:
            if self.limit >= 0 and self.offset >= self.limit:
                record = None
            else:
                record, size = _next(self.f, self.read_t)
            if record is None:
                self._finish()
                return True
            self.offset += size
            self.seen = True
            t = record[0]
            self.read_t = t
            kept = []
            for op in record[1:]:
                if op[0] in _STATE_OPS:
                    self.last[op[0]] = op
                    self.state_t = t
                else:
                    kept.append(op)
            if kept:
                self.pending += kept
                self.size += len(json.dumps(kept))
                # Each undo restores a clock that a later clock op replaces, so only the time
                # of the last merged record matters.
                self.pending_t = t
                if self.size > _CHUNK:
                    self._put(self.pending_t, self.pending)
                    self.pending = []
                    self.size = 0
        return False

    def _finish(self):
        self.done = True
        if self.pending:
            self._put(self.pending_t, self.pending)
            self.pending = []
        last = self.last
        state = [last[k] for k in _STATE_OPS if k in last]
        known = max(self.state_t, self.pending_t)
        if state:
            # A clock op unchanged since state_t means the clock did not run: a later t is
            # exact.
            self._put(known, state)
        if self.seen and self.read_t > known:
            self._put(self.read_t, ())

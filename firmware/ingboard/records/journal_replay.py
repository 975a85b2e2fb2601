"""Reading a journal back (records/journal_format.py has the format, journal.py the writer):
its records, the game it holds (`recover`), the game a session log holds journaled anew
(`rebuild`), and the same journal without superseded state (`compact`, `Compactor`: in slices,
while the app plays). The records are decoded here, against journal_format's framing.

Apart from the writer because the app needs it only at boot after a power cut and while it
compacts a long game's journal: it loads this module then and drops it after (issue 17: on the
stock Pico image the code of .mpy files is heap the game would keep otherwise).
"""

import io
import json
from binascii import crc32

from ingrules.game import ENDED, MANDATORY_PASS
from ingrules.ko import PASS
from micropython import const

from ingboard.records.journal import JournalWriter
from ingboard.records.journal_format import (
    HEADER,
    MARK_MS,
    STATE_OPS,
    WHOLE_OPS,
    write_record,
    write_texts,
)
from ingboard.tracking.tracker import Tracker

_HEX = b"0123456789abcdef"
_CHUNK = const(2048)
_SLICE = const(4096)  # bytes read per Compactor.step() of a whole compact()
_WRITE = const(512)  # bytes written to the compacted journal per Compactor.step()
_STATE_MARKS = tuple(('["%s"' % name).encode() for name in STATE_OPS)


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


def _frame(f):
    """The payload (bytes) of the next whole record of the file `f` (read(n)) and the record's
    length in bytes, or (None, 0) when there is none (the end, a torn record, a bad CRC)."""
    head = f.read(HEADER)
    if not head or len(head) < HEADER:
        return None, 0
    n = _hex_value(head, 0, 4)
    crc = _hex_value(head, 4, HEADER)
    if n < 0 or crc < 0:
        return None, 0
    payload = f.read(n) if n else b""
    if len(payload) < n or f.read(1) != b"\n":
        return None, 0
    if crc32(payload) & 0xFFFFFFFF != crc:
        return None, 0
    return payload, HEADER + n + 1


def _decode(payload, last_t):
    # The record [t, op...] of a whole record's payload, or None when it is not one (not a
    # JSON array starting with an int t, or a t before last_t).
    try:
        record = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(record, list) or not record or not isinstance(record[0], int):
        return None
    if record[0] < last_t:
        return None
    return record


def _next(f, last_t):
    """The next whole record of the file `f` (read(n)) and its length in bytes, or (None, 0)
    when there is none (the end, or a torn or bad record)."""
    payload, size = _frame(f)
    if payload is None:
        return None, 0
    record = _decode(payload, last_t)
    if record is None:
        return None, 0
    return record, size


def _time(payload):
    # t of a payload b"[t, ...]" or b"[t]" (digits: what the writer makes), else -1.
    end = payload.find(b",")
    if end < 0:
        end = len(payload) - 1
    digits = payload[1:end]
    if payload[:1] != b"[" or payload[-1:] != b"]" or not digits or not digits.isdigit():
        return -1
    return int(digits)


def _stateless(payload):
    # True when no op of the payload is a state op: the writer's JSON puts each op as
    # ["name", ...], and a '"' right after '[' is never inside a string (escaped there), so a
    # state op always shows its mark. A mark nested inside another op only costs a decode.
    for mark in _STATE_MARKS:
        if payload.find(mark) >= 0:
            return False
    return True


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
        if size - i < HEADER:
            break
        n = _hex_value(data, i, i + 4)
        crc = _hex_value(data, i + 4, i + HEADER)
        stop = i + HEADER + n
        if n < 0 or crc < 0 or stop >= size or data[stop] != 10:  # 10: b"\n"
            break
        payload = bytes(data[i + HEADER : stop])
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
    from ingboard.records.session import SessionLogError
    from ingboard.records.session_read import SessionReader

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
    than this byte offset (the records the app appends meanwhile are copied as they are).

    A record with no state op (every merged record of an earlier compaction: most of a long
    game's journal) is kept as the writer's JSON of its ops, one piece, never decoded: its
    payload less `[t, ` and `]`. Decoding a merged record of ~2 KB and making each op's JSON
    again was one piece of 30-50 ms of the RP2040 (twin, issue 32). Only a record with a state
    op is decoded, to drop the op. The merged records hold the same ops in the same order
    either way; where a record of many ops would have been cut part way through (below), the
    pending record is written first instead and the record kept whole."""

    def __init__(self, data, out, limit=-1):
        self.f = _source(data)
        self.out = out
        self.limit = limit
        self.offset = 0
        self.records = 0  # written
        self.bytes = 0
        self.last_t = 0  # of the last record written
        self.pending = []  # the JSON (bytes) of the ops of the merged record being made
        self.pending_t = 0
        self.size = 0
        self.carry = None  # (t, JSON of ops) of a record to merge once pending is written
        self.queue = []  # pieces of the records made, written _WRITE bytes a step (writing)
        self.last = {}
        self.read_t = 0  # t of the last record read
        self.state_t = 0
        self.seen = False
        self.done = False

    def reading(self, f):
        """Read the next records from `f`, a file of the journal positioned at `offset` (the
        app opens the journal afresh for each slice: see App._compaction_slice)."""
        self.f = f

    def write(self, piece):
        # The sink of the records made: queued, written by the next steps (see step).
        self.queue.append(piece)

    def writing(self):
        """True while the next step only writes (it reads nothing: no reader needed)."""
        return len(self.queue) > 0

    def _put(self, t, ops):
        self.bytes += write_record(self, t, ops)
        self.records += 1
        self.last_t = t

    def _write_some(self):
        # At most _WRITE bytes of the queued pieces to `out`: appending a merged record of
        # ~2 KB to a littlefs file in one piece was up to ~60 ms of the RP2040 (issue 32).
        queue = self.queue
        left = _WRITE
        while queue and left > 0:
            piece = queue[0]
            if len(piece) > left:
                view = memoryview(piece)
                self.out.write(view[:left])
                queue[0] = view[left:]
                return
            self.out.write(piece)
            left -= len(piece)
            queue.pop(0)

    def step(self, budget):
        """Read records worth `budget` bytes (at least one), or write _WRITE bytes of the
        records made; True when the compacted journal is complete."""
        if self.queue:
            self._write_some()
            return self.done and not self.queue
        if self.done:
            return True
        if self.size > _CHUNK or self.carry is not None:
            # A merged record is made a step of its own, and written by the next ones: with
            # the reading before it one piece held a scan up by ~95 ms on the twin (issue 32).
            self._put_pending()
            return False
        start = self.offset
        while self.offset - start < budget:
            if self.limit >= 0 and self.offset >= self.limit:
                payload = None
            else:
                payload, size = _frame(self.f)
            if payload is None:
                self._finish()
                return not self.queue
            t = _time(payload)
            if t >= 0 and len(payload) <= 2 * _CHUNK and _stateless(payload):
                if t < self.read_t:
                    self._finish()  # time going back ends the journal (as _decode)
                    return not self.queue
                self._read(t, size)
                self._keep_text(t, payload)
            else:
                record = _decode(payload, self.read_t)
                if record is None:
                    self._finish()
                    return not self.queue
                self._read(record[0], size)
                self._keep_ops(record)
            if self.size > _CHUNK or self.carry is not None:
                return False  # written at the next step, on its own
        return False

    def _read(self, t, size):
        self.offset += size
        self.seen = True
        self.read_t = t

    def _keep_text(self, t, payload):
        # The ops of a record without a state op, as the writer's JSON: a view of the payload
        # after `[t, ` up to its `]` (no copy).
        i = payload.find(b", ")
        if i < 0:
            return  # a time mark: no op
        text = memoryview(payload)[i + 2 : len(payload) - 1]
        n = len(text) + 2
        # Each undo restores a clock that a later clock op replaces, so only the time of the
        # last merged record matters.
        if self.pending and self.size + n > _CHUNK and payload.count(b"[") - 1 > WHOLE_OPS:
            # A record of many ops crossing _CHUNK was cut at the crossing op; whole, it
            # waits until the pending ops are written (no record much over _CHUNK + the
            # record).
            self.carry = (t, text)
            return
        self.pending_t = t
        self.pending.append(text)
        self.size += n

    def _keep_ops(self, record):
        t = record[0]
        kept = []
        for op in record[1:]:
            if op[0] in STATE_OPS:
                self.last[op[0]] = op
                self.state_t = t
            else:
                kept.append(op)
        if kept:
            self.pending_t = t
            # A record of many ops (a flood of alerts' comments) is cut into records of
            # about _CHUNK bytes too, never kept as one block; others are merged whole.
            many = len(kept) > WHOLE_OPS
            for op in kept:
                # Its JSON made once: its size here, its bytes in the merged record.
                text = json.dumps(op).encode()
                self.pending.append(text)
                self.size += len(text) + 2
                if many and self.size > _CHUNK:
                    self._put_pending()
                    while self.queue:  # a flood's pieces written as they are cut
                        self._write_some()

    def _put_pending(self):
        # The merged record of the pending ops' JSON (step), without making it again; then the
        # record that waited for it (carry) is pending.
        if self.pending:
            self.bytes += write_texts(self, self.pending_t, self.pending)
            self.records += 1
            self.last_t = self.pending_t
        self.pending = []
        self.size = 0
        carry = self.carry
        if carry is not None:
            self.carry = None
            self.pending_t = carry[0]
            self.pending.append(carry[1])
            self.size = len(carry[1]) + 2

    def _finish(self):
        self.done = True
        if self.pending or self.carry is not None:
            self._put_pending()
        if self.pending:
            self._put_pending()
        last = self.last
        state = [last[k] for k in STATE_OPS if k in last]
        known = max(self.state_t, self.pending_t)
        if state:
            # A clock op unchanged since state_t means the clock did not run: a later t is
            # exact.
            self._put(known, state)
        if self.seen and self.read_t > known:
            self._put(self.read_t, ())

"""The journal: an append-only record on flash of everything a game needs to resume.

Why: a board on a battery or a table socket loses power; the game in progress must come back
exactly - board, turn, clock (within one second), penalty points, bowl enrolment, the SGF's
BL/WL - and a half-written last record must never corrupt what came before it.

A bad record with whole records after it is not a torn tail but corruption (flash wear, a
bug): `recover` says so (`info["corrupt"]`, the byte offset, and `info["lost"]`, the whole
records after it) so the app reports it and rebuilds the game from the session log on flash
when that holds more (`rebuild`), never rolling the game back silently. One tracker input gives
at most one record, so every record boundary is a state the tracker really was in. The framing
and the ops are records/journal_format.py's.

`JournalWriter(out).sync(tracker, t, events, button)` after every tracker call appends what
changed (out: anything with write(bytes); the app flushes it). Reading a journal back is
records/journal_replay.py: `read(data)` gives the records of a journal's bytes, `recover(data)` a
Tracker that continues the game, `compact(data)` the same journal without superseded clock
records and time marks (the app rewrites the file with it when it grows) - code the app needs
only at boot after a power cut and while it compacts, so it is loaded only then (issue 17).
Nothing here reads a clock or opens a file.
"""

from ingrules.chunked import Chunked
from ingrules.game import MANDATORY_PASS
from micropython import const

from ingboard.records.journal_format import MARK_MS, JournalError, write_record

_RECENT = const(8)


class _Recent:
    """The SGF clock texts the journal wrote for the last _RECENT plies, by ply index: all it
    compares (sync looks at the last three plies; a retraction takes back one or two). Older
    texts are not kept (issue 20: a copy of every ply's text was ~16 bytes a ply all game
    long); a text it no longer holds is at worst journaled again, and replays the same.
    `codes`: the tracker's slot (ChunkedText's small int) each text was last compared at - a
    slot is never used again for another text while the game's plies go on (only a retraction
    to the first ply empties the ChunkedText, and the journal's truncate() forgets then), so
    a text whose slot is the same is not read again (JournalWriter._props)."""

    def __init__(self):
        self.index = [-1] * _RECENT
        self.texts = [None] * _RECENT
        self.codes = [0] * _RECENT

    def get(self, i):
        k = i % _RECENT
        return self.texts[k] if self.index[k] == i else None

    def put(self, i, text, code=0):
        k = i % _RECENT
        self.index[k] = i
        self.texts[k] = text
        self.codes[k] = code

    def same(self, i, code):
        """True when ply i's text is held and was compared at slot `code` (not 0: None)."""
        k = i % _RECENT
        return code != 0 and self.index[k] == i and self.codes[k] == code

    def truncate(self, n):
        """Forget the texts of plies n and after (a retraction)."""
        for k in range(_RECENT):
            if self.index[k] >= n:
                self.index[k] = -1
                self.texts[k] = None
                self.codes[k] = 0


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
        self.props = _Recent()
        self.flags = None
        self.clock = None
        self.bowls = None
        self.bowls_key = None  # tracker.bowls.snapshot_key() when self.bowls was compared
        self.notes = 0  # the tracker's comments journaled so far (Notes.total)
        self.noted = {}  # plies -> comments journaled at that ply
        self.last_t = -1
        self.ops = []  # the ops of the record being made (sync: one list, cleared each call)

    def start(self, tracker, t):
        """The first record: the game's settings and the state it starts from."""
        if self.records:
            raise JournalError("the journal already has a game")
        ops = [["game", tracker.config]]
        self._flags(tracker, ops)
        self._bowls(tracker, ops)
        self._clock(tracker, ops)
        self._append(t, ops)

    def _append(self, t, ops):
        self.written += write_record(self.out, t, ops)
        self.records += 1
        self.last_t = t

    def sync(self, tracker, t, events, button=None):
        """Journal what the tracker call at t (its `events`) changed; True if a record was
        written. JournalError if the tracker's game no longer matches the journal's."""
        # Each part a function of its own and the list of ops kept from call to call: called
        # after every tracker call, a frame over 11 words is made on the heap at each one
        # (host_tools/mpy_frames.py), and most calls (a scan, a bowl reading) write nothing.
        # (clear(), not `del ops[:]`: that makes a slice object at every call.)
        self.ops.clear()
        # The tracker keeps only its last few clock snapshots (for retractions): journal the
        # ones pushed since the last record - first, since within one tracker call they all
        # come before a retraction's pop.
        new = tracker.clock_pushes - self.pushed
        if new > 0:
            self._pushes(tracker.clock_before, new)
        self.pushed = tracker.clock_pushes
        if events:
            self._events(tracker.game, events, button)
        self._check(tracker.game.plies)
        # A ply's properties change only with a clock switch (a push) or an event: not at a
        # bowl reading or a tick, the most frequent calls (issue 20: their cost).
        if new > 0 or events or button is not None:
            self._props(tracker.ply_props)
        if tracker.notes.total != self.notes:
            self._notes(tracker.notes, self.ops)
        # After a bowl reading that changed nothing of state() (Tracker._reading) the flags
        # are not made again (~1.6 ms of the RP2040's time, issue 20); the bowls' key is.
        if events or button is not None or not getattr(tracker, "reading_only", False):
            self._flags(tracker, self.ops)
        self._bowls(tracker, self.ops)
        if events or button is not None or self.ops:
            self._clock(tracker, self.ops)
        if self.ops:
            self._append(t, self.ops)
            return True
        if self.mark_due(tracker, t):
            self._append(t, ())
            return True
        return False

    def _pushes(self, kept, new):
        i = len(kept) - new
        if i < 0:
            i = 0
        while i < len(kept):
            self.ops.append(["push", kept[i]])
            i += 1

    def _check(self, plies):
        if len(self.plies) != len(plies):
            raise JournalError("journal has %d plies, the game %d" % (len(self.plies), len(plies)))

    def _events(self, game, events, button):
        ops = self.ops
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
                self.props.truncate(len(mine))
            elif kind == "end":
                ops.append(["end", ev["result"], ev["reason"]])

    def _props(self, props):
        # The texts of the last three plies that changed since they were journaled. The
        # tracker's ply_props keeps them as bytes (ChunkedText): a text is read only when its
        # slot changed since the last look (issue 32: each read makes a slice, a bytes and a
        # str, and the three plies were read at every move and press).
        i = len(props) - 3
        if i < 0:
            i = 0
        slots = getattr(props, "slots", None)
        while i < len(props):
            if slots is None or not self.props.same(i, slots[i]):
                self._prop(props, i, 0 if slots is None else slots[i])
            i += 1

    def _prop(self, props, i, code):
        # Ply i's text read, journaled if it is not the one last journaled, and kept with its
        # slot `code` (0: not known).
        text = props[i]
        if text is not None:
            recent = self.props
            if text != recent.get(i):
                self.ops.append(["props", i, text])
            recent.put(i, text, code)

    def mark_due(self, tracker, t):
        """True when sync() at t would write a mark (the clock runs and mark_ms passed since
        the last record) even if nothing else changed."""
        # (The time first: asked at every pass of the game task, a mark is due once a second.)
        return t - self.last_t >= self.mark_ms and tracker.clock.running()

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
        self.props = _Recent()
        props = tracker.ply_props
        for i in range(max(0, len(props) - _RECENT), len(props)):
            self.props.put(i, props[i])
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

    def _flags(self, tracker, ops):
        flags = tracker.state()
        if flags != self.flags:
            self.flags = flags
            ops.append(["flags"] + flags)

    def _bowls(self, tracker, ops):
        # The bowls' snapshot (dicts of grams: ~0.7 KB of floats and dicts made on the RP2040
        # at every bowl reading, issue 20) only when what it is made of changed.
        if tracker.bowls.same_key(self.bowls_key):
            return
        key = tracker.bowls.snapshot_key()
        if key != self.bowls_key:
            self.bowls_key = key
            bowls = tracker.bowls.snapshot()
            if bowls != self.bowls:
                self.bowls = bowls
                ops.append(["bowls", bowls])

    def _clock(self, tracker, ops):
        snap = tracker.clock.snapshot()
        if snap != self.clock:
            self.clock = snap
            ops.append(["clock", snap])


def should_compact(written, compacted, limit):
    """True when a journal of `written` bytes, `compacted` bytes right after its last
    compaction, is due for one: past `limit` and past twice what the last compaction kept. Late
    in a long game the essential part (every ply) alone may pass `limit`; doubling keeps the
    journal within twice that while rewriting it only after as many bytes again were appended -
    never on every record."""
    return written > limit and written > 2 * compacted

"""The journal's format on flash: how a record is framed and what ops a record may hold. The
writer (journal.py) encodes with it; the reader (journal_replay.py, loaded only at boot after a
power cut and while a journal is compacted) decodes against the same framing, with the code for
decoding kept there so that it is not in the heap while a game is played.

Framing, per record (bytes):

    4 hex digits  length n of the payload in bytes
    8 hex digits  CRC-32 of the payload
    n bytes       payload: one JSON array [t_ms, op, op, ...]
    b"\\n"

A record is whole or it is not there: a short header, a short payload, a missing newline, a bad
CRC or a payload that is not a JSON array ends the readable journal at that record (a power cut
tears only the last one; everything before it is kept). The times of the records never
decrease.

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
    ["bowls", snapshot]        enrolment and zero of the bowls, the weighed lids' last
                               confident counts, and from the count on the bowls' last
                               confident counts (bowls.snapshot())
    ["note", plies, text]      an SGF comment made at that many plies (alerts, retractions,
                               accepted shifts: tracking/notes.py), so the SGF of a resumed
                               game has them all

`STATE_OPS` are the ops whose last one supersedes all before it (compaction keeps the last).
A record with no op is a time mark: the clock ran on until t without anything else happening
(written at most every `MARK_MS` while the clock runs, so the clock comes back within that).
"""

import json
from binascii import crc32

from micropython import const

MAX_PAYLOAD = const(0xFFFF)
HEADER = const(12)  # 4 hex digits of length, 8 of CRC
MARK_MS = const(1000)
STATE_OPS = ("clock", "flags", "bowls")
# Up to this many ops a record is made in one piece (encode); a longer one - the comments of a
# flood of alerts, ~50 bytes each: a board swept clear late in a game raised ~200 stone-missing
# alerts whose 10.5 KB record could not be allocated on the RP2040 - is written an op
# at a time, the same bytes, so that no block as long as the record is needed. Compaction cuts
# a record of more ops into pieces too.
WHOLE_OPS = const(16)


class JournalError(ValueError):
    """The journal cannot describe what the tracker did (a bug, not a torn record)."""


def _payload(t, ops):
    # [t] + ops as JSON: the record's payload.
    record = [t]
    record.extend(ops)
    return json.dumps(record).encode()


def _head(n, crc):
    # The frame's head of a payload of n bytes whose CRC is crc (crc32's: unsigned, 32 bits).
    # Made as bytes (no str made first) and without `crc & 0xFFFFFFFF`: a CRC of 2**30 or
    # more is a long int on MicroPython, and the mask made another (issue 32: the bytes a ply
    # allocates decide how often the RP2040 collects).
    if n > MAX_PAYLOAD:
        raise JournalError("journal record of %d bytes is too long" % n)
    return b"%04x%08x" % (n, crc)


def encode(t, ops):
    """One framed record: [t] + ops as JSON, length and CRC in front, newline after."""
    payload = _payload(t, ops)
    return _head(len(payload), crc32(payload)) + payload + b"\n"


def write_record(out, t, ops):
    """Write the framed record of (t, ops) to `out`; its length in bytes."""
    if not ops:
        # A time mark (once a second while a clock runs): the same bytes made as bytes, in one
        # write - no str made (on MicroPython each is a look-up of the interned strings, ~0.1
        # ms of the RP2040 with the app loaded) and one littlefs write, not three.
        # (No length check: "[t]" is a few bytes, never near MAX_PAYLOAD.)
        payload = b"[%d]" % t
        n = len(payload)
        out.write(b"%04x%08x" % (n, crc32(payload)) + payload + b"\n")
        return HEADER + n + 1
    if len(ops) <= WHOLE_OPS:
        # The same bytes as encode(), written in three pieces: no copy of the record made to
        # put its header in front (a record a ply's move and another its press).
        payload = _payload(t, ops)
        out.write(_head(len(payload), crc32(payload)))
        out.write(payload)
        out.write(b"\n")
        return HEADER + len(payload) + 1
    return write_texts(out, t, [json.dumps(op).encode() for op in ops])


def write_texts(out, t, texts):
    """write_record() of ops given as their JSON (bytes, one an op): the same record, written a
    piece at a time (a record of many ops is never one block of memory); its length in bytes.
    The journal's compaction keeps each op's JSON from when it measured it."""
    first = ("[" + json.dumps(t)).encode()
    n = len(first) + 1
    crc = crc32(first)
    for text in texts:
        n += len(text) + 2
        crc = crc32(text, crc32(b", ", crc))
    crc = crc32(b"]", crc)
    out.write(_head(n, crc))
    out.write(first)
    for text in texts:
        out.write(b", ")
        out.write(text)
    out.write(b"]\n")
    return HEADER + n + 1

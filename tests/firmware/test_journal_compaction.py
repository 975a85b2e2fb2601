"""records/journal_replay.py's compaction of journals that were compacted before: a long game's
journal is compacted again each time it doubles, and most of it is then merged records with no
state op, kept as the writer's JSON of their ops without being decoded. Whatever the journal -
records with and without state ops, of one op or a flood of them, comments holding JSON-like
text - the compacted journal holds every game op in the same order, the last of each state op,
the last time, reads back with the same reader, and compacting it again changes nothing."""

import io
import json

from ingboard.records import journal_format, journal_replay


class _Draw:
    """A small deterministic generator (the same draws under CPython and MicroPython)."""

    def __init__(self, seed):
        self.x = seed * 2654435761 % 4294967296 or 1

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n


def _journal(seed, records, state_share, t=0, out=None, counts=(0, 1, 1, 2, 3, 5, 20, 40)):
    """A journal of `records` records of random ops (state ops in about `state_share` tenths of
    the ops; as many ops a record as one of `counts`), its times from `t` on; (bytes, last
    t)."""
    draw = _Draw(seed)
    out = out or io.BytesIO()
    for _ in range(records):
        t += draw.below(900)
        ops = []
        for _ in range(counts[draw.below(len(counts))]):
            k = draw.below(10)
            if k < 3:
                ops.append(["ply", 1 + draw.below(2), draw.below(361), 0])
            elif k < 3 + state_share:
                name = ("clock", "flags", "bowls")[draw.below(3)]
                ops.append([name, {"B": draw.below(99999), "W": draw.below(99999), "run": "B"}])
            elif k < 8:
                ops.append(["props", draw.below(300), "BL[%d.%d]OB[3]" % (draw.below(2000), 5)])
            else:
                # A comment that looks like a state op and a record's frame from inside.
                ops.append(["note", draw.below(300), 'pass ["clock", [1, "\u00e9"]] %d' % k])
        journal_format.write_record(out, t, ops)
    return out.getvalue(), t


def _stepped(data, budget=256):
    # The app's way: a slice at a time.
    job = journal_replay.Compactor(data, io.BytesIO())
    while not job.step(budget):
        pass
    return job.out.getvalue(), (job.records, job.bytes, job.last_t)


def _kept(data):
    # Every game op in order, the last op of each state op and the last time.
    ops = []
    last = {}
    t = None
    for record in journal_replay.each(data):
        t = record[0]
        for op in record[1:]:
            if op[0] in journal_format.STATE_OPS:
                last[op[0]] = op
            else:
                ops.append(op)
    return ops, last, t


def _check_same(before, after):
    assert _kept(after) == _kept(before)
    records, end, dropped = journal_replay.read(after)
    assert dropped == 0 and end == len(after)
    # Superseded state is gone: one op of each state kind at most, in one record.
    state = [op[0] for r in records for op in r[1:] if op[0] in journal_format.STATE_OPS]
    assert len(state) == len(set(state))
    return records


def test_compacting_a_compacted_journal_keeps_every_op_and_changes_nothing_more():
    for seed in range(6):
        for state_share in (3, 1, 0):
            data, t = _journal(seed, 120, state_share)
            once, (records, size, last_t) = _stepped(data)
            assert size == len(once) and records == len(journal_replay.read(once)[0])
            _check_same(data, once)
            # The game goes on: records appended after the compacted ones, compacted again.
            more = io.BytesIO()
            more.write(once)
            grown, _t = _journal(seed + 100, 60, state_share, t + 1, more)
            twice, info = _stepped(grown)
            _check_same(grown, twice)
            assert info[2] == journal_replay.read(twice)[0][-1][0]
            # In one piece as in slices, and a third time the same journal.
            assert journal_replay.compact(grown) == twice
            assert _stepped(twice)[0] == twice


def test_merged_records_stay_about_the_merge_size():
    # A record is read whole at boot and by the next compaction: the merged ones stay about
    # _CHUNK long (less than twice it), a flood of ops is cut.
    for seed in range(4):
        data, t = _journal(seed, 150, 0)
        grown = io.BytesIO()
        grown.write(_stepped(data)[0])
        journal_format.write_record(grown, t + 1, [["note", i, "x" * 40] for i in range(300)])
        twice, _info = _stepped(grown.getvalue())
        biggest = max(len(json.dumps(r)) for r in journal_replay.each(twice))
        assert biggest < 2 * 2048, biggest  # journal_replay's _CHUNK: 2048


def test_a_torn_or_damaged_merged_record_ends_what_the_compaction_reads():
    data, t = _journal(3, 120, 0)
    once = _stepped(data)[0]
    records, _end, _dropped = journal_replay.read(once)
    assert len(records) > 3
    # The second record's payload damaged (its CRC no longer matches): the journal as read
    # ends before it, and so does its compaction.
    first_len = int(once[:4], 16) + journal_format.HEADER + 1
    bad = bytearray(once)
    bad[first_len + journal_format.HEADER + 5] ^= 1
    bad = bytes(bad)
    assert _kept(_stepped(bad)[0]) == _kept(bad[:first_len])
    torn = once[: len(once) - 7]
    assert _kept(_stepped(torn)[0]) == _kept(torn)


def test_a_record_whose_time_goes_back_ends_the_journal_with_or_without_state_ops():
    for state_op in (False, True):
        out = io.BytesIO()
        journal_format.write_record(out, 5000, [["ply", 1, 40, 0]] * 30)
        later = [["ply", 2, 41, 0]] + ([["clock", {"B": 1}]] if state_op else [])
        journal_format.write_record(out, 4000, later)
        journal_format.write_record(out, 6000, [["ply", 1, 42, 0]])
        compacted = _stepped(out.getvalue())[0]
        ops, _last, t = _kept(compacted)
        assert len(ops) == 30 and t == 5000


class _Steps:
    """A file stand-in counting the bytes written in each step."""

    def __init__(self):
        self.data = []
        self.now = 0

    def write(self, piece):
        self.data.append(bytes(piece))
        self.now += len(piece)


def test_each_step_writes_a_bounded_piece_and_reads_nothing_while_it_writes():
    # Appending a merged record of ~2 KB to a littlefs file in one piece was up to ~60 ms of
    # the RP2040: the records made are written 512 bytes a step, the same bytes in the end.
    # (A flood of ops with a state op among them is written as it is cut, as before.)
    few = (0, 1, 2, 3, 5, 9, 16)
    data, t = _journal(5, 200, 1, counts=few)
    grown = io.BytesIO()
    grown.write(_stepped(data)[0])
    _journal(6, 80, 1, t + 1, grown, few)
    out = _Steps()
    job = journal_replay.Compactor(grown.getvalue(), out)
    most = 0
    done = False
    while not done:
        before = out.now
        offset = job.offset
        writing = job.writing()
        done = job.step(256)
        most = max(most, out.now - before)
        if writing:
            assert job.offset == offset  # a writing step reads nothing
    assert most <= 512, most
    assert b"".join(out.data) == _stepped(grown.getvalue())[0]

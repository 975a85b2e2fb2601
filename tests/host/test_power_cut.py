"""Power-cut acceptance: the journal of a full simulated game (moves, captures, passes, pause,
agreement, count; or played to its end: dead stones, four passes, count, fill-in, after-count
and put-away checks) cut at every byte offset always recovers the game as of its last whole
record, never a corrupted state."""

import random

import pytest
from ingboard.records import journal_replay
from ingboard.records.session import Record
from ingboard.records.session_read import read_text
from journal_cases import fingerprint, play

from host_tools import ROOT
from host_tools import simulate as sim


def full_game(ending="agree"):
    game = sim.read_game(ROOT + "/host_tools/data/demo_game.sgf")
    records = list(
        read_text(sim.simulate(game, "typical", seed=1, finish=ending == "finish").text())
    )
    if ending == "agree":
        end = records[-1].t_ms
        records.append(Record(end + 3000, "button", "agree"))  # dead stones accepted: counted
    states = {}

    def on_sync(tracker, t, size):
        states[size] = (t, fingerprint(tracker, t))

    tracker, data, _events = play(records, on_sync)
    assert tracker.game.phase == "ended" and tracker.counted is not None
    if ending == "finish":
        assert tracker.filled and tracker.put_away and tracker.plan["final"]
        # Records after the count: before and after each of the two bowl checks.
        ends = [s for t, s in states.values() if s["phase"] == "ended"]
        assert len(set(e["end"][:2] for e in ends)) == 3 and len(ends) > 10
    return data, states


@pytest.mark.parametrize("ending", ["agree", "finish"])
def test_every_byte_offset_recovers_the_last_whole_record(ending):
    data, states = full_game(ending)
    ends = sorted(states)
    assert ends[-1] == len(data) and len(ends) > 200
    # The game as of each record boundary, recovered once per boundary.
    recovered = {}
    for size in ends:
        tracker, info = journal_replay.recover(data[:size])
        t, want = states[size]
        assert info["dropped"] == 0 and info["t"] == t
        assert fingerprint(tracker, t) == want, size
        recovered[size] = want
    # Every cut inside a record: the reader stops at the record's start (the records before it
    # are read identically, the reader is sequential), the torn rest is dropped.
    k = 0
    for cut in range(1, len(data) + 1):
        while k < len(ends) and ends[k] < cut:
            k += 1
        start = ends[k - 1] if k else 0
        whole = ends[k] == cut
        records, end, dropped = journal_replay.read(data[:cut], start)
        assert len(records) == (1 if whole else 0), cut
        assert end == (cut if whole else start) and dropped == cut - end
    # And the whole path (read + recover) at a seeded sample of offsets and around the end.
    rng = random.Random(7)
    cuts = rng.sample(range(len(data)), 150) + list(range(len(data) - 300, len(data) + 1))
    for cut in cuts:
        last = max([e for e in ends if e <= cut] or [0])
        tracker, info = journal_replay.recover(data[:cut])
        if last == 0:
            assert tracker is None
            continue
        t, want = states[last]
        assert fingerprint(tracker, t) == recovered[last]
        assert info["dropped"] == cut - last


def test_compacted_journal_recovers_the_same_game():
    data, states = full_game()
    small = journal_replay.compact(data)
    assert len(small) < len(data) // 2
    t, want = states[len(data)]
    tracker, _info = journal_replay.recover(small)
    assert fingerprint(tracker, t) == want
    # Compaction of a journal cut short recovers that shorter game too.
    for size in sorted(states)[::25]:
        t, want = states[size]
        tracker, _info = journal_replay.recover(journal_replay.compact(data[:size]))
        assert fingerprint(tracker, t) == want, size

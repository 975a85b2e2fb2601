"""A power cut between the count and the after-count bowl check.

Ing 1991 Art. 9 "Counting" (3) "Putting the stones away: After counting by the fill-in method,
each player should replace his own stones in their bowls and check that there are 180 to
confirm that the game was counted correctly" (Ing 1996 Rule 2 "Goe equipment" 3): the board
checks the bowls once the fill-in is complete, before the stones are put away. The power may go
at any moment between the count and that check; after the restart the check must still come,
with the counts the uncut game had, and raise nothing the uncut game did not.

Generated cases: simulated games played to their end (the 9x9 and 13x13 demo games under each
Ing ruleset, several seeds and noise levels: people who fill in at their own pace and begin to
put the stones away a few seconds after the fill-in), cut after every journal write between the
count and the check. Through the journal and the rest of the session log (as `ingboard track`
and the tracker see it: the board's scan at the restart first), through the whole device app on
its fake drivers, and under MicroPython.
"""

import json
import os

import pytest
from ingboard.app import app as app_module
from ingboard.records import journal_replay
from ingboard.records.session import Record
from ingboard.records.session_read import read_text
from journal_cases import play

from host_tools import FIRMWARE, ROOT
from host_tools import micropython as mp
from host_tools import simulate as sim

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

TESTS_FIRMWARE = os.path.join(ROOT, "tests", "firmware")

# (game, ruleset, noise, seed): the 13x13 fill-ins are long; "typical" seeds 3 (9x9) and 2
# (13x13) put the stones away about four seconds after the last fill-in stone - before a
# whole window of readings after a restart (the bowls read at 2 Hz when still).
# The 13x13 games take 10-20 s each: with the device tests (CI budget).
VARIANTS = [
    ("demo_game.sgf", "ing1991", "typical", 3),
    ("demo_game.sgf", "ing1996", "typical", 3),
    ("demo_game.sgf", "ing1991", "harsh", 1),
    ("demo_game.sgf", "ing1996", "typical", 2),
    pytest.param("demo_game_13.sgf", "ing1991", "typical", 2, marks=pytest.mark.device),
    pytest.param("demo_game_13.sgf", "ing1996", "typical", 1, marks=pytest.mark.device),
]


def _log(game, rules, noise, seed):
    record = sim.read_game(os.path.join(ROOT, "host_tools", "data", game))
    record.rules = rules
    return sim.simulate(record, noise, seed=seed, finish=True).text()


def _checks(events):
    return [
        (e["phase"], e["B"], e["W"], e["expected"], e["confident"])
        for e in events
        if e["type"] == "bowls" and e["phase"] != "before"
    ]


def _resumed(data, records):
    # The journal up to the cut recovered; the board scanned as it is at the restart (the app's
    # first scan after a boot is always read), then the rest of the log at its own times.
    tracker, info = journal_replay.recover(data)
    t_cut = info["t"]
    scans = [r for r in records if r.kind == "scan" and r.t_ms <= t_cut]
    events = list(tracker.take(Record(t_cut, "scan", scans[-1].payload)))
    for record in records:
        if record.kind == "config" or record.t_ms <= t_cut:
            continue
        t = record.t_ms
        due = tracker.next_deadline()
        while due is not None and due < t:
            events += tracker.tick(due)
            due = tracker.next_deadline()
        events += tracker.take(record)
    return events


def _cuts_between_count_and_check(records):
    # (t, journal bytes) after every journal write from the count to the after-count check.
    cuts = []

    def on_sync(tracker, t, size):
        if tracker.counted is not None and not tracker.filled:
            cuts.append((t, size))

    tracker, data, events = play(records, on_sync)
    return cuts, data, events


@pytest.mark.parametrize("game,rules,noise,seed", VARIANTS)
def test_every_journal_write_between_the_count_and_the_check_keeps_the_check(
    game, rules, noise, seed
):
    records = list(read_text(_log(game, rules, noise, seed)))
    cuts, data, events = _cuts_between_count_and_check(records)
    want = _checks(events)
    assert [c[0] for c in want] == ["after-count", "put-away"] and want[0][4], want
    assert len(cuts) >= 10
    alerts = [e["code"] for e in events if e["type"] == "alert"]
    for t, size in cuts:
        got = _resumed(data[:size], records)
        assert _checks(got) == want, (t, _checks(got))
        # Nothing raised after the restart that the uncut game did not raise.
        assert [e["code"] for e in got if e["type"] == "alert"] <= alerts, t


def _app_cuts(text, root, until):
    # One uncut run of the app: the flash copied after every journal write from the count to
    # the after-count check (a power cut there leaves exactly that on flash).
    from app_fakes import power_cut, run_app

    snaps = []
    original = app_module.App._after

    def after(self, t, events, button):
        written = self.journal.written if self.journal is not None else None
        original(self, t, events, button)
        tracker = self.tracker
        if self.journal is not None and self.journal.written != written:
            if tracker.counted is not None and not tracker.filled:
                flash = "%s-cut%d" % (root, len(snaps))
                power_cut(root, flash)
                snaps.append((t, flash))

    app_module.App._after = after
    try:
        _app, hw = run_app(text, root, until)
    finally:
        app_module.App._after = original
    return snaps, hw["link"].messages()


@pytest.mark.parametrize(
    "last", [pytest.param(None, marks=pytest.mark.device, id="every-write"), 4]
)
def test_the_device_app_cut_at_every_journal_write_between_the_count_and_the_check(last, tmp_path):
    # Every write (device tests: ~9 s), or the last four before the check (make test).
    from app_fakes import resume_app

    text = _log("demo_game.sgf", "ing1991", "typical", 3)
    until = read_text(text)[-1].t_ms + 2000
    snaps, messages = _app_cuts(text, str(tmp_path / "whole"), until)
    if last is not None:
        snaps = snaps[-last:]
    bowls = [m for m in messages if m["type"] == "bowls"]
    want = _checks(bowls)
    after_count = [m["t"] for m in bowls if m["phase"] == "after-count"][0]
    assert len(snaps) >= min(10, last or 10) and want[0][0] == "after-count"
    assert not [m for m in messages if m["type"] == "alert"]
    for t, flash in snaps:
        app, hw = resume_app(text, flash, after_count + 6000)
        got = hw["link"].messages()
        assert app.failure is None
        assert _checks(got)[:1] == want[:1], (t, _checks(got))
        assert not [m["text"] for m in got if m["type"] == "alert"], t


MP_SCRIPT = """
import json
from ingboard.records import journal_replay
from ingboard.records.session import Record
from ingboard.records.session_read import read_text
from journal_cases import play
records = list(read_text(open("/data/session.log").read()))
cuts = []
def on_sync(tracker, t, size):
    if tracker.counted is not None and not tracker.filled:
        cuts.append(size)
_tr, data, events = play(records, on_sync)
def checks(evs):
    out = []
    for e in evs:
        if e["type"] == "bowls" and e["phase"] != "before":
            out.append([e["phase"], e["B"], e["W"]])
    return out
out = {"want": checks(events), "got": []}
for size in cuts[-CUTS:]:
    tracker, info = journal_replay.recover(data[:size])
    t_cut = info["t"]
    scans = [r for r in records if r.kind == "scan" and r.t_ms <= t_cut]
    evs = list(tracker.take(Record(t_cut, "scan", scans[-1].payload)))
    for r in records:
        if r.kind == "config" or r.t_ms <= t_cut:
            continue
        due = tracker.next_deadline()
        while due is not None and due < r.t_ms:
            evs += tracker.tick(due)
            due = tracker.next_deadline()
        evs += tracker.take(r)
    out["got"].append(checks(evs))
RESULT = json.dumps(out)
"""


def test_a_cut_just_before_the_check_under_micropython(tmp_path):
    # The last journal writes before the check: the one case a whole window of readings after
    # the restart came too late for (the stones were being put away by then).
    data = tmp_path / "data"
    data.mkdir()
    (data / "session.log").write_text(_log("demo_game.sgf", "ing1991", "typical", 3))
    status, _out, err, result = mp.run_script(
        MP_SCRIPT.replace("CUTS", "2"),
        mounts=[(FIRMWARE, "/fw"), (TESTS_FIRMWARE, "/tests"), (str(data), "/data")],
        sys_path=["/fw", "/fw/rules", "/tests"],
        timeout=300,
    )
    assert status == 0 and result, err[-3000:]
    out = json.loads(result)
    assert [c[0] for c in out["want"]] == ["after-count", "put-away"]
    assert len(out["got"]) == 2
    for got in out["got"]:
        assert got == out["want"]

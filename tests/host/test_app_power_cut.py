"""Issue 7 follow-up: the whole device app loses its power mid-game and comes back.

A simulated game played to its very end (dead stones, four passes, count, fill-in, put-away) runs
on the fake drivers; at a cut the app is frozen and only what its files hold on "flash" is kept
(journal, session log, SGFs: what a file object still buffers is lost). A new App boots on that
flash while the players go on where they were (the rest of the log's physical events, at the
board time the app resumes from). The game must end with the same moves, count, result and SGF
as the uninterrupted run, the bowl checks still to come must still come (also for cuts between
the count and the put-away), and the board's own session log across the cut must replay to the
same game. Under CPython at five cuts, under MicroPython (WebAssembly) at two.
"""

import json
import os

import pytest
from app_fakes import power_cut, resume_app, run_app
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

from host_tools import FIRMWARE, ROOT
from host_tools import micropython as mp
from host_tools import simulate as sim

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

TESTS_FIRMWARE = os.path.join(ROOT, "tests", "firmware")


@pytest.fixture(scope="module")
def game():
    record = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(record, "typical", seed=1, finish=True)
    until = simulation.duration_ms + 2000
    text = simulation.text()
    moves = simulation.moves
    ending = simulation.ending
    cuts = {
        "just after a press": moves[15]["press_ms"] + 30,
        "a stone down, not yet a move": moves[30]["visible_ms"] + 50,
        "counted, filling in": ending["t_fill"] + 500,
        "filled in, putting away": ending["t_put_away"] + 300,
        "put away, bowls settling": ending["t_done"] + 1000,
    }
    return text, until, cuts


def outcome(app, messages, sgf):
    return {
        "plies": [(p.color, p.point, p.kind) for p in app.tracker.game.plies],
        "result": (app.tracker.game.result, app.tracker.game.end_reason),
        "count": app.tracker.counted and dict(app.tracker.counted, t=0),
        "sgf": sgf,
        "checks": [(m["phase"], m["B"], m["W"]) for m in messages if m["type"] == "bowls"],
    }


@pytest.fixture(scope="module")
def uninterrupted(game, tmp_path_factory):
    text, until, _cuts = game
    root = str(tmp_path_factory.mktemp("whole"))
    app, hw = run_app(text, root, until)
    sgf = open(os.path.join(root, "games", "0001.sgf")).read()
    got = outcome(app, hw["link"].messages(), sgf)
    assert got["result"] == ("W+5", "count") and len(got["plies"]) == 47
    assert [c[0] for c in got["checks"]] == ["before", "after-count", "put-away"]
    return got


@pytest.mark.parametrize("where", [0, 1, 2, 3, 4])
def test_power_cut_then_the_game_goes_on_as_if_nothing_happened(
    game, uninterrupted, where, tmp_path
):
    text, until, cuts = game
    name, cut = list(cuts.items())[where]
    before, after = str(tmp_path / "before"), str(tmp_path / "after")
    first, first_hw = run_app(text, before, cut, stop=False)
    checks_before = [
        (m["phase"], m["B"], m["W"]) for m in first_hw["link"].messages() if m["type"] == "bowls"
    ]
    power_cut(before, after)
    journal_t = first.journal.last_t
    app, hw = resume_app(text, after, until)
    messages = hw["link"].messages()
    warnings = [m["text"] for m in messages if m["type"] == "warning"]
    assert warnings[0].startswith("game 0001 resumed at move "), name
    assert app.failure is None and app.number == 1
    # Board time went on from the journal's last record (no task saw it go back: the tracker
    # refuses that), and the app ran to the world's end.
    assert app.tracker.last_t >= journal_t and app.now() >= until - 100
    sgf = open(os.path.join(after, "games", "0001.sgf")).read()
    got = outcome(app, messages, sgf)
    # Every bowl check comes once: the ones made before the cut are not made again.
    got["checks"] = checks_before + got["checks"]
    assert got == uninterrupted, name
    # The board's own session log, across the cut, still replays to the same game.
    log = open(os.path.join(after, "sessions", "0001.log.part")).read()
    times = [r.t_ms for r in read_text(log)]
    assert times == sorted(times) and "# resumed from the journal" in log
    events = []
    replayed = track(read_text(log), events.append)
    assert [(p.color, p.point, p.kind) for p in replayed.game.plies] == got["plies"]
    assert replayed.game.result == "W+5"


def test_cut_between_the_end_record_and_the_sgf(game, uninterrupted, tmp_path):
    # The journal holds the end but the SGF never reached flash: the resumed app writes it.
    text, until, cuts = game
    before, after = str(tmp_path / "before"), str(tmp_path / "after")
    run_app(text, before, cuts["counted, filling in"], stop=False)
    power_cut(before, after)
    os.remove(os.path.join(after, "games", "0001.sgf"))
    app, _hw = resume_app(text, after, cuts["counted, filling in"] + 100)
    assert open(os.path.join(after, "games", "0001.sgf")).read() == uninterrupted["sgf"]


MP_SCRIPT = """
import json
from app_fakes import power_cut, resume_app, run_app
text = open("/data/session.log").read()
out = []
for k, cut in enumerate(json.loads(open("/data/cuts.json").read())):
    a, b = "/a%d" % k, "/b%d" % k
    first, hw1 = run_app(text, a, cut, stop=False)
    msgs1 = hw1["link"].messages()
    power_cut(a, b)
    app, hw = resume_app(text, b, UNTIL)
    msgs = msgs1 + hw["link"].messages()
    counted = app.tracker.counted and dict(app.tracker.counted, t=0)
    out.append({
        "plies": [(p.color, p.point, p.kind) for p in app.tracker.game.plies],
        "result": (app.tracker.game.result, app.tracker.game.end_reason),
        "count": counted,
        "sgf": open(b + "/games/0001.sgf").read(),
        "checks": [(m["phase"], m["B"], m["W"]) for m in msgs if m["type"] == "bowls"],
    })
RESULT = json.dumps(out)
"""


def test_power_cut_under_micropython(game, uninterrupted, tmp_path):
    text, until, cuts = game
    data = tmp_path / "data"
    data.mkdir()
    (data / "session.log").write_text(text)
    chosen = [cuts["a stone down, not yet a move"], cuts["counted, filling in"]]
    (data / "cuts.json").write_text(json.dumps(chosen))
    status, _out, err, result = mp.run_script(
        MP_SCRIPT.replace("UNTIL", str(until)),
        mounts=[(FIRMWARE, "/fw"), (TESTS_FIRMWARE, "/tests"), (str(data), "/data")],
        sys_path=["/fw", "/fw/rules", "/tests"],
    )
    assert status == 0 and result, err[-3000:]
    want = json.loads(json.dumps(uninterrupted))  # tuples as JSON lists
    for got in json.loads(result):
        assert got == want


def _ending_cuts(game_text):
    record = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    ending = sim.simulate(record, "typical", seed=1, finish=True).ending
    start, end = ending["t_fill"] - 1500, ending["t_done"] + 1500
    return [start + k * (end - start) // 7 for k in range(8)]


@pytest.mark.parametrize("pair", [(0, 5), (2, 7)])
def test_repeated_cuts_between_the_count_and_the_put_away(game, uninterrupted, pair, tmp_path):
    # Issue 19: two cuts, the second one while the resumed app runs (its journal compacted
    # and rewritten at the resume): the after-count and put-away checks still come, once each.
    text, until, _cuts = game
    first_cut, second_cut = (_ending_cuts(text)[k] for k in pair)
    a, b, c = str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "c")
    _first, hw1 = run_app(text, a, first_cut, stop=False)
    power_cut(a, b)
    _second, hw2 = resume_app(text, b, second_cut)
    power_cut(b, c)
    app, hw3 = resume_app(text, c, until)
    messages = hw1["link"].messages() + hw2["link"].messages() + hw3["link"].messages()
    sgf = open(os.path.join(c, "games", "0001.sgf")).read()
    got = outcome(app, messages, sgf)
    assert got == uninterrupted, (first_cut, second_cut)

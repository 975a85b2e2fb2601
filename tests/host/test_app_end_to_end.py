"""Issue 7 acceptance: the whole device app (firmware/ingboard/app/app.py, every task) plays a
simulated game end to end against fake drivers - scan -> move -> clock -> count -> bowls -> SGF -
under CPython and under MicroPython (WebAssembly), with the same result as `ingboard track`."""

import json
import os

import pytest
from app_fakes import run_app
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

from host_tools import FIRMWARE, ROOT
from host_tools import micropython as mp
from host_tools import simulate as sim

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

TESTS_FIRMWARE = os.path.join(ROOT, "tests", "firmware")


@pytest.fixture(scope="module")
def session_log():
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=1)
    end = simulation.duration_ms
    host = [
        (end + 3000, '{"cmd": "button", "name": "agree"}'),
        (end + 4000, '{"cmd": "list"}'),
        (end + 4100, "not json"),
    ]
    return simulation.text(), end + 6000, host


def summary(messages, files):
    plays = [
        (m["color"], m.get("point", "pass")) for m in messages if m["type"] in ("move", "pass")
    ]
    count = [m for m in messages if m["type"] == "count"]
    return {
        "plays": plays,
        "end": [(m["result"], m["reason"]) for m in messages if m["type"] == "end"],
        "count": [(c["black"], c["white"], c["result"]) for c in count],
        "bowls": [(m["phase"], m["B"], m["W"]) for m in messages if m["type"] == "bowls"],
        "errors": [m["text"] for m in messages if m["type"] == "error"],
        "files": files,
    }


def run_cpython(text, until, host, root):
    lines = [(t, line.encode()) for t, line in host]
    app, hw = run_app(text, str(root), until, lines)
    files = sorted(app.store.numbers())
    sgf = open(os.path.join(str(root), "games", "0001.sgf")).read()
    log = open(os.path.join(str(root), "sessions", "0001.log.part")).read()
    return summary(hw["link"].messages(), files), sgf, log, hw


MP_SCRIPT = """
import json
from app_fakes import run_app
text = open("/data/session.log").read()
host = [(t, line.encode()) for t, line in json.loads(open("/data/host.json").read())]
app, hw = run_app(text, "/store", %d, host)
RESULT = json.dumps({
    "messages": hw["link"].messages(),
    "files": app.store.numbers(),
    "sgf": open("/store/games/0001.sgf").read(),
    "shown": hw["displays"]["B"].shown,
})
"""


def test_app_plays_a_game_end_to_end_on_cpython_and_micropython(session_log, tmp_path):
    text, until, host = session_log
    got, sgf, log, hw = run_cpython(text, until, host, tmp_path / "cpython")
    # The same game as the firmware's own replay of the log.
    events = []
    tracker = track(read_text(text), events.append)
    want = [(e["color"], e.get("point", "pass")) for e in events if e["type"] in ("move", "pass")]
    assert got["plays"] == want and len(want) == 45
    assert got["end"] == [("W+5", "count")] and got["count"] == [(42, 39, "W+5")]
    # The simulated set was enrolled (its weight in the config): verified, 40 each.
    assert got["bowls"][0] == ("before", 40, 40)
    assert got["errors"] == ["line is not JSON"]
    assert "RE[W+5]" in sgf and sgf.count(";B[") + sgf.count(";W[") == 45
    assert tracker.game.result is None  # the log alone stops at the pause; agree came by link
    assert hw["displays"]["B"].shown > 100 and hw["displays"]["W"].buf != bytearray(1024)
    # The board's own session log replays to the same moves.
    replay = []
    track(read_text(log), replay.append)
    assert [(e["color"], e.get("point", "pass")) for e in replay if e["type"] in ("move", "pass")]
    # Under MicroPython: same code, same fakes, same game.
    data = tmp_path / "data"
    data.mkdir()
    (data / "session.log").write_text(text)
    (data / "host.json").write_text(json.dumps(host))
    status, out, err, result = mp.run_script(
        MP_SCRIPT % until,
        mounts=[(FIRMWARE, "/fw"), (TESTS_FIRMWARE, "/tests"), (str(data), "/data")],
        sys_path=["/fw", "/fw/rules", "/tests"],
    )
    assert status == 0 and result, err[-3000:]
    res = json.loads(result)
    assert summary(res["messages"], res["files"]) == got
    assert res["sgf"] == sgf
    assert res["shown"] > 100

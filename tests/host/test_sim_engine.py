"""The virtual board against a GTP engine (host_tools/sim_engine.py) without a browser: the
handshake tells GTP engines from other programs, the engine's game follows the tracker's
(including an undo and a stone placed elsewhere), its dead stones are named in the pause; and
the sim's own rules: the clocks start with the first stone or press, settings are checked."""

import subprocess
import sys
import time

import pytest

from host_tools import ROOT
from host_tools.commands.sim import has_display
from host_tools.errors import InputError
from host_tools.gtp import find_gnugo
from host_tools.sim_server import Session, settings

needs_gnugo = pytest.mark.skipif(not find_gnugo(), reason="GNU Go missing: make setup")


def sim(*args, timeout=30):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "sim", "--port", "0", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    "command, words",
    [
        ("cat", "does not speak GTP (engine gave no answer to 'protocol_version' within 1 s)"),
        ("/bin/true", "does not speak GTP (engine /bin/true exited"),
        ("no-such-engine-xyz", "cannot start engine 'no-such-engine-xyz'"),
        ("'unclosed", "bad engine command"),
    ],
)
def test_not_a_gtp_engine_is_one_clear_error(command, words):
    # 1 s only where the wait itself is the case (cat never answers); the others end at once,
    # and a loaded machine may take more than 1 s to start and end /bin/true.
    wait = "1" if command == "cat" else "10"
    done = sim("--engine", command, "--handshake-timeout", wait)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def wait_for(session, predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = session.handle("state", {})
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError("timed out; engine %r" % state.get("engine"))


def play(session, point, color):
    session.handle("click", {"point": point, "color": color})
    session.handle("wait", {"ms": 300})
    return session.handle("press", {"color": color})


@needs_gnugo
def test_engine_follows_the_game_through_undo_and_other_moves():
    from host_tools.sim_engine import EngineSeat

    seat = EngineSeat("gnugo --mode gtp --level 1 --seed 1", "W")
    session = Session({"size": 9, "rules": "chinese"}, manual_time=True, engine=seat, assist=False)
    try:
        assert session.handle("state", {})["engine"]["move"] is None  # Black to play
        play(session, "E5", "B")
        s = wait_for(session, lambda s: s["engine"]["move"])
        first = s["engine"]["move"]
        assert first not in ("pass", "resign", "E5")
        # The person puts the engine's stone somewhere else: the game takes what is on the
        # board, the engine is told (its own move taken back), and suggests again for Black's
        # reply only after Black moved.
        other = "A1" if first != "A1" else "A2"
        play(session, other, "W")
        s = session.handle("state", {})
        assert [m["p"] for m in s["moves"]] == ["E5", other]
        assert s["engine"]["move"] is None
        play(session, "C3", "B")
        s = wait_for(session, lambda s: s["engine"]["move"])
        assert s["engine"]["move"] not in ("E5", other, "C3")
        # Undo Black's C3 (and lift it): the engine is set back too, then Black plays D4.
        session.handle("button", {"name": "undo"})
        assert session.handle("state", {})["marks"]["lift"] == ["C3"]
        session.handle("click", {"point": "C3"})
        play(session, "D4", "B")
        s = wait_for(session, lambda s: s["engine"]["move"])
        assert s["engine"]["move"] not in ("E5", other, "D4")
        assert seat.told[1][:3] == (("B", "E5"), ("W", other), ("B", "D4"))
        assert s["engine"]["error"] is None
    finally:
        session.close()


@needs_gnugo
def test_engine_names_dead_stones_in_the_pause():
    from host_tools.sim_engine import EngineSeat

    seat = EngineSeat("gnugo --mode gtp --level 1", "W")
    session = Session(
        {"size": 5, "rules": "ing1991", "komi": 8}, manual_time=True, engine=seat, assist=False
    )
    try:
        for p, c in [("C3", "B"), ("D3", "W"), ("C2", "B"), ("D2", "W"), ("C4", "B")]:
            play(session, p, c)
        # A lone black stone in White's area: dead.
        for p, c in [("D4", "W"), ("E2", "B"), ("pass", "W"), ("pass", "B")]:
            if p == "pass":
                session.handle("wait", {"ms": 300})
                session.handle("press", {"color": c})
            else:
                play(session, p, c)
        s = wait_for(session, lambda s: s["engine"]["dead"] is not None)
        assert s["phase"] == "paused"
        assert "E2" in s["engine"]["dead"]
        # Lifting a dead stone in the pause is the removal, not a stone gone missing.
        s = session.handle("click", {"point": "E2"})
        assert s["rows"][3][4] == "."
        assert s["marks"] == {"lift": [], "missing": [], "wrong": [], "why": {}}
    finally:
        session.close()


def test_clocks_start_with_the_first_stone_or_press():
    now = [100.0]
    session = Session(clock=lambda: now[0])
    now[0] += 30  # nobody at the board yet: no time passes
    s = session.handle("state", {})
    assert s["t"] == 0 and s["clock"]["B"]["main_ms"] == 600000
    session.handle("click", {"point": "E5"})
    now[0] += 5
    s = session.handle("press", {"color": "B"})
    assert s["moves"][0]["p"] == "E5" and s["t"] == 5000
    now[0] += 7
    s = session.handle("state", {})
    assert s["clock"]["W"]["main_ms"] == 600000 - 7000


def test_settings_are_checked():
    assert settings({"size": 13, "rules": "aga", "players": {"B": " Ann ", "W": ""}}) == {
        "size": 13,
        "rules": "aga",
        "time": {"system": "ing-pp", "basic_s": 600},
        "players": {"B": "Ann"},
    }
    session = Session()
    for bad, words in [
        ({"size": 4}, "size must be"),
        ({"rules": "chess"}, "unknown rules"),
        ({"time": {"system": "hourglass"}}, "unknown time system"),
        ({"handicap": 3, "handicap_style": "sideways"}, "unknown handicap_style"),
    ]:
        with pytest.raises(InputError, match=words):
            session.handle("new", bad)
    with pytest.raises(InputError, match="--manual-time"):
        session.handle("wait", {"ms": 5})


def test_browser_opened_only_with_a_display(monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not has_display()
    monkeypatch.setenv("DISPLAY", ":0")
    assert has_display()


def test_a_board_that_fails_keeps_the_assists_press_due_and_the_page_is_told():
    """The board behind the page (the device twin, live_board.py) may fail a press with a
    DeviceError: the press stays due (made at the next request), the game is as it was, and
    the page's state poll gets a 503 with why instead of a dropped connection."""
    import json
    import threading
    import urllib.error
    import urllib.request

    from host_tools.device import DeviceError
    from host_tools.sim_server import Session, make_server

    session = Session(manual_time=True, assist=True)
    session.handle("new", {"size": 9})
    board = session.board
    real_press = board.press
    failing = [True]

    def press(color):
        if failing[0]:
            raise DeviceError("the twin's firmware did not scan the grid in 60 s")
        return real_press(color)

    board.press = press
    session.handle("click", {"point": "C3"})
    log = board.session_log()
    with pytest.raises(DeviceError):
        session.handle("wait", {"ms": 300})
    assert session.assist.presses == [(150, "B")]  # still due
    assert board.session_log().count(" press ") == log.count(" press ")  # no press recorded
    server = make_server(0, "127.0.0.1", session)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = "http://127.0.0.1:%d/api/state" % server.server_address[1]
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(url, timeout=10)
        assert failed.value.code == 503
        assert "did not scan the grid" in json.loads(failed.value.read())["error"]
        failing[0] = False  # the twin answers again: the press is made at the next request
        with urllib.request.urlopen(url, timeout=10) as resp:
            state = json.loads(resp.read())
    finally:
        server.shutdown()
        server.server_close()
    assert not session.assist.presses and len(board.tracker.game.plies) == 1
    assert board.session_log().count(" press ") == log.count(" press ") + 1
    assert state["size"] == 9

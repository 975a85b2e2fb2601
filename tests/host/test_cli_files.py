"""Files and commands as users expect (issue 18, item 4): --help names every accepted value;
outputs to /dev/stdout or a FIFO are written into, not replaced (the summary then goes to
stderr); progress bars only on a terminal; `ingboard simulate --finish` gives a finished game;
the virtual board's server stays quiet when a browser goes away."""

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track
from ingrules import rulesets

from host_tools import ROOT
from host_tools import simulate as sim
from host_tools.outputs import is_special, write_all

GAME = os.path.join(ROOT, "host_tools", "data", "demo_game_13.sgf")


def ingboard(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("command", ["replay", "score", "gtp"])
def test_help_lists_every_ruleset(command):
    out = ingboard(command, "--help").stdout
    flat = " ".join(out.split())
    for name in rulesets.NAMES:
        assert name in flat, (command, name)


def test_simulate_help_lists_noise_levels_and_mistakes():
    flat = " ".join(ingboard("simulate", "--help").stdout.split())
    for word in list(sim.NOISE_LEVELS) + list(sim.MISTAKES) + ["--finish"]:
        assert word in flat


def test_write_all_writes_into_a_fifo(tmp_path):
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    write_all({fifo: "hello\n", str(tmp_path / "plain.txt"): "plain\n"})
    reader.join(10)
    assert got == ["hello\n"]
    assert is_special(fifo) and os.path.exists(fifo)  # still the pipe, not a file
    assert (tmp_path / "plain.txt").read_text() == "plain\n"
    assert is_special("/dev/stdout") and not is_special(str(tmp_path / "plain.txt"))


def test_simulate_to_dev_stdout_and_finish(tmp_path):
    done = ingboard("simulate", GAME, "--finish", "--seed", "2", "--log", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ingboard-session 1\n")
    assert "plays" in done.stderr and "finished: dead stones" in done.stderr
    events = []
    tracker = track(read_text(done.stdout), events.append)
    assert tracker.game.result is not None and tracker.game.phase == "ended"
    assert [e for e in events if e["type"] == "count"]
    assert [e["phase"] for e in events if e["type"] == "bowls"][-2:] == ["after-count", "put-away"]
    # Without --finish the log stops at the record's last passes: not a finished game.
    plain = ingboard("simulate", GAME, "--seed", "2", "--log", str(tmp_path / "a.log"))
    assert plain.returncode == 0 and "plays" in plain.stdout
    unfinished = track(read_text((tmp_path / "a.log").read_text()), lambda e: None)
    assert unfinished.game.result is None


def test_track_sgf_to_a_fifo(tmp_path):
    log = tmp_path / "g.log"
    assert ingboard("simulate", GAME, "--finish", "--log", str(log)).returncode == 0
    fifo = str(tmp_path / "sgf")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    done = ingboard("track", str(log), "--sgf", fifo)
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert got and got[0].startswith("(;") and "RE[" in got[0]
    assert done.stdout == "" and "result" in done.stderr  # stdout is not mixed into the pipe


def test_demo_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    from host_tools.commands import demo as command

    seen = []

    def fake_run(sgf, out, noise, seed, progress):
        seen.append(progress)
        return {"ok": True}

    monkeypatch.setattr(command.demo, "run_demo", fake_run)
    monkeypatch.setattr(command.demo, "summary_lines", lambda s: [])
    args = type("A", (), {"out": None, "sgf": None, "noise": "none", "seed": 0, "quiet": False})
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    command.run(args)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    command.run(args)
    assert seen[0] is None and seen[1] is sys.stderr


def test_sim_server_quiet_when_browsers_go_away():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "sim", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = "http://127.0.0.1:%d/" % port
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "api/state", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        # Browsers that leave in the middle: requests cut off before the answer is read,
        # with the connection reset (SO_LINGER 0), many times.
        for path in ("api/clock/B.png", "api/state", "api/session.log", "", "sim.js") * 4:
            c = socket.create_connection(("127.0.0.1", port))
            c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            c.sendall(("GET /%s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
            c.close()
        assert urllib.request.urlopen(url + "api/state", timeout=5).status == 200
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=20)
    assert "Traceback" not in err and err.strip() == "", err


def test_demo_draws_its_progress_bar_on_a_terminal(tmp_path):
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "demo", "--out", str(tmp_path / "demo")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break  # the terminal closed with the process
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=300)
    os.close(leader)
    assert proc.returncode == 0
    assert b"100%" in seen and b"move 40" in seen and b"\r[" in seen

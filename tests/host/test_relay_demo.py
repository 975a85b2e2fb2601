"""`ingboard relay --demo-boards N` (a whole trial venue on one command: mosquitto, N simulated
boards, the relay and its page) starts, plays, and stops cleanly on SIGTERM and on Ctrl-C
(SIGINT), leaving no broker and no temporary files but keeping its archive, the round's
pairings and the director's password for the director to try; and the relay says loudly
when it cannot reach the broker or the broker refuses its login."""

import base64
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from host_tools import ROOT
from host_tools.relay import broker as brokers

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (os.path.exists("/usr/sbin/mosquitto") or brokers.shutil.which("mosquitto")),
        reason="mosquitto missing: make setup",
    ),
]


def relay(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "host_tools", "relay", "--http", "127.0.0.1:0", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def get(url, credentials=None):
    req = urllib.request.Request(url)
    if credentials:
        token = base64.b64encode(("%s:%s" % credentials).encode()).decode()
        req.add_header("Authorization", "Basic " + token)
    with urllib.request.urlopen(req, timeout=5) as resp:
        return json.loads(resp.read())


def _demo_dirs():
    return [n for n in os.listdir(tempfile.gettempdir()) if n.startswith("ingboard-relay-demo-")]


def listening(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize("boards, sig", [(20, signal.SIGTERM), (3, signal.SIGINT)])
def test_demo_runs_the_whole_trial_and_stops_cleanly(boards, sig, tmp_path):
    kept = tmp_path / "demo.sqlite"
    before = set(_demo_dirs())
    proc = relay("--demo-boards", str(boards), "--db", str(kept))
    try:
        line = proc.stdout.readline()
        assert "page http://" in line, proc.stderr.read()
        url = line.split("page ")[1].split(",")[0].strip()
        archive = line.split("archive ")[1].strip()
        port = int(line.split("broker 127.0.0.1:")[1].split(",")[0])
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            views = get(url + "api/boards")["boards"]
            if len(views) == boards and all(v.get("n") for v in views):
                break
            time.sleep(0.5)
        assert len(views) == boards and all(v["online"] and v.get("n") for v in views), views
        names = {v["info"]["players"]["B"]["name"] for v in views}  # from the desk's pairing
        assert len(names) == boards  # a pairing of 2N players, not placeholders
        games = get(url + "api/results")["rounds"][0]["games"]
        assert len(games) == boards
        if boards >= 4:
            # Round 1 shows the director every kind of event: an illegal move (b002), a board
            # alert (b003) and a board offline for a while (b004), at its first dozen moves.
            password = (tmp_path / "director-password.txt").read_text().strip()
            kinds = set()
            deadline = time.monotonic() + 150
            while time.monotonic() < deadline and len(kinds) < 3:
                state = get(url + "director/api/state", ("director", password))
                kinds = {(a["kind"], a["board"]) for a in state["alerts"]}
                kinds &= {("illegal-move", "b002"), ("bowl-mismatch", "b003"),
                          ("offline", "b004")}  # fmt: skip
                time.sleep(1)
            assert len(kinds) == 3, state["alerts"]
            assert len(state["round"]["tables"]) == boards and state["round"]["current"] == 1
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "relay: stopped;" in out
    assert "Traceback" not in err and "ERROR" not in err, err
    assert not listening(port)  # the demo's mosquitto is gone
    assert archive == str(kept) and kept.exists()  # the archive is kept for the director
    assert (tmp_path / "pairings-round1.csv").exists()
    assert (tmp_path / "director-password.txt").exists()
    assert "the demo's archive is kept in %s" % kept in err
    assert set(_demo_dirs()) <= before, "the broker's and boards' directory is left"


def test_broker_unreachable_and_login_refused_are_loud(tmp_path):
    free = brokers.free_port()
    proc = relay("--broker", "127.0.0.1:%d" % free, "--db", str(tmp_path / "a.sqlite"),
                 "--duration", "3")  # fmt: skip
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert "relay: ERROR: cannot reach the broker 127.0.0.1:%d" % free in err
    broker = brokers.Broker(str(tmp_path / "broker"), {"relay": "right"}).start()
    try:
        pw = tmp_path / "pw"
        pw.write_text("wrong")
        proc = relay("--broker", "127.0.0.1:%d" % broker.port, "--password-file", str(pw),
                     "--db", str(tmp_path / "b.sqlite"), "--duration", "3")  # fmt: skip
        out, err = proc.communicate(timeout=30)
    finally:
        broker.stop()
    assert proc.returncode == 0
    assert "refused the relay's login (Not authorized)" in err, err
    assert err.count("refused") == 1  # said once, not at every retry

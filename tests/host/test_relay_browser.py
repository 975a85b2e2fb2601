"""The relay's live page in headless Chromium (Debian's, driven by playwright-core from npm
through tests/host/relay_browser.mjs), against real mosquitto and `ingboard relay` processes.

A board (the firmware's relay_link + drivers/mqtt_transport with a paho client, fleet.py's
SimBoard) plays a 9x9 game; the page shows each move. The page's connection goes through a
small TCP proxy: dropping it makes the page resume with Last-Event-ID (the same relay run) and
get the move made meanwhile; SIGKILLing the relay and starting it again makes it catch up from
a snapshot of the new run. The DOM and the screenshot's pixels are checked.
"""

import json
import os
import select
import signal
import socket
import subprocess
import threading
import time

import pytest
from PIL import Image

from host_tools import ROOT
from host_tools.relay import broker as brokers
from host_tools.relay.fleet import Fleet, now_ms, start_relay

SCRIPT = os.path.join(ROOT, "tests", "host", "relay_browser.mjs")
HAVE = (
    os.path.exists("/usr/bin/chromium")
    and os.path.isdir(os.path.join(ROOT, "node_modules", "playwright-core"))
    and (os.path.exists("/usr/sbin/mosquitto") or brokers.shutil.which("mosquitto"))
)
# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not HAVE, reason="chromium, playwright-core or mosquitto missing: make setup"
    ),
]

SIZE = 9
STEP = 240 / (SIZE + 1)  # the page's SVG: 240 user units (= CSS px) across, lines 1..SIZE
COLS = "ABCDEFGHJ"
# White's name is markup a board login could send (issue 19): the page must show it as text.
EVIL = "Bo <img src=x onerror=\"document.title='owned'\"> White"
INFO = {"size": SIZE, "rules": "chinese", "komi": 7.5, "round": 1,
        "players": {"B": "Ann Black", "W": EVIL}}  # fmt: skip
MOVES = [("B", "C3"), ("W", "G7"), ("B", "E5"), ("W", "C7"), ("B", "G3")]


def centre(point):
    """(x, y) of a point in the card's SVG."""
    return (COLS.index(point[0]) + 1) * STEP, (SIZE - int(point[1:]) + 1) * STEP


class Proxy:
    """TCP proxy page -> relay; drop() cuts every connection and refuses new ones until up()."""

    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.down = False
        self.conns = []
        self.requests = []  # what clients sent that starts a request (line and headers)
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _addr = self.sock.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(
                target=self._pipe, args=(upstream, client, False), daemon=True
            ).start()

    def _pipe(self, src, dst, from_client):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if from_client and data.startswith(b"GET "):
                    self.requests.append(data.decode("latin-1"))
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def drop(self):
        self.down = True
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass

    def up(self):
        self.down = False

    def close(self):
        self.drop()
        self.sock.close()


class Browser:
    """relay_browser.mjs as a child: one JSON command in, one JSON answer out (bounded)."""

    def __init__(self, url, out):
        self.proc = subprocess.Popen(
            ["node", SCRIPT, url, out],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self._read(20) == {"ready": True}

    def _read(self, timeout):
        ready, _w, _x = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise AssertionError("the browser script did not answer in %s s" % timeout)
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError("the browser script died: %s" % self.proc.stderr.read()[-2000:])
        return json.loads(line)

    def ask(self, **cmd):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        answer = self._read(cmd.get("timeout", 8000) / 1000 + 10)
        assert "error" not in answer, (cmd, answer)
        return answer

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)


def play(fleet, board, k):
    """Move k (1-based) of MOVES on the simulated board."""
    c, p = MOVES[k - 1]
    with fleet.lock:
        board.link.move(k, c, p, now_ms(), t_ms=k * 1000)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        proc.wait(10)


def test_live_page_shows_moves_and_catches_up_after_drops_and_a_relay_restart(tmp_path):
    broker = brokers.Broker(str(tmp_path / "broker"), {"t1": "pw-t1", "relay": "relay-pw"})
    broker.start()
    pw = str(tmp_path / "relay.pw")
    with open(pw, "w") as f:
        f.write("relay-pw")
    db = str(tmp_path / "relay.sqlite")
    http_port = brokers.free_port()
    relay, _url = start_relay(broker.port, db, pw, "club", http_port=http_port)
    proxy = Proxy(http_port)
    fleet = Fleet("127.0.0.1", broker.port, "club", {"t1": "pw-t1"}, str(tmp_path / "boards"))
    board = fleet.boards["t1"]
    browser = None
    try:
        browser = Browser("http://127.0.0.1:%d/" % proxy.port, str(tmp_path))
        browser.ask(op="conn", text="live")
        with fleet.lock:
            board.link.new_game(dict(INFO), now_ms())
        play(fleet, board, 1)
        play(fleet, board, 2)
        card = browser.ask(op="card", board="t1", ply=2)
        assert card["last"] == "W G7" and card["lastmove"] == "W G7" and card["online"] == "1"
        assert sorted(card["stones"]) == sorted(
            [list(centre("C3")) + ["#000"], list(centre("G7")) + ["#fff"]]
        )
        text = browser.ask(op="text", board="t1")
        assert text["h2"].endswith("t1: Ann Black - " + EVIL), text
        assert text["elements"] == ["span"] and text["title"] == "ingboard relay"

        # The page's connection drops; a move is made; the page resumes where it was.
        proxy.drop()
        browser.ask(op="conn", text="reconnecting")
        play(fleet, board, 3)
        time.sleep(0.5)  # the relay has it; the page does not yet
        proxy.up()
        card = browser.ask(op="card", board="t1", ply=3)
        assert card["last"] == "B E5" and len(card["stones"]) == 3
        resumed = [r for r in proxy.requests if r.startswith("GET /events")][1:]
        assert resumed and all("\nlast-event-id: " in r.lower() for r in resumed), proxy.requests

        # The relay dies (SIGKILL); two moves are made; a new relay run starts on the same
        # archive and port: the page reconnects to it and catches up from its snapshot.
        relay.send_signal(signal.SIGKILL)
        relay.wait(5)
        browser.ask(op="conn", text="reconnecting")
        play(fleet, board, 4)
        play(fleet, board, 5)
        time.sleep(0.5)
        relay, _url = start_relay(broker.port, db, pw, "club", http_port=http_port)
        card = browser.ask(op="card", board="t1", ply=5, timeout=10000)
        assert card["last"] == "B G3" and card["lastmove"] == "B G3" and card["online"] == "1"
        want = [list(centre(p)) + ["#000" if c == "B" else "#fff"] for c, p in MOVES]
        assert sorted(card["stones"]) == sorted(want)
        browser.ask(op="conn", text="live")
        shot = browser.ask(op="shot", board="t1", file="page.png")
    finally:
        if browser is not None:
            browser.close()
        fleet.close()
        proxy.close()
        stop(relay)
        broker.stop()

    # The screenshot: stones where the moves are, the last move marked red, an empty point
    # showing the board's wood.
    x0, y0, w, h = shot["svg"]
    assert round(w) == round(h) and w >= 200  # a square board as wide as its card
    scale = w / 240  # CSS px per SVG user unit
    img = Image.open(str(tmp_path / "page.png")).convert("RGB")

    def pixel(point, dx=0.3, dy=0.3):
        x, y = centre(point)
        return img.getpixel(
            (round(x0 + (x + dx * STEP) * scale), round(y0 + (y + dy * STEP) * scale))
        )

    for c, p in MOVES:
        r, g, b = pixel(p)
        if c == "B":
            assert max(r, g, b) < 60, (p, (r, g, b))
        else:
            assert min(r, g, b) > 200, (p, (r, g, b))
    r, g, b = pixel("G3", 0, 0)
    assert r > 200 and g < 60 and b < 60, (r, g, b)  # the red last-move mark
    r, g, b = pixel("D4", 0.5, 0.5)
    assert abs(r - 0xDC) < 20 and abs(g - 0xB3) < 20 and abs(b - 0x5C) < 20, (r, g, b)

"""Simulated boards for the relay's load test and bench: the firmware's own relay code
(ingboard.link.relay_link.RelayLink + ingboard.drivers.mqtt_transport.MqttTransport) with a real
paho-mqtt client as the transport's client, many boards in one process.

Each board plays random legal games (moves chosen with the rules core, ingrules.game),
journals through a FileJournal in its own directory (so a reboot recovers from it), and keeps
the ground truth of what it played. Like the device (one asyncio loop), every board's link is
touched by one thread only: paho's callbacks only queue events that the fleet's driver thread
hands to the transport. Fault injection: `ack_drop` (share of incoming acks thrown away),
`reboot(name)` (power cut: the socket dies without DISCONNECT, a new link starts from the
journal), `freeze(name)` (the network stops dead, play goes on).

    run_bench(boards=200, seconds=20) -> {"boards", "moves", "moves_per_s", "latency_ms":
        {"p50", "p99", "count"}, "archived", "complete"}   (starts its own broker and relay)
"""

import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt
from ingboard.drivers.mqtt_transport import MqttTransport
from ingboard.link.relay_link import FileJournal, RelayLink
from ingrules.board import BLACK, EMPTY, WHITE
from ingrules.game import Game

from host_tools import ROOT


def now_ms():
    return int(time.monotonic() * 1000)


class SimBoard:
    def __init__(self, fleet, name, password, rng):
        self.fleet = fleet
        self.name = name
        self.password = password
        self.rng = rng
        self.dir = os.path.join(fleet.workdir, name)
        os.makedirs(self.dir, exist_ok=True)
        self.journal = FileJournal(os.path.join(self.dir, "relay.jsonl"))
        self.inbox = collections.deque()
        self.truth = {}  # game id -> [(n, colour, point)]
        self.results = {}
        self.sent_at = {}  # (game id, n) -> monotonic seconds the move was made
        self.game = None
        self.plies_left = 0
        self.next_move = time.monotonic() + rng.uniform(0, fleet.move_s[1])
        self.frozen = False
        self.boots = 0
        self.rest_until = 0.0  # after a game: until the next round starts on this board
        self.rounds_played = set()  # the pairings' rounds this board has started
        self.clock_state = None  # both clocks as last sent
        self._boot()

    def _boot(self):
        self.boots += 1
        f = self.fleet
        self.link = RelayLink(
            f.event, self.name, self.journal, resend_ms=f.resend_ms, window=f.window
        )
        c = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id="%s-%d" % (self.name, self.boots),
            clean_session=True,
        )
        c.username_pw_set(self.name, self.password)
        t, payload, qos, retain = self.link.will()
        c.will_set(t, payload, qos, retain)
        c.reconnect_delay_set(0.2, 2)
        c.on_connect = self._on_connect
        c.on_disconnect = lambda *a: self.inbox.append(("down",))
        c.on_message = self._on_message
        self.client = c
        self.transport = MqttTransport(c, self.link)
        if self.link.current is not None:
            self.gid = self.link.current.gid  # the game goes on after the reboot
        c.connect_async(f.host, f.port, keepalive=f.keepalive)
        c.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if not reason_code.is_failure:
            self.inbox.append(("up",))

    def _on_message(self, client, userdata, msg):
        if self.fleet.ack_drop and self.rng.random() < self.fleet.ack_drop:
            self.fleet.acks_dropped += 1
            return
        self.inbox.append(("msg", msg.topic, msg.payload))

    def step(self, t_s):
        """Run from the driver thread only: network events, then play, clock and resends."""
        now = now_ms()
        back = self.fleet.offline_until.get(self.name)
        if back is not None:
            if time.monotonic() < back:
                return  # switched off (a mishap): nothing is played or sent
            del self.fleet.offline_until[self.name]
            self.reboot()
        while self.inbox:
            ev = self.inbox.popleft()
            if ev[0] == "up":
                self.transport.up(now)
            elif ev[0] == "down":
                self.transport.down()
            else:
                self.transport.incoming(ev[1], ev[2], now)
        if self.fleet.playing and t_s >= self.next_move and t_s >= self.rest_until:
            lo, hi = self.fleet.move_s
            if self._play(now) is False:
                self.next_move = t_s + lo  # no draw while waiting: the games stay the seed's
            else:
                self.next_move = t_s + self.rng.uniform(lo, hi)
        if self.game is not None:
            left = max(0, 600000 - len(self.game.plies) * 1000)
            self.clock_state = {"B": {"main_ms": left, "penalty": 0},
                                "W": {"main_ms": left, "penalty": 0}}  # fmt: skip
            self.link.clock(self.clock_state, now, running="BW"[len(self.game.plies) % 2])
        elif self.link.current is not None and self.clock_state is not None:
            self.link.clock(self.clock_state, now, running=None)  # stopped: the game is over
        self.link.poll(now)

    def _play(self, now):
        if self.game is None:
            info = self.fleet.next_game(self)
            if info is None:
                return False  # waiting for the director's next pairing
            self.game = Game(19, "chinese", handicap=info.get("handicap", 0))
            self.plies_left = self.rng.randint(*self.fleet.plies)
            self.gid = self.link.new_game(info, now)
            self.truth[self.gid] = []
            return
        game = self.game
        color = game.to_play
        n = len(game.plies) + 1
        point = "pass"
        mishap = self.fleet.mishaps.pop((self.name, len(self.truth), n), None)
        if mishap == "illegal":
            # A stone on an occupied point: the relay's rules check flags it, holds the game.
            board = game.board
            taken = [p for p in (board.index(x, y) for y in range(19) for x in range(19))
                     if board.get(p) != EMPTY]  # fmt: skip
            if taken:
                c = "B" if color == BLACK else "W"
                self.link.move(n, c, board.name(taken[0]), now)
                self.truth[self.gid].append((n, c, "illegal"))
                return
        elif mishap is not None and mishap.startswith("alert:"):
            self.link.alert(mishap[6:], now)
        elif mishap == "offline":
            self.fleet.offline_until[self.name] = time.monotonic() + self.fleet.offline_s
            self.freeze()
            return
        if self.plies_left > 0:
            board = game.board
            for _try in range(20):
                p = board.index(self.rng.randrange(19), self.rng.randrange(19))
                if board.get(p) == EMPTY and game.legality(color, p) is None:
                    game.play(color, p)
                    point = board.name(p)
                    break
        if point == "pass":
            game.pass_move(color)
        self.plies_left -= 1
        c = "B" if color == BLACK else "W"
        assert color in (BLACK, WHITE)
        self.truth[self.gid].append((n, c, point))
        self.sent_at[(self.gid, n)] = time.monotonic()
        self.link.move(n, c, point, now, t_ms=n * 1000)
        if game.consecutive_passes >= 2:
            result = self.rng.choice(("B+3", "W+2.5", "B+R"))
            self.results[self.gid] = result
            self.link.result(result, "count", now)
            self.game = None
            self.rest_until = time.monotonic() + self.fleet.rest_s

    def reboot(self):
        """Power cut: the TCP connection dies without DISCONNECT; start again from the journal."""
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            sock.close()
        self.inbox.clear()
        self.frozen = False
        self._boot()

    def freeze(self):
        """The network goes silent (no DISCONNECT, no pings); the board plays on."""
        self.frozen = True
        self.client.loop_stop()
        # paho writes from the caller's thread when it can: swallow the packets instead
        self.client.publish = lambda *args, **kwargs: None

    def close(self):
        self.client.loop_stop()


class Fleet:
    def __init__(
        self,
        host,
        port,
        event,
        boards,
        workdir,
        seed=1,
        move_s=(0.5, 1.5),
        plies=(30, 90),
        resend_ms=2000,
        window=32,
        keepalive=10,
        ack_drop=0.0,
        names=None,
        rest_s=0.0,
        follow_pairings=False,
        mishaps=None,
        offline_s=30.0,
    ):
        self.host, self.port, self.event = host, port, event
        # With follow_pairings a board starts a game only for a new pairing from the director
        # (relay_link's `pairing`), with its players, round, handicap and komi.
        self.follow_pairings = follow_pairings
        # {(board, game number from 1, ply): "illegal" | "alert:CODE" | "offline"}: what goes
        # wrong where (an occupied point played; a board alert; the board off for offline_s).
        self.mishaps = mishaps or {}
        self.offline_s = offline_s
        self.offline_until = {}
        self.names = names
        self.rest_s = rest_s
        self.workdir = workdir
        self.move_s, self.plies = move_s, plies
        self.resend_ms, self.window, self.keepalive = resend_ms, window, keepalive
        self.ack_drop = ack_drop
        self.acks_dropped = 0
        self.playing = False
        self.lock = threading.Lock()
        rng = random.Random(seed)
        self.boards = {}
        for name, password in boards.items():
            self.boards[name] = SimBoard(self, name, password, random.Random(rng.random()))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drive, daemon=True)
        self._thread.start()

    def _drive(self):
        while not self._stop.is_set():
            t = time.monotonic()
            with self.lock:
                for b in self.boards.values():
                    b.step(t)
            self._stop.wait(0.02)

    def play(self, on=True):
        self.playing = on

    def next_game(self, board):
        """The settings of `board`'s next game, or None while it waits for a pairing."""
        if not self.follow_pairings:
            rnd = len(board.truth) + 1  # each board plays one game per round
            return {"size": 19, "rules": "chinese", "komi": 7.5, "round": rnd,
                    "players": self.players(board.name, rnd)}  # fmt: skip
        p = board.link.pairing
        if not p or p["round"] in board.rounds_played:
            return None
        board.rounds_played.add(p["round"])
        info = {"size": 19, "rules": "chinese", "round": p["round"], "table": p.get("table"),
                "players": {"B": p["B"], "W": p["W"]}, "komi": p.get("komi", 7.5)}  # fmt: skip
        if p.get("handicap", 0) > 1:
            info.update(handicap=p["handicap"], komi=p.get("komi", 0.5))
        return info

    def players(self, board, rnd):
        """The pairing of a board in a round: given names by `names(board, rnd)`, else
        "Black b001" / "White b001"."""
        if self.names is not None:
            return self.names(board, rnd)
        return {"B": "Black %s" % board, "W": "White %s" % board}

    def reboot(self, name):
        with self.lock:
            self.boards[name].reboot()

    def freeze(self, name):
        with self.lock:
            self.boards[name].freeze()

    def pending(self):
        with self.lock:
            return sum(b.link.pending() for b in self.boards.values())

    def drain(self, timeout):
        """Wait (bounded) until every board's outbox is empty; True if it emptied."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.pending() == 0:
                return True
            time.sleep(0.2)
        return False

    def moves_played(self):
        return sum(len(m) for b in self.boards.values() for m in b.truth.values())

    def close(self):
        self._stop.set()
        self._thread.join(5)
        for b in self.boards.values():
            b.client.disconnect()  # wakes the network thread at once
        for b in self.boards.values():
            b.close()


class SseListener:
    """Reads the live page's event stream; records when each (board, game, ply) arrived."""

    def __init__(self, url):
        self.url = url
        self.seen = {}  # (board, gid, n) -> monotonic seconds
        self.events = 0
        self.last_id = None
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop:
            try:
                headers = {"Last-Event-ID": self.last_id} if self.last_id else {}
                req = urllib.request.Request(self.url, headers=headers)
                with urllib.request.urlopen(req, timeout=15) as resp:
                    kind, data = None, None
                    for raw in resp:
                        if self._stop:
                            return
                        line = raw.decode().rstrip("\n")
                        if line.startswith("id: "):
                            self.last_id = line[4:]
                        elif line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: "):
                            data = line[6:]
                        elif line == "" and data is not None:
                            self._event(kind, json.loads(data))
                            kind, data = None, None
            except OSError:
                time.sleep(0.2)

    def _event(self, kind, data):
        self.events += 1
        t = time.monotonic()
        views = data["boards"] if kind == "snapshot" else [data] if kind == "board" else []
        for v in views:
            if v.get("n"):
                self.seen.setdefault((v["board"], v["g"], v["n"]), t)

    def close(self):
        self._stop = True


def percentile(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def start_relay(
    broker_port, db, password_file, event=None, offline_after=20.0, delay=0.0, http_port=0
):
    """`ingboard relay` as a child process; returns (process, page URL)."""
    cmd = [
        sys.executable,
        "-m",
        "host_tools",
        "relay",
        "--broker",
        "127.0.0.1:%d" % broker_port,
        "--db",
        db,
        "--http",
        "127.0.0.1:%d" % http_port,
        "--password-file",
        password_file,
        "--offline-after",
        str(offline_after),
        "--delay",
        str(delay),
    ]
    if event:
        cmd += ["--event", event]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    line = proc.stdout.readline()
    if "page http://" not in line:
        proc.kill()
        raise RuntimeError("relay did not start: %s %s" % (line, proc.stderr.read()[-2000:]))
    url = line.split("page ")[1].split(",")[0].strip()
    return proc, url


def run_bench(boards=200, seconds=20, move_s=(0.5, 1.5), seed=1):
    """Boards on one broker and board→page latency; see the module docstring. Bounded."""
    from host_tools.relay.broker import Broker
    from host_tools.relay.store import Store

    with tempfile.TemporaryDirectory(prefix="ingboard-relay-bench-") as tmp:
        names = {"b%03d" % i: "pw-b%03d" % i for i in range(boards)}
        users = dict(names, relay="relay-pw")
        broker = Broker(os.path.join(tmp, "broker"), users).start()
        pwfile = os.path.join(tmp, "relay.pw")
        with open(pwfile, "w") as f:
            f.write("relay-pw")
        db = os.path.join(tmp, "relay.sqlite")
        relay, url = start_relay(broker.port, db, pwfile, event="bench")
        sse = SseListener(url + "events")
        fleet = Fleet("127.0.0.1", broker.port, "bench", names, os.path.join(tmp, "boards"), seed)
        try:
            time.sleep(1.0)
            fleet.play(True)
            t0 = time.monotonic()
            time.sleep(seconds)
            fleet.play(False)
            elapsed = time.monotonic() - t0
            complete = fleet.drain(30)
            time.sleep(0.5)
            lat = []
            for b in fleet.boards.values():
                for key, t in b.sent_at.items():
                    seen = sse.seen.get((b.name, key[0], key[1]))
                    if seen is not None:
                        lat.append((seen - t) * 1000)
            played = fleet.moves_played()
        finally:
            fleet.close()
            sse.close()
            relay.terminate()
            relay.wait(10)
            broker.stop()
        store = Store(db)
        archived = len(store.all_moves())
        store.close()
    return {
        "boards": boards,
        "moves": played,
        "moves_per_s": round(played / elapsed, 1),
        "archived": archived,
        "complete": complete and archived == played,
        "latency_ms": {
            "p50": percentile(lat, 0.5),
            "p99": percentile(lat, 0.99),
            "count": len(lat),
        },
    }


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    s = float(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(json.dumps(run_bench(n, s)))

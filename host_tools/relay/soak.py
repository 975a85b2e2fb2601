"""The relay soak (issue 19): many simulated boards in worker processes, broker and relay kills,
and one board sending a stream of malformed messages; then every other board's archive checked.

Each worker process runs a `fleet.Fleet` of boards (the firmware's relay code with paho clients;
worker processes so that one process's file-descriptor limit is never mistaken for loss) and
answers commands on a pipe. A separate process is the malformed board: an authenticated board
(its own user name, its own topics) publishing, at a steady rate, the kinds of message that once
stopped the relay (huge integers, komi 1e308, Infinity, JSON nested a thousand deep, oversized,
not UTF-8, markup in names) and seeded mutations of valid ones.

    python -m host_tools.relay.soak --boards 500 --workers 5 --seconds 60   (make relay-soak)

prints one JSON object: boards, moves played and archived, lost, duplicated, out of order,
malformed messages sent and quarantined, the faults injected, how long the boards took to get
every move acknowledged after play stopped (`drain_s`; on a busy machine the relay catches up
slowly: the wait goes on while the backlog shrinks), and "ok". "lost" counts moves played but
not archived once every board's outbox is empty (`pending_at_end` is 0).
"""

import argparse
import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
import urllib.request

BIG = "1" + "0" * 400
MALFORMED = [
    ("move", '{"g": "1-1", "n": %s, "c": "B", "p": "E5"}' % BIG),
    ("move", '{"g": "1-1", "n": 1, "c": "B", "p": "E5", "t": 9223372036854775808}'),
    ("game", '{"g": "2-1", "size": 9, "rules": "chinese", "komi": 1e308}'),
    ("game", '{"g": "2-2", "size": 9, "rules": "chinese", "komi": Infinity}'),
    ("game", '{"g": "2-3", "size": 9, "rules": "chinese", "komi": NaN}'),
    ("move", "[" * 1000 + "]" * 1000),
    ("game", '{"g": "2-4", "players": {"B": "<script>alert(1)</script>"}, "size": 9}'),
    ("clock", '{"g": "1-1", "run": "B", "B": {"penalty": "<img src=x onerror=alert(1)>"}}'),
    ("status", '{"state": "online", "boot": {"a": [1, 2, 3]}}'),
    ("move", b"\xff\xfe\xfd"),
    ("move", "{" + '"x": 1, ' * 2000 + '"g": "1-1"}'),
]


def _mutation(rng):
    kind, text = rng.choice(MALFORMED)
    if isinstance(text, bytes) or rng.random() < 0.5:
        return kind, text
    cut = rng.randrange(1, len(text))
    return kind, text[:cut] + rng.choice(["", "]", "}", "[", "\\", "\u0000", "1e999"])


def _evil(host, port, event, name, password, rate, stop, sent):
    """The malformed board: `rate` messages a second until `stop` is set."""
    import paho.mqtt.client as mqtt

    rng = random.Random(19)
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)
    c.username_pw_set(name, password)
    c.reconnect_delay_set(0.2, 2)
    c.connect_async(host, port, keepalive=10)
    c.loop_start()
    try:
        while not stop.is_set():
            kind, payload = _mutation(rng)
            info = c.publish("go/v1/%s/%s/%s" % (event, name, kind), payload, qos=1)
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                with sent.get_lock():
                    sent.value += 1
            stop.wait(1.0 / rate)
    finally:
        c.loop_stop()


def _worker(conn, host, port, event, boards, workdir, seed, move_s, plies):
    """One process, one Fleet: answers ("play", bool), ("pending",), ("truth",), ("close",)."""
    from host_tools.relay.fleet import Fleet

    fleet = Fleet(host, port, event, boards, workdir, seed=seed, move_s=move_s, plies=plies)
    try:
        while True:
            cmd = conn.recv()
            if cmd[0] == "play":
                fleet.play(cmd[1])
                conn.send(True)
            elif cmd[0] == "pending":
                conn.send(fleet.pending())
            elif cmd[0] == "truth":
                with fleet.lock:
                    conn.send({b.name: (b.truth, b.results) for b in fleet.boards.values()})
            else:
                break
    finally:
        fleet.close()
        conn.send("closed")


class Workers:
    def __init__(self, host, port, event, names, workdir, workers, seed, move_s, plies):
        ctx = multiprocessing.get_context("spawn")
        items = sorted(names.items())
        self.procs = []
        self.pending = None
        for w in range(workers):
            part = dict(items[w::workers])
            parent, child = ctx.Pipe()
            p = ctx.Process(
                target=_worker,
                args=(child, host, port, event, part, workdir, seed + w, move_s, plies),
                daemon=True,
            )
            p.start()
            self.procs.append((p, parent))

    def ask(self, *cmd):
        for _p, conn in self.procs:
            conn.send(cmd)
        return [conn.recv() for _p, conn in self.procs]

    def drain(self, stall_s, cap_s=900.0):
        """Wait until every board's outbox is empty: True. Gives up (False) when the count of
        unacknowledged moves has not gone down for `stall_s`, or after `cap_s` - so a slow,
        shared machine is waited for while a relay that stopped archiving is not."""
        start = last_progress = time.monotonic()
        best = None
        while True:
            pending = sum(self.ask("pending"))
            self.pending = pending
            now = time.monotonic()
            if pending == 0:
                return True
            if best is None or pending < best:
                best, last_progress = pending, now
            if now - last_progress > stall_s or now - start > cap_s:
                return False
            time.sleep(0.5)

    def truth(self):
        out = {}
        for part in self.ask("truth"):
            out.update(part)
        return out

    def close(self):
        for p, conn in self.procs:
            try:
                conn.send(("close",))
                conn.recv()
            except (OSError, EOFError):
                pass
            p.join(20)
            if p.is_alive():
                p.kill()


def check_archive(db, truth, event):
    """(archived, lost, duplicated, out_of_order) over the given boards' games."""
    from host_tools.relay.store import Store

    store = Store(db)
    try:
        lost = duplicated = out_of_order = archived = 0
        last = {}
        for _seq, ev, board, gid, n, _c, _p, _s in store.all_moves():
            if ev != event or board not in truth:
                continue
            archived += 1
            prev = last.get((board, gid), 0)
            if n <= prev:
                duplicated += 1
            elif n != prev + 1:
                out_of_order += 1
            last[(board, gid)] = max(prev, n)
        for board, (games, _results) in truth.items():
            for gid, moves in games.items():
                stored = [(r[0], r[1], r[2]) for r in store.moves(event, board, gid)]
                want = [tuple(m) for m in moves]
                lost += sum(1 for m in want if m not in stored)
                duplicated += sum(1 for m in stored if m not in want)  # a ply stored otherwise
        flags = [f for f in store.flags() if f[1] in truth]
        quarantined = sum(q[5] for q in store.quarantined(100000))
        return {
            "archived": archived,
            "lost": lost,
            "duplicated": duplicated,
            "out_of_order": out_of_order,
            "flags_on_good_boards": len(flags),
            "quarantined": quarantined,
        }
    finally:
        store.close()


def run(boards=500, workers=5, seconds=60.0, seed=1, rate=20.0, move_s=(1.0, 3.0), log=None):
    """The soak; returns the figures (see the module docstring). Bounded in time."""
    from host_tools.relay.broker import Broker
    from host_tools.relay.fleet import start_relay

    say = log or (lambda text: None)
    with tempfile.TemporaryDirectory(prefix="ingboard-relay-soak-") as tmp:
        names = {"s%04d" % i: "pw-s%04d" % i for i in range(boards)}
        users = dict(names, relay="relay-pw", evil="pw-evil")
        broker = Broker(os.path.join(tmp, "broker"), users).start()
        pwfile = os.path.join(tmp, "relay.pw")
        with open(pwfile, "w") as f:
            f.write("relay-pw")
        db = os.path.join(tmp, "relay.sqlite")
        relay, url = start_relay(broker.port, db, pwfile, "soak", offline_after=30)
        http_port = int(url.rsplit(":", 1)[1].strip("/"))
        ctx = multiprocessing.get_context("spawn")
        stop_evil = ctx.Event()
        sent = ctx.Value("i", 0)
        evil = ctx.Process(
            target=_evil,
            args=("127.0.0.1", broker.port, "soak", "evil", "pw-evil", rate, stop_evil, sent),
            daemon=True,
        )
        pool = None
        faults = []
        try:
            pool = Workers(
                "127.0.0.1", broker.port, "soak", names, os.path.join(tmp, "boards"), workers,
                seed, move_s, (20, 60),
            )  # fmt: skip
            evil.start()
            time.sleep(2.0)
            pool.ask("play", True)
            t0 = time.monotonic()
            plan = [(0.2, "broker"), (0.45, "relay"), (0.7, "broker")]
            for share, what in plan:
                while time.monotonic() - t0 < share * seconds:
                    time.sleep(0.2)
                if what == "broker":
                    broker.kill()
                    time.sleep(1.5)
                    broker.start()
                else:
                    relay.send_signal(signal.SIGKILL)
                    relay.wait(10)
                    time.sleep(1.5)
                    relay, url = start_relay(
                        broker.port, db, pwfile, "soak", offline_after=30, http_port=http_port
                    )
                faults.append("%s killed at %.0f s" % (what, time.monotonic() - t0))
                say(faults[-1])
            while time.monotonic() - t0 < seconds:
                time.sleep(0.2)
            pool.ask("play", False)
            stop_evil.set()
            evil.join(10)
            drain_start = time.monotonic()
            complete = pool.drain(60.0)
            drain_s = time.monotonic() - drain_start
            pending = pool.pending
            truth = pool.truth()
            with urllib.request.urlopen(url + "api/boards", timeout=10) as resp:
                page_boards = len(json.loads(resp.read())["boards"])
            relay_alive = relay.poll() is None
        finally:
            stop_evil.set()
            if evil.is_alive():
                evil.kill()
            if pool is not None:
                pool.close()
            if relay.poll() is None:
                relay.terminate()
                relay.wait(15)
            broker.stop()
        played = sum(len(m) for games, _r in truth.values() for m in games.values())
        figures = check_archive(db, truth, "soak")
    ok = (
        complete
        and relay_alive
        and played > 0
        and figures["archived"] == played
        and figures["lost"] == figures["duplicated"] == figures["out_of_order"] == 0
        and figures["flags_on_good_boards"] == 0
        and figures["quarantined"] > 0
    )
    return dict(
        figures,
        boards=boards,
        workers=workers,
        seconds=seconds,
        played=played,
        pending_at_end=pending,
        drain_s=round(drain_s, 1),
        malformed_sent=sent.value,
        faults=faults,
        complete=complete,
        relay_alive=relay_alive,
        page_boards=page_boards,
        ok=ok,
    )


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=500)
    p.add_argument("--workers", type=int, default=5)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=20.0, help="malformed messages a second")
    args = p.parse_args(argv)
    result = run(
        args.boards,
        args.workers,
        args.seconds,
        args.seed,
        args.rate,
        log=lambda text: print("soak: " + text, file=sys.stderr, flush=True),
    )
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""The relay and the director's desk in several threads at once, as `ingboard relay` runs them:
paho's network thread hands the boards' messages to the relay, a ticker marks silent boards
offline, and the director's requests (an import, a round change, a binding) come from the web
server's threads.

CI, 2026-11-29: the director imported round 2 while six boards played; the import never
answered and the MQTT client could not be stopped. The relay sent its page events to the desk
while holding its own lock, and the desk, holding its lock, asked the relay for its views. These
tests fail on that code: the first after its reader's 5 s wait, the second by hanging (caught
by the joins' deadline)."""

import json
import threading
import time

from host_tools.relay.director import Director
from host_tools.relay.service import Relay
from host_tools.relay.store import Store

EV = "club"
CSV = (
    "# event: Club Evening\n# date: 2026-11-29\n"
    "table,black,white,handicap,komi\n"
    "1,Ito Ann (3d),Kim Bo (1k),0,6.5\n"
    "2,Lee Cas,Chen Dai,2,0.5\n"
    "3,Sato Eli,Park Fen,0,6.5\n"
)
CSV2 = CSV.replace("1,Ito Ann (3d),Kim Bo (1k)", "1,Kim Bo (1k),Sato Eli").replace(
    "3,Sato Eli,Park Fen", "3,Ito Ann (3d),Park Fen"
)
JOIN_S = 60  # far longer than either test needs (a few seconds each, alone)


def _hall(tmp_path):
    store = Store(str(tmp_path / "relay.sqlite"))
    relay = Relay(store, EV, offline_ms=50)
    desk = Director(store, EV, views=relay.views)
    relay.on_event = desk.on_relay_event
    return store, relay, desk


def _topic(board, kind):
    return "go/v1/%s/%s/%s" % (EV, board, kind)


def _board_messages(board, gid):
    """What a board sends over a short game: status, the game, moves with clocks, an alert."""
    yield _topic(board, "status"), {"state": "online", "boot": 1}
    players = {"B": "Ito Ann", "W": "Kim Bo"}
    game = {"g": gid, "size": 19, "rules": "japanese", "komi": 6.5, "round": 1, "players": players}
    yield _topic(board, "game"), game
    for n, p in enumerate(["D4", "Q16", "C16", "Q4", "E17"], 1):
        c = "BW"[(n - 1) % 2]
        yield _topic(board, "move"), {"g": gid, "n": n, "c": c, "p": p}
        side = {"main": 600000 - n}
        yield (
            _topic(board, "clock"),
            {"g": gid, "run": "WB"[(n - 1) % 2], "n": n, "B": side, "W": side},
        )
    yield _topic(board, "alert"), {"g": gid, "n": 5, "code": "bowl-mismatch"}


def test_the_desk_hears_the_relay_with_the_relays_lock_free(tmp_path):
    """Every kind of page event (board, clock, alert; offline from the ticker) reaches its
    listener while another thread can still read the relay's views."""
    store, relay, desk = _hall(tmp_path)
    desk.import_file(CSV, "round1.csv", 1)
    heard, blocked = [], []

    def listener(kind, data):
        heard.append(kind)
        reader = threading.Thread(target=relay.views, daemon=True)
        reader.start()
        reader.join(5)
        if reader.is_alive():
            blocked.append(kind)
        desk.on_relay_event(kind, data)

    relay.on_event = listener
    now = 0
    for t, msg in _board_messages("t1", "g1"):
        now += 10
        relay.handle(t, json.dumps(msg), now)
        if blocked:
            break
    if not blocked:
        relay.tick(now + 1000)  # t1 silent for longer than offline_ms: offline
    assert not blocked, "the relay's lock was held while its %s event was heard" % blocked[0]
    assert {"board", "clock", "alert"} <= set(heard) and heard[-1] == "board"
    assert sorted(a["kind"] for a in desk.alerts()) == ["bowl-mismatch", "offline"]
    store.close()


def test_imports_while_boards_play_never_hang(tmp_path):
    """The director imports, changes rounds and binds boards while six boards play and the
    ticker runs: every thread finishes, and the desk ends with what the director did last."""
    store, relay, desk = _hall(tmp_path)
    desk.import_file(CSV, "round1.csv", 1)
    stop = threading.Event()
    errors = []

    def guarded(fn):
        def run():
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 (reported by the test below)
                errors.append(repr(exc))

        return threading.Thread(target=run, daemon=True)

    def boards():
        now = 0
        for round_no in range(40):
            for b in range(1, 7):
                for t, msg in _board_messages("t%d" % b, "g%d" % round_no):
                    now += 1
                    relay.handle(t, json.dumps(msg), now)
        stop.set()

    def ticker():
        now = 10**6
        while not stop.is_set():
            now += 100
            relay.tick(now)

    last = []

    def director():
        files = [(CSV, "round1.csv", 1), (CSV2, "round2.csv", 2)]
        i = 0
        while not stop.is_set():
            data, name, rnd = files[i % 2]
            desk.import_file(data, name, rnd)
            desk.set_round(1 + i % 2)
            desk.bind(3, "t%d" % (3 + i % 4))
            last[:] = [1 + i % 2, "t%d" % (3 + i % 4)]
            i += 1

    threads = [guarded(fn) for fn in (boards, ticker, director)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + JOIN_S
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    stuck = [fn for fn, t in zip(("boards", "ticker", "director"), threads) if t.is_alive()]
    assert not stuck, "deadlocked: %s still running after %d s" % (stuck, JOIN_S)
    assert not errors, errors
    assert relay.stats["quarantined"] == 0
    assert last, "the director's thread did nothing"
    assert [desk.current_round(), desk.seats()[3]] == last  # what the director did last
    store.close()


def test_a_listener_may_feed_the_relay_again(tmp_path):
    """A listener that hands the relay a message of its own (a loop-back, as a test harness or
    a bridge does) neither hangs nor reorders: its events come after the one it heard."""
    store, relay, desk = _hall(tmp_path)
    heard = []

    def listener(kind, data):
        heard.append((kind, data.get("online")))
        if kind == "board" and data.get("online") and len(heard) == 1:
            relay.handle(_topic("t2", "status"), json.dumps({"state": "online"}), 20)
            heard.append(("fed", None))

    relay.on_event = listener
    worker = threading.Thread(
        target=relay.handle, args=(_topic("t1", "status"), json.dumps({"state": "online"}), 10)
    )
    worker.daemon = True
    worker.start()
    worker.join(JOIN_S)
    assert not worker.is_alive(), "a listener's own handle() hung the relay"
    assert heard == [("board", True), ("fed", None), ("board", True)]
    assert [v["board"] for v in relay.views()] == ["t1", "t2"]
    store.close()

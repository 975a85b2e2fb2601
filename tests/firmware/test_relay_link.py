"""relay_link: outbox, acks, resends, reboots, journal (CPython + MicroPython)."""

import json
import os

from expect import raises
from ingboard.drivers.mqtt_transport import MqttTransport
from ingboard.link.relay_link import FileJournal, MemoryJournal, RelayLink, split_topic, topic

INFO = {"size": 9, "rules": "chinese", "komi": 7.5, "players": {"B": "Ann", "W": "Bo"}}


class FakeTransport:
    """Records what the link publishes; `up` False refuses like an offline client."""

    def __init__(self, up=True):
        self.up = up
        self.sent = []

    def publish(self, t, payload, qos, retain):
        if not self.up:
            return False
        self.sent.append((t, json.loads(payload), qos, retain))
        return True

    def kinds(self):
        return [split_topic(t)[2] for t, _p, _q, _r in self.sent]

    def moves(self):
        return [(p["g"], p["n"]) for t, p, _q, _r in self.sent if t.endswith("/move")]

    def clear(self):
        self.sent = []


def _link(journal=None, transport=None, **kw):
    t = transport if transport is not None else FakeTransport()
    link = RelayLink("club", "b07", journal or MemoryJournal(), t, **kw)
    return link, t


def _ack(link, gid, n, end=False, now=0):
    payload = json.dumps({"g": gid, "n": n, "end": end})
    return link.message(topic("club", "b07", "ack"), payload.encode(), now)


def test_topics_and_payloads():
    link, t = _link()
    assert link.will() == ("go/v1/club/b07/status", '{"state":"offline"}', 1, True)
    assert link.subscriptions() == [("go/v1/club/b07/ack", 1), ("go/v1/club/b07/pairing", 1)]
    link.connected(0)
    gid = link.new_game(INFO, 0)
    assert gid == "1-1"
    link.move(1, "B", "E5", 100, t_ms=100)
    assert t.kinds() == ["status", "game", "move"]
    status, game, move = t.sent
    assert status == ("go/v1/club/b07/status", {"state": "online", "boot": 1}, 1, True)
    assert game[0] == "go/v1/club/b07/game" and game[2:] == (1, True)
    assert game[1]["g"] == "1-1" and game[1]["komi"] == 7.5 and game[1]["players"]["W"] == "Bo"
    assert move == (
        "go/v1/club/b07/move",
        {"g": "1-1", "n": 1, "c": "B", "p": "E5", "t": 100},
        1,
        False,
    )
    assert split_topic("go/v1/club/b07/move") == ("club", "b07", "move")
    assert split_topic("go/v1/club/b07/other") is None
    assert split_topic("go/v2/club/b07/move") is None
    raises(ValueError, RelayLink, "club/x", "b07", MemoryJournal())
    raises(ValueError, RelayLink, "club", "b+", MemoryJournal())


def test_offline_play_then_everything_in_order_on_connect():
    t = FakeTransport(up=False)
    link, _ = _link(transport=t, window=100)
    gid = link.new_game(INFO, 0)
    for n in range(1, 41):
        link.move(n, "B" if n % 2 else "W", "pass" if n == 40 else "A%d" % (n % 9 + 1), n)
    assert t.sent == [] and link.pending() == 40
    t.up = True
    link.connected(1000)
    assert t.kinds()[:2] == ["status", "game"]
    assert t.moves() == [(gid, n) for n in range(1, 41)]


def test_window_limits_messages_in_flight():
    link, t = _link(window=8)
    link.connected(0)
    link.disconnected()
    gid = link.new_game(INFO, 0)
    for n in range(1, 21):
        link.move(n, "B" if n % 2 else "W", "pass", 0)
    link.connected(10)
    assert t.moves() == [(gid, n) for n in range(1, 9)]
    t.clear()
    _ack(link, gid, 5, now=20)
    assert t.moves() == [(gid, n) for n in range(9, 14)]
    assert link.pending() == 15


def test_ack_drops_and_resend_after_timeout():
    link, t = _link(resend_ms=5000)
    link.connected(0)
    gid = link.new_game(INFO, 0)
    for n in (1, 2, 3):
        link.move(n, "B" if n % 2 else "W", "C%d" % n, n * 10)
    t.clear()
    assert _ack(link, gid, 2, now=100)
    assert link.pending() == 1
    assert link.poll(4000) == 0  # ply 3 was sent at 30: not due yet
    assert link.poll(5030) == 1
    assert t.moves() == [(gid, 3)]
    # an ack lost on the way: the relay acks again when the resend arrives
    assert _ack(link, gid, 3, now=5100)
    assert link.pending() == 0 and link.poll(20000) == 0


def test_first_resend_repeats_game_settings():
    link, t = _link(resend_ms=1000)
    link.connected(0)
    link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    t.clear()
    link.poll(1000)
    assert t.kinds() == ["game", "move"]


def test_network_cannot_change_the_game():
    link, t = _link()
    link.connected(0)
    gid = link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    link.move(2, "W", "C3", 0)
    bad = (
        ("go/v1/club/b07/ack", b"not json"),
        ("go/v1/club/b07/ack", b'{"g": "9-9", "n": 2}'),
        ("go/v1/club/b07/ack", b'{"g": "1-1", "n": "2"}'),
        ("go/v1/club/b07/ack", b'{"n": 2}'),
        ("go/v1/club/b08/ack", json.dumps({"g": gid, "n": 2}).encode()),
        ("go/v1/club/b07/move", json.dumps({"g": gid, "n": 3, "c": "B", "p": "A1"}).encode()),
        ("go/v1/club/b07/game", b"{}"),
        ("go/v1/club/b07/ack", b"[" * 3000 + b"]" * 3000),  # issue 19: nesting
        ("go/v1/club/b07/ack", b'{"g": "1-1", "n": 1e999}'),
        ("go/v1/club/b07/ack", b"\xff\xfe"),
    )
    for tp, payload in bad:
        assert not link.message(tp, payload, 1)
    assert link.ignored == len(bad) and link.pending() == 2
    # an ack past the last ply cannot forget moves not yet played
    assert _ack(link, gid, 50)
    link.move(3, "B", "D4", 2)
    assert link.pending() == 1


def test_reboot_keeps_unacked_moves_and_the_game():
    journal = MemoryJournal()
    link, t = _link(journal)
    link.connected(0)
    gid = link.new_game(INFO, 0)
    for n in range(1, 6):
        link.move(n, "B" if n % 2 else "W", "pass", n)
    _ack(link, gid, 2)
    # power cut; the board starts again from the same journal
    link2, t2 = _link(journal)
    assert link2.boot == 2 and link2.pending() == 3
    assert link2.current.gid == gid and link2.current.last == 5
    link2.connected(0)
    assert t2.kinds() == ["status", "game", "move", "move", "move"]
    assert t2.moves() == [(gid, 3), (gid, 4), (gid, 5)]
    assert t2.sent[0][1]["boot"] == 2
    link2.move(6, "W", "E5", 10)
    link2.result("B+R", "resign", 11)
    _ack(link2, gid, 6)
    assert link2.pending() == 1  # the result
    link2.poll(20000)
    assert t2.kinds()[-1] == "result" and t2.sent[-1][1]["result"] == "B+R"
    _ack(link2, gid, 6, end=True)
    assert link2.pending() == 0 and link2.games == []
    assert link2.new_game(INFO, 0) == "2-1"  # ids never repeat: the boot counter is in it
    link3, _t3 = _link(journal)
    assert link3.boot == 3 and [g.gid for g in link3.games] == ["2-1"]


def test_retraction_replaces_later_plies():
    link, t = _link()
    link.connected(0)
    gid = link.new_game(INFO, 0)
    for n in (1, 2, 3):
        link.move(n, "B" if n % 2 else "W", "D%d" % n, 0)
    _ack(link, gid, 3)
    link.move(3, "B", "F5", 10)  # undo of ply 3, then another move
    assert link.pending() == 1 and link.current.acked == 2
    assert t.sent[-1][1] == {"g": gid, "n": 3, "c": "B", "p": "F5"}
    _ack(link, gid, 3)
    assert link.pending() == 0


def test_clock_is_rate_limited_and_not_journaled():
    journal = MemoryJournal()
    link, t = _link(journal, clock_ms=1000)
    state = {"B": {"main_ms": 1000, "penalty": 0}, "W": {"main_ms": 900, "penalty": 1}}
    assert not link.clock(state, 0)  # offline
    link.connected(0)
    link.new_game(INFO, 0)
    before = len(journal.records())
    assert link.clock(state, 0, running="B")
    assert not link.clock(state, 500)
    assert link.clock(state, 1000)
    assert link.clock(state, 1200, force=True)
    clocks = [(p, q, r) for tp, p, q, r in t.sent if tp.endswith("/clock")]
    assert len(clocks) == 3 and clocks[0][1:] == (0, False)
    assert clocks[0][0]["run"] == "B" and clocks[0][0]["W"]["penalty"] == 1
    assert len(journal.records()) == before


def test_journal_is_compacted():
    journal = MemoryJournal()
    link, _t = _link(journal, compact_at=50)
    link.connected(0)
    for _game in range(5):
        gid = link.new_game(INFO, 0)
        for n in range(1, 31):
            link.move(n, "B" if n % 2 else "W", "pass", 0)
            _ack(link, gid, n)
        link.result("Draw", "count", 0)
        _ack(link, gid, 30, end=True)
    assert len(journal.records()) < 60


def _tmpdir():
    try:
        import tempfile

        return tempfile.mkdtemp()
    except ImportError:  # MicroPython: its file system is in memory
        try:
            os.mkdir("/tmp")
        except OSError:
            pass
        return "/tmp"


def test_file_journal_round_trip_and_torn_tail():
    path = _tmpdir() + "/relay.jsonl"
    try:
        os.remove(path)
    except OSError:
        pass
    journal = FileJournal(path)
    link, _t = _link(journal)
    gid = link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    link.move(2, "W", "C3", 0)
    with open(path, "a") as f:
        f.write('{"k": "move", "g": "1-1", "n"')  # power cut mid-write
    link2, t2 = _link(FileJournal(path))
    assert link2.boot == 2 and link2.pending() == 2
    link2.connected(0)
    assert t2.moves() == [(gid, 1), (gid, 2)]
    os.remove(path)


class FakeClient:
    """A client whose publish queues and returns at once (like paho-mqtt)."""

    def __init__(self):
        self.published = []
        self.subscribed = []

    def publish(self, t, payload, qos=0, retain=False):
        self.published.append((t, payload, qos, retain))

    def subscribe(self, t, qos=0):
        self.subscribed.append((t, qos))


def test_transport_wraps_a_client():
    link = RelayLink("club", "b07", MemoryJournal())
    client = FakeClient()
    tr = MqttTransport(client, link)
    link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    assert client.published == [] and tr.dropped == 0  # the link does not try while offline
    tr.up(100)
    assert client.subscribed == [("go/v1/club/b07/ack", 1), ("go/v1/club/b07/pairing", 1)]
    assert [p[0].split("/")[-1] for p in client.published] == ["status", "game", "move"]
    ack = json.dumps({"g": "1-1", "n": 1})
    assert tr.incoming(b"go/v1/club/b07/ack", ack, 200)
    assert link.pending() == 0
    tr.down()
    assert not link.online
    link.move(2, "W", "C3", 300)
    assert len(client.published) == 3 and link.pending() == 1


def test_resends_back_off_while_the_relay_does_not_answer_and_recover_on_progress():
    # Issue 19: a relay that fell behind is not buried under copies: each round of resends
    # without progress doubles the wait (up to 8 x resend_ms); an ack brings it back.
    link, t = _link(resend_ms=1000)
    link.connected(0)
    gid = link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    link.poll(0)
    rounds = []
    for now in range(100, 40000, 100):
        if link.poll(now):
            rounds.append(now)
    gaps = [b - a for a, b in zip(rounds, rounds[1:])]
    assert gaps[:4] == [2000, 4000, 8000, 8000], rounds
    assert _ack(link, gid, 1) and link.backoff_ms == 1000
    link.move(2, "W", "C3", 40000)
    link.poll(40000)
    assert link.poll(41000) == 1  # the normal wait again


PAIRING = {"round": 3, "table": 12, "B": {"name": "Ito Ann", "rank": "3d"},
           "W": {"name": "Kim Bo", "rank": "1k"}, "handicap": 0, "komi": 6.5}  # fmt: skip


def test_pairing_from_the_director_is_kept_and_cannot_change_a_game():
    link, t = _link()
    seen = []
    link.on_pairing = seen.append
    link.connected(0)
    gid = link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    mine = topic("club", "b07", "pairing")
    assert link.message(mine, json.dumps(PAIRING).encode(), 1)
    assert link.pairing == PAIRING and seen == [PAIRING]
    assert link.message(mine, json.dumps(PAIRING), 2)  # the same again: no new call
    assert seen == [PAIRING]
    bad = (
        (topic("club", "b08", "pairing"), json.dumps(PAIRING).encode()),  # another board's
        (mine, b"not json"),
        (mine, b'{"round": "3", "B": {"name": "x"}, "W": {"name": "y"}}'),
        (mine, b'{"round": 3, "B": "x", "W": {"name": "y"}}'),
        (mine, b"[" * 3000 + b"]" * 3000),
        (mine, b"x" * 2000),
    )
    for tp, payload in bad:
        assert not link.message(tp, payload, 3)
    assert link.pairing == PAIRING and link.ignored == len(bad)
    assert link.current.gid == gid and link.pending() == 1  # the game is untouched
    assert "pairing" not in t.kinds()


def test_alerts_go_out_and_wait_while_offline():
    link, t = _link()
    link.new_game(INFO, 0)
    link.move(1, "B", "E5", 0)
    for i in range(12):  # offline: the last 8 wait
        link.alert("bowl-mismatch" if i % 2 else "stone-missing", 10 + i)
    assert t.sent == []
    link.connected(100)
    alerts = [p for tp, p, q, r in t.sent if tp.endswith("/alert")]
    assert len(alerts) == 8 and alerts[0]["t"] == 14 and alerts[-1]["t"] == 21
    assert alerts[0] == {"code": "stone-missing", "t": 14, "g": "1-1", "n": 1}
    assert all(q == 1 and not r for tp, p, q, r in t.sent if tp.endswith("/alert"))
    link.alert("sensor-fault", 200)
    assert t.sent[-1][1]["code"] == "sensor-fault"

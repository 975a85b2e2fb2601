"""The relay without a network: archive order, rules check, flags, restart, exports, page."""

import json
import threading
import time
import urllib.error
import urllib.request

import pytest

from host_tools import sgf_input
from host_tools.relay import exports
from host_tools.relay.service import Relay
from host_tools.relay.store import Store
from host_tools.relay.web import Broadcaster, LiveServer

INFO = {
    "g": "3-1",
    "size": 9,
    "rules": "chinese",
    "komi": 7.5,
    "round": 2,
    "players": {
        "B": {"name": "Ito Ann", "rank": "2d", "country": "FR", "club": "Pari", "aga": "101"},
        "W": {"name": "Bo Cheng", "rank": "1k", "country": "DE", "club": "Berl", "aga": "202"},
    },
}


class Acks:
    def __init__(self):
        self.sent = []

    def __call__(self, topic, payload, qos, retain):
        self.sent.append((topic, json.loads(payload), qos, retain))

    def last(self):
        return self.sent[-1][1]


def _relay(tmp_path, events=None):
    acks = Acks()
    relay = Relay(Store(str(tmp_path / "relay.sqlite")), "club", acks, events)
    return relay, acks


def _msg(relay, kind, payload, board="t1", now=0):
    return relay.handle("go/v1/club/%s/%s" % (board, kind), json.dumps(payload).encode(), now)


def _move(relay, n, c, p, board="t1", gid="3-1"):
    return _msg(relay, "move", {"g": gid, "n": n, "c": c, "p": p}, board)


def test_moves_stored_once_in_order_with_gaps_filled(tmp_path):
    relay, acks = _relay(tmp_path)
    assert _move(relay, 1, "B", "E5") == "unknown-game" and acks.sent == []
    _msg(relay, "game", INFO)
    assert _move(relay, 1, "B", "E5") == "move"
    assert acks.sent[-1] == ("go/v1/club/t1/ack", {"g": "3-1", "n": 1, "end": False}, 1, True)
    _move(relay, 3, "B", "D4")  # ply 2 lost on the way
    assert acks.last()["n"] == 1
    assert _move(relay, 1, "B", "E5") == "duplicate"
    _move(relay, 2, "W", "C3")
    assert acks.last()["n"] == 3
    rows = relay.store.moves("club", "t1", "3-1")
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        (1, "B", "E5", "legal"),
        (2, "W", "C3", "legal"),
        (3, "B", "D4", "legal"),
    ]
    seqs = [r[0] for r in relay.store.all_moves()]
    assert seqs == sorted(seqs)
    _msg(relay, "result", {"g": "3-1", "n": 4, "result": "B+R", "reason": "resign"})
    assert acks.last() == {"g": "3-1", "n": 3, "end": False}  # ply 4 still missing
    _move(relay, 4, "W", "pass")
    assert acks.last() == {"g": "3-1", "n": 4, "end": True}


def test_illegal_move_is_flagged_and_holds_the_game(tmp_path):
    events = []
    relay, acks = _relay(tmp_path, lambda kind, data: events.append((kind, data)))
    _msg(relay, "game", INFO)
    _move(relay, 1, "B", "E5")
    _move(relay, 2, "W", "E5")  # occupied
    _move(relay, 3, "B", "D4")
    _move(relay, 4, "W", "Z99")
    assert acks.last()["n"] == 4  # archived (the board may forget them), never shown
    status = [r[3] for r in relay.store.moves("club", "t1", "3-1")]
    assert status == ["legal", "illegal", "held", "held"]
    flags = relay.store.flags()
    assert [(f[3], f[4]) for f in flags] == [(2, "illegal")]
    assert "occupied" in flags[0][5]
    shown = [d.get("last") for k, d in events if k == "board"]
    assert {"c": "W", "p": "E5"} not in shown and {"c": "B", "p": "D4"} not in shown
    assert relay.views()[0]["held"] is True and relay.views()[0]["n"] == 1


def test_conflicting_rewrite_is_flagged_not_stored(tmp_path):
    relay, _acks = _relay(tmp_path)
    _msg(relay, "game", INFO)
    _move(relay, 1, "B", "E5")
    _move(relay, 2, "W", "C3")
    assert _move(relay, 2, "W", "G7") == "rewrite"
    assert _move(relay, 2, "W", "G7") == "rewrite"
    assert relay.store.move("club", "t1", "3-1", 2)[:2] == ("W", "C3")
    flags = relay.store.flags()
    assert len(flags) == 1 and flags[0][4] == "rewrite" and "G7" in flags[0][5]
    _msg(relay, "result", {"g": "3-1", "n": 2, "result": "B+R", "reason": "resign"})
    _msg(relay, "result", {"g": "3-1", "n": 2, "result": "W+R", "reason": "resign"})
    assert relay.store.flags()[-1][4] == "result-rewrite"


def test_messages_of_other_topics_are_ignored_and_malformed_ones_quarantined(tmp_path):
    relay, acks = _relay(tmp_path)
    _msg(relay, "game", INFO)
    before = relay.ignored
    for topic, payload in (
        ("go/v1/other/t1/move", json.dumps({"g": "3-1", "n": 1, "c": "B", "p": "E5"})),
        ("go/v1/club/t1/ack", json.dumps({"g": "3-1", "n": 9})),
        ("elsewhere/t1", b"{}"),
    ):
        assert relay.handle(topic, payload, 0) is None
    assert relay.ignored - before == 3
    bad = (
        b"garbage",
        b"[1, 2]",
        json.dumps({"g": "3-1", "n": "1", "c": "B", "p": "E5"}),
        json.dumps({"g": "3-1", "n": 1, "c": "X", "p": "E5"}),
    )
    for payload in bad:
        assert relay.handle("go/v1/club/t1/move", payload, 0) == "quarantined"
    assert relay.store.all_moves() == [] and len(acks.sent) == 1  # only the game's ack
    kept = relay.store.quarantined()
    assert [q[3] for q in kept] == [p if isinstance(p, bytes) else p.encode() for p in bad]
    assert all(q[4] for q in kept)  # each with its reason
    assert [f[4] for f in relay.store.flags()] == ["quarantined"] * 4
    assert relay.views()[0]["quarantined"] == 4


def test_restart_restores_games_from_the_archive(tmp_path):
    relay, _acks = _relay(tmp_path)
    _msg(relay, "status", {"state": "online", "boot": 3})
    _msg(relay, "game", INFO)
    for n, c, p in ((1, "B", "E5"), (2, "W", "D5"), (3, "B", "C5")):
        _move(relay, n, c, p)
    relay.store.close()
    relay2, acks2 = _relay(tmp_path)
    relay2.restore()
    view = relay2.views()[0]
    assert view["n"] == 3 and view["last"] == {"c": "B", "p": "C5"}
    assert view["rows"][4][2:5] == "BWB"
    assert _move(relay2, 2, "W", "D5") == "duplicate" and acks2.last()["n"] == 3
    _move(relay2, 4, "W", "D5")  # occupied: the rules core was rebuilt too
    assert relay2.store.flags()[-1][4] == "illegal"


def test_silent_board_shows_offline(tmp_path):
    events = []
    relay = Relay(Store(str(tmp_path / "r.sqlite")), None, None, lambda k, d: events.append(d))
    relay.offline_ms = 20000
    _msg(relay, "status", {"state": "online", "boot": 1}, now=1000)
    relay.tick(15000)
    assert relay.views()[0]["online"] is True
    relay.tick(21001)
    assert relay.views()[0]["online"] is False and events[-1]["online"] is False
    _msg(relay, "status", {"state": "offline"}, board="t2", now=1000)
    assert [v["online"] for v in relay.views()] == [False, False]


def _finished_archive(tmp_path):
    relay, _acks = _relay(tmp_path)
    _msg(relay, "game", INFO)
    moves = [(1, "B", "E5"), (2, "W", "C3"), (3, "B", "pass"), (4, "W", "G7")]
    for n, c, p in moves:
        _move(relay, n, c, p)
    _msg(relay, "result", {"g": "3-1", "n": 4, "result": "B+2.5", "reason": "count"})
    info2 = dict(INFO, g="3-2", round=3, handicap=2)
    info2["players"] = {"B": INFO["players"]["W"], "W": INFO["players"]["B"]}
    _msg(relay, "game", info2)
    _move(relay, 1, "B", "E5", gid="3-2")
    _msg(relay, "result", {"g": "3-2", "n": 1, "result": "W+R", "reason": "resign"})
    return relay.store


def test_sgf_export_round_trips(tmp_path):
    store = _finished_archive(tmp_path)
    paths = exports.write_sgf(store, str(tmp_path / "sgf"))
    assert [p.rsplit("/", 1)[1] for p in paths] == ["club-t1-3-1.sgf", "club-t1-3-2.sgf"]
    record = sgf_input.load(paths[0])
    assert record.size == 9 and record.komi == 7.5
    assert record.moves == [("b", (4, 4)), ("w", (2, 2)), ("b", None), ("w", (6, 6))]
    text = open(paths[0]).read()
    assert "RE[B+2.5]" in text and "PB[Ito Ann]" in text and "BR[2d]" in text


def test_egd_and_aga_exports(tmp_path):
    store = _finished_archive(tmp_path)
    games = exports.finished_games(store)
    assert len(games) == 2
    egd = exports.egd(games, "Club Cup")
    lines = [line for line in egd.splitlines() if not line.startswith(";")]
    # Ito Ann won both: round 2 with Black (even), round 3 with White (Bo had 2 stones)
    assert lines[0].split()[:6] == ["1", "Ito", "Ann", "2d", "FR", "Pari"]
    assert lines[0].split()[-2:] == ["2+/b0", "2+/w2"]
    assert lines[1].split()[-2:] == ["1-/w0", "1-/b2"]
    assert "; EV[Club Cup]" in egd
    aga = exports.aga(games, "Club Cup").splitlines()
    assert aga[0] == "TOURNEY Club Cup"
    assert "101 Ito, Ann 2d" in aga and "202 Bo, Cheng 1k" in aga
    assert aga[aga.index("GAMES") + 1 :] == ["202 101 B 0 7.5", "101 202 W 2 7.5"]
    only3 = exports.finished_games(store, round_no=3)
    assert len(only3) == 1 and only3[0][0] == 3


def test_broadcast_delay_and_resume():
    clock = [100.0]
    b = Broadcaster(delay_s=5, clock=lambda: clock[0])
    b.push("board", {"event": "e", "board": "t1", "g": "1-1", "n": 1})
    b.release()
    assert b.snapshot() == (0, [])
    clock[0] = 105.0
    b.release()
    seq, boards = b.snapshot()
    assert seq == 1 and boards[0]["n"] == 1
    b.push("clock", {"event": "e", "board": "t1", "g": "1-1", "clock": {"run": "B"}})
    b.push("board", {"event": "e", "board": "t1", "g": "1-1", "n": 2})
    clock[0] = 110.0
    b.release()
    assert [e[0] for e in b.since(1)] == [2, 3]
    assert b.snapshot()[1][0]["clock"] == {"run": "B"} and b.snapshot()[1][0]["n"] == 2
    assert b.parse_id(b.event_id(2)) == 2 and b.parse_id("0:2") is None
    small = Broadcaster(ring=2)
    for n in range(5):
        small.push("board", {"event": "e", "board": "t1", "n": n})
    assert small.since(1) is None and [e[0] for e in small.since(3)] == [4, 5]


def _read_events(url, headers, count, timeout=5):
    req = urllib.request.Request(url, headers=headers)
    out = []
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        ev = {}
        for raw in resp:
            line = raw.decode().rstrip("\n")
            if line.startswith(("id", "event", "data")):
                k, _, v = line.partition(": ")
                ev[k] = v
            elif line == "" and "data" in ev:
                out.append(ev)
                ev = {}
                if len(out) == count:
                    return out
    return out


def test_live_page_streams_and_resumes_over_http():
    b = Broadcaster()
    server = LiveServer(("127.0.0.1", 0), b)
    server.start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    try:
        b.push("board", {"event": "e", "board": "t1", "g": "1-1", "n": 1, "last": None})
        page = urllib.request.urlopen(base + "/").read().decode()
        assert '<script src="/page.js">' in page
        assert "EventSource" in urllib.request.urlopen(base + "/page.js").read().decode()
        first = _read_events(base + "/events", {}, 1)
        assert first[0]["event"] == "snapshot"
        assert json.loads(first[0]["data"])["boards"][0]["n"] == 1
        last_id = first[0]["id"]
        # the page is away while two moves happen; on reconnect it gets exactly those
        b.push("board", {"event": "e", "board": "t1", "g": "1-1", "n": 2})
        b.push("board", {"event": "e", "board": "t1", "g": "1-1", "n": 3})
        again = _read_events(base + "/events", {"Last-Event-ID": last_id}, 2)
        assert [(e["event"], json.loads(e["data"])["n"]) for e in again] == [
            ("board", 2),
            ("board", 3),
        ]
        # a live move reaches a connected page
        got = []
        t = threading.Thread(
            target=lambda: got.extend(
                _read_events(base + "/events", {"Last-Event-ID": again[-1]["id"]}, 1)
            )
        )
        t.start()
        time.sleep(0.3)
        b.push("board", {"event": "e", "board": "t1", "g": "1-1", "n": 4})
        t.join(5)
        assert json.loads(got[0]["data"])["n"] == 4
        stale = _read_events(base + "/events", {"Last-Event-ID": "old:3"}, 1)
        assert stale[0]["event"] == "snapshot"
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(urllib.request.Request(base + "/events", data=b"x"))
        assert err.value.code == 405
        boards = json.loads(urllib.request.urlopen(base + "/api/boards").read())["boards"]
        assert boards[0]["n"] == 4
    finally:
        server.stop()


def test_the_relay_is_connected_once_its_subscription_is_granted():
    """`connected` (and the page's "broker connected") only when the broker granted the
    subscription: a board's message published before would not reach the relay. A refused
    subscription (a broker's ACL without read for the relay's user) is said, not hidden."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    from host_tools.relay.service import MqttRelay

    said = []
    relay = Relay(None, "club")
    mqtt = MqttRelay(relay, "127.0.0.1", 1, on_status=lambda state, detail: said.append(state))
    denied = ReasonCode(PacketTypes.SUBACK, identifier=0x80)
    mqtt._on_subscribe(mqtt.client, None, 1, [denied], None)
    assert not mqtt.connected.is_set() and said == ["denied"]
    granted = ReasonCode(PacketTypes.SUBACK, identifier=1)  # QoS 1
    mqtt._on_subscribe(mqtt.client, None, 2, [granted], None)
    assert mqtt.connected.is_set() and said == ["denied", "connected"]

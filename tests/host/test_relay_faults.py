"""Issue 19: no message from a board can stop the relay, and its page is safe.

Each failure the independent fault injection found is reproduced: a huge integer, komi 1e308 or
Infinity, JSON nested a thousand deep (they stopped the archiving for good, and again after every
restart), board-supplied names rendered as HTML, no bound on sizes or connections. Then a seeded,
bounded fuzz of every message kind with the invariant: handle() never raises, a refused message
changes nothing but the quarantine, and every other board's moves are archived once, in order.
"""

import json
import random
import socket
import time
import urllib.error
import urllib.request

from host_tools.relay.service import Relay
from host_tools.relay.store import Store
from host_tools.relay.web import CSP, Broadcaster, LiveServer

INFO = {"g": "1-1", "size": 9, "rules": "chinese", "komi": 7.5, "players": {"B": "A", "W": "B"}}
MOVES = [(1, "B", "E5"), (2, "W", "C3"), (3, "B", "D4"), (4, "W", "pass")]


def _relay(tmp_path, events=None):
    acks = []
    relay = Relay(
        Store(str(tmp_path / "relay.sqlite")),
        "club",
        lambda t, p, q, r: acks.append((t, json.loads(p))),
        events,
    )
    return relay, acks


def _send(relay, board, kind, payload, now=0):
    if not isinstance(payload, (bytes, str)):
        payload = json.dumps(payload)
    return relay.handle("go/v1/club/%s/%s" % (board, kind), payload, now)


def _state(relay):
    """Everything a refused message must leave alone."""
    return (relay.store.all_moves(), relay.store.games(), relay.views())


BIG = "1" + "0" * 400
NAMED_FAILURES = [
    ("move", '{"g": "1-1", "n": %s, "c": "B", "p": "E5"}' % BIG),  # a huge integer
    ("move", '{"g": "1-1", "n": 1, "c": "B", "p": "E5", "t": %s}' % BIG),
    ("move", '{"g": "1-1", "n": 1, "c": "B", "p": "E5", "t": 9223372036854775808}'),
    ("game", '{"g": "2-1", "size": 9, "rules": "chinese", "komi": 1e308}'),
    ("game", '{"g": "2-2", "size": 9, "rules": "chinese", "komi": Infinity}'),
    ("game", '{"g": "2-3", "size": 9, "rules": "chinese", "komi": NaN}'),
    ("game", '{"g": "2-4", "size": 9, "rules": "chinese", "komi": -Infinity}'),
    ("move", "[" * 1000 + "]" * 1000),  # JSON nested a thousand deep
    ("game", '{"g": "2-5", "x": ' + "[" * 1000 + "]" * 1000 + "}"),
    ("clock", '{"g": "1-1", "run": "B", "B": {"main_ms": 1e999}}'),
    ("clock", '{"g": "1-1", "run": "<b>", "B": {"penalty": "<img src=x onerror=alert(1)>"}}'),
    ("status", '{"state": "online", "boot": "<script>alert(1)</script>"}'),
    ("game", json.dumps(dict(INFO, g="2-6", players={"B": "x" * 5000, "W": "y"}))),
    ("move", b"\xff\xfe\x00"),
    ("move", '{"g": "1-1", "n": 5, "c": "B", "p": "' + "E" * 9000 + '"}'),
    ("result", '{"g": "1-1", "n": 4, "result": 7}'),
]


def test_each_named_failure_is_quarantined_once_and_archiving_goes_on(tmp_path):
    relay, acks = _relay(tmp_path)
    _send(relay, "good", "game", INFO)
    _send(relay, "bad", "game", INFO)
    for n, c, p in MOVES[:2]:
        _send(relay, "good", "move", {"g": "1-1", "n": n, "c": c, "p": p})
    for kind, payload in NAMED_FAILURES:
        before = _state(relay)
        got = _send(relay, "bad", kind, payload)
        assert got in ("quarantined", None) or got == "game", (kind, payload[:60], got)
        after = _state(relay)
        assert after[0] == before[0]  # no move stored or lost
        if got == "quarantined":
            assert [v for v in after[2] if v["board"] == "good"] == [
                v for v in before[2] if v["board"] == "good"
            ]
    for n, c, p in MOVES[2:]:  # the good board goes on, the bad one too
        assert _send(relay, "good", "move", {"g": "1-1", "n": n, "c": c, "p": p}) == "move"
    assert _send(relay, "bad", "move", {"g": "1-1", "n": 1, "c": "B", "p": "E5"}) == "move"
    assert [r[1:3] for r in relay.store.moves("club", "good", "1-1")] == [
        (c, p) for _n, c, p in MOVES
    ]
    kept = relay.store.quarantined()
    assert len(kept) >= len(NAMED_FAILURES) - 5 and all(q[1] == "bad" for q in kept)
    view = [v for v in relay.views() if v["board"] == "bad"][0]
    assert view["quarantined"] >= len(kept)
    assert "<script>" not in json.dumps(relay.views())  # the bad boot never reached a view
    # a game komi 1e15 (within the message bounds) is a flagged bad game, not a crash
    assert _send(relay, "bad", "game", dict(INFO, g="3-1", komi=1e15)) is None
    assert relay.store.flags()[-1][4] == "bad-game"
    # the same bytes again are counted, not kept twice
    _send(relay, "bad", *NAMED_FAILURES[0])
    assert len(relay.store.quarantined()) == len(kept)
    assert relay.store.quarantined()[0][5] == 2


def test_a_restart_does_not_bring_a_bad_message_back(tmp_path):
    relay, _acks = _relay(tmp_path)
    _send(relay, "good", "game", INFO)
    _send(relay, "bad", "game", '{"g": "2-1", "size": 9, "rules": "chinese", "komi": 1e308}')
    relay.store.close()
    relay2, _acks = _relay(tmp_path)
    relay2.restore()  # the archive holds nothing that fails on restore
    assert _send(relay2, "good", "move", {"g": "1-1", "n": 1, "c": "B", "p": "E5"}) == "move"
    assert len(relay2.store.quarantined()) == 1


def test_a_failing_archive_is_quarantined_not_raised(tmp_path):
    relay, _acks = _relay(tmp_path)
    _send(relay, "good", "game", INFO)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    relay.store.add_move = broken
    assert _send(relay, "good", "move", {"g": "1-1", "n": 1, "c": "B", "p": "E5"}) == (
        "quarantined"
    )
    assert relay.stats["quarantined"] == 1


def _mutate(rng, text):
    """One seeded mutation of a valid message's JSON text."""
    choice = rng.randrange(9)
    if choice == 0 and text:  # cut
        return text[: rng.randrange(len(text))]
    if choice == 1:  # a byte flipped
        b = bytearray(text.encode())
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if choice == 2:  # a value replaced by something odd
        odd = rng.choice(
            ["1e308", "-1e308", "NaN", "Infinity", BIG, "null", "true", '"x"', "[]", "{}",
             '"' + "<script>" * 40 + '"', "[" * 200 + "]" * 200, "-0", "0.5", "-1"]
        )  # fmt: skip
        obj = json.loads(text)
        key = rng.choice(sorted(obj))
        return text.replace(json.dumps(obj[key]), odd, 1)
    if choice == 3:  # a key dropped
        obj = json.loads(text)
        obj.pop(rng.choice(sorted(obj)), None)
        return json.dumps(obj)
    if choice == 4:  # an extra key
        obj = json.loads(text)
        obj["x%d" % rng.randrange(9)] = rng.choice([1, "y", [1], {"z": 1}, None])
        return json.dumps(obj)
    if choice == 5:
        return "[" * rng.randrange(1, 3000)
    if choice == 6:
        return text * rng.randrange(2, 400)
    if choice == 7:
        return rng.choice([b"", b"\x00", "null", "1", '"s"', "[]", "{}"])
    return text


def test_fuzz_every_message_kind_never_stops_the_relay(tmp_path):
    """Seeded and bounded: 4000 mutated messages from one board, interleaved with a good board's
    game. Invariant: no exception, the good board's moves all archived once and in order, the
    bad board's refused messages change no move."""
    rng = random.Random(19)
    relay, _acks = _relay(tmp_path)
    _send(relay, "good", "game", INFO)
    valid = [
        ("game", json.dumps(dict(INFO, g="5-1"))),
        ("move", json.dumps({"g": "5-1", "n": 1, "c": "B", "p": "E5", "t": 1000})),
        ("clock", json.dumps({"g": "5-1", "n": 1, "run": "W", "B": {"main_ms": 5}, "W": None})),
        ("status", json.dumps({"state": "online", "boot": 4})),
        ("result", json.dumps({"g": "5-1", "n": 1, "result": "B+R", "reason": "resign"})),
    ]
    tried = 0
    outcomes = {}
    good = []
    for i in range(4000):
        kind, text = rng.choice(valid)
        payload = _mutate(rng, text)
        topic = "go/v1/club/bad/" + kind
        if rng.random() < 0.05:
            topic = rng.choice(["go/v1/club/bad/x", "go/v1/club//move", "go/v1/club/b a/move"])
        got = relay.handle(topic, payload, i)
        tried += 1
        outcomes[got] = outcomes.get(got, 0) + 1
        if i % 40 == 0 and len(good) < 60:
            n = len(good) + 1
            point = "pass" if n > 50 else "ABCDEFGHJ"[n % 9] + str(1 + n // 9)
            c = "B" if n % 2 else "W"
            relay.handle(
                "go/v1/club/good/move", json.dumps({"g": "1-1", "n": n, "c": c, "p": point}), i
            )
            good.append((n, c, point))
    print("relay fuzz: %d messages tried, outcomes %r" % (tried, outcomes))
    assert tried == 4000 and outcomes.get("quarantined", 0) > 1000
    stored = relay.store.moves("club", "good", "1-1")
    assert [(r[0], r[1], r[2]) for r in stored] == good
    assert [r[0] for r in relay.store.all_moves() if r[2] == "good"] == sorted(
        r[0] for r in relay.store.all_moves() if r[2] == "good"
    )


def _get(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_the_page_forbids_inline_script_and_escapes_board_text():
    from host_tools.relay import web

    server = LiveServer(("127.0.0.1", 0), Broadcaster())
    server.start()
    base = "http://127.0.0.1:%d/" % server.server_address[1]
    try:
        for path in ("", "page.js", "page.css", "api/boards", "nope"):
            status, headers, body = _get(base + path)
            assert headers.get("Content-Security-Policy") == CSP, path
            assert headers.get("X-Content-Type-Options") == "nosniff"
        status, headers, body = _get(base)
        html = body.decode()
        assert "<script>" not in html and "<style>" not in html and " on" not in html
        assert '<script src="/page.js">' in html
        assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    finally:
        server.stop()
    # Board-supplied text never becomes markup: the pages build their DOM with textContent
    # and attributes only, never innerHTML/outerHTML/insertAdjacentHTML/document.write.
    for path in ("/page.js", "/board.js", "/game.js"):
        js = web.STATIC[path][1].decode()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
            assert sink not in js, (path, sink)
        assert "textContent" in js


def _until(condition, timeout=15):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_live_connections_are_capped():
    b = Broadcaster()
    server = LiveServer(("127.0.0.1", 0), b, max_streams=2, max_connections=4)
    server.start()
    port = server.server_address[1]
    socks = []
    try:
        for _ in range(2):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            assert b"200" in s.recv(200)
            socks.append(s)
        status, headers, _ = _get("http://127.0.0.1:%d/events" % port)
        assert status == 503 and headers.get("Retry-After") == "10"
        _until(lambda: server.connections == 2)  # the refused page's connection has ended
        for n in (3, 4):  # idle connections up to the cap, then refusal
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            _until(lambda n=n: server.connections == n)
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        assert s.recv(100).startswith(b"HTTP/1.1 503")
        s.close()
        for s in socks:
            s.close()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (server.connections or server.streams):
            b.push("board", {"event": "club", "board": "t1", "n": 0})  # streams find the close
            time.sleep(0.05)
        assert server.connections == 0 and server.streams == 0
        assert _get("http://127.0.0.1:%d/api/boards" % port)[0] == 200  # serving again
    finally:
        server.stop()


def test_exports_keep_board_text_on_one_line(tmp_path):
    from host_tools import sgf_input
    from host_tools.relay import exports

    relay, _acks = _relay(tmp_path)
    players = {"B": {"name": "Ann\n1 Evil 9d", "rank": 5, "club": None}, "W": "Bo]\r\nW"}
    _send(relay, "t1", "game", dict(INFO, players=players, round=1))
    _send(relay, "t1", "move", {"g": "1-1", "n": 1, "c": "B", "p": "E5"})
    _send(relay, "t1", "result", {"g": "1-1", "n": 1, "result": "B+R", "reason": "resign"})
    games = exports.finished_games(relay.store)
    egd = exports.egd(games, "club")
    assert len(egd.splitlines()) == 7 + 2 and "Evil" in egd.splitlines()[-2] + egd.splitlines()[-1]
    aga = exports.aga(games, "club")
    assert all("\r" not in line for line in aga.splitlines())
    text = exports.sgf(relay.store.game("club", "t1", "1-1")["info"], relay.store.moves(
        "club", "t1", "1-1"), "B+R")  # fmt: skip
    assert sgf_input.parse(text.encode())  # a valid SGF


def test_an_archive_that_is_not_one_is_a_clear_error(tmp_path, capsys):
    from host_tools import cli

    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database " * 100)
    assert cli.main(["relay", "--export-sgf", str(tmp_path / "out"), "--db", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "file is not a database" in err


def test_one_board_cannot_grow_the_relay_without_bound(tmp_path):
    # A relay without --event keeps every event; one board publishing under endless event
    # names gets MAX_EVENTS of them, the rest is quarantined (kept once each, bounded too).
    from host_tools.relay import service

    relay = Relay(Store(str(tmp_path / "relay.sqlite")), None, lambda *a: None)
    got = [
        relay.handle("go/v1/ev%d/spam/status" % i, b'{"state": "online"}', i) for i in range(40)
    ]
    assert got[: service.MAX_EVENTS] == ["status"] * service.MAX_EVENTS
    assert set(got[service.MAX_EVENTS :]) == {"quarantined"}
    assert len(relay.views()) == service.MAX_EVENTS
    assert relay.handle("go/v1/ev0/other/status", b'{"state": "online"}', 99) == "status"

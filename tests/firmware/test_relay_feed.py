"""The device's club relay link (issue 16): network settings on flash, the app's events into
RelayLink (relay_feed.py), and the mqtt_as client built from the settings."""

from expect import raises
from ingboard.link import network_settings as ns
from ingboard.link.relay_feed import RelayFeed, from_settings
from ingboard.link.relay_link import MemoryJournal, RelayLink

NET = {
    "ssid": "club",
    "wifi_password": "wifi secret",
    "broker": "10.0.0.2",
    "port": 1883,
    "event": "spring-open",
    "board": "t12",
    "password": "pw-t12",
}


class Sent:
    """A transport that takes every message."""

    def __init__(self):
        self.out = []

    def publish(self, topic, payload, qos, retain):
        self.out.append((topic, payload))
        return True


class Ticks:
    def __init__(self):
        self.now = 5000

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b


def test_network_settings_round_trip_and_every_bad_entry():
    assert ns.parse(ns.text(NET)) == NET
    for key, value, words in (
        ("ssid", "", "ssid"),
        ("port", 0, "port"),
        ("port", "1883", "port"),
        ("board", "t/12", "board"),
        ("event", "#", "event"),
        ("broker", "", "broker"),
        ("password", None, "password"),
    ):
        bad = dict(NET)
        bad[key] = value
        assert words in str(raises(ValueError, ns.text, bad)), key
    assert "JSON" in str(raises(ValueError, ns.parse, "{"))
    assert "format" in str(raises(ValueError, ns.parse, '{"format": 2}'))


def test_the_feed_hands_moves_passes_and_the_result_to_the_link():
    ticks = Ticks()
    link = RelayLink("club", "t12", MemoryJournal())
    sent = Sent()
    link.transport = sent
    feed = RelayFeed(link, ticks.ticks_ms, ticks.ticks_diff)
    link.connected(0)
    gid = feed.new_game({"size": 9, "rules": "ing1991", "komi": 8, "bowls": {}})
    assert link.current.info["size"] == 9 and "bowls" not in link.current.info
    ticks.now += 1000
    feed.event({"t": 10, "type": "move", "n": 1, "color": "B", "point": "E5", "captures": []})
    feed.event({"t": 20, "type": "pass", "n": 2, "color": "W"})
    feed.event({"t": 30, "type": "alert", "code": "ko", "points": []})  # for the director
    feed.event({"t": 40, "type": "end", "result": "B+R", "reason": "resign"})
    topics = [t.split("/")[-1] for t, _p in sent.out]
    assert topics.count("move") == 2 and topics[-1] == "result"
    assert topics.count("alert") == 1 and '"code":"ko"' in sent.out[topics.index("alert")][1]
    assert link.pending() and link.current.gid == gid
    assert feed.now() == 1000  # the link's time runs since boot, not since the game


def test_the_directors_pairing_names_the_players_of_the_next_game():
    ticks = Ticks()
    link = RelayLink("club", "t12", MemoryJournal())
    feed = RelayFeed(link, ticks.ticks_ms, ticks.ticks_diff)
    assert feed.names() is None
    pairing = '{"round": 2, "table": 12, "B": {"name": "Ito Ann", "rank": "3d"}, '
    pairing += '"W": {"name": "Kim Bo", "rank": "1k"}, "handicap": 0}'
    assert link.message("go/v1/club/t12/pairing", pairing, 0)
    assert feed.names() == ("Ito Ann", "Kim Bo")
    feed.new_game({"size": 19, "rules": "ing1991", "komi": 8})
    info = link.current.info
    assert info["players"]["B"]["name"] == "Ito Ann" and info["round"] == 2
    # names the app set itself (its settings) win
    feed.new_game({"size": 19, "rules": "ing1991", "players": {"B": "A", "W": "B"}})
    assert link.current.info["players"] == {"B": "A", "W": "B"}


def test_no_settings_damaged_settings_and_no_mqtt_as_mean_offline():
    import os

    root = "/tmp/ingboard-test-relay-feed"
    try:
        os.mkdir(root)
    except OSError:
        pass
    path = root + "/network.json"
    journal = root + "/relay.jsonl"
    try:
        os.remove(path)
    except OSError:
        pass
    ticks = Ticks()
    said = []
    assert from_settings(path, journal, ticks.ticks_ms, ticks.ticks_diff, log=said.append) == (
        None,
        None,
    )
    with open(path, "w") as f:
        f.write('{"format": 1}')
    assert from_settings(path, journal, ticks.ticks_ms, ticks.ticks_diff, log=said.append) == (
        None,
        None,
    )
    assert "not used" in said[-1]
    with open(path, "w") as f:
        f.write(ns.text(NET))
    try:
        import mqtt_as  # noqa: F401 (installed on a board, not on the test machines)
    except ImportError:
        got = from_settings(path, journal, ticks.ticks_ms, ticks.ticks_diff, log=said.append)
        assert got == (None, None) and "mqtt_as is not installed" in said[-1]

    class FakeMqttAs:
        config = {"keepalive": 60, "ssid": None, "queue_len": 0}

        class MQTTClient:
            def __init__(self, config):
                self.config = config

    feed, transport = from_settings(
        path, journal, ticks.ticks_ms, ticks.ticks_diff, mqtt_as=FakeMqttAs, log=said.append
    )
    cfg = transport.client.config
    assert cfg["ssid"] == "club" and cfg["wifi_pw"] == "wifi secret"
    assert cfg["server"] == "10.0.0.2" and cfg["port"] == 1883
    assert cfg["user"] == "t12" and cfg["password"] == "pw-t12" and cfg["client_id"] == "t12"
    assert cfg["will"][0] == "go/v1/spring-open/t12/status" and cfg["subs_cb"] is not None
    assert FakeMqttAs.config["ssid"] is None  # the module's defaults are not changed
    assert feed.link is transport.link and transport.asynchronous


class Timed:
    """A transport that takes every message, with the virtual time it was sent at."""

    def __init__(self, vt):
        self.vt = vt
        self.out = []

    def publish(self, topic, payload, qos, retain):
        import json

        self.out.append((self.vt.now, topic.split("/")[-1], json.loads(payload)))
        return True


def test_the_app_sends_both_clocks_and_the_running_side_at_every_move_press_and_each_second():
    # Issue 18: the live page runs the side the board says runs, from the board's clock
    # messages; a board that never says who runs leaves every clock on the page standing.

    from app_fakes import VirtualTime, clear_records, hardware
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore
    from test_app import LOG  # Ing 1991, 600 s basic time; B E5 at 1000, press 1500, ...

    root = "/tmp/ingboard-test-relay-feed-app"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    link = RelayLink("club", "t12", MemoryJournal())
    link.transport = Timed(vt)
    link.connected(0)
    hw["relay"] = RelayFeed(link, vt.ticks_ms, vt.ticks_diff)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 6000)
    assert app.errors == {} and len(app.tracker.game.plies) == 2
    out = [m for m in link.transport.out if m[1] in ("move", "clock")]
    clocks = [(t, m) for t, kind, m in out if kind == "clock"]
    # Every move is followed at once by the clocks as of that move.
    for i in range(len(out)):
        if out[i][1] == "move":
            t, kind, m = out[i + 1]
            assert kind == "clock" and t == out[i][0] and m["n"] == out[i][2]["n"]
    # Each press switches the side that runs, told at once (within the keys' period).
    runs = []
    for t, m in clocks:
        if not runs or runs[-1][1] != m["run"]:
            runs.append((t, m["run"]))
    assert [r[1] for r in runs] == ["B", "W", "B"]
    assert 1500 <= runs[1][0] < 1600 and 3500 <= runs[2][0] < 3600
    # At least once a second in between (the relay task polls every 100 ms), with every
    # field the relay shows.
    for i in range(1, len(clocks)):
        assert clocks[i][0] - clocks[i - 1][0] <= 1000 + 100
    for _t, m in clocks:
        assert m["g"] == link.current.gid
        for c in ("B", "W"):
            keys = sorted(m[c])
            assert keys == ["forfeit", "main_ms", "penalty", "period", "period_ms", "stones"]
    # Only the running side's time goes down, by the time between the messages (board time
    # is the app's virtual time here: Black's clock started at 0).
    assert clocks[0][1]["B"]["main_ms"] == 600000 - clocks[0][0]
    for i in range(1, len(clocks)):
        (t0, a), (t1, b) = clocks[i - 1], clocks[i]
        if a["run"] == b["run"]:
            ran, stood = a["run"], "W" if a["run"] == "B" else "B"
            assert b[ran]["main_ms"] == a[ran]["main_ms"] - (t1 - t0)
            assert b[stood]["main_ms"] == a[stood]["main_ms"]
    assert len([1 for t, m in clocks if t > runs[2][0]]) >= 2  # the last stretch is checked


def test_face_names_in_the_clock_faces_font():
    from ingboard.link.relay_feed import face_text

    assert face_text("Müller Jürgen") == "MULLER JURGEN"
    assert face_text("O'Connor Seán 2k") == "OCONNOR SEAN 2K"
    assert face_text("Dvořák Łukasz") == "DVORAK LUKASZ"
    assert face_text("高 传德") == "? ??"
    assert len(face_text("x" * 80)) == 31
    link = RelayLink("club", "t12", MemoryJournal())
    feed = RelayFeed(link, Ticks().ticks_ms, Ticks().ticks_diff)
    assert feed.face_names() is None
    pairing = '{"round": 2, "table": 12, "B": {"name": "Müller Jürgen", "rank": "1d"}, '
    pairing += '"W": {"name": "Ito Ann"}, "handicap": 0}'
    assert link.message("go/v1/club/t12/pairing", pairing, 0)
    assert feed.face_names() == ("T12 MULLER JURGEN 1D", "T12 ITO ANN")


def test_a_dispute_on_the_board_reaches_the_director():
    from app_fakes import VirtualTime, clear_records, hardware
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore
    from test_app import LOG

    root = "/tmp/ingboard-test-relay-feed-dispute"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    link = RelayLink("club", "t12", MemoryJournal())
    link.transport = Timed(vt)
    link.connected(0)
    hw["relay"] = RelayFeed(link, vt.ticks_ms, vt.ticks_diff)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 2000, stop=False)
    app.cmd_button({"name": "dispute"})
    vt.drive(app, 3000)
    alerts = [m for _t, kind, m in link.transport.out if kind == "alert"]
    codes = [a["code"] for a in alerts]  # the game's own alerts (the log has one), and:
    assert codes.count("dispute") == 1 and codes[-1] == "dispute" and app.errors == {}

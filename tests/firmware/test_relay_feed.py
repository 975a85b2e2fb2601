"""The device's club relay link (issue 16): network settings on flash, the app's events into
RelayLink (relay_feed.py), and the mqtt_as client built from the settings."""

from expect import raises
from ingboard import network_settings as ns
from ingboard.relay_feed import RelayFeed, from_settings
from ingboard.relay_link import MemoryJournal, RelayLink

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
    feed.event({"t": 30, "type": "alert", "code": "ko", "points": []})  # not for the relay
    feed.event({"t": 40, "type": "end", "result": "B+R", "reason": "resign"})
    topics = [t.split("/")[-1] for t, _p in sent.out]
    assert topics.count("move") == 2 and topics[-1] == "result"
    assert link.pending() and link.current.gid == gid
    assert feed.now() == 1000  # the link's time runs since boot, not since the game


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

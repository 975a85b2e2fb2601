"""Issue 16: the device app publishes its game to real mosquitto through RelayLink, and the
relay archives it; with the broker down the game goes on and catches up later.

The app is the firmware's own (app.py on the fake drivers of tests/firmware/app_fakes.py) with
the relay link main.py builds (relay_feed.RelayFeed over relay_link.RelayLink with the board's
file journal and drivers/mqtt_transport.MqttTransport). On the device the transport's client is
Peter Hinch's mqtt_as over the CYW43439 radio; it cannot be installed on this PC (see
docs/relay.md), so the network interface here is paho-mqtt on loopback, its callbacks queued
and handed to the transport from the app's own game task (the app is single-threaded, like the
board's asyncio loop). The app runs in virtual time; the broker and relay in real time.
"""

import collections
import os
import time

import paho.mqtt.client as mqtt
import pytest
from app_fakes import VirtualTime, hardware
from ingboard.app.app import App
from ingboard.drivers.mqtt_transport import MqttTransport
from ingboard.link.relay_feed import RelayFeed
from ingboard.link.relay_link import FileJournal, RelayLink
from ingboard.records.store import RecordsStore

from host_tools import ROOT
from host_tools import simulate as sim
from host_tools.relay import broker as brokers
from host_tools.relay.fleet import start_relay
from host_tools.relay.store import Store

pytestmark = pytest.mark.skipif(
    not (os.path.exists("/usr/sbin/mosquitto") or brokers.shutil.which("mosquitto")),
    reason="mosquitto not installed (make setup)",
)


class PahoFeed(RelayFeed):
    """RelayFeed whose poll() first hands the network's events to the transport (what
    mqtt_as's callbacks do on the device, in the same loop)."""

    def __init__(self, link, transport, inbox, vt):
        super().__init__(link, vt.ticks_ms, vt.ticks_diff)
        self.transport = transport
        self.inbox = inbox

    def poll(self):
        while self.inbox:
            ev = self.inbox.popleft()
            if ev[0] == "up":
                self.transport.up(self.now())
            elif ev[0] == "down":
                if self.transport.is_up:
                    self.transport.down()
            else:
                self.transport.incoming(ev[1], ev[2], self.now())
        return super().poll()


def _board_client(port, link, inbox):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t1", clean_session=True)
    c.username_pw_set("t1", "pw-t1")
    t, payload, qos, retain = link.will()
    c.will_set(t, payload, qos, retain)
    c.reconnect_delay_set(0.2, 1)
    c.on_connect = lambda cl, u, f, rc, p: None if rc.is_failure else inbox.append(("up",))
    c.on_disconnect = lambda *a: inbox.append(("down",))
    c.on_message = lambda cl, u, m: inbox.append(("msg", m.topic, m.payload))
    return c


def _until(cond, step, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        step()
        if cond():
            return True
        time.sleep(0.05)
    return False


def test_device_app_publishes_to_mosquitto_and_catches_up_after_the_broker_was_down(tmp_path):
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=1)
    end = simulation.duration_ms
    host = [(end + 3000, b'{"cmd": "button", "name": "agree"}')]
    vt = VirtualTime()
    config, hw = hardware(vt, simulation.text(), host)
    link = RelayLink("club", "t1", FileJournal(str(tmp_path / "relay.jsonl")), resend_ms=2000)
    transport = MqttTransport(None, link)
    inbox = collections.deque()
    hw["relay"] = PahoFeed(link, transport, inbox, vt)
    app = App(hw, RecordsStore(str(tmp_path / "store")), vt.ticks_ms, vt.ticks_diff,
              vt.sleep_ms, config=config)  # fmt: skip
    users = {"t1": "pw-t1", "relay": "relay-pw"}
    pw = tmp_path / "relay.pw"
    pw.write_text("relay-pw")
    db = str(tmp_path / "relay.sqlite")
    broker = brokers.Broker(str(tmp_path / "broker"), users)
    broker.start()
    relay, _url = start_relay(broker.port, db, str(pw), "club")
    client = _board_client(broker.port, link, inbox)
    transport.client = client
    client.connect_async("127.0.0.1", broker.port, keepalive=5)
    client.loop_start()
    store = Store(db)
    t = [0]

    def play(ms):
        t[0] += ms
        vt.drive(app, t[0], stop=False)

    try:
        assert _until(lambda: transport.is_up, lambda: play(100), 10), "board never connected"
        # First part of the game online: the relay has each move soon after it is played.
        half = end // 2
        while t[0] < half:
            play(1000)
            time.sleep(0.01)
        gid = link.current.gid
        played = len([p for p in app.tracker.game.plies])
        assert _until(lambda: len(store.moves("club", "t1", gid)) >= played, lambda: play(200), 15)
        # The broker dies: play goes on, every move kept for later.
        broker.kill()
        assert _until(lambda: not transport.is_up, lambda: play(200), 10)
        before = len(store.moves("club", "t1", gid))
        while t[0] < end + 6000:
            play(2000)
        assert app.tracker.game.result == "W+5" and app.failure is None
        assert link.pending() and len(store.moves("club", "t1", gid)) == before
        # The broker is back: the board reconnects and sends everything the relay lacks.
        broker.start()
        total = len(app.tracker.game.plies)
        assert _until(
            lambda: not link.pending() and (store.game("club", "t1", gid) or {}).get("result"),
            lambda: play(500),
            30,
        ), "the board did not catch up"
    finally:
        client.loop_stop()
        client.disconnect()
        relay.terminate()
        relay.wait(15)
        broker.stop()
    stored = store.moves("club", "t1", gid)
    messages = hw["link"].messages()
    want = [(m["n"], m["color"], m.get("point", "pass")) for m in messages
            if m["type"] in ("move", "pass")]  # fmt: skip
    assert [(r[0], r[1], r[2]) for r in stored] == want and len(want) == total
    assert all(r[3] == "legal" for r in stored)
    assert store.game("club", "t1", gid)["result"] == "W+5"
    assert store.flags() == []
    store.close()

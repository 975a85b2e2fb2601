"""MQTT transport for the relay link (relay_link.py): wraps a client object, never blocks.

The board uses Peter Hinch's `mqtt_as` (asyncio, non-blocking, reconnects after Wi-Fi or
broker outages, keepalive, last will, QoS 1 retransmission); install it on the device with
`mpremote mip install github:peterhinch/micropython-mqtt`. micropython-lib's umqtt was not
chosen: its socket calls block (a dead broker would stall the scan loop) and it neither
reconnects nor pings by itself. Correctness does not rest on the client: the link keeps every
move until the relay acknowledges it, whatever the client lost.

Two ways to drive a client, both taking the client object (nothing here opens a socket):

- `MqttTransport(client, link, asynchronous=True)` + `await transport.run_mqtt_as(ticks_ms)`:
  for mqtt_as, whose `publish` is a coroutine that waits for the broker. Publishing only puts
  the message in a bounded queue (full → `publish` returns False, the link retries later); one
  task drains it. `mqtt_as_config(config)` fills in the will, client id, keepalive and the
  callbacks mqtt_as calls on every (re)connection and message.
- `MqttTransport(client, link)`: for a client whose `publish(topic, payload, qos=, retain=)`
  queues and returns at once (paho-mqtt with its network thread, in the relay's load test and
  simulator). The glue calls `up(now_ms)`, `down()` and `incoming(topic, payload, now_ms)`.
"""

from micropython import const

_POLL_MS = const(100)


class MqttTransport:
    def __init__(self, client, link, asynchronous=False, queue_len=64):
        self.client = client
        self.link = link
        self.asynchronous = asynchronous
        self.queue_len = queue_len
        self._queue = []
        self.is_up = False
        self.dropped = 0  # publishes refused (offline or queue full)
        link.transport = self

    # -- relay_link's transport interface -------------------------------------------------

    def publish(self, topic, payload, qos, retain):
        if not self.is_up:
            self.dropped += 1
            return False
        if self.asynchronous:
            if len(self._queue) >= self.queue_len:
                self.dropped += 1
                return False
            self._queue.append((topic, payload, qos, retain))
            return True
        try:
            self.client.publish(topic, payload, qos=qos, retain=retain)
        except Exception:  # a client that failed to queue: the link resends later
            self.dropped += 1
            return False
        return True

    # -- events from the client -----------------------------------------------------------

    def up(self, now_ms):
        """Connected (again): subscribe to the acks (sync clients), then let the link send."""
        if not self.asynchronous:
            for t, qos in self.link.subscriptions():
                self.client.subscribe(t, qos)
        self.is_up = True
        self.link.connected(now_ms)

    def down(self):
        self.is_up = False
        self._queue = []  # the link resends everything on the next connection
        self.link.disconnected()

    def incoming(self, topic, payload, now_ms):
        if isinstance(topic, (bytes, bytearray)):
            topic = topic.decode()
        return self.link.message(topic, payload, now_ms)

    # -- mqtt_as -------------------------------------------------------------------------

    def mqtt_as_config(self, config, keepalive=10):
        """Fill an mqtt_as config dict (server, ssid, user, password are the caller's)."""
        t, payload, qos, retain = self.link.will()
        config["client_id"] = self.link.board
        config["will"] = (t, payload, retain, qos)
        config["keepalive"] = keepalive
        config["clean"] = True
        config["subs_cb"] = self._subs_cb
        config["connect_coro"] = self._connect_coro
        return config

    def _subs_cb(self, topic, msg, retained, *_):
        self.incoming(topic, msg, self._ticks())

    async def _connect_coro(self, client):
        for t, qos in self.link.subscriptions():
            await client.subscribe(t, qos)
        self.up(self._ticks())

    async def run_mqtt_as(self, ticks_ms, sleep_ms=None):
        """Connect, then forever: drain the queue, notice a lost connection, poll the link."""
        import asyncio

        self._ticks = ticks_ms
        sleep = sleep_ms or (lambda ms: asyncio.sleep(ms / 1000))
        try:
            await self.client.connect()
        except OSError:
            pass  # mqtt_as retries by itself once connected to Wi-Fi; play goes on meanwhile
        while True:
            while self._queue and self.is_up:
                topic, payload, qos, retain = self._queue.pop(0)
                await self.client.publish(topic, payload, retain, qos)
            if self.is_up and not self.client.isconnected():
                self.down()
            self.link.poll(ticks_ms())
            await sleep(_POLL_MS)

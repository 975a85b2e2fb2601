"""The app's games into the club relay link: every move, pass, result and the clocks.

app.py calls `new_game(config)` for each game, `event(event)` for each tracker event and
`poll()` from its relay task (every 100 ms). RelayLink (relay_link.py) only journals and hands
messages to a transport that never waits, so nothing here slows play: offline, every move
stays in the link's journal until the relay acknowledges it, also across a restart.

The link's own time is monotonic since boot (board time restarts with every game).
"""

# What of a game's config the relay needs to check and export it (host_tools/relay/checker.py)
INFO_KEYS = ("size", "rules", "komi", "handicap", "handicap_style", "players", "time")


class RelayFeed:
    def __init__(self, link, ticks_ms, ticks_diff):
        self.link = link
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self._t0 = ticks_ms()
        self.failures = 0  # link calls that raised (reported by the app, play goes on)

    def now(self):
        return self.ticks_diff(self.ticks_ms(), self._t0)

    def new_game(self, config):
        info = {}
        for key in INFO_KEYS:
            if key in config:
                info[key] = config[key]
        return self.link.new_game(info, self.now())

    def event(self, event):
        kind = event["type"]
        link = self.link
        if kind == "move" or kind == "pass":
            point = event.get("point", "pass") if kind == "move" else "pass"
            link.move(event["n"], event["color"], point, self.now(), t_ms=event["t"])
        elif kind == "end":
            if event.get("result"):
                link.result(event["result"], event.get("reason"), self.now())
        elif kind == "clock":
            state = {"B": event.get("B"), "W": event.get("W")}
            link.clock(state, self.now())

    def poll(self):
        return self.link.poll(self.now())


def from_settings(settings_path, journal_path, ticks_ms, ticks_diff, mqtt_as=None, log=print):
    """(RelayFeed, MqttTransport) from the network settings file (network_settings.py) over
    Peter Hinch's mqtt_as, or (None, None) when there are no settings, they are damaged, or
    mqtt_as is not installed: the board then plays offline (one line says why). `mqtt_as`:
    the module (imported here by default; tests pass a stand-in)."""
    from ingboard import network_settings

    try:
        with open(settings_path) as f:
            net = network_settings.parse(f.read())
    except OSError:
        return None, None
    except ValueError as exc:
        log("network settings not used: %s" % exc)
        return None, None
    if mqtt_as is None:
        try:
            import mqtt_as
        except ImportError:
            log("network settings found, but mqtt_as is not installed: playing offline")
            return None, None
    from ingboard.drivers.mqtt_transport import MqttTransport
    from ingboard.relay_link import FileJournal, RelayLink

    link = RelayLink(net["event"], net["board"], FileJournal(journal_path))
    transport = MqttTransport(None, link, asynchronous=True)
    config = network_settings.mqtt_as_config(net, dict(mqtt_as.config))
    transport.client = mqtt_as.MQTTClient(transport.mqtt_as_config(config))
    return RelayFeed(link, ticks_ms, ticks_diff), transport

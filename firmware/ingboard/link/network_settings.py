"""The board's network settings: Wi-Fi, the venue's MQTT broker, the board's name.

Entered once over USB with `ingboard setup-network` (host_tools/commands/setup_network.py),
which writes them to flash (storage_paths.NETWORK); main.py reads them at boot and, when
they are there and the board has a network (a Pico 2 W, an ESP32-S3) and `mqtt_as` is
installed, starts the club relay link (relay_link.py) over `mqtt_as`
(drivers/mqtt_transport.py). The file is one line of JSON:

    {"format": 1, "ssid": "club", "wifi_password": "...", "broker": "10.0.0.2",
     "port": 1883, "event": "spring-open", "board": "t12", "password": "..."}

`board` is the MQTT user name and client id (the venue's ACL lets a board publish only under
its own name: host_tools/relay/mosquitto/acl); `password` its broker password. Names follow
relay_link.valid_name. A damaged file is one ValueError naming the problem.
"""

import json

from ingboard.link.relay_link import valid_name

FORMAT = 1
KEYS = ("ssid", "wifi_password", "broker", "port", "event", "board", "password")


def check(net):
    """Raise ValueError naming the first bad entry of a network settings dict."""
    if not isinstance(net, dict):
        raise ValueError("network settings must be an object")
    for key in KEYS:
        if key not in net:
            raise ValueError("network settings have no %s" % key)
    for key in ("ssid", "wifi_password", "broker", "password"):
        if not isinstance(net[key], str):
            raise ValueError("network %s must be text" % key)
    if not net["ssid"] or len(net["ssid"]) > 32:
        raise ValueError("network ssid must be 1-32 characters")
    if not net["broker"]:
        raise ValueError("network broker must be a host name or address")
    port = net["port"]
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ValueError("network port must be 1..65535, not %r" % (port,))
    for key in ("event", "board"):
        if not valid_name(net[key]):
            raise ValueError("network %s: 1-32 of A-Z a-z 0-9 - _, not %r" % (key, net[key]))


def text(net):
    check(net)
    data = {"format": FORMAT}
    for key in KEYS:
        data[key] = net[key]
    return json.dumps(data) + "\n"


def parse(data):
    try:
        raw = json.loads(data)
    except ValueError:
        raise ValueError("network settings are not JSON")
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ValueError("network settings: unknown format")
    out = {}
    for key in KEYS:
        if key not in raw:
            raise ValueError("network settings have no %s" % key)
        out[key] = raw[key]
    check(out)
    return out


def mqtt_as_config(net, config):
    """Fill Peter Hinch's mqtt_as `config` dict (its own defaults otherwise) from `net`."""
    config["ssid"] = net["ssid"]
    config["wifi_pw"] = net["wifi_password"]
    config["server"] = net["broker"]
    config["port"] = net["port"]
    config["user"] = net["board"]
    config["password"] = net["password"]
    return config

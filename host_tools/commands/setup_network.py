"""`ingboard setup-network`: the board's Wi-Fi, broker and name, written to its flash once.

    ingboard setup-network --ssid CLUB --wifi-password-file wifi.txt --broker 10.0.0.2:1883 \\
        --event spring-open --board t12 --password-file t12.txt [--port /dev/ttyACM0]

Writes `/network.json` (firmware/ingboard/link/network_settings.py) over USB and reads it back; at
its next start the board (a Pico 2 W or an ESP32-S3 with `mqtt_as` installed: see
docs/relay.md) connects and publishes its games. Passwords are read from files, never given on
the command line (they would stay in the shell's history). `--clear` removes the settings.
"""

import sys

from host_tools.commands.calibrate import put_and_check
from host_tools.device import DeviceError, connect
from host_tools.errors import InputError

HELP = "store the board's Wi-Fi, MQTT broker and board name on its flash"


def add_arguments(parser):
    parser.add_argument("--port", help="the board's serial port (default: $INGBOARD_PORT)")
    parser.add_argument("--ssid", help="the venue's Wi-Fi network")
    parser.add_argument("--wifi-password-file", help="file holding the Wi-Fi password")
    parser.add_argument("--broker", help="the venue's MQTT broker, HOST or HOST:PORT")
    parser.add_argument("--event", help="the event's name in the topics (go/v1/EVENT/...)")
    parser.add_argument("--board", help="this board's name: MQTT user and client id")
    parser.add_argument("--password-file", help="file holding this board's broker password")
    parser.add_argument("--clear", action="store_true", help="remove the network settings")


def _secret(path, what):
    if not path:
        raise InputError("--%s-file is required" % what)
    try:
        with open(path) as f:
            return f.read().strip("\r\n")
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror)) from None


def settings_text(args):
    """The network settings file's text from the arguments (InputError on bad input)."""
    from ingboard.link import network_settings as ns

    for name in ("ssid", "broker", "event", "board"):
        if not getattr(args, name):
            raise InputError("--%s is required" % name)
    host, _, port = args.broker.partition(":")
    if port and not port.isdigit():
        raise InputError("--broker port must be a number, not %r" % port)
    net = {
        "ssid": args.ssid,
        "wifi_password": _secret(args.wifi_password_file, "wifi-password"),
        "broker": host,
        "port": int(port) if port else 1883,
        "event": args.event,
        "board": args.board,
        "password": _secret(args.password_file, "password"),
    }
    try:
        return ns.text(net)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def run(args):
    from ingboard import storage_paths as sp

    text = None if args.clear else settings_text(args)
    dev = connect(args.port)
    try:
        if text is None:
            try:
                dev.remove(sp.NETWORK)
            except (DeviceError, OSError):
                pass  # nothing to remove
            print("removed %s: the board plays offline" % sp.NETWORK)
        else:
            put_and_check(dev, sp.NETWORK, text.encode())
            print("wrote %s (board %s, broker %s)" % (sp.NETWORK, args.board, args.broker))
        dev.start_app()
    except DeviceError as exc:
        print("ingboard setup-network: %s" % exc, file=sys.stderr)
        return 1
    finally:
        dev.close()
    return 0

"""`ingboard relay --broker HOST:PORT [--event NAME] ...`: the club relay, or its exports."""

import os
import signal
import sys
import threading
import time

from host_tools.errors import InputError
from host_tools.outputs import write_all

HELP = "club relay: archive boards' moves from MQTT, check them, serve the live page, export"


def add_arguments(parser):
    parser.add_argument("--broker", metavar="HOST:PORT", help="the venue's MQTT broker")
    parser.add_argument("--event", help="only this event (default: every event on the broker)")
    parser.add_argument(
        "--db", help="SQLite archive (default relay.sqlite; with --demo-boards a temporary one)"
    )
    parser.add_argument(
        "--http", default="127.0.0.1:8080", metavar="HOST:PORT", help="live page (port 0: any)"
    )
    parser.add_argument("--delay", type=float, default=0.0, help="broadcast delay in seconds")
    parser.add_argument("--user", default="relay", help="MQTT user name (default %(default)s)")
    parser.add_argument("--password-file", help="file holding the MQTT password")
    parser.add_argument("--client-id", default="relay", help="MQTT client id (persistent session)")
    parser.add_argument(
        "--offline-after", type=float, default=20.0, help="seconds of silence = offline"
    )
    parser.add_argument(
        "--max-viewers", type=int, default=256, help="live pages served at once (default 256)"
    )
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    parser.add_argument("--export-sgf", metavar="DIR", help="write one SGF per game and exit")
    parser.add_argument("--export-egd", metavar="FILE", help="write the EGD results and exit")
    parser.add_argument("--export-aga", metavar="FILE", help="write the AGA results and exit")
    parser.add_argument("--round", type=int, help="exports: only this round")
    parser.add_argument(
        "--director-password-file",
        metavar="F",
        help="the tournament director's password (first line of F): the director's page, "
        "imports, confirmations, corrections, alerts and exports need it (user --director-user)",
    )
    parser.add_argument(
        "--director-user", default="director", help="the director's user name (%(default)s)"
    )
    parser.add_argument(
        "--pairings",
        metavar="FILE",
        help="import this pairings file (OpenGotha .xml or .csv) at the start (needs --event)",
    )
    parser.add_argument(
        "--export-opengotha", metavar="FILE", help="write the results as OpenGotha XML and exit"
    )
    parser.add_argument(
        "--demo-boards",
        type=int,
        metavar="N",
        help="a trial on one command: start mosquitto and N simulated boards playing round "
        "after round (event 'demo'), archive them and serve the live page; Ctrl-C stops all",
    )


def _address(text, what):
    host, sep, port = (text or "").rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise InputError("%s must be HOST:PORT, not %r" % (what, text))
    return host, int(port)


def _open_store(path):
    """The archive, or one clear error (a file that is not an archive, a missing directory)."""
    import sqlite3

    from host_tools.relay.store import Store

    try:
        return Store(path)
    except sqlite3.Error as exc:
        raise InputError("--db %s: %s" % (path, exc)) from None


def _exports(args):
    from host_tools.relay import exports

    if not os.path.exists(args.db):
        raise InputError("no archive at %s" % args.db)
    store = _open_store(args.db)
    try:
        if args.export_sgf:
            paths = exports.write_sgf(store, args.export_sgf, args.event)
            print("%d games written to %s" % (len(paths), args.export_sgf))
        games = exports.finished_games(store, args.event, args.round)
        name = args.event or ""
        dates, komis = [], set()
        for ev, board, gid, info, _result, _reason in store.games(args.event):
            if args.round is None or info.get("round", 1) == args.round:
                dates += [d for d in [store.date(ev, board, gid)] if d]
                komis.add(info.get("komi"))
        first, last = (min(dates), max(dates)) if dates else ("", "")
        span = first if first == last else "%s,%s" % (first, last)
        komi = komis.pop() if len(komis) == 1 else None
        if args.export_egd:
            write_all({args.export_egd: exports.egd(games, name, span, komi)})
            print("EGD results of %d games written to %s" % (len(games), args.export_egd))
        if args.export_aga:
            write_all({args.export_aga: exports.aga(games, name, first, last)})
            print("AGA results of %d games written to %s" % (len(games), args.export_aga))
    finally:
        store.close()
    return 0


def _export_opengotha(args):
    from host_tools.relay import desk_exports
    from host_tools.relay.director import Director

    if args.db is None or not os.path.exists(args.db):
        raise InputError("no archive at %s (--db)" % args.db)
    if not args.event:
        raise InputError("--export-opengotha needs --event (the tournament's event)")
    store = _open_store(args.db)
    try:
        text = desk_exports.opengotha_xml(Director(store, args.event))
        write_all({args.export_opengotha: text})
    finally:
        store.close()
    print("OpenGotha results written to %s" % args.export_opengotha)
    return 0


def _director(args, store, relay, broadcaster):
    """The director's desk (director.py) and credentials (auth.py), or (None, None)."""
    from host_tools.relay.auth import DirectorAuth
    from host_tools.relay.director import Director
    from host_tools.relay.pairings import PairingError

    auth = None
    if args.director_password_file:
        try:
            auth = DirectorAuth.from_file(args.director_password_file, args.director_user)
        except (OSError, ValueError) as exc:
            raise InputError("--director-password-file: %s" % exc) from None
    if args.event is None:
        if auth is not None or args.pairings:
            raise InputError("the director's desk needs --event (one tournament)")
        return None, None
    director = Director(store, args.event, publish=lambda *a: relay.publish(*a), views=relay.views)
    if args.pairings:
        try:
            with open(args.pairings, "rb") as f:
                report = director.import_file(f.read(), args.pairings, args.round)
        except OSError as exc:
            raise InputError("--pairings: %s" % exc) from None
        except PairingError as exc:
            raise InputError("--pairings %s: %s" % (args.pairings, exc)) from None
        print(
            "relay: %(tables)d tables of round(s) %(rounds)s imported; round %(round)d is played"
            % report,
            file=sys.stderr,
            flush=True,
        )
    return director, auth


def _fan_out(director, broadcaster):
    """The relay's events to the page (not the boards' alerts: those are the director's)
    and to the director's desk."""

    def on_event(kind, data):
        if kind != "alert":
            broadcaster.push(kind, data)
        if director is not None:
            try:
                director.on_relay_event(kind, data)
            except Exception as exc:  # noqa: BLE001 (the desk never stops the archive)
                print("relay: the director's desk failed on a %s: %s" % (kind, exc),
                      file=sys.stderr)  # fmt: skip

    return on_event


def _quarantine_rows(store, limit=200):
    """The quarantined messages for the live server's /api/quarantine (payloads as text)."""
    rows = []
    for event, board, topic, payload, reason, times in store.quarantined(limit):
        text = bytes(payload[:2000]).decode("utf-8", "replace")
        rows.append(
            {"event": event, "board": board, "topic": topic, "reason": reason, "times": times,
             "payload": text}
        )  # fmt: skip
    return rows


def _say_status(host, port, broadcaster):
    def on_status(state, detail):
        where = "%s:%d" % (host, port)
        if state == "connected":
            text = "relay: connected to the broker %s" % where
        elif state == "unreachable":
            text = "relay: ERROR: cannot reach the broker %s (%s); still trying" % (where, detail)
        elif state == "refused":
            text = (
                "relay: ERROR: the broker %s refused the relay's login (%s): check --user and "
                "--password-file; still trying" % (where, detail)
            )
        elif state == "denied":
            text = (
                "relay: ERROR: the broker %s refused the relay's subscription to the boards' "
                "topics (%s): check the broker's ACL for the relay's user, then restart the relay"
                % (where, detail)
            )
        else:
            text = "relay: lost the broker %s (%s); reconnecting" % (where, detail)
        print(text, file=sys.stderr, flush=True)
        broadcaster.push("relay", {"broker": state, "detail": detail})

    return on_status


def run(args):
    if args.export_opengotha:
        return _export_opengotha(args)
    if args.export_sgf or args.export_egd or args.export_aga:
        if args.db is None:
            args.db = "relay.sqlite"
        return _exports(args)
    demo = None
    if args.demo_boards is not None:
        from host_tools.relay.demo import Demo

        if args.broker:
            raise InputError("--demo-boards starts its own broker: leave out --broker")
        if args.event is None:
            args.event = "demo"
        out = os.path.dirname(os.path.abspath(args.db)) if args.db else None
        demo = Demo(args.demo_boards, args.event, out=out)
        args.broker = "127.0.0.1:%d" % demo.port
        if args.db is None:
            args.db = demo.archive  # kept after the demo: the director can export from it
        if args.director_password_file is None:
            args.director_password_file = demo.director_password_file
        print(
            "relay: demo with %d simulated boards on mosquitto 127.0.0.1:%d"
            % (args.demo_boards, demo.port),
            file=sys.stderr,
            flush=True,
        )
    try:
        return _relay(args, demo)
    finally:
        if demo is not None:
            demo.stop()
            print(
                "relay: the demo's archive is kept in %s (export: ingboard relay --db %s "
                "--event %s --export-opengotha results.xml)" % (args.db, args.db, args.event),
                file=sys.stderr,
            )


def _stop_on_signals():
    """An event set by SIGTERM or the first Ctrl-C: the main loop then stops the boards, the
    broker link, the page and the archive in order. A KeyboardInterrupt raised wherever the main
    thread happened to be (inside a tick, an archive write) could leave a lock or a transaction
    half-done and the shutdown waiting on it; a second Ctrl-C still interrupts at once."""
    stop = threading.Event()

    def on_signal(signum, frame):
        if signum == signal.SIGINT and stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return stop


def _relay(args, demo):
    if args.db is None:
        args.db = "relay.sqlite"
    if not args.broker:
        raise InputError("--broker HOST:PORT is required (or --demo-boards N, or --export-...)")
    host, port = _address(args.broker, "--broker")
    http_host, http_port = _address(args.http, "--http")
    from ingboard.link.relay_link import valid_name

    if args.event is not None and not valid_name(args.event):
        raise InputError("--event: 1-32 of A-Z a-z 0-9 - _")
    password = demo.password if demo is not None else None
    if args.password_file:
        try:
            with open(args.password_file) as f:
                password = f.read().strip()
        except OSError as exc:
            raise InputError("--password-file: %s" % exc) from None

    from host_tools.relay.service import MqttRelay, Relay
    from host_tools.relay.web import Broadcaster, LiveServer

    store = _open_store(args.db)
    broadcaster = Broadcaster(args.delay)
    relay = Relay(
        store, args.event, on_event=broadcaster.push, offline_ms=args.offline_after * 1000
    )
    relay.restore()
    for v in relay.views():
        broadcaster.push("board", v)
    try:
        director, auth = _director(args, store, relay, broadcaster)
    except InputError:
        store.close()
        raise
    relay.on_event = _fan_out(director, broadcaster)
    if demo is not None:
        demo.director = director
    try:
        server = LiveServer(
            (http_host, http_port),
            broadcaster,
            quarantine=lambda: _quarantine_rows(store),
            max_streams=args.max_viewers,
            store=store,
            event=args.event,
            director=director,
            auth=auth,
        )
    except OSError as exc:
        store.close()
        raise InputError("--http %s: %s" % (args.http, exc)) from None
    mqtt = MqttRelay(
        relay,
        host,
        port,
        args.user,
        password,
        args.client_id,
        on_status=_say_status(host, port, broadcaster),
    )
    stop = _stop_on_signals()
    server.start()
    mqtt.start()
    if demo is not None:
        demo.start_boards()
        print(
            "relay: the director's page http://%s:%d/director (user %s, password in %s)"
            % (http_host, server.server_address[1], args.director_user,
               args.director_password_file),
            file=sys.stderr,
            flush=True,
        )  # fmt: skip
    print(
        "relay: broker %s:%d, page http://%s:%d/, archive %s"
        % (host, port, http_host, server.server_address[1], args.db),
        flush=True,
    )
    deadline = None if args.duration is None else time.monotonic() + args.duration
    while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
        relay.tick(int(time.monotonic() * 1000))
        if demo is not None:
            demo.tick()
        stop.wait(0.5)
    if demo is not None:
        demo.stop_boards()
    mqtt.stop()
    server.stop()
    store.close()
    print(
        "relay: stopped; %(moves)d moves stored, %(duplicates)d duplicates, "
        "%(quarantined)d messages quarantined" % relay.stats
    )
    sys.stdout.flush()
    return 0

"""`ingboard sim [--port N] [--engine CMD] [--chores]`: the virtual board in the browser, backed
by the firmware code; with --engine a GTP engine is the opponent. In assist mode (the default)
the board lifts captured stones, places the engine's moves and presses the clocks for the
person (host_tools/sim_assist.py); `--chores` leaves all of that to the person, as at a
physical board. GNU Go, where installed, names the dead stones at the pause and estimates the
score on demand (host_tools/sim_counsel.py)."""

import os
import signal
import sys
import webbrowser

from host_tools.errors import InputError
from host_tools.sim_server import Session, make_server

HELP = "interactive virtual board in the browser (the firmware's tracker behind it)"


def add_arguments(parser):
    parser.add_argument("--port", type=int, default=8000, help="local port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--engine",
        metavar="CMD",
        help='a GTP engine as the opponent, e.g. "gnugo --mode gtp" or "katago gtp -model M '
        '-config C": its moves are shown for you to place, yours go to it',
    )
    parser.add_argument(
        "--engine-color", choices=("B", "W"), default="W", help="the engine's colour (default W)"
    )
    parser.add_argument(
        "--handshake-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds the engine has to answer GTP's protocol_version (default 10)",
    )
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds the engine has for a move or the dead stones (default 300: KataGo on "
        "19x19 takes over a minute a move on a small busy CPU)",
    )
    parser.add_argument(
        "--open",
        choices=("auto", "yes", "no"),
        default="no",
        help="open the page in a browser: auto = when there is a display (make sim), "
        "yes, no (default)",
    )
    parser.add_argument(
        "--chores",
        action="store_true",
        help="start in the physical chores mode: the person lifts captures, places the "
        "engine's moves and presses every clock (default: assist does those)",
    )
    parser.add_argument(
        "--no-counsel",
        action="store_true",
        help="do not ask GNU Go for dead stones at the pause and score estimates",
    )
    parser.add_argument(
        "--manual-time",
        action="store_true",
        help='board time moves only by POST /api/wait {"ms": N} (scripts, tests)',
    )


def has_display():
    """A browser can be shown: a graphical session, or a desktop OS."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _interrupt(*_args):
    raise KeyboardInterrupt  # SIGTERM stops the page as Ctrl-C does (the engine is closed)


def run(args):
    if not 0 <= args.port <= 65535:
        raise InputError("--port must be 0..65535, not %d" % args.port)
    engine = None
    if args.engine:
        from host_tools.sim_engine import EngineSeat

        if args.handshake_timeout <= 0:
            raise InputError("--handshake-timeout must be a positive number of seconds")
        engine = EngineSeat(
            args.engine,
            args.engine_color,
            timeout=args.move_timeout,
            handshake_s=args.handshake_timeout,
        )
    counsel = None
    if not args.no_counsel:
        from host_tools import sim_counsel

        counsel = sim_counsel.start()
    session = Session(
        manual_time=args.manual_time, engine=engine, assist=not args.chores, counsel=counsel
    )
    try:
        server = make_server(args.port, args.host, session)
    except InputError:
        session.close()
        raise
    host, port = server.server_address[:2]
    url = "http://%s:%d/" % (host, port)
    against = " against %s (%s)" % (engine.name, args.engine_color) if engine else ""
    print("ingboard sim: %s%s  (Ctrl-C to stop)" % (url, against), flush=True)
    if args.open == "yes" or (args.open == "auto" and has_display()):
        try:
            webbrowser.open(url)
        except webbrowser.Error:
            print("ingboard sim: no browser found; open %s yourself" % url, flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        session.close()
    return 0

"""`ingboard monitor [--port P] [--json] [--count N] [--restart]`: live events from the board.

The board's app prints one JSON event a line on its USB serial link, with the schema of
`ingboard track`'s events (the spec's session-log.md, "What ingboard track prints"). monitor
only listens: it opens the port without resetting the board, so a game in progress goes on.
Each event becomes one human-readable line (`--json`: the event line exactly as received);
anything else the board prints (a traceback, the REPL banner) goes to stderr as `board: ...`.
Ends after N events with `--count`, when the link closes (exit 0) or on Ctrl-C.

What the board said before the port was opened is gone (opening a serial port discards what
waited in it), so the app's start-up events (the resumed game, the bowls' first check, a
missing sensor) are heard only by a monitor already listening. `--restart` restarts the app
once the port is open (a soft reset, as `ingboard flash` ends; the game resumes from its
journal) and then prints its start-up as it happens.
"""

import json
import sys

from host_tools.device import DeviceClosed, DeviceError, connect
from host_tools.errors import InputError

HELP = "print live events from the board (human-readable, or --json lines)"

COLOURS = {"B": "Black", "W": "White"}


def add_arguments(parser):
    parser.add_argument("--port", help="the board's serial port (default: $INGBOARD_PORT)")
    parser.add_argument("--json", action="store_true", help="print each event's JSON line")
    parser.add_argument("--count", type=int, default=0, help="stop after N events")
    parser.add_argument(
        "--restart",
        action="store_true",
        help="restart the board's app once listening, to hear its start-up (the game resumes)",
    )


def clock_time(ms):
    """'1:02:03' / '12:34' from milliseconds (tenths below ten seconds)."""
    if ms is None:
        return "-"
    s, rest = divmod(int(ms), 1000)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    if h:
        return "%d:%02d:%02d" % (h, m, s)
    if m == 0 and s < 10:
        return "%d.%d" % (s, rest // 100)
    return "%d:%02d" % (m, s)


def _side(state):
    if not isinstance(state, dict):
        return "?"
    text = "main %s" % clock_time(state.get("main_ms"))
    if state.get("period"):
        text += ", period %s %s" % (state["period"], clock_time(state.get("period_ms")))
    if state.get("penalty"):
        text += ", penalty %s" % state["penalty"]
    if state.get("forfeit"):
        text += ", LOST ON TIME"
    return text


def _count(value):
    return "?" if value is None else str(value)


def describe(event):
    """One human-readable line for an event (a dict with "type")."""
    kind = event.get("type")
    colour = COLOURS.get(event.get("color"), event.get("color"))
    if kind == "move":
        text = "move %s: %s %s" % (event.get("n"), colour, event.get("point"))
        if event.get("captures"):
            text += ", captures %s" % " ".join(event["captures"])
    elif kind == "pass":
        text = "move %s: %s passes" % (event.get("n"), colour)
    elif kind == "alert":
        points = event.get("points") or []
        text = "ALERT %s%s: %s" % (
            event.get("code"),
            " at " + " ".join(points) if points else "",
            event.get("text", ""),
        )
    elif kind == "pause":
        text = "game paused"
    elif kind == "resume":
        text = "game resumed"
    elif kind == "end":
        text = "game over: %s (%s)" % (event.get("result"), event.get("reason"))
    elif kind == "count":
        penalty = event.get("penalty") or {}
        text = "count: Black %s, White %s, shared %s, komi %s" % (
            event.get("black"),
            event.get("white"),
            event.get("shared"),
            event.get("komi"),
        )
        if any(penalty.values()):
            text += ", penalty B %s W %s" % (penalty.get("B", 0), penalty.get("W", 0))
        text += "; difference %s -> %s" % (event.get("difference"), event.get("result"))
    elif kind == "bowls":
        text = "bowls (%s): Black %s, White %s%s" % (
            event.get("phase"),
            _count(event.get("B")),
            _count(event.get("W")),
            "" if event.get("confident", True) else " (uncertain)",
        )
    elif kind == "clock":
        text = "clock: Black %s | White %s" % (_side(event.get("B")), _side(event.get("W")))
    else:
        fields = sorted((k, v) for k, v in event.items() if k not in ("t", "type"))
        rest = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in fields)
        text = "%s: %s" % (kind, rest) if rest else str(kind)
    if "t" in event:
        return "%8s  %s" % (clock_time(event["t"]), text)
    return text


def parse_event(line):
    """The event dict of a line, or None when the line is not an event."""
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if isinstance(event, dict) and isinstance(event.get("type"), str):
        return event
    return None


def monitor(dev, as_json=False, count=0, out=None, err=None):
    """Print events until `count` of them (0: no limit) or the link closes; returns events."""
    out = out or sys.stdout
    err = err or sys.stderr
    seen = 0
    while not count or seen < count:
        try:
            raw = dev.readline(1.0)
        except DeviceClosed:
            break
        if raw is None:
            continue
        line = raw.decode("utf-8", "replace").strip()
        if not line:
            continue
        event = parse_event(line)
        if event is None:
            print("board: %s" % line, file=err)
            continue
        if as_json:
            text = line
        else:
            try:
                text = describe(event)
            except (ValueError, TypeError, AttributeError, ArithmeticError) as exc:
                # An event of the right shape with odd fields (the board is a trust boundary
                # too, issue 19): shown as it came, with why, and the monitor goes on.
                print("board: unreadable %s event (%s): %s" % (event["type"], exc, line), file=err)
                continue
        print(text, file=out, flush=True)
        seen += 1
    return seen


def run(args):
    if args.count < 0:
        raise InputError("--count must be 0 (no limit) or more")
    dev = connect(args.port)
    try:
        if args.restart:
            dev.start_app()
        monitor(dev, args.json, args.count)
    except KeyboardInterrupt:
        pass
    except DeviceError as exc:
        print("ingboard monitor: %s" % exc, file=sys.stderr)
        return 1
    finally:
        dev.close()
    return 0

"""`ingboard track SESSION.log [--sgf F] [--events F]`: replay a session log through the
firmware's tracker, rules core, clock and bowls."""

import json
import sys

from host_tools.errors import InputError
from host_tools.outputs import is_special, write_all

HELP = "replay a session log through tracker, rules core, clock and bowls"


def add_arguments(parser):
    parser.add_argument("log", metavar="SESSION.log")
    parser.add_argument("--sgf", help="write the game record as SGF here")
    parser.add_argument("--events", help="write the events (JSON lines) here")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def read_log(path):
    """All records of a session log; InputError naming the line for a malformed one."""
    from ingboard.records.session import SessionLogError
    from ingboard.records.session_read import records

    try:
        with open(path, encoding="utf-8") as f:
            return list(records(f))
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise InputError("%s is not UTF-8 text" % path) from None
    except SessionLogError as exc:
        raise InputError("%s: %s" % (path, exc)) from None
    except RecursionError:
        raise InputError("%s: a config nested too deeply" % path) from None


def run_tracker(recs, path="session log"):
    from ingboard.records.session import SessionLogError
    from ingboard.records.session_replay import track

    events = []
    try:
        tracker = track(recs, events.append)
    except SessionLogError as exc:
        raise InputError("%s: %s" % (path, exc)) from None
    if tracker is None:
        raise InputError("the session log has no config line")
    return tracker, events


def describe(event):
    kind = event["type"]
    t = "%7.1fs" % (event["t"] / 1000)
    if kind == "move":
        caught = (" captures " + " ".join(event["captures"])) if event["captures"] else ""
        return "%s %3d %s %s%s" % (t, event["n"], event["color"], event["point"], caught)
    if kind == "pass":
        return "%s %3d %s pass" % (t, event["n"], event["color"])
    if kind == "alert":
        return "%s ALERT %s %s: %s" % (t, event["code"], " ".join(event["points"]), event["text"])
    if kind == "end":
        return "%s end: %s (%s)" % (t, event["result"], event["reason"])
    if kind == "count":
        return "%s count: B %d, W %d, difference %s -> %s" % (
            t,
            event["black"],
            event["white"],
            event["difference"],
            event["result"],
        )
    if kind == "plan":
        comp = event["compensation"]
        return "%s fill-in plan: fill B %s, W %s; compensation %s stone(s) by %s; penalty %s" % (
            t,
            event["fill"]["B"],
            event["fill"]["W"],
            comp["stones"],
            comp["by"] or "-",
            event["penalty"]["stones"],
        )
    if kind == "fill-in":
        return "%s fill-in on the board: %s (count %s)%s" % (
            t,
            event["result"],
            event["count"],
            "" if event["ok"] else " - NOT as planned: " + "; ".join(event["reasons"]),
        )
    if kind == "bowls":
        return "%s bowls (%s): B %s, W %s" % (t, event["phase"], event["B"], event["W"])
    return None


def run(args):
    recs = read_log(args.log)
    tracker, events = run_tracker(recs, args.log)
    outputs = {}
    if args.events:
        outputs[args.events] = "".join(json.dumps(e) + "\n" for e in events)
    if args.sgf:
        from ingboard.records.sgf_record import tracker_sgf

        outputs[args.sgf] = tracker_sgf(tracker)
    # An output to a pipe or /dev/stdout keeps stdout for itself: the listing goes aside.
    say = sys.stderr if any(is_special(p) for p in outputs) else sys.stdout
    write_all(outputs)
    if not args.quiet:
        for event in events:
            line = describe(event)
            if line:
                print(line, file=say)
    game = tracker.game
    print(
        "%d moves, %d alerts, result %s"
        % (
            len(game.plies),
            sum(1 for e in events if e["type"] == "alert"),
            game.result or "(game not finished)",
        ),
        file=say,
    )
    return 0

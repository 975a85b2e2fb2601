"""`ingboard demo`: a real game played on the virtual board from start to put-away.

The record (default: host_tools/data/demo_game_13.sgf, GNU Go self-play with its dead stones;
demo_game.sgf is the short 9x9 one) is turned into a session log by host_tools/simulate.py
(`finish=True`: hands, flicker, late captures, the pause, dead stones, four passes, the fill-in
and the put-away, with bowl readings), and that log is replayed through the firmware's own
tracker (tracking/tracker.py: rules core, Ing clock, bowls) exactly as `ingboard track` does.
What the board decided is then checked: every move as recorded, the count against an
independent count (sgfmill's area score of the record's final position without its dead
stones, less komi), no alert other than the captured-stones reminder, the bowl checks.

run_demo(...) writes into `out`: game.sgf (the tracker's record), session.log, events.jsonl,
board.png (the filled-in board: winning space ringed, losing stones crossed, compensation
stones boxed), clock.png (both clock faces, the firmware's renderer) and returns a summary
dict; `summary_lines(summary)` is the text the command prints.
"""

import json
import os

from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track
from ingboard.records.sgf_record import tracker_sgf
from ingrules.board import BLACK

from host_tools import ROOT
from host_tools import simulate as sim
from host_tools.board_png import board_image
from host_tools.clock_png import pair_image
from host_tools.errors import InputError

DEFAULT_GAME = os.path.join(ROOT, "host_tools", "data", "demo_game_13.sgf")
DEFAULT_OUT = os.path.join("out", "demo")


def independent_result(path):
    """sgfmill's area count of the record's final position, the record's dead stones removed,
    less komi ("B+9", "W+0.5", "Draw"): a count that shares no code with the firmware."""
    from sgfmill import boards, sgf

    with open(path, "rb") as f:
        record = sgf.Sgf_game.from_bytes(f.read())
    game = sim.read_game(path)
    board = boards.Board(record.get_size())
    for node in record.get_main_sequence():
        colour, move = node.get_move()
        if colour and move:
            board.play(move[0], move[1], colour)
    fw_board = sim.final_board(game)
    dead = [fw_board.col_row(p) for p in sim.dead_stones(game)]
    board.apply_setup((), (), [(row, col) for col, row in dead])
    margin = board.area_score() - (record.get_komi() or 0)
    if margin == 0:
        return "Draw"
    return ("B+%g" % margin) if margin > 0 else ("W+%g" % -margin)


class _Progress:
    """One line, rewritten in place: how far the replay is."""

    def __init__(self, total, stream, width=28):
        self.total = max(1, total)
        self.stream = stream
        self.width = width
        self.done = 0
        self.text = "setting up"
        self.shown = -1

    def step(self, what=None):
        self.done += 1
        if what:
            self.text = what
        tenth = self.done * 100 // self.total
        if self.stream is not None and tenth != self.shown:
            self.shown = tenth
            filled = self.width * self.done // self.total
            bar = "#" * filled + "." * (self.width - filled)
            line = "\r[%s] %3d%%  %s" % (bar, 100 * self.done // self.total, self.text)
            self.stream.write(line.ljust(78))
            self.stream.flush()

    def close(self):
        if self.stream is not None:
            self.stream.write("\r" + " " * 78 + "\r")
            self.stream.flush()


def run_demo(sgf_path=None, out=None, noise="typical", seed=0, progress=None):
    """Simulate, track, check and draw one game; returns the summary dict (see module doc)."""
    sgf_path = sgf_path or DEFAULT_GAME
    out = out or DEFAULT_OUT
    game = sim.read_game(sgf_path)
    try:
        simulation = sim.simulate(game, noise, seed, finish=True)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise InputError("cannot create %s: %s" % (out, exc.strerror or exc)) from None
    if not os.access(out, os.W_OK):
        raise InputError("cannot write into %s" % out)
    text = simulation.text()
    records = list(read_text(text))
    bar = _Progress(len(records), progress)
    events = []
    state = {"moves": 0}

    def feed():
        for record in records:
            yield record
            bar.step()

    def on_event(event):
        events.append(event)
        kind = event["type"]
        if kind in ("move", "pass"):
            state["moves"] += 1
            where = event.get("point", "pass")
            bar.text = "move %d %s %s" % (event["n"], event["color"], where)
        elif kind == "removal":
            bar.text = "dead stones off: %s" % " ".join(event["points"])
        elif kind == "count":
            bar.text = "count: %s" % event["result"]
        elif kind == "bowls" and event["phase"] == "after-count":
            bar.text = "filled in; putting away"

    tracker = track(feed(), on_event)
    bar.close()
    summary = _check(game, simulation, tracker, events, sgf_path)
    _write(out, text, tracker, events, summary, simulation)
    summary["out"] = out
    return summary


def _check(game, simulation, tracker, events, sgf_path):
    board = tracker.game.board
    want = [
        ("B" if m.color == BLACK else "W", "pass" if m.point is None else board.name(m.point))
        for m in game.moves
    ]
    got = [(e["color"], e.get("point", "pass")) for e in events if e["type"] in ("move", "pass")]
    count = next((e for e in events if e["type"] == "count"), None)
    end = next((e for e in events if e["type"] == "end"), None)
    alerts = [e for e in events if e["type"] == "alert"]
    bowls = {e["phase"]: e for e in events if e["type"] == "bowls"}
    settled = {c: tracker.bowls.count(c) for c in "BW"}
    independent = independent_result(sgf_path)
    problems = []
    if got[: len(want)] != want:
        problems.append("the tracked moves differ from the record")
    if count is None or end is None:
        problems.append("the game did not end with a count")
    elif count["result"] != independent:
        problems.append("count %s, independent count %s" % (count["result"], independent))
    bad = [a for a in alerts if a["code"] != "remove-captured"]
    if bad:
        problems.append("%d unexpected alert(s), first: %s" % (len(bad), bad[0]["text"]))
    for phase in ("before", "after-count", "put-away"):
        if phase not in bowls:
            problems.append("no bowl check %s" % phase)
    full = tracker.bowls.total
    if settled != {"B": full, "W": full}:
        problems.append("bowls after put-away: B %s W %s, not %d each" % (
            settled["B"], settled["W"], full))  # fmt: skip
    clock = tracker.clock
    t_end = end["t"] if end else tracker.last_t
    return {
        "game": sgf_path,
        "size": game.size,
        "rules": game.rules,
        "komi": tracker.game.komi,
        "players": game.players,
        "moves": sum(1 for e in events if e["type"] == "move"),
        "passes": sum(1 for e in events if e["type"] == "pass"),
        "record_moves": len(want),
        "log_lines": len(simulation.lines),
        "duration_ms": simulation.duration_ms,
        "removed": [p for e in events if e["type"] == "removal" for p in e["points"]],
        "alerts": [(a["code"], a["text"]) for a in alerts],
        "count": count,
        "plan": tracker.plan,
        "result": tracker.game.result,
        "independent": independent,
        "bowls": bowls,
        "bowls_settled": settled,
        "stones": full,
        "clock": {c: clock.state(t_end)[c] for c in ("B", "W")},
        "t_end": t_end,
        "problems": problems,
        "ok": not problems,
    }


def _write(out, text, tracker, events, summary, simulation):
    paths = {}

    def put(name, data, mode="w"):
        path = os.path.join(out, name)
        tmp = path + ".tmp"
        with open(tmp, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            f.write(data)
        os.replace(tmp, path)
        paths[name] = path

    put("session.log", text)
    put("events.jsonl", "".join(json.dumps(e) + "\n" for e in events))
    put("game.sgf", tracker_sgf(tracker))
    board = tracker.game.board
    plan = tracker.plan
    count = summary["count"] or {}
    if plan and plan.get("final"):
        rows = plan["final"]
        marks = dict(plan["points"])
        filled = [
            board.name(board.index(col, board.size - 1 - i))
            for i, line in enumerate(rows)
            for col, ch in enumerate(line)
            if ch != "." and board.rows()[i][col] == "."
        ]
    else:
        rows, marks, filled = board.rows(), {}, []
    legend = [
        "Count (%s): Black %s, White %s, komi %s -> %s"
        % (
            summary["rules"],
            count.get("black"),
            count.get("white"),
            summary["komi"],
            summary["result"],
        ),  # fmt: skip
        "red ring: winning space   red cross: losing stones   blue box: komi stones",
        "grey dot: stones filled in for the count",
    ]
    title = "ingboard demo: %s" % os.path.basename(summary["game"])
    img = board_image(rows, marks, filled, cell=32, title=title, legend=legend)
    path = os.path.join(out, "board.png")
    img.save(path + ".tmp.png")
    os.replace(path + ".tmp.png", path)
    paths["board.png"] = path
    path = os.path.join(out, "clock.png")
    pair_image(tracker.clock, summary["t_end"], scale=3).save(path + ".tmp.png")
    os.replace(path + ".tmp.png", path)
    paths["clock.png"] = path
    summary["files"] = paths


def _mmss(ms):
    s = max(0, ms) // 1000
    return "%d:%02d" % (s // 60, s % 60)


def summary_lines(s):
    count = s["count"] or {}
    players = s["players"] or {}
    who = players.get("B", "?") if players.get("B") == players.get("W") else "%s vs %s" % (
        players.get("B", "?"), players.get("W", "?"))  # fmt: skip
    lines = [
        "ingboard demo: %s, %dx%d, %s, komi %s (%s)"
        % (who, s["size"], s["size"], s["rules"], s["komi"], os.path.relpath(s["game"])),
        "simulated: %d log lines, %s of board time" % (s["log_lines"], _mmss(s["duration_ms"])),
        "tracked: %d moves and passes of the record %s, then %d passes to end play"
        % (
            s["record_moves"],
            "all as recorded"
            if "the tracked moves differ from the record" not in s["problems"]
            else "NOT as recorded",
            s["moves"] + s["passes"] - s["record_moves"],
        ),  # fmt: skip
        "dead stones taken off: %s" % (" ".join(s["removed"]) or "none"),
    ]
    reminders = sum(1 for code, _t in s["alerts"] if code == "remove-captured")
    others = len(s["alerts"]) - reminders
    lines.append(
        "alerts: %d (%d reminder%s to lift captured stones)"
        % (len(s["alerts"]), reminders, "" if reminders == 1 else "s")
        + ("" if not others else "; %d other" % others)
    )
    if count:
        extra = ""
        if count.get("winning_space") or count.get("losing_stones"):
            extra = "; winning space %s, %d losing stone%s" % (
                count.get("winning_space") or "-", count.get("losing_stones", 0),
                "" if count.get("losing_stones") == 1 else "s")  # fmt: skip
        lines.append(
            "count (Ing fill-in): Black %d, White %d, komi %s -> %s%s"
            % (count["black"], count["white"], count["komi"], count["result"], extra)
        )
    agree = "agrees" if s["independent"] == s["result"] else "DISAGREES"
    lines.append(
        "independent count (sgfmill area score, dead stones off, less komi): %s - %s"
        % (s["independent"], agree)
    )
    lines.append("bowls: " + "; ".join(_bowl_text(s, p) for p in ("before", "after-count",
                                                                   "put-away")))  # fmt: skip
    clock = s["clock"]
    lines.append(
        "clock: Black %s left, White %s left (basic time), penalties B %d, W %d"
        % (
            _mmss(clock["B"]["main_ms"]),
            _mmss(clock["W"]["main_ms"]),
            clock["B"]["penalty"],
            clock["W"]["penalty"],
        )  # fmt: skip
    )
    files = s.get("files", {})
    lines.append("wrote: %s" % " ".join(os.path.relpath(files[k]) for k in sorted(files)))
    lines.append("result: %s - %s" % (s["result"], "ok" if s["ok"] else "; ".join(s["problems"])))
    return lines


def _bowl_text(s, phase):
    e = s["bowls"].get(phase)
    if e is None:
        return "%s: no check" % phase
    parts = []
    for c in "BW":
        n = e.get(c)
        want = (e.get("expected") or {}).get(c)
        parts.append("%s %s%s" % (c, "?" if n is None else n,
                                  "" if n is None or want is None else
                                  (" ok" if n == want else " (expected %s)" % want)))  # fmt: skip
    text = "%s %s" % (phase, ", ".join(parts))
    if phase == "put-away" and not e.get("confident"):
        settled = s["bowls_settled"]
        text += " (still moving; settled: B %s, W %s of %d)" % (
            settled["B"], settled["W"], s["stones"])  # fmt: skip
    return text

"""Tracker latency: board time from a stone settling to its move event, over the corpus.

Every corpus game is turned into a session log at "typical" noise (host_tools.simulate, seed
= the game's index) and replayed through the firmware's tracker (`session_replay.track`) on
CPython: board time is the log's time, the same on every interpreter. A stone has *settled*
at the first scan from which its point reads the stone's colour without a break up to its
move event (the hand has left, flicker is over). Latency = move event time - that scan's time.
A move event with no such scan (the tracker committed before the stone could be read) is
counted separately, as are moves the tracker never reported.
"""

from bench import BenchError, Figure, missing, percentile

GOAL_P95_MS = 150
NOISE = "typical"


def tracker_module():
    """The session-log replay through the tracker (records/session_replay.py), or None."""
    try:
        from ingboard.records import session_replay
    except ImportError:
        return None
    return session_replay if hasattr(session_replay, "track") else None


def settle_times(records, size):
    """{point name: [(t, char)]}: every change of every point's reading, in time order."""
    columns = "ABCDEFGHJKLMNOPQRST"
    changes = {}
    last = None
    for record in records:
        if record.kind != "scan":
            continue
        rows = record.payload
        for i in range(size):
            row = rows[i]
            if last is not None and row == last[i]:
                continue
            for c in range(size):
                ch = row[c]
                if last is None or ch != last[i][c]:
                    name = "%s%d" % (columns[c], size - i)
                    changes.setdefault(name, []).append((record.t_ms, ch))
        last = rows
    return changes


def game_latencies(sgf_bytes, seed, track):
    """([latency ms], unexplained count, missed count) of one game."""
    from ingboard.records import session_read

    from host_tools import simulate as sim

    game = sim.load_game(sgf_bytes)
    simulation = sim.simulate(game, NOISE, seed)
    records = list(session_read.records(simulation.lines))
    events = []
    track(records, events.append)
    moves = {e["n"]: e for e in events if e["type"] == "move"}
    changes = settle_times(records, game.size)
    latencies = []
    early = 0
    missed = 0
    for m in simulation.moves:
        if m["point"] is None:
            continue
        event = moves.get(m["n"])
        if event is None or event["point"] != m["point"]:
            missed += 1
            continue
        t_event = event["t"]
        colour = m["color"]
        settled = None
        for t, ch in changes.get(m["point"], ()):
            if t > t_event:
                break
            settled = t if ch == colour else None
        if settled is None:
            early += 1
        else:
            latencies.append(t_event - settled)
    return latencies, early, missed


def measure(corpus=None, log=print):
    from bench import games

    tracker = tracker_module()
    if tracker is None:
        reason = "tracker not yet built"
        return [
            missing("latency_median", "ms", None, reason),
            missing("latency_p95", "ms", ("<=", GOAL_P95_MS), reason),
            missing("latency_max", "ms", None, reason),
        ]
    corpus = corpus if corpus is not None else games.corpus_games()
    all_latencies = []
    early = missed = 0
    for seed, game in enumerate(corpus):
        with open(game["path"], "rb") as f:
            data = f.read()
        lat, e, m = game_latencies(data, seed, tracker.track)
        all_latencies += lat
        early += e
        missed += m
    if not all_latencies:
        raise BenchError("the tracker reported no move of the corpus")
    log(
        "# latency: %d corpus games at %s noise, %d stones measured; %d move events before "
        "the stone could be read, %d stones the tracker did not report as that move"
        % (len(corpus), NOISE, len(all_latencies), early, missed)
    )
    return [
        Figure("latency_median", percentile(all_latencies, 50), "ms"),
        Figure("latency_p95", percentile(all_latencies, 95), "ms", ("<=", GOAL_P95_MS)),
        Figure("latency_max", max(all_latencies), "ms"),
        Figure("latency_unreported", missed, "moves", ("<=", 0)),
    ]

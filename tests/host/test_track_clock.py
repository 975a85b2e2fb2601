"""Issue 5 through the command line: a session log with presses drives the Ing clock through
`ingboard track`; the SGF and the count carry the penalty (Ing 1991 Art. 7 and Art. 4)."""

import json
import subprocess
import sys

from host_tools import ROOT

SIZE = 5
# (move point, colour) in order; Black thinks past the 60 s basic time before C4.
MOVES = [("C1", "B"), ("D1", "W"), ("C2", "B"), ("D2", "W"), ("C3", "B"), ("D3", "W")]
MOVES += [("C4", "B"), ("D4", "W"), ("C5", "B"), ("D5", "W")]


def rows(stones):
    grid = [["."] * SIZE for _ in range(SIZE)]
    for name, colour in stones:
        grid[SIZE - int(name[1:])]["ABCDE".index(name[0])] = colour
    return "/".join("".join(r) for r in grid)


def session_log():
    config = {"size": SIZE, "rules": "ing1991", "komi": 0}
    config["time"] = {"system": "ing-pp", "basic_s": 60}
    lines = ["ingboard-session 1", "0 config " + json.dumps(config), "0 scan " + rows([])]
    t = 0
    stones = []
    for name, colour in MOVES:
        t += 54000 if name == "C4" else 2000  # Black's long think: basic time exceeded
        stones.append((name, colour))
        lines.append("%d scan %s" % (t, rows(stones)))
        t += 400
        lines.append("%d press %s" % (t, colour))
    for colour in "BWBW":  # two passes pause play, two more end it (Ing 1991 terms 18-19)
        t += 1000
        lines.append("%d press %s" % (t, colour))
    return "\n".join(lines) + "\n"


def test_track_drives_the_clock_and_the_penalty_reaches_the_count_and_sgf(tmp_path):
    log = tmp_path / "game.log"
    log.write_text(session_log())
    sgf_path, events_path = tmp_path / "game.sgf", tmp_path / "events.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "track", str(log), "--quiet"]
        + ["--sgf", str(sgf_path), "--events", str(events_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in events_path.read_text().splitlines()]
    clocks = [e for e in events if e["type"] == "clock"]
    assert any(e["B"]["penalty"] == 2 and e["B"]["period"] == 1 for e in clocks)
    assert len({e["t"] for e in clocks}) == len(clocks)  # one clock event per instant
    assert [e["type"] for e in events].count("pause") == 1  # passes in the pause: no new pause
    count = next(e for e in events if e["type"] == "count")
    # Black 15, White 10 on the board; Black's 2 penalty points are one stone: 5 - 2 = 3.
    assert count["penalty"] == {"B": 2, "W": 0} and count["result"] == "B+3"
    end = next(e for e in events if e["type"] == "end")
    assert end == {"t": end["t"], "type": "end", "result": "B+3", "reason": "count"}
    sgf = sgf_path.read_text()
    assert "TM[60]" in sgf and "OT[3x10 Ing-PP]" in sgf and "IP[B2W0]" in sgf
    assert "RE[B+3]" in sgf and sgf.count("BL[") >= 5 and sgf.count("WL[") >= 5


def test_track_invents_no_time_after_the_log_ends(tmp_path):
    # A log that stops mid-game (a bug report, a power cut): nobody lost on time.
    log = tmp_path / "cut.log"
    config = {"size": SIZE, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 60}}
    log.write_text(
        "ingboard-session 1\n0 config %s\n0 scan %s\n1000 scan %s\n2000 press B\n"
        % (json.dumps(config), rows([]), rows([("C3", "B")]))
    )
    events_path = tmp_path / "events.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "track", str(log), "--events", str(events_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in events_path.read_text().splitlines()]
    assert not [e for e in events if e["type"] == "end"]
    assert max(e["t"] for e in events) <= 2000 + 1500

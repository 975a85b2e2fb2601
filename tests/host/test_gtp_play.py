"""`ingboard gtp`: a full 9x9 game against the real GNU Go on the simulated board, a second
GNU Go as the person's brain; every stone goes through the firmware's tracker."""

import os
import subprocess
import sys

import pytest
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track
from sgfmill import boards, sgf

from host_tools import ROOT
from host_tools.gtp import find_gnugo

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_gnugo() is None, reason="GNU Go not installed (make setup)"),
]


def ingboard(*args, timeout=240):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


def area_result(sgf_bytes, dead):
    """sgfmill's area score of the record's final position without `dead`, less komi."""
    record = sgf.Sgf_game.from_bytes(sgf_bytes)
    board = boards.Board(record.get_size())
    for node in record.get_main_sequence():
        colour, move = node.get_move()
        if colour and move:
            board.play(move[0], move[1], colour)
    cols = "ABCDEFGHJKLMNOPQRST"
    board.apply_setup((), (), [(int(p[1:]) - 1, cols.index(p[0])) for p in dead])
    margin = board.area_score() - record.get_komi()
    return "Draw" if margin == 0 else ("B+%g" % margin if margin > 0 else "W+%g" % -margin)


def test_full_9x9_game_against_gnugo_reaches_the_count(tmp_path):
    log = tmp_path / "game.log"
    record = tmp_path / "game.sgf"
    done = ingboard(
        "gtp",
        "--engine",
        "gnugo --mode gtp --level 1",
        "--player",
        "gnugo --mode gtp --level 0",
        "--size",
        "9",
        "--log",
        str(log),
        "--sgf",
        str(record),
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    engine_moves = [line for line in lines if line.startswith("display: W plays")]
    assert len(engine_moves) >= 10  # a real game (its length depends on the engines)
    # The session log replays to the same game: every move, the pause, the count.
    events = []
    tracker = track(read_text(log.read_text()), events.append)
    assert tracker.game.phase == "ended" and tracker.game.end_reason == "count"
    count = next(e for e in events if e["type"] == "count")
    assert lines[-1].endswith("result %s" % count["result"])
    passes = [e for e in events if e["type"] == "pass"]
    assert len(passes) >= 4
    # Each engine move shown on the display was committed by the tracker as White's move.
    white = [e["point"] for e in events if e["type"] == "move" and e["color"] == "W"]
    shown = [line.split()[-1] for line in engine_moves if not line.endswith("PASS")]
    assert white == shown
    # The count agrees with an independent area count of the tracker's own SGF.
    dead = [p for e in events if e["type"] == "removal" for p in e["points"]]
    assert count["result"] == area_result(record.read_bytes(), dead)
    assert sgf.Sgf_game.from_bytes(record.read_bytes()).get_root().get("RE") == count["result"]


def test_gtp_bad_input_is_one_line_exit_2(tmp_path):
    missing = ingboard("gtp", "--engine", "no-such-engine-xyz --mode gtp", timeout=30)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "no-such-engine-xyz" in missing.stderr
    empty = ingboard("gtp", "--engine", "", timeout=30)
    assert empty.returncode == 2 and empty.stderr.count("\n") == 1
    size = ingboard("gtp", "--engine", "gnugo --mode gtp", "--size", "30", timeout=30)
    assert size.returncode == 2 and size.stderr.count("\n") == 1
    rules = ingboard("gtp", "--engine", "gnugo --mode gtp", "--rules", "bogus", timeout=30)
    assert rules.returncode == 2 and rules.stderr.count("\n") == 1
    assert os.listdir(tmp_path) == []

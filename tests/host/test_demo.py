"""`ingboard demo` and the end of a simulated game (simulate.py `finish=True`): dead stones off,
the passes that end play, the Ing fill-in to the tracker's count plan, put-away with the bowl
checks; the result checked against sgfmill's area score of the record's final position."""

import json
import os
import subprocess
import sys

import pytest
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track
from sgfmill import boards, sgf

from host_tools import ROOT
from host_tools import simulate as sim

DATA = os.path.join(ROOT, "host_tools", "data")
GAMES = ("demo_game.sgf", "demo_game_13.sgf")


def independent_result(path):
    """sgfmill's area count of the record's final position, the comment's dead stones
    removed, less komi: "B+n" / "W+n" (the Ing fill-in count must agree with area scoring)."""
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    board = boards.Board(game.get_size())
    for node in game.get_main_sequence():
        colour, move = node.get_move()
        if colour and move:
            board.play(move[0], move[1], colour)
    comment = game.get_root().get("GC")
    for vertex in comment.split("dead:")[1].split():
        col = "ABCDEFGHJKLMNOPQRST".index(vertex[0])
        row = int(vertex[1:]) - 1
        colour = board.get(row, col)
        # sgfmill has no chain removal: flood the chain by hand.
        todo = [(row, col)]
        while todo:
            r, c = todo.pop()
            if board.get(r, c) != colour:
                continue
            board.apply_setup((), (), [(r, c)])
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < board.side and 0 <= c + dc < board.side:
                    todo.append((r + dr, c + dc))
    margin = board.area_score() - game.get_komi()
    return ("B+%g" % margin) if margin > 0 else ("W+%g" % -margin)


def run(simulation):
    events = []
    tracker = track(read_text(simulation.text()), events.append)
    return tracker, events


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("noise,seed", [("none", 0), ("typical", 1), ("typical", 2), ("harsh", 3)])
def test_finished_game_is_counted_filled_in_and_put_away(name, noise, seed):
    path = os.path.join(DATA, name)
    game = sim.read_game(path)
    simulation = sim.simulate(game, noise, seed, finish=True)
    tracker, events = run(simulation)
    kinds = [e["type"] for e in events]
    # Every move of the record, then the two passes that end play.
    played = [e for e in events if e["type"] in ("move", "pass")]
    assert len(played) == len(game.moves) + 2
    assert all(e["type"] == "pass" for e in played[-4:])
    # Dead stones: exactly the record's dead chains were taken off during the pause.
    removed = sorted(p for e in events if e["type"] == "removal" for p in e["points"])
    board = tracker.game.board
    assert removed == sorted(board.name(p) for p in sim.dead_stones(game))
    assert removed == sorted(simulation.ending["dead"])
    # The count, then the end, then the two bowl checks in order.
    count = next(e for e in events if e["type"] == "count")
    assert count["result"] == independent_result(path)
    assert count == dict(simulation.ending["count"], t=count["t"])
    assert tracker.game.result == count["result"]
    i_end = kinds.index("end")
    phases = [e["phase"] for e in events[i_end:] if e["type"] == "bowls"]
    assert phases == ["after-count", "put-away"]
    # The board became the tracker's plan, which is scoring.ing_fill_in of the final position.
    assert tracker.plan["final"] == simulation.ending["final"]
    assert tracker.filled and tracker.put_away
    # A correct game raises no alert but the reminder about captured stones left lying.
    alerts = [e for e in events if e["type"] == "alert" and e["code"] != "remove-captured"]
    assert alerts == []
    # Where the bowls were confident, they held what the count says.
    after = next(e for e in events if e["type"] == "bowls" and e["phase"] == "after-count")
    plan_after = tracker.plan["bowls_after"]
    for colour in "BW":
        assert after[colour] in (None, plan_after[colour])


def test_ideal_bowls_confirm_the_after_count_check():
    game = sim.read_game(os.path.join(DATA, "demo_game_13.sgf"))
    _tracker, events = run(sim.simulate(game, "none", 0, finish=True))
    after = next(e for e in events if e["type"] == "bowls" and e["phase"] == "after-count")
    assert after["confident"] and after["B"] == after["expected"]["B"]


def test_dead_stones_from_a_private_property_and_bad_lists():
    text = open(os.path.join(DATA, "demo_game_13.sgf"), encoding="utf-8").read()
    # The same dead stones written as DS[] in SGF coordinates instead of the comment.
    with_ds = text.replace("GC[", "DS[dd][kk]GC[no list here ", 1)
    game = sim.load_game(with_ds.encode())
    board = sim.final_board(game)
    assert sorted(board.name(p) for p in game.dead) == ["D10", "L3"]
    bad = text.replace("dead: D10", "dead: Z99")
    with pytest.raises(sim.InputError, match="dead"):
        sim.load_game(bad.encode())
    empty_point = text.replace("dead: D10", "dead: A1")
    with pytest.raises(sim.InputError, match="A1"):
        sim.load_game(empty_point.encode())


def ingboard(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_demo_command_writes_the_files_and_a_correct_result(tmp_path):
    from PIL import Image

    out = tmp_path / "demo"
    done = ingboard("demo", "--out", str(out))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    path = os.path.join(DATA, "demo_game_13.sgf")
    want = independent_result(path)
    assert lines[-1] == "result: %s - ok" % want
    assert any(line.startswith("count (Ing fill-in):") and want in line for line in lines)
    # No progress bar: stderr is a pipe here, not a terminal (test_cli_files checks the bar
    # is drawn on one).
    assert "\r" not in done.stderr and "%" not in done.stderr
    names = sorted(os.listdir(out))
    assert names == ["board.png", "clock.png", "events.jsonl", "game.sgf", "session.log"]
    # The SGF is the tracker's: the record's moves, the result of the count.
    record = sgf.Sgf_game.from_bytes((out / "game.sgf").read_bytes())
    source = sgf.Sgf_game.from_bytes(open(path, "rb").read())
    moves = [n.get_move() for n in record.get_main_sequence()][1:]
    expected = [n.get_move() for n in source.get_main_sequence()][1:]
    assert moves[: len(expected)] == expected
    assert record.get_root().get("RE") == want
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert [e["phase"] for e in events if e["type"] == "bowls"] == [
        "before",
        "after-count",
        "put-away",
    ]
    assert not [e for e in events if e["type"] == "alert" and e["code"] == "bowl-mismatch"]
    # The session log replays to the same result with `ingboard track`.
    tracked = ingboard("track", str(out / "session.log"), "--quiet")
    assert tracked.returncode == 0 and tracked.stdout.strip().endswith("result %s" % want)
    # Pictures: the board with its marks, both clock faces (the firmware's 128x64 at scale 3).
    board = Image.open(out / "board.png").convert("RGB")
    reds = sum(1 for px in board.get_flattened_data() if px[0] > 180 and px[1] < 60 and px[2] < 60)
    assert board.size[0] > 400 and reds > 100  # winning space ring and losing-stone crosses
    clock = Image.open(out / "clock.png")
    assert clock.size[0] > 2 * 128 * 3 and clock.size[1] > 64 * 3


def test_demo_bad_input_is_one_line_exit_2(tmp_path):
    missing = ingboard("demo", "--sgf", str(tmp_path / "nope.sgf"), "--out", str(tmp_path))
    assert missing.returncode == 2
    assert missing.stderr.count("\n") == 1 and "nope.sgf" in missing.stderr
    blocked = tmp_path / "file"
    blocked.write_text("x")
    not_dir = ingboard("demo", "--out", str(blocked / "sub"))
    assert not_dir.returncode == 2 and not_dir.stderr.count("\n") == 1
    noise = ingboard("demo", "--noise", "loud")
    assert noise.returncode == 2 and noise.stderr.count("\n") == 1

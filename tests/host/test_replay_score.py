"""`ingboard replay` and `ingboard score` as in the CLI spec: JSON lines, illegal moves, errors."""

import json
import os
import subprocess
import sys

import pytest

from host_tools import ROOT

DEMO = os.path.join(ROOT, "host_tools", "data", "demo_game.sgf")


def ingboard(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args], capture_output=True, text=True, cwd=ROOT
    )


def write(tmp_path, text, name="g.sgf"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_replay_json_every_move_and_the_end():
    proc = ingboard("replay", DEMO, "--json")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    moves, end = lines[:-1], lines[-1]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert all(m["legal"] and m["reason"] is None for m in moves)
    assert set(moves[0]) == {"n", "color", "move", "legal", "captures", "reason"}
    assert end["end"] is True and set(end) == {"end", "to_play", "area", "captures"}
    from sgfmill import sgf, sgf_moves

    with open(DEMO, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    board, _moves = sgf_moves.get_setup_and_moves(game)
    for colour, point in _moves:
        if point:
            board.play(point[0], point[1], colour)
    # sgfmill's area_score is Black's area minus White's.
    assert end["area"]["B"] - end["area"]["W"] == board.area_score()


def test_replay_stops_at_the_first_illegal_move_with_its_reason(tmp_path):
    # A basic ko retaken at once: Ing 1991 Art. 3 (hot stone) -> "ko".
    sgf = "(;GM[1]FF[4]SZ[5]RU[ing1991]AB[bb][ac][bd]AW[cb][bc][dc][cd]PL[B];B[cc];W[bc];B[ee])"
    proc = ingboard("replay", write(tmp_path, sgf), "--json")
    assert proc.returncode == 1
    last = json.loads(proc.stdout.splitlines()[-1])
    assert last == {
        "n": 2,
        "color": "W",
        "move": "B3",
        "legal": False,
        "captures": [],
        "reason": "ko",
    }
    proc = ingboard("replay", write(tmp_path, sgf), "--json", "--rules", "aga")
    assert json.loads(proc.stdout.splitlines()[-1])["reason"] == "superko"


def test_replay_not_your_turn(tmp_path):
    proc = ingboard("replay", write(tmp_path, "(;SZ[9];B[ee];B[dd])"), "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout.splitlines()[-1])["reason"] == "not-your-turn"


@pytest.mark.parametrize(
    "text, needle",
    [
        ("(;SZ[9];B[ee]", "not a valid SGF"),
        ("this is not sgf", "not a valid SGF"),
        ("(;SZ[25];B[aa])", "out of range"),
        ("(;SZ[4];B[aa])", "out of range"),
        ("(;SZ[9];B[zz])", "move 1"),
        ("(;SZ[9];B[ee]W[dd])", "both a black and a white"),
        ("(;SZ[9]PL[X];B[ee])", "PL"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, text, needle):
    for command in ("replay", "score"):
        proc = ingboard(command, write(tmp_path, text))
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1
        assert needle in proc.stderr and proc.stdout == ""


def test_missing_file_and_unknown_rules(tmp_path):
    proc = ingboard("replay", str(tmp_path / "nope.sgf"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    proc = ingboard("replay", DEMO, "--rules", "korean")
    assert proc.returncode == 2 and "unknown rules" in proc.stderr


def test_score_counts_with_dead_stones(tmp_path):
    # 5x5: Black owns the left, White the right; a black stone at E5 is dead.
    sgf = "(;SZ[5]KM[0]RU[chinese]AB[ba][bb][bc][bd][be][ea]AW[ca][cb][cc][cd][ce])"
    proc = ingboard("score", write(tmp_path, sgf), "--json")
    assert proc.returncode == 0, proc.stderr
    alive = json.loads(proc.stdout)
    proc = ingboard("score", write(tmp_path, sgf), "--json", "--dead", "E5")
    dead = json.loads(proc.stdout)
    assert dead["area"] == {"B": 10, "W": 15, "neutral": 0}
    assert dead["result"] == "W+5"
    assert alive["area"] == {"B": 11, "W": 5, "neutral": 9}
    proc = ingboard("score", write(tmp_path, sgf), "--dead", "A1")
    assert proc.returncode == 2 and "no stone at A1" in proc.stderr


def test_score_without_km_uses_the_rulesets_komi(tmp_path):
    # cli.md: "the result with the ruleset's komi" (Ing: 8).
    proc = ingboard("score", write(tmp_path, "(;GM[1]FF[4]SZ[9]RU[Ing];B[ee];W[cc])"), "--json")
    out = json.loads(proc.stdout)
    assert out["komi"] == 8 and out["result"] == "W+8"


def _aga_record(seed, size, ending):
    # A finished AGA game from a deterministic generator (random legal plays, some single
    # passes), as SGF text ending with `ending`: "B W" or "W B" (the two last pass plays).
    from ingrules.board import BLACK, WHITE
    from ingrules.game import Game
    from ingrules.sgf import game_sgf

    g = Game(size, "aga")
    x = seed * 69069 + 5
    passed = False
    for _ in range(size * size * 3 // 4):  # no more stones than a set holds
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if not passed and x % 8 == 0:
            g.pass_move(g.to_play)
            passed = True
            continue
        legal = [
            g.board.index(c, r)
            for r in range(size)
            for c in range(size)
            if g.legality(g.to_play, g.board.index(c, r)) is None
        ]
        g.play(g.to_play, legal[x % len(legal)])
        passed = False
    first = BLACK if ending[0] == "B" else WHITE
    if g.to_play != first:
        legal = [
            g.board.index(c, r)
            for r in range(size)
            for c in range(size)
            if g.legality(g.to_play, g.board.index(c, r)) is None
        ]
        g.play(g.to_play, legal[0])
    for who in ending.split():
        g.pass_move(BLACK if who == "B" else WHITE)
    return game_sgf(g)


@pytest.mark.parametrize("seed", range(6))
def test_score_aga_rule_11_white_passes_last_area_and_territory_agree(seed):
    # AGA Rule 11 "White must make the last move--if necessary, an additional, pass, with a
    # stone passed to the opponent as usual"; appendix: the "area" and "territory" scores of a
    # game "will always be the same". A record ending "W pass, B pass" is owed White's pass
    # stone at the territory count.
    from host_tools import sgf_input
    from host_tools.commands.score import score_record

    for ending in ("B W", "W B"):
        text = _aga_record(seed, (7, 9)[seed % 2], ending)
        record = sgf_input.parse(text.encode())
        area = score_record(record, "aga")[0]["count"]
        terr = score_record(record, "aga-territory")[0]["count"]
        assert (area["difference"], area["result"]) == (terr["difference"], terr["result"]), (
            ending,
            area,
            terr,
        )

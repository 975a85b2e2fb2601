"""Complete SGF records (issue 15 item 7): re-scoring any SGF the board wrote with `ingboard score`
gives exactly its RE, under every ruleset, over the whole corpus; `ingboard replay` honours HA/AB
and the Ing handicap plays; the record carries AP/RU/IR/DT/EV/RO/PB/PW, the dead stones (TB/TW,
DS), alerts and retractions as comments, and numbers White's mandatory passes (Ing 1991
Art. 10 "Recorder": "Pass plays should be numbered and recorded")."""

import json
import os
import subprocess
import sys

import pytest
from ingboard import VERSION
from ingboard.clock.clock import Clock
from ingboard.records.session_read import records
from ingboard.records.session_replay import track
from ingboard.records.sgf_record import record_sgf, tracker_sgf
from ingrules import rulesets
from ingrules.board import BLACK, WHITE
from ingrules.counting import count_game
from ingrules.game import PAUSED, PLAY, Game, IllegalMove
from sgfmill import sgf as sgfmill_sgf

from host_tools import ROOT, sgf_input
from host_tools import simulate as sim
from host_tools.commands.score import score_record
from host_tools.errors import InputError


def dead_by_agreement(board):
    """Chains the players take off in these tests: every chain of 1-5 stones with at most two
    liberties (any choice is a valid agreement; the record must carry exactly it)."""
    seen = set()
    dead = []
    for p in range(len(board.cells)):
        if board.get(p) not in (BLACK, WHITE) or p in seen:
            continue
        chain = board.chain(p)
        seen.update(chain)
        libs = set()
        for q in chain:
            libs.update(n for n in board.neighbours(q) if board.get(n) == 0)
        if len(chain) <= 5 and len(libs) <= 2:
            dead.append(p)
    return dead


def play_to_the_end(game, moves, dead=None):
    """The corpus moves (up to the first one this ruleset forbids), then passes to the pause,
    the dead stones off, agreement."""
    for color, point in moves:
        if color != game.to_play or game.phase != PLAY:
            break
        try:
            if point is None:
                game.pass_move(color)
            else:
                game.play(color, point)
        except IllegalMove:
            break
    while game.phase == PLAY:
        game.pass_move(game.to_play)
    if game.phase == PAUSED:
        for p in dead_by_agreement(game.board) if dead is None else dead:
            if game.board.get(p):
                game.remove_dead(p)
        game.agree()


def rescore(text, tmp_path=None):
    record = sgf_input.parse(text.encode())
    return score_record(record)[0]


@pytest.mark.parametrize("rules", rulesets.NAMES)
def test_rescoring_the_boards_sgf_gives_its_result_over_the_corpus(corpus, rules):
    checked = 0
    for path in corpus:
        game_in = sim.read_game(path)
        game = Game(game_in.size, rules)
        play_to_the_end(game, [(m.color, m.point) for m in game_in.moves])
        try:
            count = count_game(game)[0]
        except ValueError as exc:
            # More stones of a colour on the board than the set holds (a 9x9 set has 40:
            # Ing 1991 Art. 12 "half the number of points on the board minus one").
            assert "set has" in str(exc)
            continue
        game.result = count["result"]
        text = record_sgf(game, Clock(None), {"date": "2026-11-23"})
        out = rescore(text)
        assert out["result"] == game.result, (path, rules)
        assert out["ended"] == "count"
        assert sorted(out["dead"]) == sorted(game.board.name(p) for p, _c in game.dead)
        checked += 1
    assert checked >= len(corpus) * 2 // 3


def simulated(game, **config):
    simulation = sim.simulate(game, "none", seed=1, finish=True)
    lines = simulation.text().splitlines()
    if config:
        head = json.loads(lines[1].split(" ", 2)[2])
        head.update(config)
        lines[1] = "0 config " + json.dumps(head)
    events = []
    tracker = track(records(lines), events.append)
    return tracker, events


@pytest.mark.parametrize("rules", rulesets.NAMES)
def test_tracked_games_round_trip_under_every_ruleset(corpus, rules):
    nine = [p for p in corpus if sim.read_game(p).size == 9][:3]
    for path in nine:
        game = sim.read_game(path)
        game.rules = rules
        game.komi = 8 if rulesets.get(rules).fill_in else game.komi
        game.dead = dead_by_agreement(sim.final_board(game))
        tracker, _events = simulated(game)
        if tracker.game.result is None:
            continue  # a position the set cannot fill (see above)
        text = tracker_sgf(tracker)
        out = rescore(text)
        assert out["result"] == tracker.game.result, (path, rules)


def test_the_record_carries_what_the_board_knows(corpus):
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    game.dead = dead_by_agreement(sim.final_board(game))
    assert game.dead
    tracker, _events = simulated(
        game, date="2026-11-23", event="Club night", round="3", players={"B": "Ann", "W": "Bo"}
    )
    text = tracker_sgf(tracker)
    root = sgfmill_sgf.Sgf_game.from_bytes(text.encode()).get_root()
    assert root.get("AP") == ("ingboard", VERSION)
    assert root.get("RU") == "GOE" and root.get_raw("IR") == b"ing1991"
    assert root.get("DT") == "2026-11-23" and root.get("EV") == "Club night"
    assert root.get("RO") == "3" and root.get("PB") == "Ann" and root.get("PW") == "Bo"
    assert root.get("RE") == tracker.game.result
    last = sgfmill_sgf.Sgf_game.from_bytes(text.encode()).get_main_sequence()[-1]
    dead = {tracker.game.board.sgf(p) for p, _c in tracker.game.dead}
    assert dead and {x.decode() for x in last.get_raw_list("DS")} == dead
    for p, colour in tracker.game.dead:  # never marked as its own colour's territory
        assert tracker.game.board.sgf(p) not in (
            last.get_raw_list("TB") if colour == BLACK and last.has_property("TB") else ()
        )


def test_dead_stones_come_back_from_the_territory_markup_alone():
    # FF[4] TB/TW: the territory markup of the final node names the dead stones too.
    game = Game(9, "ing1991")
    moves = ["E1", "F1", "E2", "F2", "E3", "F3", "E4", "F4", "E5", "F5", "E6", "F6", "E7", "F7"]
    moves += ["E8", "F8", "E9", "F9", "H5", "B5"]  # each a stone in the other's area
    for i, name in enumerate(moves):
        game.play(BLACK if i % 2 == 0 else WHITE, game.board.parse(name))
    play_to_the_end(game, [], [game.board.parse("B5"), game.board.parse("H5")])
    assert sorted(game.board.name(p) for p, _c in game.dead) == ["B5", "H5"]
    game.result = count_game(game)[0]["result"]
    text = record_sgf(game, Clock(None), {})
    assert "DS[be][he]" in text
    out = rescore(text.replace("DS[be][he]", ""))
    assert sorted(out["dead"]) == ["B5", "H5"] and out["result"] == game.result


def test_results_won_without_counting_are_recorded_and_rescored():
    # Ing 1991 Art. 1 "Game": "When the score is not counted, the winner is said to have won
    # without counting": B+R, W+T, B+F stand as recorded.
    for end, want in (("resign", "W+R"), ("time", "B+T"), ("forfeit", "B+F"), ("void", "Void")):
        game = Game(9, "ing1996")
        game.play(BLACK, game.board.parse("E5"))
        game.play(WHITE, game.board.parse("C3"))
        if end == "void":
            game.void()
        else:
            {"resign": game.resign, "time": game.lose_on_time, "forfeit": game.forfeit}[end](
                BLACK if want[0] == "W" else WHITE
            )
        text = record_sgf(game, Clock(None), {})
        assert "RE[%s]" % want in text
        out = rescore(text)
        assert out["result"] == want and out["ended"] == game.end_reason


def test_ing_handicap_plays_replay_and_rescore(tmp_path):
    # Ing 1991 Art. 6 / 1996 Rule 3: N handicap plays = N mandatory White passes, numbered as
    # plays in the record (Art. 10 "Recorder").
    for rules in ("ing1991", "ing1996"):
        game = Game(9, rules, handicap=2)
        for name in ("C3", "G7", "E5"):
            game.play(BLACK, game.board.parse(name))
        game.play(WHITE, game.board.parse("C7"))
        play_to_the_end(game, [])
        game.result = count_game(game)[0]["result"]
        text = record_sgf(game, Clock(None), {})
        assert "HA[2]" in text
        assert "2: White's mandatory pass play (handicap play 1)" in text
        assert "4: White's mandatory pass play (handicap play 2)" in text
        assert rescore(text)["result"] == game.result
        path = tmp_path / ("%s.sgf" % rules)
        path.write_text(text)
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools", "replay", str(path), "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        lines = [json.loads(x) for x in proc.stdout.splitlines()]
        assert all(x["legal"] for x in lines[:-1])
        assert [x["move"] for x in lines[:6]] == ["C3", "pass", "G7", "pass", "E5", "C7"]


def test_fixed_and_free_handicap_setup_stones_are_honoured():
    # AGA Rule 4: fixed handicap stones, "an additional point of compensation for each Black
    # handicap stone after the first" under area counting - from HA/AB.
    for rules, handicap in (("aga", 4), ("chinese", 3), ("nz", 2), ("japanese", 2)):
        game = Game(9, rules, handicap=handicap)
        if game.free_stones_left:
            for name in ("C3", "G7")[:handicap]:
                game.place_handicap_stone(game.board.parse(name))
        game.play(WHITE, game.board.parse("E5"))
        play_to_the_end(game, [])
        game.result = count_game(game)[0]["result"]
        text = record_sgf(game, Clock(None), {})
        assert "HA[%d]" % handicap in text and "AB[" in text
        out = rescore(text)
        assert out["result"] == game.result and out["handicap"] == handicap, rules


def test_kss_compensation_from_the_cli_and_the_record(tmp_path):
    # Kim/Simon/Straus Part 2 "Counting" 5 as a setting: the record keeps it (IC[kss]).
    game = Game(9, "ing1991", handicap=1, compensation="kss")
    game.play(BLACK, game.board.parse("C3"))
    game.play(BLACK, game.board.parse("G7"))
    play_to_the_end(game, [])
    game.result = count_game(game)[0]["result"]
    text = record_sgf(game, Clock(None), {})
    assert "IC[kss]" in text
    assert rescore(text)["result"] == game.result
    path = tmp_path / "kss.sgf"
    path.write_text(text.replace("IC[kss]", ""))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "host_tools",
            "score",
            str(path),
            "--json",
            "--compensation",
            "kss",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == game.result


def test_alerts_and_retractions_are_comments():
    from test_tracker import Table  # tests/firmware (on sys.path: tests/conftest.py)

    table = Table("ing1991")
    table.play("E5", "B")
    table.put("E5", "W")  # a wrong-colour swap: alert
    table.wait(600)
    table.put("E5", "B")
    table.wait(200)
    table.play("C3", "W")
    table.button("undo")
    text = tracker_sgf(table.tracker)
    assert "C[alert" in text
    assert "retraction: W C3 (ply 2) taken back" in text


def test_bad_markup_is_one_clear_error():
    with pytest.raises(InputError, match="DS"):
        sgf_input.parse(b"(;SZ[9];B[ee];W[]DS[zz])")
    with pytest.raises(InputError, match="IP"):
        sgf_input.parse(b"(;SZ[9]IP[lots];B[ee])")

"""Issue 4 acceptance: every corpus game, simulated at every noise level and tracked, gives the
main line exactly with no false move; injected mistakes give the right alert and change nothing;
malformed session logs are rejected with their line number and nothing is written."""

import json
import os
import subprocess
import sys

import pytest
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

from host_tools import ROOT
from host_tools import simulate as sim

NOISES = ("none", "typical", "harsh")


def expected_line(game, board):
    out = []
    for m in game.moves:
        point = "pass" if m.point is None or m.point < 0 else board.name(m.point)
        out.append(("B" if m.color == 1 else "W", point))
    return out


def run(simulation):
    events = []
    tracker = track(read_text(simulation.text()), events.append)
    return tracker, events


def played(events):
    return [(e["color"], e.get("point", "pass")) for e in events if e["type"] in ("move", "pass")]


@pytest.mark.parametrize("noise", NOISES)
def test_corpus_tracks_exactly_at_every_noise_level(corpus, noise):
    false_moves = 0
    unexpected = []
    for i, path in enumerate(corpus):
        game = sim.read_game(path)
        tracker, events = run(sim.simulate(game, noise, seed=i))
        want = expected_line(game, tracker.game.board)
        got = played(events)
        assert got[: len(want)] == want, (path, noise)
        false_moves += len(got) - len(want)
        for e in events:
            if e["type"] != "alert":
                continue
            # The only alert a correct game may raise: captured stones left on the board when
            # the next stone comes (the simulated players lift some late), each of them a stone
            # that was really captured.
            if e["code"] != "remove-captured":
                unexpected.append((path, e))
    assert false_moves == 0
    assert unexpected == []


@pytest.mark.parametrize("kind", sim.MISTAKES)
def test_injected_mistakes_raise_their_alert_and_change_nothing(corpus, kind):
    checked = 0
    for i, path in enumerate(corpus[:12]):
        game = sim.read_game(path)
        candidates = sim.ko_moves(game) if kind == "ko" else range(6, len(game.moves) - 4, 7)
        for n in list(candidates)[:2]:
            try:
                simulation = sim.simulate(game, "typical", seed=i, mistakes=[(kind, n)])
            except ValueError:
                continue  # no stone to disturb near that move
            tracker, events = run(simulation)
            assert played(events)[: len(game.moves)] == expected_line(game, tracker.game.board)
            for injected in simulation.injected:
                codes = [
                    e
                    for e in events
                    if e["type"] == "alert"
                    and e["code"] == injected["alert"]
                    and injected["t_ms"] <= e["t"] <= injected["until_ms"] + 1000
                ]
                assert codes, (path, n, kind, injected)
                checked += 1
    assert checked >= 2, kind


def test_track_command_writes_sgf_and_events(tmp_path, corpus):
    game = sim.read_game(corpus[0])
    log = tmp_path / "game.log"
    log.write_text(sim.simulate(game, "typical", seed=3).text())
    out_sgf, out_events = tmp_path / "out.sgf", tmp_path / "events.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "track", str(log), "--sgf", str(out_sgf)]
        + ["--events", str(out_events), "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in out_events.read_text().splitlines()]
    assert all("t" in e and "type" in e for e in events)
    from sgfmill import sgf

    record = sgf.Sgf_game.from_bytes(out_sgf.read_bytes())
    moves = [n.get_move() for n in record.get_main_sequence() if n.get_move()[0]]
    assert len(moves) == len(game.moves)
    root = record.get_root()
    assert root.get("RU") and root.get("SZ") == game.size
    assert root.get("TM") == 3600 and root.get("OT") == "3x600 Ing-PP"
    first = record.get_main_sequence()[1]
    assert first.has_property("BL")


BAD_LOGS = [
    ("not-a-session 1\n", 1, "header"),
    ('ingboard-session 1\n0 config {"size": 9, "rules": "ing1991"}\n5 scan ........\n', 3, ""),
    (
        'ingboard-session 1\n0 config {"size": 9, "rules": "ing1991"}\n9 press B\n5 press W\n',
        4,
        "",
    ),
    ('ingboard-session 1\n0 config {"size": 9, "rules": "ing1991"}\n9 wiggle B\n', 3, "wiggle"),
    ("ingboard-session 1\n0 config {size: 9}\n", 2, ""),
    # Settings the reader lets through but the board refuses: still the line, still exit 2.
    ('ingboard-session 1\n0 config {"size": 9, "rules": "ing1991", "komi": 8.3}\n', 2, "komi"),
    (
        'ingboard-session 1\n0 config {"size": 9, "rules": "ing1991", "time": '
        '{"system": "ing-pp", "basic_s": 1e9}}\n',
        2,
        "basic_s",
    ),
    ('ingboard-session 1\n0 config {"size": 9, "rules": "ing1991"}\n5 bowl B 1e20\n', 3, ""),
]


@pytest.mark.parametrize("text, line, word", BAD_LOGS)
def test_malformed_session_log_exit_2_with_the_line_and_nothing_written(
    tmp_path, text, line, word
):
    log = tmp_path / "bad.log"
    log.write_text(text)
    out = tmp_path / "out.sgf"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "track", str(log), "--sgf", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "line %d" % line in proc.stderr and word in proc.stderr
    assert not out.exists() and os.listdir(tmp_path) == ["bad.log"]


def test_unwritable_output_exit_2_and_nothing_written(tmp_path, corpus):
    game = sim.read_game(corpus[0])
    log = tmp_path / "game.log"
    log.write_text(sim.simulate(game, "none", seed=1).text())
    events = tmp_path / "events.jsonl"
    for bad in (str(tmp_path / "missing" / "x.sgf"), str(tmp_path)):
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools", "track", str(log), "--events", str(events)]
            + ["--sgf", bad],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
        assert sorted(os.listdir(tmp_path)) == ["game.log"]  # not even the events file

"""The bench's machinery on a tiny input (`make bench` itself is not part of `make test`).

Two tiny games go through the rules comparison on CPython and under MicroPython (one node
process); a sgfmill that does not capture must make both fail; the report prints MISS for a
missed goal and for a figure that could not be measured.
"""

import re

import pytest
from sgfmill.boards import Board

from bench import BenchError, Figure, games, missing, percentile, rules, rules_job, table

# Black takes White's corner stone, then two passes; a 5×5 game of three plays and a pass.
TINY = "t1 9 bbawaababw--b--\nt2 5 bccwddbcdw--\n"


def test_rules_job_on_cpython_counts_and_times_every_move():
    result = rules_job.run(TINY, Board, "ing1991", repeats=2)
    assert result["games"] == 2 and result["sizes"] == [5, 9]
    assert (result["plays"], result["passes"], result["corpus_moves"]) == (6, 3, 9)
    assert result["stops"] == []
    assert len(result["runs_ours_us"]) == 2 and result["ours_us"] >= 0
    figures = rules.figures_from(dict(result, ours_us=60, sgfmill_us=150), "cpython", (">=", 2))
    assert [f.line() for f in figures] == [
        "rules_cpython_ours 10.00 us/move",
        "rules_cpython_sgfmill 25.00 us/move",
        "rules_cpython_speedup 2.50 x",
    ]


def test_a_refused_move_stops_both_engines_there():
    # White plays on Black's stone: the core refuses it, and neither engine plays past it.
    result = rules_job.run("o 9 bbawbabca\n", Board, "ing1991", repeats=1)
    assert result["stops"] == ["o: 1 of 3 moves (occupied)"]
    assert (result["plays"], result["passes"], result["corpus_moves"]) == (1, 0, 3)


class NoCaptureBoard(Board):
    """A broken engine: it never removes captured stones."""

    def _find_surrounded_groups(self, r, c):
        return []


def test_a_wrong_result_fails_on_cpython():
    with pytest.raises(rules_job.Mismatch, match="t1"):
        rules_job.run(TINY, NoCaptureBoard, "ing1991", repeats=1)


def test_rules_under_micropython_and_a_wrong_result_there():
    sources = games.sgfmill_sources()
    assert "sgfmill_boards.py" in sources
    assert "from ." not in sources["sgfmill_boards.py"]
    result = rules.run_micropython(TINY, sources, repeats=1)
    assert (result["plays"], result["passes"]) == (6, 3)
    broken = dict(sources)
    broken["sgfmill_boards.py"] = sources["sgfmill_boards.py"].replace(
        "self.board[r][c] = None", "pass"
    )
    assert broken["sgfmill_boards.py"] != sources["sgfmill_boards.py"]
    with pytest.raises(BenchError, match="Mismatch"):
        rules.run_micropython(TINY, broken, repeats=1)


def test_report_prints_miss_for_missed_and_unmeasured_goals():
    ok = Figure("fast", 2.5, "x", (">=", 2))
    slow = Figure("slow", 1.5, "x", (">=", 2))
    big = Figure("heap", 50.0, "KB", ("<=", 48))
    none = missing("latency_p95", "ms", ("<=", 150), "tracker not yet built")
    plain = Figure("count", 7, "moves")
    assert ok.line() == "fast 2.50 x"
    assert slow.line() == "slow 1.50 x MISS"
    assert big.line() == "heap 50.00 KB MISS"
    assert none.line() == "latency_p95 NA ms MISS (tracker not yet built)"
    assert plain.line() == "count 7 moves"
    text = table([ok, slow, none, plain])
    lines = text.splitlines()
    assert lines[2].endswith("ok") and lines[3].endswith("MISS")
    assert lines[4].endswith("MISS (tracker not yet built)")
    assert "MISS" not in lines[5] and "ok" not in lines[5].split()[-1]


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 95) == 95
    assert percentile([7], 95) == 7


def _long_game_result(plies, **changes):
    # What host_tools.twin.long_game.play_through returns for a game played as it was meant.
    result = {
        "events": [{"type": "move", "color": p.colour, "point": p.name} for p in plies],
        "warnings": [],
        "noise": [],
        "mem": {"free": 90000, "largest": 40000},
        "cpu": {"load_pct": 50, "scan_late_max_us": 10000, "scans": 100, "tasks": {}},
        "emulated_s": 10.0,
        "flash_ops": {"erases": 40, "programs": 500},
        "play_wall_s": 60.0,
        "fs": {"files": {"/journal/game.jnl": 600}, "journals": {}, "blocks_used": 20},
        "fs_problem": None,
    }
    result.update(changes)
    return result


@pytest.mark.parametrize(
    "trouble, said",
    [
        ({"warnings": ["journal compaction stopped: OSError: 84"]}, "OSError: 84"),
        (
            {"fs_problem": "/journal/game.jnl: a corrupt record at byte 512, 3 after it"},
            "its file system: /journal/game.jnl: a corrupt record",
        ),
        ({"noise": ["Traceback (most recent call last):"]}, "Traceback (most recent"),
    ],
)
def test_the_long_game_on_the_twin_fails_on_a_warning_or_a_file_system_not_whole(
    monkeypatch, trouble, said
):
    from bench import mcu
    from host_tools.twin import long_game as lg

    monkeypatch.setenv("INGBOARD_BENCH_GAME_PLIES", "6")  # 6 plies, 2 passes, then 2 more
    monkeypatch.setattr(lg, "play_through", lambda plies, *a, **k: _long_game_result(plies))
    figures = mcu._long_game(lambda line: None)
    assert figures[0].name == "mcu_game_plies_ok" and figures[0].value == 10
    # The flash's work per ply, and its time on the Pico's flash at the datasheet's typical
    # times: (40 erases x 45 ms + 500 programs x 0.4 ms) / 10 plies.
    flash = {f.name: f.value for f in figures if f.name.startswith("mcu_flash")}
    assert flash == {"mcu_flash_erases_per_ply": 4.0, "mcu_flash_busy_ms_per_ply": 200.0}
    monkeypatch.setattr(
        lg, "play_through", lambda plies, *a, **k: _long_game_result(plies, **trouble)
    )
    lines = []
    with pytest.raises(BenchError, match=re.escape(said)):
        mcu._long_game(lines.append)
    assert "mcu_game_plies_ok 10 plies MISS" in lines  # its figures logged first

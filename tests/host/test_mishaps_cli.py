"""Everyday mishaps (tests/firmware/mishaps.py, issue 14) through `ingboard track`, the command
line a club (and any independent suite) uses: each scenario's session log is written to a file
and replayed; the events and the SGF it writes must be what the players expect."""

import json
import subprocess
import sys

import pytest
from mishaps import check, scenarios

from host_tools import ROOT
from host_tools.cli import main

SCENARIOS = scenarios()


def _track(tmp_path, scenario, capsys=None):
    log = tmp_path / "game.log"
    log.write_text(scenario.table.log())
    events = tmp_path / "events.jsonl"
    sgf = tmp_path / "game.sgf"
    status = main(["track", str(log), "--events", str(events), "--sgf", str(sgf), "--quiet"])
    assert status == 0
    if capsys is not None:
        capsys.readouterr()
    return [json.loads(line) for line in events.read_text().splitlines()], sgf.read_text()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.label for s in SCENARIOS])
def test_every_mishap_through_ingboard_track(tmp_path, capsys, scenario):
    events, sgf = _track(tmp_path, scenario, capsys)
    assert check(scenario, events, sgf) == []


def test_at_least_60_scenarios_cover_every_class_on_both_sizes():
    assert len(SCENARIOS) >= 60
    for size in (9, 19):
        classes = set(s.mishap for s in SCENARIOS if s.table.size == size)
        assert len(classes) == 9, classes


@pytest.mark.parametrize("label", ["two moves aga 9", "sensor flicker mid 19"])
def test_the_installed_command_in_a_subprocess(tmp_path, label):
    # The same check as above, by a real process (python -m host_tools = `ingboard`).
    scenario = [s for s in SCENARIOS if s.label == label][0]
    log = tmp_path / "game.log"
    log.write_text(scenario.table.log())
    out = tmp_path / "events.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "track", str(log), "--events", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert check(scenario, events) == []

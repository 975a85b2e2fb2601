"""Everyday mishaps (mishaps.py, issue 14) through the Tracker API: every scenario's main line,
alerts and end are what the players expect (CPython and MicroPython)."""

import sys

from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track
from ingboard.records.sgf_record import tracker_sgf
from mishaps import check, scenarios

_ALL = []


def _all():
    # Under MicroPython (WebAssembly, a shared CI budget) the 9x9 scenarios of every class;
    # CPython and tests/host/test_mishaps_cli.py run all of them.
    if not _ALL:
        small = sys.implementation.name == "micropython"
        _ALL.extend(s for s in scenarios() if not small or s.table.size == 9)
    return _ALL


def run(scenario):
    events = []
    tracker = track(read_text(scenario.table.log()), events.append)
    return events, tracker_sgf(tracker)


def _check_class(mishap):
    failures = []
    count = 0
    for scenario in _all():
        if scenario.mishap != mishap:
            continue
        count += 1
        events, sgf = run(scenario)
        problems = check(scenario, events, sgf)
        if problems:
            failures.append("%s: %s" % (scenario.label, "; ".join(problems)))
    assert count >= 2, "no scenarios of class %s" % mishap
    assert not failures, "\n".join(failures)


def test_at_least_60_scenarios_on_9x9_and_19x19_covering_every_class():
    all_ = _all() if sys.implementation.name != "micropython" else scenarios()
    assert len(all_) >= 60
    sizes = set(s.table.size for s in all_)
    assert sizes == {9, 19}
    classes = set(s.mishap for s in all_)
    assert classes == {
        "displacement",
        "nudge",
        "hidden",
        "stability",
        "sensor",
        "keys",
        "resignation",
        "extra",
        "handicap",
    }


def test_own_colour_displacement_is_never_a_move():
    _check_class("displacement")


def test_a_nudge_left_as_it_is_does_not_stall_and_an_accepted_shift_is_recorded():
    _check_class("nudge")


def test_hidden_points_at_a_press_never_make_a_pass_of_a_move():
    _check_class("hidden")


def test_the_stability_rule_applies_at_the_press():
    _check_class("stability")


def test_sensor_faults_are_found_reported_once_and_the_game_finishes():
    _check_class("sensor")


def test_keys_bounce_double_wrong_key_reboot_two_moves_retraction():
    _check_class("keys")


def test_two_stones_and_the_press_resign_under_ing_1991_only():
    _check_class("resignation")


def test_a_stone_before_the_first_move_is_stone_extra():
    _check_class("extra")


def test_fixed_handicap_placement_raises_no_stone_missing():
    _check_class("handicap")

"""Failure to appear (issue 15 item 5): Ing 1991 Art. 8 "Forfeiture" (1) "Failure to appear: a
player fails to appear within his time limit"; Art. 8 "Lateness": "twice the amount of time by
which he is late is deducted from his basic time limit"; Art. 7 "The time limit is divided into
basic time and additional time"; Ing 1996 Rule 10 (late by more than 1/6 forfeits)."""

from ingboard.clock.clock import Clock
from ingboard.clock.time_systems import EV_FORFEIT
from ingboard.records.sgf_record import tracker_sgf
from ingboard.tracking.tracker import Tracker
from ingrules.board import BLACK, WHITE

MIN = 60000


def test_the_whole_time_limit_basic_and_additional():
    assert Clock({"system": "ing-pp", "basic_s": 3600}).time_limit_ms(BLACK) == 90 * MIN
    assert Clock({"system": "absolute", "basic_s": 600}).time_limit_ms(WHITE) == 10 * MIN
    byo = Clock({"system": "byoyomi", "basic_s": 600, "periods": 5, "period_s": 30})
    assert byo.time_limit_ms(BLACK) == 10 * MIN + 150000
    assert Clock().time_limit_ms(BLACK) is None and Clock().no_show_ms(BLACK) is None


def test_lateness_that_uses_up_the_whole_time_limit_forfeits():
    # ing-pp, B = 60 min: the whole limit is 90 min, lateness is charged twice: 45 min late
    # uses exactly all of it ("in excess of": not yet), a ms more forfeits.
    c = Clock({"system": "ing-pp", "basic_s": 3600})
    assert c.no_show_ms(WHITE) == 45 * MIN + 1
    assert [e[1] for e in c.apply_lateness(WHITE, 0, 45 * MIN)] == ["late"]
    assert not c.loser and c.player(WHITE)[0] == 0  # deducted from the basic time only
    c = Clock({"system": "ing-pp", "basic_s": 3600})
    ev = c.apply_lateness(WHITE, 0, 45 * MIN + 1)
    assert (45 * MIN + 1, EV_FORFEIT, WHITE, 0) in ev and c.loser == WHITE
    # "at" (the instant the limit is reached counts): exactly 45 min late forfeits.
    c = Clock({"system": "ing-pp", "basic_s": 3600, "exceeded": "at"})
    assert c.no_show_ms(BLACK) == 45 * MIN
    # Absolute time: the limit is the basic time.
    c = Clock({"system": "absolute", "basic_s": 600})
    assert c.no_show_ms(BLACK) == 5 * MIN + 1
    # Ing 1996 Rule 10 comes first: more than 1/6 of the basic time.
    c = Clock({"system": "ing-pp", "basic_s": 3600, "late_forfeit": True})
    assert c.no_show_ms(BLACK) == 10 * MIN + 1


def run(config, presses, until):
    """A tracker fed only arrival presses [(t, colour)], stepped to its deadlines until `until`."""
    tracker = Tracker(config)
    events = []
    for t, color in presses + [(until, 0)]:
        while True:
            due = tracker.next_deadline()
            if due is None or due > t:
                break
            events += tracker.tick(due)
        if color:
            events += tracker.press(t, color)
        else:
            events += tracker.tick(t)
    return tracker, events


def test_a_player_who_never_arrives_forfeits_when_the_time_limit_is_used_up():
    config = {
        "size": 9,
        "rules": "ing1991",
        "round_start_ms": 0,
        "time": {"system": "ing-pp", "basic_s": 600},
    }
    # Black arrives after 1 s, White never: 10 + 5 min of limit, charged twice -> 7.5 min.
    tracker, events = run(config, [(1000, BLACK)], 20 * MIN)
    ends = [e for e in events if e["type"] == "end"]
    assert len(ends) == 1 and ends[0]["result"] == "B+F" and ends[0]["reason"] == "forfeit"
    assert ends[0]["t"] == 7 * MIN + 30000 + 1
    assert "RE[B+F]" in tracker_sgf(tracker) and "failure to appear: W" in tracker_sgf(tracker)
    # Nobody comes: neither can win (SGF "Void").
    tracker, events = run(config, [], 20 * MIN)
    assert [e["result"] for e in events if e["type"] == "end"] == ["Void"]
    # Both there in time: the game goes on.
    tracker, events = run(config, [(1000, BLACK), (7 * MIN, WHITE)], 20 * MIN)
    assert not [e for e in events if e["type"] == "end"]
    # Ing 1996 Rule 10: more than 1/6 of the basic time late (100 s here).
    config96 = dict(config, rules="ing1996")
    tracker, events = run(config96, [(500, WHITE)], 10 * MIN)
    ends = [e for e in events if e["type"] == "end"]
    assert ends[0]["result"] == "W+F" and ends[0]["t"] == 100001


def test_no_time_limit_no_failure_to_appear():
    config = {"size": 9, "rules": "ing1991", "round_start_ms": 0}
    tracker, events = run(config, [(1000, BLACK)], 600 * MIN)
    assert not [e for e in events if e["type"] == "end"]

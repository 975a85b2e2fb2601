"""SGF clock properties (TM, OT, BL/WL, OB/OW, the private IP) and the cue table."""

from expect import raises
from ingboard import cues
from ingboard.clock.clock import Clock
from ingboard.clock.clock_sgf import move_props, sgf_seconds
from ingboard.clock.clock_sgf_root import overtime_text, penalty_props, root_props
from ingboard.clock.time_systems import EV_CUE
from ingrules.board import BLACK, WHITE


def test_sgf_seconds_are_exact_reals():
    assert sgf_seconds(3600000) == "3600"
    assert sgf_seconds(1500) == "1.5"
    assert sgf_seconds(166) == "0.166"
    assert sgf_seconds(10) == "0.01"
    assert sgf_seconds(0) == "0"
    raises(ValueError, sgf_seconds, -1)


def test_root_tm_and_ot_for_every_system():
    assert root_props(Clock({"system": "none"})) == []
    assert root_props(Clock({"system": "absolute", "basic_s": 1800})) == [("TM", "1800")]
    # Ing 1991 Art. 7 (1): three periods of 1/6 of B, two points each.
    assert root_props(Clock({"system": "ing-pp", "basic_s": 3600})) == [
        ("TM", "3600"),
        ("OT", "3x600 Ing-PP"),
    ]
    assert overtime_text(Clock({"system": "ing-pp", "basic_s": 100})) == "3x16.666 Ing-PP"
    byo = Clock({"system": "byoyomi", "basic_s": 600, "periods": 5, "period_s": 30})
    assert root_props(byo) == [("TM", "600"), ("OT", "5x30 byo-yomi")]
    can = Clock({"system": "canadian", "basic_s": 0, "stones": 25, "period_s": 600})
    assert root_props(can) == [("TM", "0"), ("OT", "25/600 Canadian")]
    fis = Clock({"system": "fischer", "basic_s": 300, "increment_s": 10})
    assert root_props(fis) == [("TM", "300"), ("OT", "+10 Fischer")]


def test_bl_wl_on_every_move_and_ob_ow_in_overtime():
    c = Clock({"system": "byoyomi", "basic_s": 10, "periods": 3, "period_s": 5})
    c.start(0, BLACK)
    c.moved(2500, BLACK)
    assert move_props(c, BLACK) == [("BL", "7.5")]
    c.moved(2500, WHITE)
    assert move_props(c, WHITE) == [("WL", "10")]
    c.moved(2500 + 7500 + 5001, BLACK)  # into the second period; the move restarts it
    assert move_props(c, BLACK) == [("BL", "5"), ("OB", "2")]
    c = Clock({"system": "canadian", "basic_s": 0, "stones": 10, "period_s": 300})
    c.start(0, WHITE)
    c.moved(1000, WHITE)
    assert move_props(c, "W") == [("WL", "299"), ("OW", "9")]
    assert move_props(Clock(), BLACK) == []


def test_private_ip_property_carries_both_players_penalty_points():
    # Ing 1991 Art. 7 (1): two points per limit exceeded; both players' points are kept.
    c = Clock({"system": "ing-pp", "basic_s": 60})
    assert penalty_props(c) == [("IP", "B0W0")]
    c.start(0, BLACK)
    c.moved(71001, BLACK)
    assert penalty_props(c) == [("IP", "B4W0")]
    assert move_props(c, BLACK) == [("BL", "8.999")]
    assert penalty_props(Clock({"system": "absolute", "basic_s": 5})) == []


def test_every_cue_the_clock_emits_is_in_the_table():
    seen = set()
    for cfg in (
        {"system": "ing-pp", "basic_s": 600},
        {"system": "byoyomi", "basic_s": 600, "periods": 2, "period_s": 30},
        {"system": "canadian", "basic_s": 600, "stones": 1, "period_s": 30},
    ):
        c = Clock(cfg)
        c.start(0, BLACK)
        events = c.advance(601000)
        events += c.moved(601000, BLACK)
        c.moved(601000, WHITE)
        events += c.advance(2000000)
        for e in events:
            if e[1] == EV_CUE:
                cue, n = e[3]
                seen.add(cue)
                assert cues.text(cue, n)
                freq, pattern = cues.beeps(cue)
                assert freq > 0 and len(pattern) % 2 == 1
    assert sorted(seen) == sorted(cues.CUES)
    assert cues.text(cues.POINTS, 4) == "4 points"
    assert cues.text(cues.COUNTDOWN, 3) == "3"
    assert cues.text(cues.FORFEIT) == "Time is up"
    raises(KeyError, cues.beeps, "gong")

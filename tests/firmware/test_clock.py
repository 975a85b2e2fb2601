"""The clock's time systems, lateness, pause and undo, each test naming its seed sentence.

Seeds: Ing 1991 Art. 7 (time limits), Art. 8 (lateness, forfeiture), Art. 4 (penalty stones);
Ing 1996 Rule 9 (time limits), Rule 10 (tardiness); Kim/Simon/Straus sec. 7 (the clock).
"""

import json

from expect import raises
from ingboard import cues
from ingboard.clock.clock import Clock
from ingboard.clock.time_systems import (
    EV_CUE,
    EV_FORFEIT,
    EV_LATE,
    EV_PAUSE,
    EV_PENALTY,
    EV_PERIOD,
    EV_RESUME,
)
from ingrules.board import BLACK, WHITE

MIN = 60000
HOUR = 3600000


def kinds(events):
    return [(e[0], e[1], e[2], e[3]) for e in events if e[1] != EV_CUE]


def cue_list(events):
    return [(e[0], e[2], e[3]) for e in events if e[1] == EV_CUE]


def ing(basic_s=3600, **more):
    cfg = {"system": "ing-pp", "basic_s": basic_s}
    cfg.update(more)
    return Clock(cfg)


# -- Ing penalty points: Ing 1991 Art. 7 (1) ------------------------------------------------------


def test_ing_pp_art7_no_penalty_for_a_press_at_exactly_the_basic_time():
    # "The penalty for exceeding the basic time limit is two points": using exactly B is not
    # exceeding it (default exceeded="after").
    c = ing()
    c.start(0, BLACK)
    assert kinds(c.moved(HOUR, BLACK)) == []
    assert c.penalty(BLACK) == 0
    assert c.state(HOUR)["B"] == {
        "main_ms": 0,
        "period": 0,
        "period_ms": 0,
        "penalty": 0,
        "forfeit": False,
    }


def test_ing_pp_art7_two_points_one_ms_past_the_basic_time():
    c = ing()
    c.start(0, BLACK)
    ev = c.advance(HOUR + 1)
    assert kinds(ev) == [(HOUR + 1, EV_PENALTY, BLACK, 2), (HOUR + 1, EV_PERIOD, BLACK, 1)]
    assert cue_list(ev) == [
        (HOUR - 5 * MIN, BLACK, (cues.BASIC_ENDING, 300)),
        (HOUR + 1, BLACK, (cues.POINTS, 2)),
    ]
    # The additional time runs from the end of the basic time: 1 ms of B/6 is used.
    assert c.state(HOUR + 1)["B"]["period_ms"] == 10 * MIN - 1
    assert c.penalty(BLACK) == 2 and c.penalty(WHITE) == 0


def test_ing_pp_art7_every_threshold_for_black_and_white():
    # "in excess of 1/6 the basic time is another two points, making four points in all ...
    # in excess of 2/6 ... six points in all. A player who uses additional time in excess of
    # half the basic time limit forfeits the game."
    for color in (BLACK, WHITE):
        c = ing()
        c.start(0, color)
        b6 = 10 * MIN
        steps = (
            (HOUR, 0, 0),
            (HOUR + 1, 2, 1),
            (HOUR + b6, 2, 1),
            (HOUR + b6 + 1, 4, 2),
            (HOUR + 2 * b6, 4, 2),
            (HOUR + 2 * b6 + 1, 6, 3),
            (HOUR + 3 * b6, 6, 3),
        )
        for t, points, period in steps:
            c.advance(t)
            assert c.penalty(color) == points, (color, t)
            assert c.player(color)[1] == period, (color, t)
            assert not c.loser
        ev = c.advance(HOUR + 3 * b6 + 1)
        assert kinds(ev) == [(HOUR + 3 * b6 + 1, EV_FORFEIT, color, 0)]
        assert cue_list(ev) == [(HOUR + 3 * b6 + 1, color, (cues.FORFEIT, 0))]
        assert c.loser == color
        assert c.state(HOUR + 3 * b6 + 1)[("B", "W")[color - 1]]["forfeit"] is True
        assert c.penalty(color) == 6
        assert not c.running()


def test_ing_pp_art7_one_jump_across_all_thresholds_gives_each_at_its_instant():
    c = ing(60)  # B = 60 s, B/6 = 10 s
    c.start(1000, WHITE)
    ev = c.advance(1000 + 10 * MIN)
    assert kinds(ev) == [
        (61001, EV_PENALTY, WHITE, 2),
        (61001, EV_PERIOD, WHITE, 1),
        (71001, EV_PENALTY, WHITE, 4),
        (71001, EV_PERIOD, WHITE, 2),
        (81001, EV_PENALTY, WHITE, 6),
        (81001, EV_PERIOD, WHITE, 3),
        (91001, EV_FORFEIT, WHITE, 0),
    ]


def test_ing_pp_art7_time_is_not_restored_per_move():
    c = ing(60)
    c.start(0, BLACK)
    c.moved(64000, BLACK)  # 4 s into the first period
    assert c.player(BLACK) == (0, 1, 6000, 0, 2, 0)
    c.moved(65000, WHITE)
    assert c.player(BLACK)[2] == 6000  # a move does not give the period back
    c.advance(71000)
    assert c.penalty(BLACK) == 2
    c.advance(71001)
    assert c.penalty(BLACK) == 4 and c.player(BLACK)[2] == 9999


def test_ing_pp_art7_exceeded_at_setting_counts_the_instant_the_limit_is_reached():
    # Art. 7 also says "the first player whose additional time reaches 3/6": exceeded="at".
    c = ing(60, exceeded="at", warn_s=0)  # no timekeeper's warning in the way
    c.start(0, BLACK)
    assert not c.advance(59999)  # nothing happened (an empty, shared result)
    assert kinds(c.advance(60000)) == [(60000, EV_PENALTY, BLACK, 2), (60000, EV_PERIOD, BLACK, 1)]
    assert c.player(BLACK)[2] == 10000
    assert kinds(c.advance(90000))[-1] == (90000, EV_FORFEIT, BLACK, 0)


def test_ing_pp_art7_opposing_penalty_points_cancel():
    # "If both players are penalized, opposing penalty points cancel"; Art. 4: "one stone for
    # every two points"; 1996 Diagram 2: a 4-point penalty on White is two black stones.
    c = ing(60)
    c.start(0, BLACK)
    c.moved(71001, BLACK)  # Black: 4 points
    assert c.net_penalty() == (BLACK, 4)
    assert c.penalty_stones() == (WHITE, 2)
    c.moved(71001 + 60001, WHITE)  # White: 2 points
    assert (c.penalty(BLACK), c.penalty(WHITE)) == (4, 2)
    assert c.net_penalty() == (BLACK, 2)
    assert c.penalty_stones() == (WHITE, 1)
    c.moved(71001 + 60001 + 1, BLACK)
    c.moved(71001 + 60001 + 1 + 10000, WHITE)  # White: 4 points, cancelled out
    assert c.net_penalty() == (0, 0)
    assert c.penalty_stones() == (0, 0)
    c.moved(71001 + 60001 + 2 + 10000, BLACK)
    c.moved(71001 + 60001 + 2 + 10000 + 10000, WHITE)  # White: 6
    assert c.net_penalty() == (WHITE, 2)
    assert c.penalty_stones() == (BLACK, 1)


def test_ing_pp_art7_first_to_exceed_three_sixths_forfeits_even_when_both_penalized():
    # "the first player whose additional time reaches 3/6 the basic time limit still loses by
    # forfeit" -- here Black, although both have 6 points and the net is zero.
    c = ing(60)
    c.start(0, BLACK)
    t = 85000  # Black: 6 points, 5 s left in the third period
    c.moved(t, BLACK)
    t += 85000  # White: 6 points, 5 s left
    c.moved(t, WHITE)
    assert c.net_penalty() == (0, 0)
    ev = c.advance(t + 5001)
    assert kinds(ev) == [(t + 5001, EV_FORFEIT, BLACK, 0)]
    assert c.loser == BLACK
    before = c.snapshot()
    assert c.moved(t + 5002, BLACK) == [] and c.snapshot() == before  # a key after the loss
    assert c.pause(t + 6000) == [] and c.resume(t + 6000) == []  # the clock has stopped


def test_ing_pp_periods_are_floor_sixths_when_b_is_not_a_multiple_of_6_ms():
    # Art. 7: thresholds at 1/6, 2/6, 3/6 of B = 1000 ms: 166.7, 333.3, 500 ms of additional
    # time; with whole ms, "in excess of" 166.7 means 167 or more.
    c = ing(1)
    assert [c.period_length(BLACK, k) for k in (1, 2, 3)] == [166, 167, 167]
    c.start(0, BLACK)
    ev = kinds(c.advance(5000))
    assert [e[0] - 1000 for e in ev if e[1] == EV_PENALTY] == [1, 167, 334]
    assert ev[-1] == (1501, EV_FORFEIT, BLACK, 0)


def test_ing_pp_settings_are_validated():
    raises(ValueError, Clock, {"system": "ing-pp"})  # basic_s required
    raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 0})
    e = raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 60, "periods": 2})
    assert "periods" in str(e)
    e = raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 60, "period_s": 10})
    assert "does not apply" in str(e)
    e = raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 60, "exceeded": "soon"})
    assert "exceeded" in str(e)
    raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 60, "pp_base": "own"})
    raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 60, "late_forfeit": 1})
    assert Clock({"system": "ing-pp", "basic_s": 60, "periods": 3}).periods == 3


# -- Lateness: Ing 1991 Art. 8, Ing 1996 Rule 10 --------------------------------------------------


def test_lateness_art8_twice_the_lateness_is_deducted_from_basic_time():
    # "twice the amount of time by which he is late is deducted from his basic time limit"
    c = ing()
    ev = c.apply_lateness(WHITE, 1000, 1000 + 5 * MIN)
    assert ev == [(1000 + 5 * MIN, EV_LATE, WHITE, 10 * MIN)]
    assert c.player(WHITE)[0] == 50 * MIN
    assert c.player(BLACK)[0] == HOUR
    assert c.apply_lateness(BLACK, 1000, 900) == []  # early is not late
    assert c.apply_lateness(BLACK, 1000, 1000) == []


def test_lateness_art8_1991_more_than_a_sixth_late_is_no_forfeit_and_time_never_negative():
    c = ing()
    c.apply_lateness(BLACK, 0, 20 * MIN)
    assert c.player(BLACK)[0] == 20 * MIN and not c.loser
    ev = c.apply_lateness(WHITE, 0, 40 * MIN)
    assert ev == [(40 * MIN, EV_LATE, WHITE, HOUR)]
    assert c.player(WHITE)[0] == 0
    c.start(40 * MIN, WHITE)
    # No basic time left: the first ms of play exceeds it (Art. 7 (1)).
    assert kinds(c.advance(40 * MIN + 1))[0] == (40 * MIN + 1, EV_PENALTY, WHITE, 2)


def test_lateness_rule10_1996_late_by_more_than_a_sixth_forfeits():
    # Ing 1996 Rule 10: "If a player is late by more than 1/6 of the basic time, he forfeits".
    c = ing(late_forfeit=True)
    ev = c.apply_lateness(BLACK, 0, 10 * MIN)  # exactly B/6: deducted, not forfeited
    assert ev == [(10 * MIN, EV_LATE, BLACK, 20 * MIN)]
    assert not c.loser
    c = ing(late_forfeit=True)
    ev = c.apply_lateness(WHITE, 0, 10 * MIN + 1)
    assert kinds(ev) == [(10 * MIN + 1, EV_FORFEIT, WHITE, 0)]
    assert c.loser == WHITE
    assert c.player(WHITE)[0] == HOUR  # the game is lost; nothing else to deduct
    c.start(10 * MIN + 1, BLACK)  # a stopped clock does not start again
    assert not c.started and not c.running()


def test_lateness_pp_base_stipulated_keeps_b6_of_the_agreed_basic_time():
    # Default: Ing 1996 Rule 10 "all contestants are given the same time limit": the periods are
    # sixths of the stipulated B even for a late player.
    c = ing(60)
    c.apply_lateness(BLACK, 0, 6000)  # 12 s deducted: 48 s left
    assert c.player(BLACK)[0] == 48000
    assert c.period_length(BLACK, 1) == 10000
    c = ing(60, pp_base="reduced")
    c.apply_lateness(BLACK, 0, 6000)
    assert [c.period_length(BLACK, k) for k in (1, 2, 3)] == [8000, 8000, 8000]
    assert c.period_length(WHITE, 1) == 10000
    c.start(6000, BLACK)
    ev = kinds(c.advance(6000 + 48000 + 24000 + 1))
    assert ev[-1] == (6000 + 48000 + 24000 + 1, EV_FORFEIT, BLACK, 0)


def test_lateness_must_come_before_the_start_and_needs_integer_times():
    c = ing()
    raises(ValueError, c.apply_lateness, BLACK, 0, 1.5)
    raises(ValueError, c.apply_lateness, "X", 0, 10)
    c.start(0, BLACK)
    raises(ValueError, c.apply_lateness, WHITE, 0, 10)
    assert Clock().apply_lateness(BLACK, 0, 10 * MIN) == []  # no time limit, nothing to deduct


# -- Byo-yomi: Ing 1991 Art. 7 (2), Ing 1996 Rule 9 -----------------------------------------------


def byo(basic_s=60, periods=3, period_s=30, **more):
    cfg = {"system": "byoyomi", "basic_s": basic_s, "periods": periods, "period_s": period_s}
    cfg.update(more)
    return Clock(cfg)


def test_byoyomi_rule9_a_move_before_the_period_expires_does_not_use_it():
    # "If a move is made before the period expires the period is not used."
    c = byo(warn_s=0)
    c.start(0, BLACK)
    ev = c.advance(60001)
    assert kinds(ev) == [(60001, EV_PERIOD, BLACK, 1)]
    assert cue_list(ev) == [(60001, BLACK, (cues.BASIC_OVER, 0))]
    c.moved(90000, BLACK)  # exactly at the end of the period: in time
    assert c.player(BLACK) == (0, 1, 30000, 0, 0, 0)
    c.moved(90000, WHITE)
    assert kinds(c.moved(120000, BLACK)) == []
    assert c.player(BLACK)[1] == 1


def test_byoyomi_art7_a_period_is_lost_only_when_it_runs_out_and_the_last_forfeits():
    c = byo()
    c.start(0, BLACK)
    ev = c.moved(60000 + 30001, BLACK)  # the first period ran out by 1 ms
    assert kinds(ev) == [(60001, EV_PERIOD, BLACK, 1), (90001, EV_PERIOD, BLACK, 2)]
    assert (90001, BLACK, (cues.PERIOD, 2)) in cue_list(ev)
    assert c.player(BLACK)[1:3] == (2, 30000)
    c.moved(90001, WHITE)
    ev = c.advance(90001 + 60002)
    assert kinds(ev) == [(120002, EV_PERIOD, BLACK, 3), (150002, EV_FORFEIT, BLACK, 0)]
    assert c.loser == BLACK


def test_byoyomi_art9_countdown_cue_for_the_last_ten_seconds():
    # Ing 1991 Art. 9 "Timekeeper": "the reading out of seconds when the second reading system
    # is used".
    c = byo(basic_s=0, periods=1, period_s=30)
    c.start(0, BLACK)
    ev = c.advance(29999)
    counts = [(t, n) for t, _c, (cue, n) in cue_list(ev) if cue == cues.COUNTDOWN]
    assert counts == [(20000 + 1000 * (10 - n), n) for n in range(10, 0, -1)]
    c.moved(29999, BLACK)
    c.moved(30000, WHITE)
    ev = c.advance(30000 + 20001)  # the period restarted: the count starts again
    assert [n for _t, _c, (cue, n) in cue_list(ev) if cue == cues.COUNTDOWN] == [10]


def test_byoyomi_without_basic_time_enters_the_first_period_at_once():
    c = byo(basic_s=0, periods=2, period_s=5)
    c.start(0, WHITE)
    assert kinds(c.advance(1)) == [(1, EV_PERIOD, WHITE, 1)]
    raises(ValueError, Clock, {"system": "byoyomi", "basic_s": 60, "period_s": 30})
    raises(ValueError, Clock, {"system": "byoyomi", "basic_s": 60, "periods": 0, "period_s": 30})
    raises(ValueError, Clock, {"system": "byoyomi", "basic_s": 60, "periods": 3, "period_s": 0})
    raises(ValueError, Clock, {"system": "byoyomi", "basic_s": -1, "periods": 3, "period_s": 5})


# -- Canadian -------------------------------------------------------------------------------------


def canadian(basic_s=60, stones=3, period_s=60, warn_s=0):
    return Clock(
        {
            "system": "canadian",
            "basic_s": basic_s,
            "stones": stones,
            "period_s": period_s,
            "warn_s": warn_s,
        }
    )


def test_canadian_k_moves_in_t_then_a_new_block():
    # Ing 1991 Art. 1: "Moves are board or pass plays": every accepted move counts.
    c = canadian()
    c.start(0, BLACK)
    c.moved(10000, BLACK)  # in basic time: not counted in a block
    c.moved(10000, WHITE)
    assert c.player(BLACK)[1] == 0
    ev = c.moved(70000, BLACK)  # basic time ran out during this move: the block's first
    assert kinds(ev) == [(60001, EV_PERIOD, BLACK, 1)]
    assert c.player(BLACK) == (0, 1, 50000, 2, 0, 0)
    c.moved(70000, WHITE)
    c.moved(80000, BLACK)
    c.moved(80000, WHITE)
    ev = c.moved(90000, BLACK)  # third move of the block: a new block in full
    assert kinds(ev) == [(90000, EV_PERIOD, BLACK, 2)]
    assert cue_list(ev) == [(90000, BLACK, (cues.PERIOD, 2))]
    assert c.player(BLACK) == (0, 2, 60000, 3, 0, 0)
    assert c.moves(BLACK) == 4 and c.moves(WHITE) == 3


def test_canadian_block_that_runs_out_with_moves_left_forfeits():
    c = canadian(basic_s=0, stones=2, period_s=10)
    c.start(0, WHITE)
    c.moved(9000, WHITE)
    assert c.player(WHITE)[1:4] == (1, 1000, 1)
    c.moved(9000, BLACK)
    ev = c.moved(10000, WHITE)  # the second move at the block's last ms: a new block
    assert kinds(ev) == [(10000, EV_PERIOD, WHITE, 2)]
    assert c.player(WHITE)[1:4] == (2, 10000, 2)
    c.moved(10000, BLACK)
    c.moved(15000, WHITE)
    c.moved(15000, BLACK)
    ev = c.advance(20001)  # one move still owed when the block runs out
    assert kinds(ev) == [(20001, EV_FORFEIT, WHITE, 0)]
    raises(ValueError, Clock, {"system": "canadian", "basic_s": 60, "period_s": 60})
    raises(ValueError, Clock, {"system": "canadian", "basic_s": 6, "stones": 0, "period_s": 6})


# -- Fischer, absolute, none ----------------------------------------------------------------------


def test_fischer_increment_after_each_move_and_forfeit_when_exceeded():
    c = Clock({"system": "fischer", "basic_s": 10, "increment_s": 5})
    c.start(0, BLACK)
    c.moved(9000, BLACK)
    assert c.player(BLACK)[0] == 6000
    c.moved(9000, WHITE)
    assert c.player(WHITE)[0] == 15000
    c.moved(15000, BLACK)  # exactly all that was left: in time, then + 5 s
    assert c.player(BLACK)[0] == 5000
    c.moved(15000, WHITE)
    ev = c.advance(20001)
    assert kinds(ev) == [(20001, EV_FORFEIT, BLACK, 0)]
    raises(ValueError, Clock, {"system": "fischer", "basic_s": 10})


def test_absolute_forfeits_one_ms_past_the_limit_art8_excessive_time():
    # Ing 1991 Art. 8 "Forfeiture": "(4) Excessive time: a player exceeds the stipulated time".
    c = Clock({"system": "absolute", "basic_s": 10, "warn_s": 0})
    c.start(0, WHITE)
    assert not c.advance(10000)  # nothing happened (an empty, shared result)
    ev = c.advance(10001)
    assert kinds(ev) == [(10001, EV_FORFEIT, WHITE, 0)]
    assert cue_list(ev) == [(10001, WHITE, (cues.FORFEIT, 0))]


def test_none_never_runs_out_but_counts_moves():
    c = Clock({"system": "none"})
    c.start(0, BLACK)
    assert not c.advance(10 * HOUR)  # nothing happened (an empty, shared result)
    c.moved(10 * HOUR, BLACK)
    assert c.moves(BLACK) == 1
    assert c.state(20 * HOUR)["W"]["main_ms"] == 0
    assert Clock(None).system == "none"
    raises(ValueError, Clock, {"system": "none", "basic_s": 60})


def test_basic_time_warning_art10_once_at_its_instant():
    # Ing 1991 Art. 9: inform a player "when he is about to run out of basic time".
    c = ing(600)
    c.start(0, BLACK)
    assert not c.advance(299999)  # nothing happened (an empty, shared result)
    assert cue_list(c.advance(300000)) == [(300000, BLACK, (cues.BASIC_ENDING, 300))]
    c.moved(300001, BLACK)
    assert cue_list(c.advance(300001 + 299999)) == []  # White's comes at its own instant
    assert cue_list(c.advance(300001 + 300000)) == [(600001, WHITE, (cues.BASIC_ENDING, 300))]
    c = ing(600)
    c.start(0, WHITE)
    assert cue_list(c.advance(400000)) == [(300000, WHITE, (cues.BASIC_ENDING, 300))]
    c = Clock({"system": "fischer", "basic_s": 601, "increment_s": 10})
    c.start(0, BLACK)
    assert len(cue_list(c.moved(302000, BLACK))) == 1
    c.moved(302000, WHITE)
    assert cue_list(c.advance(302000 + 11000)) == []  # once only, even above 5 min again


# -- Pause, switching, undo: Kim/Simon/Straus sec. 7 ----------------------------------------------


def test_pause_set_button_stops_the_time_and_resume_restarts_it():
    # Kim/Simon/Straus sec. 7: "after pressing the SET button on an Ing clock ... call the TD".
    c = ing(60)
    c.start(0, BLACK)
    ev = c.pause(10000)
    assert ev == [(10000, EV_PAUSE, 0, 0)]
    assert c.pause(20000) == []  # already paused
    assert not c.advance(500000)  # nothing happened (an empty, shared result)
    assert c.state(500000)["B"]["main_ms"] == 50000
    assert c.resume(500000) == [(500000, EV_RESUME, 0, 0)]
    assert c.resume(500000) == []
    c.advance(510000)
    assert c.player(BLACK)[0] == 40000


def test_pause_after_two_passes_and_during_counting_charges_no_time():
    # Ing 1996 sec. 419: "After two pass plays, one from each side, the game pauses".
    c = ing(60)
    c.start(0, BLACK)
    c.moved(5000, BLACK)  # pass
    c.moved(8000, WHITE)  # pass
    c.pause(8000)
    c.advance(10 * HOUR)  # dispute settled, stones removed, counting...
    assert c.player(BLACK)[0] == 55000 and c.player(WHITE)[0] == 57000
    c.resume(10 * HOUR)  # play resumes: Black to move
    c.advance(10 * HOUR + 1000)
    assert c.player(BLACK)[0] == 54000


def test_moves_switch_the_clock_and_a_press_that_does_not_apply_changes_nothing():
    # Issue 19: a double press (or the other player's key) is an input from the hall; the clock
    # never raises on it and nothing changes.
    c = ing(60)
    assert c.moved(0, BLACK) == [] and not c.started  # not started
    c.start(0, "B")
    before = c.snapshot()
    c.start(0, WHITE)  # a second start changes nothing
    assert c.snapshot() == before and c.turn == BLACK
    assert c.moved(1000, WHITE) == [] and c.snapshot() == before
    c.moved(1000, "B")
    assert c.turn == WHITE
    before = c.snapshot()
    assert c.moved(1000, BLACK) == [] and c.moved(1001, BLACK) == []  # double press
    assert c.snapshot() == before and c.turn == WHITE
    assert list(c.advance(999)) == []
    assert c.snapshot() == before  # an earlier instant uses no time
    raises(ValueError, c.advance, 1500.0)  # not an integer time: a programming error
    c.pause(2000)
    c.moved(2000, WHITE)  # a move while paused switches without charging
    assert c.turn == BLACK and c.player(WHITE)[0] == 59000


def test_undo_of_an_accepted_retraction_restores_both_clocks():
    # Ing 1991 Art. 8 forbids retraction in play; an undo both players accept restores the
    # clock to the instant of the retracted move.
    c = ing(60)
    c.start(0, BLACK)
    c.advance(20000)
    before = c.snapshot()
    c.moved(20000, BLACK)
    c.advance(90001)  # White thinks into the penalty periods
    assert c.penalty(WHITE) == 4
    c.restore(before, 95000)
    assert c.turn == BLACK and c.penalty(WHITE) == 0
    assert c.player(WHITE)[0] == 60000
    assert c.player(BLACK)[0] == 40000
    c.advance(96000)
    assert c.player(BLACK)[0] == 39000
    # A snapshot is JSON-safe small ints and survives a round trip (journal).
    assert all(type(v) is int for v in before)
    raises(ValueError, c.restore, before[:-1], 0)
    raises(ValueError, c.restore, [9] + before[1:], 0)


def test_undo_can_take_back_a_forfeit():
    c = Clock({"system": "absolute", "basic_s": 10})
    c.start(0, BLACK)
    snap = c.snapshot()
    c.advance(20000)
    assert c.loser == BLACK
    c.restore(snap, 20000)
    assert c.loser == 0 and c.running()


def test_state_has_no_side_effects_and_matches_the_session_log_fields():
    c = ing(60)
    c.start(0, BLACK)
    s = c.state(75000)
    assert s["B"] == {"main_ms": 0, "period": 2, "period_ms": 5000, "penalty": 4, "forfeit": False}
    assert sorted(s) == ["B", "W"]
    assert c.penalty(BLACK) == 0  # nothing charged by looking
    assert len(kinds(c.advance(75000))) == 4


def test_settings_errors_name_the_problem():
    e = raises(ValueError, Clock, {"system": "hourglass"})
    assert "time.system" in str(e)
    e = raises(ValueError, Clock, {"system": "absolute", "basic_s": 60, "colour": 1})
    assert "colour" in str(e)
    e = raises(ValueError, Clock, {"system": "absolute", "basic_s": "60"})
    assert "basic_s" in str(e)
    e = raises(ValueError, Clock, {"system": "absolute", "basic_s": True})
    raises(ValueError, Clock, {"system": "absolute", "basic_s": 86401})
    raises(ValueError, Clock, "ing-pp")
    assert Clock({"system": "absolute", "basic_s": 1.5}).basic_ms == 1500


def test_snapshot_survives_the_journal_as_json_and_keeps_canadian_blocks():
    c = Clock({"system": "canadian", "basic_s": 0, "stones": 3, "period_s": 60})
    c.start(0, BLACK)
    c.moved(1000, BLACK)
    c.moved(2000, WHITE)
    c.advance(5000)
    snap = json.loads(json.dumps(c.snapshot()))
    c.moved(5000, BLACK)
    c.moved(6000, WHITE)
    c.moved(7000, BLACK)  # Black's block complete: a new one
    assert c.player(BLACK)[1] == 2
    c.restore(snap, 100000)
    assert c.player(BLACK) == (0, 1, 56000, 2, 0, 0)
    assert c.moves(BLACK) == 1 and c.turn == BLACK
    assert not c.tick(101000) and c.player(BLACK)[2] == 55000
    raises(ValueError, c.restore, snap[:1] + [7] + snap[2:], 0)


def test_late_forfeit_needs_basic_time_rule10():
    # Ing 1996 Rule 10 measures lateness against 1/6 of the basic time.
    raises(
        ValueError,
        Clock,
        {"system": "byoyomi", "basic_s": 0, "periods": 1, "period_s": 30, "late_forfeit": True},
    )


def test_stepping_to_each_next_event_gives_the_same_events_and_exact_states():
    # The tracker's way to log `clock` events at their own instants (session-log `clock`).
    for cfg in (
        {"system": "ing-pp", "basic_s": 400},
        {"system": "byoyomi", "basic_s": 301, "periods": 2, "period_s": 12},
        {"system": "canadian", "basic_s": 5, "stones": 2, "period_s": 10},
        {"system": "fischer", "basic_s": 3, "increment_s": 1},
        {"system": "ing-pp", "basic_s": 1, "exceeded": "at"},
    ):
        whole = Clock(cfg)
        whole.start(0, WHITE)
        expected = whole.advance(HOUR)
        steps = Clock(cfg)
        steps.start(0, WHITE)
        got = []
        t = steps.next_event_ms()
        while t is not None and t <= HOUR:
            ev = steps.advance(t)
            assert ev and all(e[0] == t for e in ev), (cfg, t, ev)
            state = steps.state(t)["W"]
            for e in ev:
                if e[1] == EV_PENALTY:
                    assert state["penalty"] == e[3]
                if e[1] == EV_PERIOD:
                    assert state["period"] == e[3]
            got += ev
            t = steps.next_event_ms()
        assert got == expected, cfg
        assert steps.loser == WHITE and steps.next_event_ms() is None
    assert Clock().next_event_ms() is None


def test_timekeeper_art10_warns_before_basic_time_each_penalty_and_the_forfeit():
    # Ing 1991 Art. 10 "Timekeeper": "to inform a player when he is about to run out of basic
    # time or additional time" - before the basic time ends, before each penalty-point period
    # ends (the next two points) and before the forfeit, `warn_s` ahead.
    c = ing(3600, warn_s=120)
    c.start(0, BLACK)
    cues_seen = cue_list(c.advance(HOUR + 30 * MIN + 1))
    warnings = [x for x in cues_seen if x[2][0] != cues.POINTS and x[2][0] != cues.FORFEIT]
    assert warnings == [
        (HOUR - 2 * MIN, BLACK, (cues.BASIC_ENDING, 120)),
        (HOUR + 8 * MIN, BLACK, (cues.POINTS_NEXT, 120)),
        (HOUR + 18 * MIN, BLACK, (cues.POINTS_NEXT, 120)),
        (HOUR + 28 * MIN, BLACK, (cues.FORFEIT_NEXT, 120)),
    ]
    assert c.loser == BLACK


def test_timekeeper_art10_warns_whatever_the_basic_time():
    # A basic time shorter than twice the lead time: the warning comes at half of it (and at
    # half of each 1/6 period), never at the start nor not at all.
    c = ing(60)  # default lead 5 minutes; periods of 10 s
    c.start(0, WHITE)
    warnings = [
        x for x in cue_list(c.advance(90001)) if x[2][0] not in (cues.POINTS, cues.FORFEIT)
    ]
    assert warnings == [
        (30000, WHITE, (cues.BASIC_ENDING, 30)),
        (65000, WHITE, (cues.POINTS_NEXT, 5)),
        (75000, WHITE, (cues.POINTS_NEXT, 5)),
        (85000, WHITE, (cues.FORFEIT_NEXT, 5)),
    ]
    # next_event_ms() says each warning's instant, so the tracker logs it when it happens.
    c = ing(60)
    c.start(0, BLACK)
    assert c.next_event_ms() == 30000
    c.advance(30000)
    assert c.next_event_ms() == 60001
    # Absolute time: the basic time's warning is the one before the forfeit.
    c = Clock({"system": "absolute", "basic_s": 20})
    c.start(0, BLACK)
    assert cue_list(c.advance(20001))[0] == (10000, BLACK, (cues.BASIC_ENDING, 10))
    # warn_s 0: no warnings.
    c = ing(60, warn_s=0)
    c.start(0, BLACK)
    assert [
        x for x in cue_list(c.advance(90001)) if "ending" in x[2][0] or "next" in x[2][0]
    ] == []
    raises(ValueError, Clock, {"system": "ing-pp", "basic_s": 60, "warn_s": -1})
    raises(ValueError, Clock, {"system": "none", "warn_s": 10})


def test_warning_cues_have_words():
    assert cues.text(cues.BASIC_ENDING, 300) == "5 minutes of basic time left"
    assert cues.text(cues.POINTS_NEXT, 30) == "30 seconds to the next penalty points"
    assert cues.text(cues.FORFEIT_NEXT, 60) == "1 minute left before the time is up"
    for cue in (cues.BASIC_ENDING, cues.POINTS_NEXT, cues.FORFEIT_NEXT):
        assert cues.beeps(cue)[0] > 0


def test_a_look_at_the_running_clock_is_what_advancing_would_charge_and_changes_nothing():
    # What a face shows (player(color, now)) for every time system across its limits, the
    # forfeit included (Ing 1991 Art. 7, Art. 8 "Forfeiture (4)"), equals the numbers of a
    # copy of the clock advanced to that instant; the clock itself is left as it was.
    from mishaps import Rng  # the same draws under MicroPython

    rng = Rng(20)
    for cfg in (
        {"system": "ing-pp", "basic_s": 60},
        {"system": "byoyomi", "basic_s": 30, "periods": 3, "period_s": 10},
        {"system": "canadian", "basic_s": 5, "stones": 2, "period_s": 10},
        {"system": "fischer", "basic_s": 3, "increment_s": 1},
        {"system": "absolute", "basic_s": 20},
        {"system": "ing-pp", "basic_s": 6, "exceeded": "at"},
    ):
        c = Clock(cfg)
        c.start(0, BLACK)
        t = 0
        for _ in range(60):
            t += rng.choice((1, 999, 1000, 1001, 4000, 9000))
            if rng.below(5) == 0 and not c.loser:
                c.moved(t, c.turn)
            c.advance(t)  # the clock as of t: a copy restored at t is the same clock
            for color in (BLACK, WHITE):
                before = c.snapshot()
                look = c.player(color, t + 7000)
                assert c.snapshot() == before and c.loser == before[3], cfg
                copy = Clock(cfg)
                copy.restore(before, t)
                copy.advance(t + 7000)
                assert look == copy.player(color), (cfg, t, color)


def test_the_clock_parts_read_a_players_numbers_at_the_same_places():
    # clock.py and ing_penalty.py keep the indices of time_systems.py's layout as consts of
    # their own, folded away on MicroPython (no name in the heap); on CPython they are there
    # to be compared.
    from ingboard.clock import clock, ing_penalty, time_systems

    names = ("_MAIN", "_PERIOD", "_LEFT", "_STONES", "_POINTS", "_FORFEIT", "_MOVES")
    names += ("_BASE", "_SIZE")
    if not hasattr(time_systems, "_MAIN"):
        assert not hasattr(clock, "_MAIN") and not hasattr(ing_penalty, "_POINTS")
        return  # MicroPython: folded
    for name in names:
        assert getattr(clock, name) == getattr(time_systems, name), name
    assert ing_penalty._POINTS == time_systems._POINTS
    # and the layout is the one a snapshot (the journal) has: 4 items, then each player's
    snap = Clock({"system": "ing-pp", "basic_s": 60}).snapshot()
    assert len(snap) == 4 + 2 * time_systems._SIZE
    assert snap[4 + time_systems._MAIN] == 60000 and snap[4 + time_systems._BASE] == 60000


def test_the_systems_index_is_the_settings_order():
    # time_systems.py names each system's index (`_sys`) as a const of its own; the index is
    # the system's place in time_settings.SYSTEMS, which reads the settings.
    from ingboard.clock import time_settings, time_systems

    configs = (
        None,
        {"system": "absolute", "basic_s": 60},
        {"system": "ing-pp", "basic_s": 60},
        {"system": "byoyomi", "basic_s": 60, "periods": 5, "period_s": 30},
        {"system": "canadian", "basic_s": 60, "stones": 25, "period_s": 300},
        {"system": "fischer", "basic_s": 60, "increment_s": 10},
    )
    assert [Clock(cfg).system for cfg in configs] == list(time_settings.SYSTEMS)
    assert [Clock(cfg)._sys for cfg in configs] == list(range(len(configs)))
    if not hasattr(time_systems, "_NONE"):
        return  # MicroPython: folded
    names = ("_NONE", "_ABSOLUTE", "_ING_PP", "_BYOYOMI", "_CANADIAN", "_FISCHER")
    assert [getattr(time_systems, n) for n in names] == list(range(len(configs)))


def test_a_running_players_numbers_are_those_the_clock_charges_at_that_instant():
    # Kim/Simon/Straus sec. 7: the clock shows the time the player has left. What player()
    # gives at any instant without stepping the clock - a face asks every second, before and
    # after each limit, warning and forfeit - is what advance() to that instant charges.
    configs = (
        {"system": "ing-pp", "basic_s": 6, "warn_s": 2},
        {"system": "ing-pp", "basic_s": 6, "exceeded": "at"},
        {"system": "byoyomi", "basic_s": 3, "periods": 2, "period_s": 2},
        {"system": "canadian", "basic_s": 3, "stones": 2, "period_s": 4},
        {"system": "fischer", "basic_s": 3, "increment_s": 1},
        {"system": "absolute", "basic_s": 3},
    )
    for cfg in configs:
        for first in (0, 1700):  # the running player's time from the start, or after a switch
            asked, stepped = Clock(cfg), Clock(cfg)
            for c in (asked, stepped):
                c.start(0, BLACK)
                if first:
                    c.advance(first)
                    c.moved(first, BLACK)
            t = first
            while t < first + 40000:
                numbers = asked.player(WHITE if first else BLACK, t)
                stepped.advance(t)
                assert numbers == stepped.player(WHITE if first else BLACK), (cfg, first, t)
                assert asked.player(BLACK if first else WHITE, t) == stepped.player(
                    BLACK if first else WHITE
                ), (cfg, first, t)
                t += 1 if t % 1000 in (998, 999, 0, 1, 2) else 499


def test_the_time_charged_and_the_events_are_the_same_in_small_steps_or_large_ones():
    # Kim/Simon/Straus sec. 7: the clock charges the time that passed, whenever it is asked.
    # Advanced a few ms at a time (the app's quiet ticks) or seconds at a time, a clock gives
    # the same events at the same instants and the same numbers - warnings, countdown seconds,
    # periods, penalty points and the forfeit included.
    configs = (
        {"system": "ing-pp", "basic_s": 6, "warn_s": 2},
        {"system": "ing-pp", "basic_s": 6, "exceeded": "at"},
        {"system": "byoyomi", "basic_s": 3, "periods": 2, "period_s": 12},
        {"system": "canadian", "basic_s": 3, "stones": 2, "period_s": 4, "warn_s": 1},
        {"system": "fischer", "basic_s": 3, "increment_s": 1},
        {"system": "absolute", "basic_s": 3},
    )
    for cfg in configs:
        small, large = Clock(cfg), Clock(cfg)
        for c in (small, large):
            c.start(0, BLACK)
        got_small, got_large = [], []
        t = 0
        for stop in range(2500, 45001, 2500):
            while t < stop:
                t = min(stop, t + 7)
                got_small += small.advance(t)
            got_large += large.advance(stop)
            assert got_small == got_large, (cfg, stop)
            assert small.player(BLACK) == large.player(BLACK), (cfg, stop)
        assert got_small and small.loser == BLACK, cfg  # the limits were all crossed

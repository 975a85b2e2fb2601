"""A stone slid to a neighbouring point before the clock is pressed: until the press the play
is where the stone lies (the slide is part of placing it, noted in the record); after the
press a slide is a nudge (`stone-moved`, put it back or accept the shift). CPython and
MicroPython; `ingboard track` on the log; across a power cut.

Ing 1991 Art. 10 "Timekeeper": "The players must play stones and press the clock with the
same hand" - the press ends the play; until then the hand is still placing the stone."""

from ingboard.records.sgf_record import tracker_sgf
from table_log import Players, game_of, replay, resumed_games

MOVES = (("C3", "B"), ("G7", "W"), ("G3", "B"), ("C7", "W"), ("E5", "B"), ("E3", "W"))
# The mover's stone first stands at E7 (Black) or D5 (White), then is slid to a neighbour.
SLIDES = {
    "B": ("E7", ("E8", "D7", "F7", "E6", "D8", "F6")),
    "W": ("D5", ("D6", "C5", "D4", "C4", "C6")),
}
RULES = ("ing1991", "chinese", "aga", "japanese", "ing1996", "nz")


def played(rules, color, dest, stood_ms, form, press_ms, after_press=False):
    players = Players({"size": 9, "rules": rules, "komi": 7})
    players.wait(200)
    moves = MOVES if color == "B" else MOVES + (("D8", "B"),)
    for name, ch in moves:
        players.play(name, ch, think=250)
    origin = SLIDES[color][0]
    players.put(origin, color)
    players.wait(stood_ms)  # it stood still there: the board took it as the play
    if after_press:
        players.press(color)
        players.wait(150)
    if form == "one-scan":
        players.stones.pop(origin)
        players.put(dest, color)
    elif form == "straddle":
        players.put(dest, color)  # the stone half on both points for a moment
        players.lift(origin)
    else:  # under the hand: both points hidden while it slides
        players.stones[origin] = "?"
        players.put(dest, "?")
        players.wait(120)
        players.stones.pop(origin)
        players.put(dest, color)
    if not after_press:
        players.wait(press_ms)
        players.press(color)
    players.wait(300)
    other = "W" if color == "B" else "B"
    players.play("J1", other)  # the opponent's reply is a move
    players.wait(300)
    return players, origin, moves


def variants():
    out = []
    k = 0
    for rules in RULES:
        for color in ("B", "W"):
            for dest in SLIDES[color][1]:
                form = ("one-scan", "straddle", "hand")[k % 3]
                stood = (150, 300, 800)[k % 3 if k % 2 else (k + 1) % 3]
                press_ms = (10, 60, 200, 700)[k % 4]
                out.append((rules, color, dest, stood, form, press_ms))
                k += 1
    return out


def _expected(moves, color, at):
    out = []
    for name, ch in moves:
        out.append((1 if ch == "B" else 2, name))
    out.append((1 if color == "B" else 2, at))
    out.append((2 if color == "B" else 1, "J1"))
    return out


def test_a_slide_before_the_press_makes_the_play_where_the_stone_lies():
    failures = []
    cases = variants()
    for case in cases:
        players, origin, moves = played(*case)
        events, tracker = replay(players)
        plies, _result = game_of(tracker)
        dest = case[2]
        problems = []
        if plies != _expected(moves, case[1], dest):
            problems.append("plies %r" % plies[len(moves) :])
        moved = [e for e in events if e["type"] == "alert" and e["code"] == "stone-moved"]
        if moved:
            problems.append("stone-moved %r" % moved)
        if "slid from %s to %s before the press" % (origin, dest) not in tracker_sgf(tracker):
            problems.append("no note in the SGF")
        if tracker.active:
            problems.append("alerts standing %r" % list(tracker.active))
        if problems:
            failures.append("%r: %s" % (case, "; ".join(problems)))
    assert len(cases) >= 50
    assert not failures, "\n".join(failures[:6])


def test_a_slide_after_the_press_is_a_nudge_and_the_play_stays():
    for rules in ("ing1991", "chinese"):
        for color in ("B", "W"):
            for form in ("one-scan", "straddle", "hand"):
                dest = SLIDES[color][1][0]
                players, origin, moves = played(rules, color, dest, 300, form, 0, True)
                events, tracker = replay(players)
                plies, _result = game_of(tracker)
                case = (rules, color, form)
                assert plies == _expected(moves, color, origin), (case, plies)
                moved = [e for e in events if e["type"] == "alert" and e["code"] == "stone-moved"]
                assert moved and moved[0]["points"] == [origin, dest], (case, moved)


def test_the_play_where_the_stone_lies_survives_a_power_cut():
    for case in variants()[::8]:
        players, _origin, _moves = played(*case)
        _events, original = replay(players)
        for cut, resumed in resumed_games(players, cuts=4):
            assert game_of(resumed) == game_of(original), (case, cut)

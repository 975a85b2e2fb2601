"""A second press by the player who just pressed, when the opponent's stone is already on the
board (the opponent played before or right at that press, then the press bounced or was
doubled): on every clock it does nothing - never a pass, never a lost move - in the tracker,
in `ingboard track` on the session log and across a power cut (CPython and MicroPython).

Ing 1991 Art. 10 "Timekeeper": "the players must keep the time by operating the tournament
clock themselves ... The players must play stones and press the clock with the same hand":
a press is the presser ending their turn, so a press by the side whose clock is not running
ends nothing."""

from ingrules.board import BLACK
from table_log import Players, game_of, replay, resumed_games

CLOCKS = (
    {"system": "none"},
    {"system": "absolute", "basic_s": 600},
    {"system": "ing-pp", "basic_s": 600},
    {"system": "byoyomi", "basic_s": 60, "periods": 3, "period_s": 30},
    {"system": "canadian", "basic_s": 60, "stones": 10, "period_s": 300},
    {"system": "fischer", "basic_s": 600, "increment_s": 10},
)
RULES = ("ing1991", "chinese", "aga", "japanese", "simplified-ing", "ing1996")
# The moves of a short game (no captures): the presser whose key bounces plays the second of
# each pair.
MOVES = ("C3", "G7", "G3", "C7", "E5", "E3", "E7", "C5", "G5", "D4")

# When the opponent's stone comes, relative to the presser's own press:
#   "before"  - down and still before the press (the press confirms a move already followed)
#   "at"      - down 40 ms before the press, not yet still
#   "after"   - down 60 ms after the press, before the bounce
#   "quick"   - the presser's own stone pressed 30 ms after it was put down (not yet still),
#               the opponent's stone down 60 ms after that press
OVERLAPS = ("before", "at", "after", "quick")


def variants():
    out = []
    k = 0
    for rules in RULES:
        for clock in CLOCKS:
            overlap = OVERLAPS[k % 4]
            bounce_ms = (15, 90, 250, 700)[(k // 4 + k) % 4]
            extra = 1 + k % 3  # presses after the first one
            victim = 2 + (k % 5)  # which move's press bounces
            out.append((rules, clock, overlap, bounce_ms, extra, victim))
            k += 1
    return out


def played(rules, clock, overlap, bounce_ms, extra, victim):
    players = Players({"size": 9, "rules": rules, "komi": 7, "time": clock})
    players.wait(200)
    color = "B"
    i = 0
    while i < len(MOVES):
        name = MOVES[i]
        other = "W" if color == "B" else "B"
        if i == victim and i + 1 < len(MOVES):
            nxt = MOVES[i + 1]
            players.put(name, color)
            players.wait(30 if overlap == "quick" else 300)
            if overlap == "before":
                players.put(nxt, other)
                players.wait(300)
                players.press(color)
            elif overlap == "at":
                players.put(nxt, other)
                players.wait(40)
                players.press(color)
            else:
                players.press(color)
                players.wait(60)
                players.put(nxt, other)
            for _ in range(extra):
                players.wait(bounce_ms)
                players.press(color, dt=0)
            players.wait(300)
            players.press(other)  # the opponent presses for their stone
            players.wait(300)
            i += 2
            continue
        players.play(name, color)
        color = other
        i += 1
    return players


def expected():
    plies = []
    for i, name in enumerate(MOVES):
        plies.append((BLACK if i % 2 == 0 else 3 - BLACK, name))
    return plies


def test_a_second_press_with_the_opponents_stone_down_is_never_a_pass_on_every_clock():
    failures = []
    cases = variants()
    for case in cases:
        players = played(*case)
        events, tracker = replay(players)
        plies, _result = game_of(tracker)
        passes = [e for e in events if e["type"] == "pass"]
        if plies != expected() or passes:
            failures.append("%r: %r, %d passes" % (case, plies, len(passes)))
    assert len(cases) >= 30
    assert not failures, "\n".join(failures[:5])


def test_the_next_move_after_the_bounce_is_taken_and_the_clock_is_the_opponents():
    # After the overlap the player who bounced is to move and their next stone is a move.
    for overlap in OVERLAPS:
        players = played("ing1991", {"system": "absolute", "basic_s": 600}, overlap, 90, 2, 2)
        events, tracker = replay(players)
        assert tracker.game.to_play == BLACK
        moves = [e["point"] for e in events if e["type"] == "move"]
        assert moves == list(MOVES), (overlap, moves)


def test_a_second_press_stays_nothing_across_a_power_cut():
    for case in variants()[::7]:
        players = played(*case)
        _events, original = replay(players)
        for cut, resumed in resumed_games(players, cuts=3):
            assert game_of(resumed) == game_of(original), (case, cut)
            assert game_of(resumed)[0] == expected(), (case, cut)

"""A sensor stuck as a stone on a point nobody plays (a magnet under the board from power-on)
is never half of a move: a dead stone lifted near it in the pause is a dead stone taken off,
a stone nudged near it pairs with where it really went - never `stone-moved` with the phantom
(CPython and MicroPython; `ingboard track` on the log; across a power cut).

Ing 1991 Art. 9 "Counting" (2): "During the game, there should be no stones except the live
and dead stones on the board, unplayed stones in the bowls, and removed stones in their
designated containers": the stuck point is none of them; the game goes on around it."""

from table_log import Players, game_of, replay, resumed_games

# Black's wall on the C line, White's on the G line; White's B2 is played inside Black's
# area and is dead.
OPENING = (("C2", "B"), ("G2", "W"), ("C4", "B"), ("G4", "W"), ("C6", "B"), ("G6", "W"))
OPENING += (("C8", "B"), ("G8", "W"), ("C9", "B"), ("B2", "W"), ("C1", "B"), ("G9", "W"))
OPENING += (("C3", "B"), ("G1", "W"), ("C5", "B"), ("G3", "W"), ("C7", "B"), ("G5", "W"))
OPENING += (("D5", "B"), ("G7", "W"))
# Empty points nobody plays, 1 to 3 points from the dead B2 (along the lines and diagonally),
# and one near White's wall (the phantom beside a live stone).
PHANTOMS = ("A2", "B1", "A1", "B3", "A3", "B4", "D2", "B5", "H2")
RULES = ("ing1991", "chinese", "aga", "japanese", "simplified-ing", "nz")


def played(rules, phantom, colour, ending, lift_ms):
    stones = {phantom: colour} if phantom else {}
    players = Players({"size": 9, "rules": rules, "komi": 7}, stones=stones)
    players.wait(200)
    for name, ch in OPENING:
        players.play(name, ch, think=250)
    players.press("B")
    players.wait(200)
    players.press("W")
    players.wait(300)
    players.stones["B2"] = "?"  # the hand over it
    players.wait(lift_ms)
    players.lift("B2")
    players.wait(600)
    if ending == "agree":
        players.button("agree")
    else:
        players.press("B")
        players.wait(300)
        players.press("W")
    players.wait(600)
    return players


def variants():
    out = []
    k = 0
    for rules in RULES:
        for phantom in PHANTOMS:
            colour = "W" if k % 3 else "B"
            ending = "agree" if k % 2 else "passes"
            if rules == "simplified-ing":
                ending = "agree"  # its passes in the pause continue play (SI "EGF Rules Text")
            out.append((rules, phantom, colour, ending, (40, 200, 700)[k % 3]))
            k += 1
    return out


def _alerts(events, code):
    return [e for e in events if e["type"] == "alert" and e["code"] == code]


def test_a_dead_stone_lifted_near_a_stuck_point_is_a_removal_never_a_nudge():
    failures = []
    cases = variants()
    for rules, phantom, colour, ending, lift_ms in cases:
        events, tracker = replay(played(rules, phantom, colour, ending, lift_ms))
        plain_events, plain = replay(played(rules, None, colour, ending, lift_ms))
        problems = []
        if _alerts(events, "stone-moved"):
            problems.append("stone-moved %r" % _alerts(events, "stone-moved"))
        removals = [e["points"] for e in events if e["type"] == "removal"]
        if removals != [["B2"]]:
            problems.append("removals %r" % removals)
        if game_of(tracker) != game_of(plain) or tracker.game.result is None:
            problems.append(
                "game %r, without the stuck point %r" % (game_of(tracker), game_of(plain))
            )
        counts = [e for e in events if e["type"] == "count"]
        plain_counts = [e for e in plain_events if e["type"] == "count"]
        if [c["result"] for c in counts] != [c["result"] for c in plain_counts]:
            problems.append("count %r / %r" % (counts, plain_counts))
        if problems:
            failures.append(
                "%s %s %s %s: %s" % (rules, phantom, colour, ending, "; ".join(problems))
            )
    assert len(cases) >= 40
    assert not failures, "\n".join(failures[:6])


def test_a_stone_nudged_beside_a_stuck_point_pairs_with_where_it_went():
    # A stone of Black's wall knocked one point along the line, the stuck point two points
    # away on the other side: `stone-moved` names the stone's real destination.
    for phantom, dest in (("A4", "D4"), ("A3", "B4"), ("B4", "C3")):
        players = Players({"size": 9, "rules": "ing1991", "komi": 8}, stones={phantom: "B"})
        players.wait(200)
        for name, ch in (("C4", "B"), ("G4", "W"), ("C6", "B"), ("G6", "W")):
            players.play(name, ch)
        players.lift("C4")
        players.put(dest, "B")
        players.wait(800)
        events, _tracker = replay(players)
        moved = [e["points"] for e in _alerts(events, "stone-moved")]
        assert moved and moved[-1] == ["C4", dest], (phantom, dest, moved)


def test_a_stuck_point_stays_no_half_of_a_move_across_a_power_cut():
    for rules, phantom, colour, ending, lift_ms in variants()[::9]:
        players = played(rules, phantom, colour, ending, lift_ms)
        _events, original = replay(players)
        for cut, resumed in resumed_games(players, cuts=3):
            assert game_of(resumed) == game_of(original), (rules, phantom, cut)
            assert not resumed.moved, (rules, phantom, cut, resumed.moved)

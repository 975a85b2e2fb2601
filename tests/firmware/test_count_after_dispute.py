"""Dead stones disputed, play resumed, then both pass again: the count comes only once the
dead stones are off and the players agree (or pass again in the pause) - never with the dead
stones still on the board - unless the rule text ends the game at those passes with every
stone alive (AGA Rule 10, Simplified Ing). CPython and MicroPython; `ingboard track` on the
log; across a power cut.

Ing 1991 Art. 1 "Pass Play": "If there is disagreement about life and death, play can resume
... After the dead stones have been taken away, both players pass again and play ends";
AGA Rule 10: "The game is over when the players agree on the status of all groups on the
board, or, failing such agreement, if both players pass twice in succession. In this case any
stones remaining on the board are deemed alive"; Simplified Ing: "If they disagree ...
alternate moving continues as if there had been no removals ... Then immediately after the
next two successive passes, they determine the scores"."""

from table_log import Players, game_of, replay, resumed_games

# Black's wall on the C line, White's on the G line; White's B2 inside Black's area and
# Black's H8 inside White's are dead.
OPENING = (("C2", "B"), ("G2", "W"), ("C4", "B"), ("G4", "W"), ("C6", "B"), ("G6", "W"))
OPENING += (("C8", "B"), ("G8", "W"), ("C9", "B"), ("B2", "W"), ("C1", "B"), ("G9", "W"))
OPENING += (("C3", "B"), ("G1", "W"), ("C5", "B"), ("G3", "W"), ("C7", "B"), ("G5", "W"))
OPENING += (("H8", "B"), ("G7", "W"))
# Moves after play resumed (Black first: White passed last), then both pass again.
RESUMED = (("D5", "B"), ("F5", "W"), ("D3", "B"), ("F3", "W"))
# Rulesets whose text pauses again for the dead stones, and those whose text ends the game
# at the next two passes with every stone alive.
PAUSE_AGAIN = ("chinese", "nz", "japanese", "ing1991", "ing1996")
ENDS_ALIVE = ("aga", "simplified-ing")
DEAD = ("B2", "H8")


def _passes(players):
    players.press("B")
    players.wait(300)
    players.press("W")
    players.wait(300)


def _take_off(players, names, hand_ms):
    for name in names:
        players.stones[name] = "?"
        players.wait(hand_ms)
        players.lift(name)
        players.wait(150)
    players.wait(300)


def played(rules, how, dead, hand_ms, ending, disputed=True):
    players = Players({"size": 9, "rules": rules, "komi": 7})
    players.wait(200)
    for name, ch in OPENING:
        players.play(name, ch, think=250)
    if disputed:
        _passes(players)
        _take_off(players, dead, hand_ms)
        if how == "button":
            players.button("dispute")
            players.wait(200)
            for name in dead:  # the removed stones go back where they were
                players.put(name, "W" if name == "B2" else "B")
            players.wait(300)
            moves = RESUMED
        else:
            # A board play in the pause disputes the removals; the stones go back after it.
            name, ch = RESUMED[0]
            players.put(name, ch)
            players.wait(300)
            players.press(ch)
            players.wait(200)
            for name in dead:
                players.put(name, "W" if name == "B2" else "B")
            players.wait(300)
            moves = RESUMED[1:]
    else:
        moves = RESUMED
    for name, ch in moves:
        players.play(name, ch, think=250)
    _passes(players)
    _take_off(players, dead, hand_ms)
    if ending == "agree":
        players.button("agree")
    else:
        _passes(players)
    players.wait(600)
    return players


def variants():
    out = []
    k = 0
    for rules in PAUSE_AGAIN + ENDS_ALIVE:
        for how in ("button", "play"):
            for dead in (("B2",), ("H8",), DEAD):
                ending = "passes" if rules.startswith("ing") or k % 2 else "agree"
                if rules == "simplified-ing":
                    ending = "agree"
                out.append((rules, how, dead, (40, 250, 600)[k % 3], ending))
                k += 1
    return out


def _counts(events):
    return [e for e in events if e["type"] == "count"]


def test_after_a_dispute_the_count_waits_for_the_dead_stones_and_the_agreement():
    failures = []
    cases = variants()
    for rules, how, dead, hand_ms, ending in cases:
        if rules in ENDS_ALIVE:
            continue
        events, tracker = replay(played(rules, how, dead, hand_ms, ending))
        # The same game and dead stones with no dispute: the count the players expect.
        ref_events, ref = replay(played(rules, how, dead, hand_ms, ending, disputed=False))
        counts = _counts(events)
        ref_counts = _counts(ref_events)
        pauses = [e for e in events if e["type"] == "pause"]
        problems = []
        if len(counts) != 1 or len(ref_counts) != 1:
            problems.append("%d counts (reference %d)" % (len(counts), len(ref_counts)))
        elif counts[0]["result"] != ref_counts[0]["result"]:
            problems.append("count %r, expected %r" % (counts[0], ref_counts[0]))
        if len(pauses) < 2:
            problems.append("%d pauses" % len(pauses))
        dead_now = sorted(tracker.game.board.name(p) for p, _c in tracker.game.dead)
        if dead_now != sorted(dead):
            problems.append("dead %r" % dead_now)
        if tracker.game.result != ref.game.result or tracker.game.result is None:
            problems.append("result %r, expected %r" % (tracker.game.result, ref.game.result))
        if problems:
            failures.append("%s %s %s %s: %s" % (rules, how, dead, ending, "; ".join(problems)))
    assert len(cases) >= 30
    assert not failures, "\n".join(failures[:6])


def test_aga_and_simplified_ing_end_at_the_next_two_passes_with_every_stone_alive():
    # AGA Rule 10 / Simplified Ing: the text ends the game there; the stones on the board at
    # those passes are counted alive, whatever is lifted afterwards.
    for rules, how, dead, hand_ms, ending in variants():
        if rules not in ENDS_ALIVE:
            continue
        events, tracker = replay(played(rules, how, dead, hand_ms, ending))
        counts = _counts(events)
        assert len(counts) == 1, (rules, how, dead)
        assert not tracker.game.dead, (rules, how, dead)
        assert tracker.game.end_reason == "count"


def _half_taken_off(rules, ending, hand):
    # White's dead pair B2-B3: B2 lifted, then the agreement (or the passes) with B3 still on
    # the board (a hand over it, or not yet reached).
    players = Players({"size": 9, "rules": rules, "komi": 7})
    players.wait(200)
    for name, ch in OPENING[:10] + (("C1", "B"), ("B3", "W")) + OPENING[12:]:
        players.play(name, ch, think=250)
    _passes(players)
    players.lift("B2")
    players.wait(400)
    if hand:
        players.stones["B3"] = "?"
        players.wait(100)
    if ending == "agree":
        players.button("agree")
    else:
        _passes(players)
    players.wait(600)
    return players


def test_the_count_waits_while_a_dead_chain_is_half_taken_off():
    for rules in ("chinese", "aga", "nz", "japanese", "ing1991"):
        for ending in ("agree", "passes"):
            if rules == "ing1991" and ending == "agree":
                continue
            for hand in (False, True):
                players = _half_taken_off(rules, ending, hand)
                events, tracker = replay(players)
                case = (rules, ending, hand)
                assert not _counts(events) and tracker.game.result is None, case
                players.lift("B3")
                players.wait(600)
                events, tracker = replay(players)
                assert len(_counts(events)) == 1 and tracker.game.result is not None, case
                dead = sorted(tracker.game.board.name(p) for p, _c in tracker.game.dead)
                assert dead == ["B2", "B3"], case
                for _cut, resumed in resumed_games(players, cuts=4):
                    assert game_of(resumed) == game_of(tracker), (case, _cut)
                    assert sorted(resumed.game.dead) == sorted(tracker.game.dead), (case, _cut)


def test_the_count_after_a_dispute_is_the_same_across_a_power_cut():
    for case in variants()[::6]:
        players = played(*case)
        _events, original = replay(players)
        for cut, resumed in resumed_games(players, cuts=3):
            assert game_of(resumed) == game_of(original), (case, cut)
            assert sorted(resumed.game.dead) == sorted(original.game.dead), (case, cut)

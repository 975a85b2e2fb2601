"""The game state machine under each ruleset: passes, pause, end, AGA pass stones and White's
last move, handicap, illegal-move consequences, resignation, retraction."""

from expect import raises
from ingrules import rulesets as rs
from ingrules.board import BLACK, WHITE
from ingrules.game import MANDATORY_PASS, Game, IllegalMove
from positions import play_all


def test_ing_two_passes_pause_four_end():
    # Ing 1991 terms 18-19: "Play pauses when each side passes once ... Play ends when each
    # side passes twice, making four consecutive pass plays."
    g = Game(9, "ing1991")
    play_all(g, "B:E5 W:C3 B:pass W:pass")
    assert g.phase == "paused"
    chain = g.remove_dead(g.board.parse("C3"))
    assert [g.board.name(q) for q in chain] == ["C3"]
    play_all(g, "B:pass W:pass")
    assert g.phase == "ended" and g.end_reason == "count"
    raises(IllegalMove, g.pass_move, BLACK)


def test_dispute_restores_the_removed_stones_and_resumes():
    # Ing 1991 term 18 "If there is disagreement about life and death, play can resume";
    # Simplified Ing "continued alternate moving starts from the position ... between the
    # previous two successive passes and with the opponent of the last passing player".
    for rules in ("ing1991", "simplified-ing", "aga"):
        g = Game(9, rules)
        play_all(g, "B:E5 W:C3 B:pass W:pass")
        assert g.phase == "paused", rules
        g.remove_dead(g.board.parse("C3"))
        g.dispute()
        assert g.phase == "play" and g.to_play == BLACK
        assert g.board.get(g.board.parse("C3")) == WHITE


def test_after_a_dispute_two_passes_end_the_game_simplified_ing_and_aga():
    # Simplified Ing: "immediately after the next two successive passes, they determine the
    # scores"; AGA Rule 10 "if both players pass twice in succession".
    g = Game(9, "simplified-ing")
    play_all(g, "B:E5 W:C3 B:pass W:pass")
    g.dispute()
    play_all(g, "B:pass W:pass")
    assert g.phase == "ended"
    # Ing pauses again instead (the game ends only with four passes or agreement).
    g = Game(9, "ing1991")
    play_all(g, "B:E5 W:C3 B:pass W:pass")
    g.dispute()
    play_all(g, "B:pass W:pass")
    assert g.phase == "paused"
    g.agree()
    assert g.phase == "ended"


def test_tromp_taylor_ends_at_two_passes():
    g = Game(9, "tromp-taylor")
    play_all(g, "B:E5 W:pass B:pass")
    assert g.phase == "ended"


def test_aga_pass_stones_and_white_passes_last():
    # AGA Rule 7: a pass hands the opponent a pass stone; Rule 11: White makes the last move.
    g = Game(9, "aga")
    play_all(g, "B:E5 W:pass B:pass")
    assert g.prisoners[BLACK] == 1 and g.prisoners[WHITE] == 1
    assert g.phase == "play"  # Black passed last: White must pass once more
    play_all(g, "W:pass")
    assert g.phase == "paused"
    assert g.prisoners[BLACK] == 2


def test_aga_illegal_move_is_a_pass_with_a_pass_stone():
    # AGA Rule 8: "the player must take back his or her move ..., it shall be treated as a
    # pass, and a pass stone exchanged."
    g = Game(9, "aga")
    play_all(g, "B:E5")
    assert g.legality(WHITE, g.board.parse("E5")) == "occupied"
    assert g.commit_illegal(WHITE, "occupied") == "pass"
    assert g.plies[-1].point == -1 and g.to_play == BLACK and g.prisoners[BLACK] == 1


def test_ing1996_ko_recapture_forfeits_ing1991_retracts():
    # Ing 1996 "Penalized mistakes: ... recapturing a ko stone without an intervening play
    # violates the ko rule. In either case, the game is forfeited."; Kim/Simon/Straus 6
    # "Unintentional illegal moves are retracted without penalty" (1991).
    g = Game(9, "ing1996")
    assert g.commit_illegal(WHITE, "ko") == "forfeit"
    assert g.phase == "ended" and g.result == "B+F" and g.end_reason == "forfeit"
    g = Game(9, "ing1991")
    assert g.commit_illegal(WHITE, "ko") == "retracted" and g.phase == "play"


def test_ing_handicap_plays_with_mandatory_passes():
    # Ing 1991 Art. 6: "In a one-play handicap ... Black makes a board play anywhere, White
    # makes a mandatory pass play, then Black makes another board play anywhere."
    g = Game(9, "ing1991", handicap=1)
    play_all(g, "B:C3")
    assert g.plies[-1].kind == MANDATORY_PASS and g.to_play == BLACK
    play_all(g, "B:G7")
    assert g.to_play == WHITE and len(g.plies) == 3
    # Ing 1996 Rule 3 "At the start of a handicap game, white makes mandatory passes, known as
    # handicap plays"; Rule 8 "gives a 5 duan one handicap play": N plays = N White passes.
    g = Game(9, "ing1996", handicap=2)
    play_all(g, "B:C3")
    assert g.plies[-1].kind == MANDATORY_PASS
    play_all(g, "B:G7")
    assert g.plies[-1].kind == MANDATORY_PASS and g.to_play == BLACK
    play_all(g, "B:E5")
    assert g.to_play == WHITE
    assert [p.kind for p in g.plies].count(MANDATORY_PASS) == 2
    # Undo takes back Black's play together with White's mandatory pass.
    g.undo()
    assert len(g.plies) == 4 and g.to_play == BLACK


def test_ing_handicap_plays_are_mandatory_passes_under_both_ing_texts():
    # Ing 1991 Art. 6 "The size of the handicap is one less than the number (N) of initial board
    # plays by Black"; Ing 1996 Rule 3 "white makes mandatory passes, known as handicap plays".
    for rules in ("ing1991", "ing1996"):
        for h in range(1, 6):
            g = Game(9, rules, handicap=h)
            black_plays = 0
            while g.to_play == BLACK:
                g.play(BLACK, g.board.index(black_plays, 0))
                black_plays += 1
            assert black_plays == h + 1, (rules, h)
            assert [p.kind for p in g.plies].count(MANDATORY_PASS) == h


def _wall(size):
    from ingrules.board import Board

    board = Board(size)
    for row in range(size):
        board.set(board.index(4, row), BLACK)
        board.set(board.index(5, row), WHITE)
    return board


def test_kss_handicap_compensation_n_points_and_white_wins_ties():
    # Kim/Simon/Straus Part 2 "Counting" 5: "In handicap games of N-stone handicap, White must
    # receive N-point compensation ... In handicap games, White wins ties." A setting.
    from ingrules.counting import count_game, kss_stones

    raises(ValueError, Game, 9, "ing1991", compensation="bogus")
    # A 9x9 board split 45 (Black, columns A-E) to 36 (White, F-J): Black leads by 9.
    for rules in ("ing1991", "chinese"):
        g = Game(9, rules, komi=0, handicap=2, compensation="kss")
        assert kss_stones(g) == (3 if rules == "ing1991" else 2)
        g.board = _wall(9)
        count = count_game(g)[0]
        # ing-plays: a 2-play handicap is 3 initial Black plays, 3 points; fixed: 2 points.
        assert count["result"] == ("B+6" if rules == "ing1991" else "B+7"), count
        plain = Game(9, rules, komi=0, handicap=2)
        plain.board = g.board
        assert count_game(plain)[0]["result"] == (
            "B+9" if rules == "ing1991" else "B+7"  # Chinese pays 1 per stone itself
        )
    # A tie in a KSS handicap game goes to White.
    g = Game(9, "ing1991", komi=7, handicap=1, compensation="kss")
    g.board = _wall(9)
    assert count_game(g)[0]["result"] == "W+0"


def test_odd_komi_under_ing_rules_is_warned():
    # Ing 1991 Art. 4 (3) "Step size": "the score cannot be adjust[ed] by an odd number of
    # points"; Ing 1996 Rule 8 "the number of compensation points (must be an even number)".
    for rules in ("ing1991", "ing1996"):
        r = rs.get(rules)
        assert rs.komi_warning(r, 8) is None and rs.komi_warning(r, 0) is None
        assert rs.komi_warning(r, -4) is None
        assert "even" in rs.komi_warning(r, 7)
        assert "even" in rs.komi_warning(r, 7.5)
        assert rs.komi_warning(r, 3, rs.COMPENSATION_KSS) is None
    assert rs.komi_warning(rs.get("chinese"), 7.5) is None


def test_aga_fixed_handicap_star_points_and_komi():
    # AGA Rule 4: 2 stones on the 1st and 2nd star points (Q16, D4); Rule 3: 1/2 point komi.
    g = Game(19, "aga", handicap=2)
    assert sorted(g.board.name(p) for p, _c in g.setup) == ["D4", "Q16"]
    assert g.to_play == WHITE and g.komi == 0.5
    g = Game(19, "aga", handicap=5)
    assert sorted(g.board.name(p) for p, _c in g.setup) == ["D16", "D4", "K10", "Q16", "Q4"]
    assert sorted(
        g.board.name(g.board.index(c, r)) for c, r in rs.fixed_handicap_points(9, 4)
    ) == [
        "C3",
        "C7",
        "G3",
        "G7",
    ]
    raises(ValueError, rs.fixed_handicap_points, 19, 10)


def test_free_handicap_placement():
    g = Game(9, "nz", handicap=3)
    assert g.to_play == BLACK and g.free_stones_left == 3
    for name in ("C3", "G7", "E5"):
        g.place_handicap_stone(g.board.parse(name))
    assert g.to_play == WHITE and g.board.count[BLACK] == 3
    raises(IllegalMove, g.place_handicap_stone, g.board.parse("A1"))


def test_komi_defaults_per_ruleset():
    # Ing 1991 Art. 6 "black gives white eight points"; AGA Rule 3 "5 1/2 points".
    assert Game(9, "ing1991").komi == 8
    assert Game(9, "aga").komi == 5.5
    assert Game(9, "aga", handicap=3).komi == 0.5
    assert Game(9, "chinese", komi=6).komi == 6
    raises(ValueError, Game, 9, "chinese", 0.3)
    raises(ValueError, Game, 9, "korean")
    raises(ValueError, Game, 21, "chinese")


def test_wrong_player_and_resignation():
    g = Game(9, "ing1991")
    e = raises(IllegalMove, g.play, WHITE, g.board.parse("E5"))
    assert e.reason == "not-your-turn" and not g.plies
    g.resign(WHITE)
    assert g.result == "B+R" and g.end_reason == "resign"
    assert raises(IllegalMove, g.play, BLACK, g.board.parse("E5")).reason == "game-over"


def test_undo_restores_captures_and_turn():
    g = Game(5, "chinese")
    play_all(g, "B:B2 W:A2 B:A3 W:E5 B:A1")
    assert g.plies[-1].captured == (g.board.parse("A2"),) and g.prisoners[BLACK] == 1
    g.undo()
    assert g.board.get(g.board.parse("A2")) == WHITE and g.to_play == BLACK
    assert g.prisoners[BLACK] == 0 and len(g.plies) == 4
    raises(IllegalMove, Game(9).undo)


def test_an_illegal_play_during_the_pause_changes_nothing():
    # A refused play is no dispute: the removals stand and play stays paused.
    g = Game(9, "ing1991")
    play_all(g, "B:E5 W:C3 B:pass W:pass")
    g.remove_dead(g.board.parse("C3"))
    before = (g.board.rows(), g.phase, list(g.dead), g.consecutive_passes, len(g.plies))
    e = raises(IllegalMove, g.play, BLACK, g.board.parse("E5"))
    assert e.reason == "occupied"
    assert (g.board.rows(), g.phase, list(g.dead), g.consecutive_passes, len(g.plies)) == before


WALLS = [
    "....BW...",
    "....BW...",
    "....BW...",
    "....BW...",
    ".W..BW...",
    "....BW...",
    "....BW...",
    "....BW...",
    "....BW...",
]


def _walls(rules):
    from positions import game_from

    return game_from(WALLS, rules)


def test_dead_stones_removed_in_the_pause_are_prisoners_for_territory_counting():
    # AGA Rule 9: dead stones are "removed from the board as prisoners of the player who could
    # capture"; removing in the pause and naming them dead must count the same.
    from ingrules.counting import count_game

    for rules in ("japanese", "aga-territory", "chinese"):
        g = _walls(rules)
        play_all(g, "B:pass W:pass")  # (AGA: White passed last) play pauses
        assert g.phase == "paused", rules
        named = count_game(g, dead=[g.board.parse("B5")])[0]["result"]
        g.remove_dead(g.board.parse("B5"))
        g.agree()
        assert count_game(g)[0]["result"] == named, rules


def test_undo_keeps_a_dispute_made_with_the_button():
    # Ing 1991 terms 18-19: after a dispute two passes pause again, never one.
    g = Game(9, "ing1991")
    play_all(g, "B:C3 W:G7 B:pass W:pass")
    g.dispute()
    play_all(g, "B:pass W:G3")
    g.undo()
    assert g.phase == "play" and g.consecutive_passes == 1 and g.disputed
    play_all(g, "W:pass")
    assert g.phase == "paused"


def test_simplified_ing_passes_in_the_pause_continue_play_as_if_nothing_was_removed():
    # Simplified Ing: "If they disagree ... alternate moving continues as if there had been no
    # removals ... immediately after the next two successive passes, they determine the scores".
    g = _walls("simplified-ing")
    play_all(g, "B:pass W:pass")
    g.remove_dead(g.board.parse("B5"))
    play_all(g, "B:pass W:pass")
    assert g.phase == "ended" and g.board.get(g.board.parse("B5")) == WHITE
    # AGA: passes in the agreement phase confirm the removals (Rule 9 commentary).
    g = _walls("aga")
    play_all(g, "B:pass W:pass")
    g.remove_dead(g.board.parse("B5"))
    play_all(g, "B:pass W:pass")
    assert g.phase == "ended" and g.board.get(g.board.parse("B5")) == 0


def test_chinese_handicap_gives_white_a_point_per_stone():
    from ingrules.counting import count_game

    assert count_game(Game(9, "chinese", handicap=4))[0]["result"] == "B+77"
    assert count_game(Game(9, "aga", handicap=4))[0]["result"] == "B+77.5"


def test_no_undo_after_the_end():
    g = Game(9, "ing1991")
    play_all(g, "B:C3 W:G7")
    g.resign(BLACK)
    assert raises(IllegalMove, g.undo).reason == "game-over"
    assert g.result == "W+R" and len(g.plies) == 2


def test_legality_during_the_pause_is_judged_as_the_play_would_be():
    # A stone put back on the point of a removed dead stone is occupied once the removals are
    # restored by the dispute the play would make; nothing changes.
    g = Game(9, "ing1991")
    play_all(g, "B:C3 W:G7 B:C7 W:G3 B:pass W:pass")
    g.remove_dead(g.board.parse("C7"))
    assert g.legality(BLACK, g.board.parse("C7")) == "occupied"
    assert g.phase == "paused" and g.board.get(g.board.parse("C7")) == 0
    assert g.legality(BLACK, g.board.parse("E5")) is None and g.phase == "paused"
    assert g.restore_dead_chain(g.board.parse("C7")) == [g.board.parse("C7")]
    assert g.board.get(g.board.parse("C7")) == BLACK and g.dead == []


def _random_aga_game(rules, seed, size, handicap, ending):
    # A finished game from a deterministic generator: random legal plays (some passes, never
    # two in a row) and the record's last two plies `ending` ("B W": Black passes, then White;
    # "W B": White passes, then Black - the record AGA Rule 11 completes).
    g = Game(size, rules, handicap=handicap)
    x = seed * 48271 + 11
    last_pass = False
    for _ in range(size * size):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        color = g.to_play
        if not last_pass and x % 9 == 0:
            g.pass_move(color)
            last_pass = True
            continue
        for _ in range(20):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            p = g.board.index(x % size, (x >> 8) % size)
            if g.legality(color, p) is None:
                g.play(color, p)
                last_pass = False
                break
    want = BLACK if ending[0] == "B" else WHITE
    if g.to_play != want:
        g.play(g.to_play, _any_legal(g, g.to_play))
    for who in ending.split():
        g.pass_move(BLACK if who == "B" else WHITE)
    if g.phase == "paused":
        g.agree()
    return g


def _any_legal(g, color):
    for row in range(g.size):
        for col in range(g.size):
            p = g.board.index(col, row)
            if g.legality(color, p) is None:
                return p
    raise AssertionError("no legal play")


def test_aga_rule_11_area_and_territory_counts_agree_whoever_passed_last():
    # AGA Rule 11 "White must make the last move--if necessary, an additional, pass, with a
    # stone passed to the opponent as usual"; AGA appendix "the "area" and "territory" scores
    # of a game will always be the same". Generated finished games, even and with handicap,
    # ending "Black passes, White passes" or "White passes, Black passes" (White's extra pass
    # stone is then owed at the count).
    from ingrules.counting import count_game, last_pass_owed

    owed = 0
    for seed in range(16):
        size = (7, 9)[seed % 2]
        handicap = (0, 0, 2, 3)[seed % 4] if size == 9 else 0
        for ending in ("B W", "W B"):
            counts = []
            for rules in ("aga", "aga-territory"):
                g = _random_aga_game(rules, seed, size, handicap, ending)
                count = count_game(g)[0]
                counts.append((count["difference"], count["result"]))
                if ending == "W B":
                    assert last_pass_owed(g) == 1, (seed, rules)
                    owed += 1
                else:
                    assert last_pass_owed(g) == 0 and g.phase == "ended", (seed, rules)
            assert counts[0] == counts[1], (seed, size, handicap, ending, counts)
    assert owed == 32


def test_every_ruleset_name_makes_its_ruleset_once():
    # rulesets.NAMES is the table's names, sorted; get() makes each name's Ruleset when first
    # asked and hands the same one after; an unknown name is a ValueError naming the known.
    assert list(rs.NAMES) == sorted(rs.NAMES) and len(set(rs.NAMES)) == 9
    for name in rs.NAMES:
        rules = rs.get(name)
        assert rules.name == name and rules.sgf_ru and rules.title
        assert rs.get(name) is rules
        assert rules.scoring in (rs.AREA, rs.TERRITORY, rs.ING_FILL_IN)
    assert rs.get("ing1991").fill_in and not rs.get("chinese").fill_in
    assert rs.get("aga").pass_stones and rs.get("tromp-taylor").ends_at_pause
    raises(ValueError, rs.get, "go")

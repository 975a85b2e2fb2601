"""Board mechanics: coordinates, captures, self-removal, hash, undo (CPython and MicroPython)."""

from expect import raises
from ingrules import board as bd
from ingrules.board import (
    BLACK,
    EMPTY,
    OCCUPIED,
    OK,
    SUICIDE,
    SUICIDE_ALLOWED,
    SUICIDE_FORBIDDEN,
    SUICIDE_GROUPS_ONLY,
    WHITE,
    Board,
)


def make(rows):
    b = Board(len(rows))
    b.load_rows(rows)
    return b


def test_sizes_and_stone_counts_per_colour():
    # Ing 1991 Art. 1 / equipment: 180 stones each on 19x19 ((361-1)/2); 9x9 gives 40.
    assert bd.stones_per_colour(19) == 180
    assert bd.stones_per_colour(9) == 40
    assert bd.stones_per_colour(5) == 12
    for bad in (4, 20, 0, "9"):
        raises(ValueError, Board, bad)


def test_point_names_skip_i_and_count_lines_from_the_bottom():
    b = Board(19)
    p = b.parse("Q16")
    assert b.name(p) == "Q16"
    assert b.col_row(p) == (15, 15)
    assert b.name(b.index(8, 0)) == "J1"
    assert b.sgf(b.parse("A19")) == "aa"
    assert b.sgf(b.parse("T1")) == "ss"
    assert b.from_sgf("pd") == b.parse("Q16")
    for bad in ("I5", "Z1", "A0", "A20", "", "Q"):
        raises(ValueError, b.parse, bad)
    raises(ValueError, Board(9).parse, "K10")
    raises(ValueError, Board(9).from_sgf, "jj")


def test_single_stone_capture_and_hash_returns():
    b = make([".....", ".....", ".B...", "BWB..", "....."])
    h0 = b.hash
    p = b.parse("B1")
    assert b.place(p, BLACK) == OK
    assert [b.name(q) for q in b.captured] == ["B2"]
    assert b.get(b.parse("B2")) == EMPTY
    assert b.count[WHITE] == 0 and b.count[BLACK] == 4
    b.undo()
    assert b.hash == h0
    assert b.get(b.parse("B2")) == WHITE and b.count[WHITE] == 1 and b.count[BLACK] == 3


def test_multi_stone_capture_in_corner():
    b = make([".....", ".....", "BB...", "WWB..", ".WB.."])
    assert b.place(b.parse("A1"), BLACK) == OK
    assert sorted(b.name(q) for q in b.captured) == ["A2", "B1", "B2"]
    assert b.liberties(b.parse("A1")) == 2


def test_occupied_point():
    b = make([".....", ".....", "..B..", ".....", "....."])
    assert b.place(b.parse("C3"), WHITE) == OCCUPIED


def test_single_stone_suicide_forbidden_under_every_policy_but_allowed():
    # Ing 1991 Art. 2: a play that would remove only the single played stone is forbidden;
    # Simplified Ing / NZ allow every suicide.
    rows = [".....", ".....", ".....", "B....", ".B..."]
    for policy, expected in (
        (SUICIDE_FORBIDDEN, SUICIDE),
        (SUICIDE_GROUPS_ONLY, SUICIDE),
        (SUICIDE_ALLOWED, OK),
    ):
        b = make(rows)
        h = b.hash
        result = b.place(b.parse("A1"), WHITE, policy)
        assert result == expected, (policy, result)
        if result == SUICIDE:
            assert b.hash == h and b.get(b.parse("A1")) == EMPTY and b.count[WHITE] == 0
        else:
            assert b.get(b.parse("A1")) == EMPTY  # removed itself
            assert [b.name(q) for q in b.self_removed] == ["A1"]
            assert b.hash == h


def test_multi_stone_self_removal_under_ing():
    # Ing 1991 Art. 2: a play removing its own chain of two or more stones is allowed (the
    # opponent then owns the points).
    rows = [".....", ".....", "B....", "WB...", ".B..."]
    b = make(rows)
    assert b.place(b.parse("A1"), WHITE, SUICIDE_FORBIDDEN) == SUICIDE
    assert b.place(b.parse("A1"), WHITE, SUICIDE_GROUPS_ONLY) == OK
    assert sorted(b.name(q) for q in b.self_removed) == ["A1", "A2"]
    assert b.count[WHITE] == 0
    b.undo()
    assert b.rows() == rows


def test_capture_takes_precedence_over_suicide():
    # A play that captures is never suicide (the captures come first, in every ruleset).
    b = make([".....", ".....", "B....", "WB...", ".WB.."])
    assert b.place(b.parse("A1"), BLACK, SUICIDE_FORBIDDEN) == OK
    assert sorted(b.name(q) for q in b.captured) == ["A2", "B1"]


def test_hash_is_position_only_and_small_ints():
    a = make([".....", ".W...", ".....", "...B.", "....."])
    b = Board(5)
    b.set(b.parse("D2"), BLACK)
    b.set(b.parse("B4"), WHITE)
    assert a.hash == b.hash and a.snapshot() == b.snapshot()
    assert 0 < a.hash < 2**30
    b.set(b.parse("D2"), EMPTY)
    assert a.hash != b.hash


def test_rows_round_trip_and_bad_rows():
    rows = ["B.W..", ".....", "..B..", ".....", "W...B"]
    b = make(rows)
    assert b.rows() == rows
    raises(ValueError, b.load_rows, ["....."])
    raises(ValueError, b.load_rows, ["....", ".....", ".....", ".....", "....."])
    raises(ValueError, b.load_rows, ["..Z..", ".....", ".....", ".....", "....."])


def test_undo_without_play_is_an_error():
    b = Board(9)
    raises(ValueError, b.undo)

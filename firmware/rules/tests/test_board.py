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


class _Xorshift:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n


def _reference_place(cells, stride, p, color, suicide):
    # The rule stated plainly (Ing 1991 Art. 2 "Capturing": a chain left without liberties by
    # the opponent's play is removed; self-removal as the ruleset allows): flood every chain
    # next to the play, then the play's own. Returns (result, captured, removed), captured in
    # the order place() reports it (neighbours below, left, right, above; each chain's flood).
    if cells[p] != EMPTY:
        return OCCUPIED, [], []
    cells[p] = color

    def chain(q):
        stones = [q]
        free = False
        i = 0
        while i < len(stones):
            r = stones[i]
            i += 1
            for n in (r - stride, r - 1, r + 1, r + stride):
                if cells[n] == cells[q] and n not in stones:
                    stones.append(n)
                elif cells[n] == EMPTY:
                    free = True
        return stones, free

    captured = []
    for n in (p - stride, p - 1, p + 1, p + stride):
        if cells[n] == 3 - color:
            stones, free = chain(n)
            if not free:
                for q in stones:
                    cells[q] = EMPTY
                captured += stones
    removed = []
    if not captured:
        stones, free = chain(p)
        if not free:
            if suicide == SUICIDE_FORBIDDEN or (
                suicide == SUICIDE_GROUPS_ONLY and len(stones) == 1
            ):
                cells[p] = EMPTY
                return SUICIDE, [], []
            for q in stones:
                cells[q] = EMPTY
            removed = stones
    return OK, captured, removed


def test_place_is_the_plain_capture_rule_through_random_crowded_games():
    # Generated games on small boards (crowded: many multi-chain captures, captures of one
    # chain touching the play on two sides, self-removals under each policy), undo() now and
    # then: place() must do what the plain flooding rule does, stone for stone, with the hash
    # and the stone counts of the position it leaves.
    rng = _Xorshift(2463534242)
    for game in range(60):
        size = (5, 6, 7)[game % 3]
        suicide = (SUICIDE_FORBIDDEN, SUICIDE_GROUPS_ONLY, SUICIDE_ALLOWED)[game % 3 - 1]
        b = Board(size)
        ref = bytearray(b.cells)
        for _move in range(120):
            p = b.points[rng.below(len(b.points))]
            color = 1 + rng.below(2)
            before = bytes(ref)
            want = _reference_place(ref, b.stride, p, color, suicide)
            result = b.place(p, color, suicide)
            assert result == want[0] and b.cells == ref, (game, _move)
            if result == OK:
                assert list(b.captured) == want[1] and list(b.self_removed) == want[2]
            fresh = Board(size)
            for q in b.points:
                if b.cells[q] != EMPTY:
                    fresh.set(q, b.cells[q])
            assert b.hash == fresh.hash and b.count == fresh.count, (game, _move)
            if result == OK and rng.below(8) == 0:
                b.undo()
                ref[:] = before
                assert b.cells == ref, (game, _move)

"""A 9x9 or 13x13 game on the 19x19 board (tracking/region.py): played in the lower-left
corner (A1-J9, A1-N13), the 19x19 scans read as the small board, a stone outside the corner
`outside-board` and never a move; the record is the small game's (SZ[9]) and `ingboard track`
of the log (full scans) gives the same game as one played on a 9x9 grid. Ing 1991 Art. 11
"Lines" ("smaller boards can be used ... 13 X 13 = 169, ... 9 X 9 = 81"), Art. 12 "Number of
stones" ("half the number of points on the board minus one"), Kim/Simon/Straus Part 3 ("Here
are three 9 x 9 games. Each player started with 40 stones"), Art. 4 (the fill-in count).
CPython and MicroPython."""

from ingboard.records.sgf_record import tracker_sgf
from ingboard.tracking.region import grid_rows, outside_stones, region_rows
from ingboard.tracking.tracker import Tracker
from table_log import Players, game_of, replay

COLUMNS = "ABCDEFGHJKLMNOPQRST"

# Black's wall on the D line, White's on the F line; White's throw-in at C9 is captured by
# Black's B9 (the prisoner lifted), White passes in the middle (Black plays E1 after it), then
# the passes to the count (White first: Black's B9 was the last play).
PLAYS = (
    ("D1", "B"), ("F1", "W"), ("D2", "B"), ("F2", "W"), ("D3", "B"), ("F3", "W"),
    ("D4", "B"), ("F4", "W"), ("D5", "B"), ("F5", "W"), ("D6", "B"), ("F6", "W"),
    ("D7", "B"), ("F7", "W"), ("D8", "B"), ("C9", "W"), ("D9", "B"), ("F8", "W"),
    ("C8", "B"), ("F9", "W"), ("B9", "B"),
)  # fmt: skip
CAPTURES = {"B9": ("C9",)}


def _sgf(tracker):
    out = []
    tracker_sgf(tracker, out.append)
    return "".join(out)


def _to_count(players):
    # The passes after the last play (Black's B9): W, B, then W, B again.
    for _ in range(2):
        players.press("W")
        players.wait(300)
        players.press("B")
        players.wait(300)
    players.wait(600)
    return players


def full_game(grid=None, outside=None):
    players = Players({"size": 9, "rules": "ing1991", "komi": 8}, grid=grid)
    players.wait(200)
    for i, (name, ch) in enumerate(PLAYS):
        players.play(name, ch, think=250, lift=CAPTURES.get(name, ()))
        if i == 2 and outside:
            players.put(outside, "W")  # beyond the small board: not a move
            players.wait(600)
            players.lift(outside)
            players.wait(300)
        if i == 8:
            # White passes in the middle (after Black's D5): Black plays E1, White on.
            players.press("W")
            players.wait(300)
            players.play("E1", "B", think=250)
    _to_count(players)
    events, tracker = replay(players)
    plan = tracker.plan
    assert plan is not None, [e for e in events if e["type"] in ("alert", "end", "count")]
    # The fill-in: the plan's final position put on the board, then a press to read it.
    for line in range(9, 0, -1):
        row = plan["final"][9 - line]
        for col in range(9):
            name = COLUMNS[col] + str(line)
            if row[col] in "BW":
                players.stones[name] = row[col]
            else:
                players.stones.pop(name, None)
    players.wait(500)
    players.press("B")
    players.wait(600)
    return players


def test_the_region_is_the_lower_left_corner():
    grid = ["." * 19] * 19
    grid[18] = "B" + "." * 17 + "W"  # A1 and T1
    grid[10] = "." * 8 + "W" + "." * 10  # J9 (col 9, line 9)
    grid[9] = "B" + "." * 18  # A10: above the 9x9
    small = region_rows(grid, 9)
    assert len(small) == 9 and all(len(r) == 9 for r in small)
    assert small[8][0] == "B" and small[0][8] == "W"  # A1 and J9 of the small board
    assert outside_stones(grid, 9) == ["A10", "T1"]
    assert outside_stones(grid, 13) == ["T1"]
    assert region_rows(grid_rows(small), 9) == small
    assert grid_rows(small)[18][0] == "B" and len(grid_rows(small)) == 19
    try:
        region_rows(grid[:12], 9)  # neither the game's size nor the grid's: refused
        raise AssertionError("a 12-row scan was read as a 9x9 board")
    except ValueError as exc:
        assert "12 rows" in str(exc)


def test_a_9x9_game_on_the_19x19_grid_is_the_9x9_game():
    on_grid = full_game(grid=19)
    small = full_game()
    events, tracker = replay(on_grid)
    ref_events, ref = replay(small)
    plies, result = game_of(tracker)
    assert (plies, result) == game_of(ref)
    assert [p for _c, p in plies].count("pass") >= 3  # the one in the middle and the last ones
    assert tracker.game.board.cells[tracker.game.board.parse("C9")] == 0  # captured
    assert tracker.game.phase == "ended" and result
    reads = [e for e in events if e["type"] == "fill-in"]
    assert reads and reads[-1]["ok"], reads
    sgf = _sgf(tracker)
    assert "SZ[9]" in sgf
    assert sgf == _sgf(ref)
    assert not [e for e in events if e["type"] == "alert"], [
        e for e in events if e["type"] == "alert"
    ]


def test_a_stone_outside_the_small_board_is_an_alert_in_words_and_no_move():
    events, tracker = replay(full_game(grid=19, outside="K10"))
    alerts = [e for e in events if e["type"] == "alert"]
    assert [(a["code"], a["points"]) for a in alerts] == [("outside-board", ["K10"])]
    assert "outside the small board" in alerts[0]["text"]
    _ref_events, ref = replay(full_game())
    assert game_of(tracker) == game_of(ref)
    assert "outside-board K10" in _sgf(tracker)  # the alert is a comment of the record


def test_13x13_uses_lines_1_to_13_and_n13_is_on_it():
    tracker = Tracker({"size": 13, "rules": "chinese", "komi": 7.5})
    grid = ["." * 19] * 19
    tracker.scan(0, grid)
    grid = list(grid)
    grid[6] = "." * 12 + "B" + "." * 6  # N13
    events = []
    for t in range(40, 600, 40):
        events += tracker.scan(t, grid)
    events += tracker.press(620, 1)
    assert [e.get("point") for e in events if e["type"] == "move"] == ["N13"]
    grid[6] = "." * 12 + "BW" + "." * 5  # O13 beside it: beyond
    events = []
    for t in range(700, 1300, 40):
        events += tracker.scan(t, grid)
    assert [(e["code"], e["points"]) for e in events if e["type"] == "alert"] == [
        ("outside-board", ["O13"])
    ]


def test_the_bowls_hold_40_stones_each_for_9x9_and_84_for_13x13():
    # Ing 1991 Art. 12: "half the number of points on the board minus one"; Kim/Simon/Straus
    # Part 3: "Here are three 9 x 9 games. Each player started with 40 stones."
    assert Tracker({"size": 9, "rules": "ing1991"}).bowls.total == 40
    assert Tracker({"size": 13, "rules": "ing1991"}).bowls.total == 84

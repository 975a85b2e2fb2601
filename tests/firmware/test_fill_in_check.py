"""The fill-in read off the board (issue 15 item 1), each test naming its seed sentence:
Ing 1991 Art. 4 "Procedure" ("fills in all stones without moving any stones in the original
configuration"), "Filling in" ("Spaces adjacent to both black and white stones in coexistence
are called shared spaces; each player fills half of them"), "Positioning" ("Winning spaces are
positioned in a corner, or on a side if no corner is available. Losing stones are filled into
the opponents winning spaces. For compensation points ... one stone for every two points is
filled into a separate area"), "Counting" ("one point for the winning space and two points for
each losing stone"); Kim/Simon/Straus Part 2 "Counting" 2 ("Do not disturb the borders")."""

from ingboard.tracking.fill_in_check import plan_event, read_fill_in
from ingboard.tracking.tracker import Tracker
from ingrules import scoring as sc
from ingrules.board import BLACK, EMPTY, WHITE, Board

# The seeds' even-game demonstration (Kim/Simon/Straus Part 3): Black wins by 3.
EVEN_DEMO = [".....BW.."] + ["....BW..."] * 8
SEKI = ["...WB...."] * 6 + ["WWWWBBBBB", "BBBBWWWWW", ".BB.WW.WW"]


def make(rows):
    b = Board(len(rows))
    b.load_rows(rows)
    return b


def seen_of(board, rows):
    """The sensors' view (one code per padded index) of a position given as rows."""
    view = make(rows)
    out = bytearray(len(board.cells))
    for p in range(len(board.cells)):
        v = view.cells[p]
        out[p] = v if v in (EMPTY, BLACK, WHITE) else 0
    return out


def counted(rows, komi=8):
    board = make(rows)
    count, plan = sc.ing_fill_in(board, komi=komi)
    return board, count, plan


def swap(rows, name_a, name_b):
    """rows with the points a and b exchanged (names like "C3")."""
    grid = [list(r) for r in rows]
    size = len(rows)
    cells = []
    for name in (name_a, name_b):
        col = "ABCDEFGHJKLMNOPQRST".index(name[0])
        cells.append((size - int(name[1:]), col))
    (r1, c1), (r2, c2) = cells
    grid[r1][c1], grid[r2][c2] = grid[r2][c2], grid[r1][c1]
    return ["".join(r) for r in grid]


def put(rows, name, ch):
    grid = [list(r) for r in rows]
    size = len(rows)
    col = "ABCDEFGHJKLMNOPQRST".index(name[0])
    grid[size - int(name[1:])][col] = ch
    return ["".join(r) for r in grid]


def test_the_plans_own_fill_in_reads_the_count():
    # "making the score clear at a glance": the planned final position reads the count.
    for rows, komi in ((EVEN_DEMO, 8), (SEKI, 8), (EVEN_DEMO, 0), (EVEN_DEMO, 16)):
        board, count, plan = counted(rows, komi)
        event = read_fill_in(board, plan, seen_of(board, plan["final"]), count)
        assert event["ok"], (rows, komi, event)
        assert event["result"] == count["result"] and event["difference"] == count["difference"]
        assert event["wrong"] == [] and event["disturbed"] == []


def test_the_suggested_points_are_not_insisted_on():
    # The players choose where within a territory the stones go (only the territory's counts
    # and the winning space's corner matter): moving a compensation stone inside Black's
    # territory is still a correct fill-in.
    board, count, plan = counted(EVEN_DEMO)
    comp = plan["points"]["compensation"]
    assert comp
    final = plan["final"]
    # A black-filled point of Black's territory, away from the others.
    target = None
    for name in ("A5", "B5", "C5", "A6", "B6", "C6", "D5"):
        row = final[9 - int(name[1:])]
        if row["ABCDEFGHJ".index(name[0])] == "B":
            target = name
            break
    moved = swap(final, comp[0], target)
    event = read_fill_in(board, plan, seen_of(board, moved), count)
    assert event["ok"] and event["result"] == count["result"], event


def test_a_compensation_stone_in_the_wrong_territory_is_named():
    # "one stone for every two points is filled into a separate area" of the payer's territory:
    # White's compensation stone put into White's own territory instead.
    board, count, plan = counted(EVEN_DEMO)
    comp = plan["points"]["compensation"][0]
    final = put(plan["final"], comp, "B")  # Black filled that point of his territory
    white_point = None
    for name in ("J1", "J2", "H1", "H2", "G1"):
        if final[9 - int(name[1:])]["ABCDEFGHJ".index(name[0])] == "W":
            white_point = name
            break
    final = put(final, white_point, "B")  # ... and White's point got Black's extra stone
    event = read_fill_in(board, plan, seen_of(board, final), count)
    assert not event["ok"]
    assert white_point in event["wrong"]
    assert any("White's territory" in r for r in event["reasons"])
    # Read as the board shows it: the black stone in White's territory is a losing stone of
    # Black's (two points), the two white stones left over one point each.
    assert event["result"] == "B+3"


def test_a_disturbed_live_stone_is_named_and_counted_as_the_board_shows():
    # "without moving any stones in the original configuration"; Kim/Simon/Straus "Do not
    # disturb the borders of your territory".
    board, count, plan = counted(EVEN_DEMO)
    final = put(plan["final"], "E3", ".")  # a live black border stone knocked off
    event = read_fill_in(board, plan, seen_of(board, final), count)
    assert not event["ok"] and event["disturbed"] == ["E3"]
    # The board reads what it shows: Black has a stone left over (one point less).
    assert event["result"] == "B+2" and count["result"] == "B+3"


def test_an_unfilled_point_and_a_leftover_stone_read_the_same_margin():
    # "If you have empty points left in your territory, you have won. If you have stones left
    # over ... you have lost": a point left open with its stone still in the bowl is no change
    # in the reading, but it is not the plan's fill-in.
    board, count, plan = counted(EVEN_DEMO)
    final = plan["final"]
    black = None
    for name in ("A9", "B9", "C9", "D9", "A8", "B8"):
        if final[9 - int(name[1:])]["ABCDEFGHJ".index(name[0])] == "B":
            black = name
            break
    event = read_fill_in(board, plan, seen_of(board, put(final, black, ".")), count)
    assert event["result"] == count["result"]
    assert not event["ok"] and black in event["wrong"]


def test_the_winning_space_belongs_in_a_corner():
    # "Winning spaces are positioned in a corner, or on a side if no corner is available."
    board, count, plan = counted(EVEN_DEMO, komi=0)
    win = plan["points"]["winning_space"]
    assert win
    inner = None
    final = plan["final"]
    for name in ("B2", "B3", "C2", "C3", "B4", "C4"):
        if final[9 - int(name[1:])]["ABCDEFGHJ".index(name[0])] == "B":
            inner = name
            break
    moved = swap(final, win[0], inner)  # the space inside, the stone in the corner
    event = read_fill_in(board, plan, seen_of(board, moved), count)
    assert event["result"] == count["result"]
    assert not event["ok"] and event["wrong"] == [inner]
    assert "corner" in event["reasons"][-1]


# Two shared spaces between the walls (lines 3 and 6): one each.
SHARED2 = [
    ".....BW..",
    ".....BW..",
    ".....BW..",
    "....B.W..",
    "....BW...",
    "....BW...",
    "...B.W...",
    "...BW....",
    "...BW....",
]


def test_shared_spaces_must_be_split():
    # "each player fills half of them".
    board, count, plan = counted(SHARED2)
    assert count["shared"] == 2
    final = plan["final"]
    shared = [p for p, owner in _owners(board).items() if owner == 0]
    whites = [p for p in shared if make(final).get(p) == WHITE]
    assert whites
    name = board.name(whites[0])
    event = read_fill_in(board, plan, seen_of(board, put(final, name, "B")), count)
    assert not event["ok"] and name in event["wrong"]
    assert any("shared" in r for r in event["reasons"])


def _owners(board):
    out = {}
    for region, touches in sc.empty_regions(board):
        for p in region:
            out[p] = touches if touches in (BLACK, WHITE) else 0
    return out


def test_the_plan_event_says_what_to_fill():
    board, count, plan = counted(EVEN_DEMO)
    event = plan_event(plan, 5)
    assert event["type"] == "plan" and event["t"] == 5
    assert event["compensation"]["by"] == "W" and event["compensation"]["stones"] == 4
    assert event["points"]["compensation"] == plan["points"]["compensation"]


def test_the_tracker_reads_the_fill_in_and_alerts():
    # End to end on the tracker: a 9x9 game counted, then filled in wrongly, then put right.
    tracker = Tracker({"size": 9, "rules": "ing1991"})
    t = [0]
    events = []

    def scan(rows, dt=200):
        t[0] += dt
        events.extend(tracker.scan(t[0], rows))

    empty = ["........."] * 9
    scan(empty)
    game = tracker.game
    # Set up the even demonstration's stones through the game (as if played), then pass x4.
    demo = make(EVEN_DEMO)
    for p in range(len(demo.cells)):
        if demo.cells[p] in (BLACK, WHITE):
            game.board.set(p, demo.cells[p])
    scan(EVEN_DEMO)
    for _ in range(2):
        t[0] += 50
        events.extend(tracker.press(t[0], game.to_play))
        t[0] += 50
        events.extend(tracker.press(t[0], game.to_play))
    assert game.phase == "ended"
    plan = tracker.plan
    assert [e["type"] for e in events if e["type"] in ("count", "plan")] == ["count", "plan"]
    wrong = put(plan["final"], plan["points"]["compensation"][0], "B")
    scan(wrong)
    scan(wrong, 500)
    assert not [e for e in events if e["type"] == "fill-in"]  # not all stones there yet
    t[0] += 50
    events.extend(tracker.press(t[0], BLACK))  # "we are done": read it
    reads = [e for e in events if e["type"] == "fill-in"]
    assert reads and not reads[-1]["ok"]
    assert "fill-in-wrong" in [e["code"] for e in events if e["type"] == "alert"]
    scan(plan["final"])
    scan(plan["final"], 500)
    reads = [e for e in events if e["type"] == "fill-in"]
    assert reads[-1]["ok"] and reads[-1]["result"] == tracker.counted["result"]

"""The Ing fill-in read off the board and compared with the plan of the count.

Why: the fill-in is the Ing count itself (Ing 1991 Art. 4 "All stones are filled in to count";
"Procedure": "fills in all stones without moving any stones in the original configuration,
making the score clear at a glance"; Ing 1996 Rule 2 "Goe equipment"; Kim/Simon/Straus Part 2
"Counting": "Fill in all your own territory with your remaining stones. Do not disturb the
borders of your territory"). The board sees the filled position, so it can say whether the
players filled in as the plan (scoring.ing_fill_in) requires, and what the board shows.

`read_fill_in(counted, plan, seen, count)` -> the `fill-in` event:
    {"type": "fill-in", "ok": bool, "result": what the board reads, "count": the count's result,
     "difference": Black's lead as read, "disturbed": [points], "wrong": [points],
     "reasons": [text], "regions": {"B"|"W"|"shared": {"B", "W", "empty", "planned": {...}}}}
- counted: the position that was counted (a Board, dead stones already off);
- seen: what the sensors see, one code per padded index (EMPTY, BLACK, WHITE; 4 unknown);
- the checks, each seed sentence quoted where it is made:
  * live stones unmoved ("without moving any stones in the original configuration");
  * per territory (all empty regions of one owner together - the plan's points are
    suggestions, the players choose where the difference stones go within the texts' rules):
    the owner's stones, the opponent's stones (compensation, penalty and losing stones) and the
    empty points as the plan has them; shared spaces split ("each player fills half of them");
  * the winning space "in a corner, or on a side if no corner is available" (Art. 4
    "Positioning"): on the most edge-like point the winner's territory has.
- the result as the board reads it: the count's margin moved by what differs from the plan's
  final position: each empty point is a space of its territory's owner, each opponent stone in
  a territory beyond the plan's is a losing stone (two points), each stone left off the board a
  stone its owner could not place (1991 Art. 4 "Counting": "one point for the winning space and
  two points for each losing stone"). A correct fill-in reads exactly the count.
"""

from ingrules.board import BLACK, EDGE, EMPTY, WHITE
from ingrules.scoring import (
    empty_regions,
    half_points,
    ing_draw_winner,
    points_value,
    result_text,
)

_OWNER = ("shared", "B", "W")


def _edginess(board, p):
    cells = board.cells
    n = 0
    for q in board.neighbours(p):
        if cells[q] == EDGE:
            n += 1
    return n


def _tally(counted, owner_of, cells):
    # Per owner (0 shared, BLACK, WHITE): [empty, black, white] among that owner's regions.
    out = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for p in owner_of:
        v = cells[p]
        if v in (EMPTY, BLACK, WHITE):
            out[owner_of[p]][v] += 1
    return out


def _read(t, full, counts):
    # F = spaces(B) - spaces(W) + 2 * (W in B - B in W) + (W off - B off): Black's lead in
    # points up to a constant that cancels between the plan's final position and the board.
    return (
        t[BLACK][EMPTY]
        - t[WHITE][EMPTY]
        + 2 * (t[BLACK][WHITE] - t[WHITE][BLACK])
        + (full - counts[WHITE])
        - (full - counts[BLACK])
    )


def read_fill_in(counted, plan, seen, count):
    """The `fill-in` event for the physical position `seen` (see the module docstring)."""
    names = counted.name
    owner_of = {}
    for region, touches in empty_regions(counted):
        owner = touches if touches in (BLACK, WHITE) else 0
        for p in region:
            owner_of[p] = owner
    final = counted.copy()
    rows = plan["final"]
    size = counted.size
    for i in range(size):
        row = rows[i]
        for col in range(size):
            ch = row[col]
            final.set(
                counted.index(col, size - 1 - i),
                BLACK if ch == "B" else WHITE if ch == "W" else EMPTY,
            )
    planned = _tally(counted, owner_of, final.cells)
    have = _tally(counted, owner_of, seen)
    counts = [0, 0, 0]
    disturbed = []
    cells = counted.cells
    for p in range(len(cells)):
        c = cells[p]
        v = seen[p]
        if v == BLACK or v == WHITE:
            counts[v] += 1
        if (c == BLACK or c == WHITE) and v != c:
            disturbed.append(p)  # a live stone moved or taken away
    reasons = []
    wrong = []
    for owner in (BLACK, WHITE, 0):
        want = planned[owner]
        got = have[owner]
        for what in (EMPTY, BLACK, WHITE):
            if got[what] == want[what]:
                continue
            label = ("empty points", "black stones", "white stones")[what]
            where = (
                "the shared spaces"
                if owner == 0
                else "%s's territory" % ("Black" if owner == BLACK else "White")
            )
            reasons.append("%s in %s: %d, the plan has %d" % (label, where, got[what], want[what]))
            if got[what] > want[what]:
                for p in owner_of:
                    if owner_of[p] == owner and seen[p] == what and final.cells[p] != what:
                        wrong.append(p)
    # Art. 4 "Positioning": the winning space in a corner, else on a side.
    win = (plan.get("points") or {}).get("winning_space") or []
    if win and not wrong and not disturbed:
        winner = BLACK if count["result"][0] == "B" else WHITE
        spaces = [p for p in owner_of if owner_of[p] == winner and seen[p] == EMPTY]
        if len(spaces) != 1:
            spaces = []  # an odd compensation point is open too: which is which is not known
        best = 0
        for p in owner_of:
            if owner_of[p] == winner:
                e = _edginess(counted, p)
                if e > best:
                    best = e
        for p in spaces:
            if _edginess(counted, p) < best:
                reasons.append("the winning space belongs in a corner, or on a side")
                wrong.append(p)
    margin2 = half_points(count["difference"], "difference")
    margin2 += 2 * (
        _read(have, plan["stones"], counts) - _read(planned, plan["stones"], final.count)
    )
    draw_winner = ing_draw_winner(count["komi"])
    if count["result"][1:] == "+0":
        draw_winner = BLACK if count["result"][0] == "B" else WHITE
    regions = {}
    for owner in (BLACK, WHITE, 0):
        got = have[owner]
        want = planned[owner]
        regions[_OWNER[owner]] = {
            "B": got[BLACK],
            "W": got[WHITE],
            "empty": got[EMPTY],
            "planned": {"B": want[BLACK], "W": want[WHITE], "empty": want[EMPTY]},
        }
    return {
        "type": "fill-in",
        "ok": not wrong and not disturbed,
        "result": result_text(margin2, draw_winner),
        "difference": points_value(margin2),
        "count": count["result"],
        "disturbed": [names(p) for p in disturbed],
        "wrong": [names(p) for p in sorted(wrong)],
        "reasons": reasons,
        "regions": regions,
    }


def plan_event(plan, t):
    """The `plan` event: what the fill-in must look like (Ing 1991 Art. 4 "Positioning"), for
    the displays and the event stream: stones each side fills, compensation and penalty stones
    (who places them, how many, the suggested points), the shared spaces, the losing stones and
    the winning space."""
    points = plan.get("points") or {}
    return {
        "t": t,
        "type": "plan",
        "fill": plan["fill"],
        "compensation": plan["compensation"],
        "penalty": plan["penalty"],
        "shared": plan["shared"],
        "losing": plan["losing"],
        "points": points,
        "bowls_after": plan.get("bowls_after"),
        "feasible": plan["feasible"],
    }

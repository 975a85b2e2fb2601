"""Counting a finished game: area, territory, and Ing's fill-in difference value.

All functions are pure: they never change the board they are given. Dead stones are named by
the caller (`dead`: points, as indexes or names like "C3", of chains that count as captured);
a copy of the board without those chains is counted.

Scores are kept in HALF-POINTS (ints) so fractional komi (5.5, 7.5) stays exact; `margin2` is
Black's lead in half-points after every compensation (negative when White leads). Results are
SGF-style strings: "B+3", "W+0.5", "Draw", and "B+0" / "W+0" for a draw the rules award to
one player (Ing 1991 Art. 6, Ing 1996 Rule 8).

Reading of the Ing texts used here (Ing 1991 Art. 4, Definitions 45-50; Ing 1996 Rule 6 and
Glossary 601-611; Kim/Simon/Straus Part 2 "Counting" and Part 3):
- each player fills their own territory with the stones they hold (the set's (points-1)/2 minus
  the stones left alive on the board: prisoners and dead stones went back to their owner);
- compensation and penalty points are paid in stones, one stone per two points, placed by the
  player who RECEIVES them into the territory of the player who PAYS (komi 8: White puts 4
  stones in Black's territory; a 4-point penalty on White: Black puts 2 stones in White's);
  an odd number of compensation points leaves one point of the payer's territory open
  (Kim/Simon/Straus, three-stone handicap);
- shared spaces (empty points next to both colours) are filled half by each, one left empty
  when their number is odd;
- what is left: the "winning spaces" (empty points of the side that has run out of stones)
  and the "losing stones" (stones that found no place in their owner's territory). Losing
  stones go into the winner's spaces, so at most one "winning space" stays empty;
- the difference value is 1 for the winning space plus 2 per losing stone placed (plus 1 for a
  losing stone that found no space: odd compensation with an odd number of shared spaces,
  Kim/Simon/Straus Part 2 item 5). It always equals the area difference minus compensation,
  plus the net penalty points, which is how `margin2` is computed and cross-checked.
"""

from . import const
from .board import BLACK, EDGE, EMPTY, WHITE, stones_per_colour

# How a handicap is compensated in points to White (added to komi).
HANDICAP_NONE = const(0)  # Ing 1991 (handicap plays), NZ, Tromp-Taylor, territory counting
HANDICAP_AFTER_FIRST = const(1)  # AGA Rule 4 under area counting: 1 point per stone after 1st
HANDICAP_EACH = const(2)  # Kim/Simon/Straus Part 2 item 5 ("N-point compensation"), Chinese

_NAMES = ("", "B", "W")


# -- input checks ------------------------------------------------------------------------------


def half_points(value, what="komi"):
    """A number of points (int or float, a multiple of 0.5) as an int of half-points."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("%s must be a number of points, not %r" % (what, value))
    doubled = value * 2
    if doubled != doubled or doubled in (float("inf"), float("-inf")):
        raise ValueError("%s must be a finite number, not %r" % (what, value))
    if doubled != int(doubled):
        raise ValueError("%s must be a whole or half number of points, not %r" % (what, value))
    return int(doubled)


def _count(value, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("%s must be a whole number >= 0, not %r" % (what, value))
    return value


def points_text(half):
    """Half-points as the SGF writes points: 6 -> "3", 1 -> "0.5", 7 -> "3.5"."""
    text = str(half // 2)
    return text + ".5" if half % 2 else text


def points_value(half):
    """Half-points as a JSON number: an int when whole, else a float (3.5)."""
    return half // 2 if half % 2 == 0 else half / 2


def result_text(margin2, draw_winner=0):
    """SGF result for Black's margin in half-points; a draw awarded to a colour is "B+0"."""
    if margin2 > 0:
        return "B+" + points_text(margin2)
    if margin2 < 0:
        return "W+" + points_text(-margin2)
    if draw_winner in (BLACK, WHITE):
        return _NAMES[draw_winner] + "+0"
    return "Draw"


def handicap_compensation(handicap, style):
    """Points of compensation White receives for Black's handicap stones."""
    handicap = _count(handicap, "handicap")
    if style == HANDICAP_NONE:
        return 0
    if style == HANDICAP_AFTER_FIRST:
        # AGA Rule 4: "White receives an additional point of compensation for each Black
        # handicap stone after the first" (area counting only).
        return handicap - 1 if handicap > 1 else 0
    if style == HANDICAP_EACH:
        # Kim/Simon/Straus Part 2, Counting item 5: "In handicap games of N-stone handicap,
        # White must receive N-point compensation". A 1-stone handicap is no stone placed.
        return handicap if handicap > 1 else 0
    raise ValueError("unknown handicap compensation style %r" % (style,))


def ing_draw_winner(komi, handicap=0):
    """Who wins a drawn Ing count: Black with the fixed 8-point compensation of an even game.

    Ing 1991 Art. 6: "black gives white eight points ... For draws, a practical rule is to award
    the game to black." Ing 1996 Rule 8: "Fixed compensation: Mandatory eight points handicap,
    black wins in case of drawn games." Any other compensation ("non-fixed", handicap games)
    leaves a draw a draw (0).
    """
    return BLACK if half_points(komi) == 16 and handicap == 0 else 0


# -- regions -----------------------------------------------------------------------------------


def without_dead(board, dead):
    """A copy of the board without the chains at `dead`; also the dead stones per colour."""
    b = board.copy()
    removed = [0, 0, 0]
    for point in dead:
        p = board.parse(point) if isinstance(point, str) else point
        if not isinstance(p, int) or p < 0 or p >= len(b.cells) or b.cells[p] == EDGE:
            raise ValueError("dead stones must be points of the board, not %r" % (point,))
        color = b.get(p)
        if color == EMPTY:
            if board.get(p) == EMPTY:
                raise ValueError("no stone at %s to remove as dead" % board.name(p))
            continue  # already removed with an earlier point of the same chain
        for q in b.chain(p):
            b.set(q, EMPTY)
            removed[color] += 1
    return b, removed[BLACK], removed[WHITE]


# Points looked at between two calls of a pause (the app's scan checkpoint: a look at the
# clock, ~40 us on the RP2040): 32 points are a few ms even late in a long game, when each
# allocation searches a fuller heap (issue 20: no piece of the count may hold up a scan).
_POINTS_A_SLICE = const(32)


def empty_regions(board, pause=None):
    """Each maximal connected set of empty points, as (points, touches).

    `touches` is a bit set of the colours of the stones next to the region: 1 Black only,
    2 White only, 3 both (neutral / shared), 0 none (an empty board). `pause()`, when given,
    is called every _POINTS_A_SLICE points looked at or added to a region (a full 19x19 board
    takes ~45 ms of the RP2040: the app's scan checkpoint, issue 20).
    """
    cells = board.cells
    s = board.stride
    seen = bytearray(len(cells))
    out = []
    k = 0
    for p in board.points:
        if pause is not None:
            k += 1
            if k == _POINTS_A_SLICE:
                k = 0
                pause()
        if cells[p] != EMPTY or seen[p]:
            continue
        seen[p] = 1
        region = [p]
        touches = 0
        i = 0
        while i < len(region):
            q = region[i]
            i += 1
            if pause is not None:
                # Within a region too: the first count of a short game is one region of ~330
                # points, a piece of 224 ms on the twin (issue 20).
                k += 1
                if k == _POINTS_A_SLICE:
                    k = 0
                    pause()
            for n in (q - s, q - 1, q + 1, q + s):
                c = cells[n]
                if c == EMPTY:
                    if not seen[n]:
                        seen[n] = 1
                        region.append(n)
                elif c != EDGE:
                    touches |= c
        out.append((region, touches))
    return out


def area(board):
    """(black_area, white_area, neutral): stones plus empty regions reached by one colour only.

    Tromp-Taylor / Chinese / AGA Rule 12 "Area": a player's stones on the board and the empty
    points surrounded by them; points next to both colours (and an empty board) are neutral.
    """
    counts = [0, board.count[BLACK], board.count[WHITE], 0]
    for region, touches in empty_regions(board):
        counts[touches if touches in (BLACK, WHITE) else 0] += len(region)
    return counts[BLACK], counts[WHITE], counts[0]


def _seki_chains(board, regions):
    # Chains next to a neutral region. At the end of a territory-counted game all dame are
    # filled, so a neutral point still there is a shared liberty of a seki.
    in_seki = bytearray(len(board.cells))
    s = board.stride
    cells = board.cells
    for region, touches in regions:
        if touches != 3:
            continue
        for q in region:
            for n in (q - s, q - 1, q + 1, q + s):
                if cells[n] in (BLACK, WHITE) and not in_seki[n]:
                    for m in board.chain(n):
                        in_seki[m] = 1
    return in_seki


def territory(board, seki_eyes=True):
    """(black_territory, white_territory): empty points surrounded by one colour only.

    AGA Rule 12 "Territory" and its commentary ("The rules count surrounded points in seki")
    with seki_eyes=True; Japanese counting (no territory in seki) with seki_eyes=False, where a
    region counts only if none of the chains around it touches a neutral point.
    """
    regions = empty_regions(board)
    in_seki = None if seki_eyes else _seki_chains(board, regions)
    s = board.stride
    cells = board.cells
    counts = [0, 0, 0]
    for region, touches in regions:
        if touches not in (BLACK, WHITE):
            continue
        if in_seki is not None and _touches_seki(region, cells, in_seki, s):
            continue
        counts[touches] += len(region)
    return counts[BLACK], counts[WHITE]


def _touches_seki(region, cells, in_seki, s):
    for q in region:
        for n in (q - s, q - 1, q + 1, q + s):
            if in_seki[n] and cells[n] != EMPTY:
                return True
    return False


# -- scores by method --------------------------------------------------------------------------


class Score:
    """The outcome of a count.

    black, white: each side's count before compensation (area, or territory + prisoners);
    neutral: points that count for neither; margin2: Black's lead in half-points after komi,
    handicap compensation and penalty points; winner: BLACK, WHITE or 0 (a draw nobody wins);
    draw: the counts were level; result: "B+3", "W+0.5", "Draw", "B+0".
    """

    def __init__(self, black, white, neutral, margin2, draw_winner=0):
        self.black = black
        self.white = white
        self.neutral = neutral
        self.margin2 = margin2
        self.draw = margin2 == 0
        if margin2 > 0:
            self.winner = BLACK
        elif margin2 < 0:
            self.winner = WHITE
        else:
            self.winner = draw_winner if draw_winner in (BLACK, WHITE) else 0
        self.result = result_text(margin2, draw_winner)

    def difference(self):
        """Black's lead in points (an int, or a float for half points), as events carry it."""
        return points_value(self.margin2)

    def __repr__(self):
        return "Score(%s, B %d, W %d)" % (self.result, self.black, self.white)


def _compensation2(komi, handicap, handicap_style, penalty_b, penalty_w):
    # Points to White in half-points: komi, handicap compensation, net time penalties (Ing 1991
    # Art. 7: "If both players are penalized, opposing penalty points cancel").
    komi2 = half_points(komi, "komi")
    extra = handicap_compensation(handicap, handicap_style)
    pb = _count(penalty_b, "Black's penalty points")
    pw = _count(penalty_w, "White's penalty points")
    return komi2 + 2 * extra + 2 * (pb - pw)


def area_score(
    board,
    komi=0,
    handicap=0,
    handicap_style=HANDICAP_NONE,
    penalty_b=0,
    penalty_w=0,
    dead=(),
    draw_winner=0,
):
    """Area counting (Chinese, NZ, Tromp-Taylor, Simplified Ing, AGA area): prisoners ignored.

    AGA Rule 12 "Counting by Area: ... Prisoners are ignored. The player with the greater total
    area (after adjusting for any compensation offered according to Rules 3 and 4) is the
    winner." Simplified Ing: "A player's score is the number of all his empty or occupied
    intersections."
    """
    paid2 = _compensation2(komi, handicap, handicap_style, penalty_b, penalty_w)
    b = without_dead(board, dead)[0]
    black, white, neutral = area(b)
    return Score(black, white, neutral, 2 * (black - white) - paid2, draw_winner)


def territory_score(
    board,
    komi=0,
    prisoners_b=0,
    prisoners_w=0,
    passes_b=0,
    passes_w=0,
    penalty_b=0,
    penalty_w=0,
    dead=(),
    seki_eyes=True,
    draw_winner=0,
):
    """Territory counting (Japanese, AGA territory): territory plus prisoners.

    prisoners_b: stones Black captured during play; passes_w: White's passes, each handing
    Black a pass stone "treated like any other prisoner" (AGA, Use of Pass Stones); dead
    stones named in `dead` become the opponent's prisoners (AGA Rule 12: "total territory less
    any prisoners held by the opponent (including dead stones removed at the end of the
    game)"). seki_eyes=False for Japanese counting (see `territory`).
    """
    paid2 = _compensation2(komi, 0, HANDICAP_NONE, penalty_b, penalty_w)
    caught_b = _count(prisoners_b, "Black's prisoners") + _count(passes_w, "White's passes")
    caught_w = _count(prisoners_w, "White's prisoners") + _count(passes_b, "Black's passes")
    b, dead_b, dead_w = without_dead(board, dead)
    tb, tw = territory(b, seki_eyes)
    black = tb + caught_b + dead_w
    white = tw + caught_w + dead_b
    neutral = area(b)[2]
    return Score(black, white, neutral, 2 * (black - white) - paid2, draw_winner)


# -- Ing fill-in -------------------------------------------------------------------------------


def _edginess(board, p):
    # 2 on a corner, 1 on a side, 0 inside: Ing 1991 Art. 4 "Winning spaces are positioned in a
    # corner, or on a side if no corner is available." (No allocation: called per point.)
    cells = board.cells
    s = board.stride
    n = 0
    if cells[p - s] == EDGE:
        n += 1
    if cells[p - 1] == EDGE:
        n += 1
    if cells[p + 1] == EDGE:
        n += 1
    if cells[p + s] == EDGE:
        n += 1
    return n


def _distance(board, p, q):
    s = board.stride
    dc = p % s - q % s
    dr = p // s - q // s
    return (dc if dc >= 0 else -dc) + (dr if dr >= 0 else -dr)


_INDEX_BITS = const(9)  # a padded index of a 19x19 board is < 441 < 2**9


def _no_pause():
    pass


def _take_near(board, pool, n, anchor, pause=_no_pause):
    """Remove and return the n points of `pool` nearest `anchor`, sides first on ties (then
    the lowest index). Each point's rank is one small int (distance, 2 - edginess, index), so
    sorting a whole territory of a full board allocates one list of ints, not a tuple per
    point (issue 20: the count of a long game in the Pico's heap). `pause()` every
    _POINTS_A_SLICE points ranked (a territory of 150 points took ~50 ms of the RP2040)."""
    if n <= 0:
        return []
    keys = []
    k = 0
    for p in pool:
        k += 1
        if k == _POINTS_A_SLICE:
            k = 0
            pause()
        rank = 2 - _edginess(board, p)
        if anchor is not None:
            rank += 4 * _distance(board, p, anchor)
        keys.append((rank << _INDEX_BITS) | p)
    keys.sort()
    mask = (1 << _INDEX_BITS) - 1
    chosen = [k & mask for k in keys[:n]]
    for p in chosen:
        pool.remove(p)
    return chosen


def ing_fill_in(
    board,
    komi=8,
    penalty_b=0,
    penalty_w=0,
    handicap=0,
    handicap_style=HANDICAP_NONE,
    dead=(),
    draw_winner=None,
    checkpoint=None,
):
    """Ing fill-in count of a finished position: (count event dict, fill-in plan dict).

    komi: compensation points to White (negative: to Black); Ing 1996 Rule 8 makes it even,
    Kim/Simon/Straus's odd handicap compensation leaves a point open, and a half point (7.5,
    Simplified Ing "4 white stones can represent a komi of 7.5 or 8") is paid as the next whole
    point up in stones and given back in the result. penalty_b / penalty_w: time-difference
    penalty points charged to each player (Ing 1991 Art. 7: two at a time; they cancel).
    draw_winner: None applies Ing's own rule (`ing_draw_winner`), else BLACK, WHITE or 0.

    The count dict is the session log's `count` event. The plan tells the tracker and the bowls
    what the physical fill-in must look like: stones per region and colour, the suggested
    points of the difference stones, the expected final position (`final`, rows as
    Board.rows()) and the bowls before and after (`bowls_before`, `bowls_after`).

    checkpoint: called between slices of the work (each a few ms on the Pico), or None: on a
    full 19x19 board the plan takes ~0.5 s of the RP2040, and the board's scans go on
    meanwhile (App.scan_if_due, issue 20). Nothing else changes.
    """
    pause = checkpoint or _no_pause
    komi2 = half_points(komi, "komi")
    pb = _count(penalty_b, "Black's penalty points")
    pw = _count(penalty_w, "White's penalty points")
    if pb % 2 or pw % 2:
        # Ing 1991 Art. 7: the clock charges penalty points two at a time, and Art. 4 pays
        # "one stone for every two points".
        raise ValueError("Ing penalty points come in twos, not B %d / W %d" % (pb, pw))
    if draw_winner is None:
        draw_winner = ing_draw_winner(komi, handicap)
    total2 = komi2 + 2 * handicap_compensation(handicap, handicap_style)
    paid = -((-total2) // 2)  # whole points paid in stones: a half point is rounded to White
    refund2 = 2 * paid - total2  # 0, or the half point given back to Black in the result
    net = pw - pb  # penalty points in Black's favour

    b, dead_b, dead_w = without_dead(board, dead)
    pause()
    size = b.size
    full = stones_per_colour(size)
    bowl = [0, full - b.count[BLACK], full - b.count[WHITE]]
    for color in (BLACK, WHITE):
        if bowl[color] < 0:
            raise ValueError(
                "%d %s stones on the board, but a %dx%d set has %d"
                % (b.count[color], "black" if color == BLACK else "white", size, size, full)
            )
    own = [[], [], []]  # empty points by owner: 0 shared, BLACK, WHITE
    for region, touches in empty_regions(b, checkpoint):
        own[touches if touches in (BLACK, WHITE) else 0].extend(region)
    pause()
    black_area = b.count[BLACK] + len(own[BLACK])
    white_area = b.count[WHITE] + len(own[WHITE])
    shared = len(own[0])

    # Stones each side puts into the other's territory, and open points per territory.
    comp_by = WHITE if paid > 0 else BLACK if paid < 0 else 0
    comp_stones = abs(paid) // 2
    comp_open = abs(paid) % 2
    pen_by = BLACK if net > 0 else WHITE if net < 0 else 0
    pen_stones = abs(net) // 2
    into = [0, 0, 0]  # stones placed INTO that colour's territory by the opponent
    opened = [0, 0, 0]
    if comp_by:
        into[3 - comp_by] += comp_stones
        opened[3 - comp_by] += comp_open
    if pen_by:
        into[3 - pen_by] += pen_stones
    half = shared // 2  # Ing 1991 Art. 4: "each player fills half of them"
    free = [0, 0, 0]
    hold = [0, 0, 0]
    excess = [0, 0, 0]  # > 0 spaces left, < 0 stones left
    for color in (BLACK, WHITE):
        free[color] = len(own[color]) - into[color] - opened[color]
        hold[color] = bowl[color] - into[3 - color] - half
        excess[color] = free[color] - hold[color]
    margin2 = 2 * (excess[BLACK] - excess[WHITE]) + refund2
    # Cross-check against the definition: area difference less compensation, plus penalties.
    check2 = 2 * (black_area - white_area) - total2 + 2 * net
    if margin2 != check2:
        raise AssertionError("fill-in %d != area %d (half-points)" % (margin2, check2))

    if excess[BLACK] > excess[WHITE]:
        winner = BLACK
    elif excess[WHITE] > excess[BLACK]:
        winner = WHITE
    else:
        winner = 0
    loser = 3 - winner if winner else 0
    spaces = excess[winner] if winner and excess[winner] > 0 else 0
    left_over = -excess[loser] if loser and excess[loser] < 0 else 0
    placed = spaces if spaces < left_over else left_over
    winning_spaces = spaces - placed  # 0 or 1
    extra = left_over - placed  # 0 or 1: a losing stone with no space to go

    feasible = free[BLACK] >= 0 and free[WHITE] >= 0 and hold[BLACK] >= 0 and hold[WHITE] >= 0
    plan = {
        "stones": full,
        "bowls_before": {"B": bowl[BLACK], "W": bowl[WHITE]},
        "dead": {"B": dead_b, "W": dead_w},
        "compensation": {
            "points": abs(paid),
            "by": _NAMES[comp_by] or None,
            "stones": comp_stones,
            "open": comp_open,
        },
        "penalty": {"points": abs(net), "by": _NAMES[pen_by] or None, "stones": pen_stones},
        "shared": {"B": half, "W": half, "empty": shared % 2},
        "fill": {"B": min(hold[BLACK], free[BLACK]), "W": min(hold[WHITE], free[WHITE])},
        "losing": {"by": _NAMES[loser] or None, "placed": placed, "extra": extra},
        "feasible": feasible,
    }
    winning_space = None
    if feasible:
        winning_space = _lay_out(
            b, own, plan, winner, winning_spaces, placed, comp_by, pen_by, into, opened, pause
        )
    else:
        # A territory too small for the stones the opponent must place in it: the result
        # stands (it is arithmetic), but there is no physical layout to check.
        plan["points"] = None
        plan["regions"] = None
        plan["final"] = None
        plan["bowls_after"] = None

    count = {
        "type": "count",
        "black": black_area,
        "white": white_area,
        "shared": shared,
        "komi": komi,
        "penalty": {"B": pb, "W": pw},
        "difference": points_value(margin2),
        "winning_space": winning_space,
        "losing_stones": left_over,
        "result": result_text(margin2, draw_winner),
    }
    return count, plan


def _lay_out(b, own, plan, winner, winning_spaces, placed, comp_by, pen_by, into, opened, pause):
    """Choose the points of the difference stones (Ing 1991 Art. 4 "Positioning") and fill."""
    pools = [own[0][:], own[BLACK][:], own[WHITE][:]]
    final = b.copy()
    names = b.name

    # The winning space in a corner of the winner's territory, or on a side (Art. 4).
    anchor = None
    win_points = []
    if winner and winning_spaces:
        win_points = _take_near(b, pools[winner], 1, None, pause)
        anchor = win_points[0]
        pause()
    # Shared spaces: one left empty when odd ("If there is only one shared space, neither
    # player can fill it"), the rest half each.
    shared_pool = pools[0]
    shared_empty = _take_near(b, shared_pool, len(shared_pool) % 2, anchor, pause)
    pause()
    if anchor is None and shared_empty:
        anchor = shared_empty[0]
    for i, p in enumerate(sorted(shared_pool)):
        final.set(p, BLACK if i % 2 == 0 else WHITE)
    # Losing stones "filled into side points adjacent to the winning space".
    losing_points = []
    if placed:
        losing_points = _take_near(b, pools[winner], placed, anchor, pause)
        if anchor is None:
            anchor = losing_points[0]
        for p in losing_points:
            final.set(p, 3 - winner)
        pause()
    # Compensation and penalty stones: "one stone for every two points is filled into a
    # separate area near the winning or shared space"; an odd compensation point stays open.
    comp_points = []
    open_points = []
    pen_points = []
    if comp_by:
        payer = 3 - comp_by
        comp_points = _take_near(b, pools[payer], plan["compensation"]["stones"], anchor, pause)
        pause()
        open_points = _take_near(b, pools[payer], opened[payer], anchor, pause)
        for p in comp_points:
            final.set(p, comp_by)
        pause()
    if pen_by:
        pen_points = _take_near(b, pools[3 - pen_by], plan["penalty"]["stones"], anchor, pause)
        for p in pen_points:
            final.set(p, pen_by)
        pause()
    # Everything else in each territory is filled by its owner.
    for color in (BLACK, WHITE):
        k = 0
        for p in pools[color]:
            final.set(p, color)
            k += 1
            if k == _POINTS_A_SLICE:
                k = 0
                pause()
        pause()

    full = plan["stones"]
    plan["bowls_after"] = {"B": full - final.count[BLACK], "W": full - final.count[WHITE]}
    pause()
    plan["points"] = {
        "winning_space": [names(p) for p in win_points],
        "losing": [names(p) for p in losing_points],
        "compensation": [names(p) for p in comp_points],
        "open": [names(p) for p in open_points],
        "penalty": [names(p) for p in pen_points],
        "shared_empty": [names(p) for p in shared_empty],
    }
    pause()
    plan["final"] = final.rows()
    pause()
    plan["regions"] = _region_counts(b, final, pause)
    return names(win_points[0]) if win_points else None


def _region_counts(before, after, pause=_no_pause):
    # Per empty region of the counted position: what the fill-in put there. The tracker can
    # check a physical fill-in region by region without insisting on the suggested points.
    out = []
    regions = empty_regions(before, None if pause is _no_pause else pause)
    pause()
    for region, touches in regions:
        placed = [0, 0, 0]
        for p in region:
            placed[after.get(p)] += 1
        out.append(
            {
                "at": before.name(min(region)),
                "owner": _NAMES[touches] if touches in (BLACK, WHITE) else "shared",
                "points": len(region),
                "B": placed[BLACK],
                "W": placed[WHITE],
                "empty": placed[EMPTY],
            }
        )
        if len(out) % 8 == 0:
            pause()
    return out

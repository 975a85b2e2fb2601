"""SGF properties for the clock in the game's root: TM/OT, and the Ing penalty points.

Loaded with the SGF writer (records/sgf_record.py) at the end of a game; clock_sgf.py has the
properties on moves and the SGF real of seconds.

Root (`root_props`): `TM` = basic time in seconds (absent for system none) and `OT`:

| system | OT |
|---|---|
| ing-pp | `3x600 Ing-PP` (3 periods of B/6 seconds, 2 penalty points on entering each) |
| byoyomi | `5x30 byo-yomi` (periods x seconds) |
| canadian | `25/600 Canadian` (stones / seconds) |
| fischer | `+10 Fischer` (seconds added after each move) |
| absolute, none | no OT |

Private property `IP` (ingboard, Ing penalty points): `IP[B<points>W<points>]`, the penalty
points charged so far to Black and to White, e.g. `IP[B4W2]` (net: 2 points against Black = one
white penalty stone in the fill-in count). `penalty_props` gives it for the root (next to `RE`,
whose margin already includes the penalty stones) and for any node where a charge happened;
only for ing-pp.
"""

from ingrules.board import BLACK, WHITE

from ingboard.clock.clock_sgf import sgf_seconds


def overtime_text(clock):
    """The OT value for the clock's system, or None."""
    s = clock.system
    if s == "ing-pp":
        return "%dx%s Ing-PP" % (clock.periods, sgf_seconds(clock.basic_ms // 6))
    if s == "byoyomi":
        return "%dx%s byo-yomi" % (clock.periods, sgf_seconds(clock.period_ms))
    if s == "canadian":
        return "%d/%s Canadian" % (clock.stones, sgf_seconds(clock.period_ms))
    if s == "fischer":
        return "+%s Fischer" % sgf_seconds(clock.increment_ms)
    return None


def root_props(clock):
    """[("TM", ...), ("OT", ...)] for the game's root node."""
    if clock.system == "none":
        return []
    out = [("TM", sgf_seconds(clock.basic_ms))]
    ot = overtime_text(clock)
    if ot is not None:
        out.append(("OT", ot))
    return out


def penalty_props(clock):
    """[("IP", "B<n>W<n>")] for ing-pp, else []."""
    if clock.system != "ing-pp":
        return []
    return [("IP", "B%dW%d" % (clock.penalty(BLACK), clock.penalty(WHITE)))]

"""SGF properties for the clock: TM/OT in the root, BL/WL and OB/OW on moves, Ing penalty points.

Each function returns a list of (property, value) pairs of str for the SGF writer; values need
no escaping. Times are SGF reals in seconds ("3599.5"; whole seconds without a point).

Root (`root_props`): `TM` = basic time in seconds (absent for system none) and `OT`:

| system | OT |
|---|---|
| ing-pp | `3x600 Ing-PP` (3 periods of B/6 seconds, 2 penalty points on entering each) |
| byoyomi | `5x30 byo-yomi` (periods x seconds) |
| canadian | `25/600 Canadian` (stones / seconds) |
| fischer | `+10 Fischer` (seconds added after each move) |
| absolute, none | no OT |

Moves (`move_props`, right after `clock.moved()`): `BL`/`WL` = time left for the player who
moved: basic time while it lasts, then the time left in the current period (byo-yomi: the full
period again). `OB`/`OW` (byo-yomi: periods left, the current one included; Canadian: moves still
to make in the current block) once that player is in overtime.

Private property `IP` (ingboard, Ing penalty points): `IP[B<points>W<points>]`, the penalty
points charged so far to Black and to White, e.g. `IP[B4W2]` (net: 2 points against Black = one
white penalty stone in the fill-in count). `penalty_props` gives it for the root (next to `RE`,
whose margin already includes the penalty stones) and for any node where a charge happened;
only for ing-pp.
"""

from ingrules.board import BLACK, WHITE


def sgf_seconds(ms):
    """ms as an SGF real of seconds: 3600000 -> "3600", 1500 -> "1.5"."""
    if ms < 0:
        raise ValueError("negative time %r" % (ms,))
    whole = ms // 1000
    frac = ms % 1000
    if not frac:
        return "%d" % whole
    text = "%03d" % frac
    while text.endswith("0"):
        text = text[:-1]
    return "%d.%s" % (whole, text)


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


def move_props(clock, color):
    """BL/WL (and OB/OW in overtime) for the move color just made (call after moved())."""
    if clock.system == "none":
        return []
    main, period, left, stones, _points, _forfeit = clock.player(color)
    name = "B" if color in (BLACK, "B") else "W"
    if period == 0:
        return [(name + "L", sgf_seconds(main))]
    out = [(name + "L", sgf_seconds(left))]
    if clock.system == "byoyomi":
        out.append(("O" + name, "%d" % (clock.periods - period + 1)))
    elif clock.system == "canadian":
        out.append(("O" + name, "%d" % stones))
    return out


def penalty_props(clock):
    """[("IP", "B<n>W<n>")] for ing-pp, else []."""
    if clock.system != "ing-pp":
        return []
    return [("IP", "B%dW%d" % (clock.penalty(BLACK), clock.penalty(WHITE)))]

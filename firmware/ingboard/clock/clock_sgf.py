"""SGF properties for the clock on moves: BL/WL and OB/OW, in seconds.

Each function returns a list of (property, value) pairs of str for the SGF writer; values need
no escaping. Times are SGF reals in seconds ("3599.5"; whole seconds without a point). The
root's TM/OT and the Ing penalty points (IP) are clock_sgf_root.py's, loaded with the SGF
writer at the end of the game.

Moves (`move_props`, right after `clock.moved()`): `BL`/`WL` = time left for the player who
moved: basic time while it lasts, then the time left in the current period (byo-yomi: the full
period again). `OB`/`OW` (byo-yomi: periods left, the current one included; Canadian: moves still
to make in the current block) once that player is in overtime.
"""

from ingrules.board import BLACK


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

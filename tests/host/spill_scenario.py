"""A bowl knocked over mid-game on the device twin: `count` stones (of `colours`) land on
empty points at once, then the players pick them up a few at a time; the game goes on.
(The machinery is long_game.Board's, as the long-game test and the bench drive it.)"""

import random

PICK_MS = 400  # emulated: the players pick up a handful of stones
PICK_N = 8  # stones a handful
SETTLE_MS = 1500  # emulated: the spill has lain there for the alerts (ALERT_MS 400) and more


def position_after(plies, k, size=19):
    """The position (row text) the players left after plies[:k]."""
    for ply in reversed(plies[:k]):
        if ply.stone is not None:
            return ply.lift if ply.lift is not None else ply.stone
    return "/".join(["." * size] * size)


def _rows(text):
    return [list(r) for r in text.split("/")]


def _text(rows):
    return "/".join("".join(r) for r in rows)


def _name(row_from_top, col, size=19):
    letters = "ABCDEFGHJKLMNOPQRST"
    return "%s%d" % (letters[col], size - row_from_top)


def spill(
    board, before, count, seed, log, colours="BW", pick_n=PICK_N, pick_ms=PICK_MS, mem_every=1
):
    """Spill `count` stones on empty points of `before`, let them lie SETTLE_MS, then pick them
    up pick_n at a time every pick_ms. The `mem` figures polled meanwhile (each collects);
    returns a dict of what happened."""
    rng = random.Random(seed)
    rows = _rows(before)
    empty = [(r, c) for r in range(len(rows)) for c in range(len(rows)) if rows[r][c] == "."]
    points = rng.sample(empty, min(count, len(empty)))
    spilled = {}
    for r, c in points:
        colour = rng.choice(colours)
        rows[r][c] = colour
        spilled[_name(r, c)] = colour
    first = len(board.messages)
    mems = []
    board.apply("grid", _text(rows))

    def poll():
        m = board.command({"cmd": "mem"})
        mems.append(m)
        log("#   mem: free %s largest %s" % (m.get("free"), m.get("largest")))

    for _ in range(SETTLE_MS // 300):
        board.twin.run_ms(300)
        poll()
    left = list(points)
    rng.shuffle(left)
    while left:
        hand, left = left[:pick_n], left[pick_n:]
        for r, c in hand:
            rows[r][c] = "."
        board.apply("grid", _text(rows))
        board.twin.run_ms(pick_ms)
        if mem_every:
            poll()
    assert _text(rows) == before
    board.twin.run_ms(1000)
    poll()
    state = board.command({"cmd": "state"})
    board._lines()
    during = board.messages[first:]
    alerts = [m for m in during if m.get("type") == "alert"]
    named = set()
    for a in alerts:
        named.update(a.get("points") or [])
    return {
        "spilled": spilled,
        "alerts": alerts,
        "named": named,
        "unnamed": sorted(set(spilled) - named),
        "warnings": [m for m in during if m.get("type") == "warning"],
        "errors": [m for m in during if m.get("type") == "error"],
        "mems": mems,
        "least_free": min(m["free"] for m in mems if m.get("free") is not None),
        "least_largest": min(m["largest"] for m in mems if m.get("largest") is not None),
        "state": state,
    }

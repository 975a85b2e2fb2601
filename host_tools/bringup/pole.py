"""The pole tester (pure): one stone held over one point, read against that point's empty
level - black, white, weak or reversed.

A Black stone's magnet is south pole down: the reading rises; White's north pole down: it falls
(hardware_docs/design.md "Stones"). A centred stone moves the reading by one stone's span
(physical.STONE_SPAN_COUNTS, or the point's calibrated span); under 3/4 of it the magnet is
weak, too deep in the stone, or off centre; under 6 % nothing is there.
"""

from ingboard import physical as ph

WEAK_SHARE = 0.75
NONE_SHARE = 0.06


def verdict(empty, reading, colour=None, span=ph.STONE_SPAN_COUNTS):
    """("black" | "white" | "weak" | "reversed" | "none", share of a stone's field)."""
    d = reading - empty
    share = abs(d) / span
    if share < NONE_SHARE:
        return "none", share
    seen = "black" if d > 0 else "white"
    if colour is not None and seen != {"B": "black", "W": "white"}[colour]:
        return "reversed", share
    if share < WEAK_SHARE:
        return "weak", share
    return seen, share


TEXT = {
    "black": "BLACK: south pole down, a full field",
    "white": "WHITE: north pole down, a full field",
    "weak": "WEAK: the magnet is too small, too deep in the stone or off centre",
    "reversed": "REVERSED: the magnet's poles are the wrong way for this colour (re-glue it)",
    "none": "NOTHING: no magnet over the point",
}

"""The bring-up walk's steps, as data (pure).

The grid is checked with stones put down in binary-coded patterns: in step k (k = 0..B-1, B =
bits of the largest scan index) a stone on every point whose scan index has bit k set. Each
scan index then answers with the bits of the sensor it really reads - the whole wiring (which
sensor each mux input carries), whatever the fault, in B + 2 steps rather than one stone
walked over 361 points. The two steps more (bit 0 clear, bit 1 clear) put a stone on every
point at least twice, so a point that reads a stone the wrong way once (a reversed stone) is
told from a sensor that always does. Only Black stones: at most ~180 at once on 19x19.
"""

from ingboard import board_config
from ingboard.sensing.classifier import point_name

KEYS = board_config.KEYS  # asked in this order
BOWL_SPOTS = (("left", 0.1), ("right", 0.9))  # where the known weight goes on a platform
KEY_WINDOW_MS = 3000


def index_bits(size):
    return max(1, (size * size - 1).bit_length())


def pattern_steps(size):
    """[(name, [scan indexes with a stone])]: bit k for each k, then "bit 0 clear" and "bit 1
    clear"."""
    n = size * size
    steps = []
    for k in range(index_bits(size)):
        steps.append(("bit %d" % k, [i for i in range(n) if (i >> k) & 1]))
    for k in (0, 1):
        steps.append(("bit %d clear" % k, [i for i in range(n) if not (i >> k) & 1]))
    return steps


def diagram(size, indexes):
    """The board as rows of text, top line first: X where a stone goes, . elsewhere."""
    marks = set(indexes)
    rows = []
    cols = "ABCDEFGHJKLMNOPQRST"[:size]
    rows.append("    " + " ".join(cols))
    for r in range(size):
        line = "".join("X " if r * size + c in marks else ". " for c in range(size))
        rows.append("%3d %s" % (size - r, line.rstrip()))
    return rows


def names(indexes, size):
    return [point_name(i, size) for i in indexes]

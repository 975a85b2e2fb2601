"""The tracker's walk over every point in native code (tracking/differ_viper.py,
`@micropython.viper`) on MicroPython's rp2 port in the device twin finds exactly the points the
pure walk of plays.py would look at - known readings, sensors not left out, otherwise than the
game - in scan order, over boards of every mix of stones, unknown readings and faulty sensors;
and the tracker's differences and the board's deadlines (Tracker._board_dues) through it are
the pure walk's."""

import json
import os

import pytest
from twin_support import require_images

from host_tools.twin.process import Twin

SCRIPT = """
from ingboard.tracking import differ_viper, plays
from ingboard.tracking.tracker import Tracker

def pure(order, seen, cells, faulty):
    return [p for p in order if seen[p] != 4 and not faulty[p] and seen[p] != cells[p]]

tr = Tracker({"size": 19, "rules": "ing1991"})
order = tr.order
n = 21 * 21
same = True
found = 0
for k in range(40):
    seen = bytearray(n)
    cells = bytearray(n)
    faulty = bytearray(n)
    for i in range(n):
        seen[i] = (i * 7 + k * 13) % (5 if k % 3 else 3)
        cells[i] = (i * 5 + k * 3) % 3 if k % 4 else seen[i]
        faulty[i] = 1 if (i + k) % 17 == 0 else 0
    got = []
    k = differ_viper.next_differing(order, seen, cells, faulty, 0)
    while k < len(order):
        got.append(order[k])
        k = differ_viper.next_differing(order, seen, cells, faulty, k + 1)
    want = pure(order, seen, cells, faulty)
    found += len(got)
    if got != want:
        same = False
# Through the tracker: a stone read where the game has none, one missing, prisoners leaving.
game = tr.game
game.play(1, game.board.index(3, 3))
game.play(2, game.board.index(15, 15))
for p in order:
    tr.seen[p] = game.board.cells[p]
tr.seen[game.board.index(3, 3)] = 0
tr.seen[game.board.index(4, 4)] = 1
tr.seen[game.board.index(5, 5)] = 4
tr.leaving[game.board.index(9, 9)] = 1
tr.leaving[game.board.index(15, 15)] = 2
tr.seen[game.board.index(15, 15)] = 0
a = tr._differences(0)
tr._set_faulty(game.board.index(4, 4))  # a point left out still has its deadlines
for p in order:
    tr.since[p] = (p * 37) % 1000
tr.seen_version += 1
dues_native = list(tr._board_dues())
plays._DIFFER[0] = None
tr.seen_version += 1
dues_pure = list(tr._board_dues())
tr.faulty[game.board.index(4, 4)] = 0
b = tr._differences(0)
print(json.dumps({"native": differ_viper.NATIVE, "same": same, "found": found,
                  "tracker": [sorted(x) for x in a] == [sorted(x) for x in b] and a[:2] == b[:2],
                  "a": a, "dues": dues_native == dues_pure, "n_dues": len(dues_native)}))
"""


@pytest.fixture(scope="module")
def twin(tmp_path_factory):
    from host_tools import FIRMWARE
    from host_tools.commands import flash

    require_images("romfs")
    work = str(tmp_path_factory.mktemp("differ"))
    built = flash.build(FIRMWARE, os.path.join(work, "mpy"), "armv6m")
    image = os.path.join(work, "ingboard.romfs")
    with open(image, "wb") as f:
        f.write(flash.romfs_image(built, work))
    with Twin("romfs", romfs_image=image) as t:
        yield t


def test_native_walk_finds_the_points_the_pure_walk_finds_on_the_rp2_port(twin):
    out = twin.exec("import json\n" + SCRIPT, max_ms=120000)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["native"] is True
    assert result["same"] is True and result["found"] > 1000, result
    assert result["tracker"] is True, result
    new, missing, lifted = result["a"]
    assert len(new) == 1 and len(missing) == 1 and len(lifted) == 2, result
    # Two deadlines (settle, alert) a point read otherwise than the game, faulty or not.
    assert result["dues"] is True and result["n_dues"] >= 6, result

"""The rules core's native liberty search (ingrules/liberty_viper.py, `@micropython.viper`) on
MicroPython's rp2 port in the device twin answers what the pure flood (Board._flood) answers -
whether the chain at a point has a liberty - for every stone of many positions (sparse to
nearly full, both colours, chains touching the edge), leaves no mark behind, and a game played
with it ends in the same position and captures as one played with the pure search; and its
native chain walk (the Ing ko rule's surround of a ko capture) gives every chain as the pure
walk (ko.flood_chain) and Board.chain give it."""

import json

import pytest
from twin_support import require_images

from host_tools.twin import deploy
from host_tools.twin.process import Twin

MODULES = ["ingrules/%s.py" % m for m in ("__init__", "board", "liberty_viper", "chunked")]
MODULES += ["ingrules/%s.py" % m for m in ("ko", "ply_store", "rulesets", "ruleset_rows", "game")]

# The scripts' random numbers and positions (the same generator on the twin and on any host):
# boards of three sizes, sparse to nearly full, both colours (`bd`: ingrules.board).
RANDOM = """
x = [SEED]
def rnd(n):
    x[0] = (x[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (x[0] >> 8) % n

def positions():
    for size in (5, 9, 19):
        for fill in (20, 50, 80, 95):
            b = bd.Board(size)
            for p in b.points:
                if rnd(100) < fill:
                    b.set(p, 1 + rnd(2))
            yield b
"""

SCRIPT = (
    """
import json
from ingrules import board as bd
from ingrules.game import Game, IllegalMove
native = bd._HAS_LIBERTY
"""
    + RANDOM.replace("SEED", "12345")
    + """
checked = 0
wrong = 0
for b in positions():
    for p in b.points:
        if b.get(p) in (1, 2):
            checked += 1
            if bool(native(b.cells, b._mark, p, b.stride)) != b._flood(p, True)[1]:
                wrong += 1
    if any(b._mark):
        wrong += 1000

def game(search, seed):
    bd._HAS_LIBERTY = search
    x[0] = seed
    g = Game(9, "ing1991")
    color = 1
    taken = 0
    for k in range(200):
        for attempt in range(30):  # a random legal play, else a pass
            p = g.board.points[rnd(81)]
            try:
                ply = g.play(color, p)
            except IllegalMove:
                continue
            taken += len(ply.captured) + len(ply.self_removed)
            break
        else:
            g.pass_move(color)
        if g.phase != "play":
            break
        color = 3 - color
    return bytes(g.board.cells), taken, len(g.plies)

games_same = True
takes = 0
for seed in (1, 2):
    a = game(native, seed)
    b = game(None, seed)
    takes += a[1]
    if a != b:
        games_same = False
bd._HAS_LIBERTY = native
print(json.dumps({"native": native is not None, "checked": checked, "wrong": wrong,
                  "games_same": games_same, "captured": takes}))
"""
)


@pytest.fixture(scope="module")
def twin():
    require_images("stock")
    with Twin("stock") as t:
        deploy.put_files(t, deploy.compiled(MODULES))
        yield t


@pytest.mark.device
def test_native_liberty_search_answers_as_the_pure_flood_on_the_rp2_port(twin):
    out = twin.exec(SCRIPT, max_ms=120000)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["native"] is True  # the rp2 port loaded the .mpy's native code
    assert result["checked"] > 300 and result["wrong"] == 0, result
    # The games captured stones (the search decided), and ended alike with either search.
    assert result["captured"] > 0 and result["games_same"] is True, result


FLOOD_SCRIPT = (
    """
import json
from array import array
from ingrules import board as bd, ko, liberty_viper
"""
    + RANDOM.replace("SEED", "4321")
    + """
checked = 0
wrong = 0
for b in positions():
    n = len(b.cells)
    # Every chain of the board walked in turn into one buffer, as ko.py's surround does
    # (marks kept between the walks, the points one after another).
    a_seen, b_seen = bytearray(n), bytearray(n)
    a_out, b_out = array("H", bytes(2 * n)), array("H", bytes(2 * n))
    ka = kb = 0
    for p in b.points:
        if b.get(p) in (1, 2) and not a_seen[p]:
            checked += 1
            ka2 = liberty_viper.flood_chain(b.cells, a_seen, p, b.stride, a_out, ka)
            kb = ko.flood_chain(b.cells, b_seen, p, b.stride, b_out, kb)
            if ka2 != kb or list(a_out[ka:ka2]) != b.chain(p):
                wrong += 1
            ka = ka2
    if a_seen != b_seen or a_out != b_out:
        wrong += 1000
print(json.dumps({"native": ko._FLOOD is liberty_viper.flood_chain, "checked": checked,
                  "wrong": wrong}))
"""
)


@pytest.mark.device
def test_native_chain_walk_gives_the_chains_as_the_pure_walk_on_the_rp2_port(twin):
    # ko.py's surround of a ko capture (the chains around the ko stones) walks each chain
    # natively on the rp2 port: the same points, in Board.chain's order, and the same marks.
    out = twin.exec(FLOOD_SCRIPT, max_ms=120000)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["native"] is True
    assert result["checked"] > 100 and result["wrong"] == 0, result

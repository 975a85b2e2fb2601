"""Issue 20: a 600-ply 19×19 game through the device app's game path (tracker, session log,
journal and its compaction, events to the host) in a fixed, Pico-sized MicroPython heap, with
nobody calling gc.collect() from outside, raises no MemoryError (tests/host/fixed_heap.py).

The firmware is deployed as a ROMFS image (the .mpy files run in place, as `ingboard flash
--romfs` installs them); as much is free at start as on the Pico after boot less the code's own
heap (240 - 70 KB). Measured with this test's game (60,192 log records, a 32-stone capture):
- before (main 1f9908c): MemoryError at ply 99 (record 7,112): the journal's compaction read the
  64 KB journal whole; after a collection 135 KB were free but the largest free block was 14 KB
  (long-lived objects scattered through the heap, no collection before it was full).
- after: all 600 moves and the passes; at the pause 80 KB free, the largest free block 63 KB.
- main 3ce036e: the game held 86.8 KB at the pause (~106 bytes a ply from ply 100 to 500: a
  namedtuple and a tuple of captured stones per ply, its SGF clock text twice - tracker and
  journal), largest free block 61.4 KB. With the plies and the clock texts kept as bytes
  (ingrules/ply_store.py, chunked.ChunkedText) and the journal's copy of the texts cut to the last
  8 plies: 53.9 KB held (~48 bytes a ply), largest free block 92.5 KB.
"""

import pytest
from long_game import long_game

from host_tools import firmware_build
from host_tools import micropython as mp
from host_tools import simulate as sim

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

PLIES = 600


@pytest.fixture(scope="module")
def long_session():
    from bench import games

    moves, largest = long_game(PLIES)
    game = sim.load_game(games.to_sgf(19, moves))
    return sim.simulate(game, "typical", 1, finish=True), largest


def test_a_600_ply_game_fits_the_pico_heap_without_memory_error(long_session, tmp_path):
    import fixed_heap
    from ingboard.records.session_read import read_text
    from ingboard.records.session_replay import track

    try:
        mp._check_available()
    except mp.MicroPythonUnavailable as exc:
        pytest.skip(str(exc))
    simulation, largest = long_session
    assert largest >= 20  # a big capture is part of it
    firmware_build.compile_firmware(out_dir=str(tmp_path / "fw"))
    got = fixed_heap.run(simulation.text(), str(tmp_path / "fw"))
    assert got["error"] is None, got.get("traceback") or got["error"]
    # The Pico's room: what the driver left free after the imports.
    assert got["free_at_start"] <= fixed_heap.PICO_FREE_AT_BOOT - got["code"] + 4096
    game = got["python"]
    # The same game as the firmware's own replay of the log, up to the pause.
    events = []
    track(read_text(simulation.text()), events.append)
    moves = [e for e in events if e["type"] == "move"]
    assert len(moves) == PLIES
    assert game["state"]["moves"] == PLIES and game["plies"] >= PLIES + 2
    assert game["phase"] == "paused"
    # What the game holds at the pause (per-ply storage above all): no object per ply.
    held = got["free_at_start"] - got["free"]
    assert held <= 70 * 1024, "the game holds %d bytes" % held
    assert got["largest_free"] >= 80 * 1024, got["largest_free"]

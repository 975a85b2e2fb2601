"""Issue 20: the end of a long game on the real rp2 firmware in the device twin - the last pass,
the Ing count of a board full of stones, the plan, the SGF - through the whole app (main.py
from littlefs, the package from a ROMFS image, the key and grid models), with nobody calling
gc.collect() from outside.

The game is played on the host by the app's own code (host_tools/twin/end_position.py: its
journal, as the board writes it); the board boots with that journal, the stones on the grid and
the rest of each set in the bowls, resumes the game at the pause, and White makes the last
pass. The count must come out with the count the host's tracker makes of the same position, the
SGF must be written (read back over the link as `ingboard pull` reads it) and nothing may fail
on the way (a MemoryError in a task is a warning). INGBOARD_TWIN_COUNT_PLIES sets the game's
length (default 240 plies, then the four passes; the bench's `mcu_count_*` use 600)."""

import os

import pytest
from twin_support import require_images

require_images("romfs")
# Minutes of emulation each: `make test-device` (CI runs it), not `make test`.
pytestmark = pytest.mark.device

PLIES = int(os.environ.get("INGBOARD_TWIN_COUNT_PLIES", "240"))


@pytest.fixture(scope="module")
def ended(tmp_path_factory):
    from host_tools.twin import end_position

    work = str(tmp_path_factory.mktemp("twin-count"))
    end = end_position.long_end(PLIES, work_dir=os.path.join(work, "host"))
    result = end_position.count_on_twin(end, work)
    result["end_position"] = end
    return result


def test_the_board_resumes_the_long_game_at_the_pause(ended):
    assert ended["resumed"]["phase"] == "paused"
    assert ended["resumed"]["plies"] == PLIES + 3


def test_the_last_pass_ends_the_game_with_the_count_the_host_makes(ended):
    from ingrules.counting import count_game

    tracker = ended["end_position"]["tracker"]
    game = tracker.game
    last = ended["end_position"]["last"][0]
    assert last.name is None and ended["pass"]["color"] == last.colour
    game.pass_move(2 if last.colour == "W" else 1)  # the host's copy ends the same way
    want, plan = count_game(game)
    got = ended["count"]
    for key in ("black", "white", "shared", "difference", "result", "winning_space"):
        assert got[key] == want[key], key
    assert ended["plan"]["fill"] == plan["fill"]
    assert ended["plan"]["points"] == plan["points"]
    assert ended["end"]["reason"] == "count" and ended["end"]["result"] == want["result"]


def test_the_records_are_written_and_nothing_failed(ended):
    import sgfmill.sgf

    assert ended["warnings"] == [] and ended["noise"] == []
    sgf = sgfmill.sgf.Sgf_game.from_string(ended["sgf"])
    root = sgf.get_root()
    assert root.get("RE") == ended["end"]["result"]
    moves = [node.get_move() for node in sgf.get_main_sequence()[1:]]
    assert len(moves) == PLIES + 4
    assert moves[-1] == ((ended["pass"]["color"].lower(), None))

"""Power cut at the flash level (issue 17, item 3): the real firmware on the twin plays a game
(the device app over a session log, tests/firmware/app_fakes.py), the power fails while the
flash is being written, and the board boots again from exactly that flash: littlefs and the
journal together must resume the game as if nothing happened.

The emulator is deterministic, so one uncut run that records its flash writes gives the flash
a cut before any of them leaves (Twin.save_flash_before); the cut mechanism itself (stopping
the machine) is tested in test_twin_boot.py."""

import json
import os
import sys

import pytest
from twin_support import (
    DEVICE_RESUME,
    DEVICE_RUN,
    GAME_ROOT,
    PRINT_FILE,
    demo_log,
    game_romfs,
    require_images,
)

from host_tools import ROOT
from host_tools.twin.process import Twin

require_images("romfs")
# Minutes of emulation each: `make test-device` (CI runs it), not `make test`.
pytestmark = pytest.mark.device

sys.path.insert(0, os.path.join(ROOT, "tests", "firmware"))
UNTIL_MS = 6000  # of the shortened log: two moves, each journaled with its press


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The game on CPython (the reference) and on the twin, uncut, its flash writes recorded."""
    from app_fakes import run_app

    text = demo_log(until_ms=UNTIL_MS)
    work = str(tmp_path_factory.mktemp("twin-game"))
    whole = os.path.join(work, "whole")
    os.mkdir(whole)
    app, _hw = run_app(text, whole, UNTIL_MS, stop=False)
    reference = [[p.color, p.point, p.kind] for p in app.tracker.game.plies]
    assert len(reference) == 2
    image = game_romfs(work, text)
    twin = Twin("romfs", romfs_image=image).start()
    try:
        twin.record_writes(True)
        out = twin.exec(DEVICE_RUN % {"root": GAME_ROOT, "until": UNTIL_MS}, max_ms=60000)
        state = twin.status()
        yield {
            "reference": reference,
            "device": json.loads(out.strip().splitlines()[-1]),
            "writes": state["write_log"],
            "first": state["first_logged"],
            "twin": twin,
        }
    finally:
        twin.close()


def test_the_device_app_plays_the_game_as_cpython_does(game):
    assert game["device"] == game["reference"]
    kinds = {kind for kind, _address, _length, _us in game["writes"]}
    assert kinds == {"erase", "program"} and len(game["writes"]) > 20


def test_cut_while_writing_then_the_game_resumes_exactly(game, tmp_path):
    # Two thirds into the game's flash writes: after the first move's journal record.
    index = game["first"] + 2 * len(game["writes"]) // 3
    cut_image = str(tmp_path / "cut.bin")
    game["twin"].save_flash_before(index, cut_image)
    with Twin("romfs", flash_image=cut_image) as twin:
        out = twin.exec(DEVICE_RESUME % {"root": GAME_ROOT, "until": UNTIL_MS}, max_ms=60000)
        log = twin.exec(PRINT_FILE % (GAME_ROOT + "/sessions/0001.log.part"))
    resumed = json.loads(out.strip().splitlines()[-1])
    assert resumed["failure"] is None and resumed["number"] == 1
    assert resumed["warnings"][0].startswith("game 0001 resumed at move ")
    assert resumed["plies"] == game["reference"]
    # The board's own session log, across the cut, still replays to the same game.
    from ingboard.records.session_read import read_text
    from ingboard.records.session_replay import track

    assert "# resumed from the journal" in log
    replayed = track(read_text(log), lambda e: None)
    assert [[p.color, p.point, p.kind] for p in replayed.game.plies] == game["reference"]

"""`make twin-soak`: a game on the device twin through a chain of flash-level power cuts, every
one of them resumed exactly (issue 17, item 3). Skipped unless INGBOARD_TWIN_SOAK=1.

The device app plays the demo game's session log (tests/firmware/app_fakes.py, the same way as
test_twin_power_cut.py) with the power cut at a random flash write (seeded) a few writes after
each boot; the flash the cut leaves is booted again and the app resumes from its journal while
the players go on where the board's records end, until the game reaches its end of the log.
At the end the moves are those of the uncut game on CPython, and the board's own session log,
across all the cuts, replays to the same game. INGBOARD_TWIN_SOAK_CUTS sets the number of cuts
(default 50), INGBOARD_TWIN_SOAK_SEED the seed, INGBOARD_TWIN_SOAK_MS the length of the game
(ms of the shortened log: the RP2040's heap holds the log of about the first dozen moves)."""

import json
import os
import random
import sys

import pytest
from twin_support import DEVICE_RESUME, DEVICE_RUN, GAME_ROOT, PRINT_FILE, demo_log, game_romfs

from host_tools import ROOT
from host_tools.twin import images
from host_tools.twin.process import PowerCut, Twin

pytestmark = pytest.mark.skipif(
    not os.environ.get("INGBOARD_TWIN_SOAK"), reason="the twin soak runs with make twin-soak"
)

sys.path.insert(0, os.path.join(ROOT, "tests", "firmware"))
CUTS = int(os.environ.get("INGBOARD_TWIN_SOAK_CUTS", "50"))
SEED = int(os.environ.get("INGBOARD_TWIN_SOAK_SEED", "17"))
UNTIL_MS = int(os.environ.get("INGBOARD_TWIN_SOAK_MS", "12000"))


def test_a_game_through_a_chain_of_power_cuts_resumes_exactly(tmp_path):
    try:
        images.find("romfs")
    except images.ImagesMissing as exc:
        pytest.skip(str(exc))
    from app_fakes import run_app
    from ingboard.core.session import read_text
    from ingboard.core.tracker import track

    text = demo_log(until_ms=UNTIL_MS)
    whole = tmp_path / "whole"
    whole.mkdir()
    app, _hw = run_app(text, str(whole), UNTIL_MS, stop=False)
    reference = [[p.color, p.point, p.kind] for p in app.tracker.game.plies]
    image = game_romfs(str(tmp_path), text)
    rng = random.Random(SEED)
    flash = None
    script = DEVICE_RUN
    cuts = 0
    resumed_at = []
    while True:
        twin = Twin("romfs", romfs_image=None if flash else image, flash_image=flash)
        with twin:
            if cuts < CUTS:
                twin.cut_at_write(twin.status()["flash_writes"] + rng.randint(2, 24))
            try:
                out = twin.exec(script % {"root": GAME_ROOT, "until": UNTIL_MS}, max_ms=120000)
            except PowerCut:
                cuts += 1
                flash = str(tmp_path / ("cut%d.bin" % (cuts % 2)))
                twin.save_flash(flash)
                script = DEVICE_RESUME
                continue
            log = twin.exec(PRINT_FILE % (GAME_ROOT + "/sessions/0001.log.part"))
        break
    result = json.loads(out.strip().splitlines()[-1])
    if script is DEVICE_RESUME:
        assert result["failure"] is None and result["number"] == 1
        resumed_at.append(result["warnings"][0])
        plies = result["plies"]
    else:
        plies = result
    print(
        "twin soak: %d flash-level power cuts, the game resumed exactly (%d plies; %s)"
        % (cuts, len(plies), resumed_at[-1] if resumed_at else "never cut")
    )
    assert cuts == CUTS
    assert plies == reference
    assert log.count("# resumed from the journal") >= 1
    assert log.startswith("ingboard-session 1\n"), log[:300]
    replayed = track(read_text(log), lambda e: None)
    assert [[p.color, p.point, p.kind] for p in replayed.game.plies] == reference

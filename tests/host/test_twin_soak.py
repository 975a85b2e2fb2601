"""`make twin-soak` (issue 17 item 3, issue 20): a full 19x19 game of 600+ plies through the whole
app on the device twin (host_tools/twin/long_game.py: main.py, the grid, keys and load-cell
models, the records on the emulated flash), and at least 50 flash-level power cuts in it, every
one resumed exactly. Skipped unless INGBOARD_TWIN_SOAK=1.

The emulator is deterministic: one uncut run that records its flash writes gives the flash a
cut before any of them leaves (Twin.save_flash_before). The cuts are drawn at random (the seed
is printed) over the game's writes - journal records, the journal's compaction, session-log
flushes - and the SGF and session-log writes after the count. Each cut image is booted with
the stones and bowls as the players had left them at that moment; the app resumes from its
journal. The game it holds must be the uncut game's up to its last committed record: every ply
whose event had come out before the cut (the app flushes a ply's record before it tells the
host), and at most the one ply in flight; then the players go on with the next ply, which the
resumed board must take as the next move or pass.

INGBOARD_TWIN_SOAK_PLIES (default 600), INGBOARD_TWIN_SOAK_CUTS (default 50),
INGBOARD_TWIN_SOAK_SEED (default: drawn, printed)."""

import os
import random
import time

import pytest
from long_game import long_game

pytestmark = [
    pytest.mark.device,
    pytest.mark.skipif(
        not os.environ.get("INGBOARD_TWIN_SOAK"), reason="the twin soak runs with make twin-soak"
    ),
]

PLIES = int(os.environ.get("INGBOARD_TWIN_SOAK_PLIES", "600"))
CUTS = int(os.environ.get("INGBOARD_TWIN_SOAK_CUTS", "50"))
AFTER_COUNT = 5  # of the cuts, among the writes after the count (SGF, session log closed)


def test_a_long_game_through_power_cuts_at_random_flash_writes_resumes_exactly(tmp_path):
    from host_tools.twin import images
    from host_tools.twin import long_game as lg

    try:
        images.find("romfs")
    except images.ImagesMissing as exc:
        pytest.skip(str(exc))
    seed = int(os.environ.get("INGBOARD_TWIN_SOAK_SEED") or random.randrange(1 << 30))
    print("\n# twin soak: %d plies, %d cuts, seed %d" % (PLIES, CUTS, seed))
    rng = random.Random(seed)
    moves, largest = long_game(PLIES)
    plies, config = lg.brisk(moves)
    expected = [[p.colour, p.name, 0 if p.name else 1] for p in plies]
    result = lg.play_through(plies, config, str(tmp_path), log=print, record_writes=True)
    board = result["board"]
    try:
        assert [[c, n] for c, n, _k in result["held"]] == [[c, n] for c, n, _k in expected]
        state = result["writes"]
        writes = state["write_log"]
        first = state["first_logged"]
        end_us = result["end_us"]
        game_writes = [first + i for i, w in enumerate(writes) if w[3] < end_us]
        # After the count: the SGF and the session log closed - not the writes of the next
        # game the players then start (a cut there leaves the board holding that new game,
        # rightly: the soak's seed 7 once drew one and counted it as the game lost).
        new_game_us = result["new_game_us"]
        late_writes = [first + i for i, w in enumerate(writes) if end_us <= w[3] < new_game_us]
        late = min(AFTER_COUNT, len(late_writes), max(1, CUTS // 10))
        cuts = sorted(rng.sample(game_writes, CUTS - late) + rng.sample(late_writes, late))
        print(
            "# twin soak: the uncut game made %d flash writes (%d after the count); cutting "
            "before writes %s" % (len(writes), len(late_writes), cuts)
        )
        images_at = []
        for i, index in enumerate(cuts):
            path = str(tmp_path / ("cut%02d.bin" % i))
            board.twin.save_flash_before(index, path)
            images_at.append((index, writes[index - first][3], path))
    finally:
        board.__exit__()
    seen = board.seen_us
    kinds = {}
    started = time.time()
    for i, (index, us, path) in enumerate(images_at):
        # Committed before the cut: every ply whose event had come out by then.
        low = sum(1 for n, at in seen.items() if at is not None and at <= us)
        position, grams = lg.state_at(board.applied, us)
        got = lg.resume_after_cut(
            path, plies, config, position, grams, str(tmp_path / ("resume%02d" % i))
        )
        os.remove(path)
        held = got["held"]
        k = len(held)
        kind = writes[index - first][0]
        where = "cut %d before write %d (%s at %.3f s)" % (i + 1, index, kind, us / 1e6)
        assert low <= k <= low + 1, "%s: the board holds %d plies, %d committed" % (where, k, low)
        assert held == expected[:k], where
        assert got["noise"] == [], where
        if 0 < k < len(plies) and got["phase"] == "play":
            nxt = plies[k]
            went = got["went_on"]
            assert went is not None, where
            assert (went["color"], went.get("point")) == (nxt.colour, nxt.name), where
        kinds[kind] = kinds.get(kind, 0) + 1
        print(
            "# twin soak: %s: resumed at ply %d of %d (%s), went on: %s; %.0f s so far"
            % (where, k, len(plies), got["phase"], bool(got["went_on"]), time.time() - started)
        )
    print(
        "twin soak: %d flash-level power cuts in a %d-ply game (largest capture %d stones), all "
        "resumed exactly (seed %d, writes cut: %s)" % (len(cuts), len(plies), largest, seed, kinds)
    )
    assert len(cuts) >= min(CUTS, 50)

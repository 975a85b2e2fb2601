"""A big capture's work comes in pieces the scan runs between (issue 32): the whole app on
CPython with virtual time, brisk players (host_tools/twin/long_game.brisk) making a 32-stone
capture (tests/big_capture.py) and lifting the prisoners at once. Each part of that ply's work
- the play's check, the play, the journal's record - is made to
take PART_MS of the board's time: a scan due meanwhile waits for one part at most, never
for several in one piece (on the RP2040 the play and its record were ~125 ms in one piece for
32 stones, ~195 ms for 60). The scheduler's behaviour, not the host's speed: virtual time moves
only where a part says so."""

import pytest
from app_fakes import (
    FakeDisplay,
    FakeGrid,
    FakeLink,
    FakePWM,
    FakeScale,
    KeyPin,
    VirtualTime,
    clear_records,
)
from big_capture import big_capture

ROOT = "/tmp/ingboard-test-big-capture"
PLY_MS = 800  # brisk players: a stone, its press 200 ms later, the lift 400 ms after the stone
SCAN_MS = 40  # the app's scan period (App's default)
PART_MS = 30  # each slow part of the capture's ply: less than a period


def _game(rows, cols):
    """(config, scans, bowls, presses, capture stone's time, lift's time)."""
    from host_tools.twin import long_game as lg

    plies, config = lg.brisk(big_capture(rows, cols), end_passes=0)
    empty = "/".join(["." * 19] * 19)
    full = config["bowls"]["B"]["w180_g"]
    scans = [(0, empty)]
    grams = {"B": full, "W": full}
    bowls = {"B": [], "W": []}
    presses = {"B": [], "W": []}
    for t in range(0, 3000, 100):
        for c in "BW":
            bowls[c].append((t, full))
    t = 3000
    stone_t = lift_t = None
    for ply in plies:
        colour, g = ply.take
        grams[colour] = g
        scans.append((t, ply.stone))
        presses[colour].append(t + 200)
        if ply.lift is not None:
            stone_t, lift_t = t, t + 400
            scans.append((lift_t, ply.lift))
            grams[ply.give[0]] = ply.give[1]
        for k in range(0, PLY_MS, 100):
            for c in "BW":
                bowls[c].append((t + k + 50, grams[c]))
        t += PLY_MS
    return config, scans, bowls, presses, stone_t, lift_t


@pytest.mark.parametrize("rows, cols", [(2, 16), (4, 15)])
def test_a_big_capture_holds_the_scan_one_part_at_most(rows, cols, monkeypatch):
    import os

    from ingboard.app.app import App
    from ingboard.drivers.buzzer import Buzzer
    from ingboard.drivers.keys import Keys
    from ingboard.records import journal
    from ingboard.records.store import RecordsStore
    from ingboard.sensing.classifier import Classifier
    from ingrules.game import Game

    config, scans, bowls, presses, stone_t, lift_t = _game(rows, cols)
    vt = VirtualTime()
    hw = {
        "grid": FakeGrid(vt, scans, 19),
        "classifier": Classifier(19),
        "hx711": {"B": FakeScale(vt, bowls["B"]), "W": FakeScale(vt, bowls["W"])},
        "keys": Keys([KeyPin(vt, presses["B"]), KeyPin(vt, presses["W"])] + [KeyPin(vt, [])] * 2),
        "buzzer": Buzzer(FakePWM()),
        "displays": {"B": FakeDisplay(vt), "W": FakeDisplay(vt)},
        "link": FakeLink(vt, []),
    }
    for d in ("", "/games", "/sessions", "/journal"):
        os.makedirs(ROOT + d, exist_ok=True)
    clear_records(ROOT)
    app = App(hw, RecordsStore(ROOT), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, config=config)
    vt.drive(app, stone_t - 100, stop=False)
    app.cpu_reset()
    # From the capture's stone to well after the lift, each part is slow.
    window = (stone_t, lift_t + 1000)
    for cls, name in (
        (Game, "legality"),
        (Game, "play"),
        (journal.JournalWriter, "sync"),
    ):
        _slow_class(monkeypatch, cls, name, vt, window)
    end = lift_t + 2000
    vt.drive(app, end)
    out = b"".join(hw["link"].out).decode().split("\n")
    import json

    moves = [json.loads(x) for x in out if x and json.loads(x)["type"] == "move"]
    assert len(moves) == len(big_capture(rows, cols)) and len(moves[-1]["captures"]) == rows * cols
    warnings = [json.loads(x) for x in out if x and json.loads(x)["type"] in ("warning", "alert")]
    assert warnings == []
    stats = app.cpu_stats()
    assert stats["tasks"]["game"] >= 3 * PART_MS * 1000  # the parts were slow indeed
    assert stats["scan_late_max_us"] <= PART_MS * 1000 < SCAN_MS * 1000


def _slow_class(monkeypatch, cls, name, vt, window):
    real = getattr(cls, name)

    def slow(self, *args, **kwargs):
        if window[0] <= vt.now < window[1]:
            vt.now += PART_MS
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, slow)

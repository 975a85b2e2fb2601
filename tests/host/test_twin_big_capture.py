"""A big capture on the device twin (issue 32): the whole app on the real rp2 firmware
(host_tools/twin/long_game.py, as the bench's long game plays), brisk players making one
capture of 32 stones, then one of 60 (tests/big_capture.py), the prisoners lifted at once and
given back to their bowl. The app's own CPU counters (the `cpu` command, reset before that ply)
say how late a scan ran meanwhile: the play, its record and the lift come in pieces the scan
runs between (a checkpoint between each), so no scan waits for the whole ply's work. Before,
the play and its journal record were one piece of ~125 ms of the RP2040 for 32 stones and
~195 ms for 60.

The bound is in scan periods, not host time: the emulated chip runs the app as the Pico would,
and the app counts in its own ticks. A scan may still wait for one piece plus a collection of
the heap that falls in it (gc_policy: ~25 ms of the RP2040), so the bound is two periods."""

import pytest
from big_capture import big_capture
from twin_support import require_images

require_images("romfs")
# Minutes of emulation each: `make test-device` (CI runs it), not `make test`.
pytestmark = pytest.mark.device

SCAN_MS = 40  # the app's scan period (App's default)
SETTLE_MS = 2000  # emulated: after the lift, the bowl reads the prisoners back


@pytest.mark.parametrize("rows, cols", [(2, 16), (4, 15)])
def test_a_big_capture_never_holds_the_scan_two_periods(rows, cols, tmp_path):
    from host_tools.twin import long_game as lg

    plies, config = lg.brisk(big_capture(rows, cols), end_passes=0)
    with lg.Board(str(tmp_path)) as board:
        board.command({"cmd": "ping"})
        board.new_game(config)
        board.looked = len(board.messages)
        board.play(plies[:-1])
        board.command({"cmd": "cpu", "reset": True})
        board.play(plies[-1:])  # the capture: the stone, the press, the prisoners lifted
        board.twin.run_ms(SETTLE_MS)
        cpu = board.command({"cmd": "cpu"})
        moves = board.events("move")
        warnings = board.events("warning") + board.events("alert")
    print(
        "# %d-stone capture: worst scan delay %.1f ms (%s), game task %.1f ms over %d scans"
        % (
            rows * cols,
            cpu["scan_late_max_us"] / 1000,
            cpu["scan_late_task"],
            cpu["tasks"]["game"] / 1000,
            cpu["scans"],
        )
    )
    assert [(m["color"], m["point"]) for m in moves] == [(p.colour, p.name) for p in plies]
    assert len(moves[-1]["captures"]) == rows * cols
    assert warnings == []
    assert cpu["scans"] >= SETTLE_MS // SCAN_MS  # the scan kept its pace
    assert cpu["scan_late_max_us"] <= 2 * SCAN_MS * 1000

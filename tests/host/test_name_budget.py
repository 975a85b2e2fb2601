"""The names the board's code interns stay within the room the app's name pools have.

MicroPython interns each name a module uses when it is imported, in pools on the heap that grow
by one block twice the last one's size (tests/host/test_twin_qstr_pool.py says why a pool added
late in a game is a risk, and measures the pools on the twin). This is the same guard on the
host, in a second: the distinct names in the tables of every .mpy the board gets, as `ingboard
flash` compiles them, within NAME_BUDGET.

How the budget follows from the twin (RPI_PICO v1.28, ROMFS deploy, 2026-11-28): the app as
main.py starts it leaves seven pools, 2540 entries; with every module loaded 2233 are used
(the interpreter's own and the test's names among them), and this count was then 2239. A name
that is new here adds at most one entry there (fewer when the firmware has it built in), so
the 200 entries the twin test keeps free (mqtt_as's names among them) stay free while this
count is at most 2239 + (2540 - 200 - 2233) = 2346.
"""

import os

from host_tools import FIRMWARE, mpy_frames
from host_tools.commands import flash

POOL_ENTRIES = 2540  # the twin's pools once the app has started (seven: 20 x (2**7 - 1))
TWIN_MARGIN = 200  # entries the twin test keeps free with every module loaded
TWIN_USED, HOST_COUNT = 2233, 2239  # the twin's entries then, and this count then
NAME_BUDGET = HOST_COUNT + (POOL_ENTRIES - TWIN_MARGIN - TWIN_USED)


def _board_names(work):
    names = set()
    for board_path, local in flash.build(FIRMWARE, os.path.join(work, "mpy"), "armv6m"):
        if board_path.endswith(".mpy"):
            names |= mpy_frames.interned_names(local)
    return names


def test_the_board_s_code_interns_no_more_names_than_its_pools_hold(tmp_path):
    names = _board_names(str(tmp_path))
    assert (
        "Tracker" in names and "ingboard.records.sgf_record" in names
    )  # the app's own names are counted
    assert len(names) <= NAME_BUDGET, (
        "the board's .mpy files intern %d distinct names (budget %d): with every module loaded "
        "the twin's name pools would come within %d entries of a new pool of ~15 KB, which a "
        "late import (the count, the network) would have to allocate in a fragmented heap; use "
        "fewer distinct names in the rarely loaded modules or names they share"
        % (len(names), NAME_BUDGET, TWIN_MARGIN)
    )

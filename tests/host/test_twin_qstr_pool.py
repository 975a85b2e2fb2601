"""The interned names' pools on the RP2040 (ROMFS deploy): no pool is added after the app starts.

MicroPython interns every name a module's code uses (its qstrs) when the module is imported,
in pools on the heap that never shrink; when the last pool is full the next name allocates a
new pool twice its size in one piece (py/qstr.c, qstr_add: 6 bytes an entry on the rp2 port,
20, 40, ..., 1280 entries). With the code on a ROMFS image the app's own imports leave seven
pools (2540 entries, 15.4 KB); the modules that load later (the end's count and SGF, the
resume after a power cut, the network settings, the menus, the host's rare commands) add their
names to the last one. Should those names ever overflow it, the next pool (2560 entries, one
block of ~15 KB) would be allocated wherever a module loads - late in a long game, in a heap
whose largest free block is ~28 KB - and a MemoryError there would cost the count or the
records. So the test builds the app as main.py does, then imports every module the board gets
and checks that the names of all of them still fit the pools the app started with, with
MARGIN entries to spare (it fails well before the boundary: code that adds names has to make
room first, e.g. fewer distinct names in the rarely used modules, or names they share).
"""

import pytest
from twin_support import require_images

from bench import mcu

pytestmark = pytest.mark.device
require_images("romfs")

# Names that must still fit the app's pools once every module is loaded: a board with network
# settings loads Peter Hinch's mqtt_as at boot (not on the twin's image: mip fetches it from
# GitHub), whose .mpy at the pinned commit (flash.DEPS) has 142 names the board's code does not
# (27 more in its MQTT v5 properties); the rest for code that grows.
MARGIN = 200
FIRST_POOL = 20  # entries of the first pool on the heap (the rp2 image: 2 x 10)
ENTRY_BYTES = 6  # a pointer, a hash byte and a length byte (MICROPY_QSTR_BYTES_IN_HASH 1)
POOL_HEAD = 24  # qstr_pool_t's fields before its entries

PROBE = (
    """
import gc, sys, time, asyncio, micropython"""
    + mcu.APP_AS_MAIN
    + """gc.collect()
print("QSTR app")
micropython.qstr_info()
for name in MODULES:
    if name not in sys.modules:
        __import__(name)
        print("QSTR", name)
        micropython.qstr_info()
print("QSTR done")
micropython.qstr_info()
"""
)


def _pools(n_pool):
    """Entries and heap bytes (16-byte GC blocks) of the first n_pool pools."""
    entries = [FIRST_POOL << k for k in range(n_pool)]
    heap = sum((POOL_HEAD + ENTRY_BYTES * n + 15) // 16 * 16 for n in entries)
    return sum(entries), heap


def _readings(out):
    """[(step, {"n_pool":, "n_qstr":, "n_str_data_bytes":, "n_total_bytes":})] in order."""
    steps = []
    for line in out.splitlines():
        if line.startswith("QSTR "):
            steps.append([line[5:].strip(), None])
        elif line.startswith("qstr pool:") and steps:
            fields = line.split(":", 1)[1].split(",")
            steps[-1][1] = {k.strip(): int(v) for k, v in (f.split("=") for f in fields)}
    return steps


def _modules(files):
    """Module names of the board's .mpy files ("/ingboard/app/app.mpy" -> ingboard.app.app)."""
    out = []
    for board_path, _local in files:
        if board_path.endswith(".mpy"):
            name = board_path.strip("/")[: -len(".mpy")].replace("/", ".")
            if name.endswith(".__init__"):
                name = name[: -len(".__init__")]
            out.append(name)
    return sorted(out)


def test_every_module_s_names_fit_the_pools_the_app_starts_with(tmp_path):
    from host_tools import FIRMWARE
    from host_tools.commands import flash

    files = flash.build(FIRMWARE, str(tmp_path / "mpy"), "armv6m")
    romfs = str(tmp_path / "ingboard.romfs")
    with open(romfs, "wb") as f:
        f.write(flash.romfs_image(files, str(tmp_path)))
    modules = _modules(files)
    # The drivers' probe runs only from the host's `bringup` (it is the board's own code
    # there); every other module the board gets is imported.
    modules = [m for m in modules if m != "ingboard.drivers.probe"]
    assert "ingboard.records.sgf_record" in modules and "ingrules.scoring" in modules
    with mcu._app_twin(romfs) as twin:
        out = twin.exec(PROBE.replace("MODULES", repr(modules)), max_ms=600000)
    steps = _readings(out)
    assert steps and steps[0][0] == "app" and steps[-1][0] == "done", out[-2000:]
    app = steps[0][1]
    done = steps[-1][1]
    entries, heap = _pools(app["n_pool"])
    # The pools' model (sizes doubling from FIRST_POOL) is the one the image has: their heap.
    assert app["n_total_bytes"] - app["n_str_data_bytes"] == heap, app
    grew = [(name, r["n_pool"]) for name, r in steps if r["n_pool"] != app["n_pool"]]
    assert not grew, "a pool was added after the app started, at %s" % grew
    left = entries - done["n_qstr"]
    assert left >= MARGIN, (
        "every module loaded leaves %d of the app's %d name entries free (< %d): the next "
        "pool (%d entries, %d bytes in one block) is near"
        % (left, entries, MARGIN, FIRST_POOL << app["n_pool"], _pools(app["n_pool"] + 1)[1] - heap)
    )

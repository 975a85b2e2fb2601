"""`ingboard flash`, `monitor` and `pull` against the device twin, as against a board (issue 17,
item 2): the .mpy go onto littlefs of the stock MicroPython 1.28 (its .mpy ABI is checked, not
its release; the app then stops at start, out of heap, and flash says so), or into the ROMFS
partition with --romfs; the app then starts and talks."""

import json

import pytest
from twin_support import Serving, ingboard, require_images

from host_tools.twin.process import Twin

require_images("stock")
# Minutes of emulation each: `make test-device` (CI runs it), not `make test`.
pytestmark = pytest.mark.device
require_images("romfs")


@pytest.fixture(scope="module")
def romfs_twin():
    with Twin("romfs") as twin:
        yield twin


def test_flash_romfs_then_the_app_runs_and_monitor_hears_it(romfs_twin):
    with Serving(romfs_twin) as port:
        flashed = ingboard("flash", "--port", port, "--romfs", "--start-timeout", "600")
        assert flashed.returncode == 0, flashed.stderr
        assert "(compiled .mpy, ROMFS) on MicroPython 1.28.0 (rp2)" in flashed.stdout
        heard = ingboard("monitor", "--port", port, "--json", "--count", "1", timeout=300)
    assert heard.returncode == 0, heard.stderr
    event = json.loads(heard.stdout.strip().splitlines()[-1])
    # No load cells are attached to this twin: the app says so, and goes on.
    assert event["type"] == "alert" and event["code"] == "sensor-fault"
    where = romfs_twin.exec("import ingboard\nprint(ingboard.__file__)").strip()
    assert where == "/rom/ingboard/__init__.mpy"


def test_pull_copies_a_finished_game_off_the_twin(romfs_twin, tmp_path):
    sgf = "(;GM[1]FF[4]SZ[19]KM[8]RU[ing1996];B[pd];W[dp])"
    romfs_twin.exec(
        "import os\ntry:\n os.mkdir('/games')\nexcept OSError:\n pass\n"
        "f = open('/games/0001.sgf', 'w')\nf.write(%r)\nf.close()" % sgf
    )
    with Serving(romfs_twin) as port:
        pulled = ingboard("pull", "--port", port, "--dest", str(tmp_path))
    assert pulled.returncode == 0, pulled.stderr
    assert (tmp_path / "games" / "0001.sgf").read_text() == sgf
    assert "1 files copied" in pulled.stdout


def test_flash_mpy_onto_littlefs_of_stock_micropython_1_28_warns_the_rp2040_needs_its_build():
    # The stock RP2040 image copies the code of every .mpy it imports into its heap
    # (docs/flashing.md): flash installs and verifies every module (each room in a fresh
    # interpreter) and restarts the app. Its start fits (rarely used code is loaded on first
    # use); a whole game does not, so flash names the builds that run the code from flash -
    # or, if main.py stopped at start, says so in the board's words.
    with Twin("stock") as twin:
        with Serving(twin) as port:
            flashed = ingboard("flash", "--port", port, "--start-timeout", "600")
        assert "copied" in flashed.stdout
        assert "ingboard flash --frozen" in flashed.stderr, flashed.stdout + flashed.stderr
        if flashed.returncode == 0:
            assert "app started" in flashed.stdout
            assert "warning: the app started, but on the RP2040" in flashed.stderr
        else:
            assert flashed.returncode == 1
            assert "main.py stopped at start: MemoryError" in flashed.stderr
        # Nothing flashed is undone: the board keeps the verified files.
        for _ in range(20):
            twin.take_output()
            twin.write(b"\r\x03\x03")
            twin.run_ms(500)
            if b">>> " in twin.output:
                break
        files = twin.exec("import os\nprint(len(os.listdir('/ingboard/tracking')))")
        assert int(files) > 10

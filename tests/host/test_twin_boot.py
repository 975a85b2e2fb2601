"""The device twin boots the real MicroPython rp2 firmware; its flash persists; mpremote talks to
it through the pseudo-terminal (issue 17, items 1)."""

import os
import subprocess
import sys

import pytest
from twin_support import require_images

from host_tools.device import DeviceError
from host_tools.twin.process import Twin
from host_tools.twin.pty_bridge import PtyBridge

require_images()

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


@pytest.fixture(scope="module")
def twin():
    with Twin() as t:
        yield t


def test_boots_to_the_repl_of_the_rp2_port(twin):
    out = twin.exec("import sys\nprint(sys.platform, sys.implementation._mpy)")
    assert out.split() == ["rp2", "4870"]


def test_exception_on_the_device_is_a_device_error(twin):
    with pytest.raises(DeviceError, match="ZeroDivisionError"):
        twin.exec("1/0")


def test_emulated_time_advances_only_when_run(twin):
    before = twin.status()["us"]
    assert twin.status()["us"] == before
    after = twin.run_ms(50)["us"]
    assert after == pytest.approx(before + 50000)
    ms = twin.exec("import time\nt=time.ticks_ms()\ntime.sleep_ms(30)\nprint(time.ticks_ms()-t)")
    assert 30 <= int(ms) <= 32


def test_littlefs_writes_persist_in_the_flash_image(tmp_path):
    image = str(tmp_path / "flash.bin")
    with Twin() as t:
        writes = t.status()["flash_writes"]
        t.exec("f = open('/note.txt', 'w')\nf.write('kept ' * 300)\nf.close()")
        assert t.status()["flash_writes"] > writes  # erases and programs reached the chip
        t.save_flash(image)
    assert os.path.getsize(image) == 2 * 1024 * 1024
    with Twin(flash_image=image) as t:
        assert t.exec("print(open('/note.txt').read() == 'kept ' * 300)").strip() == "True"


def test_mpremote_over_the_pseudo_terminal(twin, tmp_path):
    local = tmp_path / "data.bin"
    local.write_bytes(bytes(range(256)) * 20)
    bridge = PtyBridge(twin).start()
    twin.go(realtime=False)
    try:
        run = subprocess.run(
            [MPREMOTE, "connect", bridge.path, "fs", "cp", str(local), ":data.bin", "+"]
            + ["exec", "import os; print(os.stat('/data.bin')[6])"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        twin.pause()
        bridge.close()
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "5120"
    assert twin.exec("print(open('/data.bin','rb').read() == bytes(range(256)) * 20)").strip() == (
        "True"
    )


def test_missing_images_are_one_clear_line(tmp_path, monkeypatch):
    from host_tools.twin import images

    monkeypatch.setenv("INGBOARD_MCU_DIR", str(tmp_path))
    with pytest.raises(images.ImagesMissing) as exc:
        images.find("stock")
    text = str(exc.value)
    assert "\n" not in text and "INGBOARD_MCU_DIR" in text and "v1.28.0" in text

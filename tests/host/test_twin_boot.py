"""The device twin boots the real MicroPython rp2 firmware; its flash persists; mpremote talks to
it through the pseudo-terminal (issue 17, items 1)."""

import os
import subprocess
import sys

import pytest
from twin_support import require_images

from host_tools.device import DeviceError
from host_tools.twin.process import PowerCut, Twin
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


def test_power_cut_stops_the_machine_before_the_chosen_flash_write(tmp_path):
    with Twin() as t:
        base = t.status()["flash_writes"]
        t.cut_at_write(base + 3)
        with pytest.raises(PowerCut, match="before flash write %d" % (base + 3)):
            t.exec("f = open('/cut.txt', 'w')\nf.write('x' * 9000)\nf.close()")
        state = t.status()
        assert state["flash_writes"] == base + 3 and state["stopped"]
        with pytest.raises(PowerCut):
            t.run_ms(10)  # no power: nothing runs any more
        assert t.status()["us"] == state["us"]
        t.save_flash(str(tmp_path / "cut.bin"))
    with Twin(flash_image=str(tmp_path / "cut.bin")) as t:
        # littlefs never committed the file: it is not there (or empty), and the fs works.
        listing = t.exec("import os\nprint(os.listdir('/'))")
        assert "cut.txt" not in listing or t.exec("print(len(open('/cut.txt').read()))") == "0\n"
        t.exec("f = open('/after.txt', 'w')\nf.write('ok')\nf.close()")
        assert t.exec("print(open('/after.txt').read())") == "ok\n"


def test_a_recorded_run_rebuilds_the_flash_of_a_cut_at_any_write(tmp_path):
    code = "f = open('/r.txt', 'w')\nf.write('y' * 9000)\nf.close()"
    with Twin() as t:
        t.record_writes(True)
        t.exec(code)
        first = t.status()["first_logged"]
        t.save_flash_before(first + 3, str(tmp_path / "rebuilt.bin"))
    with Twin() as t:
        t.cut_at_write(first + 3)
        with pytest.raises(PowerCut):
            t.exec(code)
        t.save_flash(str(tmp_path / "cut.bin"))
    assert (tmp_path / "rebuilt.bin").read_bytes() == (tmp_path / "cut.bin").read_bytes()


def test_ingboard_twin_serves_a_pty_and_keeps_the_flash_across_sessions(tmp_path):
    import signal

    link, image = str(tmp_path / "port"), str(tmp_path / "flash.bin")
    exe = os.path.join(os.path.dirname(sys.executable), "ingboard")
    proc = subprocess.Popen(
        [exe, "twin", "--link", link, "--flash-image", image],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = proc.stdout.readline()
        assert "on %s" % link in banner and "Ctrl-C stops" in banner
        wrote = subprocess.run(
            [
                MPREMOTE,
                "connect",
                link,
                "exec",
                "f = open('/k.txt', 'w'); f.write('kept'); f.close()",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert wrote.returncode == 0, wrote.stderr
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "flash saved to %s" % image in out and not os.path.exists(link)
    with Twin(flash_image=image) as t:
        assert t.exec("print(open('/k.txt').read())") == "kept\n"

"""Entering the board's raw REPL through mpremote's serial transport, on a pseudo-terminal
played by a small MicroPython REPL stand-in: a Ctrl-C lost while the board resets must not hang
the host tool for ever (it hung a whole CI run), a silent port gives a clear error in bounded
time, and the soft reset leaves the raw REPL's '>' prompt for mpremote to read."""

import os
import pty
import select
import threading
import time
import tty

import pytest

from host_tools import device
from host_tools.errors import InputError

BANNER = b"raw REPL; CTRL-B to exit\r\n>"


class ReplOnPty:
    """Answers Ctrl-A with the raw REPL banner, except the first `lose` times (bytes lost while
    the board re-enumerates its USB); Ctrl-D in the raw REPL soft-resets."""

    def __init__(self, lose=0, silent=False):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.lose = lose
        self.silent = silent
        self.ctrl_a = 0
        self.raw = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            for byte in data:
                if self.silent:
                    continue
                if byte == 0x01:
                    self.ctrl_a += 1
                    if self.ctrl_a > self.lose:
                        self.raw = True
                        os.write(self.master, b"\r\n" + BANNER)
                elif byte == 0x04 and self.raw:
                    os.write(self.master, b"OK\r\nMPY: soft reboot\r\n" + BANNER)
                elif byte == 0x03:
                    os.write(self.master, b"\r\nKeyboardInterrupt: \r\n>>> ")

    def close(self):
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self.master, self.slave):
            os.close(fd)


@pytest.fixture
def repl_factory():
    made = []

    def make(**kwargs):
        repl = ReplOnPty(**kwargs)
        made.append(repl)
        return repl

    yield make
    for repl in made:
        repl.close()


def _next_byte(dev, timeout_s=2.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if dev._t.serial.in_waiting:
            return dev._t.serial.read(1)
        time.sleep(0.01)
    return b""


def test_a_lost_ctrl_a_is_sent_again_and_the_raw_repl_is_entered(repl_factory):
    repl = repl_factory(lose=1)
    dev = device.MpremoteDevice(repl.path)
    try:
        dev._raw(attempts=3, wait_s=2.0)
        assert dev._t.in_raw_repl
        assert repl.ctrl_a == 2
        assert _next_byte(dev) == b">"  # left for mpremote's next command
    finally:
        dev.close()


def test_a_silent_port_is_a_clear_error_in_bounded_time(repl_factory):
    repl = repl_factory(silent=True)
    dev = device.MpremoteDevice(repl.path)
    started = time.monotonic()
    try:
        with pytest.raises(InputError, match="no MicroPython REPL answered in 2 tries"):
            dev._raw(attempts=2, wait_s=0.3)
    finally:
        dev.close()
    assert time.monotonic() - started < 5


def test_soft_reset_reboots_in_the_raw_repl_and_leaves_its_prompt(repl_factory):
    repl = repl_factory()
    dev = device.MpremoteDevice(repl.path)
    try:
        dev.soft_reset()
        assert dev._t.in_raw_repl and repl.raw
        assert _next_byte(dev) == b">"
    finally:
        dev.close()

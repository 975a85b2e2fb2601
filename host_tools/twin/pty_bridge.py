"""The twin's USB serial as a pseudo-terminal, so mpremote and `ingboard flash/pull/monitor` open
it like a board's /dev/ttyACM0.

node cannot make a pty, so this side (Python's `pty`) owns it and relays bytes: what a program
writes to the pty goes to the twin's USB input, what the device sends is written to the pty.
The bridge keeps the terminal end open itself (raw mode, no echo), so programs can open and
close it at will; device output that nobody reads is dropped once the pty's buffer is full, as
a board's output is lost while no program has its port open.
"""

import errno
import os
import pty
import select
import threading
import tty


class PtyBridge:
    def __init__(self, twin):
        self.twin = twin
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        os.set_blocking(self.master, False)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay_host_to_device, daemon=True)
        twin.on_serial = self._device_to_host

    def start(self):
        self._thread.start()
        return self

    def _device_to_host(self, data):
        while data:
            try:
                n = os.write(self.master, data)
            except BlockingIOError:
                return  # nobody reads the pty: dropped
            except OSError:
                return
            data = data[n:]

    def _relay_host_to_device(self):
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except BlockingIOError:
                continue
            except OSError as exc:
                if exc.errno == errno.EIO:
                    continue
                raise
            if data:
                try:
                    self.twin.write(data)
                except Exception:  # the twin is gone: nothing more to relay
                    return

    def close(self):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.twin.on_serial = None
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

"""`Twin`: the device twin from Python (tests, `ingboard twin`, benchmarks).

    with Twin() as twin:                  # boots MicroPython; the REPL is ready
        twin.exec("print(1)")             # -> "1\\n" (raw REPL; DeviceError on an exception)
        twin.run_ms(100)                  # advance emulated time
        twin.cut_at_write(n)              # power cut before flash write n (counted from boot)
        twin.save_flash(path)             # the 2 MiB flash image; Twin(flash_image=path) boots it

`Twin("romfs", romfs_image=F)` also writes the ROMFS image F into the partition before boot
(as a programmer would), e.g. one made by `host_tools.commands.flash.romfs_image`.

Emulated time advances only inside `run_ms`, `exec`, `read_until` (lock-step: what the twin
does is a function of the inputs alone) or between `go()` and `pause()` (free running, for a
pseudo-terminal). Serial output collects in `output` (bytes; `take_output()` empties it).
`stopped` is the reason once the power has been cut; the flash then stays as it was at the
cut, ready to be saved and booted again.
"""

import base64
import json
import os
import queue
import shutil
import subprocess
import threading

from host_tools import ROOT
from host_tools.device import DeviceError
from host_tools.twin import images

SERVER = os.path.join(ROOT, "host_tools", "twin", "server.mjs")
BOOT_MS = 400  # emulated; MicroPython reaches its prompt in ~15 ms, a fresh littlefs in more
STEP_MS = 5
RAW_REPL_MS = 10000  # emulated: how long the raw REPL may take to answer


class TwinError(DeviceError):
    """The twin process failed or answered with an error."""


class PowerCut(TwinError):
    """The power was cut (as requested) before the twin finished what it was asked."""


class Twin:
    def __init__(self, image="stock", flash_image=None, romfs_image=None, boot=True):
        self.bootrom, self.uf2 = images.find(image)
        self.flash_image = flash_image
        self.romfs_image = romfs_image  # a file written into the ROMFS partition (0x60000)
        self.boot = boot
        self.proc = None
        self.output = bytearray()
        self.stopped = None
        self.on_serial = None  # called with each chunk of device output (pty bridge)
        self._replies = queue.Queue()
        self._cond = threading.Condition()
        self._next_id = 0
        self._lock = threading.Lock()  # one request at a time (the pty bridge has a thread)
        self._stderr = []

    # -- process ------------------------------------------------------------------------

    def start(self):
        if shutil.which("node") is None:
            raise TwinError("node is not installed; run `make setup`")
        cmd = ["node", SERVER, "--bootrom", self.bootrom, "--uf2", self.uf2]
        if self.flash_image:
            cmd += ["--flash-image", self.flash_image]
        if self.romfs_image:
            cmd += ["--romfs-image", self.romfs_image]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            start_new_session=True,  # Ctrl-C is for this process, which then stops the twin
        )
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        ready = self._reply()
        if ready.get("event") != "ready":
            raise TwinError("the twin did not start: %s" % ready)
        if self.boot:
            self.wait_for_prompt()
        return self

    def close(self):
        if self.proc is None:
            return
        try:
            self._send({"cmd": "quit"})
            self.proc.wait(timeout=10)
        except (OSError, ValueError, subprocess.TimeoutExpired, TwinError):
            self.proc.kill()
            self.proc.wait()
        finally:
            self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def _read_stdout(self):
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            event = msg.get("event")
            if event == "serial":
                data = base64.b64decode(msg["data"])
                with self._cond:
                    self.output += data
                    self._cond.notify_all()
                if self.on_serial:
                    self.on_serial(data)
            elif event == "stopped":
                self.stopped = msg.get("reason")
                with self._cond:
                    self._cond.notify_all()
            else:
                self._replies.put(msg)
        self._replies.put({"event": "exit"})

    def _read_stderr(self):
        for line in self.proc.stderr:
            self._stderr.append(line.decode("utf-8", "replace").rstrip())
            del self._stderr[:-20]

    def _reply(self, timeout=600):
        try:
            msg = self._replies.get(timeout=timeout)
        except queue.Empty:
            raise TwinError("the twin process did not answer in %d s" % timeout) from None
        if msg.get("event") == "exit":
            raise TwinError("the twin process ended: %s" % " | ".join(self._stderr[-3:]))
        return msg

    def _send(self, request):
        with self._lock:
            return self._send_locked(request)

    def _send_locked(self, request):
        if self.proc is None:
            raise TwinError("the twin is not running")
        self._next_id += 1
        request["id"] = self._next_id
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise TwinError(
                "the twin process is gone: %s" % " | ".join(self._stderr[-5:])
            ) from None
        reply = self._reply()
        if "error" in reply:
            raise TwinError("twin: %s" % reply["error"])
        if reply.get("stopped"):
            self.stopped = reply["stopped"]
        return reply

    # -- time and state -----------------------------------------------------------------

    def run_ms(self, ms):
        """Advance emulated time by `ms`; the state afterwards ({us, cycles, flash_writes,
        flash_erases}). PowerCut once the power has been cut (during this run or before)."""
        state = self._send({"cmd": "run", "ms": ms})
        if state.get("stopped"):
            raise PowerCut(state["stopped"])
        return state

    def status(self):
        return self._send({"cmd": "status"})

    def go(self, realtime=False):
        """Run freely (in the background) until pause(); realtime: never ahead of the wall."""
        return self._send({"cmd": "go", "realtime": bool(realtime)})

    def pause(self):
        return self._send({"cmd": "pause"})

    # -- serial -------------------------------------------------------------------------

    def write(self, data):
        """Bytes to the device's USB serial input."""
        if isinstance(data, str):
            data = data.encode()
        self._send({"cmd": "write", "data": base64.b64encode(bytes(data)).decode()})

    def take_output(self):
        with self._cond:
            data = bytes(self.output)
            self.output.clear()
        return data

    def read_until(self, marker, max_ms=2000, step_ms=STEP_MS):
        """Run in steps until `marker` (bytes) is in the output; returns the output up to and
        including it (and leaves the rest). PowerCut / TwinError when it never comes."""
        waited = 0
        while True:
            with self._cond:
                at = self.output.find(marker)
                if at >= 0:
                    data = bytes(self.output[: at + len(marker)])
                    del self.output[: at + len(marker)]
                    return data
            if self.stopped:
                raise PowerCut(self.stopped)
            if waited >= max_ms:
                raise TwinError(
                    "no %r from the twin in %d emulated ms (got %r)"
                    % (marker, max_ms, bytes(self.output[-200:]))
                )
            self.run_ms(step_ms)
            waited += step_ms

    def wait_for_prompt(self, max_ms=BOOT_MS):
        """Boot (or soft reset) until the friendly REPL's prompt; returns what came before."""
        self.write(b"\r")
        return self.read_until(b">>> ", max_ms)

    def exec(self, code, max_ms=10000):
        """Run `code` through the raw REPL; its output (str). DeviceError on an exception."""
        self.write(b"\r\x03\x03")
        self.run_ms(STEP_MS)
        self.take_output()
        self.write(b"\x01")
        # A program busy importing may take a while to see the Ctrl-C (as on a board).
        self.read_until(b"raw REPL; CTRL-B to exit\r\n>", RAW_REPL_MS)
        self.write(code.encode() + b"\x04")
        self.read_until(b"OK", RAW_REPL_MS)
        out = self.read_until(b"\x04", max_ms)[:-1]
        err = self.read_until(b"\x04>", max_ms)[:-2]
        self.write(b"\x02")
        self.read_until(b">>> ", RAW_REPL_MS)
        if err:
            lines = [ln for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()]
            raise DeviceError(lines[-1].strip() if lines else "error")
        return out.decode("utf-8", "replace").replace("\r\n", "\n")

    # -- flash and power ------------------------------------------------------------------

    def save_flash(self, path):
        self._send({"cmd": "save_flash", "path": os.path.abspath(path)})

    def cut_at_write(self, n):
        """Cut the power before flash write n (erase or page program, counted from boot)."""
        return self._send({"cmd": "cut", "write": int(n)})

    def cut_at_cycle(self, n):
        """Cut the power when the CPU reaches cycle n (counted from boot)."""
        return self._send({"cmd": "cut", "cycle": int(n)})

    def cut_at_write_after(self, us):
        """Cut the power at the first flash write once emulated time has passed `us` (the
        power fails while the device writes)."""
        return self._send({"cmd": "cut", "write_after_us": us})

    def record_writes(self, on=True):
        """Record every flash write from now on: status()["write_log"] lists them ([kind,
        address, length, µs]; the first has index status()["first_logged"]), and
        save_flash_before(n, path) rebuilds the flash a power cut before write n leaves. The
        emulator is deterministic, so one uncut run gives the cut at every write."""
        return self._send({"cmd": "write_log", "on": bool(on)})

    def save_flash_before(self, index, path):
        """The flash as a power cut just before (recorded) write `index` would leave it."""
        self._send(
            {"cmd": "save_flash_before", "write": int(index), "path": os.path.abspath(path)}
        )

    # -- hardware models (host_tools/twin/board.mjs) ---------------------------------------

    def load_model(self, path, **options):
        return self._send({"cmd": "load_model", "path": os.path.abspath(path), "options": options})

    def model(self, name, **args):
        return self._send({"cmd": "model", "name": name, "args": args}).get("result")

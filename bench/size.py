"""Size: the total of the .mpy files mpy-cross makes of every file under firmware/."""

import tempfile

from bench import KB, BenchError, Figure
from host_tools import firmware_build

GOAL_KB = 120


def measure(log=print):
    with tempfile.TemporaryDirectory(prefix="ingboard-bench-mpy-") as tmp:
        try:
            sizes = firmware_build.compile_firmware(out_dir=tmp)
        except firmware_build.CompileError as exc:
            raise BenchError(str(exc)) from None
    total = sum(size for _rel, size in sizes)
    largest = sorted(sizes, key=lambda s: -s[1])[:3]
    log(
        "# size: %d firmware files through mpy-cross, %d bytes; largest: %s"
        % (len(sizes), total, ", ".join("%s %d" % s for s in largest))
    )
    return [Figure("mpy_total", total / KB, "KB", ("<=", GOAL_KB))]

"""Size: the total of the .mpy files mpy-cross makes of what `ingboard flash` puts on the board:
the packages (ingboard, ingrules) and main.py - not the rules package's own tests, which live
under firmware/rules/ but never go to a board. Compiled as `ingboard flash` compiles them for the
stock image's file system (flash.LITTLEFS_OPT, -O3: no line numbers, no asserts), the deploy
where the loaded code is heap; every module is counted, also those the app imports only when
needed (their code is heap while they are loaded)."""

import tempfile

from bench import KB, BenchError, Figure
from host_tools import firmware_build

GOAL_KB = 120


def measure(log=print):
    from host_tools.commands import flash

    with tempfile.TemporaryDirectory(prefix="ingboard-bench-mpy-") as tmp:
        try:
            sizes = firmware_build.compile_firmware(out_dir=tmp, extra_args=[flash.LITTLEFS_OPT])
        except firmware_build.CompileError as exc:
            raise BenchError(str(exc)) from None

    board = set(flash.package_sources(firmware_build.FIRMWARE)) | {flash.ENTRY}
    sizes = [(rel, size) for rel, size in sizes if rel in board]
    if not sizes:
        raise BenchError("none of the compiled files is one `ingboard flash` installs")
    total = sum(size for _rel, size in sizes)
    largest = sorted(sizes, key=lambda s: -s[1])[:3]
    log(
        "# size: %d files the board gets, through mpy-cross %s, %d bytes; largest: %s"
        % (len(sizes), flash.LITTLEFS_OPT, total, ", ".join("%s %d" % s for s in largest))
    )
    return [Figure("mpy_total", total / KB, "KB", ("<=", GOAL_KB))]

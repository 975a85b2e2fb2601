"""`make firmware MICROPYTHON=<checkout>`: MicroPython's rp2 firmware for a Raspberry Pi Pico
(RP2040) with ingboard and ingrules frozen in (board definition `boards/INGBOARD_PICO/`).

On the RP2040 the app needs its code in flash: as .mpy on littlefs MicroPython copies it into
the 240 KB heap and too little is left to play a full game (README, "Flashing a real board").
This builds the same MicroPython the device twin's images are (v1.28.0; `REQUIRED`), from a
checkout with its submodules lib/pico-sdk, lib/tinyusb, lib/micropython-lib and lib/mbedtls,
with the toolchain from `host_tools/setup/firmware_toolchain.sh`, and writes

    build/firmware/ingboard-RPI_PICO.uf2    the image to copy onto the Pico in BOOTSEL mode
    build/firmware/ingboard-RPI_PICO.json   what it was built from (`stamp`)

`python -m host_tools.firmware_image --micropython DIR [--picotool DIR] [--jobs N] [--check]`
(`--check`: only the checkout, as make does before the toolchain). pico-sdk 2 converts the
ELF with picotool and downloads it when none is installed; `--picotool` (make's PICOTOOL=)
names an installed one (its prefix, or the folder of picotoolConfig.cmake) for machines
without internet. Bad input (no checkout, another version, a missing submodule) is one
line on stderr and exit 2, before anything is built.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from host_tools import FIRMWARE, ROOT
from host_tools.errors import InputError

REQUIRED = (1, 28, 0)  # the MicroPython of the twin's images (host_tools/twin/images.py)
BOARD = "INGBOARD_PICO"
BOARD_DIR = os.path.join(ROOT, "boards", BOARD)
OUT_DIR = os.path.join(ROOT, "build", "firmware")
IMAGE = os.path.join(OUT_DIR, "ingboard-RPI_PICO.uf2")
STAMP = os.path.join(OUT_DIR, "ingboard-RPI_PICO.json")
# What must be in the checkout (a git clone after `make -C ports/rp2 submodules`, or an archive
# of the tag with the submodules' trees at the commits it records).
SUBMODULES = (
    ("lib/pico-sdk", "pico_sdk_version.cmake"),
    ("lib/tinyusb", "src/tusb.h"),
    ("lib/micropython-lib", "micropython/bundles"),
    ("lib/mbedtls", "library/aes.c"),
)


def checkout_version(mp_dir):
    """(major, minor, micro, prerelease) of the MicroPython sources in mp_dir (py/mpconfig.h)."""
    path = os.path.join(mp_dir, "py", "mpconfig.h")
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise InputError("%s is not a MicroPython checkout (no py/mpconfig.h)" % mp_dir) from None
    parts = []
    for name in ("MAJOR", "MINOR", "MICRO", "PRERELEASE"):
        m = re.search(r"#define MICROPY_VERSION_%s (\d+)" % name, text)
        if not m:
            raise InputError("%s: no MICROPY_VERSION_%s" % (path, name))
        parts.append(int(m.group(1)))
    return tuple(parts)


def check_checkout(mp_dir):
    """InputError unless mp_dir is MicroPython REQUIRED with the rp2 port's submodules."""
    if not mp_dir:
        raise InputError(
            "set MICROPYTHON to a MicroPython v%d.%d.%d checkout "
            "(git clone -b v%d.%d.%d https://github.com/micropython/micropython, then "
            "make -C micropython/ports/rp2 submodules)" % (REQUIRED + REQUIRED)
        )
    version = checkout_version(mp_dir)
    if version[:3] != REQUIRED or version[3]:
        raise InputError(
            "%s is MicroPython %d.%d.%d%s; the firmware is built from v%d.%d.%d, the version "
            "the device twin runs (git checkout v%d.%d.%d, then make -C ports/rp2 submodules)"
            % ((mp_dir,) + version[:3] + ("-preview" if version[3] else "",) + REQUIRED + REQUIRED)
        )
    if not os.path.isdir(os.path.join(mp_dir, "ports", "rp2")):
        raise InputError("%s has no ports/rp2" % mp_dir)
    missing = [
        sub for sub, probe in SUBMODULES if not os.path.exists(os.path.join(mp_dir, sub, probe))
    ]
    if missing:
        raise InputError(
            "%s: submodule%s %s missing (make -C %s/ports/rp2 submodules)"
            % (mp_dir, "s" if len(missing) > 1 else "", ", ".join(missing), mp_dir)
        )


def picotool_config_dir(path):
    """The folder holding picotoolConfig.cmake under `path` (an install prefix or that folder)."""
    for candidate in (path, os.path.join(path, "lib", "cmake", "picotool")):
        if os.path.isfile(os.path.join(candidate, "picotoolConfig.cmake")):
            return os.path.abspath(candidate)
    raise InputError("%s: no picotoolConfig.cmake (give picotool's install prefix)" % path)


def frozen_sources(firmware_dir=FIRMWARE):
    """[(path relative to the repository, bytes)] of everything the frozen packages come from:
    the two packages, both manifests and the board definition."""
    from host_tools.commands import flash

    rels = ["firmware/" + rel for rel in flash.package_sources(firmware_dir, board_only=False)]
    rels += ["manifest.py", "firmware/rules/manifest.py"]
    rels += ["boards/%s/%s" % (BOARD, name) for name in sorted(os.listdir(BOARD_DIR))]
    out = []
    for rel in sorted(rels):
        with open(os.path.join(ROOT, rel), "rb") as f:
            out.append((rel, f.read()))
    return out


def sources_digest(firmware_dir=FIRMWARE):
    """sha256 over frozen_sources: the stamp's `sources`, compared by the twin's tests."""
    h = hashlib.sha256()
    for rel, data in frozen_sources(firmware_dir):
        h.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def stamp(version):
    return {
        "board": BOARD,
        "micropython": "%d.%d.%d" % version[:3],
        "sources": sources_digest(),
    }


def read_stamp(path=STAMP):
    """The stamp beside a built image, or None."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def build(mp_dir, picotool=None, jobs=2):
    """Build the image; returns its path. Raises InputError on bad input,
    subprocess.CalledProcessError when the build fails."""
    check_checkout(mp_dir)
    mp_dir = os.path.abspath(mp_dir)
    env = dict(os.environ)
    if picotool:
        # ports/rp2/Makefile appends its board arguments to CMAKE_ARGS from the environment.
        env["CMAKE_ARGS"] = (env.get("CMAKE_ARGS", "") + " -Dpicotool_DIR=%s" % (
            picotool_config_dir(picotool))).strip()  # fmt: skip
    for tool in ("arm-none-eabi-gcc", "cmake", "make", "cc"):
        if not shutil.which(tool):
            raise InputError("%s not found: sh host_tools/setup/firmware_toolchain.sh" % tool)
    build_dir = os.path.join(OUT_DIR, "build-" + BOARD)
    # mpy-cross (which freezes the packages) first, on its own: inside the port's build, make
    # would hand it the port's BUILD folder.
    subprocess.run(["make", "-C", os.path.join(mp_dir, "mpy-cross"), "-j%d" % jobs], check=True)
    env["MICROPY_MPYCROSS"] = os.path.join(mp_dir, "mpy-cross", "build", "mpy-cross")
    subprocess.run(
        [
            "make",
            "-C",
            os.path.join(mp_dir, "ports", "rp2"),
            "BOARD_DIR=" + BOARD_DIR,
            "BUILD=" + build_dir,
            "-j%d" % jobs,
        ],
        env=env,
        check=True,
    )
    os.makedirs(OUT_DIR, exist_ok=True)
    shutil.copyfile(os.path.join(build_dir, "firmware.uf2"), IMAGE)
    with open(STAMP, "w") as f:
        json.dump(stamp(checkout_version(mp_dir)), f, indent=1)
        f.write("\n")
    return IMAGE


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m host_tools.firmware_image", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--micropython", default=os.environ.get("MICROPYTHON", ""))
    parser.add_argument("--picotool", default=os.environ.get("PICOTOOL", ""))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--check", action="store_true", help="only check the checkout (before the toolchain)"
    )
    args = parser.parse_args(argv)
    try:
        if args.check:
            check_checkout(args.micropython)
            return 0
        path = build(args.micropython, args.picotool or None, args.jobs)
    except InputError as exc:
        print("make firmware: %s" % exc, file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as exc:
        print("make firmware: the build failed (%s)" % exc, file=sys.stderr)
        return 1
    size = os.path.getsize(path)
    print(
        "wrote %s (%d KB): MicroPython %d.%d.%d with ingboard frozen in; hold BOOTSEL while "
        "plugging the Pico in, copy the file onto its RPI-RP2 drive, then "
        "`ingboard flash --frozen --port <its serial port>`" % ((path, size // 1024) + REQUIRED)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

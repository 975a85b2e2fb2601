"""Where the twin's firmware images and the RP2040 boot ROM are.

They are not part of this repository. `$INGBOARD_MCU_DIR` names their directory; without it,
`../shared/mcu` beside the repository. `find(image)` returns (boot ROM path, UF2 path) or
raises `ImagesMissing` with one line saying how to obtain them.
"""

import os

from host_tools import ROOT
from host_tools.errors import InputError

ENV = "INGBOARD_MCU_DIR"
BOOTROM = "rp2040-bootrom-b1.bin"
IMAGES = {
    "stock": "micropython-v1.28.0-RPI_PICO.uf2",
    "romfs": "micropython-v1.28.0-RPI_PICO_ROMFS.uf2",
}
HOW_TO_GET = {
    "stock": "MicroPython's official RPI_PICO v1.28.0 download from micropython.org",
    "romfs": "MicroPython v1.28.0 built for RPI_PICO with MICROPY_HW_ROMFS_BYTES=262144",
}


class ImagesMissing(InputError):
    pass


def mcu_dir():
    return os.environ.get(ENV) or os.path.normpath(os.path.join(ROOT, "..", "shared", "mcu"))


def find(image="stock"):
    """(boot ROM, UF2) paths for `image` ("stock", "romfs" or a .uf2 path)."""
    where = mcu_dir()
    if image in IMAGES:
        uf2 = os.path.join(where, IMAGES[image])
        how = "%s as %s" % (HOW_TO_GET[image], IMAGES[image])
    else:
        uf2 = image
        how = "an existing .uf2 file"
    bootrom = os.path.join(where, BOOTROM)
    missing = [p for p in (bootrom, uf2) if not os.path.isfile(p)]
    if missing:
        raise ImagesMissing(
            "device twin: %s not found; put %s and the RP2040 boot ROM "
            "(raspberrypi/pico-bootrom-rp2040 b1, or rp2040js's demo/bootrom.ts) as %s in "
            "a directory and set %s to it (default ../shared/mcu)"
            % (" and ".join(missing), how, BOOTROM, ENV)
        )
    return bootrom, uf2

"""Where the twin's firmware images and the RP2040 boot ROM are.

They are not part of this repository. `$INGBOARD_MCU_DIR` names their directory; without it,
`../shared/mcu` beside the repository. `find(image)` returns (boot ROM path, UF2 path) or
raises `ImagesMissing` with one line saying how to obtain them.

The image "frozen" is the project's own RP2040 firmware with the packages frozen in, as `make
firmware` builds it (host_tools/firmware_image.py): `$INGBOARD_FROZEN_UF2`, else
build/firmware/ingboard-RPI_PICO.uf2. It must have been built from the tree as it is
(`frozen_stale`): frozen code from other sources would test something else.
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
FROZEN_ENV = "INGBOARD_FROZEN_UF2"
HOW_TO_GET = {
    "stock": "MicroPython's official RPI_PICO v1.28.0 download from micropython.org",
    "romfs": "MicroPython v1.28.0 built for RPI_PICO with MICROPY_HW_ROMFS_BYTES=262144",
    "frozen": "the firmware `make firmware MICROPYTHON=<MicroPython v1.28.0 checkout>` builds",
}


class ImagesMissing(InputError):
    pass


def mcu_dir():
    return os.environ.get(ENV) or os.path.normpath(os.path.join(ROOT, "..", "shared", "mcu"))


def frozen_uf2():
    """Where the "frozen" image is looked for."""
    from host_tools import firmware_image

    return os.environ.get(FROZEN_ENV) or firmware_image.IMAGE


def frozen_stale(uf2=None):
    """None when the frozen image was built from this tree's packages (the stamp beside it,
    `ingboard-RPI_PICO.json`, names their digest), else a line saying why it is not."""
    from host_tools import firmware_image

    uf2 = uf2 or frozen_uf2()
    stamp = firmware_image.read_stamp(os.path.splitext(uf2)[0] + ".json")
    if stamp is None:
        return "%s has no build stamp beside it (build it with make firmware)" % uf2
    if stamp.get("sources") != firmware_image.sources_digest():
        return "%s was built from other firmware sources: make firmware again" % uf2
    return None


def find(image="stock"):
    """(boot ROM, UF2) paths for `image` ("stock", "romfs", "frozen" or a .uf2 path)."""
    where = mcu_dir()
    if image == "frozen":
        uf2 = frozen_uf2()
        how = HOW_TO_GET[image] + " (or set %s)" % FROZEN_ENV
    elif image in IMAGES:
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

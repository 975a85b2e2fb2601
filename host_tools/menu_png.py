"""Menu, alert, count and health-map faces as PNG images (golden-image tests, README).

    python -m host_tools.menu_png --regenerate        # rewrite tests/golden/menu/*.png
    python -m host_tools.menu_png --out DIR [SCENE..] # write scenes' PNGs elsewhere

A scene image holds Black's face (left) and White's face (right), from host_tools.menu_scenes,
drawn by the firmware's own code into the CPython framebuf shim (see clock_png.py).
"""

import os

import framebuf
from PIL import Image

from host_tools import ROOT, clock_png
from host_tools.clock_png import bytes_to_image
from host_tools.errors import InputError
from host_tools.menu_scenes import SCENES

GOLDEN_DIR = os.path.join(ROOT, "tests", "golden", "menu")
_MARGIN = 8
_GAP = 16
_FRAME = 48


def face_bytes(draw, color):
    """The 1024-byte MONO_VLSB buffer of one face of a scene."""
    buf = bytearray(128 * 64 // 8)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    draw(fb, color)
    return bytes(buf)


def scene_image(name, scale=2):
    for scene, draw in SCENES:
        if scene == name:
            fw, fh = 128 * scale, 64 * scale
            img = Image.new("L", (2 * _MARGIN + 2 * fw + _GAP, 2 * _MARGIN + fh), _FRAME)
            img.paste(bytes_to_image(face_bytes(draw, 1), scale), (_MARGIN, _MARGIN))
            img.paste(bytes_to_image(face_bytes(draw, 2), scale), (_MARGIN + fw + _GAP, _MARGIN))
            return img
    raise InputError(
        "unknown menu scene %r (scenes: %s)" % (name, ", ".join(n for n, _ in SCENES))
    )


def write_scenes(out_dir, names=None, scale=2):
    """Write <scene>.png for the named menu scenes (all by default); return the paths."""
    return clock_png.write_scenes(out_dir, names, scale, SCENES, scene_image)


def main(argv=None):
    return clock_png.scenes_main(
        argv,
        "python -m host_tools.menu_png",
        "Render menu and board faces to PNG.",
        GOLDEN_DIR,
        SCENES,
        scene_image,
    )


if __name__ == "__main__":
    raise SystemExit(main())

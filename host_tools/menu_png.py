"""Menu, alert, count and health-map faces as PNG images (golden-image tests, README).

    python -m host_tools.menu_png --regenerate        # rewrite tests/golden/menu/*.png
    python -m host_tools.menu_png --out DIR [SCENE..] # write scenes' PNGs elsewhere

A scene image holds Black's face (left) and White's face (right), from host_tools.menu_scenes,
drawn by the firmware's own code into the CPython framebuf shim (see clock_png.py).
"""

import argparse
import os
import sys

import framebuf
from PIL import Image

from host_tools import ROOT
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
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for name in names or [n for n, _ in SCENES]:
        path = os.path.join(out_dir, name + ".png")
        scene_image(name, scale).save(path, optimize=True)
        paths.append(path)
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m host_tools.menu_png", description="Render menu and board faces to PNG."
    )
    parser.add_argument(
        "--regenerate", action="store_true", help="rewrite the golden images in tests/golden/menu"
    )
    parser.add_argument("--out", help="directory to write the PNGs to")
    parser.add_argument("--scale", type=int, default=2, help="pixels per display pixel")
    parser.add_argument("scenes", nargs="*", help="scene names (default: all)")
    args = parser.parse_args(argv)
    try:
        if args.regenerate == bool(args.out):
            raise InputError("give exactly one of --regenerate or --out DIR")
        if args.scale < 1 or args.scale > 16:
            raise InputError("--scale must be 1..16")
        if args.regenerate and (args.scenes or args.scale != 2):
            raise InputError("--regenerate writes every scene at scale 2")
        paths = write_scenes(GOLDEN_DIR if args.regenerate else args.out, args.scenes, args.scale)
    except InputError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    for p in paths:
        print(os.path.relpath(p))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Clock faces as PNG images on the host (README, simulator, golden-image tests).

The firmware's own renderer (ingboard.faces.clock_face) draws into the CPython framebuf shim
(host_tools/cpython_shims/framebuf.py, MONO_VLSB like the SSD1306); this module turns the bytes
into a Pillow image: lit pixels white on black, like the OLED, each shown as scale x scale.

    python -m host_tools.clock_png --regenerate        # rewrite tests/golden/clock/*.png
    python -m host_tools.clock_png --out DIR [SCENE..] # write scenes' PNGs elsewhere

A scene image holds Black's face (left) and White's face (right), from host_tools.clock_scenes.
"""

import argparse
import os
import sys

import framebuf
from ingboard.faces import clock_face
from ingrules.board import BLACK, WHITE
from PIL import Image

from host_tools import ROOT
from host_tools.clock_scenes import SCENES
from host_tools.errors import InputError

GOLDEN_DIR = os.path.join(ROOT, "tests", "golden", "clock")
_MARGIN = 8
_GAP = 16
_FRAME = 48  # grey around the faces, so the 128x64 panels stand out on a page


def face_bytes(clock, color, now_ms):
    """The 1024-byte MONO_VLSB buffer of color's face, exactly as the SSD1306 would get it."""
    buf = bytearray(clock_face.WIDTH * clock_face.HEIGHT // 8)
    fb = framebuf.FrameBuffer(buf, clock_face.WIDTH, clock_face.HEIGHT, framebuf.MONO_VLSB)
    clock_face.draw(fb, clock, color, now_ms)
    return bytes(buf)


def bytes_to_image(data, scale=2):
    """A MONO_VLSB 128x64 buffer as a greyscale image (255 lit, 0 dark), scaled."""
    w, h = clock_face.WIDTH, clock_face.HEIGHT
    img = Image.new("L", (w, h), 0)
    px = img.load()
    for y in range(h):
        row = (y >> 3) * w
        bit = 1 << (y & 7)
        for x in range(w):
            if data[row + x] & bit:
                px[x, y] = 255
    if scale != 1:
        img = img.resize((w * scale, h * scale), Image.Resampling.NEAREST)
    return img


def face_image(clock, color, now_ms, scale=2):
    return bytes_to_image(face_bytes(clock, color, now_ms), scale)


def pair_from_bytes(black, white, scale=2):
    """Two MONO_VLSB 128x64 buffers side by side, Black's left, on a grey frame (the layout
    of the golden images; tests/host/test_display_glass.py builds it from displays' glass)."""
    fw, fh = clock_face.WIDTH * scale, clock_face.HEIGHT * scale
    img = Image.new("L", (2 * _MARGIN + 2 * fw + _GAP, 2 * _MARGIN + fh), _FRAME)
    img.paste(bytes_to_image(black, scale), (_MARGIN, _MARGIN))
    img.paste(bytes_to_image(white, scale), (_MARGIN + fw + _GAP, _MARGIN))
    return img


def pair_image(clock, now_ms, scale=2):
    """Black's face left, White's right, on a grey frame."""
    return pair_from_bytes(
        face_bytes(clock, BLACK, now_ms), face_bytes(clock, WHITE, now_ms), scale
    )


def scene_image(name, scale=2):
    for scene, build in SCENES:
        if scene == name:
            clock, now = build()
            return pair_image(clock, now, scale)
    raise InputError(
        "unknown clock scene %r (scenes: %s)" % (name, ", ".join(n for n, _ in SCENES))
    )


def write_scenes(out_dir, names=None, scale=2, scenes=SCENES, image=None):
    """Write <scene>.png for the named scenes (all by default); return the paths.

    `scenes` is a list of (name, builder) and `image(name, scale)` draws one of them: the clock
    scenes by default, the menu scenes for host_tools.menu_png."""
    image = image or scene_image
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for name in names or [n for n, _ in scenes]:
        path = os.path.join(out_dir, name + ".png")
        image(name, scale).save(path, optimize=True)
        paths.append(path)
    return paths


def scenes_main(argv, prog, description, golden_dir, scenes, image):
    """The command line of a face renderer: --regenerate the goldens or --out DIR [SCENE..]."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--regenerate",
        action="store_true",
        help="rewrite the golden images in %s" % os.path.relpath(golden_dir, ROOT),
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
        out = golden_dir if args.regenerate else args.out
        paths = write_scenes(out, args.scenes, args.scale, scenes, image)
    except InputError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    for p in paths:
        print(os.path.relpath(p))
    return 0


def main(argv=None):
    return scenes_main(
        argv,
        "python -m host_tools.clock_png",
        "Render clock faces to PNG.",
        GOLDEN_DIR,
        SCENES,
        scene_image,
    )


if __name__ == "__main__":
    raise SystemExit(main())

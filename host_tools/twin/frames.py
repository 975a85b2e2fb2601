"""The twin's display frames as PNG (Pillow): what each SSD1306 shows, as the player sees it.

A frame from models/ssd1306.mjs is 128x64 pixels, row-major, 1 bit each, MSB first (1024
bytes, base64 over the twin's JSON). `FrameWriter(out_dir)` keeps `display-B.png` and
`display-W.png` as the latest picture of each display (rewritten whole, then renamed, so a
viewer reloading them never sees half a file) and, with `history=True`, every frame as
`frames/<name>-<t_ms>.png`.
"""

import base64
import os

from PIL import Image

WIDTH = 128
HEIGHT = 64


def picture_from_vlsb(data):
    """The picture (row-major, MSB first) of a MONO_VLSB 128x64 buffer shown upright (what
    framebuf draws into and the SSD1306's GDDRAM holds, page by page)."""
    out = bytearray(WIDTH * HEIGHT // 8)
    for y in range(HEIGHT):
        row = (y >> 3) * WIDTH
        bit = 1 << (y & 7)
        for x in range(WIDTH):
            if data[row + x] & bit:
                i = y * WIDTH + x
                out[i >> 3] |= 0x80 >> (i & 7)
    return bytes(out)


def image(bits, scale=2):
    """A picture as a greyscale image: lit pixels white on black, like the OLED."""
    img = Image.frombytes("1", (WIDTH, HEIGHT), bytes(bits)).convert("L")
    if scale != 1:
        img = img.resize((WIDTH * scale, HEIGHT * scale), Image.Resampling.NEAREST)
    return img


def _save(img, path):
    tmp = path + ".part"
    img.save(tmp, format="PNG")
    os.replace(tmp, path)


class FrameWriter:
    def __init__(self, out_dir, history=False, scale=2):
        self.out_dir = out_dir
        self.history = history
        self.scale = scale
        self.count = 0
        self.latest = {}
        os.makedirs(out_dir, exist_ok=True)
        if history:
            os.makedirs(os.path.join(out_dir, "frames"), exist_ok=True)

    def add(self, frames):
        """Frames as the twin's "frames" command returns them; returns the paths written."""
        written = []
        newest = {}
        for f in frames:
            bits = base64.b64decode(f["bits"])
            self.count += 1
            self.latest[f["name"]] = bits
            newest[f["name"]] = bits
            if self.history:
                path = os.path.join(
                    self.out_dir, "frames", "%s-%09d.png" % (f["name"], f["t_us"] // 1000)
                )
                _save(image(bits, self.scale), path)
                written.append(path)
        for name, bits in newest.items():
            path = os.path.join(self.out_dir, "display-%s.png" % name)
            _save(image(bits, self.scale), path)
            written.append(path)
        return written

    def poll(self, twin):
        return self.add(twin.model("frames"))

"""CPython stand-in for MicroPython's `framebuf`: the MONO_VLSB subset the clock faces use.

Byte layout as MicroPython's MONO_VLSB: byte (y // 8) * stride + x holds column x of rows
y & ~7 .. (y & ~7) + 7, bit (y & 7) = row. Drawing clips to the buffer like framebuf does.
A host test renders faces under real MicroPython and here and compares the bytes.
"""

MONO_VLSB = 0


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        if format != MONO_VLSB:
            raise ValueError("this stand-in supports MONO_VLSB only")
        self.buf = buffer
        self.width = width
        self.height = height
        self.stride = width if stride is None else stride
        if len(buffer) < ((height + 7) // 8) * self.stride:
            raise ValueError("buffer too small")

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        i = (y >> 3) * self.stride + x
        bit = 1 << (y & 7)
        if c is None:
            return 1 if self.buf[i] & bit else 0
        if c:
            self.buf[i] |= bit
        else:
            self.buf[i] &= ~bit & 0xFF
        return None

    def fill_rect(self, x, y, w, h, c):
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        for yy in range(y0, y1):
            for xx in range(x0, x1):
                self.pixel(xx, yy, c)

    def fill(self, c):
        value = 0xFF if c else 0
        for i in range(((self.height + 7) // 8) * self.stride):
            self.buf[i] = value

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def blit(self, fbuf, x, y, key=-1, palette=None):
        # As MicroPython's: each source pixel, through the palette when one is given (its
        # colour c -> palette.pixel(c, 0)), is drawn unless it equals key; clipped.
        for sy in range(fbuf.height):
            for sx in range(fbuf.width):
                c = fbuf.pixel(sx, sy)
                if palette is not None:
                    c = palette.pixel(c, 0)
                if c != key:
                    self.pixel(x + sx, y + sy, c)

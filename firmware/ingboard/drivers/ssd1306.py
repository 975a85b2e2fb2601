"""SSD1306 128x64 OLED controller over I2C: a framebuf.FrameBuffer that `show()` sends.

Our own small driver, from the controller's datasheet (Solomon Systech SSD1306 rev 1.1, 10
"Command Table" and the application note's power-on sequence), so the board needs nothing
installed besides ingboard. Every I2C write starts with a control byte: 0x80 = one command byte
follows, 0x00 = commands follow (the window of the pages sent), 0x40 = display data follows.
The frame is sent in horizontal addressing mode (1024 bytes for 128x64, MONO_VLSB: byte = 8
rows of one column, as framebuf lays it out), whole (`show()`) or a range of pages, all their
columns or a window of them (`show_pages()`: what changed).
A display that does not answer raises OSError from the constructor (no ACK).
"""

import framebuf
from micropython import const

_CONTRAST = const(0x81)
_RESUME_RAM = const(0xA4)  # show the RAM (0xA5 would light every pixel)
_NORMAL = const(0xA6)  # 0xA7 inverts
_OFF = const(0xAE)
_ON = const(0xAF)
_MEMORY_MODE = const(0x20)  # then 0x00: horizontal addressing
_COLUMNS = const(0x21)  # then first, last column
_PAGES = const(0x22)  # then first, last page (8 rows each)
_START_LINE = const(0x40)
_SEGMENT_REMAP = const(0xA1)  # column 127 is SEG0: the usual module orientation
_MULTIPLEX = const(0xA8)  # then rows - 1
_COM_SCAN_REVERSED = const(0xC8)
_OFFSET = const(0xD3)  # then 0
_COM_PINS = const(0xDA)  # then 0x12 (alternative COM pins, for 64 rows) or 0x02 (32 rows)
_CLOCK = const(0xD5)  # then 0x80: divide ratio 1, default oscillator
_PRECHARGE = const(0xD9)  # then 0xF1 with the internal charge pump
_VCOMH = const(0xDB)  # then 0x30: ~0.83 Vcc
_CHARGE_PUMP = const(0x8D)  # then 0x14: on


_pages = []  # (page buffer, its one-piece write) of each display width: _page_of


def _page_of(width):
    # The page buffer of the displays `width` columns wide (the data's control byte, then a
    # page): made for the first, shared by the others (a second was ~0.2 KB of the heap).
    for shared in _pages:
        if len(shared[0]) == 1 + width:
            return shared
    page = bytearray(1 + width)
    page[0] = 0x40
    shared = (page, (page,))
    _pages.append(shared)
    return shared


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(self.pages * width)
        self._cmd = bytearray(2)
        self._cmd[0] = 0x80
        self._window = bytearray((0x00, _COLUMNS, 0, width - 1, _PAGES, 0, 0))
        self._data_prefix = b"\x40"
        # One page's write: the data's control byte and the page copied behind it, one piece.
        # Two pieces made a tuple and a view, and the I2C driver a copy joining them: ~0.2 KB
        # allocated a page, four pages a second while a clock runs - the idle board's
        # collections (issue 32). (A view of the page is still made at each: a view of each
        # page kept would be ~0.3 KB of the heap a display.) One such buffer serves every
        # display of this width (_page_of): a page is copied and written before show_pages
        # returns, so no two displays use it at once.
        self._page, self._page_send = _page_of(width)
        self._view = memoryview(self.buffer)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.init_display()

    def write_cmd(self, byte):
        self._cmd[1] = byte
        self.i2c.writeto(self.addr, self._cmd)

    def init_display(self):
        for byte in (
            _OFF,
            _CLOCK,
            0x80,
            _MULTIPLEX,
            self.height - 1,
            _OFFSET,
            0x00,
            _START_LINE,
            _CHARGE_PUMP,
            0x14,
            _MEMORY_MODE,
            0x00,
            _SEGMENT_REMAP,
            _COM_SCAN_REVERSED,
            _COM_PINS,
            0x12 if self.height == 64 else 0x02,
            _CONTRAST,
            0xCF,
            _PRECHARGE,
            0xF1,
            _VCOMH,
            0x30,
            _RESUME_RAM,
            _NORMAL,
            _ON,
        ):
            self.write_cmd(byte)
        self.fill(0)
        self.show()

    def poweroff(self):
        self.write_cmd(_OFF)

    def poweron(self):
        self.write_cmd(_ON)

    def contrast(self, level):
        self.write_cmd(_CONTRAST)
        self.write_cmd(level & 0xFF)

    def show(self):
        self.show_pages(0, self.pages - 1)

    def _address(self, first, last, x0=0, x1=0):
        # The column range (x0..x1-1; x1 0: to the last) and page range the data written next
        # fills: one write of commands (control byte 0x00, Co = 0: every byte after it a
        # command), not six (each ~40 us of the RP2040, at every page a face sends).
        window = self._window
        window[2] = x0
        window[3] = (x1 or self.width) - 1
        window[5] = first
        window[6] = last
        self.i2c.writeto(self.addr, window)

    def show_pages(self, first, last, x0=0, x1=0):
        """Send pages first..last (8 rows each) of columns x0..x1-1 (x1 0: every column): 128
        bytes a page, ~3 ms on a 400 kHz bus, so a changed part of a face need not wait for the
        whole frame - nor a changed character for its whole rows (a clock's seconds: ~20
        columns of each page, all of them in one write)."""
        # (Frames MicroPython keeps on the C stack, a page at a time: drivers/keys.py says why.)
        if x0 or (x1 and x1 < self.width):
            self._show_columns(first, last, x0, x1 or self.width)
        else:
            self._show_rows(first, last)

    def _show_rows(self, first, last):
        # show_pages() of every column.
        self._address(first, last)
        if first == last:
            self._page[1:] = self._view[first * self.width : (first + 1) * self.width]
            self.i2c.writevto(self.addr, self._page_send)
            return
        if first == 0 and last == self.pages - 1:
            data = self.buffer
        else:
            data = self._view[first * self.width : (last + 1) * self.width]
        self.i2c.writevto(self.addr, (self._data_prefix, data))

    def _show_columns(self, first, last, x0, x1):
        # show_pages() of a window narrower than the display: each page's columns gathered
        # behind the data's control byte, as many pages a write as a page's buffer holds.
        self._address(first, last, x0, x1)
        n = x1 - x0
        page = self._page
        k = 1
        while first <= last:
            if k + n > len(page):
                self.i2c.writeto(self.addr, memoryview(page)[:k])
                k = 1
            at = first * self.width + x0
            page[k : k + n] = self._view[at : at + n]
            k += n
            first += 1
        self.i2c.writeto(self.addr, memoryview(page)[:k])

"""SH1106 128x64 OLED controller over I2C: the same framebuffer and calls as drivers/ssd1306.py.

Most 1.3-inch 128x64 modules carry an SH1106, not an SSD1306 (hardware_docs/bom.md). The two
look alike on the bus (same addresses 0x3C/0x3D, same control bytes 0x80 = one command,
0x40 = data) but differ where the SSD1306 driver relies on them (Sino Wealth SH1106 datasheet
V2.3, "Commands" 1-21 and "Display Data RAM"):

- the RAM is 132 columns x 8 pages, and a 128-column glass is wired to SEG2..SEG129, so
  column x of the picture is RAM column x + 2;
- there is no horizontal addressing mode (no 0x20/0x21/0x22 commands): the column address
  advances within a page only, so each page is sent on its own after setting the page
  (0xB0 | page) and the column (0x00 | low nibble, 0x10 | high nibble);
- the charge pump is the DC-DC converter, 0xAD then 0x8B (on), and the pump voltage is
  0x30-0x33 (0x32: 8.0 V, the power-on default).

An SSD1306 driver on an SH1106 writes the whole frame into one page, two columns to the left:
garbage on the glass. Which controller a display has is a setting (board_config `displays`,
"controller"); drivers/display.py builds the right driver.
"""

from micropython import const

from ingboard.drivers.ssd1306 import SSD1306_I2C

RAM_COLUMNS = const(132)
_PAGE = const(0xB0)  # | page 0-7
_COLUMN_LOW = const(0x00)  # | low nibble of the column
_COLUMN_HIGH = const(0x10)  # | high nibble
_DC_DC = const(0xAD)  # then 0x8B: converter on
_PUMP_8V = const(0x32)
_CLOCK = const(0xD5)
_MULTIPLEX = const(0xA8)
_OFFSET = const(0xD3)
_START_LINE = const(0x40)
_SEGMENT_REMAP = const(0xA1)
_COM_SCAN_REVERSED = const(0xC8)
_COM_PINS = const(0xDA)  # then 0x12: alternative (the power-on default; 0x02 for 32 rows)
_CONTRAST = const(0x81)
_PRECHARGE = const(0xD9)  # then 0x22 (power-on default)
_VCOM_DESELECT = const(0xDB)  # then 0x35 (power-on default)
_RESUME_RAM = const(0xA4)
_NORMAL = const(0xA6)
_OFF = const(0xAE)
_ON = const(0xAF)


class SH1106_I2C(SSD1306_I2C):
    def __init__(self, width, height, i2c, addr=0x3C):
        # The glass is centred on the 132-column RAM: 2 columns each side for 128.
        self.column_offset = (RAM_COLUMNS - width) // 2
        super().__init__(width, height, i2c, addr)

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
            _DC_DC,
            0x8B,
            _PUMP_8V,
            _SEGMENT_REMAP,
            _COM_SCAN_REVERSED,
            _COM_PINS,
            0x12 if self.height == 64 else 0x02,
            _CONTRAST,
            0xCF,
            _PRECHARGE,
            0x22,
            _VCOM_DESELECT,
            0x35,
            _RESUME_RAM,
            _NORMAL,
            _ON,
        ):
            self.write_cmd(byte)
        self.fill(0)
        self.show()

    def show_pages(self, first, last, x0=0, x1=0):
        """Send pages first..last of columns x0..x1-1 (x1 0: every column), each page after its
        page and column address (page addressing is the SH1106's only mode): 128 bytes a page
        at most, as on the SSD1306."""
        col = self.column_offset + x0
        w = self.width
        end = x1 or w
        buf = memoryview(self.buffer)
        for page in range(first, last + 1):
            self.write_cmd(_PAGE | page)
            self.write_cmd(_COLUMN_LOW | (col & 0x0F))
            self.write_cmd(_COLUMN_HIGH | (col >> 4))
            self.i2c.writevto(self.addr, (self._data_prefix, buf[page * w + x0 : page * w + end]))

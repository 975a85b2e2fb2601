"""SSD1306 driver (drivers/ssd1306.py) against a fake I2C controller (CPython and MicroPython):
every write starts with its control byte, the frame goes out whole after its address window,
and a display that does not answer is an OSError."""

from expect import raises
from ingboard.drivers.ssd1306 import SSD1306_I2C


class FakeI2C:
    """An SSD1306 seen as I2C writes: commands (control byte 0x80, or 0x00 for a run) and data
    (0x40)."""

    def __init__(self, present=(0x3C,)):
        self.present = present
        self.commands = []
        self.frames = []

    def _check(self, addr):
        if addr not in self.present:
            raise OSError(19)  # ENODEV: no ACK

    def writeto(self, addr, buf):
        # A command (0x80, one byte) or a run of commands (0x00, Co = 0: every byte after it).
        self._check(addr)
        buf = bytes(buf)
        if buf[0] == 0x40:  # data (a column window's pages, gathered in one buffer)
            self.frames.append(buf[1:])
            return
        assert (len(buf) == 2 and buf[0] == 0x80) or (len(buf) > 1 and buf[0] == 0x00), buf
        self.commands.extend(buf[1:])

    def writevto(self, addr, bufs):
        self._check(addr)
        data = b"".join(bytes(b) for b in bufs)
        assert data[0] == 0x40
        self.frames.append(data[1:])


def test_power_on_sequence_ends_with_display_on_and_a_blank_frame():
    i2c = FakeI2C()
    SSD1306_I2C(128, 64, i2c, addr=0x3C)
    assert i2c.commands[0] == 0xAE  # off while configuring
    assert 0x8D in i2c.commands and i2c.commands[i2c.commands.index(0x8D) + 1] == 0x14
    assert i2c.commands[i2c.commands.index(0xA8) + 1] == 63  # 64 rows
    assert i2c.commands[i2c.commands.index(0xDA) + 1] == 0x12
    assert 0xAF in i2c.commands
    assert i2c.frames == [bytes(1024)]


def test_show_sends_the_window_then_the_whole_frame():
    i2c = FakeI2C()
    d = SSD1306_I2C(128, 64, i2c)
    i2c.commands = []
    d.fill(0)
    d.pixel(0, 0, 1)
    d.pixel(127, 63, 1)
    d.show()
    assert i2c.commands == [0x21, 0, 127, 0x22, 0, 7]
    frame = i2c.frames[-1]
    assert len(frame) == 1024 and frame[0] == 0x01 and frame[1023] == 0x80
    assert sum(1 for b in frame if b) == 2


def test_absent_display_raises_oserror():
    raises(OSError, SSD1306_I2C, 128, 64, FakeI2C(present=()), 0x3C)


def test_contrast_and_power():
    i2c = FakeI2C()
    d = SSD1306_I2C(128, 64, i2c)
    i2c.commands = []
    d.contrast(300)
    d.poweroff()
    d.poweron()
    assert i2c.commands == [0x81, 300 & 0xFF, 0xAE, 0xAF]


def test_show_pages_sends_only_those_pages_after_their_window():
    i2c = FakeI2C()
    d = SSD1306_I2C(128, 64, i2c)
    i2c.commands = []
    d.fill(0)
    d.pixel(5, 17, 1)  # page 2, bit 1
    d.show_pages(2, 3)
    assert i2c.commands == [0x21, 0, 127, 0x22, 2, 3]
    frame = i2c.frames[-1]
    assert len(frame) == 256 and frame[5] == 0x02 and sum(1 for b in frame if b) == 1


def test_show_pages_from_a_column_to_the_last_sends_those_columns_of_each_page():
    # x1 0 is every column from x0 on: the window's bytes, not a negative count of them.
    i2c = FakeI2C()
    d = SSD1306_I2C(128, 64, i2c)
    d.fill(0)
    d.pixel(8, 0, 1)  # page 0, the window's first column
    d.pixel(127, 9, 1)  # page 1, the last column
    i2c.commands = []
    i2c.frames = []
    d.show_pages(0, 1, 8, 0)
    assert i2c.commands == [0x21, 8, 127, 0x22, 0, 1]
    frame = b"".join(i2c.frames)
    assert len(frame) == 2 * 120
    assert frame[0] == 0x01 and frame[120 + 119] == 0x02 and sum(1 for b in frame if b) == 2
    assert frame == bytes(d.buffer[8:128]) + bytes(d.buffer[128 + 8 : 256])

"""The SH1106 driver (drivers/sh1106.py) and the display setting (drivers/display.py), against
models of both controllers' RAM (panels.py): what the glass shows must be what was drawn, on
each controller with its own driver; the SSD1306 driver on an SH1106 (the 1.3-inch trap) must
not be mistaken for working. CPython and MicroPython."""

from expect import raises
from ingboard.drivers import display
from ingboard.drivers.sh1106 import SH1106_I2C
from ingboard.drivers.ssd1306 import SSD1306_I2C
from panels import Sh1106Panel, Ssd1306Panel


def _pattern(fb):
    """Corners, edges and an asymmetric mark: any shift, mirror or page mix-up shows."""
    fb.fill(0)
    for x, y in ((0, 0), (127, 0), (0, 63), (127, 63), (1, 0), (0, 1), (64, 31), (65, 33)):
        fb.pixel(x, y, 1)
    fb.fill_rect(10, 8, 3, 20, 1)  # across pages 1-3
    fb.fill_rect(100, 50, 20, 2, 1)


def test_sh1106_glass_shows_the_frame_exactly():
    panel = Sh1106Panel()
    d = SH1106_I2C(128, 64, panel)
    assert panel.visible() == bytes(1024)  # the noise of the power-on RAM was cleared
    _pattern(d)
    d.show()
    assert panel.visible() == bytes(d.buffer)
    assert panel.unknown == []  # every byte sent is an SH1106 command


def test_sh1106_picture_sits_two_columns_into_its_132_column_ram():
    panel = Sh1106Panel()
    d = SH1106_I2C(128, 64, panel)
    d.fill(0)
    d.pixel(0, 0, 1)
    d.pixel(127, 9, 1)
    d.show()
    assert d.column_offset == 2
    assert panel.ram[2] == 0x01 and panel.ram[132 + 129] == 0x02  # page 1, column 127 + 2
    # The columns the glass does not show are never written (they keep the power-on noise).
    noise = Sh1106Panel().ram
    for page in range(8):
        for col in (0, 1, 130, 131):
            assert panel.ram[page * 132 + col] == noise[page * 132 + col], (page, col)


def test_sh1106_sends_each_page_after_its_address():
    panel = Sh1106Panel()
    d = SH1106_I2C(128, 64, panel)
    sent = []
    real = panel.writeto

    def spy(addr, buf):
        sent.append(bytes(buf)[1])
        real(addr, buf)

    panel.writeto = spy
    before = panel.data_bytes
    d.show_pages(2, 3)
    assert sent == [0xB2, 0x02, 0x10, 0xB3, 0x02, 0x10]
    assert panel.data_bytes - before == 256


def test_sh1106_show_pages_changes_only_those_pages():
    panel = Sh1106Panel()
    d = SH1106_I2C(128, 64, panel)
    d.pixel(5, 17, 1)  # page 2
    d.pixel(5, 60, 1)  # page 7: drawn but not sent
    d.show_pages(2, 2)
    seen = panel.visible()
    assert seen[2 * 128 + 5] == 0x02 and seen[7 * 128 + 5] == 0
    d.show()
    assert panel.visible() == bytes(d.buffer)


def test_sh1106_power_on_sequence_turns_the_converter_and_glass_on():
    panel = Sh1106Panel()
    panel.dc_dc = False  # whatever a previous run left: the driver sets it
    d = SH1106_I2C(128, 64, panel)
    assert panel.on and panel.dc_dc and panel.remap and panel.com_reversed
    assert panel.start_line == 0 and panel.offset == 0
    d.poweroff()
    assert not panel.on and panel.visible() == bytes(1024)
    d.poweron()
    assert panel.on
    d.contrast(0x40)
    assert panel.unknown == []


def test_absent_sh1106_raises_oserror():
    raises(OSError, SH1106_I2C, 128, 64, Sh1106Panel(present=False), 0x3C)
    raises(OSError, SH1106_I2C, 128, 64, Sh1106Panel(addr=0x3D), 0x3C)


def test_ssd1306_glass_shows_the_frame_exactly():
    panel = Ssd1306Panel()
    d = SSD1306_I2C(128, 64, panel)
    assert panel.visible() == bytes(1024)
    _pattern(d)
    d.show()
    assert panel.visible() == bytes(d.buffer)
    d.pixel(70, 20, 1)
    d.show_pages(2, 2)
    assert panel.visible() == bytes(d.buffer)
    assert panel.unknown == []


def test_the_ssd1306_driver_on_an_sh1106_shows_garbage():
    # The trap of the 1.3-inch modules: the wrong driver "works" on the bus (every write is
    # acknowledged) and shows something else than the frame.
    panel = Sh1106Panel()
    d = SSD1306_I2C(128, 64, panel)
    _pattern(d)
    d.show()
    assert panel.visible() != bytes(d.buffer)
    assert 0x20 in panel.unknown and 0x21 in panel.unknown  # no horizontal mode on an SH1106


def test_the_sh1106_driver_on_an_ssd1306_is_not_a_fallback():
    panel = Ssd1306Panel()
    d = SH1106_I2C(128, 64, panel)
    _pattern(d)
    d.show()
    assert panel.visible() != bytes(d.buffer)


def test_display_setting_picks_the_driver_per_side():
    buses = [Sh1106Panel(0x3C), Ssd1306Panel(0x3C)]
    got = display.build(
        buses,
        {
            "B": {"bus": 0, "addr": 0x3C, "controller": "sh1106"},
            "W": {"bus": 1, "addr": 0x3C},  # no setting: SSD1306
        },
    )
    assert isinstance(got["B"], SH1106_I2C) and isinstance(got["W"], SSD1306_I2C)
    assert not isinstance(got["W"], SH1106_I2C)
    for colour, panel in (("B", buses[0]), ("W", buses[1])):
        _pattern(got[colour])
        got[colour].show()
        assert panel.visible() == bytes(got[colour].buffer), colour


def test_display_setting_rejects_an_unknown_controller_and_skips_a_silent_display():
    raises(
        ValueError,
        display.build,
        [Ssd1306Panel()],
        {"B": {"bus": 0, "addr": 0x3C, "controller": "ssd1309x"}},
    )
    got = display.build(
        [Sh1106Panel(present=False)], {"B": {"bus": 0, "addr": 0x3C, "controller": "sh1106"}}
    )
    assert got == {"B": None, "W": None}


def _frames(seed, count):
    """Pseudo-random frames (an LCG: the same on CPython and MicroPython)."""
    for _ in range(count):
        frame = bytearray(1024)
        for i in range(1024):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            frame[i] = (seed >> 16) & 0xFF
        yield frame, seed


def test_every_page_range_of_random_frames_reaches_the_glass_on_both_controllers():
    # The whole class: any frame, any first..last page range, either controller with its
    # driver: after show_pages the glass shows those pages of the frame and keeps the others.
    for panel_cls, driver_cls in ((Sh1106Panel, SH1106_I2C), (Ssd1306Panel, SSD1306_I2C)):
        panel = panel_cls()
        d = driver_cls(128, 64, panel)
        shown = bytearray(1024)  # what the glass should show: blank after power-on
        for frame, state in _frames(7, 6):
            first = state % 8
            last = first + (state >> 3) % (8 - first)
            d.buffer[:] = frame
            d.show_pages(first, last)
            shown[first * 128 : (last + 1) * 128] = frame[first * 128 : (last + 1) * 128]
            assert panel.visible() == bytes(shown), (panel_cls.__name__, first, last)
        d.show()
        assert panel.visible() == bytes(d.buffer)


def test_every_window_of_columns_of_random_frames_reaches_the_glass_on_both_controllers():
    # show_pages of a window of columns (a clock's changed seconds): the glass shows those
    # columns of those pages of the frame and keeps everything else, on either controller -
    # windows whose pages fit one write, and wider ones sent in several.
    for panel_cls, driver_cls in ((Sh1106Panel, SH1106_I2C), (Ssd1306Panel, SSD1306_I2C)):
        panel = panel_cls()
        d = driver_cls(128, 64, panel)
        shown = bytearray(1024)
        for frame, state in _frames(11, 8):
            first = state % 8
            last = first + (state >> 3) % (8 - first)
            x0 = (state >> 6) % 127
            x1 = x0 + 1 + (state >> 13) % (128 - x0)
            d.buffer[:] = frame
            d.show_pages(first, last, x0, x1)
            for page in range(first, last + 1):
                at = page * 128
                shown[at + x0 : at + x1] = frame[at + x0 : at + x1]
            assert panel.visible() == bytes(shown), (panel_cls.__name__, first, last, x0, x1)
        d.show()
        assert panel.visible() == bytes(d.buffer)

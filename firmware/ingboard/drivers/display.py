"""The two clock displays: SSD1306 128x64 modules over I2C, one per player.

The driver is our own drivers/ssd1306.py (nothing to install on the board besides ingboard);
its SSD1306_I2C is a framebuf.FrameBuffer subclass, so faces/clock_face.draw paints on it
directly and `show()` sends it. Imported only when the displays are built.
"""

WIDTH = 128
HEIGHT = 64


def build(i2c_buses, displays_config, factory=None):
    """{"B": display, "W": display} from board_config's `displays` entries ({"bus", "addr"}).
    `factory(width, height, i2c, addr)` defaults to drivers/ssd1306.SSD1306_I2C. A display that
    does not answer is left out (None), so the game goes on without it."""
    if factory is None:
        from ingboard.drivers.ssd1306 import SSD1306_I2C

        def factory(w, h, i2c, addr):
            return SSD1306_I2C(w, h, i2c, addr=addr)

    out = {}
    for colour in ("B", "W"):
        entry = displays_config.get(colour)
        out[colour] = None
        if entry is None:
            continue
        try:
            out[colour] = factory(WIDTH, HEIGHT, i2c_buses[entry["bus"]], entry["addr"])
        except OSError:
            out[colour] = None  # no ACK on the bus: unplugged or wrong address
    return out

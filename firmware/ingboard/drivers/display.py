"""The two clock displays: 128x64 OLED modules over I2C, one per player.

The drivers are our own (nothing to install on the board besides ingboard): drivers/ssd1306.py
for SSD1306 modules (most 0.96-inch ones) and drivers/sh1106.py for SH1106 modules (most
1.3-inch ones: the SSD1306 driver shows garbage on them). Which one a display has is its
"controller" in board_config's `displays` (default "ssd1306"). Both are framebuf.FrameBuffer
subclasses, so faces/clock_face.draw paints on them directly and `show()` sends the frame.
Imported only when the displays are built.
"""

WIDTH = 128
HEIGHT = 64
CONTROLLERS = ("ssd1306", "sh1106")


def controller_class(name):
    """The driver class of a controller name; ValueError naming the known ones if unknown."""
    # Each driver is imported only when a display has that controller.
    if name == "ssd1306":
        from ingboard.drivers.ssd1306 import SSD1306_I2C

        return SSD1306_I2C
    if name == "sh1106":
        from ingboard.drivers.sh1106 import SH1106_I2C

        return SH1106_I2C
    raise ValueError("unknown display controller %r (known: %s)" % (name, ", ".join(CONTROLLERS)))


def build(i2c_buses, displays_config, factory=None):
    """{"B": display, "W": display} from board_config's `displays` entries ({"bus", "addr",
    "controller"}). `factory(width, height, i2c, addr)` defaults to the entry's controller's
    driver. A display that does not answer is left out (None), so the game goes on without it;
    an unknown controller is a ValueError (a configuration mistake, not a missing module)."""
    out = {}
    for colour in ("B", "W"):
        entry = displays_config.get(colour)
        out[colour] = None
        if entry is None:
            continue
        make = factory
        if make is None:
            make = controller_class(entry.get("controller", "ssd1306"))
        try:
            out[colour] = make(WIDTH, HEIGHT, i2c_buses[entry["bus"]], entry["addr"])
        except OSError:
            out[colour] = None  # no ACK on the bus: unplugged or wrong address
    return out

"""Golden frames on the glass: every clock and menu scene, drawn by the firmware's renderers into
each display driver (drivers/ssd1306.py, drivers/sh1106.py) and sent over the fake I2C of a model
of that controller (tests/firmware/panels.py), must light exactly the pixels of its golden PNG
(tests/golden/clock, tests/golden/menu). So a 1.3-inch SH1106 module shows what the 0.96-inch
SSD1306 shows, pixel for pixel, and the wrong driver on an SH1106 would be caught."""

import os

import pytest
from ingboard.drivers import display
from ingboard.faces import clock_face
from ingrules.board import BLACK, WHITE
from panels import Sh1106Panel, Ssd1306Panel
from PIL import Image

from host_tools import clock_png, menu_png
from host_tools.clock_scenes import SCENES as CLOCK_SCENES
from host_tools.menu_scenes import SCENES as MENU_SCENES

PANELS = {"ssd1306": Ssd1306Panel, "sh1106": Sh1106Panel}


def _glass(controller, draw):
    """What Black's and White's displays show after `draw(fb, colour)` and show()."""
    out = []
    for colour in (BLACK, WHITE):
        panel = PANELS[controller](0x3C)
        fb = display.controller_class(controller)(128, 64, panel, 0x3C)
        fb.fill(0)
        draw(fb, colour)
        fb.show()
        out.append(panel.visible())
    return out


def _same_as_golden(img, path):
    with Image.open(path) as golden:
        want = golden.convert("L")
    assert img.size == want.size
    if img.tobytes() != want.tobytes():
        diff = sum(1 for a, b in zip(img.tobytes(), want.tobytes(), strict=True) if a != b)
        pytest.fail("%s differs from the glass in %d pixels" % (os.path.basename(path), diff))


@pytest.mark.parametrize("controller", sorted(PANELS))
@pytest.mark.parametrize("name", [n for n, _ in CLOCK_SCENES])
def test_clock_scene_on_the_glass_matches_its_golden(controller, name):
    clock, now = dict(CLOCK_SCENES)[name]()
    black, white = _glass(controller, lambda fb, c: clock_face.draw(fb, clock, c, now))
    img = clock_png.pair_from_bytes(black, white)
    _same_as_golden(img, os.path.join(clock_png.GOLDEN_DIR, name + ".png"))


@pytest.mark.parametrize("controller", sorted(PANELS))
@pytest.mark.parametrize("name", [n for n, _ in MENU_SCENES])
def test_menu_scene_on_the_glass_matches_its_golden(controller, name):
    draw = dict(MENU_SCENES)[name]
    black, white = _glass(controller, draw)
    img = clock_png.pair_from_bytes(black, white)
    _same_as_golden(img, os.path.join(menu_png.GOLDEN_DIR, name + ".png"))


def test_the_ssd1306_driver_on_an_sh1106_misses_every_golden():
    # The 1.3-inch trap, over all clock scenes: none comes out right with the wrong driver.
    for name, build in CLOCK_SCENES:
        clock, now = build()
        for colour in (BLACK, WHITE):
            panel = Sh1106Panel(0x3C)
            fb = display.controller_class("ssd1306")(128, 64, panel, 0x3C)
            clock_face.draw(fb, clock, colour, now)
            fb.show()
            assert panel.visible() != bytes(fb.buffer), (name, colour)

"""The display task sends what a paint changed, its rows and its columns (issue 32): a running
clock's seconds are ~20 of 128 columns, sent in one write rather than four whole pages, and the
glass shows the face the app drew, on either controller."""

from app_fakes import VirtualTime, clear_records, hardware
from ingboard.app.app import App
from ingboard.drivers.sh1106 import SH1106_I2C
from ingboard.drivers.ssd1306 import SSD1306_I2C
from ingboard.records.store import RecordsStore
from panels import Sh1106Panel, Ssd1306Panel
from test_app import LOG

ROOT = "/tmp/ingboard-test-app-display-window"


def _check(panel_cls, driver_cls):
    empty = "".join(LOG.splitlines(True)[:3])  # the config and an empty board: Black's clock runs
    vt = VirtualTime()
    cfg, hw = hardware(vt, empty)
    panels = {}
    for side in ("B", "W"):
        panels[side] = panel_cls()
        hw["displays"][side] = driver_cls(128, 64, panels[side])
    clear_records(ROOT)
    app = App(hw, RecordsStore(ROOT), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 2500, stop=False)
    assert app.tracker.clock.running() and app.tracker.clock.turn == 1
    before = panels["B"].data_bytes
    shown = bytes(hw["displays"]["B"].buffer)
    vt.drive(app, 5500, stop=False)  # three more seconds of Black's time
    for side in ("B", "W"):
        assert panels[side].visible() == bytes(hw["displays"][side].buffer), side
    assert bytes(hw["displays"]["B"].buffer) != shown  # Black's time moved on
    sent = panels["B"].data_bytes - before
    # Three seconds' changes, each a few characters' columns of the time's rows (its pages
    # whole would be 4 x 128 bytes a second).
    assert 0 < sent <= 3 * 4 * 40, sent
    # Another face over the running clock (the health map), then the clock again: each goes
    # out whole, and the glass shows it - not only the columns the clock's seconds changed.
    app.standalone.show_health(vt.now)
    vt.drive(app, vt.now + 1500, stop=False)
    assert app.standalone.shown == "health"
    for side in ("B", "W"):
        assert panels[side].visible() == bytes(hw["displays"][side].buffer), side
    health = bytes(hw["displays"]["B"].buffer)
    vt.drive(app, app.standalone.health_until + 1500)
    assert app.standalone.shown == "clock"
    for side in ("B", "W"):
        assert panels[side].visible() == bytes(hw["displays"][side].buffer), side
    assert bytes(hw["displays"]["B"].buffer) != health


def test_a_running_clock_sends_its_changed_columns_and_the_glass_shows_every_face_ssd1306():
    _check(Ssd1306Panel, SSD1306_I2C)


def test_a_running_clock_sends_its_changed_columns_and_the_glass_shows_every_face_sh1106():
    _check(Sh1106Panel, SH1106_I2C)

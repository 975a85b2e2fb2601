"""firmware/ingboard/physical.py is the one table of the set's physical constants: its field
figures follow from the magnet's dimensions, its derived figures from the parts' datasheet
values, and the design notes, the BOM, the classifier's defaults and the device twin's sensor
model all say what it says."""

import math
import os
import re

from ingboard import physical as ph
from ingboard.sensing import classifier

from host_tools import ROOT, pinmap

DESIGN = os.path.join(ROOT, "hardware_docs", "design.md")
HALL_MODEL = os.path.join(ROOT, "host_tools", "twin", "models", "hall_grid.mjs")


def _bz(x_mm, gap_mm, n=48):
    """Flux density (mT) normal to the board at lateral offset x, `gap` below an axially
    magnetised disc (physical.py's magnet): its two pole faces as charged discs."""
    r_mag = ph.MAGNET_D_UM / 2000
    thick = ph.MAGNET_THICK_UM / 1000
    total = 0.0
    for face, sign in ((gap_mm, 1), (gap_mm + thick, -1)):
        s = 0.0
        for i in range(n):
            r = (i + 0.5) / n * r_mag
            for j in range(n):
                t = 2 * math.pi * (j + 0.5) / n
                dx = x_mm - r * math.cos(t)
                dy = -r * math.sin(t)
                d = math.sqrt(dx * dx + dy * dy + face * face)
                s += -face / d**3 * r
        total += sign * s * (r_mag / n) * (2 * math.pi / n)
    return -ph.MAGNET_BR_MT / (4 * math.pi) * total


def _gap(wood_um):
    return (wood_um + ph.ELEMENT_BELOW_WOOD_UM) / 1000


def test_the_stone_field_follows_from_the_magnet_and_the_wood():
    for wood, field in zip(ph.STONE_FIELD_DEPTH_UM, ph.STONE_FIELD_UT):
        assert abs(_bz(0, _gap(wood)) * 1000 - field) < 0.01 * field
    assert ph.STONE_FIELD_UT[1] == ph.STONE_FIELD_NOMINAL_UT
    assert ph.STONE_FIELD_DEPTH_UM[1] == ph.WOOD_OVER_SENSOR_UM
    thin = _gap(ph.WOOD_OVER_SENSOR_UM - ph.WOOD_TOLERANCE_UM)
    thick = _gap(ph.WOOD_OVER_SENSOR_UM + ph.WOOD_TOLERANCE_UM)
    assert abs(_bz(0, thin) * 1000 - ph.STONE_FIELD_TOL_UT[0]) < 150
    assert abs(_bz(0, thick) * 1000 - ph.STONE_FIELD_TOL_UT[1]) < 150


def test_off_centre_shares_and_crosstalk_with_its_sign():
    gap = _gap(ph.WOOD_OVER_SENSOR_UM)
    centred = _bz(0, gap)
    for mm, pct in enumerate(ph.OFF_CENTRE_PCT):
        assert abs(100 * _bz(mm, gap) / centred - pct) < 1.0
    for pitch_um, bp in (
        (ph.PITCH_X_UM, ph.CROSSTALK_ALONG_LINE_BP),
        (ph.PITCH_Y_UM, ph.CROSSTALK_NEXT_LINE_BP),
        (math.hypot(ph.PITCH_X_UM, ph.PITCH_Y_UM), ph.CROSSTALK_DIAGONAL_BP),
    ):
        share = 10000 * _bz(pitch_um / 1000, gap) / centred
        assert bp < 0 and share < 0  # the return flux: the other colour's sign
        assert abs(share - bp) <= 3


def test_derived_counts():
    span = ph.STONE_FIELD_NOMINAL_UT / 1000 * ph.SENSOR_UV_PER_MT / 1000
    assert round(span / ph.SUPPLY_MV * ph.ADC_FULL_COUNTS) == ph.STONE_SPAN_COUNTS
    assert round(ph.SENSOR_UV_PER_MT / 1000 / ph.SUPPLY_MV * 65536) == ph.COUNTS_PER_MT
    noise_ut = ph.SENSOR_NOISE_NT_RTHZ / 1000 * math.sqrt(ph.SENSOR_BANDWIDTH_HZ * math.pi / 2)
    assert round(noise_ut) == ph.SENSOR_NOISE_UT
    assert round(noise_ut * ph.COUNTS_PER_MT / 1000) == ph.SENSOR_NOISE_COUNTS
    uv_per_g = (
        ph.LOAD_CELL_UV_PER_V * ph.SUPPLY_MV / 1000 / ph.LOAD_CELL_RATED_G / ph.LOAD_CELLS_PER_BOWL
    )
    full_uv = 0.5 * ph.SUPPLY_MV * 1000 / ph.HX711_GAIN
    per_uv = 2 ** (ph.HX711_BITS - 1) / full_uv
    assert round(uv_per_g * per_uv) == ph.HX711_COUNTS_PER_G
    assert round(ph.HX711_NOISE_NV / 1000 * per_uv) == ph.HX711_NOISE_COUNTS
    assert ph.EMPTY_COUNTS == ph.ADC_FULL_COUNTS // 2


def test_the_classifier_defaults_come_from_the_table():
    assert classifier.DEFAULT_SPAN == ph.STONE_SPAN_COUNTS
    assert classifier.DEFAULT_EMPTY == ph.EMPTY_COUNTS


def test_the_twin_sensor_model_has_the_tables_figures():
    # hardware.py passes physical.py's values; the model's own defaults are the same ones.
    with open(HALL_MODEL) as f:
        text = f.read()
    block = text[text.index("export const PHYSICS = {") : text.index("};", text.index("PHYSICS"))]
    pairs = dict(re.findall(r"(\w+): (-?\d+)", block))
    assert pairs
    for name, value in pairs.items():
        assert int(value) == getattr(ph, name), name


def _design():
    with open(DESIGN, encoding="utf-8") as f:
        return f.read()


def _mt(ut):
    return "%.1f mT" % (ut / 1000)


def test_design_md_says_what_the_table_says():
    text = _design()
    for ut in ph.STONE_FIELD_UT + ph.STONE_FIELD_TOL_UT[1:]:
        assert _mt(ut) in text
    assert (
        "%.1f–%.1f mT" % (ph.STONE_FIELD_TOL_UT[0] / 1000, ph.STONE_FIELD_TOL_UT[1] / 1000) in text
    )
    for bp in (ph.CROSSTALK_ALONG_LINE_BP, ph.CROSSTALK_NEXT_LINE_BP, ph.CROSSTALK_DIAGONAL_BP):
        assert "−%.2f %%" % (-bp / 100) in text
    for mm, pct in enumerate(ph.OFF_CENTRE_PCT[1:], 1):
        assert "| %d mm off | | %d %% |" % (mm, pct) in text
    assert "%d mV/mT" % (ph.SENSOR_UV_PER_MT // 1000) in text
    assert "%d counts" % ph.STONE_SPAN_COUNTS in text
    assert "%d counts per gram" % ph.HX711_COUNTS_PER_G in text
    assert "%d µT rms" % ph.SENSOR_NOISE_UT in text
    for doc in ("design.md", "bom.md", "calibration.md", "troubleshooting.md"):
        with open(os.path.join(ROOT, "hardware_docs", doc), encoding="utf-8") as f:
            assert "33 mV/mT" not in f.read(), doc


def test_design_md_gives_pinmaps_scan_time_share():
    from ingboard import board_config

    scan_ms, classify_ms, busy = pinmap.scan_timing(board_config.variant("pico2"))
    text = _design()
    sentence = "about %d ms for a scan plus about %d ms to classify, %d %% of the %d ms" % (
        round(scan_ms),
        round(classify_ms),
        round(busy * 100),
        pinmap.SCAN_PERIOD_MS,
    )
    assert sentence in text

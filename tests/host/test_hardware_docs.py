"""hardware_docs/ agrees with the firmware: generated pin map, alert coverage, build()."""

import os
import re
import subprocess
import sys
import types

from ingboard import board_config as bc
from ingboard.alerts import ALERTS

from host_tools import ROOT, pinmap

DOCS = os.path.join(ROOT, "hardware_docs")


def _doc(name):
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return f.read()


def test_committed_pin_map_wiring_and_bom_match_board_config():
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools.pinmap", "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr


def test_check_notices_a_changed_pin(monkeypatch, tmp_path):
    for rel, text in pinmap.generated_files().items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert pinmap.drifted(str(tmp_path)) == []
    moved = dict(bc.PICO2)
    moved["buzzer"] = 1
    monkeypatch.setitem(bc.VARIANTS, "pico2", moved)
    stale = pinmap.drifted(str(tmp_path))
    assert "hardware_docs/pinmap.md" in stale and "hardware_docs/wiring-pico2.svg" in stale


def test_every_variant_is_wired_legally():
    assert pinmap.check_variants() == []


def test_wiring_problems_are_found():
    bad = dict(bc.PICO2)
    bad["keys"] = {"B": 20, "W": 20, "pause": 23}  # and no menu key
    bad["i2c"] = ({"id": 0, "sda": 17, "scl": 16, "freq": 400000}, bc.PICO2["i2c"][1])
    grid = dict(bc.PICO2["grid"])
    grid["adc"] = (26, 25)
    bad["grid"] = grid
    text = " / ".join(pinmap.problems(bad))
    assert "GPIO20 used twice" in text
    assert "GPIO23" in text
    assert "I2C0 cannot use" in text
    assert "GPIO25 is not an ADC input" in text
    assert "no pin for the menu key" in text


def test_pin_map_lists_every_used_pin_of_the_reference_design():
    text = _doc("pinmap.md")
    for gpio, function in bc.used_pins(bc.PICO2):
        assert "| %d | %s |" % (gpio, function) in text


def test_every_alert_code_has_a_troubleshooting_section_and_no_stale_ones():
    text = _doc("troubleshooting.md")
    documented = re.findall(r"^### `([a-z0-9-]+)`\s*$", text, flags=re.M)
    assert sorted(set(ALERTS) - set(documented)) == []
    assert sorted(set(documented) - set(ALERTS)) == []
    assert len(documented) == len(set(documented))
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        for label in ("**Means:**", "**Usually:**", "**If it persists:**"):
            assert label in section, section.splitlines()[0]


def test_build_wires_the_drivers_to_the_documented_pins(monkeypatch):
    made = []

    class Pin:
        OUT, IN, PULL_UP = 1, 0, 2

        def __init__(self, gpio, mode=None, pull=None, value=None):
            self.gpio = gpio
            self.mode = mode
            self.level = value
            made.append(self)

        def __call__(self, v=None):
            if v is None:
                return 1 if self.level is None else self.level
            self.level = v

    class ADC:
        def __init__(self, pin):
            self.pin = pin

        def read_u16(self):
            return 32768

    class PWM:
        def __init__(self, pin):
            self.pin = pin

        def freq(self, hz):
            pass

        def duty_u16(self, v):
            pass

    class I2C:
        def __init__(self, bus_id, sda, scl, freq):
            self.args = (bus_id, sda.gpio, scl.gpio, freq)

    fake = types.SimpleNamespace(
        Pin=Pin, ADC=ADC, PWM=PWM, I2C=I2C, disable_irq=lambda: 0, enable_irq=lambda s: None
    )
    monkeypatch.setitem(sys.modules, "machine", fake)
    hw = bc.build("pico2")
    grid = hw["grid"]
    assert [p.gpio for p in grid._sel] == [2, 3, 4, 5]
    assert [p.gpio for p in grid._grp] == [6, 7, 8, 9]
    assert [p.gpio for p in grid._en] == [10, 11] and all(p.level == 1 for p in grid._en)
    assert [a.pin.gpio for a in grid._adcs] == [26, 27]
    assert [i.args[:3] for i in hw["i2c"]] == [(0, 16, 17), (1, 18, 19)]
    assert hw["buzzer"]._pwm.pin.gpio == 0
    assert hw["hx711"]["B"].clock.gpio == 13 and hw["hx711"]["B"].data.gpio == 12
    assert len(grid.scan()) == 361


def test_docs_name_the_seed_equipment_facts():
    text = _doc("design.md")
    for fact in (
        "2.21 cm",
        "2.36 cm",
        "22 mm",
        "23 mm",
        "45 cm",
        "42 cm",
        "21.8 mm",
        "6.5",
        "7 g",
    ):
        assert fact in text, fact


def test_build_without_a_name_takes_the_variant_of_the_chip_it_runs_on():
    # sys.implementation._machine of MicroPython's rp2 and esp32 builds.
    assert bc.detect("Raspberry Pi Pico with RP2040") == "pico"
    assert bc.detect("Raspberry Pi Pico 2 with RP2350") == "pico2"
    assert bc.detect("Raspberry Pi Pico 2 W with RP2350") == "pico2w"
    assert bc.detect("Generic ESP32S3 module with ESP32S3") == "esp32s3"
    assert bc.detect("") == bc.DEFAULT  # CPython, WebAssembly
    pico = bc.variant("pico")
    assert pico["mcu"] == "RP2040" and pico["grid"] == bc.variant("pico2")["grid"]

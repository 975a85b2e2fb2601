"""hardware_docs/ agrees with the firmware: generated pin map, alert coverage, build()."""

import os
import re
import subprocess
import sys
import types

from ingboard import board_config as bc
from ingboard.alerts import codes

from host_tools import ROOT, electrical, pinmap, set_parts, wiring

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
        assert "| %d | %s | %s |" % (gpio, wiring.module_pin(bc.PICO2, gpio), function) in text


def test_wiring_names_part_pins_jack_pins_and_power():
    # The diagrams and the pin map say which pin of which part or jack each line reaches.
    for name, cfg in bc.VARIANTS.items():
        svg = _doc("wiring-%s.svg" % name)
        for rail in ("3V3_HALL", "3V3", "GND", "TPS63001"):
            assert rail in svg, (name, rail)
        for gpio, function in bc.used_pins(cfg):
            where = wiring.connects_to(cfg, gpio, function)
            assert where, (name, gpio, function)
            assert where.replace("&", "&amp;") in svg, (name, gpio)
            if gpio in cfg["grid"]["channel_select"]:
                assert "(pin %d)" % wiring.MUX_PINS["S0"] in wiring.connects_to(
                    cfg, cfg["grid"]["channel_select"][0], function
                )
    # Pico pins: GP0 is pin 1, GP22 pin 29, GP26 pin 31 (the module's pinout).
    assert [wiring.module_pin(bc.PICO2, g) for g in (0, 22, 26, 28)] == ["1", "29", "31", "34"]
    assert wiring.module_pin(bc.ESP32S3, 1) == ""
    esp = wiring.connects_to(bc.ESP32S3, 39, "I2C0 SDA (displays)")
    assert "CLOCK B pin 1" in esp and "CLOCK W pin 1" in esp  # one bus, both cables


def test_every_alert_code_has_a_troubleshooting_section_and_no_stale_ones():
    text = _doc("troubleshooting.md")
    documented = re.findall(r"^### `([a-z0-9-]+)`\s*$", text, flags=re.M)
    assert sorted(set(codes()) - set(documented)) == []
    assert sorted(set(documented) - set(codes())) == []
    assert len(documented) == len(set(documented))
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        for label in ("**Means:**", "**Usually:**", "**If it persists:**"):
            assert label in section, section.splitlines()[0]


class _Pin:
    OUT, IN, PULL_UP = 1, 0, 2

    def __init__(self, gpio, mode=None, pull=None, value=None):
        self.gpio = gpio
        self.mode = mode
        self.level = value

    def __call__(self, v=None):
        if v is None:
            return 1 if self.level is None else self.level
        self.level = v


class _RpAdc:
    """The rp2 port's ADC: no attenuation to set (0 to ADC_VREF)."""

    def __init__(self, pin):
        self.pin = pin

    def read_u16(self):
        return 32768


class _Esp32Adc:
    """The esp32 port's ADC: starts at 0 dB; records attenuation calls and reads."""

    ATTN_0DB, ATTN_2_5DB, ATTN_6DB, ATTN_11DB = 0, 1, 2, 3
    log = []

    def __init__(self, pin):
        self.pin = pin
        self.level = self.ATTN_0DB

    def atten(self, level):
        self.level = level
        _Esp32Adc.log.append(("atten", self.pin.gpio, level))

    def read_u16(self):
        _Esp32Adc.log.append(("read", self.pin.gpio, self.level))
        return 32768


class _PWM:
    def __init__(self, pin):
        self.pin = pin

    def freq(self, hz):
        pass

    def duty_u16(self, v):
        pass


class _I2C:
    def __init__(self, bus_id, sda, scl, freq):
        self.args = (bus_id, sda.gpio, scl.gpio, freq)


def _fake_machine(monkeypatch, adc):
    fake = types.SimpleNamespace(
        Pin=_Pin, ADC=adc, PWM=_PWM, I2C=_I2C, disable_irq=lambda: 0, enable_irq=lambda s: None
    )
    monkeypatch.setitem(sys.modules, "machine", fake)


def test_build_wires_the_drivers_to_the_documented_pins(monkeypatch):
    _fake_machine(monkeypatch, _RpAdc)
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


def test_esp32s3_build_sets_11db_on_every_grid_adc_before_the_first_read(monkeypatch):
    # MicroPython's esp32 ADC starts at 0 dB (0-0.95 V on the S3): a Hall sensor's 1.65 V
    # empty level would read full scale. build() sets ATTN_11DB (0-3.1 V) first.
    _Esp32Adc.log = []
    _fake_machine(monkeypatch, _Esp32Adc)
    hw = bc.build("esp32s3")
    grid = hw["grid"]
    assert [a.pin.gpio for a in grid._adcs] == [1, 2]
    assert [a.level for a in grid._adcs] == [_Esp32Adc.ATTN_11DB] * 2
    assert _Esp32Adc.log == [("atten", 1, 3), ("atten", 2, 3)]
    grid.scan()
    reads = [e for e in _Esp32Adc.log if e[0] == "read"]
    assert len(reads) == 361 and {e[2] for e in reads} == {_Esp32Adc.ATTN_11DB}


def test_rp2_builds_set_no_attenuation(monkeypatch):
    # The rp2 port's ADC has no atten(): calling it would be an AttributeError.
    _fake_machine(monkeypatch, _RpAdc)
    for name in ("pico", "pico2", "pico2w"):
        assert "adc_atten" not in bc.variant(name)["grid"]
        assert len(bc.build(name)["grid"].scan()) == 361


def test_an_adc_range_that_misses_the_sensors_is_a_wiring_problem():
    for atten in (None, "ATTN_0DB", "ATTN_2_5DB", "ATTN_6DB"):
        bad = dict(bc.ESP32S3)
        grid = dict(bc.ESP32S3["grid"])
        grid.pop("adc_atten")
        if atten:
            grid["adc_atten"] = atten
        bad["grid"] = grid
        assert any("ADC range" in p for p in pinmap.problems(bad)), atten
    assert pinmap.problems(bc.ESP32S3) == []


def test_an_unknown_display_controller_is_a_wiring_problem():
    bad = dict(bc.PICO2)
    bad["displays"] = {
        "B": {"bus": 0, "addr": 0x3C, "controller": "sh1107"},
        "W": {"bus": 1, "addr": 0x3C, "controller": "sh1106"},
    }
    assert pinmap.problems(bad) == ["display B: unknown controller 'sh1107'"]


def test_every_line_has_a_defined_state_at_boot():
    # Before build() drives the pins they are inputs (RP2350 erratum E9: an input may sit near
    # 2.2 V against the internal pull-down): the bank enables are pulled up (no sensor group
    # powered), every other digital line pulled to a rail, pull-downs within E9's 8.2 kOhm.
    for name, cfg in bc.VARIANTS.items():
        pulls = {g: (rail, ohms) for g, rail, ohms, _role in bc.pulls(cfg)}
        grid = cfg["grid"]
        for p in grid["bank_enable"]:
            assert pulls[p][0] == "3V3", (name, p)
        for p in grid["channel_select"] + grid["group_select"]:
            assert pulls[p][0] == "GND", (name, p)
        for p in cfg["keys"].values():
            assert pulls[p][0] == "3V3", (name, p)
        for bowl in cfg["bowls"].values():
            assert pulls[bowl["dout"]][0] == "3V3" and pulls[bowl["sck"]][0] == "GND"
        for bus in cfg["i2c"]:
            assert pulls[bus["sda"]][0] == pulls[bus["scl"]][0] == "3V3"
        for rail, ohms in pulls.values():
            assert rail != "GND" or ohms <= 8200
        # A pull-up must win over the pad's internal pull-down (50 kOhm at least) by a 74HC
        # input's V_IH at 3.3 V (2.36 V).
        for rail, ohms in pulls.values():
            assert rail != "3V3" or 3.3 * 50000 / (50000 + ohms) > 2.36
        analog = set(grid["adc"]) | {cfg["buzzer"]}
        if cfg.get("battery_adc") is not None:
            analog.add(cfg["battery_adc"])
        assert {g for g, _f in bc.used_pins(cfg)} - set(pulls) == analog, name


def test_pin_map_shows_each_pull_and_the_rails_at_peak():
    text = _doc("pinmap.md")
    assert "| 10 | 14 | grid bank 0 enable (active low) |" in text  # Pico pin 14
    assert "4.7 kOhm to 3V3: high: bank off, no group powered" in text
    rails = electrical.rails(bc.PICO2)
    for rail, limit, items in rails:
        assert electrical.rail_total(items) < limit, rail
    # On the Pico's 3V3 alone the datasheet maxima would not fit: the reason for 3V3_HALL.
    assert sum(electrical.rail_total(items) for _r, _l, items in rails) > 300
    assert "## 3.3 V rails at peak" in text and "## I2C over the clock cable" in text


def test_i2c_pullup_fits_the_longest_clock_cable_and_a_longer_one_fails(monkeypatch):
    assert electrical.i2c_ok(bc.PICO2) == []
    assert 1.5 <= electrical.longest_cable_m(bc.PULLS["i2c"][1]) < 2.0
    monkeypatch.setattr(electrical, "CLOCK_CABLE_MAX_M", 3.0)
    assert electrical.i2c_ok(bc.PICO2)
    # 100 kOhm never meets the 300 ns rise time; 470 Ohm cannot be pulled to V_OL at 3 mA.
    low, high = electrical.pullup_range(electrical.bus_capacitance_pf(1.0))
    assert low > 470 and high < 100000


def test_two_displays_on_one_bus_need_standard_mode_over_two_cables():
    # The esp32s3 variant's one bus reaches both displays through two clock cables: at 400 kHz
    # the 2.2 kOhm pull-up is too slow for that capacitance; at 100 kHz it is not.
    fast = dict(bc.ESP32S3)
    fast["i2c"] = ({"id": 0, "sda": 39, "scl": 40, "freq": 400000},)
    assert electrical.i2c_ok(fast) and pinmap.problems(fast)
    assert electrical.i2c_ok(bc.ESP32S3) == []


def test_a_cable_in_the_wrong_jack_drives_no_ground(monkeypatch):
    for cfg in bc.VARIANTS.values():
        assert electrical.jack_problems(cfg) == []
        names = [name for name, _pins in electrical.jacks(cfg)]
        assert names == ["CLOCK B", "CLOCK W", "BOWL B", "BOWL W"]
        wired = {
            gpio for _n, pins in electrical.jacks(cfg) for *_x, gpio in pins if gpio is not None
        }
        # Every pin that leaves the board unit goes through a jack.
        leaving = {cfg["buzzer"]} | set(cfg["keys"].values())
        leaving |= {b[k] for b in cfg["bowls"].values() for k in ("dout", "sck")}
        leaving |= {bus[k] for bus in cfg["i2c"] for k in ("sda", "scl")}
        assert wired == leaving, cfg["name"]
    # A bowl jack grounding pin 5 would short the buzzer of a clock cable plugged into it.
    monkeypatch.setattr(
        electrical, "BOWL_JACK", ("DOUT", "GND", "PD_SCK", "3V3", "GND", "GND", "NC", "NC")
    )
    assert electrical.jack_problems(bc.PICO2) == [
        "CLOCK jack pin 5 drives what a BOWL jack grounds"
    ]


def test_analog_noise_margin_holds():
    n = electrical.noise_budget()
    assert n["margin_mv"] > 0 and n["ratio"] > 2
    assert n["settle_residue"] < 1e-3


def test_cost_per_set_is_generated_and_quoted():
    one, ten = set_parts.cost()
    assert 0 < ten < one
    line = set_parts.cost_line()
    assert line in _doc("bom.md")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert line in f.read()
    for row in set_parts.parts():
        assert row[6] in set_parts.SOURCES, row
        assert row[4] > 0 and row[5][0] >= row[5][1] > 0, row


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


def test_electrical_doc_quotes_the_computed_figures():
    # electrical.md explains the decisions in words; its numbers must be the computed ones.
    text = " ".join(_doc("electrical.md").split())  # line breaks as spaces
    (_hall, hall_limit, hall), (_pico, pico_limit, logic) = electrical.rails(bc.PICO2)
    hall_ma = electrical.rail_total(hall)
    pico_ma = electrical.rail_total(logic)
    assert "%d mA of %d" % (round(hall_ma), hall_limit) in text
    assert "%d mA of %d" % (round(pico_ma), pico_limit) in text
    assert "%d mA" % round(hall_ma + pico_ma) in text
    n = electrical.noise_budget()
    assert "%d mV between" % round(n["margin_mv"]) in text
    assert "against %d mV of noise" % round(n["peak_mv"]) in text
    assert "%.1f times" % n["ratio"] in text
    worst = max(
        row[7] for row in electrical.i2c_rows(bc.PICO2) if row[2] == electrical.CLOCK_CABLE_MAX_M
    )
    assert "%d ns in the" % round(worst) in text
    up = bc.PULLS["bank_enable"][1]
    assert "%.2f V" % (3.3 * 50000 / (50000 + up)) in text
    for part in ("TPS63001", "TPD4E1U06", "USBLC6-2SC6", "SH1106", "ATTN_11DB", "E9"):
        assert part in text, part

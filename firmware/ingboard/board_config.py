"""Pins and hardware variants of the ingboard reference design, as data, plus build().

Everything here is plain data (dicts, tuples, ints) so that `host_tools/pinmap.py` can read it
without hardware and render the pin map, wiring diagram and BOM in hardware_docs/ (a test fails
when those differ from this file). `build()` is the only code that touches `machine`, and it
imports it lazily, so this module imports on CPython and on MicroPython without a board.

Grid wiring (hardware_docs/design.md, "Multiplexing"): the size*size Hall sensors are numbered
in scan order (index 0 = A19, column A first, top line first: the order of the session log's
`scan` line). Sensor i sits on first-level mux ("group") i // 16, channel i % 16. Groups 0-15
form bank 0, groups 16-22 bank 1. Per bank one second-level mux (address = group lines) routes
the selected group's output to that bank's ADC input, and one 4-to-16 decoder (same address)
switches that group's sensor supply on through a P-MOSFET; the bank's active-low enable line
gates both, so at most one group of 16 sensors per bank is powered at a time; the scan powers
both banks' groups at one address together (drivers/grid.py: 16 power-on waits, not 23).

PULLS gives every kind of line the external resistor that defines its state while the MCU boots
(hardware_docs/electrical.md); `pulls(cfg)` lists them per pin for the docs and the boards.
"""

# Raspberry Pi Pico 2 (RP2350): the reference design. GP23-25 stay unused so that the same map
# works on a Pico 2 W, whose radio uses them; GP29 is no wire of ours: the module's own VSYS/3
# divider, read as the battery sense on the Pico 2 (`ingboard bringup` checks the supply with
# it) and left alone on the Pico 2 W, whose radio shares it.
PICO2 = {
    "name": "pico2",
    "title": "Raspberry Pi Pico 2 (RP2350) - reference design",
    "mcu": "RP2350",
    "network": None,
    "grid": {
        "size": 19,
        "channel_select": (2, 3, 4, 5),  # S0-S3 of every first-level CD74HC4067
        "group_select": (6, 7, 8, 9),  # A0-A3 of the second-level muxes and power decoders
        "bank_enable": (10, 11),  # active low, bank 0 (groups 0-15), bank 1 (groups 16-22)
        "adc": (26, 27),  # ADC0 reads bank 0, ADC1 reads bank 1
        "power_on_us": 400,  # wait after powering a group (DRV5055 power-on time + margin)
    },
    "bowls": {
        "B": {"dout": 12, "sck": 13},  # HX711 of Black's bowl
        "W": {"dout": 14, "sck": 15},  # HX711 of White's bowl
    },
    "i2c": (
        {"id": 0, "sda": 16, "scl": 17, "freq": 400000},
        {"id": 1, "sda": 18, "scl": 19, "freq": 400000},
    ),
    # One display per bus, so both modules keep their factory address. "controller": the
    # chip on the module, "ssd1306" (most 0.96-inch modules) or "sh1106" (most 1.3-inch ones;
    # the SSD1306 driver shows garbage on them): drivers/display.py, hardware_docs/bom.md.
    "displays": {
        "B": {"bus": 0, "addr": 0x3C, "controller": "ssd1306"},
        "W": {"bus": 1, "addr": 0x3C, "controller": "ssd1306"},
    },
    # To GND, internal pull-ups, active low. "menu" opens the standalone menus (menus/menu.py)
    # while the clock is stopped; there the clock keys move and change, pause goes back.
    "keys": {"B": 20, "W": 21, "pause": 22, "menu": 1},
    "buzzer": 0,  # PWM0 A, passive piezo
    "battery_adc": 29,  # VSYS/3 on the Pico 2 (shared with the radio on a Pico 2 W)
    "spare": (28,),
}

# Raspberry Pi Pico 2 W: the same pins; the radio gives Wi-Fi and Bluetooth LE. The battery
# can only be read while the radio is idle (GP29 is also the radio's clock), so it is not used.
PICO2W = dict(PICO2)
PICO2W.update(
    {
        "name": "pico2w",
        "title": "Raspberry Pi Pico 2 W (RP2350 + CYW43439 Wi-Fi/BLE)",
        "network": "CYW43439 Wi-Fi 802.11n + Bluetooth LE",
        "battery_adc": None,
    }
)

# Raspberry Pi Pico (RP2040): the same pins as the Pico 2 (the two modules share their pinout,
# GP23-25 and GP29 included), for boards built on the older module and for the device twin
# (MicroPython's RPI_PICO firmware in the rp2040js emulator, host_tools/twin/).
PICO = dict(PICO2)
PICO.update(
    {
        "name": "pico",
        "title": "Raspberry Pi Pico (RP2040)",
        "mcu": "RP2040",
    }
)

# ESP32-S3-DevKitC-1 (N8R8): Wi-Fi/BLE, more RAM. Avoids the strapping pins (0, 3, 45, 46),
# USB (19, 20), the octal flash/PSRAM pins (26-37), UART0 (43, 44) and the RGB LED (38 or 48).
# Only ADC1 is used (ADC2 is unusable while Wi-Fi runs). Both displays share one I2C bus, the
# White display with its address jumper moved to 0x3D.
ESP32S3 = {
    "name": "esp32s3",
    "title": "ESP32-S3-DevKitC-1 (Wi-Fi/BLE variant)",
    "mcu": "ESP32-S3",
    "network": "Wi-Fi 802.11n + Bluetooth LE",
    "grid": {
        "size": 19,
        "channel_select": (4, 5, 6, 7),
        "group_select": (15, 16, 17, 18),
        "bank_enable": (8, 9),
        "adc": (1, 2),  # ADC1_CH0, ADC1_CH1
        # MicroPython's esp32 ADC starts at 0 dB attenuation: 0-0.95 V on the S3 (ESP-IDF ADC
        # guide, ESP32-S3), and every Hall sensor (1.65 V empty) would read full scale. 11 dB
        # gives 0-3.1 V (the constant is ATTN_11DB on MicroPython 1.23 and later); build()
        # sets it on each grid ADC before the first scan.
        "adc_atten": "ATTN_11DB",
        "power_on_us": 400,
    },
    "bowls": {"B": {"dout": 10, "sck": 11}, "W": {"dout": 12, "sck": 13}},
    # Both displays on one bus, each at the end of its own clock cable: two cables' capacitance
    # is too much for 400 kHz with the 2.2 kOhm pull-ups (pinmap.md, "I2C"), so 100 kHz.
    "i2c": ({"id": 0, "sda": 39, "scl": 40, "freq": 100000},),
    "displays": {
        "B": {"bus": 0, "addr": 0x3C, "controller": "ssd1306"},
        "W": {"bus": 0, "addr": 0x3D, "controller": "ssd1306"},
    },
    "keys": {"B": 41, "W": 42, "pause": 47, "menu": 21},
    "buzzer": 14,
    "battery_adc": None,
    "spare": (),
}

VARIANTS = {"pico2": PICO2, "pico2w": PICO2W, "pico": PICO, "esp32s3": ESP32S3}
DEFAULT = "pico2"
# sys.implementation._machine of a MicroPython build -> the variant it runs (build(None)).
MACHINES = (
    ("Pico 2 W", "pico2w"),
    ("RP2350", "pico2"),
    ("RP2040", "pico"),
    ("ESP32S3", "esp32s3"),
)

# The keys in the order of drivers/keys.py (index 0 B, 1 W, 2 pause, 3 menu).
KEYS = ("B", "W", "pause", "menu")

# The external resistor on each kind of line, (rail, ohms), which gives the line its state
# while the MCU boots or resets (its pins are inputs then: on the RP2350 erratum E9 can hold an
# input near 2.2 V against the internal pull-down, so no line relies on an internal pull) and
# while a cable is unplugged (hardware_docs/electrical.md, "Defined states at boot"):
# - bank enables up: both banks off, so every decoder output is high and every group's P-MOSFET
#   is off - no sensor is powered until the scan enables a bank. 4.7 kOhm against the pad's
#   internal pull-down (50 kOhm minimum) gives 3.02 V, above the 74HC inputs' V_IH at 3.3 V
#   (2.36 V, between the datasheets' 1.5 V at 2 V and 3.15 V at 4.5 V);
# - channel and group selects down: defined CMOS levels on 27 chips' address inputs. 8.2 kOhm:
#   the largest value the RP2350 datasheet's E9 workaround allows for an external pull-down;
# - HX711 DOUT up: an unplugged bowl reads "no conversion" (a fault), not random data;
#   PD_SCK down: the HX711 stays out of power-down (PD_SCK high over 60 us) at boot;
# - keys up, 10 kOhm: the keys sit at the end of a cable, where the pad's 50-80 kOhm pull-up
#   would pick up noise; a pressed key draws 0.33 mA;
# - I2C up, 2.2 kOhm: from the bus's rise time over the clock cable (electrical.md, "I2C").
PULLS = {
    "bank_enable": ("3V3", 4700),
    "channel_select": ("GND", 8200),
    "group_select": ("GND", 8200),
    "hx711_dout": ("3V3", 10000),
    "hx711_sck": ("GND", 8200),
    "key": ("3V3", 10000),
    "i2c": ("3V3", 2200),
}
# The first-level muxes' enable inputs (U1-U23, E) are tied to GND on the boards: each mux's
# output is its own input of a second-level mux, so they never share a line and need no control.

CHANNELS_PER_GROUP = 16  # CD74HC4067
GROUPS_PER_BANK = 16  # one second-level CD74HC4067 and one 74HC154 per bank


def variant(name=None):
    """The variant dict by name (default: the reference design); ValueError if unknown."""
    key = DEFAULT if name is None else name
    if key not in VARIANTS:
        raise ValueError("unknown board variant %r (known: %s)" % (key, ", ".join(VARIANTS)))
    return VARIANTS[key]


def detect(machine_name):
    """The variant a MicroPython build's `sys.implementation._machine` text names (a Pico 2 W
    before a plain RP2350), or the default when none matches (CPython, WebAssembly)."""
    for part, name in MACHINES:
        if part in machine_name:
            return name
    return DEFAULT


def grid_groups(size):
    """Number of first-level muxes for a size*size grid."""
    return (size * size + CHANNELS_PER_GROUP - 1) // CHANNELS_PER_GROUP


def grid_banks(size):
    return (grid_groups(size) + GROUPS_PER_BANK - 1) // GROUPS_PER_BANK


def sensor_location(index):
    """(group, channel) of the sensor at scan-order index `index`."""
    return index // CHANNELS_PER_GROUP, index % CHANNELS_PER_GROUP


def used_pins(cfg):
    """[(gpio, function)] of every pin a variant uses, sorted by GPIO (for docs and checks)."""
    out = []
    grid = cfg["grid"]
    for i, p in enumerate(grid["channel_select"]):
        out.append((p, "grid channel select S%d" % i))
    for i, p in enumerate(grid["group_select"]):
        out.append((p, "grid group select A%d" % i))
    for i, p in enumerate(grid["bank_enable"]):
        out.append((p, "grid bank %d enable (active low)" % i))
    for i, p in enumerate(grid["adc"]):
        out.append((p, "grid bank %d analog in (ADC)" % i))
    for colour in ("B", "W"):
        hx = cfg["bowls"][colour]
        out.append((hx["dout"], "HX711 %s bowl DOUT" % colour))
        out.append((hx["sck"], "HX711 %s bowl PD_SCK" % colour))
    for bus in cfg["i2c"]:
        out.append((bus["sda"], "I2C%d SDA (displays)" % bus["id"]))
        out.append((bus["scl"], "I2C%d SCL (displays)" % bus["id"]))
    for name in KEYS:
        if name in cfg["keys"]:
            out.append((cfg["keys"][name], "key %s (to GND)" % name))
    out.append((cfg["buzzer"], "buzzer (PWM)"))
    if cfg.get("battery_adc") is not None:
        out.append((cfg["battery_adc"], "battery sense VSYS/3 (ADC, on the module)"))
    out.sort()
    return out


def pulls(cfg):
    """[(gpio, rail, ohms, role)] of every line's external pull resistor (PULLS), by GPIO."""
    out = []
    grid = cfg["grid"]
    for role in ("channel_select", "group_select", "bank_enable"):
        for p in grid[role]:
            out.append((p, PULLS[role][0], PULLS[role][1], role))
    for colour in ("B", "W"):
        hx = cfg["bowls"][colour]
        out.append((hx["dout"],) + PULLS["hx711_dout"] + ("hx711_dout",))
        out.append((hx["sck"],) + PULLS["hx711_sck"] + ("hx711_sck",))
    for bus in cfg["i2c"]:
        out.append((bus["sda"],) + PULLS["i2c"] + ("i2c",))
        out.append((bus["scl"],) + PULLS["i2c"] + ("i2c",))
    for name in KEYS:
        if name in cfg["keys"]:
            out.append((cfg["keys"][name],) + PULLS["key"] + ("key",))
    out.sort()
    return out


def build(name=None):
    """Construct the drivers of a variant on real hardware; returns a dict of driver objects.

    Imports `machine` here and only here, so importing this module never touches hardware.
    Without a name, the variant is the one of the chip the firmware runs on (`detect`).
    """
    import sys

    import machine

    if name is None:
        name = detect(getattr(sys.implementation, "_machine", ""))

    from ingboard.drivers.buzzer import Buzzer
    from ingboard.drivers.grid import GridScanner
    from ingboard.drivers.hx711 import HX711
    from ingboard.drivers.keys import Keys

    cfg = variant(name)
    grid = cfg["grid"]
    out_pin = machine.Pin.OUT
    in_pin = machine.Pin.IN
    pull_up = machine.Pin.PULL_UP
    hw = {"config": cfg}
    adcs = [machine.ADC(machine.Pin(p)) for p in grid["adc"]]
    if grid.get("adc_atten"):
        # The input range the sensors need (ESP32-S3: 11 dB); a port without it fails here,
        # loudly, rather than reading every point at full scale.
        level = getattr(machine.ADC, grid["adc_atten"])
        for adc in adcs:
            adc.atten(level)
    hw["grid"] = GridScanner(
        [machine.Pin(p, out_pin, value=0) for p in grid["channel_select"]],
        [machine.Pin(p, out_pin, value=0) for p in grid["group_select"]],
        [machine.Pin(p, out_pin, value=1) for p in grid["bank_enable"]],
        adcs,
        size=grid["size"],
        power_on_us=grid["power_on_us"],
        # The RP2040's register-level scan loops (drivers/grid_native.py): select lines, ADC
        # inputs (GP26 = ADC0), group-select lines and bank enables by number.
        registers=(
            grid["channel_select"],
            [p - 26 for p in grid["adc"]],
            grid["group_select"],
            grid["bank_enable"],
        )
        if cfg.get("mcu") == "RP2040"
        else None,
    )
    keys = cfg["keys"]
    hw["keys"] = Keys([machine.Pin(keys[k], in_pin, pull_up) for k in KEYS])
    hw["buzzer"] = Buzzer(machine.PWM(machine.Pin(cfg["buzzer"])))
    hw["i2c"] = [
        machine.I2C(b["id"], sda=machine.Pin(b["sda"]), scl=machine.Pin(b["scl"]), freq=b["freq"])
        for b in cfg["i2c"]
    ]
    rp2040 = cfg.get("mcu") == "RP2040"
    hw["hx711"] = {
        c: HX711(
            machine.Pin(v["sck"], out_pin, value=0),
            machine.Pin(v["dout"], in_pin),
            # The RP2040's register-level shift (drivers/hx711_native.py): the pins by number.
            gpios=(v["sck"], v["dout"]) if rp2040 else None,
        )
        for c, v in cfg["bowls"].items()
    }
    # The SSD1306 displays are built by the display module from hw["i2c"] and cfg["displays"].
    return hw

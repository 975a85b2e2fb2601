"""The parts of one set, their quantities (from board_config.py) and their prices: the data
behind hardware_docs/bom.md and its cost per set at 1 and at 10 sets (`host_tools.pinmap`).

Prices are in USD per unit, at the quantity one set needs and at ten times that, each with a
source (SOURCES) and the date it was known. They were not read from a shop when written: they
are list prices as known in 2026-11 and must be checked before ordering (`python -m
host_tools.pinmap` regenerates bom.md after an update here). A part number marked "(check)" is
an example the author was not sure of; the item's description is what to buy.
"""

from ingboard import board_config as bc
from ingboard import physical

PRICES_KNOWN = "2026-11"

SOURCES = {
    "rpi": "Raspberry Pi list price through approved resellers",
    "dist": "Digi-Key / Mouser list price at the price break for that quantity",
    "lcsc": "LCSC list price at the price break for that quantity",
    "ali": "AliExpress / marketplace lots (typical listing)",
    "shop": "go equipment shops' online prices (glass stones)",
    "fab": "estimate from JLCPCB / PCBWay FR-4 prices per cm2 (PCB_USD_PER_CM2), the minimum"
    " order of 5 boards per design spread over the set(s): replace with the fab's quote for"
    " the Gerbers",
}

# The boards, as hardware/electronics/ lays them out (hardware_docs/boards.md): one sensor strip
# per line of the board, 17 mm wide, 9 mm beyond its first and last sensor; the controller
# ("spine", 4 layers) under the middle of the board; the clock board and the two bowl boards
# are small 2-layer boards (hardware_docs/electrical.md). Sizes in mm.
STRIP_MM = ((physical.SIZE - 1) * physical.PITCH_X_UM / 1000 + 2 * 9.0, 17.0)
SPINE_MM = (438.0, 122.0)
CLOCK_BOARD_MM = (160.0, 60.0)
BOWL_BOARD_MM = (40.0, 30.0)
# USD per cm2 of bare FR-4 (1.6 mm, HASL, green) at (1 set, 10 sets): estimates from the fabs'
# online price lists as known 2026-11, shipping and tooling included, to be replaced by a quote.
PCB_USD_PER_CM2 = {2: (0.030, 0.015), 4: (0.070, 0.040)}
PCB_MINIMUM_ORDER = 5  # boards of one design per order (JLCPCB, PCBWay)


def _pcb_unit_prices(size_mm, per_set, layers):
    """USD per board at 1 set and at 10 sets, the minimum order's spare boards included."""
    area = size_mm[0] * size_mm[1] / 100
    out = []
    for sets, rate in zip((1, 10), PCB_USD_PER_CM2[layers], strict=True):
        ordered = max(per_set * sets, PCB_MINIMUM_ORDER)
        out.append(round(area * rate * ordered / (per_set * sets), 2))
    return tuple(out)


def _pulls(cfg, ohms):
    return sum(1 for _g, _rail, value, _role in bc.pulls(cfg) if value == ohms)


# Jacks and ESD arrays (hardware_docs/electrical.md, "Cables and units"): the controller board
# has two clock jacks and two bowl jacks, the clock board two jacks, each bowl board one.
CLOCK_JACKS = 2
BOWL_JACKS = 2
RJ45_JACKS = 2 * CLOCK_JACKS + 2 * BOWL_JACKS  # both ends of every cable
ESD_ARRAYS = 2 * (2 * CLOCK_JACKS) + 2 * BOWL_JACKS  # two per clock-cable end, one per bowl end


def parts(cfg=None):
    """[(group, item, part, note, qty, (usd_1_set, usd_10_sets), source)] for one set."""
    cfg = cfg or bc.variant()
    size = cfg["grid"]["size"]
    n = size * size
    groups = bc.grid_groups(size)
    banks = bc.grid_banks(size)
    stones = 2 * physical.STONES_PER_COLOUR
    return [
        # -- the board unit: sensors, muxes, controller
        (
            "board",
            "MCU board",
            "Raspberry Pi Pico 2 (or Pico 2 W for Wi-Fi/BLE)",
            "RP2350",
            1,
            (5.00, 5.00),
            "rpi",
        ),
        (
            "board",
            "Linear Hall sensor, one per point",
            "Texas Instruments DRV5055A2QDBZR (SOT-23)",
            "+-%d mT, %d mV/mT at 3.3 V"
            % (physical.SENSOR_RANGE_UT // 1000, physical.SENSOR_UV_PER_MT // 1000),
            n,
            (0.45, 0.30),
            "dist",
        ),
        (
            "board",
            "Bypass capacitor per sensor",
            "10 nF X7R 0603",
            "DRV5055 datasheet minimum",
            n,
            (0.003, 0.002),
            "lcsc",
        ),
        (
            "board",
            "First-level analog mux (16 sensors each)",
            "TI CD74HC4067M96 (SOIC-24)",
            "U1-U%d, E tied to GND" % groups,
            groups,
            (0.60, 0.45),
            "dist",
        ),
        (
            "board",
            "Second-level analog mux (one per bank)",
            "TI CD74HC4067M96 (SOIC-24)",
            "M0-M%d" % (banks - 1),
            banks,
            (0.60, 0.45),
            "dist",
        ),
        (
            "board",
            "Group power decoder (one per bank)",
            "TI SN74HC154DWR (SOIC-24)",
            "D0-D%d" % (banks - 1),
            banks,
            (0.90, 0.70),
            "dist",
        ),
        (
            "board",
            "Group power switch",
            "Alpha & Omega AO3401A P-MOSFET (SOT-23)",
            "Q1-Q%d, gate from decoder" % groups,
            groups,
            (0.03, 0.02),
            "lcsc",
        ),
        (
            "board",
            "Group supply capacitor",
            "1 uF X7R 0603",
            "one per group, after the MOSFET",
            groups,
            (0.005, 0.003),
            "lcsc",
        ),
        (
            "board",
            "Decoupling capacitor per mux and decoder",
            "100 nF X7R 0603",
            "at VCC (pin 24)",
            groups + 2 * banks,
            (0.003, 0.002),
            "lcsc",
        ),
        (
            "board",
            "Strip-to-spine ribbon",
            "40-way 1.27 mm flat cable with two IDC sockets, about 10 cm",
            "one per sensor strip",
            size,
            (1.00, 0.70),
            "ali",
        ),
        (
            "board",
            "Ribbon headers",
            "2 x 20 pin 2.54 mm box header",
            "one on each strip, one per strip on the spine",
            2 * size,
            (0.25, 0.15),
            "lcsc",
        ),
        (
            "board",
            "Pico socket",
            "1 x 20 pin 2.54 mm female header",
            "the Pico 2 stays replaceable",
            2,
            (0.30, 0.20),
            "lcsc",
        ),
        (
            "board",
            "Sensor regulator",
            "TI TPS63001DRCR buck-boost, 3.3 V fixed (VSON-10)",
            "3V3_HALL, EN from the Pico's 3V3",
            1,
            (2.80, 2.00),
            "dist",
        ),
        (
            "board",
            "Regulator inductor",
            "1.5 uH, >= 1.7 A, e.g. Coilcraft LPS4018-152ML (check)",
            "TPS63001 datasheet typical application",
            1,
            (0.60, 0.45),
            "dist",
        ),
        (
            "board",
            "Regulator capacitors",
            "10 uF X5R 10 V 0805",
            "1 in, 2 out (TPS63001 typical application)",
            3,
            (0.03, 0.02),
            "lcsc",
        ),
        (
            "board",
            "Sensor rail filter",
            "ferrite bead 220 Ohm at 100 MHz, 0603, e.g. Murata BLM18PG221SN1D + 22 uF 0805",
            "after the regulator",
            1,
            (0.10, 0.07),
            "lcsc",
        ),
        (
            "board",
            "Pull-up, bank enables",
            "4.7 kOhm 0603",
            "boot state: banks off",
            _pulls(cfg, 4700),
            (0.002, 0.001),
            "lcsc",
        ),
        (
            "board",
            "Pull-down, select lines and PD_SCK",
            "8.2 kOhm 0603",
            "boot state (RP2350 E9)",
            _pulls(cfg, 8200),
            (0.002, 0.001),
            "lcsc",
        ),
        (
            "board",
            "Pull-up, keys and HX711 DOUT",
            "10 kOhm 0603",
            "boot state, cable unplugged",
            _pulls(cfg, 10000),
            (0.002, 0.001),
            "lcsc",
        ),
        (
            "board",
            "Pull-up, I2C",
            "2.2 kOhm 0603",
            "rise time over 1.5 m (pinmap.md)",
            _pulls(cfg, 2200),
            (0.002, 0.001),
            "lcsc",
        ),
        (
            "board",
            "USB-C receptacle",
            "GCT USB4105-GF-A (check) or any USB 2.0 Type-C receptacle",
            "to the Pico's USB test pads; 2 x 5.1 kOhm on CC",
            1,
            (0.80, 0.60),
            "dist",
        ),
        (
            "board",
            "USB-C CC resistors",
            "5.1 kOhm 0603",
            "CC1, CC2 to GND (a USB-C sink)",
            2,
            (0.002, 0.001),
            "lcsc",
        ),
        (
            "board",
            "USB ESD protection",
            "ST USBLC6-2SC6 (SOT-23-6)",
            "D+, D-, VBUS at the receptacle",
            1,
            (0.30, 0.15),
            "dist",
        ),
        (
            "board",
            "Magnet, one per stone",
            "NdFeB N35 disc 6 x 1 mm, axially magnetised",
            "black: S down, white: N down",
            stones,
            (0.03, 0.02),
            "ali",
        ),
        (
            "board",
            "Stones",
            "single-convex (flat-based) 21.8 mm glass go stones, 180 + 180",
            "one set (price per set)",
            1,
            (25.00, 20.00),
            "shop",
        ),
        ("board", "Battery", "18650 Li-ion cell, 3000 mAh, protected", "", 1, (8.00, 6.00), "ali"),
        (
            "board",
            "Charger",
            "single-cell Li-ion charger module (Microchip MCP73831 based)",
            "USB in, output to VSYS via Schottky",
            1,
            (7.00, 6.00),
            "dist",
        ),
        (
            "board",
            "Schottky diode",
            "SS14 (SMA) or 1N5817",
            "battery to VSYS",
            1,
            (0.05, 0.03),
            "lcsc",
        ),
        ("board", "Power switch", "SPDT slide switch", "battery line", 1, (0.30, 0.20), "lcsc"),
        # -- cables and ESD, all units
        (
            "cables",
            "Cable jack",
            "8P8C (RJ45) shielded, through-hole, e.g. Amphenol RJHSE-5380 (check)",
            "both ends of every cable",
            RJ45_JACKS,
            (1.50, 1.20),
            "dist",
        ),
        (
            "cables",
            "ESD array",
            "TI TPD4E1U06DCKR (SC70-6, 4 lines, 0.8 pF)",
            "at every jack, both ends",
            ESD_ARRAYS,
            (0.35, 0.18),
            "dist",
        ),
        (
            "cables",
            "Cable",
            "Cat 5e U/UTP patch cable, straight (T568B), 1 m",
            "2 to the clock, 1 per bowl",
            CLOCK_JACKS + BOWL_JACKS,
            (2.00, 1.50),
            "ali",
        ),
        # -- the clock unit
        (
            "clock",
            "Display, one per player",
            "128x64 I2C OLED module with an SSD1306, 0.96"
            ' inch (a 1.3-inch SH1106 module works with "controller": "sh1106")',
            "address 0x3C",
            2,
            (3.00, 2.50),
            "ali",
        ),
        (
            "clock",
            "Clock keys",
            "30 mm arcade push button with microswitch",
            "Black, White",
            2,
            (1.50, 1.00),
            "ali",
        ),
        ("clock", "Pause and menu keys", "12 mm tactile switch", "", 2, (0.20, 0.10), "lcsc"),
        (
            "clock",
            "Buzzer",
            "passive piezo, about 4 kHz (e.g. Murata PKM13EPYH4000-A0)",
            "via 100 Ohm",
            1,
            (0.80, 0.60),
            "dist",
        ),
        ("clock", "Buzzer resistor", "100 Ohm 0603", "", 1, (0.002, 0.001), "lcsc"),
        # -- the bowls
        (
            "bowls",
            "Load cell, two per bowl",
            "2 kg straight-bar aluminium cell, 1.0 mV/V",
            "bridge about 1 kOhm",
            2 * 2,
            (2.50, 2.00),
            "ali",
        ),
        (
            "bowls",
            "Load-cell amplifier, one per bowl",
            "HX711 module (e.g. SparkFun SEN-13879)",
            "RATE low: 10 samples/s",
            2,
            (1.50, 1.00),
            "ali",
        ),
        # -- boards
        (
            "PCBs",
            "Sensor strip, one per line (2 layers)",
            "%.0f x %.0f mm" % STRIP_MM,
            "hardware/ Gerbers",
            size,
            _pcb_unit_prices(STRIP_MM, size, 2),
            "fab",
        ),
        (
            "PCBs",
            "Controller board, the spine (4 layers)",
            "%.0f x %.0f mm" % SPINE_MM,
            "minimum order of 5 in the 1-set price",
            1,
            _pcb_unit_prices(SPINE_MM, 1, 4),
            "fab",
        ),
        (
            "PCBs",
            "Clock board (2 layers)",
            "%.0f x %.0f mm" % CLOCK_BOARD_MM,
            "minimum order of 5 in the 1-set price",
            1,
            _pcb_unit_prices(CLOCK_BOARD_MM, 1, 2),
            "fab",
        ),
        (
            "PCBs",
            "Bowl board (2 layers)",
            "%.0f x %.0f mm" % BOWL_BOARD_MM,
            "minimum order of 5 in the 1-set price",
            2,
            _pcb_unit_prices(BOWL_BOARD_MM, 2, 2),
            "fab",
        ),
    ]


def cost(cfg=None):
    """(usd per set at 1 set, usd per set at 10 sets)."""
    one = ten = 0.0
    for row in parts(cfg):
        qty, (p1, p10) = row[4], row[5]
        one += qty * p1
        ten += qty * p10
    return one, ten


def cost_line(cfg=None):
    """The one-line total the README and hardware_docs quote."""
    one, ten = cost(cfg)
    return (
        "Parts, PCBs and magnets for one set: about **%d USD** when building one, about"
        " **%d USD** a set when building ten (list prices as known %s, to be checked;"
        " hardware_docs/bom.md)." % (round(one), round(ten), PRICES_KNOWN)
    )

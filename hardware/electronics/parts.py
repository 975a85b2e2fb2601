"""The part choices of the ingboard boards, in one table.

Each entry: what the part is (manufacturer part number, value), how it sits on a board (KiCad 6
library footprint, or a footprint the generator draws, written "ingboard:<name>"), where to buy
it (LCSC for JLCPCB assembly, one Western distributor) and its pins (number -> name and
electrical type, the types SKiDL's ERC uses). The netlist (netlist.py), the KiCad boards
(kicad_boards.py), the BOM/CPL and the ERC all read this table; nothing else names a part.

Part numbers: the LCSC and distributor numbers were checked against public BOMs of other open
hardware (JLCPCB part pages they link) on 2026-11-27; `None` means no number could be verified
offline: the part is hand-soldered and the BOM says "any equivalent" (see hardware_docs/boards.md).
Prices are not kept here: the costed BOM (a separate table) adds them with source and date.

Pin types: "in", "out", "bidir", "passive", "pwr_in", "pwr_out", "nc" (SKiDL's INPUT, OUTPUT,
BIDIR, PASSIVE, PWRIN, PWROUT, NOCONNECT).
"""

_MUX_PINS = {
    1: ("COM", "passive"),
    **{9 - n: ("I%d" % n, "passive") for n in range(8)},  # pin 9 = I0 ... pin 2 = I7
    10: ("S0", "in"),
    11: ("S1", "in"),
    12: ("GND", "pwr_in"),
    13: ("S3", "in"),
    14: ("S2", "in"),
    15: ("~E", "in"),
    **{23 - (n - 8): ("I%d" % n, "passive") for n in range(8, 16)},  # pin 23 = I8 ... 16 = I15
    24: ("VCC", "pwr_in"),
}

_DECODER_PINS = {
    **{n + 1: ("~Y%d" % n, "out") for n in range(11)},  # pins 1-11 = Y0-Y10
    12: ("GND", "pwr_in"),
    **{n + 2: ("~Y%d" % n, "out") for n in range(11, 16)},  # pins 13-17 = Y11-Y15
    18: ("~G1", "in"),
    19: ("~G2", "in"),
    20: ("D", "in"),
    21: ("C", "in"),
    22: ("B", "in"),
    23: ("A", "in"),
    24: ("VCC", "pwr_in"),
}

# Raspberry Pi Pico / Pico 2 / Pico 2 W: physical pin -> name (the modules' datasheets, "Pinout").
PICO_PINS = {}
_gp = iter([0, 1, None, 2, 3, 4, 5, None, 6, 7, 8, 9, None, 10, 11, 12, 13, None, 14, 15])
for _pin in range(1, 21):
    _g = next(_gp)
    PICO_PINS[_pin] = ("GND", "pwr_in") if _g is None else ("GP%d" % _g, "bidir")
_right = {
    21: "GP16",
    22: "GP17",
    23: "GND",
    24: "GP18",
    25: "GP19",
    26: "GP20",
    27: "GP21",
    28: "GND",
    29: "GP22",
    30: "RUN",
    31: "GP26",
    32: "GP27",
    33: "AGND",
    34: "GP28",
    35: "ADC_VREF",
    36: "3V3",
    37: "3V3_EN",
    38: "GND",
    39: "VSYS",
    40: "VBUS",
}
for _pin, _name in _right.items():
    _type = "bidir" if _name.startswith("GP") else "passive"
    if _name in ("GND", "AGND", "VSYS"):
        _type = "pwr_in"
    if _name in ("3V3", "VBUS"):
        _type = "pwr_out"
    PICO_PINS[_pin] = (_name, _type)


def pico_pin(gpio):
    """Physical pin of the Pico module that carries GPIO `gpio`; ValueError if none."""
    for pin, (name, _type) in PICO_PINS.items():
        if name == "GP%d" % gpio:
            return pin
    raise ValueError("GPIO%d is not on a Pico module pin" % gpio)


def _passive(n):
    return {i: (str(i), "passive") for i in range(1, n + 1)}


PARTS = {
    "pico2": {
        "what": "Raspberry Pi Pico 2 (or Pico 2 W) module, in two 1x20 female headers",
        "mpn": "Raspberry Pi Pico 2 / Pico 2 W",
        "manufacturer": "Raspberry Pi",
        "value": "Pico 2",
        "footprint": "ingboard:RPi_Pico_Socketed",
        "lcsc": None,
        "western": None,
        "assembly": "hand",
        "pins": PICO_PINS,
    },
    "pico_socket": {
        "what": "1x20 female header 2.54 mm, 8.5 mm high (two per Pico)",
        "mpn": "PPTC201LFBN-RC",
        "manufacturer": "Sullins",
        "value": "1x20 socket",
        "footprint": None,  # part of ingboard:RPi_Pico_Socketed
        "lcsc": None,
        "western": "DigiKey S6104-ND",
        "assembly": "hand",
        "pins": {},
    },
    "hall": {
        "what": "linear Hall sensor, ratiometric, +-42 mT",
        "mpn": "DRV5055A2QDBZR",
        "manufacturer": "Texas Instruments",
        "value": "DRV5055A2",
        "footprint": "Package_TO_SOT_SMD:SOT-23",
        "lcsc": "C266131",
        "western": "Mouser 595-DRV5055A2QDBZR",
        "assembly": "smt",
        "pins": {1: ("VCC", "pwr_in"), 2: ("OUT", "out"), 3: ("GND", "pwr_in")},
    },
    "mux": {
        "what": "16-channel analog multiplexer",
        "mpn": "CD74HC4067M96",
        "manufacturer": "Texas Instruments",
        "value": "CD74HC4067",
        "footprint": "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
        "lcsc": "C496123",
        "western": "DigiKey 296-29408-1-ND",
        "assembly": "smt",
        "pins": _MUX_PINS,
    },
    "decoder": {
        "what": "4-to-16 line decoder, active-low outputs",
        "mpn": "SN74HC154DWR",
        "manufacturer": "Texas Instruments",
        "value": "74HC154",
        "footprint": "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
        "lcsc": None,
        "western": "Mouser 595-SN74HC154DWR",
        "assembly": "smt",
        "pins": _DECODER_PINS,
    },
    "pmos": {
        "what": "P-channel MOSFET, -30 V, 4 A, SOT-23 (group power switch)",
        "mpn": "AO3401A",
        "manufacturer": "Alpha & Omega Semiconductor",
        "value": "AO3401A",
        "footprint": "Package_TO_SOT_SMD:SOT-23",
        "lcsc": "C15127",
        "western": "DigiKey 785-1001-1-ND",
        "assembly": "smt",
        "pins": {1: ("G", "in"), 2: ("S", "passive"), 3: ("D", "passive")},
    },
    "cap_10n": {
        "what": "capacitor 10 nF 50 V X7R 0603 (Hall sensor bypass)",
        "mpn": "CL10B103KB8NNNC",
        "manufacturer": "Samsung",
        "value": "10nF",
        "footprint": "Capacitor_SMD:C_0603_1608Metric",
        "lcsc": "C57112",
        "western": "Mouser 187-CL10B103KB8NNNC",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "cap_100n": {
        "what": "capacitor 100 nF 50 V X7R 0603 (IC decoupling)",
        "mpn": "CC0603KRX7R9BB104",
        "manufacturer": "Yageo",
        "value": "100nF",
        "footprint": "Capacitor_SMD:C_0603_1608Metric",
        "lcsc": "C14663",
        "western": "Mouser 603-CC603KRX7R9BB104",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "cap_1u": {
        "what": "capacitor 1 uF 25 V X5R 0603 (group supply)",
        "mpn": "CL10A105KB8NNNC",
        "manufacturer": "Samsung",
        "value": "1uF",
        "footprint": "Capacitor_SMD:C_0603_1608Metric",
        "lcsc": "C15849",
        "western": "Mouser 187-CL10A105KB8NNNC",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "cap_10u": {
        "what": "capacitor 10 uF 25 V X5R 0805 (charger in/out)",
        "mpn": "CL21A106KAYNNNE",
        "manufacturer": "Samsung",
        "value": "10uF",
        "footprint": "Capacitor_SMD:C_0805_2012Metric",
        "lcsc": "C15850",
        "western": "Mouser 187-CL21A106KAYNNNE",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "res_10k": {
        "what": "resistor 10 kOhm 1 % 0603 (key and HX711 DOUT pull-ups)",
        "mpn": "0603WAF1002T5E",
        "manufacturer": "UNI-ROYAL",
        "value": "10k",
        "footprint": "Resistor_SMD:R_0603_1608Metric",
        "lcsc": "C25804",
        "western": "Mouser 603-RC0603FR-0710KL (Yageo equivalent)",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "res_8k2": {
        "what": "resistor 8.2 kOhm 1 % 0603 (address and PD_SCK pull-downs)",
        "mpn": "0603WAF8201T5E",
        "manufacturer": "UNI-ROYAL",
        "value": "8.2k",
        "footprint": "Resistor_SMD:R_0603_1608Metric",
        "lcsc": "C25981",
        "western": "Mouser 603-RC0603FR-078K2L (Yageo equivalent)",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "res_2k2": {
        "what": "resistor 2.2 kOhm 1 % 0603 (I2C pull-up)",
        "mpn": "0603WAF2201T5E",
        "manufacturer": "UNI-ROYAL",
        "value": "2.2k",
        "footprint": "Resistor_SMD:R_0603_1608Metric",
        "lcsc": "C4190",
        "western": "Mouser 603-RC0603FR-072K2L (Yageo equivalent)",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "res_4k7": {
        "what": "resistor 4.7 kOhm 1 % 0603 (bank enable pull-ups, charger PROG)",
        "mpn": "0603WAF4701T5E",
        "manufacturer": "UNI-ROYAL",
        "value": "4.7k",
        "footprint": "Resistor_SMD:R_0603_1608Metric",
        "lcsc": "C23162",
        "western": "Mouser 603-RC0603FR-074K7L (Yageo equivalent)",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "res_1k": {
        "what": "resistor 1 kOhm 1 % 0603 (charge LED)",
        "mpn": "0603WAF1001T5E",
        "manufacturer": "UNI-ROYAL",
        "value": "1k",
        "footprint": "Resistor_SMD:R_0603_1608Metric",
        "lcsc": "C21190",
        "western": "Mouser 603-RC0603FR-071KL (Yageo equivalent)",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "res_100": {
        "what": "resistor 100 Ohm 1 % 0603 (buzzer series)",
        "mpn": "0603WAF1000T5E",
        "manufacturer": "UNI-ROYAL",
        "value": "100",
        "footprint": "Resistor_SMD:R_0603_1608Metric",
        "lcsc": "C22775",
        "western": "Mouser 603-RC0603FR-07100RL (Yageo equivalent)",
        "assembly": "smt",
        "pins": _passive(2),
    },
    "led_red": {
        "what": "LED red 0603 (charging)",
        "mpn": "KT-0603R",
        "manufacturer": "Hubei KENTO",
        "value": "red",
        "footprint": "LED_SMD:LED_0603_1608Metric",
        "lcsc": "C2286",
        "western": "Mouser 604-APT1608EC (Kingbright equivalent)",
        "assembly": "smt",
        "pins": {1: ("K", "passive"), 2: ("A", "passive")},
    },
    "schottky": {
        "what": "Schottky diode 40 V 1 A SMA (battery to VSYS)",
        "mpn": "SS14",
        "manufacturer": "MDD",
        "value": "SS14",
        "footprint": "Diode_SMD:D_SMA",
        "lcsc": "C2480",
        "western": "Mouser 512-SS14 (onsemi equivalent)",
        "assembly": "smt",
        "pins": {1: ("K", "passive"), 2: ("A", "passive")},
    },
    "charger": {
        "what": "single-cell Li-ion charger, 4.2 V, SOT-23-5",
        "mpn": "MCP73831T-2ACI/OT",
        "manufacturer": "Microchip",
        "value": "MCP73831",
        "footprint": "Package_TO_SOT_SMD:SOT-23-5",
        "lcsc": "C424093",
        "western": "Mouser 579-MCP73831T-2ACIOT",
        "assembly": "smt",
        "pins": {
            1: ("STAT", "out"),
            2: ("VSS", "pwr_in"),
            3: ("VBAT", "pwr_out"),
            4: ("VDD", "pwr_in"),
            5: ("PROG", "passive"),
        },
    },
    "hdr_2x20": {
        "what": "box header 2x20 2.54 mm, shrouded, vertical (40-way IDC ribbon)",
        "mpn": "61204021621",
        "manufacturer": "Wurth Elektronik",
        "value": "2x20",
        "footprint": "Connector_IDC:IDC-Header_2x20_P2.54mm_Vertical",
        "lcsc": None,
        "western": "Mouser 710-61204021621",
        "assembly": "hand",
        "pins": _passive(40),
    },
    "hdr_2x20_pins": {
        "what": "pin header 2x20 2.54 mm, vertical, unshrouded (fits the strip's width)",
        "mpn": "61304021121",
        "manufacturer": "Wurth Elektronik",
        "value": "2x20 pins",
        "footprint": "Connector_PinHeader_2.54mm:PinHeader_2x20_P2.54mm_Vertical",
        "lcsc": None,
        "western": "Mouser 710-61304021121",
        "assembly": "hand",
        "pins": _passive(40),
    },
    "hdr_2x7": {
        "what": "box header 2x7 2.54 mm, shrouded, vertical (14-way IDC ribbon)",
        "mpn": "61201421621",
        "manufacturer": "Wurth Elektronik",
        "value": "2x7",
        "footprint": "Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical",
        "lcsc": None,
        "western": "Mouser 710-61201421621",
        "assembly": "hand",
        "pins": _passive(14),
    },
    "jst_xh4": {
        "what": "JST XH 4-pin header, vertical (bowl cable)",
        "mpn": "B4B-XH-A(LF)(SN)",
        "manufacturer": "JST",
        "value": "XH-4",
        "footprint": "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical",
        "lcsc": None,
        "western": "DigiKey 455-2249-ND",
        "assembly": "hand",
        "pins": _passive(4),
    },
    "jst_xh2": {
        "what": "JST XH 2-pin header, vertical (power switch)",
        "mpn": "B2B-XH-A(LF)(SN)",
        "manufacturer": "JST",
        "value": "XH-2",
        "footprint": "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical",
        "lcsc": None,
        "western": "DigiKey 455-2247-ND",
        "assembly": "hand",
        "pins": _passive(2),
    },
    "jst_ph2": {
        "what": "JST PH 2-pin header, vertical (battery)",
        "mpn": "B2B-PH-K-S(LF)(SN)",
        "manufacturer": "JST",
        "value": "PH-2",
        "footprint": "Connector_JST:JST_PH_B2B-PH-K_1x02_P2.00mm_Vertical",
        "lcsc": None,
        "western": "DigiKey 455-1704-ND",
        "assembly": "hand",
        "pins": _passive(2),
    },
    "hole_m3": {
        "what": "mounting hole M3",
        "mpn": None,
        "manufacturer": None,
        "value": "M3",
        "footprint": "MountingHole:MountingHole_3.2mm_M3",
        "lcsc": None,
        "western": None,
        "assembly": "none",
        "pins": {},
    },
}


RESISTORS = {2200: "res_2k2", 4700: "res_4k7", 8200: "res_8k2", 10000: "res_10k"}


def resistor(ohms):
    """The parts-table key of a resistor value; ValueError for a value the table lacks."""
    if ohms not in RESISTORS:
        raise ValueError("no %d Ohm resistor in parts.py (have %s)" % (ohms, sorted(RESISTORS)))
    return RESISTORS[ohms]


def part(key):
    """The table entry of a part; KeyError names the known keys."""
    try:
        return PARTS[key]
    except KeyError:
        raise KeyError("unknown part %r (known: %s)" % (key, ", ".join(sorted(PARTS)))) from None


# -- the clock board and the bowl board (hardware/electronics/units.py) -------------------------
# TPD4E1U06 (TI datasheet, "Pin Configuration and Functions", DCK package): IO1-IO4 on pins 1, 3,
# 4, 6, GND on 2, pin 5 not connected. HX711 (Avia datasheet, "Pin Description", SOP-16).
PARTS.update(
    {
        "rj45": {
            "what": "8P8C (RJ45) jack, shielded, no magnetics, through-hole (Cat 5e cable)",
            "mpn": "RJHSE-5380",
            "manufacturer": "Amphenol",
            "value": "RJ45",
            "footprint": "Connector_RJ:RJ45_Amphenol_RJHSE5380",
            "lcsc": None,
            "western": "Mouser 523-RJHSE-5380",
            "assembly": "hand",
            "pins": _passive(8),
        },
        "esd4": {
            "what": "4-line ESD array, 0.8 pF, IEC 61000-4-2 level 4 (TI TPD4E1U06)",
            "mpn": "TPD4E1U06DCKR",
            "manufacturer": "Texas Instruments",
            "value": "TPD4E1U06",
            "footprint": "Package_TO_SOT_SMD:SOT-363_SC-70-6",
            "lcsc": "C194628",
            "western": "Mouser 595-TPD4E1U06DCKR",
            "assembly": "smt",
            "pins": {
                1: ("IO1", "passive"),
                2: ("GND", "pwr_in"),
                3: ("IO2", "passive"),
                4: ("IO3", "passive"),
                5: ("NC", "nc"),
                6: ("IO4", "passive"),
            },
        },
        "hx711": {
            "what": "24-bit bridge ADC for load cells, gain 128, 10/80 samples/s",
            "mpn": "HX711",
            "manufacturer": "Avia Semiconductor",
            "value": "HX711",
            "footprint": "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
            "lcsc": "C43656",
            "western": "none stocks the bare chip: order from LCSC",
            "assembly": "smt",
            "pins": {
                1: ("VSUP", "pwr_in"),
                2: ("BASE", "out"),
                3: ("AVDD", "pwr_in"),
                4: ("VFB", "in"),
                5: ("AGND", "pwr_in"),
                6: ("VBG", "passive"),
                7: ("INNA", "in"),
                8: ("INPA", "in"),
                9: ("INNB", "in"),
                10: ("INPB", "in"),
                11: ("PD_SCK", "in"),
                12: ("DOUT", "out"),
                13: ("XO", "passive"),
                14: ("XI", "in"),
                15: ("RATE", "in"),
                16: ("DVDD", "pwr_in"),
            },
        },
        "pnp": {
            "what": "PNP transistor 25 V 0.5 A SOT-23 (the HX711's analog supply regulator)",
            "mpn": "SS8550",
            "manufacturer": "Changjiang (JCET)",
            "value": "SS8550",
            "footprint": "Package_TO_SOT_SMD:SOT-23",
            "lcsc": "C8542",
            "western": "Mouser 863-MMBT2907ALT1G (onsemi equivalent)",
            "assembly": "smt",
            "pins": {1: ("B", "passive"), 2: ("E", "passive"), 3: ("C", "passive")},
        },
        "nmos": {
            "what": "N-channel MOSFET 60 V 0.3 A SOT-23 (buzzer driver)",
            "mpn": "2N7002",
            "manufacturer": "Changjiang (JCET)",
            "value": "2N7002",
            "footprint": "Package_TO_SOT_SMD:SOT-23",
            "lcsc": "C8545",
            "western": "Mouser 512-2N7002 (onsemi equivalent)",
            "assembly": "smt",
            "pins": {1: ("G", "in"), 2: ("S", "passive"), 3: ("D", "passive")},
        },
        "diode_4148": {
            "what": "switching diode 75 V 0.15 A SOD-123 (buzzer clamp)",
            "mpn": "1N4148W",
            "manufacturer": "Changjiang (JCET)",
            "value": "1N4148W",
            "footprint": "Diode_SMD:D_SOD-123",
            "lcsc": "C81598",
            "western": "Mouser 621-1N4148W-F (Diodes Inc. equivalent)",
            "assembly": "smt",
            "pins": {1: ("K", "passive"), 2: ("A", "passive")},
        },
        "piezo": {
            "what": "piezo sounder 4 kHz, 12 mm SMD, external drive (the clock's beeper)",
            "mpn": "PKLCS1212E4001-R1",
            "manufacturer": "Murata",
            "value": "PKLCS1212E",
            "footprint": "Buzzer_Beeper:Buzzer_Murata_PKLCS1212E",
            "lcsc": "C94511",
            "western": "Mouser 81-PKLCS1212E4001R1",
            "assembly": "smt",
            "pins": _passive(2),
        },
        "ferrite_600": {
            "what": "ferrite bead 600 Ohm at 100 MHz, 0603 (HX711 supply filter)",
            "mpn": "GZ1608D601TF",
            "manufacturer": "Sunlord",
            "value": "600R@100MHz",
            "footprint": "Inductor_SMD:L_0603_1608Metric",
            "lcsc": "C1015",
            "western": "Mouser 81-BLM18KG601SN1D (Murata equivalent)",
            "assembly": "smt",
            "pins": _passive(2),
        },
        "hdr_1x4": {
            "what": "pin header 1x4 2.54 mm, vertical (display module lead)",
            "mpn": "61300411121",
            "manufacturer": "Wurth Elektronik",
            "value": "1x4 pins",
            "footprint": "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
            "lcsc": "C5184785",
            "western": "Mouser 710-61300411121",
            "assembly": "hand",
            "pins": _passive(4),
        },
        "term_4": {
            "what": "terminal block 4-way 2.54 mm, screw (one load cell's four wires)",
            "mpn": "1725672",
            "manufacturer": "Phoenix Contact",
            "value": "MPT 0,5/4-2,54",
            "footprint": "TerminalBlock_Phoenix:"
            "TerminalBlock_Phoenix_MPT-0,5-4-2.54_1x04_P2.54mm_Horizontal",
            "lcsc": None,
            "western": "Mouser 651-1725672",
            "assembly": "hand",
            "pins": _passive(4),
        },
    }
)

"""What each MCU pin connects to, down to the part pins, jack pins and pull resistors, and the
wiring diagrams (hardware_docs/wiring-*.svg) drawn from it: the MCU module's pins (GPIO and
power), every line to its part pin or cable jack pin with its pull resistor, and the power
rails (VSYS, the sensor rail 3V3_HALL, the Pico's 3V3, ground) with the pins they reach.

Everything comes from board_config.py (pins, PULLS), host_tools/electrical.py (jacks) and the
part pin tables below (the parts' datasheets); `host_tools.pinmap` writes the files.
"""

from ingboard import board_config as bc

from host_tools import electrical

# Part pins (SOIC-24; TI CD74HC4067 and SN74HC154 datasheets, "Pin Configuration and Functions").
MUX_PINS = {"COM": 1, "S0": 10, "S1": 11, "GND": 12, "S3": 13, "S2": 14, "E": 15, "VCC": 24}
DECODER_PINS = {"GND": 12, "G1": 18, "G2": 19, "D": 20, "C": 21, "B": 22, "A": 23, "VCC": 24}
DECODER_ADDRESS = ("A", "B", "C", "D")  # group-select bit 0..3
# Raspberry Pi Pico / Pico 2 / Pico 2 W: GPIO -> physical pin (the modules' pinout diagrams).
PICO_GPIO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip
PICO_POWER_PINS = (
    ("VBUS", "40", "USB 5 V (from the USB-C jack J101)"),
    ("VSYS", "39", "system input: battery via SS14, USB via the module's diode; feeds U101"),
    ("3V3(OUT)", "36", "3V3: muxes, decoders, displays, HX711s, pull-ups, U101 EN"),
    ("ADC_VREF", "35", "from 3V3_HALL through JP101 (one reference for sensors and ADC)"),
    ("GND", "3,8,13,18,23,28,38", "ground plane; AGND (33) to ground at the ADC"),
)
RP2_MCUS = ("RP2040", "RP2350")


def module_pin(cfg, gpio):
    """The module's physical pin of a GPIO ("" where the module has no such table)."""
    if cfg["mcu"] in RP2_MCUS and gpio in PICO_GPIO_PIN:
        return str(PICO_GPIO_PIN[gpio])
    return ""


def _jack_pins(cfg):
    """gpio -> "jack NAME pin N" for every line that leaves through a cable jack."""
    out = {}
    for name, pins in electrical.jacks(cfg):
        for n, _colour, _signal, gpio in pins:
            if gpio is not None:
                where = "jack %s pin %d" % (name, n)
                out[gpio] = where if gpio not in out else "%s and %s" % (out[gpio], where)
    return out


def connects_to(cfg, gpio, function):
    """Where a used pin goes: the part and its pin, or the jack and its pin."""
    grid = cfg["grid"]
    groups = bc.grid_groups(grid["size"])
    banks = bc.grid_banks(grid["size"])
    seconds = ", ".join("M%d" % b for b in range(banks))
    decoders = ", ".join("D%d" % b for b in range(banks))
    if gpio in grid["channel_select"]:
        bit = grid["channel_select"].index(gpio)
        return "S%d (pin %d) of every first-level CD74HC4067 (U1-U%d)" % (
            bit,
            MUX_PINS["S%d" % bit],
            groups,
        )
    if gpio in grid["group_select"]:
        bit = grid["group_select"].index(gpio)
        letter = DECODER_ADDRESS[bit]
        return "S%d (pin %d) of %s; %s (pin %d) of %s" % (
            bit,
            MUX_PINS["S%d" % bit],
            seconds,
            letter,
            DECODER_PINS[letter],
            decoders,
        )
    if gpio in grid["bank_enable"]:
        b = grid["bank_enable"].index(gpio)
        return "E (pin %d) of M%d; G1 (pin %d) of D%d (its G2, pin %d, to GND)" % (
            MUX_PINS["E"],
            b,
            DECODER_PINS["G1"],
            b,
            DECODER_PINS["G2"],
        )
    if gpio in grid["adc"]:
        b = grid["adc"].index(gpio)
        return "COM (pin %d) of second-level mux M%d" % (MUX_PINS["COM"], b)
    jack = _jack_pins(cfg).get(gpio)
    if jack is not None:
        if function.startswith("HX711"):
            what = "DOUT" if "DOUT" in function else "PD_SCK"
            return "%s, to the bowl board's HX711 %s" % (jack, what)
        if "SDA" in function or "SCL" in function:
            return "%s, to the display's %s" % (jack, function.split()[1])
        if function.startswith("key"):
            return "%s, to the key (other side to GND)" % jack
        if function.startswith("buzzer"):
            return "100 Ohm to %s, to the clock board's piezo switch (2N7002 gate)" % jack
        return jack
    if function.startswith("battery"):
        return "on the module (VSYS through 200k/100k)"
    return ""


def pull_text(cfg, gpio):
    for g, rail, ohms, _role in bc.pulls(cfg):
        if g == gpio:
            return "%g k to %s" % (ohms / 1000.0, rail)
    return ""


# -- the diagram ------------------------------------------------------------------------------


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_COLOURS = {"grid": "#2a6", "cable": "#26a", "module": "#888", "power": "#c33", "gnd": "#333"}


def _kind(cfg, gpio):
    if gpio in _jack_pins(cfg):
        return "cable"
    if any(
        gpio in cfg["grid"][k] for k in ("channel_select", "group_select", "bank_enable", "adc")
    ):
        return "grid"
    return "module"


def wiring_svg(cfg):
    pins = bc.used_pins(cfg)
    row = 20
    top = 96
    x_mcu, w_mcu = 30, 390
    x_pull = 440
    x_dest = 560
    width = 1220
    rows_h = row * len(pins)
    out = []
    y = top
    # The MCU's pins and where each goes.
    for gpio, function in pins:
        kind = _kind(cfg, gpio)
        pin = module_pin(cfg, gpio)
        label = (
            "%-3s GP%-2d %s" % (pin, gpio, function) if pin else "GPIO%-2d %s" % (gpio, function)
        )
        out.append('<text x="%d" y="%d">%s</text>' % (x_mcu + 8, y, _esc(label)))
        out.append(
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
            % (x_mcu + w_mcu, y - 4, x_dest - 8, y - 4, _COLOURS[kind])
        )
        pull = pull_text(cfg, gpio)
        if pull:
            out.append(
                '<rect x="%d" y="%d" width="96" height="14" fill="white" stroke="%s"/>'
                % (x_pull, y - 12, _COLOURS["power"] if "3V3" in pull else _COLOURS["gnd"])
            )
            out.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x_pull + 4, y - 1, pull))
        out.append(
            '<text x="%d" y="%d">%s</text>' % (x_dest, y, _esc(connects_to(cfg, gpio, function)))
        )
        y += row
    head = [
        '<rect x="%d" y="%d" width="%d" height="%d" fill="#eef5ee" stroke="black"/>'
        % (x_mcu, top - 16, w_mcu, rows_h + 6),
    ]
    # Power and ground.
    y += 24
    out.append(
        '<text x="%d" y="%d" font-size="14" font-weight="bold">Power and ground</text>'
        % (x_mcu, y)
    )
    y += 20
    power_rows = []
    if cfg["mcu"] in RP2_MCUS:
        for name, pin, text in PICO_POWER_PINS:
            power_rows.append(("%s pin %s" % (name, pin), text))
    else:
        power_rows.append(
            ("5V / 3V3 / GND", "the module's own regulator; the rails below as on the Pico")
        )
    power_rows += [
        (
            "3V3_HALL",
            "U101 TPS63001 (VIN = VSYS, EN = 3V3) -> FB101 -> sources of Q1-Q%d (sensor groups)"
            % bc.grid_groups(cfg["grid"]["size"]),
        ),
        ("3V3", "VCC (pin 24) of every CD74HC4067 and 74HC154; pin 4 of every jack"),
        (
            "GND",
            "pin 12 of every CD74HC4067 and 74HC154; E (pin 15) of U1-U%d; pins 2, 6 of every jack"
            % bc.grid_groups(cfg["grid"]["size"]),
        ),
    ]
    for left, right in power_rows:
        colour = _COLOURS["gnd"] if "GND" in left else _COLOURS["power"]
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (x_mcu + 8, y, colour, _esc(left)))
        out.append(
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"'
            ' stroke-dasharray="6,3"/>' % (x_mcu + 300, y - 4, x_dest - 8, y - 4, colour)
        )
        out.append('<text x="%d" y="%d">%s</text>' % (x_dest, y, _esc(right)))
        y += row
    # The jacks, pin by pin.
    y += 24
    out.append(
        '<text x="%d" y="%d" font-size="14" font-weight="bold">Cable jacks (8P8C, T568B):'
        " pin 1 .. 8</text>" % (x_mcu, y)
    )
    y += 20
    for name, jpins in electrical.jacks(cfg):
        cells = []
        for n, _colour, signal, gpio in jpins:
            short = signal.split(" (")[0]
            cells.append("%d %s%s" % (n, short, "" if gpio is None else " GP%d" % gpio))
        out.append(
            '<text x="%d" y="%d"><tspan font-weight="bold">%-8s</tspan> %s</text>'
            % (x_mcu + 8, y, name, _esc(" | ".join(cells)))
        )
        y += row
    height = y + 20
    legend = (
        '<text x="%d" y="74" font-size="11">lines: <tspan fill="%s">grid</tspan>,'
        ' <tspan fill="%s">through a cable jack</tspan>, <tspan fill="%s">power</tspan>;'
        " boxes: the external pull resistor of the line (state at boot)</text>"
        % (x_mcu, _COLOURS["grid"], _COLOURS["cable"], _COLOURS["power"])
    )
    return (
        "\n".join(
            [
                '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d"'
                ' font-family="monospace" font-size="12">' % (width, height),
                '<rect width="100%" height="100%" fill="white"/>',
                '<text x="%d" y="30" font-size="16" font-weight="bold">%s</text>'
                % (x_mcu, _esc(cfg["title"])),
                '<text x="%d" y="52">generated from firmware/ingboard/board_config.py by'
                " host_tools/pinmap.py; pin = module pin, GP = GPIO</text>" % x_mcu,
                legend,
            ]
            + head
            + out
            + ["</svg>"]
        )
        + "\n"
    )

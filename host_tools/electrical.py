"""The electrical checks of the reference design, computed from datasheet figures and
board_config.py: the 3.3 V rails at peak, the I2C bus over the clock cable (capacitance, rise
time, pull-up range, longest cable) and the analog lines' noise margin. `host_tools.pinmap`
renders them into hardware_docs/pinmap.md; hardware_docs/electrical.md explains the decisions.

Every figure names its source. "assumed" marks a figure no datasheet gives (to be measured on
a built set); the checks keep their margin with it.
"""

import math

from ingboard import board_config as bc

# -- datasheet figures --------------------------------------------------------------------------
HALL_ICC_MAX_MA = 10.0  # DRV5055 datasheet, Electrical Characteristics: I_CC 6 mA typ, 10 mA max
HALL_ICC_TYP_MA = 6.0
HALL_MV_PER_MT = 33.0  # DRV5055A2: 50 mV/mT at 5 V, ratiometric: 33 mV/mT at 3.3 V
HALL_NOISE_NT_RTHZ = 130  # DRV5055 datasheet: input-referred noise density, typ (check)
HALL_BANDWIDTH_HZ = 20000  # DRV5055 datasheet: sensing bandwidth 20 kHz
MUX_ICC_MAX_MA = 0.08  # CD74HC4067 datasheet: quiescent I_CC 80 uA max, -40 to 85 C
DECODER_ICC_MAX_MA = 0.08  # SN74HC154 datasheet: quiescent I_CC 80 uA max, -40 to 85 C
MUX_RON_OHM = 200  # CD74HC4067: R_ON 160 ohm max at 4.5 V; at 3.3 V assumed 200 ohm
HX711_MA_MAX = 1.5  # HX711 datasheet: operating current < 1.5 mA (regulator included)
CELL_BRIDGE_OHM = 1000  # 2 kg bar cells: input resistance about 1 kOhm
CELLS_PER_BOWL = 2
DISPLAY_MA_MAX = 30.0  # assumed: no module datasheet gives it; all pixels lit, full contrast
MCU_MA_MAX = 50.0  # assumed: about 25 mA running MicroPython at 150 MHz, doubled (radio apart)
PICO_3V3_OUT_MA = 300  # Pico 2 datasheet, 3V3 pin: keep the external load under 300 mA
SENSOR_REG_MA = 800  # TPS63001 datasheet: 800 mA out in boost mode (V_IN > 2.4 V), 1200 buck
SENSOR_REG = "TPS63001 buck-boost (3.3 V fixed, 1.8-5.5 V in)"
RAIL_V = 3.3

ADC_ENOB = 9.2  # RP2350 datasheet, ADC: ENOB 9.2 bits
ADC_SPAN_COUNTS = 9000  # the classifier's default span (sensing/classifier.py), read_u16 scale
ENTER_FRACTION = 0.25  # sensing/classifier.py: a point enters B/W at 25 % of its span
LEAVE_FRACTION = 0.12  # and leaves below 12 %
CROSSTALK_FRACTION = 0.06  # design.md: eight like neighbours shift a point by at most 6 %
ANALOG_LINE_M = 0.5  # longest sensor-to-ADC path: strip, ribbon, spine (inside the board)
ANALOG_LINE_PF_PER_M = 100  # ribbon or trace with a ground beside it: assumed
MUX_COM_PF = 90  # assumed: common and switch capacitance of the two muxes in series
SETTLE_US = 3  # the earliest a read follows a select flip (pinmap PIN_WRITE_US)

# -- I2C over the clock cable (NXP UM10204, I2C-bus specification rev. 7, table 10) ----------
# (rise time limit ns, bus capacitance limit pF) by bus speed: Standard-mode, Fast-mode.
I2C_LIMITS = ((100000, 1000, 400), (400000, 300, 400))
I2C_VOL_V = 0.4  # at I_OL = 3 mA
I2C_IOL_MA = 3.0
CABLE_PF_PER_M = (
    80  # Cat 5e: mutual capacitance <= 56 pF/m (TIA-568); to all conductors assumed 80
)
CLOCK_CABLE_M = 1.0  # the clock stands at White's right (seed 000 Art. 10), beside the board
CLOCK_CABLE_MAX_M = 1.5
BOWL_CABLE_MAX_M = 3.0  # HX711 lines: 3 m is 240 pF, settled in tens of ns; the pulses last us
BUS_FIXED_PF = (  # once per bus
    ("MCU pin", 10),  # pad input capacitance (assumed)
    ("controller board traces", 10),
)
PER_CABLE_PF = (  # once per clock cable on the bus (a display at its end)
    ("ESD arrays at both ends", 2),  # TPD4E1U06: 0.8 pF per channel
    ("display module (input and header)", 15),  # assumed
)
MODULE_PULLUP_OHM = (None, 10000, 4700)  # OLED modules ship with none, 10k or 4.7k on board


def rails(cfg):
    """The two 3.3 V rails at their peak, from datasheet maxima: a list of
    (rail, limit_mA, [(consumer, count, each_mA)]) plus the sum if the sensors were on the
    Pico's own 3V3 (the reason for their regulator)."""
    size = cfg["grid"]["size"]
    groups = bc.grid_groups(size)
    banks = bc.grid_banks(size)
    at_once = len(range(0, groups, bc.GROUPS_PER_BANK))  # groups powered at one address
    hall = [
        (
            "DRV5055, %d groups of %d powered at once" % (at_once, bc.CHANNELS_PER_GROUP),
            at_once * bc.CHANNELS_PER_GROUP,
            HALL_ICC_MAX_MA,
        )
    ]
    pulls = bc.pulls(cfg)
    pull_ma = sum(RAIL_V / ohms * 1000 for _g, _rail, ohms, _role in pulls)
    logic = [
        ("%s itself, on the same regulator" % cfg["mcu"], 1, MCU_MA_MAX),
        ("CD74HC4067 muxes", groups + banks, MUX_ICC_MAX_MA),
        ("74HC154 decoders", banks, DECODER_ICC_MAX_MA),
        ("displays (all pixels lit)", len(cfg["displays"]), DISPLAY_MA_MAX),
        ("HX711 amplifiers", 2, HX711_MA_MAX),
        (
            "load-cell bridges (2 x 1 kOhm in parallel per bowl)",
            2,
            2 * RAIL_V / CELL_BRIDGE_OHM * 1000,
        ),
        ("pull resistors, every line at its far level", 1, pull_ma),
    ]
    return [
        ("3V3_HALL", SENSOR_REG_MA, hall),
        ("3V3", PICO_3V3_OUT_MA, logic),
    ]


def rail_total(items):
    return sum(count * each for _name, count, each in items)


def rails_markdown(cfg):
    out = [
        "## 3.3 V rails at peak (variant `%s`)" % cfg["name"],
        "",
        "Datasheet maxima (`host_tools/electrical.py`; hardware_docs/electrical.md explains the"
        " choices). 3V3_HALL: the sensor plane's own %s, %d mA in boost mode; 3V3: the"
        " Pico's 3V3(OUT) pin, at most %d mA of external load (Pico 2 datasheet), here with"
        " the MCU's own current counted against it too. The Pico 2 W's radio transmits in"
        " bursts on top of this: measure them on a built set."
        % (SENSOR_REG, SENSOR_REG_MA, PICO_3V3_OUT_MA),
        "",
        "| rail | consumer | count | each mA | mA |",
        "|---|---|---:|---:|---:|",
    ]
    together = 0
    for rail, limit, items in rails(cfg):
        for name, count, each in items:
            out.append("| %s | %s | %d | %.2f | %.1f |" % (rail, name, count, each, count * each))
        total = rail_total(items)
        together += total
        out.append(
            "| **%s** | **peak, of a %d mA limit** | | | **%.0f (margin %.0f mA)** |"
            % (rail, limit, total, limit - total)
        )
    out += [
        "",
        "Everything on the Pico's 3V3 pin instead: **%.0f mA** against its %d mA: not enough,"
        " hence the sensor regulator." % (together, PICO_3V3_OUT_MA),
        "",
    ]
    return "\n".join(out)


# -- I2C --------------------------------------------------------------------------------------


def i2c_limits(freq_hz):
    """(rise time limit ns, capacitance limit pF) of the slowest mode that allows freq_hz."""
    for top, tr_ns, cb_pf in I2C_LIMITS:
        if freq_hz <= top:
            return tr_ns, cb_pf
    raise ValueError("I2C at %d Hz: faster than Fast-mode" % freq_hz)


def buses(cfg):
    """[(bus dict, [display colours on it])]: each display hangs at the end of its own clock
    cable, so a bus carries one cable per display on it."""
    out = []
    for index, bus in enumerate(cfg["i2c"]):
        colours = sorted(c for c, d in cfg["displays"].items() if d["bus"] == index)
        out.append((bus, colours))
    return out


def bus_capacitance_pf(cable_m, cables=1):
    per_cable = cable_m * CABLE_PF_PER_M + sum(pf for _n, pf in PER_CABLE_PF)
    return cables * per_cable + sum(pf for _n, pf in BUS_FIXED_PF)


def rise_time_ns(pullup_ohm, cap_pf):
    """30 % to 70 % rise of an RC: t = R C ln(0.7/0.3) = 0.8473 R C (UM10204, 7.1)."""
    return 0.8473 * pullup_ohm * cap_pf * 1e-3


def pullup_range(cap_pf, freq_hz=400000):
    """(min, max) total pull-up in ohm: min from V_OL at I_OL, max from the rise time."""
    tr_ns, _cb = i2c_limits(freq_hz)
    low = (RAIL_V - I2C_VOL_V) / (I2C_IOL_MA / 1000)
    high = tr_ns / (0.8473 * cap_pf * 1e-3)
    return low, high


def total_pullup(board_ohm, module_ohm, cables):
    """The board's pull-up in parallel with each module's own (None: the modules have none)."""
    if module_ohm is None:
        return board_ohm
    modules = module_ohm / cables
    return board_ohm * modules / (board_ohm + modules)


def longest_cable_m(pullup_ohm, freq_hz=400000, cables=1):
    """The longest clock cable at which `pullup_ohm` alone still meets the rise time."""
    tr_ns, cb_pf = i2c_limits(freq_hz)
    cap_max = min(tr_ns / (0.8473 * pullup_ohm * 1e-3), cb_pf)
    fixed = bus_capacitance_pf(0, cables)
    return (cap_max - fixed) / (cables * CABLE_PF_PER_M)


def _bus_rows(freq, cables):
    """[(cable m, capacitance, (low, high), module, total, rise ns, ok)] of a bus kind."""
    rp = bc.PULLS["i2c"][1]
    _tr, cb_pf = i2c_limits(freq)
    rows = []
    for length in (CLOCK_CABLE_M, CLOCK_CABLE_MAX_M):
        cap = bus_capacitance_pf(length, cables)
        low, high = pullup_range(cap, freq)
        for module in MODULE_PULLUP_OHM:
            total = total_pullup(rp, module, cables)
            tr = rise_time_ns(total, cap)
            rows.append((length, cap, (low, high), module, total, tr, low <= total <= high))
    return rows


def i2c_rows(cfg):
    """[(bus, colours, cable m, capacitance, (low, high), module, total, rise ns, ok)]."""
    rows = []
    for bus, colours in buses(cfg):
        for row in _bus_rows(bus["freq"], max(len(colours), 1)):
            rows.append((bus, colours) + row)
    return rows


def i2c_ok(cfg):
    """Problems of the I2C pull-ups against the longest clock cables (empty: fine)."""
    out = []
    for bus, colours, length, cap, (low, high), module, total, _tr, ok in i2c_rows(cfg):
        if not ok:
            out.append(
                "I2C%d (%s): %.0f Ohm with module pull-up %s is outside %.0f..%.0f Ohm"
                " (%.0f pF, %.1f m cables)"
                % (bus["id"], "+".join(colours), total, module, low, high, cap, length)
            )
    return out


def i2c_markdown(cfg_list):
    rp = bc.PULLS["i2c"][1]
    out = [
        "## I2C over the clock cables",
        "",
        "Each display sits at the end of its own clock cable, a Cat 5e patch cable (each of SDA"
        " and SCL twisted with a ground; hardware_docs/electrical.md), %.1f m standard, %.1f m"
        " at most. Pull-up on the controller board: %d Ohm per line; each module's own pull-up,"
        " if any, is in parallel. Limits from the I2C-bus specification (NXP UM10204, table 10):"
        " rise time %s, bus capacitance 400 pF; minimum pull-up (3.3 V - %.1f V) / %d mA."
        % (
            CLOCK_CABLE_M,
            CLOCK_CABLE_MAX_M,
            rp,
            ", ".join("%d ns at %d kHz" % (tr, f // 1000) for f, tr, _cb in I2C_LIMITS),
            I2C_VOL_V,
            I2C_IOL_MA,
        ),
        "",
        "| buses | kHz | cables | cable | bus capacitance | pull-up range | module pull-ups |"
        " total pull-up | rise time |",
        "|---|---:|---:|---:|---:|---|---|---:|---:|",
    ]
    kinds = []  # (freq, cables) in first-seen order, with the buses of that kind
    for cfg in cfg_list:
        for bus, colours in buses(cfg):
            key = (bus["freq"], max(len(colours), 1))
            name = (cfg["name"], "I2C%d (%s)" % (bus["id"], "+".join(colours)))
            for k, names in kinds:
                if k == key:
                    names.append(name)
                    break
            else:
                kinds.append((key, [name]))
    for (freq, cables), pairs in kinds:
        per_variant = []  # [(buses text, [variants])]: variants with the same buses together
        for variant in [
            v for i, (v, _b) in enumerate(pairs) if v not in [p[0] for p in pairs[:i]]
        ]:
            text = ", ".join(b for v, b in pairs if v == variant)
            for t, variants in per_variant:
                if t == text:
                    variants.append(variant)
                    break
            else:
                per_variant.append((text, [variant]))
        names = ["%s: %s" % (", ".join(vs), t) for t, vs in per_variant]
        for length, cap, (low, high), module, total, tr, ok in _bus_rows(freq, cables):
            out.append(
                "| %s | %d | %d | %.1f m | %.0f pF | %.0f .. %.0f Ohm | %s | %.0f Ohm |"
                " %.0f ns%s |"
                % (
                    "; ".join(names),
                    freq // 1000,
                    cables,
                    length,
                    cap,
                    low,
                    high,
                    "none" if module is None else "%d Ohm" % module,
                    total,
                    tr,
                    "" if ok else " **out of range**",
                )
            )
    ref = bc.variant()
    out += [
        "",
        "Capacitance: cable %d pF/m (Cat 5e mutual capacitance is at most 56 pF/m; %d pF/m"
        " counts the other conductors too), per cable %s, per bus %s. With %d Ohm alone a"
        " Fast-mode bus with one display may have a cable of %.1f m at most. The `%s` variant"
        " has both displays on one bus, at the ends of two cables: it runs that bus at"
        " Standard-mode speed."
        % (
            CABLE_PF_PER_M,
            CABLE_PF_PER_M,
            ", ".join("%s %d pF" % (n, pf) for n, pf in PER_CABLE_PF),
            ", ".join("%s %d pF" % (n, pf) for n, pf in BUS_FIXED_PF),
            rp,
            longest_cable_m(rp, ref["i2c"][0]["freq"]),
            "esp32s3",
        ),
        "",
    ]
    return "\n".join(out)


# -- analog noise margin ----------------------------------------------------------------------


def noise_budget():
    """[(source, mV rms or mV, note)] and the margin figures, in mV, at the ADC input."""
    span_mv = ADC_SPAN_COUNTS / 65535 * RAIL_V * 1000
    adc_lsb_mv = RAIL_V * 1000 / 2**ADC_ENOB
    adc_rms = adc_lsb_mv / math.sqrt(12)
    hall_rms = (
        HALL_NOISE_NT_RTHZ * 1e-6 * math.sqrt(HALL_BANDWIDTH_HZ) * HALL_MV_PER_MT
    )  # nT -> mT
    total_rms = math.sqrt(adc_rms**2 + hall_rms**2)
    line_pf = ANALOG_LINE_M * ANALOG_LINE_PF_PER_M + MUX_COM_PF
    tau_ns = 2 * MUX_RON_OHM * line_pf * 1e-3
    settle = math.exp(-SETTLE_US * 1000 / tau_ns)
    leave_mv = LEAVE_FRACTION * span_mv
    crosstalk_mv = CROSSTALK_FRACTION * span_mv
    return {
        "span_mv": span_mv,
        "adc_rms_mv": adc_rms,
        "hall_rms_mv": hall_rms,
        "total_rms_mv": total_rms,
        "peak_mv": 6 * total_rms,
        "line_pf": line_pf,
        "tau_ns": tau_ns,
        "settle_residue": settle,
        "leave_mv": leave_mv,
        "crosstalk_mv": crosstalk_mv,
        "margin_mv": leave_mv - crosstalk_mv,
        "ratio": (leave_mv - crosstalk_mv) / (6 * total_rms),
    }


def noise_markdown():
    n = noise_budget()
    return "\n".join(
        [
            "## Analog noise margin",
            "",
            "No analog signal leaves the board unit: the bowls send digits (HX711). Inside it,"
            " a sensor's output runs along its strip and a short ribbon to its first-level mux"
            " on the spine, and the group's output along the spine to its second-level mux:"
            " %.1f m at most in all." % ANALOG_LINE_M,
            "",
            "| figure | value |",
            "|---|---:|",
            "| a stone's span (default calibration, %d counts) | %.0f mV |"
            % (ADC_SPAN_COUNTS, n["span_mv"]),
            "| empty point leaves at %d %% of the span | %.0f mV |"
            % (LEAVE_FRACTION * 100, n["leave_mv"]),
            "| worst crosstalk, eight like neighbours (%d %%) | %.0f mV |"
            % (CROSSTALK_FRACTION * 100, n["crosstalk_mv"]),
            "| **margin left for noise** | **%.0f mV** |" % n["margin_mv"],
            "| ADC noise, ENOB %.1f bits (RP2350 datasheet) | %.2f mV rms |"
            % (ADC_ENOB, n["adc_rms_mv"]),
            "| DRV5055 noise, %d nT/sqrt(Hz) (typical) over %d kHz | %.2f mV rms |"
            % (HALL_NOISE_NT_RTHZ, HALL_BANDWIDTH_HZ // 1000, n["hall_rms_mv"]),
            "| both, 6 sigma | %.1f mV |" % n["peak_mv"],
            "| **margin / noise** | **%.1f x** |" % n["ratio"],
            "| line settling: 2 x %d Ohm mux R_ON into %.0f pF | tau %.0f ns; after %d us:"
            " %s of a step |"
            % (
                MUX_RON_OHM,
                n["line_pf"],
                n["tau_ns"],
                SETTLE_US,
                "under 1e-9" if n["settle_residue"] < 1e-9 else "%.1e" % n["settle_residue"],
            ),
            "",
            "Coupling from the select lines has settled long before a read (the residue"
            " above); 50 Hz pickup into a line driven through a few hundred ohms is in the"
            " microvolts. The sensors and the ADC share one reference (3V3_HALL drives"
            " ADC_VREF), so supply ripple cancels ratiometrically.",
            "",
        ]
    )


# -- cables and jacks -------------------------------------------------------------------------
# Every cable between units is a straight Cat 5e patch cable (T568B at both ends) into an 8P8C
# (RJ45) jack; 3V3 is on pin 4 and ground on pins 2 and 6 of every jack, and no pin carries an
# output on one kind of jack where the other kind has ground, so a cable in the wrong jack
# harms nothing (hardware_docs/electrical.md, "Cables and units").
T568B = {1: "white-orange", 2: "orange", 3: "white-green", 4: "blue", 5: "white-blue",
         6: "green", 7: "white-brown", 8: "brown"}  # fmt: skip
CLOCK_JACK = ("SDA", "GND", "SCL", "3V3", "AUX2", "GND", "KEY", "AUX1")  # pins 1-8
BOWL_JACK = ("DOUT", "GND", "PD_SCK", "3V3", "NC", "GND", "NC", "NC")
# What KEY and AUX carry on each side's clock cable.
CLOCK_SIDES = {
    "B": {"KEY": "B", "AUX1": "pause", "AUX2": "buzzer"},
    "W": {"KEY": "W", "AUX1": "menu", "AUX2": None},
}


def jacks(cfg):
    """[(jack, [(pin, wire colour, signal, gpio or None)])] of the controller board's jacks."""
    out = []
    for side in ("B", "W"):
        disp = cfg["displays"][side]
        bus = cfg["i2c"][disp["bus"]]
        pins = []
        for n, role in enumerate(CLOCK_JACK, 1):
            gpio = None
            signal = role
            if role in ("SDA", "SCL"):
                gpio = bus[role.lower()]
                signal = "I2C%d %s (display %s)" % (bus["id"], role, side)
            elif role in ("KEY", "AUX1", "AUX2"):
                what = CLOCK_SIDES[side][role]
                if what is None:
                    signal = "NC"
                elif what == "buzzer":
                    gpio = cfg["buzzer"]
                    signal = "buzzer (PWM, 100 Ohm in series)"
                else:
                    gpio = cfg["keys"].get(what)  # a missing key is problems()' to report
                    signal = "key %s (to GND at the clock)" % what
            pins.append((n, T568B[n], signal, gpio))
        out.append(("CLOCK %s" % side, pins))
    for side in ("B", "W"):
        hx = cfg["bowls"][side]
        pins = []
        for n, role in enumerate(BOWL_JACK, 1):
            gpio = None
            signal = role
            if role == "DOUT":
                gpio, signal = hx["dout"], "HX711 DOUT"
            elif role == "PD_SCK":
                gpio, signal = hx["sck"], "HX711 PD_SCK"
            pins.append((n, T568B[n], signal, gpio))
        out.append(("BOWL %s" % side, pins))
    return out


def jack_problems(cfg):
    """Wrong-jack hazards: an output of one kind of jack on a pin the other kind grounds."""
    out = []
    grounds = {}
    outputs = {}
    for name, pins in jacks(cfg):
        kind = name.split()[0]
        for n, _colour, signal, _gpio in pins:
            if signal == "GND":
                grounds.setdefault(kind, set()).add(n)
            elif signal.startswith(("buzzer", "HX711 PD_SCK")) or "3V3" == signal:
                outputs.setdefault(kind, set()).add(n)
    for kind, pins in outputs.items():
        for other, ground in grounds.items():
            if other != kind:
                for n in sorted(pins & ground):
                    out.append("%s jack pin %d drives what a %s jack grounds" % (kind, n, other))
    return out


def jacks_markdown(cfg):
    out = [
        "## Cables and jacks (variant `%s`)" % cfg["name"],
        "",
        "Straight Cat 5e patch cables (T568B), clock cables %.1f m (%.1f m at most), bowl"
        " cables up to %.1f m; the same 8P8C jack at both ends (hardware_docs/electrical.md)."
        " The clock board and the bowl boards wire the same pin numbers."
        % (CLOCK_CABLE_M, CLOCK_CABLE_MAX_M, BOWL_CABLE_MAX_M),
        "",
        "| pin | T568B wire | %s |" % " | ".join(name for name, _p in jacks(cfg)),
        "|---:|---|" + "---|" * len(jacks(cfg)),
    ]
    table = jacks(cfg)
    for i in range(8):
        cells = []
        for _name, pins in table:
            n, _colour, signal, gpio = pins[i]
            cells.append(signal if gpio is None else "%s, GPIO%d" % (signal, gpio))
        out.append("| %d | %s | %s |" % (i + 1, T568B[i + 1], " | ".join(cells)))
    out.append("")
    return "\n".join(out)

"""The bowls, the displays, the keys and the supply read from raw readings (pure).

Readings (walk.py): `bowls` {"grams", "zero": {B, W}, "loads": {bowl: {spot: {B, W}}},
"errors": {bowl: text}} - raw HX711 codes with nothing on the platforms and with the known
weight at each end of one platform (plan.BOWL_SPOTS); `i2c` [{"found", "status"}] per bus;
`keys` {"asked": {key: {"idle", "down"}}}; `supply_mv`.
"""

from ingboard import physical as ph

EXPECTED_PER_G = ph.HX711_COUNTS_PER_G
SSD1306_IDS = (0x02, 0x03, 0x06, 0x07)  # status low bits of SSD1306 modules (0x06: 128x64)
SH1106_ID = 0x08
COLOURS = {"B": "Black", "W": "White"}


def _finding(code, part, text):
    return {"code": code, "part": part, "text": text}


def bowls(readings, cfg):
    b = readings.get("bowls")
    if not b:
        return []
    out = []
    grams = b["grams"]
    errors = b.get("errors") or {}
    for colour in ("B", "W"):
        pins = cfg["bowls"][colour]
        name = "%s's bowl" % COLOURS[colour]
        if colour in errors:
            out.append(
                _finding(
                    "hx711-silent",
                    "HX711 %s" % colour,
                    "the HX711 of %s does not answer (%s): check its DOUT wire (GP%d), PD_SCK"
                    " (GP%d), VCC and GND" % (name, errors[colour], pins["dout"], pins["sck"]),
                )
            )
            continue
        other = "W" if colour == "B" else "B"
        loads = b["loads"].get(colour) or {}
        if not loads:
            continue
        scale = {}
        moved_other = 0
        for spot, codes in loads.items():
            scale[spot] = (codes[colour] - b["zero"][colour]) / grams
            if other not in errors:
                moved_other = max(moved_other, abs(codes[other] - b["zero"][other]) / grams)
        values = list(scale.values())
        small = EXPECTED_PER_G * 0.1
        if all(abs(v) < small for v in values):
            if moved_other >= small * 2:
                out.append(
                    _finding(
                        "bowls-swapped",
                        "HX711 B/W",
                        "a weight on %s shows on the other bowl's HX711: the two HX711 modules'"
                        " cables (GP%d/GP%d and GP%d/GP%d) or their load cells are swapped"
                        % (
                            name,
                            cfg["bowls"]["B"]["dout"],
                            cfg["bowls"]["B"]["sck"],
                            cfg["bowls"]["W"]["dout"],
                            cfg["bowls"]["W"]["sck"],
                        ),
                    )
                )
            else:
                out.append(
                    _finding(
                        "cell-silent",
                        "load cells %s" % colour,
                        "the load cells of %s give no signal: their four wires (E+ E- A+ A-) at"
                        " the HX711, or the cells' own wires" % name,
                    )
                )
            continue
        spots = sorted(scale)
        left, right = scale[spots[0]], scale[spots[-1]]
        if (
            left < 0
            and right < 0
            and min(abs(left), abs(right)) >= 0.85 * max(abs(left), abs(right))
        ):
            out.append(
                _finding(
                    "cell-reversed",
                    "HX711 %s" % colour,
                    "%s reads lighter as weight is added: the load cells' signal pair is"
                    " reversed at the HX711 (swap the wires on A+ and A-)" % name,
                )
            )
            continue
        hi, lo = max(left, right), min(left, right)
        if lo < 0 < hi or abs(hi - lo) > 0.15 * max(abs(hi), abs(lo)):
            weaker = "left" if abs(left) < abs(right) else "right"
            if (left < 0) != (right < 0) or abs(left - right) > max(abs(left), abs(right)):
                detail = (
                    "one of the two cells is wired backwards (its signal wires on the wrong"
                    " terminals), so they cancel: the %s cell, most likely" % weaker
                )
            else:
                detail = (
                    "the %s cell gives less: a cell of another rating, a damaged one, or its"
                    " mounting strained" % weaker
                )
            out.append(
                _finding(
                    "cell-mismatch",
                    "load cells %s" % colour,
                    "the known weight reads %.0f counts/g at the left of %s's platform and %.0f"
                    " at the right: its two cells do not match - %s"
                    % (left, COLOURS[colour], right, detail),
                )
            )
    return out


def displays(readings, cfg):
    buses = readings.get("i2c")
    if buses is None:
        return []
    out = []
    claimed = {}
    for d in cfg["displays"].values():
        claimed.setdefault(d["bus"], set()).add(d["addr"])
    for colour, d in sorted(cfg["displays"].items()):
        bus_cfg = cfg["i2c"][d["bus"]]
        bus = buses[d["bus"]] if d["bus"] < len(buses) else {"found": [], "status": {}}
        found = bus.get("found") or []
        name = "%s's display" % COLOURS.get(colour, colour)
        if d["addr"] in found:
            status = bus.get("status", {}).get(str(d["addr"]))
            if status is not None and (status & 0x0F) == SH1106_ID:
                out.append(
                    _finding(
                        "display-sh1106",
                        "display %s" % colour,
                        '%s is an SH1106 module (1.3"), not an SSD1306: it shows garbage with'
                        ' the SSD1306 driver - fit a 128x64 SSD1306 module (0.96")' % name,
                    )
                )
            continue
        strays = [a for a in found if a not in claimed.get(d["bus"], set())]
        if strays:
            out.append(
                _finding(
                    "display-address",
                    "display %s" % colour,
                    "%s answers at 0x%02X on I2C%d, not at 0x%02X: move its address jumper (the"
                    " resistor marked 0x78/0x7A on the back: 0x78 = 0x3C, 0x7A = 0x3D)"
                    % (name, strays[0], bus_cfg["id"], d["addr"]),
                )
            )
        else:
            out.append(
                _finding(
                    "display-missing",
                    "display %s" % colour,
                    "nothing answers on I2C%d at 0x%02X: %s's SDA (GP%d), SCL (GP%d), VCC or GND"
                    % (bus_cfg["id"], d["addr"], name, bus_cfg["sda"], bus_cfg["scl"]),
                )
            )
    return out


def keys(readings, cfg):
    k = readings.get("keys")
    if not k:
        return []
    out = []
    asked = k["asked"]
    pins = cfg["keys"]
    stuck = [n for n in pins if asked and all(n in a["idle"] for a in asked.values())]
    for n in stuck:
        out.append(
            _finding(
                "key-stuck",
                "key %s" % n,
                "key %s (GP%d) reads pressed untouched: its wire is shorted to GND or the button"
                " is stuck" % (n, pins[n]),
            )
        )
    seen = {}
    for n, a in asked.items():
        seen[n] = [d for d in a["down"] if d not in stuck]
    silent = [n for n in asked if n not in stuck]
    if len(silent) > 1 and not any(seen[n] for n in silent):
        out.append(
            _finding(
                "keys-silent",
                "keys %s" % "/".join(silent),
                "no key reads pressed (%s): the keys' common GND wire is open (or nobody"
                " pressed them)" % ", ".join("%s GP%d" % (n, pins[n]) for n in silent),
            )
        )
        return out
    done = set()
    for n in asked:
        if n in stuck or n in done:
            continue
        got = seen[n]
        if got == [n]:
            continue
        if not got:
            out.append(
                _finding(
                    "key-open",
                    "key %s" % n,
                    "pressing key %s reads nothing: its wire to GP%d or to GND is open"
                    % (n, pins[n]),
                )
            )
        elif len(got) == 1 and seen.get(got[0]) == [n]:
            m = got[0]
            done.update((n, m))
            out.append(
                _finding(
                    "key-swapped",
                    "keys %s/%s" % (n, m),
                    "keys %s and %s are swapped: the button of %s is on GP%d and that of %s on"
                    " GP%d; exchange the two wires" % (n, m, n, pins[m], m, pins[n]),
                )
            )
        else:
            out.append(
                _finding(
                    "key-miswired",
                    "key %s" % n,
                    "pressing key %s reads as %s: its button is wired to %s"
                    % (n, " and ".join(got), " and ".join("GP%d" % pins[g] for g in got)),
                )
            )
    return out


def supply(readings, cfg):
    mv = readings.get("supply_mv")
    if mv is None:
        return []
    if 3000 <= mv <= 5600:
        return []
    return [
        _finding(
            "supply",
            "VSYS",
            "the supply (VSYS) reads %.2f V, outside 3.0-5.6 V: the battery, its Schottky diode"
            " or the USB supply" % (mv / 1000),
        )
    ]

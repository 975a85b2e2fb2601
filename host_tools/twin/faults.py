"""Wiring faults for the twin's hardware models, from short texts (tests, `ingboard bringup
--twin --fault TEXT`, `ingboard twin --hardware --fault TEXT`).

    parse(["swap:S0,S1", "mosfet-open:Q5"]) -> {"grid": {...}, "bowls": {...}, ...}

Each text names a fault the way a technician would, with board_config's part names
(hardware_docs/pinmap.md): lines S0-S3 (channel select), A0-A3 (group select), EN0/EN1 (bank
enables); muxes U1-U23 and MOSFETs Q1-Q23 (group g is U(g+1)/Q(g+1)); points by name (D4).

- `swap:S0,S1` (any two of S0-S3, A0-A3, EN0, EN1): the two lines' wires exchanged
- `open:A2`: a line's wire broken (the input floats); `short:S3` / `short:S3=high`: shorted to
  GND (default) or 3.3 V
- `adc-swap`: the two banks' analog lines exchanged (GP26/GP27)
- `mosfet-open:Q5` / `mosfet-short:Q12`: a group's supply never / always on
- `mux-swap:U7:3,5`: two sensors' wires exchanged on a mux (channels 3 and 5 of U7);
  `swap-points:D4,Q16`: two sensors' wires exchanged, wherever they are
- `sensor-reversed:D4` / `sensor-axis:K10` / `sensor-dead:Q16`: one sensor mounted face down,
  on the wrong axis, dead; `sensor-deep:D4=6`: 6 mm of wood over it (its pocket too shallow)
- `stone-reversed`: every stone's magnet the wrong way (the whole batch glued north down);
  `stone-reversed:D4`: one reversed stone in the set, the first one put on D4
- `cell-reversed:B`: Black's load cells' signal pair swapped at the HX711;
  `cell-mismatch:W=0.7` (or `=-1`: wired backwards): White's second cell gives that share of
  the first's signal
- `hx711-open:B`: Black's HX711 not connected (no conversion)
- `display-addr:W=0x3D`: White's display strapped to another address; `display-sh1106:B`:
  Black's display an SH1106 module, not an SSD1306; `display-open:W`: not connected
- `key-swap:B,W` / `key-open:pause` / `key-short:menu`: keys wired to each other's GPIO, not
  connected, shorted to GND

A bad text is an InputError naming it.
"""

from ingboard import board_config
from ingboard.sensing.classifier import point_index

from host_tools.errors import InputError

LINES = ("S0", "S1", "S2", "S3", "A0", "A1", "A2", "A3", "EN0", "EN1")
CHANNELS = board_config.CHANNELS_PER_GROUP


def line_gpio(cfg, name):
    grid = cfg["grid"]
    kind, k = name[:-1], int(name[-1])
    pins = {"S": grid["channel_select"], "A": grid["group_select"], "EN": grid["bank_enable"]}
    return pins[kind][k]


def _line(text, name):
    if name not in LINES:
        raise InputError("fault %r: %r is not a line (%s)" % (text, name, " ".join(LINES)))
    return name


def _numbered(text, name, prefix, count):
    if not name.startswith(prefix) or not name[len(prefix) :].isdigit():
        raise InputError("fault %r: %r is not %s1-%s%d" % (text, name, prefix, prefix, count))
    n = int(name[len(prefix) :])
    if not 1 <= n <= count:
        raise InputError(
            "fault %r: %s%d does not exist (%s1-%s%d)" % (text, prefix, n, prefix, prefix, count)
        )
    return n - 1


def _point(text, name, size):
    try:
        return point_index(name.upper(), size)
    except (ValueError, IndexError, KeyError):
        raise InputError(
            "fault %r: %r is not a point of the %dx%d board" % (text, name, size, size)
        ) from None


def _colour(text, name):
    if name not in ("B", "W"):
        raise InputError("fault %r: the bowl or display is B or W, not %r" % (text, name))
    return name


def parse(texts, variant="pico"):
    """The models' fault specs for the texts: {"grid", "bowls", "displays", "keys", "stone"}."""
    cfg = board_config.variant(variant)
    size = cfg["grid"]["size"]
    groups = board_config.grid_groups(size)
    out = {"grid": {}, "bowls": {}, "displays": {}, "keys": {}, "stone": {}}
    grid = out["grid"]
    for text in texts:
        kind, _, arg = text.strip().partition(":")
        parts = arg.split(",") if arg else []
        if kind == "swap" and len(parts) == 2:
            a, b = (_line(text, p.strip().upper()) for p in parts)
            wires = grid.setdefault("wires", {})
            wires[a], wires[b] = wires.get(b, line_gpio(cfg, b)), wires.get(a, line_gpio(cfg, a))
        elif kind == "open" and len(parts) == 1:
            grid.setdefault("wires", {})[_line(text, parts[0].upper())] = "open"
        elif kind == "short" and len(parts) == 1:
            name, _, level = parts[0].partition("=")
            level = level or "low"
            if level not in ("low", "high"):
                raise InputError("fault %r: short to low (GND) or high (3.3 V)" % text)
            grid.setdefault("wires", {})[_line(text, name.upper())] = level
        elif kind == "adc-swap" and not parts:
            grid["adc"] = [p - 26 for p in reversed(cfg["grid"]["adc"])]
        elif kind in ("mosfet-open", "mosfet-short") and len(parts) == 1:
            g = _numbered(text, parts[0].upper(), "Q", groups)
            grid.setdefault("mosfet", {})[str(g)] = kind.split("-")[1]
        elif kind == "mux-swap":
            mux, _, chans = arg.partition(":")
            g = _numbered(text, mux.upper(), "U", groups)
            try:
                c1, c2 = (int(c) for c in chans.split(","))
            except ValueError:
                raise InputError("fault %r: mux-swap:U7:3,5 (two channels)" % text) from None
            i1, i2 = g * CHANNELS + c1, g * CHANNELS + c2
            if (
                not (0 <= c1 < CHANNELS and 0 <= c2 < CHANNELS)
                or c1 == c2
                or max(i1, i2) >= size * size
            ):
                raise InputError("fault %r: two different used channels of %s" % (text, mux))
            _swap_slots(grid, i1, i2)
        elif kind == "swap-points" and len(parts) == 2:
            i1, i2 = (_point(text, p.strip(), size) for p in parts)
            if i1 == i2:
                raise InputError("fault %r: two different points" % text)
            _swap_slots(grid, i1, i2)
        elif kind in ("sensor-reversed", "sensor-axis", "sensor-dead") and len(parts) == 1:
            i = _point(text, parts[0].strip(), size)
            grid.setdefault("sensors", {})[str(i)] = kind.split("-")[1]
        elif kind == "sensor-deep" and len(parts) == 1:
            point, _, mm = parts[0].partition("=")
            i = _point(text, point.strip(), size)
            try:
                wood_um = round(float(mm) * 1000)
            except ValueError:
                raise InputError(
                    "fault %r: sensor-deep:D4=6 (mm of wood over it)" % text
                ) from None
            grid.setdefault("gains", {})[str(i)] = field_share(wood_um)
        elif kind == "stone-reversed" and not parts:
            out["stone"]["reversed"] = True
        elif kind == "stone-reversed" and len(parts) == 1:
            out["stone"].setdefault("points", []).append(_point(text, parts[0].strip(), size))
        elif kind == "cell-reversed" and len(parts) == 1:
            out["bowls"].setdefault(_colour(text, parts[0].upper()), {})["reversed"] = True
        elif kind == "cell-mismatch" and len(parts) == 1:
            colour, _, k = parts[0].partition("=")
            try:
                k = float(k)
            except ValueError:
                raise InputError(
                    "fault %r: cell-mismatch:W=0.7 (the second cell's share)" % text
                ) from None
            out["bowls"].setdefault(_colour(text, colour.upper()), {})["cells"] = [1.0, k]
        elif kind == "display-addr" and len(parts) == 1:
            colour, _, addr = parts[0].partition("=")
            try:
                addr = int(addr, 0)
            except ValueError:
                raise InputError("fault %r: display-addr:W=0x3D" % text) from None
            if not 0x08 <= addr <= 0x77:
                raise InputError("fault %r: a 7-bit I2C address 0x08-0x77" % text)
            out["displays"].setdefault(_colour(text, colour.upper()), {})["addr"] = addr
        elif kind == "hx711-open" and len(parts) == 1:
            out["bowls"].setdefault(_colour(text, parts[0].upper()), {})["unplugged"] = True
        elif kind == "display-open" and len(parts) == 1:
            out["displays"].setdefault(_colour(text, parts[0].upper()), {})["absent"] = True
        elif kind == "display-sh1106" and len(parts) == 1:
            out["displays"].setdefault(_colour(text, parts[0].upper()), {})["chip"] = "sh1106"
        elif kind in ("key-swap", "key-open", "key-short"):
            wires = out["keys"].setdefault("wires", {})
            keys = cfg["keys"]
            names = [p.strip() for p in parts]
            for n in names:
                if n not in keys:
                    raise InputError("fault %r: no key %r (%s)" % (text, n, " ".join(keys)))
            if kind == "key-swap" and len(names) == 2 and names[0] != names[1]:
                a, b = names
                wires[a], wires[b] = wires.get(b, keys[b]), wires.get(a, keys[a])
            elif kind != "key-swap" and len(names) == 1:
                wires[names[0]] = kind.split("-")[1]
            else:
                raise InputError("fault %r: key-swap:B,W, key-open:K or key-short:K" % text)
        else:
            raise InputError("unknown fault %r (see host_tools/twin/faults.py)" % text)
    return out


def field_share(wood_um):
    """A stone's field over `wood_um` of wood as a share of the nominal (physical.py's table,
    interpolated; beyond it, the field's falloff of the last step)."""
    from ingboard import physical as ph

    depths = ph.STONE_FIELD_DEPTH_UM
    fields = ph.STONE_FIELD_UT
    if wood_um <= 0:
        raise InputError("the wood over a sensor is more than 0 mm")
    k = 0
    while k < len(depths) - 2 and wood_um > depths[k + 1]:
        k += 1
    d0, d1 = depths[k], depths[k + 1]
    ratio = fields[k + 1] / fields[k]
    field = fields[k] * ratio ** ((wood_um - d0) / (d1 - d0))
    return field / ph.STONE_FIELD_NOMINAL_UT


def _swap_slots(grid, i1, i2):
    slots = grid.setdefault("slots", {})
    s1, s2 = slots.get(str(i1), i1), slots.get(str(i2), i2)
    slots[str(i1)], slots[str(i2)] = s2, s1

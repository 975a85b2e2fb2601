"""The parts of one set, their quantities (from board_config.py) and their prices: the data
behind hardware_docs/bom.md and its cost per set at 1 and at 10 sets (`host_tools.pinmap`).

Parts, part numbers and prices come from the one parts table, hardware/electronics/parts.py;
what each board carries and how many comes from the boards' netlists (hardware/electronics/
netlist.py, generated from board_config.py), so the costed BOM, the fab BOMs and the boards
list the same parts. What no board carries (cables, battery, magnets, stones, the clock's
displays and keys, the load cells) is counted here, in OFF_BOARD. Prices are list prices as known
PRICES_KNOWN, not read from a shop: check them before ordering (`python -m host_tools.pinmap`
regenerates bom.md after an update in parts.py).
"""

import sys

from ingboard import board_config as bc
from ingboard import physical

from host_tools import ROOT

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from hardware.electronics import netlist  # noqa: E402
from hardware.electronics import parts as pt  # noqa: E402

PRICES_KNOWN = pt.PRICES_KNOWN
SOURCES = {k: v for k, v in pt.SOURCES.items() if k != "none"}

# The boards, as hardware/electronics/ lays them out (hardware_docs/boards.md): one sensor strip
# per line of the board, 17 mm wide, 9 mm beyond its first and last sensor; the controller
# ("spine", 4 layers) under the middle of the board; the clock board and the two bowl boards
# are small 2-layer boards, sized as drawn (hardware/kicad/<board>/<board>.json). Sizes in mm.
STRIP_MM = ((physical.SIZE - 1) * physical.PITCH_X_UM / 1000 + 2 * 9.0, 17.0)
SPINE_MM = (physical.SPINE_L_UM / 1000, physical.SPINE_W_UM / 1000)


def _drawn_mm(board):
    """(width, height) of a board hardware/electronics drew, from its committed summary."""
    import json
    import os

    with open(os.path.join(netlist.KICAD_DIR, board, board + ".json")) as f:
        w, h = json.load(f)["size_mm"].split(" x ")
    return (float(w), float(h))


CLOCK_BOARD_MM = _drawn_mm("clock")
BOWL_BOARD_MM = _drawn_mm("bowl")
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


# Bought for a set beside the boards: (unit, parts-table key, quantity from the configuration,
# note). The clock board's and the bowl boards' own parts come from their netlists.
OFF_BOARD = (
    ("board", "pico_socket", lambda cfg: 2, "in A1's footprint, the Pico stays replaceable"),
    ("board", "ribbon_40", lambda cfg: cfg["grid"]["size"], "one per sensor strip"),
    ("board", "battery", lambda cfg: 1, "J24"),
    ("board", "power_switch", lambda cfg: 1, "on the leads of J25"),
    ("board", "magnet", lambda cfg: 2 * physical.STONES_PER_COLOUR, "one per stone"),
    ("board", "stones", lambda cfg: 1, "one set"),
    ("cables", "cat5e_cable", lambda cfg: 4, "2 to the clock, 1 per bowl"),
    ("clock", "display", lambda cfg: 2, "one per player, on the clock board's J3, J4"),
    ("clock", "clock_key", lambda cfg: 2, "Black, White: on J5, J6"),
    ("clock", "tact_key", lambda cfg: 2, "pause, menu: on J7, J8"),
    ("bowls", "load_cell", lambda cfg: 4, "two per bowl board's terminal blocks"),
)


def _part_text(p):
    if p["mpn"] and p["manufacturer"] and not p["mpn"].startswith(p["manufacturer"]):
        return "%s %s" % (p["manufacturer"], p["mpn"])
    return p["mpn"] or p["value"]


def board_rows(cfg):
    """Rows for the parts the drawn boards carry: each part key once, its quantity summed over
    the boards of one set (netlist.PER_SET)."""
    counts = {}
    where = {}
    for name in netlist.BOARDS:
        try:
            model = netlist.build(name, cfg)
        except ValueError:  # pins the boards cannot wire (pinmap reports them): the counts
            # depend on the grid alone, so count the reference wiring with this grid
            model = netlist.build(name, dict(bc.PICO2, grid=cfg["grid"]))
        per_set = netlist.per_set(name, cfg)
        for ref in sorted(model.parts, key=netlist._ref_key):
            key = model.parts[ref]
            if pt.part(key)["assembly"] == "none":
                continue
            counts[key] = counts.get(key, 0) + per_set
            where.setdefault(key, {}).setdefault(name, []).append(ref)
    rows = []
    for key in sorted(counts, key=lambda k: (-pt.part(k)["price"][0] * counts[k], k)):
        p = pt.part(key)
        note = "; ".join(
            "%s%s: %s"
            % (
                name,
                " x%d" % netlist.per_set(name, cfg) if name != "controller" else "",
                _refs(refs),
            )
            for name, refs in where[key].items()
        )
        rows.append(
            ("board", p["what"], _part_text(p), note, counts[key], p["price"], p["source"])
        )
    return rows


def _refs(refs):
    if len(refs) > 3:
        return "%s ... %s (%d)" % (refs[0], refs[-1], len(refs))
    return ", ".join(refs)


def parts(cfg=None):
    """[(group, item, part, note, qty, (usd_1_set, usd_10_sets), source)] for one set."""
    cfg = cfg or bc.variant()
    size = cfg["grid"]["size"]
    rows = board_rows(cfg)
    for group, key, qty, note in OFF_BOARD:
        p = pt.part(key)
        rows.append((group, p["what"], _part_text(p), note, qty(cfg), p["price"], p["source"]))
    rows += [
        (
            "PCBs",
            "Sensor strip, one per line (4 layers)",
            "%.0f x %.0f mm" % STRIP_MM,
            "hardware/kicad/sensor_strip/ Gerbers",
            size,
            _pcb_unit_prices(STRIP_MM, size, 4),
            "fab",
        ),
        (
            "PCBs",
            "Controller board, the spine (4 layers)",
            "%.0f x %.0f mm" % SPINE_MM,
            "hardware/kicad/controller/; minimum order of 5 in the 1-set price",
            1,
            _pcb_unit_prices(SPINE_MM, 1, 4),
            "fab",
        ),
        (
            "PCBs",
            "Clock board (2 layers)",
            "%.0f x %.0f mm" % CLOCK_BOARD_MM,
            "hardware/kicad/clock/; minimum order of 5 in the 1-set price",
            1,
            _pcb_unit_prices(CLOCK_BOARD_MM, 1, 2),
            "fab",
        ),
        (
            "PCBs",
            "Bowl board (2 layers)",
            "%.0f x %.0f mm" % BOWL_BOARD_MM,
            "hardware/kicad/bowl/; minimum order of 5 in the 1-set price",
            2,
            _pcb_unit_prices(BOWL_BOARD_MM, 2, 2),
            "fab",
        ),
    ]
    return rows


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

"""Build every board as a KiCad 6 project with its fab files: `make hardware` runs this with
Debian's python3 (KiCad's pcbnew module lives there, not in the venv).

    /usr/bin/python3 -m hardware.electronics.kicad_boards [board ...]

For each board: the netlist (netlist.py), the placed and routed .kicad_pcb with its .kicad_pro,
zones filled, KiCad's DRC report, Gerbers + drill (and a zip of them for the fab), BOM and CPL
CSVs for JLCPCB and a PNG render, all in hardware/kicad/<board>/. Prints one summary line per
board and exits 1 if a DRC finds an error or an unconnected pad.
"""

import json
import os
import sys
import time

import pcbnew  # noqa: E402  (Debian's python3: /usr/lib/python3/dist-packages)

from hardware.electronics import fab, netlist, render, schematic


def _layout(name, model, cfg):
    size = cfg["grid"]["size"]
    if name in ("clock", "bowl"):
        from hardware.electronics import units, units_layout

        schematic.SHOWN.setdefault(name, units.shown(model))
        return units_layout.layout(model, name)
    if name == "sensor_strip":
        from hardware.electronics import sensor_strip

        return sensor_strip.layout(model, size)
    from hardware.electronics import controller

    return controller.build(model, cfg)


def build_board(name, cfg):
    from hardware.electronics import kicad_pcb

    started = time.time()
    model = netlist.build(name, cfg)
    out = os.path.join(netlist.KICAD_DIR, name)
    os.makedirs(out, exist_ok=True)
    with open(netlist.netlist_path(name), "w", encoding="utf-8") as f:
        f.write(netlist.kicad_netlist(model))
    pcb = _layout(name, model, cfg)
    path = os.path.join(out, name + ".kicad_pcb")
    pcb.save(path)
    board = kicad_pcb.finish(path)
    errors, warnings, unconnected = kicad_pcb.drc(board, os.path.join(out, name + "-drc.rpt"))
    files = fab.gerbers(board, out, name)
    lines = fab.bom_and_cpl(board, model, out, name)
    images = []
    box = board.GetBoardEdgesBoundingBox()
    wmm = pcbnew.ToMM(box.GetWidth())
    if wmm > 300:  # the long strip: the whole of it small, then its middle and one end large
        images.append(
            render.draw(
                board,
                os.path.join(out, name + ".png"),
                3.0,
                title="%s: whole strip (%.0f mm), top view" % (name, wmm),
            )
        )
        mid = pcbnew.ToMM(box.GetX()) + wmm / 2
        images.append(
            render.draw(
                board,
                os.path.join(out, name + ".png"),
                12.0,
                crop=(mid - 75, -1, mid + 75, 18),
                title="middle: J1 (bottom); outputs on In1 (orange), supplies on In2 (cyan)",
            )
        )
        images.append(
            render.draw(
                board,
                os.path.join(out, name + ".png"),
                12.0,
                crop=(-1, -1, 100, 18),
                title="left end: columns A-E",
            )
        )
        render.stack(images, os.path.join(out, name + ".png"))
    else:
        scale = 6.0 if wmm > 150 else 14.0  # the small unit boards larger
        render.draw(board, os.path.join(out, name + ".png"), scale, title="%s, top view" % name)
    schematic.draw(
        model, os.path.join(out, name + "-schematic.png"), 3 if name == "sensor_strip" else 4
    )
    summary = {
        "board": name,
        "parts": len(model.parts),
        "nets": len(model.nets),
        "tracks": sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_TRACK"),
        "vias": sum(1 for t in board.GetTracks() if t.GetClass() == "PCB_VIA"),
        "layers": board.GetCopperLayerCount(),
        "size_mm": "%.1f x %.1f" % (wmm, pcbnew.ToMM(box.GetHeight())),
        "drc_errors": errors,
        "drc_warnings": warnings,
        "unconnected": unconnected,
        "fab_files": len(files),
        "unrouted": list(getattr(pcb, "route_report", (0, []))[1]),
        "bom_lines": lines,
        "seconds": round(time.time() - started, 1),
    }
    facts = {k: v for k, v in summary.items() if k != "seconds"}
    facts.update(
        {
            "per_set": netlist.per_set(name, cfg),
            "thickness_mm": 1.6,
            "area_cm2": round(pcbnew.ToMM(box.GetWidth()) * pcbnew.ToMM(box.GetHeight()) / 100, 1),
            "smt_parts": sum(
                1 for r, k in model.parts.items() if netlist.pt.part(k)["assembly"] == "smt"
            ),
            "hand_parts": sum(
                1 for r, k in model.parts.items() if netlist.pt.part(k)["assembly"] == "hand"
            ),
        }
    )
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    return summary


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    from ingboard import board_config as bc

    cfg = bc.variant()
    names = args or list(netlist.BOARDS)
    bad = 0
    for name in names:
        s = build_board(name, cfg)
        print(
            "%(board)s: %(layers)d layers, %(size_mm)s mm, %(parts)d parts, %(nets)d nets,"
            " %(tracks)d tracks, %(vias)d vias; DRC %(drc_errors)d errors,"
            " %(drc_warnings)d warnings, %(unconnected)d unconnected;"
            " %(fab_files)d fab files, %(bom_lines)d BOM lines (%(seconds)ss)" % s
        )
        bad += s["drc_errors"] + max(s["unconnected"], 0)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

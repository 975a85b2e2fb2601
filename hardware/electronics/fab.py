"""Fab outputs of a finished KiCad board: Gerbers + drill (zipped), BOM and CPL for JLCPCB, a PNG.

Every file is written so that regenerating gives the same bytes: KiCad's creation dates are
taken out of the Gerber and drill headers (the only normalisation), the zip's entries carry a
fixed date, and the PNG is drawn here from the board's geometry (no timestamp).
"""

import csv
import io
import os
import re
import zipfile

import pcbnew

from hardware.electronics import netlist
from hardware.electronics import parts as pt

GERBER_LAYERS = (  # (layer, file suffix, description), JLCPCB reads KiCad's names as they are
    (pcbnew.F_Cu, "F_Cu", "Top copper"),
    (pcbnew.In1_Cu, "In1_Cu", "Inner copper 1"),
    (pcbnew.In2_Cu, "In2_Cu", "Inner copper 2"),
    (pcbnew.B_Cu, "B_Cu", "Bottom copper"),
    (pcbnew.F_SilkS, "F_Silkscreen", "Top silkscreen"),
    (pcbnew.B_SilkS, "B_Silkscreen", "Bottom silkscreen"),
    (pcbnew.F_Mask, "F_Mask", "Top solder mask"),
    (pcbnew.B_Mask, "B_Mask", "Bottom solder mask"),
    (pcbnew.F_Paste, "F_Paste", "Top paste"),
    (pcbnew.B_Paste, "B_Paste", "Bottom paste"),
    (pcbnew.Edge_Cuts, "Edge_Cuts", "Board outline"),
)
_DATE_LINES = re.compile(
    r"^(G04 Created by KiCad.*date.*|%TF\.CreationDate,.*|; DRILL file .* date .*"
    r"|; #@! TF\.CreationDate,.*)\n",
    re.M,
)


def _strip_dates(path):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    text = _DATE_LINES.sub("", text)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def gerbers(board, out_dir, name):
    """Plot Gerbers and the Excellon drill files into out_dir/gerbers; zip them; [files]."""
    gdir = os.path.join(out_dir, "gerbers")
    os.makedirs(gdir, exist_ok=True)
    for old in os.listdir(gdir):
        os.remove(os.path.join(gdir, old))
    pctl = pcbnew.PLOT_CONTROLLER(board)
    popt = pctl.GetPlotOptions()
    popt.SetOutputDirectory(gdir)
    popt.SetPlotFrameRef(False)
    popt.SetAutoScale(False)
    popt.SetScale(1)
    popt.SetMirror(False)
    popt.SetUseGerberAttributes(True)
    popt.SetIncludeGerberNetlistInfo(True)
    popt.SetCreateGerberJobFile(False)
    popt.SetUseGerberProtelExtensions(False)
    popt.SetExcludeEdgeLayer(True)
    popt.SetUseAuxOrigin(False)
    popt.SetSubtractMaskFromSilk(True)
    popt.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    copper = board.GetCopperLayerCount()
    for layer, suffix, desc in GERBER_LAYERS:
        if layer in (pcbnew.In1_Cu, pcbnew.In2_Cu) and copper < 4:
            continue
        pctl.SetLayer(layer)
        pctl.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, desc)
        pctl.PlotLayer()
    pctl.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(gdir, True, False)
    files = sorted(os.listdir(gdir))
    for f in files:
        _strip_dates(os.path.join(gdir, f))
    zpath = os.path.join(out_dir, "%s-gerbers.zip" % name)
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            info = zipfile.ZipInfo(f, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(os.path.join(gdir, f), "rb") as fh:
                z.writestr(info, fh.read())
    return files


def _placed(board):
    yield from board.GetFootprints()


def bom_and_cpl(board, model, out_dir, name):
    """JLCPCB's BOM (one line per part and value) and CPL (one line per placed SMT part)."""
    groups = {}
    for ref, key in model.parts.items():
        p = pt.part(key)
        if p["assembly"] == "none":
            continue
        groups.setdefault(key, []).append(ref)
    rows = []
    for key, refs in sorted(
        groups.items(), key=lambda kv: netlist._ref_key(sorted(kv[1], key=netlist._ref_key)[0])
    ):
        p = pt.part(key)
        refs = sorted(refs, key=netlist._ref_key)
        rows.append(
            [
                p["value"],
                ",".join(refs),
                (p["footprint"] or "").split(":")[-1],
                p["lcsc"] or "",
                p["mpn"] or "",
                p["manufacturer"] or "",
                p["western"] or "",
                "JLCPCB SMT" if p["assembly"] == "smt" else "hand-solder (not placed by the fab)",
                len(refs),
                p["what"],
            ]
        )
    if "pico2" in groups:
        s = pt.part("pico_socket")
        rows.append(
            [
                s["value"],
                "A1 (2 per Pico)",
                "",
                s["lcsc"] or "",
                s["mpn"],
                s["manufacturer"],
                s["western"],
                "hand-solder (not placed by the fab)",
                2,
                s["what"],
            ]
        )
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "Comment",
            "Designator",
            "Footprint",
            "LCSC",
            "MPN",
            "Manufacturer",
            "Distributor",
            "Assembly",
            "Qty",
            "Description",
        ]
    )
    w.writerows(rows)
    with open(os.path.join(out_dir, "%s-bom.csv" % name), "w", encoding="utf-8") as f:
        f.write(buf.getvalue())
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
    for fp in sorted(_placed(board), key=lambda f: netlist._ref_key(f.GetReference())):
        ref = fp.GetReference()
        if ref not in model.parts or pt.part(model.parts[ref])["assembly"] != "smt":
            continue
        pos = fp.GetPosition()
        w.writerow(
            [
                ref,
                "%.3fmm" % pcbnew.ToMM(pos.x),
                "%.3fmm" % -pcbnew.ToMM(pos.y),
                "Bottom" if fp.IsFlipped() else "Top",
                "%g" % (fp.GetOrientationDegrees() % 360),
            ]
        )
    with open(os.path.join(out_dir, "%s-cpl.csv" % name), "w", encoding="utf-8") as f:
        f.write(buf.getvalue())
    return len(rows)

"""Generate the mechanical drawings and the printable parts' OpenSCAD sources from
firmware/ingboard/physical.py (`make hardware-mech` runs this, then OpenSCAD).

    python hardware/mech/generate.py            write the text outputs (DXF, SVG, PDF, SCAD,
                                                the generated blocks of the docs)
    python hardware/mech/generate.py --png      also the drawings' PNG renders (Pillow)
    python hardware/mech/generate.py --check    compare instead of writing; exit 1 and name
                                                every file that is not current

Every output is byte-identical from run to run (no dates, fixed number formats).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "firmware"))

import board  # noqa: E402
import docs_blocks  # noqa: E402
import scad_parts  # noqa: E402
import units  # noqa: E402
from sheet import Sheet  # noqa: E402
from sheetkit import dxf_text, svg_text  # noqa: E402

DRAWINGS = "hardware/mech/drawings"
SCAD = "hardware/mech/scad"


def sheets():
    """(name, title, CNC drawing or None, Sheet) for every drawing."""
    out = []
    s1 = Sheet(
        "Board blank: underside routing for the sensor strips",
        "ING-M-1",
        "1:2 on A3; the DXF/SVG are 1:1",
        board.underside_notes(),
    )
    board.underside_sheet_views(s1)
    out.append(("board-underside", s1.title, board.underside(), s1))
    s2 = Sheet(
        "Sensor channel section, strip outline, depth tolerance",
        "ING-M-2",
        "3:1 (section), 1:1.11 (strip) on A3",
        board.section_notes(),
    )
    board.section_sheet_views(s2)
    board.strip_sheet_views(s2)
    out.append(("strip-channel", s2.title, board.strip_plan(), s2))
    s3 = Sheet(
        "Bowl platform: two load cells and the overload stop",
        "ING-M-3",
        "1:1.33 (plan), 1:1 (elevation) on A3; the DXF/SVG plates are 1:1",
        units.platform_notes(),
    )
    units.platform_sheet_views(s3)
    out.append(("bowl-platform", s3.title, units.platform_plates(), s3))
    s4 = Sheet(
        "Clock enclosure: two displays, clock keys, pause and menu",
        "ING-M-4",
        "1:1.33 on A3; the DXF/SVG panels are 1:1",
        units.clock_notes(),
    )
    units.clock_sheet_views(s4)
    out.append(("clock-enclosure", s4.title, units.clock_panels(), s4))
    return out


def text_outputs():
    """{path relative to the repository: bytes} of everything compared by --check."""
    files = {}
    for name, title, cnc, sheet in sheets():
        sheet.finish()
        base = "%s/%s" % (DRAWINGS, name)
        files[base + ".dxf"] = dxf_text(cnc, title).encode()
        files[base + ".svg"] = svg_text(cnc, title).encode()
        files[base + ".pdf"] = sheet.pdf_bytes()
    for name, source in scad_parts.parts():
        files["%s/%s.scad" % (SCAD, name)] = source.encode()
    for path, text in docs_blocks.updated(ROOT).items():
        files[path] = text.encode()
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    ap.add_argument("--png", action="store_true", help="also render the drawings as PNG")
    args = ap.parse_args(argv)
    files = text_outputs()
    stale = []
    for rel, data in sorted(files.items()):
        path = os.path.join(ROOT, rel)
        try:
            with open(path, "rb") as f:
                current = f.read()
        except OSError:
            current = None
        if current == data:
            continue
        if args.check:
            stale.append(rel)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        print("wrote", rel)
    if args.png:
        for name, _title, _cnc, sheet in sheets():
            sheet.finish()
            path = os.path.join(ROOT, DRAWINGS, name + ".png")
            sheet.png(path)
            print("rendered", os.path.relpath(path, ROOT))
    if stale:
        print(
            "not current with firmware/ingboard/physical.py (run `make hardware-mech`): "
            + ", ".join(stale),
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

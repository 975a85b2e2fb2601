"""A KiCad 6 board built from a netlist.Board model with pcbnew, headless (Debian's python3).

The part of the KiCad work that every board shares: footprints loaded from the KiCad 6 library
(or drawn here: the socketed Pico), nets put on their pads from the model, outline, tracks,
vias, ground zones, the project file's design rules (JLCPCB's standard 2- and 4-layer process),
then DRC, Gerbers and drill, BOM and CPL. The boards' own placement and routing live in
sensor_strip.py and controller.py.
"""

import json
import os
import re
import uuid

import pcbnew

from hardware.electronics import netlist
from hardware.electronics import parts as pt

FP_ROOT = os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")

# Design rules: inside JLCPCB's standard capabilities (0.127 mm track/space, 0.3 mm drill,
# 0.15 mm annular ring) with margin; all tracks and vias of both boards use these.
TRACK = 0.2
CLEARANCE = 0.2
VIA = 0.6
VIA_DRILL = 0.3
POWER_TRACK = 0.4
EDGE_CLEARANCE = 0.3


def mm(v):
    return pcbnew.FromMM(v)


def pt_mm(x, y):
    return pcbnew.wxPoint(mm(x), mm(y))


def to_mm(p):
    return pcbnew.ToMM(p.x), pcbnew.ToMM(p.y)


def _pico_footprint():
    """Two 1x20 female headers 17.78 mm apart, pin 1 top left, 21-40 up the right side."""
    fp = pcbnew.FOOTPRINT(None)
    fp.SetFPID(pcbnew.LIB_ID("ingboard", "RPi_Pico_Socketed"))
    for pin in range(1, 41):
        x = 0.0 if pin <= 20 else 17.78
        y = (pin - 1) * 2.54 if pin <= 20 else (40 - pin) * 2.54
        pad = pcbnew.PAD(fp)
        pad.SetNumber(str(pin))
        pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
        pad.SetShape(pcbnew.PAD_SHAPE_RECT if pin == 1 else pcbnew.PAD_SHAPE_CIRCLE)
        pad.SetSize(pcbnew.wxSize(mm(1.7), mm(1.7)))
        pad.SetDrillSize(pcbnew.wxSize(mm(1.0), mm(1.0)))
        pad.SetLayerSet(pad.PTHMask())
        pad.SetPosition(pt_mm(x, y))
        pad.SetPos0(pt_mm(x, y))
        fp.Add(pad)
    # Outline of the module (21 x 51 mm) on silk and courtyard.
    for layer, grow in ((pcbnew.F_SilkS, 0.0), (pcbnew.F_CrtYd, 0.25)):
        x0, y0, x1, y1 = -1.61 - grow, -1.37 - grow, 19.39 + grow, 49.63 + grow
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        for k in range(4):
            seg = pcbnew.FP_SHAPE(fp, pcbnew.SHAPE_T_SEGMENT)
            seg.SetStart0(pt_mm(*corners[k]))
            seg.SetEnd0(pt_mm(*corners[(k + 1) % 4]))
            seg.SetLayer(layer)
            seg.SetWidth(mm(0.12 if layer == pcbnew.F_SilkS else 0.05))
            fp.Add(seg)
    label = pcbnew.FP_TEXT(fp)
    label.SetText("USB ^")
    label.SetPos0(pt_mm(8.89, 2.0))
    label.SetLayer(pcbnew.F_SilkS)
    fp.Add(label)
    return fp


def load_footprint(spec):
    lib, name = spec.split(":")
    if lib == "ingboard" and name == "RPi_Pico_Socketed":
        return _pico_footprint()
    fp = pcbnew.FootprintLoad(os.path.join(FP_ROOT, lib + ".pretty"), name)
    if fp is None:
        raise FileNotFoundError("footprint %s not in %s" % (spec, FP_ROOT))
    return fp


class Pcb:
    def __init__(self, model, copper_layers=2):
        self.model = model
        self.board = pcbnew.BOARD()
        self.board.SetCopperLayerCount(copper_layers)
        self.nets = {}
        for _code, name, _members in netlist.ordered_nets(model):
            item = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(item)
            self.nets[name] = item
        self.fp = {}
        for ref in sorted(model.parts, key=netlist._ref_key):
            p = pt.part(model.parts[ref])
            fp = load_footprint(p["footprint"])
            fp.SetReference(ref)
            fp.SetValue(p["value"])
            self.board.Add(fp)
            for pad in fp.Pads():
                if not pad.GetNumber():
                    continue
                number = pad.GetNumber()
                net = model.net_of(ref, int(number) if number.isdigit() else number)
                if net is not None:
                    pad.SetNet(self.nets[net])
            self.fp[ref] = fp
        self.outline = None

    def hide_references(self, *prefixes):
        """Silkscreen references off for crowded parts (the fab drawing keeps them)."""
        for ref, fp in self.fp.items():
            if ref.startswith(prefixes):
                fp.Reference().SetVisible(False)

    # -- placement ----------------------------------------------------------------------------

    def place(self, ref, x, y, angle=0, bottom=False):
        fp = self.fp[ref]
        fp.SetPosition(pt_mm(x, y))
        fp.SetOrientationDegrees(angle)
        if bottom and not fp.IsFlipped():
            fp.Flip(fp.GetPosition(), False)
        return fp

    def pad(self, ref, number):
        for pad in self.fp[ref].Pads():
            if pad.GetNumber() == str(number):
                return pad
        raise KeyError("%s has no pad %s" % (ref, number))

    def pad_xy(self, ref, number):
        return to_mm(self.pad(ref, number).GetPosition())

    def net_at(self, ref, number):
        return self.pad(ref, number).GetNetname()

    # -- copper -------------------------------------------------------------------------------

    def track(self, points, net, layer=pcbnew.F_Cu, width=TRACK):
        made = []
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            if (x0, y0) == (x1, y1):
                continue
            t = pcbnew.PCB_TRACK(self.board)
            t.SetStart(pt_mm(x0, y0))
            t.SetEnd(pt_mm(x1, y1))
            t.SetWidth(mm(width))
            t.SetLayer(layer)
            t.SetNet(self.nets[net])
            self.board.Add(t)
            made.append(t)
        return made

    def via(self, x, y, net):
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(pt_mm(x, y))
        v.SetWidth(mm(VIA))
        v.SetDrill(mm(VIA_DRILL))
        v.SetNet(self.nets[net])
        self.board.Add(v)
        return v

    def rect_outline(self, x0, y0, x1, y1):
        self.outline = (x0, y0, x1, y1)
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        for k in range(4):
            s = pcbnew.PCB_SHAPE(self.board)
            s.SetShape(pcbnew.SHAPE_T_SEGMENT)
            s.SetStart(pt_mm(*corners[k]))
            s.SetEnd(pt_mm(*corners[(k + 1) % 4]))
            s.SetLayer(pcbnew.Edge_Cuts)
            s.SetWidth(mm(0.1))
            self.board.Add(s)

    def zone(self, net, layer, inset=EDGE_CLEARANCE, priority=0, polygon=None):
        z = pcbnew.ZONE(self.board)
        z.SetLayer(layer)
        z.SetNet(self.nets[net])
        z.SetPriority(priority)
        z.SetLocalClearance(mm(CLEARANCE + 0.05))
        z.SetMinThickness(mm(0.2))
        z.SetThermalReliefGap(mm(0.3))
        z.SetThermalReliefSpokeWidth(mm(0.4))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        if polygon is None:
            x0, y0, x1, y1 = self.outline
            polygon = (
                (x0 + inset, y0 + inset),
                (x1 - inset, y0 + inset),
                (x1 - inset, y1 - inset),
                (x0 + inset, y1 - inset),
            )
        outline = z.Outline()
        outline.NewOutline()
        for x, y in polygon:
            outline.Append(mm(x), mm(y))
        self.board.Add(z)
        return z

    def text(self, text, x, y, layer=pcbnew.F_SilkS, size=1.5, angle=0):
        t = pcbnew.PCB_TEXT(self.board)
        t.SetText(text)
        t.SetPosition(pt_mm(x, y))
        t.SetLayer(layer)
        t.SetTextSize(pcbnew.wxSize(mm(size), mm(size)))
        t.SetTextThickness(mm(size * 0.15))
        t.SetTextAngle(angle * 10)
        if layer in (pcbnew.B_SilkS, pcbnew.B_Cu):
            t.SetMirrored(True)
        self.board.Add(t)

    # -- files --------------------------------------------------------------------------------

    def save(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        pcbnew.SaveBoard(path, self.board)
        write_project(path[: -len(".kicad_pcb")] + ".kicad_pro")


def write_project(pro_path):
    """The project's design rules and net class, written over what SaveBoard left."""
    with open(pro_path, encoding="utf-8") as f:
        pro = json.load(f)
    rules = pro["board"]["design_settings"]["rules"]
    rules.update(
        {
            "min_clearance": CLEARANCE,
            "min_copper_edge_clearance": EDGE_CLEARANCE,
            "min_track_width": TRACK,
            "min_via_diameter": VIA,
            "min_through_hole_diameter": VIA_DRILL,
            "min_via_annular_width": 0.15,
            "min_hole_clearance": 0.25,
            "min_hole_to_hole": 0.25,
        }
    )
    cls = pro["net_settings"]["classes"][0]
    cls.update(
        {"clearance": CLEARANCE, "track_width": TRACK, "via_diameter": VIA, "via_drill": VIA_DRILL}
    )
    pro["meta"]["filename"] = os.path.basename(pro_path)
    with open(pro_path, "w", encoding="utf-8") as f:
        json.dump(pro, f, indent=2, sort_keys=True)
        f.write("\n")
    prl = pro_path[: -len(".kicad_pro")] + ".kicad_prl"
    if os.path.exists(prl):
        os.remove(prl)  # per-user view state: not part of the design


def finish(path):
    """Fill the zones of the saved board and save it in a canonical form; returns the board
    loaded from that file (what DRC and the plots then see)."""
    normalise_pcb(path)
    board = pcbnew.LoadBoard(path)
    filler = pcbnew.ZONE_FILLER(board)
    filler.Fill(board.Zones())
    pcbnew.SaveBoard(path, board, True)
    normalise_pcb(path)
    return pcbnew.LoadBoard(path)


def _children(text, start):
    """(start, end) of each top-level s-expression inside the one opening at `start`."""
    out = []
    depth = 0
    k = start
    in_str = False
    begin = None
    n = len(text)
    while k < n:
        ch = text[k]
        if in_str:
            if ch == "\\":
                k += 2
                continue
            if ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "(":
            depth += 1
            if depth == 2:
                begin = k
        elif ch == ")":
            depth -= 1
            if depth == 1:
                out.append((begin, k + 1))
            if depth == 0:
                return out, k
        k += 1
    raise ValueError("unbalanced board file")


_STAMP = re.compile(r"\((tstamp|uuid) ([0-9a-fA-F-]{36})\)")


def normalise_pcb(path):
    """KiCad gives every item a random UUID and saves items sorted by it: rewrite the file with
    its items in a fixed order (footprints by reference, tracks by position) and UUIDs
    numbered in that order, so that the same board always gives the same bytes."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index("(kicad_pcb")
    kids, end = _children(text, start)
    kinds = []
    groups = {}
    for a, b in kids:
        item = text[a:b]
        kind = item[1:].split(None, 1)[0].rstrip(")")
        if kind not in groups:
            kinds.append(kind)
            groups[kind] = []
        groups[kind].append(item)

    def key(item):
        ref = re.search(r'\(fp_text reference "([^"]*)"', item)
        bare = _STAMP.sub("", item)
        return (_ref_order(ref.group(1)) if ref else ("", 0), bare)

    groups["footprint"] = [_sorted_footprint(item) for item in groups.get("footprint", [])]
    ordered = []
    for kind in kinds:
        items = groups[kind]
        if kind in ("footprint", "segment", "via", "arc", "zone", "gr_line", "gr_text", "gr_rect"):
            items = sorted(items, key=key)
        ordered += items
    body = "\n  ".join(ordered)
    count = [0]
    name = os.path.basename(path)

    def renumber(m):
        count[0] += 1
        return "(%s %s)" % (
            m.group(1),
            uuid.uuid5(uuid.NAMESPACE_URL, "ingboard/%s/%d" % (name, count[0])),
        )

    body = _STAMP.sub(renumber, body)
    out = text[:start] + "(kicad_pcb " + _head(text, start, kids) + "\n  " + body + "\n)\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)


_FP_SORTED = (
    "fp_line",
    "fp_circle",
    "fp_arc",
    "fp_poly",
    "fp_rect",
    "fp_text",
    "pad",
    "model",
    "zone",
)


def _sorted_footprint(item):
    """A footprint's drawings and pads in a fixed order (KiCad keeps them sorted by UUID)."""
    kids, _end = _children(item, 0)
    if not kids:
        return item
    fixed, loose = [], []
    for a, b in kids:
        child = item[a:b]
        kind = child[1:].split(None, 1)[0].rstrip(")")
        if kind in _FP_SORTED:
            loose.append((_FP_SORTED.index(kind), _STAMP.sub("", child), child))
        else:
            fixed.append(child)
    loose.sort()
    head = item[: kids[0][0]].rstrip()
    return head + "\n    " + "\n    ".join(fixed + [c for _k, _s, c in loose]) + "\n  )"


def _head(text, start, kids):
    """The atoms between "(kicad_pcb" and its first child (normally nothing)."""
    first = kids[0][0] if kids else len(text)
    return text[start + len("(kicad_pcb") : first].strip()


def _ref_order(ref):
    head = ref.rstrip("0123456789")
    return (head, int(ref[len(head) :] or 0))


def drc(board, report_path):
    """(errors, warnings, unconnected) from KiCad's DRC on `board`; the report is kept."""
    pcbnew.WriteDRCReport(board, report_path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(report_path, encoding="utf-8") as f:
        text = f.read()
    errors = len(re.findall(r"Severity: error\b", text))
    warnings = len(re.findall(r"Severity: warning\b", text))
    m = re.search(r"Found (\d+) unconnected pads", text)
    unconnected = int(m.group(1)) if m else -1
    # The report names the file (by its absolute path) and the time it ran: keep a stable copy.
    stable = re.sub(r"^\*\* Created on .*$", "** Created by make hardware", text, flags=re.M)
    stable = re.sub(
        r"^\*\* Drc report for .*/(hardware/kicad/[^/]+/[^/ ]+) \*\*$",
        r"** Drc report for \1 **",
        stable,
        flags=re.M,
    )
    stable = re.sub(
        r"^\*\* Report on .*$",
        "** Report on %s" % os.path.basename(report_path),
        stable,
        flags=re.M,
    )
    stable = re.sub(  # the board by its path in the repository, not on this machine
        r"^\*\* Drc report for .*?([^/]+/[^/]+\.kicad_pcb) \*\*$",
        r"** Drc report for hardware/kicad/\1 **",
        stable,
        flags=re.M,
    )
    with open(report_path, "w", encoding="utf-8") as f:
        f.write(stable)
    return errors, warnings, unconnected

"""The mechanical drawings and printed parts (hardware/mech) are generated from
firmware/ingboard/physical.py: the committed files must be what the generator makes now, the
generator must be deterministic, and a changed dimension must show up in the outputs."""

import math
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MECH = os.path.join(ROOT, "hardware", "mech")
for p in (MECH, os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

import board  # noqa: E402
import generate  # noqa: E402
import ingboard.physical as P  # noqa: E402
import stones  # noqa: E402


def test_committed_outputs_are_current_with_physical_py():
    run = subprocess.run(
        [sys.executable, os.path.join(MECH, "generate.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def test_generation_is_byte_identical_twice():
    assert generate.text_outputs() == generate.text_outputs()


def test_every_drawing_has_its_cnc_files_pdf_and_png_and_every_part_its_render():
    files = generate.text_outputs()
    for name in ("board-underside", "strip-channel", "bowl-platform", "clock-enclosure"):
        for ext in ("dxf", "svg", "pdf"):
            assert "hardware/mech/drawings/%s.%s" % (name, ext) in files
        assert os.path.exists(os.path.join(MECH, "drawings", name + ".png"))
    parts = [p for p in files if p.endswith(".scad")]
    assert len(parts) >= 7
    for rel in parts:
        name = os.path.basename(rel)[: -len(".scad")]
        if not name.endswith("-assembly"):  # assemblies are looked at, not printed
            assert os.path.exists(os.path.join(MECH, "stl", name + ".stl")), name
        assert os.path.exists(os.path.join(MECH, "renders", name + ".png")), name


def test_a_changed_wood_depth_changes_the_drawings_and_the_clips(monkeypatch):
    before = generate.text_outputs()
    monkeypatch.setattr(P, "WOOD_OVER_SENSOR_UM", P.WOOD_OVER_SENSOR_UM + 200)
    after = generate.text_outputs()
    changed = {p for p in before if before[p] != after[p]}
    assert "hardware/mech/drawings/board-underside.dxf" in changed
    assert "hardware/mech/drawings/strip-channel.pdf" in changed
    assert "hardware/mech/scad/strip-clip.scad" in changed
    dxf = after["hardware/mech/drawings/board-underside.dxf"].decode()
    assert "GROOVE_Z5.20" in dxf and "CHANNEL_Z6.40" in dxf


def test_cnc_layers_name_the_depths_of_physical_py():
    dxf = generate.text_outputs()["hardware/mech/drawings/board-underside.dxf"].decode()
    assert "GROOVE_Z%.2f" % (P.WOOD_OVER_SENSOR_UM / 1000) in dxf
    seat = (P.WOOD_OVER_SENSOR_UM + P.SENSOR_TOP_UM + P.SEAT_GAP_UM) / 1000
    assert "CHANNEL_Z%.2f" % seat in dxf
    assert dxf.rstrip().endswith("EOF")
    # one channel and one groove per board line
    assert dxf.count("GROOVE_Z") >= P.SIZE


def test_field_at_the_tolerance_limits_matches_the_design_figures():
    # design.md "Field": 14.8 mT with 5 mm of wood (6 mm from the magnet's face to the element)
    assert board.field_mt(6.0) == pytest.approx(14.8, abs=0.05)
    assert board.field_mt(5.0) == pytest.approx(22.1, abs=0.1)
    assert board.field_mt(7.0) == pytest.approx(10.3, abs=0.05)
    lo, nom, hi = board.tolerance_rows()
    assert lo[2] > nom[2] > hi[2]
    # a stone 5 mm off its point (32 % of centred) still clears the 25 % entry threshold
    assert 0.32 * hi[3] > 0.25


def test_cast_stones_weigh_what_seed_003_rule_12_asks():
    for target, plain, ratio, phi, disc_t in stones.mixes():
        assert P.STONE_MG <= target <= P.STONE_MG_MAX
        assert plain < P.STONE_MG  # plain resin alone is too light: the reason for the filler
        assert 0 < phi < 0.6 and ratio > 0 and disc_t > 0
        # the mix's mass, recomputed: resin + barite fill the stone around the magnet
        v = stones.stone_volume_mm3() - stones.magnet_volume_mm3()
        rho = P.EPOXY_DENSITY * (1 - phi) + P.BARITE_DENSITY * phi
        assert rho * v / 1000 + P.MAGNET_MG == pytest.approx(target, rel=1e-6)


def test_geometry_refuses_a_strip_too_wide_for_the_board(monkeypatch):
    monkeypatch.setattr(P, "STRIP_W_UM", 22000)
    with pytest.raises(ValueError):
        board.Geometry()


def test_check_names_a_stale_file(tmp_path, monkeypatch):
    monkeypatch.setattr(generate, "ROOT", str(tmp_path))
    monkeypatch.setattr(generate.docs_blocks, "updated", lambda root: {})
    assert generate.main(["--check"]) == 1


GUIDE = os.path.join(ROOT, "hardware_docs", "build-guide.md")


def _guide_commands():
    import re

    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    # `ingboard CMD --flag ...` inside backticks (a command may wrap onto the next line)
    found = []
    for span in re.findall(r"`(ingboard [^`]+)`", text.replace("\n", " ")):
        words = span.split()
        found.append((words[1], [w.split("=")[0] for w in words[2:] if w.startswith("--")]))
    return found


@pytest.mark.parametrize("cmd,flags", _guide_commands())
def test_every_check_of_the_build_guide_is_a_real_command(cmd, flags):
    from host_tools import cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    if cmd not in sub.choices:
        if cmd == "bringup" and not os.path.exists(
            os.path.join(ROOT, "host_tools", "commands", "bringup.py")
        ):
            pytest.skip("`ingboard bringup` is built on its own branch")
        raise AssertionError("build-guide.md names `ingboard %s`, which does not exist" % cmd)
    known = {o for a in sub.choices[cmd]._actions for o in a.option_strings}
    assert not [f for f in flags if f not in known], (cmd, flags)


def test_the_build_guide_links_only_alerts_that_exist():
    import re

    from ingboard.alerts import codes as alert_codes

    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    codes = set(re.findall(r"troubleshooting\.md[^`\n]*`([a-z-]+)`", text.replace("\n", " ")))
    codes |= set(re.findall(r"\(`(stone-missing|wrong-colour|bowl-mismatch)`", text))
    assert codes and codes <= set(alert_codes())


def test_committed_stl_files_are_in_their_byte_stable_form():
    import glob

    import stl_normalise

    paths = sorted(glob.glob(os.path.join(MECH, "stl", "*.stl")))
    assert paths
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        assert stl_normalise.normalise(data) == data, path


def test_stl_normalise_sorts_triangles_and_refuses_a_short_file():
    import struct

    import stl_normalise

    tri = [struct.pack("<12fH", *([float(k)] * 12), 0) for k in (3, 1, 2)]
    one = b"x" * 80 + struct.pack("<I", 3) + b"".join(tri)
    other = b"y" * 80 + struct.pack("<I", 3) + b"".join(reversed(tri))
    assert stl_normalise.normalise(one) == stl_normalise.normalise(other)
    with pytest.raises(ValueError):
        stl_normalise.normalise(one[:-10])


CONTROLLER_PCB = os.path.join(ROOT, "hardware", "kicad", "controller", "controller.kicad_pcb")
_NUM = r"(-?[0-9.]+)"


def _footprint(text, ref):
    """(x, y, angle, [(x, y) of its F.Fab drawing, on the board]) of footprint `ref` in the
    committed controller board (KiCad: y down, angle counter-clockwise as seen)."""
    i = text.index('(fp_text reference "%s"' % ref)
    start = text.rindex("(footprint", 0, i)
    end = text.index("\n  )", i)
    block = text[start:end]
    m = re.search(r"\(at %s %s(?: %s)?\)" % (_NUM, _NUM, _NUM), block)
    x0, y0, angle = float(m.group(1)), float(m.group(2)), float(m.group(3) or 0)
    a = math.radians(angle)
    points = []
    for line in block.splitlines():
        if '(layer "F.Fab")' not in line or "(start" not in line:
            continue
        for lx, ly in re.findall(r"\((?:start|end) %s %s\)" % (_NUM, _NUM), line):
            lx, ly = float(lx), float(ly)
            points.append(
                (
                    x0 + lx * math.cos(a) + ly * math.sin(a),
                    y0 - lx * math.sin(a) + ly * math.cos(a),
                )
            )
    return x0, y0, angle, points


@pytest.fixture(scope="module")
def controller_pcb():
    with open(CONTROLLER_PCB) as f:
        return f.read()


def test_the_spine_cable_jacks_of_physical_py_are_the_committed_controllers(controller_pcb):
    width = P.SPINE_W_UM / 1000
    for ref, centre, body in P.SPINE_CABLE_JACKS_UM:
        _x, _y, _a, pts = _footprint(controller_pcb, ref)
        ys = [p[1] for p in pts]
        xs = [p[0] for p in pts]
        assert (min(ys) + max(ys)) / 2 == pytest.approx(centre / 1000, abs=0.002), ref
        assert max(ys) - min(ys) == pytest.approx(body / 1000, abs=0.002), ref
        # on the right edge, the opening (the body's far face) at most 1 mm inside it
        assert width - 1.0 <= max(xs) <= width, ref


def test_the_spines_line_19_end_is_its_y_0_as_the_drawings_assume(controller_pcb):
    g = board.Geometry()
    for line, ref in ((P.SIZE, "J1"), (1, "J%d" % P.SIZE)):
        _x, y, _a, _pts = _footprint(controller_pcb, ref)
        assert abs(g.spine_y(y) - g.row_y(line)) < g.py / 2, ref


def test_the_cable_exit_spans_every_jack_and_plug_and_cuts_no_rib_part_way():
    g = board.Geometry()
    spans = g.plug_spans()
    assert {s[0] for s in spans} == {"J20", "J21", "J22", "J23", "J26"}
    for ref, lo, hi in spans:
        assert g.exit_lo < lo and hi < g.exit_hi, ref
        assert hi - lo >= P.RJ45_PLUG_W_UM / 1000 or ref == "J26"
    # its sides run along lines (the middle of open channels), and the plugs fit its length
    lines = [g.row_y(r) for r in range(1, P.SIZE + 1)]
    assert g.exit_lo in lines and g.exit_hi in lines
    assert g.w / 2 - g.spine_half_w >= P.RJ45_PLUG_L_UM / 1000
    # drawn from below: the board's right side (the spine's jack edge) is the view's left
    exits = [it for it in board.underside().items if it[1].startswith("EXIT_Z")]
    assert len(exits) == 1
    lines_drawn = [sg for sg in exits[0][2] if sg[0] == "L"]
    xs = [v for sg in lines_drawn for v in (sg[1], sg[3])]
    ys = [v for sg in lines_drawn for v in (sg[2], sg[4])]
    assert min(xs) < 0 and max(xs) <= g.w / 2 - g.spine_half_w + g.tool_r + 1e-9
    assert min(ys) == pytest.approx(g.exit_lo) and max(ys) == pytest.approx(g.exit_hi)


def test_clips_under_the_cable_exit_are_the_spines_clips():
    g = board.Geometry()
    under = [c for c in g.clips() if g.in_exit(c[0], c[1])]
    assert under  # the exit crosses the outer clips' ribs on the right
    assert all(c[0] > g.w / 2 and c[3] == g.spine_z for c in under)
    assert all(c[3] == g.t for c in g.clips() if not (g.in_exit(*c[:2]) or g.in_spine(c[0])))


def test_moved_jacks_move_the_exit_and_a_shallower_exit_is_refused(monkeypatch):
    before = board.Geometry()
    moved = tuple((r, c + 40000, w) for r, c, w in P.SPINE_CABLE_JACKS_UM)
    monkeypatch.setattr(P, "SPINE_CABLE_JACKS_UM", moved)
    after = board.Geometry()
    assert after.exit_hi < before.exit_hi  # farther from line 19
    monkeypatch.setattr(P, "CABLE_EXIT_Z_UM", 30000)
    with pytest.raises(ValueError, match="spine's clips"):
        board.Geometry()


def test_the_clip_counts_and_the_exit_in_the_docs_are_the_drawings():
    g = board.Geometry()
    single = [c for c in g.clips() if len(c[2]) == 1]
    plain = sum(1 for c in single if c[3] == g.t)
    spine = sum(1 for c in single if c[3] == g.spine_z)
    assert plain + spine == len(single)
    with open(os.path.join(ROOT, "hardware_docs", "build-guide.md")) as f:
        guide = f.read()
    assert "%d `strip-clip`, %d `strip-clip-spine`," % (plain, spine) in guide
    with open(os.path.join(MECH, "README.md")) as f:
        readme = f.read()
    assert "| `strip-clip`, `strip-clip-spine` | %d + %d " % (plain, spine) in readme
    first = round((g.exit_lo - g.margin_y) / g.py) + 1
    last = round((g.exit_hi - g.margin_y) / g.py) + 1
    assert "(lines %d to %d, %.0f mm)" % (first, last, g.exit_w) in readme
    assert "runs the whole %.0f mm to the edge" % (g.w / 2 - g.spine_half_w) in readme
    assert "`EXIT_Z%.2f`" % g.exit_z in readme
    with open(os.path.join(ROOT, "hardware_docs", "boards.md")) as f:
        boards = f.read()
    assert "from line %d to line %d (%.0f mm)" % (first, last, g.exit_w) in boards

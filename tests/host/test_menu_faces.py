"""Menu, alert, count and health-map faces (issue 16): golden PNGs pixel for pixel, and real
MicroPython framebuf bytes = the CPython shim's.

Regenerate after an intended change with `python -m host_tools.menu_png --regenerate` and look
at the images before committing them.
"""

import json
import os
import subprocess
import sys

import pytest
from PIL import Image

from host_tools import ROOT, menu_png
from host_tools import micropython as mp
from host_tools.menu_scenes import SCENES

SCENE_NAMES = [name for name, _ in SCENES]


@pytest.mark.parametrize("name", SCENE_NAMES)
def test_face_matches_its_golden_png_pixel_for_pixel(name):
    path = os.path.join(menu_png.GOLDEN_DIR, name + ".png")
    assert os.path.exists(path), "missing golden %s: run python -m host_tools.menu_png" % path
    with Image.open(path) as golden:
        want = golden.convert("L")
        got = menu_png.scene_image(name)
        assert got.size == want.size
        if got.tobytes() != want.tobytes():
            diff = sum(1 for a, b in zip(got.tobytes(), want.tobytes(), strict=True) if a != b)
            pytest.fail("%s differs from its golden in %d pixels" % (name, diff))


def test_golden_directory_holds_exactly_the_scenes():
    assert sorted(os.listdir(menu_png.GOLDEN_DIR)) == sorted(n + ".png" for n in SCENE_NAMES)


def test_every_scene_is_its_own_picture():
    seen = set()
    for name, draw in SCENES:
        face = menu_png.face_bytes(draw, 1)
        assert face not in seen, name
        assert sum(bin(b).count("1") for b in face) > 300, name  # not blank
        seen.add(face)


_MP_DRIVER = """
import framebuf
import json

_out = {}
for _name, _draw in SCENES:
    _buf = bytearray(1024)
    _fb = framebuf.FrameBuffer(_buf, 128, 64, framebuf.MONO_VLSB)
    _draw(_fb, 1)
    _out[_name] = "".join("%02x" % b for b in _buf)
RESULT = json.dumps(_out)
"""


def test_micropython_framebuf_bytes_equal_the_cpython_shim_bytes():
    with open(os.path.join(ROOT, "host_tools", "menu_scenes.py")) as f:
        scenes_source = f.read()
    status, out, err, result = mp.run_script(
        scenes_source + _MP_DRIVER,
        mounts=[(os.path.join(ROOT, "firmware"), "/fw")],
        sys_path=["/fw", "/fw/rules"],
    )
    assert status == 0 and result, out + err
    got = json.loads(result)
    assert sorted(got) == sorted(SCENE_NAMES)
    for name, draw in SCENES:
        assert got[name] == menu_png.face_bytes(draw, 1).hex(), name


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools.menu_png", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_png_command_writes_scenes_and_rejects_bad_input(tmp_path):
    proc = _cli("--out", str(tmp_path), "count-ing", "--scale", "1")
    assert proc.returncode == 0, proc.stderr
    with Image.open(tmp_path / "count-ing.png") as img:
        assert img.size == (2 * 8 + 2 * 128 + 16, 2 * 8 + 64)
    bad = _cli("--out", str(tmp_path), "no-such-scene")
    assert bad.returncode == 2 and "unknown menu scene" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    assert _cli().returncode == 2

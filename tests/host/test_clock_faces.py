"""Clock faces: golden PNGs pixel for pixel, and real MicroPython framebuf = the CPython shim.

Regenerate the goldens after an intended change of the face with
`python -m host_tools.clock_png --regenerate` and look at the images before committing them.
"""

import json
import os
import subprocess
import sys

import pytest
from PIL import Image

from host_tools import ROOT, clock_png
from host_tools import micropython as mp
from host_tools.clock_scenes import SCENES

SCENE_NAMES = [name for name, _ in SCENES]


@pytest.mark.parametrize("name", SCENE_NAMES)
def test_face_matches_its_golden_png_pixel_for_pixel(name):
    path = os.path.join(clock_png.GOLDEN_DIR, name + ".png")
    assert os.path.exists(path), "missing golden %s: run python -m host_tools.clock_png" % path
    with Image.open(path) as golden:
        want = golden.convert("L")
        got = clock_png.scene_image(name)
        assert got.size == want.size
        if got.tobytes() != want.tobytes():
            diff = sum(1 for a, b in zip(got.tobytes(), want.tobytes(), strict=True) if a != b)
            pytest.fail("%s differs from its golden in %d pixels" % (name, diff))


def test_golden_directory_holds_exactly_the_scenes():
    files = sorted(os.listdir(clock_png.GOLDEN_DIR))
    assert files == sorted(n + ".png" for n in SCENE_NAMES)


def test_every_scene_looks_different_on_each_side_or_from_the_others():
    seen = {}
    for name, build in SCENES:
        clock, now = build()
        faces = (clock_png.face_bytes(clock, 1, now), clock_png.face_bytes(clock, 2, now))
        assert faces[0] != faces[1], name
        assert faces not in seen.values(), name
        seen[name] = faces


_MP_DRIVER = """
import framebuf
import json
from ingboard.faces import clock_face

_out = {}
for _name, _build in SCENES:
    _clock, _now = _build()
    for _color in (1, 2):
        _buf = bytearray(1024)
        _fb = framebuf.FrameBuffer(_buf, 128, 64, framebuf.MONO_VLSB)
        clock_face.draw(_fb, _clock, _color, _now)
        _out[_name + "/" + str(_color)] = "".join("%02x" % b for b in _buf)
RESULT = json.dumps(_out)
"""


def test_micropython_framebuf_bytes_equal_the_cpython_shim_bytes():
    # The renderer only uses fill/fill_rect; the shim must lay the bits out exactly as the real
    # MONO_VLSB FrameBuffer does (what the SSD1306 receives), in every scene.
    with open(os.path.join(ROOT, "host_tools", "clock_scenes.py")) as f:
        scenes_source = f.read()
    status, out, err, result = mp.run_script(
        scenes_source + _MP_DRIVER,
        mounts=[(os.path.join(ROOT, "firmware"), "/fw")],
        sys_path=["/fw", "/fw/rules"],
    )
    assert status == 0 and result, out + err
    got = json.loads(result)
    assert len(got) == 2 * len(SCENES) >= 4
    lit = 0
    for name, build in SCENES:
        clock, now = build()
        for color in (1, 2):
            mine = clock_png.face_bytes(clock, color, now)
            assert got["%s/%d" % (name, color)] == mine.hex(), (name, color)
            lit += sum(bin(b).count("1") for b in mine)
    assert lit > 10000  # the faces are not blank


def test_shim_pixel_layout_is_mono_vlsb():
    import framebuf

    buf = bytearray(16)
    fb = framebuf.FrameBuffer(buf, 8, 16, framebuf.MONO_VLSB)
    fb.pixel(3, 9, 1)
    fb.fill_rect(6, -2, 5, 3, 1)  # clipped at the top and right
    assert buf[8 + 3] == 0b10 and fb.pixel(3, 9) == 1
    assert buf[6] == buf[7] == 0b1 and buf[5] == 0
    fb.fill(1)
    assert buf == bytearray(b"\xff" * 16)
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(8), 8, 16, framebuf.MONO_VLSB)


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools.clock_png", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_png_command_writes_scenes_and_rejects_bad_input(tmp_path):
    proc = _cli("--out", str(tmp_path), "byoyomi", "--scale", "1")
    assert proc.returncode == 0, proc.stderr
    with Image.open(tmp_path / "byoyomi.png") as img:
        assert img.size == (2 * 8 + 2 * 128 + 16, 2 * 8 + 64)
    bad = _cli("--out", str(tmp_path), "hourglass")
    assert bad.returncode == 2 and "unknown clock scene" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    assert _cli().returncode == 2
    assert _cli("--regenerate", "--out", str(tmp_path)).returncode == 2

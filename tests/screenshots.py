"""Screenshots compared with reviewed golden images (tests/golden/<area>/<name>.png).

Browser screenshots may differ from run to run by a few anti-aliased pixels of font rendering,
so a screenshot matches when it has the golden image's size and at most `tolerance` (a share)
of its pixels differ by more than `threshold` in some channel. With INGBOARD_GOLDEN=regenerate
in the environment the screenshot becomes the new golden image (review it before committing).
"""

import os
import shutil

from PIL import Image, ImageChops

from host_tools import ROOT

GOLDEN = os.path.join(ROOT, "tests", "golden")


def differing(a, b, threshold=48):
    """Share of pixels of two same-size RGB images that differ by more than threshold."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > threshold else 0)
    hist = diff.histogram()
    return hist[255] / (a.size[0] * a.size[1])


def check(shot_path, area, name, tolerance=0.004):
    golden = os.path.join(GOLDEN, area, name)
    if os.environ.get("INGBOARD_GOLDEN") == "regenerate":
        os.makedirs(os.path.dirname(golden), exist_ok=True)
        shutil.copyfile(shot_path, golden)
    assert os.path.exists(golden), "no golden image %s (INGBOARD_GOLDEN=regenerate)" % golden
    shot = Image.open(shot_path).convert("RGB")
    want = Image.open(golden).convert("RGB")
    assert shot.size == want.size, "%s: %s, golden %s" % (name, shot.size, want.size)
    share = differing(shot, want)
    assert share <= tolerance, "%s: %.2f%% of the pixels differ from %s" % (
        name,
        100 * share,
        golden,
    )

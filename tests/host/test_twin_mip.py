"""`mpremote mip install` of firmware/package.json onto the device twin (issue 16, item 4).

The real mpremote, over the twin's pseudo-terminal, into the real MicroPython rp2 firmware's
littlefs: the package and main.py land where the board runs them and import there. What is not
tested here: fetching the GitHub dependency (mqtt_as; this machine reaches no GitHub), so the
package.json used is firmware/package.json with its "deps" left out, in a copy of firmware/
(mip reads a local package.json's urls relative to its directory).
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
from twin_support import require_images

from host_tools import FIRMWARE
from host_tools.commands import flash
from host_tools.twin.process import Twin
from host_tools.twin.pty_bridge import PtyBridge

require_images()

# 6-13 minutes of emulation (mpremote writes ~60 files through the emulated USB), so it runs
# only when asked: INGBOARD_TWIN_MIP=1 .venv/bin/python -m pytest tests/host/test_twin_mip.py
pytestmark = [
    pytest.mark.device,
    pytest.mark.skipif(
        os.environ.get("INGBOARD_TWIN_MIP") != "1",
        reason="mip onto the twin takes 6-13 min: set INGBOARD_TWIN_MIP=1 to run it",
    ),
]

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def test_mip_install_of_the_package_json_onto_the_twin(tmp_path):
    with open(flash.PACKAGE_JSON) as f:
        package = json.load(f)
    assert package["deps"] == [list(d) for d in flash.DEPS]
    local = {"urls": package["urls"], "version": package["version"]}
    shutil.copytree(FIRMWARE, tmp_path / "firmware")
    path = tmp_path / "firmware" / "package.json"
    path.write_text(json.dumps(local))
    with Twin() as twin:
        bridge = PtyBridge(twin).start()
        twin.go(realtime=False)
        try:
            run = subprocess.run(
                [MPREMOTE, "connect", bridge.path, "mip", "install", "--target=", str(path)],
                capture_output=True,
                text=True,
                timeout=600,
            )
        finally:
            twin.pause()
            bridge.close()
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        modules = [
            t[:-3].replace("/", ".").replace(".__init__", "")
            for t, _u in package["urls"]
            if t.startswith("ingboard/") and "/drivers/" not in t
        ]
        # Each module compiled from source on the device, one at a time (an RP2040 has not the
        # RAM to hold them all compiled from source at once: the board gets .mpy from flash).
        code = "import gc, os, sys\nsys.path.insert(0, '/')\nbase = set(sys.modules)\n"
        code += "for m in %r:\n" % (modules,)
        code += "    __import__(m)\n"
        code += "    for k in [k for k in sys.modules if k not in base]:\n"
        code += "        del sys.modules[k]\n"
        code += "    gc.collect()\n"
        code += "import ingboard\nprint(ingboard.VERSION, os.stat('/main.py')[6])\n"
        out = twin.exec(code, max_ms=60000)
    with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
        size = len(f.read())
    assert out.split() == [package["version"], str(size)]

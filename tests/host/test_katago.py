"""A person against KataGo on the virtual board (assist mode), a 9x9 game to the count: the
engine scenario of tests/host/sim_browser.mjs with KataGo as the opponent (`ingboard sim
--engine`) and GNU Go choosing the person's moves. KataGo is optional: the test is skipped
where it is not installed or has not yet tuned OpenCL (its first start, many minutes).
"""

import json
import os
import shutil
import subprocess
import time

import pytest

from host_tools import ROOT, katago
from host_tools.gtp import find_gnugo

HAVE = (
    katago.command() is not None
    and katago.tuned()
    and find_gnugo()
    and os.path.exists("/usr/bin/chromium")
)
pytestmark = pytest.mark.skipif(
    not HAVE,
    reason="KataGo not installed or not tuned: %s, then start it once to tune OpenCL"
    % katago.INSTALL,
)


def test_person_against_katago_9x9_to_the_count(tmp_path):
    from test_sim_browser import start_sim

    proc, url = start_sim("--engine", katago.command(), "--handshake-timeout", "600")
    try:
        env = dict(os.environ, SIM_ONLY="engine", SIM_ENGINE_SIZE="9", SIM_ENGINE_WAIT_MS="600000")
        started = time.monotonic()
        done = subprocess.run(
            [
                shutil.which("node") or "node",
                os.path.join(ROOT, "tests", "host", "sim_browser.mjs"),
            ]
            + ["-", url, str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=3600,
            cwd=ROOT,
            env=env,
        )
        elapsed = time.monotonic() - started
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout.strip().splitlines()[-1])["engine"]
    assert r["status"].startswith("Result: ")
    assert [line for line in r["events"] if "count:" in line or "resign" in line]
    white = [line for line in r["events"] if " W " in line]
    print("KataGo 9x9: %d plies in %.0f s" % (r["plies"], elapsed))
    assert len(white) >= 5

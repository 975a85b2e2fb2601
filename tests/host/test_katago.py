"""A person against KataGo on the virtual board (assist mode), a 9x9 game to the count: the
engine scenario of tests/host/sim_browser.mjs with KataGo as the opponent (`ingboard sim
--engine`) and GNU Go choosing the person's moves. KataGo is optional: the test is skipped
where `make katago` has not installed and tuned it. A whole game takes minutes on 2 cores, so
it is a `device` test (`make test-device`).
"""

import json
import os
import shutil
import subprocess
import time
import urllib.request

import pytest

from host_tools import ROOT, katago
from host_tools.gtp import find_gnugo

HAVE = katago.command() is not None and find_gnugo() and os.path.exists("/usr/bin/chromium")
# A tuner log as KataGo 1.18's writes it on pocl 3.1: four stages finished, the fifth died.
TUNER_LOG = """Setting winograd3x3TileSize = 4
------------------------------------------------------
Tuning xGemmDirect for 1x1 convolutions and matrix mult
Testing 55 different configs
Tuning 0/55 (reference) Calls/sec 22.3 ErrorProp 2.8e-07 WGD=8 MDIMCD=1 NDIMCD=1 KWID=1
Tuning 3/55 Calls/sec 29.9 ErrorProp 2.8e-07 WGD=32 MDIMCD=8 NDIMCD=8 KWID=2
Tuning 20/55 ...
------------------------------------------------------
Tuning xGemm for convolutions
Tuning 0/69 (reference) Calls/sec 6.5 ErrorProp 4.9e-08 MWG=8 NWG=8 KWG=8
Not enabling FP16 for anything since FP16 disabled
------------------------------------------------------
Tuning winograd transform for convolutions
Tuning 35/45 Calls/sec 343.3 ErrorProp 0  transLocalSize0=64 transLocalSize1=1
------------------------------------------------------
Tuning winograd untransform for convolutions
Tuning 76/109 Calls/sec 1091.8 ErrorProp 0  untransLocalSize0=2 untransLocalSize1=2
------------------------------------------------------
Tuning transformerRMSNorm
Tuning 16/68 Calls/sec 1947.8 ErrorProp 1.5e-07 WG_C_SIZE=32 WG_XY_SIZE=4 C_PER_THREAD=8
malloc(): invalid size (unsorted)
"""


def test_a_tuner_run_that_died_keeps_its_finished_stages_and_defaults_the_rest():
    text, tuned = katago.tuning_from_log(TUNER_LOG)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    # KataGo's loader wants the version line, 8 FP16 flags and 13 sections: 22 lines.
    assert lines[0] == "VERSION=13" and len(lines) == 22
    assert lines[1:9] == ["0"] * 8
    section = dict(zip(katago.SECTIONS, lines[9:]))
    assert section["xGemmDirect"] == "WGD=32 MDIMCD=8 NDIMCD=8 KWID=2"  # the best, not the first
    assert section["xGemm"] == section["xGemm16"] == "MWG=8 NWG=8 KWG=8"
    assert section["conv3x3"] == (
        "INTILE_XSIZE=6 INTILE_YSIZE=6 OUTTILE_XSIZE=4 OUTTILE_YSIZE=4 "
        "transLocalSize0=64 transLocalSize1=1 untransLocalSize0=2 untransLocalSize1=2"
    )
    # The stage it died in, and every stage it never reached, keep KataGo's defaults.
    for name in ("transformerRMSNorm", "gPool", "pointWise", "spatialRMSNorm", "hGemmWmma"):
        assert section[name] == "default"
    assert tuned == ["xGemmDirect", "xGemm", "conv3x3"]
    with pytest.raises(ValueError):
        katago.tuning_from_log("Tuning device 0: pthread\nmalloc(): invalid size (unsorted)\n")


@pytest.mark.device
@pytest.mark.skipif(not HAVE, reason="KataGo not installed: " + katago.INSTALL)
@pytest.mark.timeout(3300)
def test_person_against_katago_9x9_to_the_count(tmp_path):
    from test_sim_browser import start_sim

    proc, url = start_sim("--engine", katago.command(), "--handshake-timeout", "600")
    try:
        env = dict(
            os.environ,
            SIM_ONLY="engine",
            SIM_ENGINE_SIZE="9",
            SIM_ENGINE_NAME="KataGo",
            SIM_ENGINE_WAIT_MS="600000",
        )
        started = time.monotonic()
        done = subprocess.run(
            [
                shutil.which("node") or "node",
                os.path.join(ROOT, "tests", "host", "sim_browser.mjs"),
            ]
            + ["-", url, str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=3000,
            cwd=ROOT,
            env=env,
        )
        elapsed = time.monotonic() - started
        with urllib.request.urlopen(url + "api/state", timeout=10) as answer:
            engine = json.load(answer)["engine"]
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert done.returncode == 0, done.stderr[-3000:]
    # The opponent really was KataGo (its GTP name), and it never failed.
    assert engine["name"] == "KataGo" and engine["error"] is None, engine
    r = json.loads(done.stdout.strip().splitlines()[-1])["engine"]
    assert r["status"].startswith("Result: ")
    assert [line for line in r["events"] if "count:" in line or "resign" in line]
    white = [move for move in r["trace"] if move.startswith("W")]
    print("KataGo 9x9: %d moves (%d by KataGo) in %.0f s" % (len(r["trace"]), len(white), elapsed))
    assert len(white) >= 5

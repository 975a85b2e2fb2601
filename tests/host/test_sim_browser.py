"""`ingboard sim` end to end in headless Chromium (Debian's, driven by playwright-core from
npm through tests/host/sim_browser.mjs, one browser for all scenarios), with board time moved
only by the script (`--manual-time`), so every run shows the same clocks:

1. a 5x5 game by clicking in the physical chores mode: coordinates, the last-move mark, a
   capture drawn as a stone to lift (with its reason) until it is lifted, prisoners, move
   numbers, the move list showing an earlier position, the count drawn on the board
   (territory, fill-in, winning space, losing stone, compensation stones) with a legend line
   for each kind of mark, and the result faces on both clocks; screenshots at 1280 and 390 px
   against the reviewed golden images; the downloaded session log replays to the same game;
2. the settings form (rules, komi, time system, names), keyboard play, an undo that says
   first what it will do and is then drawn as a stone to lift, a knocked-off stone drawn as
   missing;
3. a person against GNU Go (`--engine`) in assist mode to the count: the person only clicks
   their stones (a second GNU Go chooses them) and Pass; GNU Go's stones are placed and its
   clock pressed by the board, captures lifted, each dead group taken off with one click;
4. assist without an engine: the one-shot colour control, an illegal stone (suicide) marked
   on the board with its reason in words and in the status line, Pass (button and key), a
   capture lifted by the board, undo asking first, Home/End, GNU Go's dead-stone suggestion at
   the pause (one click per group, again to put it back), the score estimate, the legend,
   sounds and mute, the result faces; screenshots of the pause at 1280 and 390 px and of the
   end at 1280 px against golden images;
5. an SGF opened (set up move by move) and continued; a broken SGF refused, the game kept.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
import screenshots
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

from host_tools import ROOT
from host_tools.gtp import find_gnugo

SCRIPT = os.path.join(ROOT, "tests", "host", "sim_browser.mjs")
HAVE = os.path.exists("/usr/bin/chromium") and os.path.isdir(
    os.path.join(ROOT, "node_modules", "playwright-core")
)
# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not HAVE, reason="chromium or playwright-core missing: make setup"),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sim(*extra):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "sim", "--port", str(port), "--manual-time", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = "http://127.0.0.1:%d/" % port
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "api/state", timeout=1).read()
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise AssertionError("ingboard sim exited: %s" % proc.stderr.read()) from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("ingboard sim did not answer")


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    procs = []
    try:
        proc, url = start_sim()
        procs.append(proc)
        engine_url = "-"
        if find_gnugo():
            proc, engine_url = start_sim("--engine", "gnugo --mode gtp --level 1 --seed 3")
            procs.append(proc)
        done = subprocess.run(
            [shutil.which("node") or "node", SCRIPT, url, engine_url, str(out)],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["out"] = out
    finally:
        for proc in procs:
            proc.terminate()
            _out, err = proc.communicate(timeout=20)
            assert "Traceback" not in err, err  # browsers coming and going are no error
    return result


def test_board_drawing_and_move_list(seen):
    r = seen["short"]
    assert r["coords"] == 4 * 5  # letters above and below, numbers left and right
    assert r["stars5"] == 0  # no star points on 5x5
    assert r["lastMove1"] == "C3"
    assert r["prisoners"] == "Prisoners: Black has taken 1, White 0"
    numbers = dict(x.split("=") for x in r["numbers"])
    assert numbers["C3"] == "1" and numbers["A3"] == "15" and "B3" not in numbers
    assert len(numbers) == 14
    assert r["reviewStones"] == 3 and "Showing move 3 of 15" in r["reviewText"]
    assert r["stonesBack"] == 14


def test_capture_is_drawn_until_lifted(seen):
    r = seen["short"]
    assert r["check"] == "Board ≠ game: lift B3 (captured: lift it)"
    assert r["checkAfter"] == ""


def test_count_drawn_and_result_on_both_faces(seen, tmp_path):
    r = seen["short"]
    # Black 8 stones + 7 points, White 6 + 4, komi 8: White wins by 3 (Ing fill-in count).
    count = "count: Black 15, White 10, komi 8 -> W+3 (winning space E5)"
    assert [line for line in r["events"] if line.endswith(count)]
    assert r["status"] == "Result: W+3"
    assert r["faces"] == ["W+3 · Black loses", "W+3 · White wins"]
    assert r["winning"] == ["E5"]  # Ing 1991 Art. 4: the winning space, left empty
    assert r["losing"] == 1  # the difference value 3 = 1 + 2 per losing stone
    assert len(r["compensation"]) == 4  # komi 8 = 4 white stones (Ing 1991 Art. 4)
    assert "White places 4 compensation stones" in r["countText"]
    assert set(r["territory"]) >= {"A1", "A2", "B1", "E5"}
    assert not [line for line in r["events"] if "ALERT" in line]
    # The downloaded session log replays through the firmware to the same game.
    events = []
    tracker = track(read_text((seen["out"] / "session.log").read_text()), events.append)
    assert tracker.game.result == "W+3"
    assert [e["point"] for e in events if e["type"] == "move"][-3:] == ["B2", "E1", "A3"]


def test_layout_at_390_and_1280_px(seen):
    r = seen["short"]
    assert r["width1280"] == 1280 and r["width390"] == 390  # nothing wider than the screen
    screenshots.check(str(seen["out"] / "sim-1280.png"), "sim", "sim-1280.png")
    screenshots.check(str(seen["out"] / "sim-390.png"), "sim", "sim-390.png")


def test_settings_keyboard_undo_missing(seen):
    r = seen["settings"]
    assert r["komiAfterRules"] == "6.5"  # the Japanese rules' komi
    assert {"basic", "periods", "period-s"} <= set(r["timeFields"])
    assert "stones" not in r["timeFields"] and "increment" not in r["timeFields"]
    assert r["config"] == {
        "size": 9,
        "rules": "japanese",
        "komi": 6.5,
        "time": {"system": "byoyomi", "basic_s": 60, "periods": 3, "period_s": 20},
        "players": {"B": "Keyboard", "W": "Mouse"},
    }
    assert r["stars"] == ["C3", "C7", "E5", "G3", "G7"]
    assert r["header"].startswith("Keyboard – Mouse · japanese, 9×9")
    assert r["cursor"] == "G6"
    assert r["clockRunning"] is True
    assert (
        r["undoAsk"]
        == "Undo takes back move 2: White G5 (lift its stone); White is to play again."
    )
    assert r["movesBeforeUndo"] == 2  # nothing happened before the person said yes
    assert r["undoCheck"] == "Board ≠ game: lift G5 (taken back by the undo: lift it)"
    assert r["missingCheck"] == "Board ≠ game: put back G6 (missing)"
    assert [m["p"] for m in r["moves"]] == ["G6"]
    # The last ten seconds of a period: a beep for each second shown (two seconds: two).
    assert r["timeClock"]["main_ms"] == 0 and 0 < r["timeClock"]["period_ms"] <= 10000
    assert r["timeBeeps"] >= 2


@pytest.mark.skipif(not find_gnugo(), reason="GNU Go missing: make setup")
def test_person_against_gnugo_in_assist_mode_to_the_count(seen):
    r = seen["engine"]
    assert r["assistDefault"] is True
    assert r["status"].startswith("Result: "), r
    count = [line for line in r["events"] if "count:" in line]
    assert len(count) == 1, r["events"]
    result = r["status"].split()[1]
    assert count[0].endswith("-> %s" % result) or ("-> %s " % result) in count[0]
    assert r["faces"][0].startswith(result) and r["faces"][1].startswith(result)
    # The person clicked only Black's stones and Pass; every White move was GNU Go's, placed
    # and pressed by the board; no capture was left on the board for a move.
    white = [line for line in r["events"] if re.match(r"[\d.]+s \d+ W ", line)]
    assert len(white) >= 5 and r["personClicks"] >= 5
    assert not r.get("untidy")
    assert not [line for line in r["events"] if "ALERT" in line]
    if r["phaseAtPause"] == "paused" and r["dead"]:
        assert r["deadTriangles"] >= 1 and r["deadLeft"] == 0
        assert r["groupClicks"] <= len(r["dead"])


@pytest.mark.skipif(not find_gnugo(), reason="GNU Go missing: make setup")
def test_assist_marks_passes_dead_stones_sounds_and_result_faces(seen):
    r = seen["assist"]
    # The colour control: one white stone, then back to the side to play (it cannot stick).
    assert r["colourOnce"] == "White (once)" and r["colourAfter"] == "Black (to play)"
    assert r["wrongWord"] == "wrong colour"
    assert r["wrongStatus"] == "G7: A stone of the wrong colour was placed: take it back."
    # An illegal stone: marked on the board with its reason, said in the status line, once.
    assert r["suicideWord"] == "suicide" and r["suicideCross"] == 1
    assert r["suicideStatus"] == (
        "A1: Suicide is not allowed under these rules: take the stone back."
    )
    assert r["suicideAlerts"] == 1  # assist does not press the clock for a refused stone
    assert "lift" in r["legendAtSuicide"]
    # The capture was lifted by the board.
    assert r["afterCapture"] == {
        "check": "",
        "prisoners": "Prisoners: Black has taken 1, White 0",
        "lifts": 0,
    }
    assert r["undoText"] == (
        "Undo takes back move 23: Black B5 (its stone is lifted); Black is to play again."
    )
    assert r["movesKept"] == 23
    assert r["homeStones"] == 0 and "Showing move 0 of 23" in r["homeText"]
    # GNU Go's dead stones at the pause, one click per group, again to put it back.
    assert r["dead"] == ["B6"]
    assert r["counselText"] == "GNU Go suggests dead: B6 (red triangles)"
    assert "dead" in r["legendAtPause"] and "territory" in r["legendAtPause"]
    assert re.search(r"GNU Go estimates [BW]\+[\d.]+$", r["estimateText"])
    assert r["liftedChains"] == [["B6"]] and r["chainsAfterPutBack"] == []
    assert r["deadLeft"] == 0
    # Sounds: stones, presses and the alert were heard; nothing once muted.
    assert {"stone", "press", "alert"} <= set(r["sounds"])
    assert r["soundButton"] == "sound: off" and r["soundsMuted"] == 0
    assert r["status"].startswith("Result: ")
    for name in ("assist-pause-1280.png", "assist-pause-390.png", "assist-end-1280.png"):
        screenshots.check(str(seen["out"] / name), "sim", name)
    assert r["pause1280"] == 1280 and r["pause390"] == 390


def test_open_an_sgf_and_continue(seen):
    r = seen["open"]
    assert r["opened"]["moves"] == ["BE5", "WC5", "BD6", "WD7", "BC6", "WE6", "BD5", "WE7", "BB7"]
    assert r["opened"]["to_play"] == "W" and r["opened"]["size"] == 9
    assert r["opened"]["players"] == {"B": "Ann", "W": "Bo"}
    assert r["opened"]["marks"]["lift"] == [] and r["opened"]["marks"]["missing"] == []
    assert r["openedNote"] == "Opened opened.sgf: 9 moves, White to play."
    assert r["continued"] == "WF4"
    assert r["badSgf"].startswith("bad SGF")
    assert r["afterBad"] == 10  # the game in progress is kept


def test_result_faces_replace_the_clock_after_the_end():
    """After a counted end both displays show the result face, never PAUSED."""
    from host_tools.sim_server import Session, result_face

    session = Session(manual_time=True, assist=True)
    session.handle("new", {"size": 5})
    for p in ("C3", "D3", "C2", "D2", "C4", "D4", "C1", "D1", "C5", "D5"):
        session.handle("click", {"point": p})
        session.handle("wait", {"ms": 300})
    for _ in range(4):
        session.handle("pass", {})
        session.handle("wait", {"ms": 300})
    assert session.board.tracker.game.phase == "ended"
    import io

    from PIL import Image

    shown = Image.open(io.BytesIO(session.clock_png("B")))
    assert shown.tobytes() == result_face(session.board.tracker).tobytes()
    from host_tools.clock_png import face_image

    tracker = session.board.tracker
    clock = face_image(tracker.clock, 1, session.board.t, scale=2)
    assert shown.tobytes() != clock.tobytes()

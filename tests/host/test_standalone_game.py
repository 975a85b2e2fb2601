"""Issue 16 acceptance: a whole game played only with the keys and the board, no host command.

The players set up Ing rules with penalty-point timing on the menus (from the settings the
board remembered: Japanese rules, byo-yomi), start, play (a simulated 9x9 game: hands, late
captures, flicker, bowls), pause and resume, take the dead stones off in the pause after two
passes, agree with both clock keys, the board counts, they fill in and put away, and start the
next game from the menu - on the fake drivers, under CPython and MicroPython, with the
display frames checked against the faces' own renderers.
"""

import json
import os

import framebuf
import pytest
from app_fakes import run_app
from ingboard.faces import board_face, menu_face
from ingboard.menus import settings as st
from ingboard.menus.menu import Menu
from ingboard.records.session import HEADER
from ingboard.records.session_read import read_text
from ingboard.records.session_replay import track

from host_tools import FIRMWARE, ROOT
from host_tools import micropython as mp
from host_tools import simulate as sim

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

TESTS_FIRMWARE = os.path.join(ROOT, "tests", "firmware")
SHIFT = 16000  # the simulated game starts here; the setup on the menus comes before
GAP = 600  # between two key presses (more than the display period: each step is seen)

# Setup from the remembered settings (Japanese, byo-yomi, 45 minutes): pause the boot game,
# MENU, NEW GAME, rules ing1996 -> ing1991, time byo-yomi -> Ing PP, basic 45 -> 60 minutes,
# START.
SETUP_KEYS = (
    "pause menu W W menu "  # the main page: RESUME RESIGN [NEW GAME]
    "menu B B menu "  # RULES: japanese -> ing1996 -> ing1991
    "W W W menu B menu "  # TIME: byo-yomi -> Ing PP
    "W menu W menu "  # BASIC TIME: 45 -> 60 MIN
    "W W menu"  # ROUND START, START
).split()


def remembered():
    s = st.defaults()
    s["rules"] = "japanese"
    s["time"]["system"] = "byoyomi"
    s["time"]["basic_s"] = 45 * 60
    return s


def _at(keys, start, names):
    t = start
    for name in names:
        keys.setdefault(name, []).append(t)
        t += GAP
    return t


@pytest.fixture(scope="module")
def scenario():
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=1, finish=True)
    ending = simulation.ending
    records = list(read_text(simulation.text()))
    assert records[0].payload["rules"] == "ing1991"
    assert records[0].payload["time"] == {"system": "ing-pp", "basic_s": 3600}
    # Ing 1991 Art. 1: the sim ends play with two more passes; here the players agree instead.
    ending_presses = [
        r for r in records if r.kind == "press" and ending["t_dead"] < r.t_ms <= ending["t_end"]
    ]
    assert len(ending_presses) == 2
    keys = {}
    _at(keys, 1000, SETUP_KEYS)
    # Pause and resume in the middle of the game, where nobody touches the board for 2.5 s.
    presses = [r.t_ms for r in records if r.kind == "press"]
    scans = [r.t_ms for r in records if r.kind == "scan"]
    quiet = None
    for i in range(10, len(presses) - 1):
        t = presses[i]
        if presses[i + 1] - t > 3000 and not [s for s in scans if t < s < t + 2600]:
            quiet = t
            break
    assert quiet is not None
    _at(keys, SHIFT + quiet + 500, ["pause", "menu", "menu"])  # menu: RESUME
    agree_at = SHIFT + ending_presses[0].t_ms
    _at(keys, agree_at, ["menu", "menu", "B", "W"])  # AGREE, both players
    next_at = SHIFT + simulation.duration_ms + 2000
    end = _at(keys, next_at, ["menu", "menu"] + ["W"] * 6 + ["menu"])  # NEW GAME ... START
    lines = [HEADER]
    for r in records:
        if r in ending_presses:
            continue
        r.t_ms += SHIFT
        lines.append(r.text())
    text = "\n".join(lines) + "\n"
    return {
        "text": text,
        "keys": keys,
        "until": end + 3000,
        "original": simulation.text(),
        "agree_at": agree_at,
    }


def summary(messages):
    return {
        "plays": [
            (m["color"], m.get("point", "pass")) for m in messages if m["type"] in ("move", "pass")
        ],
        "types": [m["type"] for m in messages if m["type"] in ("pause", "resume", "end")],
        "end": [(m["result"], m["reason"]) for m in messages if m["type"] == "end"],
        "count": [(c["black"], c["white"], c["result"]) for c in messages if c["type"] == "count"],
        "bowls": [(m["phase"], m["B"], m["W"]) for m in messages if m["type"] == "bowls"],
        "errors": [m for m in messages if m["type"] == "error"],
    }


def _render(draw):
    buf = bytearray(1024)
    draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


def test_a_whole_game_with_the_keys_only_on_cpython_and_micropython(scenario, tmp_path):
    root = tmp_path / "cpython"
    root.mkdir()
    (root / "settings.json").write_text(st.text(remembered()))
    # The board keeps its set enrolled (Ing 1991 Art. 9 "Counting" (1)): the simulated set's.
    (root / "set.json").write_text(set_weights(scenario["original"]))
    app, hw = run_app(
        scenario["text"],
        str(root),
        scenario["until"],
        keys=scenario["keys"],
        own_settings=True,
        watch=True,
    )
    assert app.failure is None and app.errors == {}
    got = summary(hw["link"].messages())
    # The same game as the firmware's own replay of the simulated (four-pass) log.
    events = []
    replay = track(read_text(scenario["original"]), events.append)
    want = [(e["color"], e.get("point", "pass")) for e in events if e["type"] in ("move", "pass")]
    assert got["plays"] == want[:-2]  # the two passes that ended play became the agreement
    assert got["types"] == ["pause", "pause", "resume", "pause", "end"]
    assert got["end"] == [(replay.game.result, "count")] and got["end"][0][0] == "W+5"
    assert got["count"] == [(c["black"], c["white"], c["result"]) for c in [replay.counted]]
    assert [b[0] for b in got["bowls"]] == ["before", "after-count", "put-away"]
    assert got["bowls"] == [(e["phase"], e["B"], e["W"]) for e in events if e["type"] == "bowls"]
    assert got["errors"] == []
    # Game 1 was the boot game, abandoned at once; game 2 the one played; game 3 started.
    assert app.number == 3 and app.tracker.game.phase == "play" and not app.tracker.game.plies
    sgf = (root / "games" / "0002.sgf").read_text()
    assert "RE[W+5]" in sgf and "RU[" in sgf and "TM[3600]" in sgf
    chosen = st.parse((root / "settings.json").read_text())
    assert chosen["rules"] == "ing1991" and chosen["time"]["system"] == "ing-pp"
    assert chosen["time"]["basic_s"] == 3600
    config = dict(app.tracker.config)
    assert sorted(config.pop("bowls")) == ["B", "W"]  # the set the board keeps (set.json)
    assert config == st.config(chosen, 9)
    # The display frames: the menus as the players saw them, the agreement, the count.
    frames = [f for _t, f in hw["displays"]["B"].frames]
    assert [f for _t, f in hw["displays"]["W"].frames] == frames  # both faces alike
    paused = {"phase": "play", "running": False, "paused": True, "started": True, "plies": 0}
    m = Menu(remembered())
    seen = []
    for k in SETUP_KEYS[1:-1]:
        m.key(k, paused)
        seen.append(_render(lambda fb: menu_face.draw(fb, m.screen(paused))))  # noqa: B023
    assert [f for f in seen if f in frames] == seen  # every step was shown
    assert frames.index(seen[0]) < frames.index(seen[-1])
    two_passes = dict(paused, phase="paused", plies=len(want) - 2)
    m = Menu()
    for k in ("menu", "menu", "B"):
        m.key(k, two_passes)
    agree = _render(lambda fb: menu_face.draw(fb, m.screen(two_passes)))
    assert agree in frames
    result = _render(
        lambda fb: board_face.result(fb, replay.counted, replay.plan, replay.game.board.rows())
    )
    assert result in frames and frames.index(agree) < frames.index(result)
    # Under MicroPython: same code, same fakes, same game, the same frames.
    data = tmp_path / "data"
    data.mkdir()
    (data / "session.log").write_text(scenario["text"])
    (data / "keys.json").write_text(json.dumps(scenario["keys"]))
    (data / "settings.json").write_text(st.text(remembered()))
    (data / "set.json").write_text(set_weights(scenario["original"]))
    status, out, err, res = mp.run_script(
        MP_SCRIPT % scenario["until"],
        mounts=[(FIRMWARE, "/fw"), (TESTS_FIRMWARE, "/tests"), (str(data), "/data")],
        sys_path=["/fw", "/fw/rules", "/tests"],
    )
    assert status == 0 and res, (out + err)[-3000:]
    res = json.loads(res)
    assert summary(res["messages"]) == got
    assert res["frames"] == [f.hex() for f in frames]
    assert res["number"] == 3


def set_weights(log_text):
    """/set.json of a board whose set is the one a simulated session log was played with: the
    full set's weight (180 stones a side), the log's game holding its share of it (Ing 1991
    Art. 12: half the points minus one, 40 a side on 9x9)."""
    config = read_text(log_text)[0].payload
    share = (config["size"] ** 2 - 1) // 2
    bowls = config["bowls"]
    return json.dumps({c: round(bowls[c]["w180_g"] * 180 / share, 1) for c in ("B", "W")})


MP_SCRIPT = """
import json
import os
from app_fakes import run_app
text = open("/data/session.log").read()
keys = json.loads(open("/data/keys.json").read())
os.mkdir("/store")
with open("/store/settings.json", "w") as f:
    f.write(open("/data/settings.json").read())
with open("/store/set.json", "w") as f:
    f.write(open("/data/set.json").read())
app, hw = run_app(text, "/store", %d, keys=keys, own_settings=True, watch=True)
frames = []
for _t, f in hw["displays"]["B"].frames:
    frames.append("".join("%%02x" %% b for b in f))
RESULT = json.dumps({
    "messages": hw["link"].messages(),
    "frames": frames,
    "number": app.number,
})
"""

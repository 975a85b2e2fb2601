"""A short game played on the device twin through the board's hardware (issue 17): the real
firmware (ROMFS deploy, main.py -> ingboard/app/app.py with the drivers of board_config's `pico`
variant) on MicroPython's rp2 port in the emulated RP2040. Its Hall sensors (muxes + ADC),
HX711 load cells and clock keys are driven by the hardware models from a session log
(host_tools/twin/scenario.py); the app reads all of it through its own drivers.

The game (GAME: 19x19, Chinese rules, a capture, a pass in the middle, the pass pair, the count
after the agreement and the stones put away) is simulated by `ingboard simulate --finish`
without sensor noise, its idle time cut to MAX_GAP_MS between two changes (thinking time: the
board sees nothing happen). Checks:
- the board saw the game the played log describes: the same moves, passes, captures, count and
  result as `ingboard track` on that log (times differ: the board samples its sensors);
- the board's own records replay: `ingboard track` on the session log the board wrote gives the
  very events it sent over USB and the very SGF it saved (byte for byte);
- `ingboard pull` over the twin's pseudo-terminal copies that SGF off the board, and sgfmill
  reads it as the game played;
- the displays showed frames (PNG written) and the buzzer stayed silent (no alert).
"""

import json
import os

import pytest
from twin_support import ingboard, require_images

from host_tools import FIRMWARE
from host_tools.commands import flash
from host_tools.twin import deploy, frames, hardware, scenario
from host_tools.twin.process import Twin

require_images("romfs")
# Minutes of emulation each: `make test-device` (CI runs it), not `make test`.
pytestmark = pytest.mark.device

# B captures W's B19 (move 5), W passes mid-game, then the pass pair and the count.
GAME = b"""(;GM[1]FF[4]SZ[19]KM[7.5]RU[chinese]
;B[ca];W[ba];B[bb];W[dp];B[aa];W[];B[dd];W[];B[])
"""
MAX_GAP_MS = 300
# How long the players hold a clock key down. The app on the RP2040 polls its keys between
# scans, clock faces and flash writes, and on the twin that loop is late by up to ~0.8 s (issue
# 20: scan_late_max in the `cpu` reply): a shorter tap can fall between two polls and is lost.
# Held this long, every press is seen; a real player's tap (~0.1 s) is not yet safe.
KEY_HOLD_MS = 900
SEED = 3
# Not events of the game: replies to host commands, and warnings (none are expected).
NOT_EVENTS = ("ok", "file", "games", "state", "pong", "warning")


def _played_log():
    """The session log the twin is fed: simulated, its idle gaps cut (as a file's text)."""
    from ingboard.records.session_read import read_text

    from host_tools import simulate as sim

    text = sim.simulate(sim.load_game(GAME), "none", SEED, finish=True).text()
    items = scenario.compress(scenario.changes(read_text(text)), MAX_GAP_MS)
    assert items[0][1] == "config"
    return items, scenario.to_log(items[1:], items[0][2])


def _shape(events):
    """What the game was, without times: moves, passes, captures, the count and the end."""
    out = []
    for e in events:
        kind = e["type"]
        if kind in ("move", "pass"):
            out.append((kind, e["n"], e["color"], e.get("point"), tuple(e.get("captures", ()))))
        elif kind == "count":
            out.append((kind, e["black"], e["white"], e["result"]))
        elif kind == "end":
            out.append((kind, e["result"], e["reason"]))
    return out


def _track(tmp, name, text):
    """`ingboard track` (the command line) on a log: (events, SGF text)."""
    log = os.path.join(tmp, name + ".log")
    with open(log, "w") as f:
        f.write(text)
    events, sgf = os.path.join(tmp, name + ".jsonl"), os.path.join(tmp, name + ".sgf")
    done = ingboard("track", log, "--events", events, "--sgf", sgf, "--quiet")
    assert done.returncode == 0, done.stderr
    with open(events) as f:
        out = [json.loads(line) for line in f if line.strip()]
    with open(sgf) as f:
        return out, f.read()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return play_on_twin(str(tmp_path_factory.mktemp("twin-game")))


def play_on_twin(tmp):
    """Play the game on a twin; what it sent, pulled and showed."""
    items, log_text = _played_log()
    built = flash.build(FIRMWARE, os.path.join(tmp, "mpy"), "armv6m")
    romfs = os.path.join(tmp, "ingboard.romfs")
    with open(romfs, "wb") as f:
        f.write(flash.romfs_image(built, tmp))
    first = next(v for _t, k, v in items if k == "grid")
    writer = frames.FrameWriter(os.path.join(tmp, "displays"))
    sent = []
    with Twin("romfs", romfs_image=romfs) as twin:
        hardware.attach(twin, variant="pico", position=first)
        # main.py and the load cells' calibration (`ingboard calibrate`) on littlefs.
        entry = {b: open(p, "rb").read() for b, p in built if not b.startswith("/ingboard/")}
        entry["/bowls.json"] = hardware.bowl_calibration().encode()
        deploy.put_files(twin, entry)
        for colour in ("B", "W"):
            grams = next(v[1] for _t, k, v in items if k == "bowl" and v[0] == colour)
            twin.model("bowl", colour=colour, grams=grams)
        deploy.start_app(twin)
        player = scenario.Player(twin, hold_ms=KEY_HOLD_MS)

        def on_line(msg):
            if msg.get("type") not in NOT_EVENTS:
                sent.append(msg)

        player.play(items, on_line)  # the config starts the game (the host's new-game)
        game = player.messages[0]["game"]
        if not [m for m in sent if m["type"] == "end"]:  # the count may still be under way
            try:
                player.wait_for(lambda m: m.get("type") == "end", max_ms=3000, on_line=on_line)
            except TimeoutError:
                pass  # no end: the tests below say where the board went another way
        writer.poll(twin)
        tones = twin.model("tones")
        # The next game closes this one's session log (no longer .part: pull copies it). What
        # the board sent before its reply is still this game's: the checks after the count
        # (the stones put away) may come after the end event.
        before = len(player.messages)
        player.send({"cmd": "new-game", "config": {"size": 19, "rules": "chinese"}})
        reply = player.wait_for(lambda m: m.get("cmd") == "new-game")
        tail = player.messages[before:]
        for msg in tail[: next(i for i, m in enumerate(tail) if m is reply)]:
            if msg.get("type") not in NOT_EVENTS:
                sent.append(msg)
        noise = list(player.noise)
        with deploy.Serving(twin) as port:
            pulled = ingboard("pull", "--port", port, "--dest", tmp, timeout=600)
    return {
        "tmp": tmp,
        "log": log_text,
        "game": game,
        "sent": sent,
        "pulled": pulled,
        "frames": writer,
        "tones": tones,
        "noise": noise,
    }


def _pulled(played, kind, suffix):
    path = os.path.join(played["tmp"], kind, "%04d%s" % (played["game"], suffix))
    with open(path) as f:
        return f.read()


def test_pull_copies_the_game_and_its_log_off_the_board(played):
    pulled = played["pulled"]
    assert pulled.returncode == 0, pulled.stderr
    assert "%04d.sgf" % played["game"] in pulled.stdout
    assert "%04d.log" % played["game"] in pulled.stdout


def test_the_board_played_the_game_of_the_log(played):
    # Nothing but protocol lines (and the banner of the soft reset that starts main.py).
    assert [n for n in played["noise"] if n != "MPY: soft reboot"] == []
    assert [m for m in played["sent"] if m["type"] == "alert"] == []
    reference, _sgf = _track(played["tmp"], "played", played["log"])
    want = _shape(reference)
    assert _shape(played["sent"]) == want
    assert any(e[0] == "move" and e[4] for e in want)  # the capture
    assert [e[0] for e in want[-4:]] == ["pass", "pass", "count", "end"]
    assert want[-1] == ("end", "W+3.5", "count")


def test_the_boards_own_log_replays_to_its_events_and_sgf(played):
    replayed, sgf = _track(played["tmp"], "board", _pulled(played, "sessions", ".log"))
    assert [json.dumps(e, sort_keys=True) for e in replayed] == [
        json.dumps(e, sort_keys=True) for e in played["sent"]
    ]
    assert sgf == _pulled(played, "games", ".sgf")


def test_the_pulled_sgf_is_the_game_played(played):
    from sgfmill import sgf

    game = sgf.Sgf_game.from_string(_pulled(played, "games", ".sgf"))
    assert game.get_size() == 19
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    want = sgf.Sgf_game.from_bytes(GAME)
    assert moves == [node.get_move() for node in want.get_main_sequence()[1:]]
    assert game.get_root().get("RE") == "W+3.5"


def test_the_displays_showed_the_clock_and_the_buzzer_was_silent(played):
    writer = played["frames"]
    assert writer.count >= 2 and set(writer.latest) == {"B", "W"}
    for name in ("B", "W"):
        path = os.path.join(played["tmp"], "displays", "display-%s.png" % name)
        assert os.path.getsize(path) > 100
        assert any(writer.latest[name])  # something lit
    assert played["tones"] == []  # no alert in this game


def test_a_key_is_released_before_the_same_key_is_pressed_again():
    items = [(0, "key", "B"), (300, "key", "W"), (600, "key", "B"), (2000, "key", "B")]
    assert scenario.key_holds(items, 900) == {0: 500, 1: 900, 2: 900, 3: 900}
    assert scenario.key_holds(items, 80) == {0: 80, 1: 80, 2: 80, 3: 80}

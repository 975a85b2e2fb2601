"""Issue 16, item 2: in the running app (fake drivers), an alert shows on both faces as a
mini-board with the point to fix framed and a few words, until the board is put right; after a
calibration both faces show the health map."""

import json
import os

import framebuf
from app_fakes import run_app
from ingboard.faces import board_face
from ingboard.sensing.calibration import calibration_bytes
from ingboard.sensing.classifier import DEFAULT_EMPTY, DEFAULT_SPAN

from host_tools import ROOT
from host_tools import simulate as sim


def _render(draw):
    buf = bytearray(1024)
    draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


def _right_half(frame):
    # MONO_VLSB: byte (page * 128 + x); the text half is x >= 64.
    return b"".join(frame[page * 128 + 64 : page * 128 + 128] for page in range(8))


def _lit(frame, x, y):
    return bool(frame[(y >> 3) * 128 + x] & (1 << (y & 7)))


def test_an_alert_is_a_mini_board_with_its_point_until_the_board_is_put_right(tmp_path):
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=3, mistakes=[("wrong-colour", 9)])
    injected = simulation.injected[0]
    app, hw = run_app(simulation.text(), str(tmp_path), injected["until_ms"] + 3000, watch=True)
    alerts = [m for m in hw["link"].messages() if m["type"] == "alert"]
    alert = [a for a in alerts if a["code"] == "wrong-colour"][0]
    assert alert["points"] == injected["points"]
    display = hw["displays"]["B"]
    shown = [(t, f) for (t, f), k in zip(display.frames, display.kinds) if k == "alert"]
    assert shown, "no alert face was shown"
    # While it stands: its words on the right, the point framed on the mini-board.
    words = _render(lambda fb: board_face.alert(fb, ["." * 9] * 9, alert))
    t, frame = shown[0]
    assert injected["t_ms"] <= t <= injected["until_ms"] + 1000
    assert _right_half(frame) == _right_half(words)
    col, row = board_face.point_xy(alert["points"][0], 9)
    x, y = 7 + 6 * col, 7 + 6 * row  # 9x9: 6 px per line, the board centred in 64x64
    assert _lit(frame, x - 4, y) and _lit(frame, x + 4, y) and not _lit(frame, x - 3, y)
    # Inside the frame, the stone that is physically there (to take back): White's ring.
    ring = injected["color"] == "B"  # Black to move placed a White stone
    assert _lit(frame, x - 2, y) == ring and _lit(frame, x + 2, y - 2) == ring
    assert not _lit(frame, x, y)
    # Put right (the stone taken back): the faces went back to the clock.
    assert app.standalone.shown == "clock"


def test_after_a_calibration_both_faces_show_the_health_map(tmp_path):
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=1)
    n = 81
    empty = [DEFAULT_EMPTY] * n
    black = [DEFAULT_EMPTY + DEFAULT_SPAN] * n
    white = [DEFAULT_EMPTY - DEFAULT_SPAN] * n
    white[10] = DEFAULT_EMPTY - 50  # B8 cannot tell white from empty: unusable
    (tmp_path / "calib.bin").write_bytes(calibration_bytes(9, empty, black, white))
    host = [(2000, json.dumps({"cmd": "calibrate"}).encode())]
    app, hw = run_app(simulation.text(), str(tmp_path), 4000, host_lines=host, watch=True)
    reply = [m for m in hw["link"].messages() if m["type"] == "ok"]
    assert reply and reply[0]["grid"] is True
    rows = hw["classifier"].health_rows()
    assert rows[1][1] == "C"
    want = _render(lambda fb: board_face.health(fb, rows))
    for name in ("B", "W"):
        frames = [f for (_t, f), k in zip(hw["displays"][name].frames, hw["displays"][name].kinds)
                  if k == "health"]  # fmt: skip
        assert frames and frames[-1] == want


def test_before_the_start_each_face_names_the_player_the_director_paired(tmp_path):
    """The club relay's pairing (relay_feed.face_names) on the clock faces until the clocks
    start; the faces are the clock's own once it runs."""
    from app_fakes import VirtualTime, hardware
    from ingboard.app.app import App
    from ingboard.faces import clock_face
    from ingboard.link.relay_feed import RelayFeed
    from ingboard.link.relay_link import MemoryJournal, RelayLink
    from ingboard.records.store import RecordsStore
    from ingrules.board import BLACK, WHITE

    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=3)
    vt = VirtualTime()
    config, hw = hardware(vt, simulation.text())
    link = RelayLink("club", "t12", MemoryJournal())
    hw["relay"] = RelayFeed(link, vt.ticks_ms, vt.ticks_diff)
    pairing = {"round": 1, "table": 12, "B": {"name": "Müller Jürgen", "rank": "1d"},
               "W": {"name": "Ito Ann", "rank": "3k"}}  # fmt: skip
    assert link.message("go/v1/club/t12/pairing", json.dumps(pairing), 0)
    app = App(hw, RecordsStore(str(tmp_path)), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms,
              config=config)  # fmt: skip
    clock = app.tracker.clock
    assert not clock.started
    for color, name in ((BLACK, "T12 MULLER JURGEN 1D"), (WHITE, "T12 ITO ANN 3K")):

        def want(fb, color=color, name=name):
            clock_face.draw(fb, clock, color, 0)
            clock_face.draw_part(fb, 4, name, color)

        assert _render(lambda fb, c=color: app.standalone.draw(fb, c, 0)) == _render(want)
        painted = _render(lambda fb, c=color: [_ for _ in app.standalone.paint(fb, c, 0)])
        assert painted == _render(want)
    # Without a pairing the faces are the clock's own (MOVES 0).
    link.pairing = None
    plain = _render(lambda fb: clock_face.draw(fb, clock, BLACK, 0))
    assert _render(lambda fb: app.standalone.draw(fb, BLACK, 0)) == plain


def test_a_face_the_display_task_leaves_unpainted_is_one_paint_would_not_change(
    tmp_path, monkeypatch
):
    # The display task asks Standalone.unchanged() before paint() (no generator, no look made
    # for a face that stays the same: an idle board's four paints a second). Over a whole game
    # with its clock running, every face it left alone is one that paint() would not have
    # touched, and it did leave faces alone.
    from ingboard.app.standalone import Standalone

    real = Standalone.unchanged
    asked = {True: 0, False: 0}
    wrong = []  # (the display task reports an exception and goes on: collected here)

    def checked(self, fb, color, t):
        same = real(self, fb, color, t)
        asked[same] += 1
        if same:
            bands = [band for band in self.paint(fb, color, t)]
            if bands:
                wrong.append((t, color, bands))
        return same

    monkeypatch.setattr(Standalone, "unchanged", checked)
    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=5)
    app, _hw = run_app(simulation.text(), str(tmp_path), 60000)
    assert wrong == []
    assert asked[True] > 20 and asked[False] > 20, asked
    assert len(app.tracker.game.plies) >= 5  # a game played meanwhile, the clock running

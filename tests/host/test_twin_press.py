"""The virtual board's page on the device twin (`ingboard twin --sim`, live_board.TwinBoard)
holds a clock key only once the firmware has scanned the stone placed before it. The assist
presses a set time of the wall clock after the stone (sim_assist.PRESS_AFTER_MS); a loaded
machine runs the emulator slower than that clock, and a press the firmware takes before any
scan saw the stone is a pass (tracking/presses.py; once in a fresh clone's `make test-device`
the twin recorded `B pass` where B18 was clicked, then `wrong-colour`).

Here the test runs the twin itself, a few emulated ms at a time, as slowly as a machine far too
loaded for the wall clock would: whatever the wall clock says, each press waits for the
firmware's scans of its stone, and the firmware records the moves played, not passes. A twin
that has stopped gets no press: the board raises TwinError saying what it waited for.
"""

import json
import threading
import time
import urllib.error
import urllib.request

import pytest
from twin_support import require_images

require_images("romfs")
pytestmark = pytest.mark.slow  # a twin booted and played: ~20 s

GRID_POINTS = 19 * 19  # every scan reads each of the twin's grid sensors once
MOVES = (("D4", "B"), ("Q16", "W"), ("C3", "B"))
STEP_MS = 2  # emulated, between the page's requests to the twin


class Watched:
    """The twin as TwinBoard sees it, noting the grid model's reads (the firmware's sensor
    conversions so far) at each position set and at each key held. `gate`: held while the test
    runs the twin, so that what is noted is what the firmware had done at that moment."""

    def __init__(self, twin, gate):
        self.twin = twin
        self.gate = gate
        self.notes = []  # ("grid", reads after the change) / ("key", name, reads at the press)

    def model(self, name, **args):
        with self.gate:
            if name == "key" and "key" in args:
                self.notes.append(("key", args["key"], self.twin.model("grid")["reads"]))
            out = self.twin.model(name, **args)
            if name == "grid" and "position" in args:
                self.notes.append(("grid", out["reads"]))
            return out

    def __getattr__(self, name):
        return getattr(self.twin, name)


def test_each_press_waits_for_the_firmwares_scans_of_its_stone(tmp_path, monkeypatch):
    from host_tools.sim_server import make_server
    from host_tools.twin import live_board
    from host_tools.twin.process import TwinError

    monkeypatch.setattr(live_board, "TWIN_WAIT_S", live_board.TWIN_WAIT_S)

    twin = live_board.start(str(tmp_path / "build"))
    link = live_board.TwinLink(twin)
    try:
        config = {"size": 19, "rules": "chinese", "komi": 7.5, "time": {"system": "none"}}
        board = live_board.TwinBoard(config, link)
        link.new_game()
        link.send({"cmd": "new-game", "config": board.config})
        live_board.wait_for(lambda: [r for r in link.replies if r.get("cmd") == "new-game"], 60)
        twin.pause()  # from here on the test runs the twin
        gate = threading.Lock()
        watched = link.twin = Watched(twin, gate)
        failed = []

        def play():
            try:
                for point, colour in MOVES:
                    board.place(point, colour)
                    board.press(colour)  # what the assist does once PRESS_AFTER_MS is due
            except BaseException as exc:  # noqa: BLE001 (reported by the test's thread)
                failed.append(exc)

        player = threading.Thread(target=play, daemon=True)
        player.start()
        deadline = time.monotonic() + 300
        while player.is_alive() and time.monotonic() < deadline:
            with gate:
                twin.run_ms(STEP_MS)
            time.sleep(0.005)  # the page's requests come between the twin's steps
        assert not player.is_alive() and not failed, failed

        def moved():
            return [e for e in link.events if e.get("type") in ("move", "pass")]

        for _ in range(1000):  # up to 2 s emulated for the last press to be judged
            if len(moved()) >= len(MOVES):
                break
            twin.run_ms(STEP_MS)
        # Each key held after the firmware had read the grid, as the stone before it left
        # it, over two whole scans' conversions at least; the firmware's moves are the stones.
        since = []
        last_set = None
        for note in watched.notes:
            if note[0] == "grid":
                last_set = note[1]
            else:
                since.append((note[1], note[2] - last_set))
        assert [name for name, _reads in since] == [colour for _point, colour in MOVES]
        short = [(name, reads) for name, reads in since if reads < 2 * GRID_POINTS]
        assert short == [], "key held after fewer than two scans' reads of the grid"
        plays = [(e["type"], e.get("color"), e.get("point")) for e in moved()]
        assert plays == [("move", colour, point) for point, colour in MOVES]

        # A twin that no longer runs: the page says what its board waited for, and nothing is
        # pressed.
        stopped_notes = len(watched.notes)
        live_board.TWIN_WAIT_S = 1.0  # (monkeypatched back)
        session = live_board.TwinSession(link, config=config, assist=False)  # a grid change
        server = make_server(0, "127.0.0.1", session)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = "http://127.0.0.1:%d/api/press" % server.server_address[1]
            press = urllib.request.Request(url, data=json.dumps({"color": "W"}).encode())
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(press, timeout=60)
        finally:
            server.shutdown()
            server.server_close()
        assert refused.value.code == 503
        error = json.loads(refused.value.read())["error"]
        assert "did not scan the grid 2 times after its last change, before key W" in error
        with pytest.raises(TwinError, match="did not read W's bowl 3 times"):
            session.board.place("E5", "W")
        assert [note for note in watched.notes[stopped_notes:] if note[0] == "key"] == []
    finally:
        link.twin = twin
        link.close()
        twin.close()

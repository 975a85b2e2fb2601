"""The projector view (host_tools/relay/projector.*) at 1920x1080 in headless Chromium
(tests/host/relay_projector.mjs): 20, 40 and 60 boards of a round on one screen, every card
inside it and no scrolling, names at least 18 px high, clocks running, results shown; the
screenshots are compared with the reviewed golden images."""

import json
import os
import shutil
import subprocess

import pytest
import screenshots

from host_tools import ROOT
from host_tools.commands.relay import _fan_out
from host_tools.relay.demo import player_name
from host_tools.relay.director import Director
from host_tools.relay.service import Relay
from host_tools.relay.store import Store
from host_tools.relay.web import Broadcaster, LiveServer

SCRIPT = os.path.join(ROOT, "tests", "host", "relay_projector.mjs")
HAVE = os.path.exists("/usr/bin/chromium") and os.path.isdir(
    os.path.join(ROOT, "node_modules", "playwright-core")
)
pytestmark = pytest.mark.skipif(not HAVE, reason="chromium or playwright-core missing: make setup")
MOVES = ["D4", "Q16", "C16", "Q4", "R6", "E3", "K10", "C3"]


def hall(tmp_path, boards):
    """A relay and desk with a round of `boards` tables: a third finished, the rest playing."""
    store = Store(str(tmp_path / "relay.sqlite"))
    relay = Relay(store, "proj")
    desk = Director(store, "proj", views=relay.views, wall=lambda: 1777748400.0)
    broadcaster = Broadcaster(0)
    relay.on_event = _fan_out(desk, broadcaster)  # as `ingboard relay` does
    lines = ["# event: Projector Cup", "# date: 2026-05-02"]
    for i in range(boards):
        lines.append("%d,%s,%s,0,6.5" % (i + 1, player_name(2 * i), player_name(2 * i + 1)))
    desk.import_file("\n".join(lines) + "\n", "r.csv", 3)
    now = [0]

    def msg(board, kind, payload):
        now[0] += 10
        relay.handle("go/v1/proj/%s/%s" % (board, kind), json.dumps(payload), now[0])

    for i in range(boards):
        b = "t%d" % (i + 1)
        msg(b, "status", {"state": "online", "boot": 1})
        msg(
            b,
            "game",
            {
                "g": "1-1",
                "size": 19,
                "rules": "japanese",
                "komi": 6.5,
                "round": 3,
                "players": {"B": player_name(2 * i), "W": player_name(2 * i + 1)},
            },
        )
        moves = MOVES[: 3 + i % 6]
        for n, p in enumerate(moves):
            msg(b, "move", {"g": "1-1", "n": n + 1, "c": "BW"[n % 2], "p": p})
        side = {"main_ms": 1500000 - 7000 * i, "period": 0, "period_ms": 0, "penalty": 0}
        msg(
            b,
            "clock",
            {
                "g": "1-1",
                "n": len(moves),
                "run": "BW"[len(moves) % 2],
                "B": side,
                "W": dict(side, main_ms=1400000 + 3000 * i),
            },
        )
        if i % 3 == 0:
            msg(b, "result", {"g": "1-1", "n": len(moves), "result": "B+R", "reason": "resign"})
    server = LiveServer(("127.0.0.1", 0), broadcaster, store=store, event="proj", director=desk)
    return store, server


@pytest.mark.parametrize("boards", [20, 40, 60])
def test_every_board_of_a_round_on_one_projector_screen(tmp_path, boards):
    store, server = hall(tmp_path, boards)
    server.start()
    try:
        url = "http://127.0.0.1:%d/projector" % server.server_address[1]
        name = "projector-%d.png" % boards
        proc = subprocess.run(
            [shutil.which("node") or "node", SCRIPT, url, str(tmp_path), name],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        server.stop()
        store.close()
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["round"] == "round 3" and r["view"] == [1920, 1080]
    assert r["scroll"][0] <= 1920 and r["scroll"][1] <= 1080  # no scrolling
    assert len(r["cards"]) == boards
    assert sorted(int(c["table"]) for c in r["cards"]) == list(range(1, boards + 1))
    for c in r["cards"]:
        left, top, right, bottom = c["box"]
        assert left >= 0 and top >= 0 and right <= 1920 and bottom <= 1080, c
        assert c["font"] >= 18, c  # large names, readable from the back of the hall
        assert not c["cut"], c  # and not cut off
        assert all(t and t[0].isdigit() for t in c["clocks"])
    finished = [c for c in r["cards"] if (int(c["table"]) - 1) % 3 == 0]
    assert all(c["result"].startswith("B+R") for c in finished)
    screenshots.check(str(tmp_path / name), "relay-projector", name)

"""The relay's hall and game pages in headless Chromium (tests/host/relay_page.mjs), against a
relay run in this process (host_tools/relay/service.Relay + web.LiveServer) fed board messages
directly: the event and round header, a card per board with running clocks, a finished result
that stays on its card until the board's next round starts, the results table per round, the
broker's state shown loudly, and the per-game page (board with coordinates, move list that
shows earlier positions, clocks, SGF download). Screenshots at 1280 and 390 px are compared
with the reviewed golden images (the page runs on playwright's fake clock)."""

import json
import os
import shutil
import subprocess

import pytest
import screenshots

from host_tools import ROOT
from host_tools.relay.service import Relay
from host_tools.relay.store import Store
from host_tools.relay.web import Broadcaster, LiveServer

SCRIPT = os.path.join(ROOT, "tests", "host", "relay_page.mjs")
HAVE = os.path.exists("/usr/bin/chromium") and os.path.isdir(
    os.path.join(ROOT, "node_modules", "playwright-core")
)
pytestmark = pytest.mark.skipif(not HAVE, reason="chromium or playwright-core missing: make setup")

EVENT = "open2026"
T1 = ["D4", "Q16", "C16", "Q4", "R6", "E3"]
T3 = ["Q16", "D4", "Q3", "C16", "E17", "P5", "R10", "K10"]


def info(gid, rnd, black, white, size=19):
    return {"g": gid, "size": size, "rules": "japanese", "komi": 6.5, "round": rnd,
            "players": {"B": black, "W": white}}  # fmt: skip


def side(ms, penalty=0):
    return {"main_ms": ms, "period": 0, "period_ms": 0, "penalty": penalty}


def feed(relay):
    now = [0]

    def msg(board, kind, payload):
        now[0] += 10
        relay.handle("go/v1/%s/%s/%s" % (EVENT, board, kind), json.dumps(payload), now[0])

    def game(board, gid, data, moves):
        msg(board, "game", data)
        for i, p in enumerate(moves):
            msg(board, "move", {"g": gid, "n": i + 1, "c": "BW"[i % 2], "p": p})

    for board in ("t1", "t2", "t3", "t4"):
        msg(board, "status", {"state": "online", "boot": 1})
    # t1: round 1 finished; its round-2 game is set up but not started: the result stays.
    game("t1", "1-1", info("1-1", 1, "Ito Ann", "Kim Bo"), T1)
    msg("t1", "result", {"g": "1-1", "n": 6, "result": "B+R", "reason": "resign"})
    game("t1", "1-2", info("1-2", 2, "Ito Ann", "Lee Cas"), [])
    # t2: round 1 finished, round 2 started: the card shows the new game.
    game("t2", "1-1", info("1-1", 1, "Lee Cas", "Chen Dai"), ["C3", "D5"])
    msg("t2", "result", {"g": "1-1", "n": 2, "result": "W+2.5", "reason": "count"})
    game("t2", "1-2", info("1-2", 2, "Kim Bo", "Chen Dai"), ["D4", "F3", "C6"])
    # t3: round 2 under way, Black's clock running.
    game("t3", "1-1", info("1-1", 2, {"name": "Sato Eli", "rank": "3d"}, "Park Fen"), T3)
    msg("t3", "clock", {"g": "1-1", "run": "B", "n": 8, "B": side(1500000),
                        "W": side(1432000, 2)})  # fmt: skip
    # t4: round 2, the board went offline.
    game("t4", "1-1", info("1-1", 2, "Wang Gil", "Novak Hana", size=13), ["K10", "D4"])
    msg("t4", "status", {"state": "offline"})


@pytest.fixture
def live(tmp_path):
    store = Store(str(tmp_path / "relay.sqlite"))
    broadcaster = Broadcaster(0)
    relay = Relay(store, EVENT, on_event=broadcaster.push)
    broadcaster.push("relay", {"broker": "connected", "detail": ""})
    feed(relay)
    server = LiveServer(("127.0.0.1", 0), broadcaster, store=store, event=EVENT)
    server.start()
    try:
        yield "http://127.0.0.1:%d/" % server.server_address[1], broadcaster
    finally:
        server.stop()
        store.close()


def test_hall_and_game_pages(live, tmp_path):
    url, broadcaster = live
    proc = subprocess.Popen(
        [shutil.which("node") or "node", SCRIPT, url, str(tmp_path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert json.loads(line or "null") == {"broker?": True}, proc.stderr.read()[-3000:]
        broadcaster.push("relay", {"broker": "unreachable", "detail": "nothing there"})
        proc.stdin.write("go\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])

    assert r["event"] == EVENT and r["round"] == "round 2"
    assert r["broker"] == "broker connected"
    assert r["brokerBad"] == "BROKER UNREACHABLE: nothing there"
    cards = {c["id"].split("/")[-1]: c for c in r["cards"]}
    # A finished result stays until the board's next round starts...
    assert cards["t1"]["result"] == "B+R" and cards["t1"]["ply"] == 6
    assert "Ito Ann - Kim Bo" in cards["t1"]["title"]
    # ...and goes when it has started.
    assert cards["t2"]["result"] == "" and cards["t2"]["ply"] == 3
    assert "Kim Bo - Chen Dai" in cards["t2"]["title"]
    assert cards["t3"]["stones"] == 8 and cards["t3"]["href"] == "/game?e=open2026&b=t3&g=1-1"
    assert cards["t4"]["online"] == "0"
    # t3's Black clock runs between the board's clock messages; White's does not.
    assert cards["t3"]["clocks"] == [["B 24:59 PP 0", "side-B run"], ["W 23:52 PP 2", "side-W"]]
    later = {c["id"].split("/")[-1]: c for c in r["cardsLater"]}
    assert later["t3"]["clocks"][0][0] == "B 24:57 PP 0"
    assert later["t3"]["clocks"][1][0] == "W 23:52 PP 2"
    # The results table, newest round first.
    assert [t["round"] for t in r["results"]] == ["2", "1"]
    assert r["results"][1]["rows"] == [
        ["t1", "Ito Ann", "Kim Bo", "B+R"],
        ["t2", "Lee Cas", "Chen Dai", "W+2.5"],
    ]
    assert ["t3", "Sato Eli", "Park Fen", "playing"] in r["results"][0]["rows"]
    assert len(r["results"][0]["rows"]) == 4

    g = r["game"]
    assert g["title"] == "t3: Sato Eli (B) – Park Fen (W)"
    assert g["meta"] == "open2026 · round 2 · japanese · komi 6.5 · 19×19"
    assert g["moves"] == ["%d %s %s" % (i + 1, "BW"[i % 2], p) for i, p in enumerate(T3)]
    assert g["stones"] == 8 and g["coords"] == 4 * 19 and g["last"] == "8"
    assert g["clocks"] == ["B 25:00 PP 0", "W 23:52 PP 2"]  # 500 ms after the page loaded
    assert g["stonesAt4"] == 4 and g["plyShown"] == "4"
    assert g["sgfName"] == "open2026-t3-1-1.sgf"
    assert "PB[Sato Eli]" in g["sgf"] and "BR[3d]" in g["sgf"] and ";W[jj]" in g["sgf"]
    assert g["sgf"].count(";B[") == 4 and g["sgf"].count(";W[") == 4

    for shot in ("hall-1280.png", "hall-390.png", "game-1280.png", "game-390.png"):
        width = 390 if "390" in shot else 1280
        holder = r if shot.startswith("hall") else g
        assert holder["width%d" % width] == width, shot  # nothing wider than the screen
        screenshots.check(str(tmp_path / shot), "relay", shot)


def clock_text(ms):
    """What a clock side reads on the page (page.js clockText): whole seconds, rounded up."""
    t = max(0, -(-ms // 1000))
    h, m, s = t // 3600, t // 60 % 60, t % 60
    return ("%d:%02d" % (h, m) if h else "%d" % m) + ":%02d" % s


def test_a_board_driven_by_the_firmware_app_shows_running_clocks(tmp_path):
    """Issue 18: the device's own code (app.py -> relay_feed.RelayFeed -> relay_link.RelayLink)
    publishes a game; the relay takes every message (none quarantined) and the hall and game
    pages run the clock of the side the board says runs, from the board's last clock message."""
    from app_fakes import VirtualTime, hardware
    from ingboard.app.app import App
    from ingboard.link.relay_feed import RelayFeed
    from ingboard.link.relay_link import MemoryJournal, RelayLink
    from ingboard.records.store import RecordsStore

    from host_tools import simulate as sim

    store = Store(str(tmp_path / "relay.sqlite"))
    broadcaster = Broadcaster(0)
    acks = []
    relay = Relay(store, EVENT, publish=lambda t, p, q, r: acks.append((t, p)),
                  on_event=broadcaster.push)  # fmt: skip
    vt = VirtualTime()

    class Wire:
        """The board's MQTT transport, straight into the relay (acks come back below)."""

        def publish(self, topic_name, payload, qos, retain):
            assert relay.handle(topic_name, payload, vt.now) not in (None, "quarantined")
            return True

    game = sim.read_game(os.path.join(ROOT, "host_tools", "data", "demo_game.sgf"))
    simulation = sim.simulate(game, "typical", seed=1)
    config, hw = hardware(vt, simulation.text())
    link = RelayLink(EVENT, "t7", MemoryJournal(), transport=Wire())
    hw["relay"] = RelayFeed(link, vt.ticks_ms, vt.ticks_diff)
    app = App(hw, RecordsStore(str(tmp_path / "board")), vt.ticks_ms, vt.ticks_diff,
              vt.sleep_ms, config=config)  # fmt: skip
    link.connected(vt.now)
    t = 0
    while t < simulation.duration_ms // 2:
        t += 1000
        vt.drive(app, t, stop=False)
        while acks:
            link.message(*acks.pop(0), vt.now)
    assert app.failure is None and app.errors == {}
    assert relay.stats["quarantined"] == 0 and relay.ignored == 0
    view = [v for v in relay.boards.values() if v["board"] == "t7"][0]
    clock = view["clock"]
    run = "B" if app.tracker.clock.turn == 1 else "W"
    assert app.tracker.clock.running() and clock["run"] == run
    assert clock["n"] == len(app.tracker.game.plies) > 10
    assert store.moves(EVENT, "t7", view["g"])[-1][0] == clock["n"]

    def reads(ran_ms):
        out = []
        for c in ("B", "W"):
            s = clock[c]
            left = s["main_ms"] if s["main_ms"] > 0 else s["period_ms"]
            left -= ran_ms if c == run else 0
            out.append("%s %s PP %d" % (c, clock_text(left), s["penalty"]))
        return out

    server = LiveServer(("127.0.0.1", 0), broadcaster, store=store, event=EVENT)
    server.start()
    try:
        url = "http://127.0.0.1:%d/" % server.server_address[1]
        proc = subprocess.run(
            [shutil.which("node") or "node", os.path.join(ROOT, "tests", "host",
             "relay_clock.mjs"), url, str(tmp_path), "t7"],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        server.stop()
        store.close()
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    classes = [
        "side-B" + (" run" if run == "B" else ""),
        "side-W" + (" run" if run == "W" else ""),
    ]
    assert r["hall"] == [list(x) for x in zip(reads(1000), classes)]
    assert [x[0] for x in r["hallLater"]] == reads(3000)
    assert r["hallLater"] != r["hall"]  # it runs
    assert r["game"] == reads(1000)

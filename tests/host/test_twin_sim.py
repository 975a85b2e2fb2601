"""A person plays a game on the device twin through the virtual board's page (`ingboard twin
--hardware --sim`): each click on the page becomes the Hall grid's field and the bowls' load,
each clock press (assist presses after the stone) the key held, and the real rp2 firmware on
the emulated RP2040 decides; the page shows the twin's displays as its clock faces.

The games: a 19x19 one, and a 9x9 one played in the 19x19 grid's lower-left corner (as players
do on a full board; tracking/region.py), marked `device` (a second long twin run). Each: a
capture, a pass in the middle, the passes to the count. Checks: the twin's moves are the ones
clicked; `ingboard pull` copies the twin's SGF and session log, and `ingboard track` on that log
gives the same SGF (SZ of the game's size); both displays end on the board's result face (the
count, as the host's firmware code draws it from the same game), never the clock's PAUSED.
"""

import json
import os
import shutil
import subprocess
import threading

import pytest
from twin_support import ingboard, require_images

from host_tools import ROOT
from host_tools.gtp import find_gnugo

require_images("romfs")

HAVE_BROWSER = os.path.exists("/usr/bin/chromium") and os.path.isdir(
    os.path.join(ROOT, "node_modules", "playwright-core")
)
pytestmark = pytest.mark.skipif(not HAVE_BROWSER, reason="chromium or playwright-core missing")

# B captures W's B19 / B9 (move 5), W passes mid-game, then the passes to the count.
GAMES = {
    19: (["C19", "B19", "B18", "D4", "A19", "pass", "D16"], "B19"),
    9: (["C9", "B9", "B8", "D4", "A9", "pass", "F6"], "B9"),
}


def _config(size):
    return {"size": size, "rules": "chinese", "komi": 7.5, "time": {"system": "none"}}


@pytest.fixture(scope="module", params=[19, pytest.param(9, marks=pytest.mark.device)])
def played(request, tmp_path_factory):
    size = request.param
    MOVES = GAMES[size][0]
    CONFIG = _config(size)
    from host_tools import sim_counsel
    from host_tools.sim_server import make_server
    from host_tools.twin import deploy, live_board

    tmp = tmp_path_factory.mktemp("twin-sim-%d" % size)
    twin = live_board.start(str(tmp / "build"))
    link = live_board.TwinLink(twin)
    session = server = None
    try:
        counsel = sim_counsel.start() if find_gnugo() else None
        session = live_board.TwinSession(link, config=CONFIG, assist=True, counsel=counsel)
        server = make_server(0, "127.0.0.1", session)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/" % server.server_address[1]
        started = live_board.wait_for(
            lambda: [r for r in link.replies if r.get("cmd") == "new-game"], 60
        )
        game = started[0]["game"]
        done = subprocess.run(
            [shutil.which("node") or "node", os.path.join(ROOT, "tests", "host", "twin_page.mjs")]
            + [url, str(tmp), ",".join(MOVES)],
            capture_output=True,
            text=True,
            timeout=1500,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        page = json.loads(done.stdout.strip().splitlines()[-1])
        # The page's set: each colour's full weight (its stones' weights are the page's own).
        full = {n: session.board.bowls[c].full_weight() for n, c in (("B", 1), ("W", 2))}
        shown = dict(link.latest)
        events = list(link.events)
        # The next game closes this one's records (its session log no longer .part).
        before = len(link.replies)
        link.send({"cmd": "new-game", "config": CONFIG})
        live_board.wait_for(lambda: len(link.replies) > before, 60)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
        if session is not None:
            session.close()
        link.close()
    try:
        twin.pause()
        with deploy.Serving(twin) as port:
            pulled = ingboard("pull", "--port", port, "--dest", str(tmp), timeout=600)
    finally:
        twin.close()
    assert pulled.returncode == 0, pulled.stderr
    return {
        "size": size,
        "tmp": tmp,
        "game": game,
        "page": page,
        "shown": shown,
        "events": events,
        "pulled": pulled,
        "full": full,
    }


def _pulled(played, kind, suffix):
    return (played["tmp"] / kind / ("%04d%s" % (played["game"], suffix))).read_text()


def test_the_twin_played_the_moves_clicked_on_the_page(played):
    page = played["page"]
    assert page["assist"] is True
    moves_made, captured = GAMES[played["size"]]
    points = [m["p"] for m in page["twinMoves"]]
    assert points[: len(moves_made)] == moves_made
    assert points[len(moves_made) :] and all(p == "pass" for p in points[len(moves_made) :])
    moves = [e for e in played["events"] if e["type"] == "move"]
    assert moves[4]["captures"] == [captured]  # A19/A9 took it: assist lifted it on the page
    assert page["result"] and page["status"].startswith("Result: ")


def test_the_twins_sgf_is_what_track_gives_for_its_log(played, tmp_path):
    sgf = _pulled(played, "games", ".sgf")
    log = tmp_path / "board.log"
    log.write_text(_pulled(played, "sessions", ".log"))
    out = tmp_path / "tracked.sgf"
    done = ingboard("track", str(log), "--sgf", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert out.read_text() == sgf
    from sgfmill import sgf as sgfmill

    game = sgfmill.Sgf_game.from_string(sgf)
    assert game.get_root().get("RE") == played["page"]["result"]
    assert game.get_size() == played["size"]


def test_the_displays_show_the_result_face(played, tmp_path):
    from ingboard.records.session_read import read_text
    from ingboard.records.session_replay import track

    from host_tools.sim_server import result_face
    from host_tools.twin import frames

    assert played["page"]["resultFaces"] == {"B": True, "W": True}
    tracker = track(read_text(_pulled(played, "sessions", ".log")), lambda e: None)
    assert tracker.game.phase == "ended" and tracker.counted is not None
    want = result_face(tracker).tobytes()
    for name in ("B", "W"):
        bits = played["shown"][name]
        got = frames.image(bits, scale=2)
        got.save(played["tmp"] / ("display-%s.png" % name))  # to look at
        assert got.tobytes() == want, name


def _stones_beyond_the_set(log_text, size, full):
    """Each scan of the twin's session log with stones on it against the latest reading of
    each bowl: the stones of a colour on the board plus those its bowl weighs never exceed the
    set (Ing 1991 Art. 9 "Counting" (2) "Location of stones": board, bowl, lid, hand). `full`:
    each colour's full set in grams. The list of (t, colour, on the board, in the bowl) where
    they do: a bowl read as still holding a stone that lies on the board."""
    total = (size * size - 1) // 2
    latest = {}
    beyond = []
    for line in log_text.splitlines()[1:]:
        parts = line.split(" ", 3)
        if len(parts) >= 4 and parts[1] == "bowl":
            latest[parts[2]] = float(parts[3])
        elif len(parts) >= 3 and parts[1] == "scan":
            for colour in latest:
                on_board = parts[2].count(colour)
                in_bowl = round(latest[colour] * total / full[colour])
                if on_board and on_board + in_bowl > total:
                    beyond.append((int(parts[0]), colour, on_board, in_bowl))
    return beyond


def test_a_stone_leaves_its_bowl_before_it_lands_and_no_bowl_alert(played):
    # The page moves a stone as a hand does: out of the bowl (its weight read by the
    # firmware) before it lies on the board - so the firmware never weighs the stone just
    # played as still in its bowl, never enrols a set a stone off, and raises no bowl alert.
    log = _pulled(played, "sessions", ".log")
    assert _stones_beyond_the_set(log, played["size"], played["full"]) == []
    alerts = [
        e
        for e in played["events"]
        if e.get("type") == "alert" and e.get("code") == "bowl-mismatch"
    ]
    assert alerts == []

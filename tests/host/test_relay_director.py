"""The director's desk (host_tools/relay/director.py) on a relay fed board messages directly:
pairings published to the bound boards, games matched to tables, results waiting for the
director's confirmation, a correction with its reason kept in the archive (also after a
restart), alerts from boards and from the relay (illegal move, offline, two boards, wrong
players) listed until handled, standings, exports with the event's name and date, the
exported results re-imported into a fresh event with the same standings; and over HTTP: a
viewer cannot do anything the director does (auth.py)."""

import base64
import io
import json
import urllib.error
import urllib.request
import zipfile

import pytest

from host_tools.relay import desk_exports
from host_tools.relay.auth import DirectorAuth
from host_tools.relay.director import DeskError, Director
from host_tools.relay.round_view import round_view
from host_tools.relay.service import Relay
from host_tools.relay.store import Store
from host_tools.relay.web import Broadcaster, LiveServer

EV = "open26"
CSV = (
    "# event: Club Open\n# date: 2026-05-02\n"
    "table,black,white,handicap,komi\n"
    "1,Ito Ann (3d),Kim Bo (1k),0,6.5\n"
    "2,Lee Cas,Chen Dai,2,0.5\n"
    "3,Sato Eli,Park Fen,0,6.5\n"
)


class Hall:
    """A relay and its desk in this process, fed messages as boards send them."""

    def __init__(self, path, event=EV):
        self.store = Store(path)
        self.sent = []
        self.relay = Relay(self.store, event, publish=self._pub)
        self.clock = [1777716000.0]
        self.desk = Director(self.store, event, publish=self._pub, views=self.relay.views,
                             wall=lambda: self.clock[0])  # fmt: skip
        self.relay.on_event = self.desk.on_relay_event
        self.now = 0
        self.event = event

    def _pub(self, topic, payload, qos, retain):
        self.sent.append((topic, payload, qos, retain))

    def msg(self, board, kind, payload):
        self.now += 10
        self.clock[0] += 1
        topic = "go/v1/%s/%s/%s" % (self.event, board, kind)
        return self.relay.handle(topic, json.dumps(payload), self.now)

    def pairings(self):
        return {t.split("/")[3]: json.loads(p) for t, p, q, r in self.sent
                if t.endswith("/pairing")}  # fmt: skip

    def play(self, board, gid, rnd, black, white, moves, result=None, reason="count"):
        self.msg(board, "game", {"g": gid, "size": 19, "rules": "japanese", "komi": 6.5,
                                 "round": rnd, "players": {"B": black, "W": white}})  # fmt: skip
        for i, p in enumerate(moves):
            self.msg(board, "move", {"g": gid, "n": i + 1, "c": "BW"[i % 2], "p": p})
        if result:
            self.msg(board, "result", {"g": gid, "n": len(moves), "result": result,
                                       "reason": reason})  # fmt: skip


@pytest.fixture
def hall(tmp_path):
    h = Hall(str(tmp_path / "relay.sqlite"))
    yield h
    h.store.close()


def test_an_evening_pairings_results_corrections_alerts_standings(hall, tmp_path):
    rep = hall.desk.import_file(CSV, "round1.csv", 1)
    assert rep["round"] == 1 and rep["tables"] == 3 and rep["name"] == "Club Open"
    for board in ("t1", "t2", "t3"):
        hall.msg(board, "status", {"state": "online", "boot": 1})
    # Each board is bound by its number and told its table's players (retained, QoS 1).
    pairing = hall.pairings()
    assert pairing["t1"] == {"round": 1, "table": 1, "handicap": 0, "komi": 6.5,
                             "B": {"name": "Ito Ann", "rank": "3d"},
                             "W": {"name": "Kim Bo", "rank": "1k"}}  # fmt: skip
    assert pairing["t2"]["handicap"] == 2 and pairing["t2"]["komi"] == 0.5
    assert all(q == 1 and r for t, p, q, r in hall.sent if t.endswith("/pairing"))
    # The director moves table 3 to a spare board: t3 no longer, t9 gets it.
    hall.desk.bind(3, "t9")
    hall.msg("t9", "status", {"state": "online", "boot": 1})
    assert hall.pairings()["t9"]["table"] == 3
    with pytest.raises(DeskError):
        hall.desk.bind(3, "t/9")

    hall.play("t1", "1-1", 1, "Ito Ann", "Kim Bo", ["D4", "Q16"], "B+R", "resign")
    hall.play("t2", "1-1", 1, "Lee Cas", "Chen Dai", ["D4", "D4"], "W+3.5")  # illegal: occupied
    hall.msg("t2", "alert", {"g": "1-1", "n": 2, "code": "bowl-mismatch"})
    hall.msg("t2", "alert", {"g": "1-1", "n": 1, "code": "not-your-turn"})  # the board's own
    hall.play("t9", "1-1", 1, "Sato Eli", "Somebody Else", ["C3"])  # not the paired players
    hall.msg("t9", "status", {"state": "offline"})
    rv = round_view(hall.desk)
    tables = {t["table"]: t for t in rv["tables"]}
    assert [tables[n]["status"] for n in (1, 2, 3)] == ["reported", "reported", "playing"]
    assert tables[1]["result"] == "B+R" and tables[3]["board"] == "t9"
    kinds = {(a["kind"], a["table"]) for a in hall.desk.alerts()}
    assert kinds == {("illegal-move", 2), ("bowl-mismatch", 2), ("wrong-players", 3),
                     ("offline", 3)}  # fmt: skip
    illegal = next(a for a in hall.desk.alerts() if a["kind"] == "illegal-move")
    assert "occupied" in illegal["detail"] and "Go to the table" in illegal["todo"]
    assert illegal["at"].startswith("2026-")

    # Results wait for the director: nothing counts before the confirmation.
    assert hall.desk.standings()["rounds"] == []
    hall.desk.confirm(1, 1)
    with pytest.raises(DeskError):
        hall.desk.confirm(1, 3)  # nothing reported there
    with pytest.raises(DeskError):
        hall.desk.correct(1, 2, "B+R", "  ")  # a correction needs a reason
    with pytest.raises(DeskError):
        hall.desk.correct(1, 2, "B+lots", "typo")
    hall.desk.correct(1, 2, "B+F", "White's illegal move: the referee gave the game to Black")
    hall.desk.correct(1, 3, "W+R", "Black resigned at the table; the board was offline")
    assert hall.desk.confirm_all(1) == 0
    # A board that changes its mind later does not override the director.
    hall.msg("t1", "result", {"g": "1-1", "n": 2, "result": "W+R", "reason": "resign"})
    table = hall.desk.standings()
    assert [(r["name"], r["nbw"]) for r in table["rows"]][:3] == [
        ("Ito Ann", 1), ("Lee Cas", 1), ("Park Fen", 1)]  # fmt: skip
    assert table["criteria"] == ["NBW", "SOS", "SOSOS"]
    for a in hall.desk.alerts():
        hall.desk.handle_alert(a["id"])
    with pytest.raises(DeskError):
        hall.desk.handle_alert(illegal["id"])  # already handled
    assert all(a["handled_by"] == "director" for a in hall.desk.alerts())

    # The archive keeps it all: a relay restarted on the same file has the same desk.
    again = Director(hall.store, EV)
    assert [c["reason"] for c in again.corrections()] == [
        "White's illegal move: the referee gave the game to Black",
        "Black resigned at the table; the board was offline"]  # fmt: skip
    assert again.corrections()[0]["before"] == "W+3.5" and again.corrections()[1]["before"] is None
    assert len(again.alerts()) == 4 and again.standings() == table

    # Exports: the event's name and date, only confirmed results.
    egd = desk_exports.egd(hall.desk)
    assert "; EV[Club Open]" in egd and "; DT[2026-05-02]" in egd
    aga = desk_exports.aga(hall.desk)
    assert aga.startswith("TOURNEY Club Open\n\tstart=2026-05-02\n")
    data, count = desk_exports.sgf_zip(hall.desk, 1)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert count == 3 and "round1-table01-Ito-Ann-Kim-Bo.sgf" in names
    sgf = zipfile.ZipFile(io.BytesIO(data)).read("round1-table02-Lee-Cas-Chen-Dai.sgf").decode()
    assert "RE[B+F]" in sgf and "EV[Club Open]" in sgf and "RO[1]" in sgf
    # ...and the results go back into a fresh event with the same outcome.
    xml = desk_exports.opengotha_xml(hall.desk)
    fresh = Hall(str(tmp_path / "fresh.sqlite"), "fresh")
    rep = fresh.desk.import_file(xml, "results.xml")
    assert rep["results"] == 3
    assert fresh.desk.standings()["rows"] == table["rows"]
    fresh.store.close()


def test_rounds_one_at_a_time_previous_round_boards_and_two_boards(hall):
    hall.desk.import_file(CSV, "round1.csv", 1)
    for board in ("t1", "t2", "t3", "t4"):
        hall.msg(board, "status", {"state": "online", "boot": 1})
    hall.play("t1", "1-1", 1, "Ito Ann", "Kim Bo", ["D4"], "B+R")
    hall.play("t2", "1-1", 1, "Lee Cas", "Chen Dai", ["D4"], "W+R")
    hall.play("t3", "1-1", 1, "Sato Eli", "Park Fen", ["D4", "Q16"])  # still playing
    hall.desk.confirm_all(1)
    round2 = "1,Ito Ann,Chen Dai\n2,Lee Cas,Kim Bo\n3,Sato Eli,Park Fen\n4,Wang Gil,Ito Ann\n"
    with pytest.raises(Exception) as err:
        hall.desk.import_file(round2, "round2.csv", 2)
    assert "Ito Ann plays at tables 1 and 4" in str(err.value)
    assert hall.desk.current_round() == 1  # nothing imported from a bad file
    hall.desk.import_file(round2.replace("4,Wang Gil,Ito Ann", "4,Wang Gil,Novak Hana"), "r2", 2)
    assert hall.desk.current_round() == 2 and hall.pairings()["t1"]["round"] == 2
    hall.play("t1", "1-2", 2, "Ito Ann", "Chen Dai", ["D4"])
    # A board whose own settings name a player already seated: flagged.
    hall.play("t4", "1-1", 2, "Wang Gil", "Ito Ann", ["C3"])
    rv = round_view(hall.desk)
    assert rv["round"] == 2 and rv["current"] == 2
    assert [(f["board"], f["round"]) for f in rv["finishing"]] == [("t3", 1)]
    assert rv["two_boards"] == [{"name": "Ito Ann", "boards": ["t1", "t4"]}]
    assert next(t for t in rv["tables"] if t["table"] == 3)["busy"] == "still playing round 1"
    assert {"two-boards", "wrong-players"} <= {a["kind"] for a in hall.desk.alerts()}
    with pytest.raises(DeskError):
        hall.desk.set_round(7)


# -- over HTTP: the director's credentials ---------------------------------------------------


def _req(base, path, data=None, auth=None, header=True):
    req = urllib.request.Request(base + path, data=data)
    if auth:
        req.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    if data is not None and header:
        req.add_header("X-Ingboard", "director")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.fixture
def served(hall):
    broadcaster = Broadcaster(0)
    server = LiveServer(("127.0.0.1", 0), broadcaster, store=hall.store, event=EV,
                        director=hall.desk, auth=DirectorAuth("s3cret pass"))  # fmt: skip
    server.start()
    try:
        yield "http://127.0.0.1:%d" % server.server_address[1], hall
    finally:
        server.stop()


CHANGES = [
    ("/director/api/import?round=1&name=r.csv", CSV.encode()),
    ("/director/api/bind", b'{"table": 1, "board": "t5"}'),
    ("/director/api/round", b'{"round": 1}'),
    ("/director/api/confirm", b'{"round": 1, "all": true}'),
    ("/director/api/correct", b'{"round": 1, "table": 1, "result": "W+R", "reason": "x"}'),
    ("/director/api/alert", b'{"id": 1}'),
]
DIRECTOR_GETS = ["/director", "/director/api/state", "/director/labels",
                 "/director/export/opengotha.xml",
                 "/director/export/egd.h9", "/director/export/aga.txt",
                 "/director/export/sgf.zip?round=1"]  # fmt: skip


def test_a_viewer_cannot_do_what_the_director_does(served):
    base, hall = served
    for who in (None, "director:wrong", "viewer:s3cret pass", "director:", "garbage"):
        for path, body in CHANGES:
            status, _ = _req(base, path, body, who)
            assert status == 401, (who, path)
        for path in DIRECTOR_GETS:
            assert _req(base, path, None, who)[0] == 401, (who, path)
    assert hall.desk.tournament().tables == {}  # nothing changed
    # The public views stay open (no tournament yet: said so).
    assert _req(base, "/api/round")[0] == 404
    ok = "director:s3cret pass"
    # Without the header a cross-site form could send, a POST is refused even with credentials.
    assert _req(base, CHANGES[0][0], CHANGES[0][1], ok, header=False)[0] == 400
    status, body = _req(base, CHANGES[0][0], CHANGES[0][1], ok)
    assert status == 200 and json.loads(body)["imported"]["tables"] == 3
    status, body = _req(base, "/director/api/import?name=x.csv", b"table,black\n1,x\n", ok)
    assert status == 400 and "header must name" in json.loads(body)["error"]
    status, body = _req(base, "/director/api/correct", b'{"round": 1, "table": 1}', ok)
    assert status == 400 and "reason" in json.loads(body)["error"]
    assert _req(base, "/director", None, ok)[0] == 200
    status, body = _req(base, "/director/labels", None, ok)
    assert status == 200 and body.count(b'class="label"') == 3 and b"Ito Ann - Kim Bo" in body
    state = json.loads(_req(base, "/director/api/state", None, ok)[1])
    assert state["round"]["current"] == 1 and len(state["round"]["tables"]) == 3
    status, body = _req(base, "/api/round")
    assert status == 200 and json.loads(body)["name"] == "Club Open"
    assert _req(base, "/api/standings")[0] == 200
    assert _req(base, "/events", b"x", None)[0] == 405  # the rest stays read-only


def test_the_desk_is_off_without_credentials(hall):
    server = LiveServer(("127.0.0.1", 0), Broadcaster(0), store=hall.store, event=EV,
                        director=hall.desk, auth=None)  # fmt: skip
    server.start()
    try:
        base = "http://127.0.0.1:%d" % server.server_address[1]
        status, body = _req(base, CHANGES[0][0], CHANGES[0][1], "director:x")
        assert status == 403 and "--director-password-file" in json.loads(body)["error"]
    finally:
        server.stop()


def test_the_public_round_waits_for_the_broadcast_delay(tmp_path):
    """With --delay the hall's round view shows a board's result only once broadcast; the
    director sees it at once."""
    from host_tools.commands.relay import _fan_out

    h = Hall(str(tmp_path / "relay.sqlite"))
    broadcaster = Broadcaster(delay_s=3600)
    h.relay.on_event = _fan_out(h.desk, broadcaster)
    server = LiveServer(("127.0.0.1", 0), broadcaster, store=h.store, event=EV,
                        director=h.desk, auth=DirectorAuth("pw"))  # fmt: skip
    server.start()
    try:
        base = "http://127.0.0.1:%d" % server.server_address[1]
        h.desk.import_file(CSV, "r1.csv", 1)
        h.msg("t1", "status", {"state": "online", "boot": 1})
        h.play("t1", "1-1", 1, "Ito Ann", "Kim Bo", ["D4", "Q16"], "B+R", "resign")
        public = json.loads(_req(base, "/api/round")[1])["tables"][0]
        assert (public["status"], public["result"], public["n"]) == ("playing", None, 0)
        desk = json.loads(_req(base, "/director/api/state", None, "director:pw")[1])
        assert desk["round"]["tables"][0]["status"] == "reported"
        h.desk.confirm(1, 1)  # the director's decision is public at once
        public = json.loads(_req(base, "/api/round")[1])["tables"][0]
        assert (public["status"], public["result"]) == ("confirmed", "B+R")
    finally:
        server.stop()
        h.store.close()


def test_export_opengotha_from_the_command_line(hall, tmp_path):
    import subprocess
    import sys

    from host_tools import ROOT

    hall.desk.import_file(CSV, "r1.csv", 1)
    hall.msg("t1", "status", {"state": "online", "boot": 1})
    hall.play("t1", "1-1", 1, "Ito Ann", "Kim Bo", ["D4"], "W+R", "resign")
    hall.desk.confirm(1, 1)
    out = tmp_path / "results.xml"
    cmd = [sys.executable, "-m", "host_tools", "relay", "--db", hall.store.path, "--event", EV,
           "--export-opengotha", str(out)]  # fmt: skip
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert 'result="RESULT_WHITEWINS"' in text and 'name="Club Open"' in text
    assert text.count("RESULT_UNKNOWN") == 2
    proc = subprocess.run(cmd[:-4] + ["--export-opengotha", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2 and "needs --event" in proc.stderr

"""Relay exports carry what is known: SGF with AP, EV, DT (the day the relay first saw the
game), TM/OT from the game's time settings and BL/WL from the boards' clock messages; the EGD
table with the event, dates, komi and EGD PINs; the AGA file with the dates and AGA ids."""

import json
import subprocess
import sys

from sgfmill import sgf as sgfmill_sgf

from host_tools import ROOT
from host_tools.relay import exports
from host_tools.relay.service import Relay
from host_tools.relay.store import Store

INFO = {
    "g": "1-1",
    "size": 9,
    "rules": "japanese",
    "komi": 6.5,
    "round": 1,
    "time": {"system": "byoyomi", "basic_s": 1800, "periods": 5, "period_s": 30},
    "players": {
        "B": {"name": "Ito Ann", "rank": "2d", "aga": "101", "egd": "12850431"},
        "W": {"name": "Bo Cheng", "rank": "1k", "aga": "202", "egd": "1285043"},
    },
}
MOVES = ["E5", "C3", "G7"]


def side(ms):
    return {"main_ms": ms, "period": 0, "period_ms": 0, "penalty": 0}


def archive(path):
    relay = Relay(Store(path), "club", today=lambda: "2026-05-02")

    def msg(kind, payload):
        relay.handle("go/v1/club/t1/%s" % kind, json.dumps(payload).encode(), 0)

    msg("game", INFO)
    left = {"B": 1800000, "W": 1800000}
    for i, p in enumerate(MOVES):
        c = "BW"[i % 2]
        msg("move", {"g": "1-1", "n": i + 1, "c": c, "p": p})
        left[c] -= 61500 * (i + 1)
        msg("clock", {"g": "1-1", "run": "WB"[i % 2], "n": i + 1, "B": side(left["B"]),
                      "W": side(left["W"])})  # fmt: skip
    msg("result", {"g": "1-1", "n": 3, "result": "B+R", "reason": "resign"})
    relay.store.close()


def test_sgf_keeps_what_is_known(tmp_path):
    archive(str(tmp_path / "r.sqlite"))
    store = Store(str(tmp_path / "r.sqlite"))
    try:
        [path] = exports.write_sgf(store, str(tmp_path / "sgf"))
    finally:
        store.close()
    text = open(path, encoding="utf-8").read()
    root = sgfmill_sgf.Sgf_game.from_string(text).get_root()
    assert root.get("AP")[0] == "ingboard"
    assert root.get("EV") == "club" and root.get("DT") == "2026-05-02"
    assert root.get("TM") == 1800 and root.get("OT") == "5x30 byo-yomi"
    assert root.get("PB") == "Ito Ann" and root.get("RE") == "B+R"
    nodes = sgfmill_sgf.Sgf_game.from_string(text).get_main_sequence()[1:]
    assert [n.get_raw("BL" if i % 2 == 0 else "WL") for i, n in enumerate(nodes)] == [
        b"1738.5",  # Black after move 1: 1800 - 61.5
        b"1677",  # White after move 2: 1800 - 123
        b"1554",  # Black after move 3: 1738.5 - 184.5
    ]


def test_egd_and_aga_carry_dates_komi_and_ids(tmp_path):
    db = str(tmp_path / "r.sqlite")
    archive(db)
    egd, aga = str(tmp_path / "t.h9"), str(tmp_path / "t.aga")
    done = subprocess.run(
        [sys.executable, "-m", "host_tools", "relay", "--db", db, "--event", "club",
         "--export-egd", egd, "--export-aga", aga],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = open(egd, encoding="utf-8").read()
    assert "; EV[club]" in table and "; DT[2026-05-02]" in table and "; KM[6.5]" in table
    # The EGD PIN ends the player's line ("|PIN", as in the .h9 files OpenGotha writes); one
    # that is not 8 digits stays off the line and is named in a comment for the TD.
    rows = [line.split() for line in table.splitlines() if not line.startswith(";")]
    assert rows == [
        ["1", "Ito", "Ann", "2d", "2+/b0", "|12850431"],
        ["2", "Bo", "Cheng", "1k", "1-/w0"],
    ]
    assert "; Bo Cheng: EGD PIN 1285043 is not 8 digits, left out" in table.splitlines()
    sub = open(aga, encoding="utf-8").read()
    assert "start=2026-05-02" in sub and "finish=2026-05-02" in sub
    assert "202 101 B 0 6.5" in sub  # white id, black id, winner, handicap, komi

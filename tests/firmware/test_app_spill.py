"""A bowl knocked over in play: a bowl of White's stones spills over the 19x19 board while Black
is to play, every stone on an empty point at once, then the players pick them up. Each is a
`wrong-colour` alert raised in the same scan - more than the app's outputs queue holds
(app.OUTPUTS) - and the host (or a display on it) must still learn every point to clear: none
dropped. When they are all picked up, no alert stands and the game goes on."""

from app_fakes import new_app
from ingboard.app.app import OUTPUTS

ROOT = "/tmp/ingboard-test-app-spill"
SIZE = 19
SPILLED = 100  # more than the outputs queue holds (64)
LETTERS = "ABCDEFGHJKLMNOPQRST"


def _spill():
    # Scattered over the board: every 37th point (37 and 361 coprime: no point twice).
    points = [divmod(k * 37 % (SIZE * SIZE), SIZE) for k in range(SPILLED)]
    rows = [["."] * SIZE for _ in range(SIZE)]
    for r, c in points:
        rows[r][c] = "W"
    names = sorted("%s%d" % (LETTERS[c], SIZE - r) for r, c in points)
    return rows, names


def _text(rows):
    return "/".join("".join(r) for r in rows)


def _game():
    empty = [["."] * SIZE for _ in range(SIZE)]
    rows, names = _spill()
    # Picked up in two handfuls, then Black plays on a point none fell on.
    half = [r[:] for r in rows]
    taken = 0
    for r in range(SIZE):
        for c in range(SIZE):
            if half[r][c] == "W" and taken < SPILLED // 2:
                half[r][c] = "."
                taken += 1
    move = [r[:] for r in empty]
    free = [(r, c) for r in range(SIZE) for c in range(SIZE) if rows[r][c] == "."][0]
    move[free[0]][free[1]] = "B"
    log = (
        "ingboard-session 1\n"
        '0 config {"size": 19, "rules": "ing1991", "time": {"system": "ing-pp", '
        '"basic_s": 600}}\n'
        "0 scan " + _text(empty) + "\n"
        "1000 scan " + _text(rows) + "\n"
        "3000 scan " + _text(half) + "\n"
        "3500 scan " + _text(empty) + "\n"
        "5000 scan " + _text(move) + "\n"
        "5500 press B\n"
    )
    name = "%s%d" % (LETTERS[free[1]], SIZE - free[0])
    return log, names, name


def test_a_spilled_bowl_names_every_point_to_the_host_and_the_game_goes_on():
    assert SPILLED > OUTPUTS
    log, names, played = _game()
    vt, hw, app = new_app(log, ROOT, [(2500, b'{"cmd": "state"}\n')])
    vt.drive(app, 2900, stop=False)
    sent = hw["link"].messages()
    alerts = [m for m in sent if m["type"] == "alert"]
    assert {a["code"] for a in alerts} == {"wrong-colour"}
    named = [p for a in alerts for p in a["points"]]
    assert sorted(named) == names  # every point, each once
    state = [m for m in sent if m["type"] == "state"]
    assert state and state[0]["dropped"] == 0
    # Each stays standing until its stone is picked up.
    assert len(app.tracker.active) == SPILLED
    vt.drive(app, 4500, stop=False)
    assert app.tracker.active == {}  # all picked up: none stands
    vt.drive(app, 6500)
    sent = hw["link"].messages()
    moves = [m for m in sent if m["type"] == "move"]
    assert [(m["color"], m["point"], m["n"]) for m in moves] == [("B", played, 1)]
    assert [m for m in sent if m["type"] in ("warning", "error")] == []
    assert len([m for m in sent if m["type"] == "alert"]) == len(alerts)  # no more alerts


def test_alerts_beyond_a_full_queue_go_into_one_list_made_once_and_the_originals_stay():
    # A full board's 361 `stone-extra` (a new game with the last game's stones still on the
    # board): each point past the queue's 64 goes into one list made for the newest queued
    # alert of its code - not a new, longer list each time (review: ~185 KB of garbage) - and
    # the list that alert was raised with (a display may hold it) is left as it was.
    _vt, _hw, app = new_app(_game()[0], ROOT)
    raised = []
    for k in range(361):
        points = ["P%d" % k]
        raised.append(points)
        app.emit({"t": k, "type": "alert", "code": "stone-extra", "points": points, "text": "x"})
    q = app.outputs
    assert q.count == OUTPUTS and q.dropped == 0
    newest = q.slots[(q.head + q.count - 1) % OUTPUTS]
    assert newest["points"] == ["P%d" % k for k in range(OUTPUTS - 1, 361)]
    assert newest["points"] is q.merged and newest["t"] == OUTPUTS - 1
    assert raised[OUTPUTS - 1] == ["P%d" % (OUTPUTS - 1)]  # the list it was raised with
    # Another code finds no alert of its own queued: dropped, and counted.
    app.emit({"t": 400, "type": "alert", "code": "wrong-colour", "points": ["A1"], "text": "y"})
    assert q.dropped == 1

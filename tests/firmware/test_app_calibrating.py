"""The calibration mode (issue 32: `ingboard calibrate` refused with a MemoryError on the
twin): while a host calibrates the board - bands of stones of one colour on the board, a test
mass in a bowl - its scans and bowl readings are not the game's: no alert, no move, nothing
journalled; it ends with the host's `off`, or 30 minutes after its last calibration request,
and the game is then given the board as it is."""

from app_fakes import new_app
from ingboard.app import inputs
from ingboard.sensing.classifier import DEFAULT_EMPTY, DEFAULT_SPAN

ROOT = "/tmp/ingboard-test-app-calibrating"
EMPTY = "/".join(["........."] * 9)
WHITE_BAND = "/".join(["WWWWWWWWW"] * 3 + ["........."] * 6)  # White's first band, Black to play
# The session log the fakes replay: the board and the bowls as the hands leave them.
LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}}\n'
    "0 scan " + EMPTY + "\n"
    "1000 scan " + WHITE_BAND + "\n"
    "1000 bowl W 500.0\n"
    "1200 bowl W 500.0\n"
)
ON = b'{"cmd": "calibrating", "on": true}\n'
OFF = b'{"cmd": "calibrating", "on": false}\n'
RAW = b'{"cmd": "raw-scan", "n": 2}\n'


def _app(host_lines):
    return new_app(LOG, ROOT, host_lines)


def _alerts(hw):
    return [m for m in hw["link"].messages() if m["type"] == "alert"]


def test_without_the_mode_a_band_of_white_stones_is_a_flood_of_alerts():
    # The case the mode is for: 27 stones of the player not to move, each its own alert.
    vt, hw, app = _app([])
    vt.drive(app, 4000)
    assert len([a for a in _alerts(hw) if a["code"] == "wrong-colour"]) == 27


def test_calibrating_board_raises_no_alert_and_makes_no_move_then_plays_again_when_off():
    vt, hw, app = _app([(200, ON), (2000, RAW), (3000, OFF)])
    vt.drive(app, 2900, stop=False)
    sent = hw["link"].messages()
    assert {"type": "ok", "cmd": "calibrating", "on": True} in sent
    raw = [m for m in sent if m["type"] == "raw-scan"]
    assert len(raw) == 1 and raw[0]["size"] == 9 and len(raw[0]["values"]) == 81
    # The mean of two scans of the fake grid (its noise is -2..+2 a scan): the band reads
    # White's level, the rest empty.
    values = raw[0]["values"]
    white, empty = DEFAULT_EMPTY - DEFAULT_SPAN, DEFAULT_EMPTY
    assert all(abs(v - white) <= 2 for v in values[:27]), values[:27]
    assert all(abs(v - empty) <= 2 for v in values[27:]), values[27:]
    assert _alerts(hw) == [] and app.tracker.game.plies == []
    assert app.calibrating is not None
    # The bowls were polled (the driver's watch for a silent HX711 stays fed), and the test
    # mass went nowhere: no bowl reading in the session log.
    assert hw["hx711"]["W"].k == 2
    app.log_file.flush()
    with open(app.store.session_part(app.number)) as f:
        kinds = [ln.split()[1] for ln in f if ln.strip() and not ln.startswith("ingboard")]
    assert "bowl" not in kinds and kinds.count("scan") == 1  # the empty board before the mode
    # The host's off: the game is given the board as it is - the stones still lie there.
    vt.drive(app, 6000)
    codes = [a["code"] for a in _alerts(hw)]
    assert app.calibrating is None and codes.count("wrong-colour") == 27


def test_calibration_mode_lapses_thirty_minutes_after_the_hosts_last_request():
    vt, hw, app = _app([(200, ON)])
    vt.drive(app, 2500, stop=False)
    assert _alerts(hw) == [] and app.calibrating is not None
    # The host went away: its last request was CALIBRATING_MS ago.
    app.calibrating = vt.ticks_ms() - inputs.CALIBRATING_MS
    vt.drive(app, 5000)
    sent = hw["link"].messages()
    warnings = [m["text"] for m in sent if m["type"] == "warning"]
    assert any("no request from the host for 30 min" in w for w in warnings), warnings
    assert [a["code"] for a in _alerts(hw)].count("wrong-colour") == 27


def test_a_raw_request_renews_the_mode_and_a_bad_flag_is_refused():
    vt, hw, app = _app([(200, ON)])
    vt.drive(app, 500, stop=False)
    started = app.calibrating
    vt.now = 1500
    reply = app.protocol.handle(RAW)
    assert reply[0]["type"] == "raw-scan" and app.calibrating != started
    bad = app.protocol.handle(b'{"cmd": "calibrating", "on": "yes"}')
    assert bad[0]["type"] == "error" and bad[0]["cmd"] == "calibrating"
    assert app.calibrating is not None  # a refused line changes nothing

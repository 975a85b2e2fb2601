"""Issue 19: no sensor reading, key or host line stops the board program.

The whole app (firmware/ingboard/app/app.py) on the fakes of app_fakes.py, CPython and MicroPython:
a NaN / infinite / 100 kg load-cell reading, a double press of a clock key, and host lines that
used to kill the link (komi 1e308, Infinity, JSON nested a thousand deep, huge integers) each
get one clear alert or error, the game goes on, and a refused line changes nothing.
"""

from app_fakes import VirtualTime, clear_records, hardware, run_app
from expect import raises
from ingboard.app.app import App
from ingboard.records.store import RecordsStore

EMPTY = "/".join(["........."] * 9)
ONE = "/".join(["........."] * 4 + ["....B...."] + ["........."] * 4)
TWO = "/".join(["........."] * 4 + ["...WB...."] + ["........."] * 4)
LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}}\n'
    "0 scan " + EMPTY + "\n"
    "1000 scan " + ONE + "\n"
    "1500 press B\n"
    "1700 press B\n"  # a double press: Black's key again, the clock already runs for White
    "3000 scan " + TWO + "\n"
    "3500 press W\n"
    "3600 press W\n"
)


def test_a_double_press_of_a_clock_key_does_not_stop_the_board():
    root = "/tmp/ingboard-test-faults-press"
    clear_records(root)
    app, hw = run_app(LOG, root, 6000)
    assert app.failure is None and app.errors == {}
    assert len(app.tracker.game.plies) == 2
    assert app.tracker.clock.turn == 1  # Black to move: the extra presses changed nothing


class BadScale:
    """A load cell that returns garbage, then good readings."""

    def __init__(self, vt, readings):
        self.vt = vt
        self.readings = readings
        self.k = 0

    def poll(self, now_ms):
        got = None
        while self.k < len(self.readings) and self.readings[self.k][0] <= self.vt.now:
            got = self.readings[self.k][1]
            self.k += 1
        return got


def test_nan_infinite_and_100_kg_readings_raise_a_sensor_fault_and_the_game_goes_on():
    root = "/tmp/ingboard-test-faults-bowl"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    bad = [(100, float("nan")), (300, float("inf")), (500, -float("inf")), (700, 100000.0)]
    bad += [(900, 1e308), (1100, 600.0)]
    hw["hx711"]["B"] = BadScale(vt, bad)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 6000)
    assert app.failure is None and app.errors == {}
    assert len(app.tracker.game.plies) == 2
    texts = [m["text"] for m in hw["link"].messages() if m.get("code") == "sensor-fault"]
    assert texts and all("refused" in t for t in texts)


BAD_LINES = (
    b'{"cmd": "new-game", "config": {"size": 9, "rules": "ing1991", "komi": 1e308}}',
    b'{"cmd": "new-game", "config": {"size": 9, "rules": "ing1991", "komi": 1e999}}',
    b'{"cmd": "new-game", "config": {"size": 9, "rules": "ing1991", "komi": -1e308}}',
    b'{"cmd": "new-game", "config": {"size": 9, "rules": "aga", "round_start_ms": 1'
    + b"0" * 300
    + b"}}",
    b'{"cmd": "new-game", "config": {"size": 9, "rules": "aga", "time": {"system": "absolute",'
    b' "basic_s": 1e308}}}',
    b"[" * 1000 + b"]" * 1000,
    b'{"cmd": "read", "name": "0001.sgf", "offset": 1' + b"0" * 100 + b"}",
    b'{"cmd": "enrol", "B": 1e308}',
    b'{"cmd": "raw-scan", "n": 1' + b"0" * 60 + b"}",
    b"\xff\xfe",
    b'{"cmd": "ping"' + b" " * 5000 + b"}",
)


def test_host_lines_that_killed_the_link_get_one_error_each_and_change_nothing():
    root = "/tmp/ingboard-test-faults-link"
    clear_records(root)
    lines = [(2000 + 10 * i, line) for i, line in enumerate(BAD_LINES)]
    lines.append((2500, b'{"cmd": "ping"}'))
    app, hw = run_app(LOG, root, 6000, host_lines=lines)
    assert app.failure is None and app.errors == {}
    msgs = hw["link"].messages()
    errors = [m for m in msgs if m["type"] == "error"]
    assert len(errors) == len(BAD_LINES), errors
    assert all(e["text"] for e in errors)
    assert [m["type"] for m in msgs if m["type"] == "pong"] == ["pong"]
    assert app.number == 1 and len(app.tracker.game.plies) == 2  # no new game was started


def test_track_accepts_a_genuine_log_with_a_double_press():
    # Issue 19: the board's own log of a game with a double press replays to the same game.
    from ingboard.records.session_read import read_text
    from ingboard.records.session_replay import track

    events = []
    tracker = track(read_text(LOG), events.append)
    assert len(tracker.game.plies) == 2 and tracker.clock.turn == 1
    assert [e["type"] for e in events].count("move") == 2


class BrokenGrid:
    """A grid whose ADC returns nonsense: the scan task reports and goes on."""

    def __init__(self, size):
        self.size = size

    def scan(self, out=None):
        return [float("nan")] * (self.size * self.size)


def test_a_grid_that_returns_nonsense_is_reported_a_few_times_and_the_board_runs_on():
    root = "/tmp/ingboard-test-faults-grid"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    hw["grid"] = BrokenGrid(9)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 6000)
    assert app.failure is None and app.errors["scan"] > 100
    warnings = [m for m in hw["link"].messages() if m["type"] == "warning"]
    assert 3 <= len(warnings) <= 10 and "scan task" in warnings[0]["text"]
    assert app.cmd_state({})[0]["type"] == "state"  # the game task and the link still answer


def test_a_fault_in_the_scan_s_scheduling_ends_the_app_and_never_spins_the_scan_task():
    # The scan task's handler covers the scan's reading only (as Inputs._scan's): a fault in
    # its scheduling leaves the next scan's time unset, and reported it would be retried at
    # once without the task ever yielding. It ends the app loudly where it occurs.
    root = "/tmp/ingboard-test-faults-schedule"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    begun = app._scan_begun
    calls = []

    def failing(start):
        calls.append(start)
        if 2 <= len(calls) <= 4:  # the second scan's (then it recovers: a failure, no hang)
            raise RuntimeError("scheduling")
        return begun(start)

    app._scan_begun = failing
    exc = raises(RuntimeError, vt.drive, app, 1000)
    assert str(exc) == "scheduling" and len(calls) == 2, (exc, calls)
    assert app.errors.get("scan", 0) == 0

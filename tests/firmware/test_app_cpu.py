"""app.py's CPU accounting (issue 20, "A CPU budget for the device app"): per-task counters of
the time each task ran and the worst lateness of a scheduled scan. On virtual time the tasks take
no time unless a fake spends some, so a display that takes 70 ms per frame must show up as the
display task's time and as a late scan."""

from app_fakes import VirtualTime, clear_records, hardware
from ingboard.app.app import App
from ingboard.app.cpu_meter import CPU_TASKS
from ingboard.records.store import RecordsStore
from test_app import LOG

ROOT = "/tmp/ingboard-test-app-cpu"


def _app(slow_show_ms=0, slow_draw_ms=0, log=LOG):
    vt = VirtualTime()
    cfg, hw = hardware(vt, log)
    shows = [0]
    for fb in hw["displays"].values():
        if slow_show_ms:

            def show(fb=fb):
                shows[0] += 1
                fb.shown += 1
                vt.now += slow_show_ms

            fb.show = show
        if slow_draw_ms:
            _slow_drawing(fb, vt, slow_draw_ms)
    clear_records(ROOT)
    app = App(hw, RecordsStore(ROOT), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    app.shows = shows
    return vt, app


def _slow_drawing(fb, vt, ms):
    # Every drawing call on this display takes `ms` of the board's time.
    for name in ("fill", "fill_rect", "blit"):
        real = getattr(fb, name)

        def slow(*args, real=real):
            vt.now += ms
            return real(*args)

        setattr(fb, name, slow)


def test_tasks_that_take_no_time_count_none_and_no_scan_is_late():
    vt, app = _app()
    vt.drive(app, 4000)
    stats = app.cpu_stats()
    assert stats["unit_us"] == 1000  # only ticks_ms was given: counted in ms
    assert sorted(stats["tasks"]) == sorted(CPU_TASKS)
    assert all(us == 0 for us in stats["tasks"].values())
    assert stats["load_pct"] == 0 and stats["scan_late_max_us"] == 0
    assert stats["scan_late_task"] is None
    assert stats["elapsed_us"] == 4000 * 1000
    assert stats["scans"] == 4000 // 40 + 1
    # The sensors' power-on waits of those scans (issue 20: timer time, not code).
    assert stats["scan_wait_us"] == 0  # the fake grid has no waits (no GridScanner.wait_us)
    app.hw["grid"].wait_us = 6400  # a 19x19 GridScanner's: 16 waits of 400 us
    assert app.cpu_stats()["scan_wait_us"] == stats["scans"] * 6400


def test_a_slow_display_is_counted_to_the_display_task_and_delays_the_scan():
    vt, app = _app(slow_show_ms=70)
    vt.drive(app, 4000)
    stats = app.cpu_stats()
    assert app.shows[0] >= 2  # both faces at least once
    assert stats["tasks"]["display"] == app.shows[0] * 70 * 1000
    assert all(us == 0 for name, us in stats["tasks"].items() if name != "display")
    # One face sent at a time, the scan let in between: a scan waits at most one face's 70 ms.
    assert 0 < stats["scan_late_max_us"] <= 70 * 1000
    assert stats["scan_late_task"] == "display"  # the slice that held the scan up
    busy = stats["tasks"]["display"]
    assert stats["load_pct"] == round(100 * busy / stats["elapsed_us"], 1)
    app.cpu_reset()
    assert app.cpu_stats()["tasks"]["display"] == 0 and app.cpu_stats()["scan_late_max_us"] == 0


def test_a_long_face_is_painted_in_pieces_with_the_scan_running_between():
    # Issue 20: a face whose whole draw takes far more than a scan period (every drawing call
    # 2 ms here: 100+ ms a face) never delays a scheduled scan by a period.
    vt, app = _app(slow_draw_ms=2)
    vt.drive(app, 3000)
    stats = app.cpu_stats()
    assert stats["tasks"]["display"] >= 2 * 60 * 1000  # both faces drawn whole at least once
    assert 0 < stats["scan_late_max_us"] <= 40 * 1000
    assert stats["scans"] >= 70  # 25 a second, less the drift of the late ones


def test_an_unchanged_face_is_neither_drawn_nor_sent_again():
    # Issue 20: only what changed is drawn and sent. On an empty board Black's clock runs:
    # White's face stays the same (drawn and sent once in 3 s), Black's changes once a second
    # (its time), not at each of the display task's 7 rounds.
    empty = "".join(LOG.splitlines(True)[:3])  # the config and an empty board, nothing more
    vt, app = _app(slow_show_ms=1, log=empty)
    displays = app.hw["displays"]
    vt.drive(app, 3000)
    assert app.tracker.clock.running() and app.tracker.clock.turn == 1
    assert displays["W"].shown == 1
    assert 2 <= displays["B"].shown <= 4


def test_a_running_clock_face_shows_each_second_on_time_and_is_looked_at_only_then():
    # Issue 20: the clock faces' parts (~4 ms of the RP2040's time each) are made when what
    # they show can have changed - the running side's time at its next whole second, anything
    # after an event or a key - not at every round of the display task; and the running time
    # is painted within a scan period of the second it shows (it was up to 500 ms late).
    from ingboard.faces import clock_face

    empty = "".join(LOG.splitlines(True)[:3])
    vt, app = _app(log=empty)
    painted = []  # (board time, text) of Black's time part
    looks = []
    real_draw = clock_face.draw_part
    real_parts = clock_face.parts_until

    def draw_part(fb, i, value, color, clear=True, old=None):
        if i == 1 and color == 1:
            t = app.now()
            painted.append((t, value, app.tracker.clock.player(1, t)[0]))
        return real_draw(fb, i, value, color, clear, old)

    def parts_until(clock, color, now_ms):
        looks.append((now_ms, color))
        return real_parts(clock, color, now_ms)

    clock_face.draw_part = draw_part
    clock_face.parts_until = parts_until
    try:
        vt.drive(app, 6000)
    finally:
        clock_face.draw_part = real_draw
        clock_face.parts_until = real_parts
    clock = app.tracker.clock
    assert clock.running() and clock.turn == 1
    # Every second's text came, each painted within 50 ms of the instant it became true.
    texts = [text for _, text, _ in painted]
    assert len(texts) >= 5 and len(set(texts)) == len(texts), texts
    for t, text, ms in painted[1:]:
        assert text == clock_face.clock_text(ms), (t, text)
        since = (ms - 1) % 1000 + 1  # ms until the next change: 1000 right after one
        assert 1000 - since <= 50, (t, text, since)
    # Looked at about once a second (Black) and every two seconds (White), not 2 x 12 times.
    black = sum(1 for _, c in looks if c == 1)
    white = sum(1 for _, c in looks if c == 2)
    assert black <= 8 and white <= 5, (black, white)


def test_a_cpu_command_answers_with_the_counters():
    vt, app = _app(slow_show_ms=10)
    vt.drive(app, 1000, stop=False)
    replies = app.protocol.handle(b'{"cmd": "cpu"}')
    assert replies[0]["type"] == "cpu" and replies[0]["tasks"]["display"] > 0


def test_spilled_counters_add_up_past_a_block():
    vt, app = _app()
    for _ in range(5):
        start = vt.now
        vt.now += 700 * 1000  # 700 s in ms units: spills past a block (2**20 units)
        app._spent(0, start)
    assert app.cpu_stats()["tasks"]["scan"] == 5 * 700 * 1000 * 1000


def test_elapsed_time_survives_the_cpu_clock_wrapping():
    # ticks_us wraps every 2**30 us (17.9 min): the elapsed time is folded in at every scan. A
    # clock wrapping every 1024 units here, so that 1600 elapsed are more than ticks_diff spans.
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    period = 1 << 10
    ticks = [period - 100]

    def ticks_diff(a, b):
        return ((a - b + period // 2) & (period - 1)) - period // 2

    clear_records(ROOT)
    app = App(hw, RecordsStore(ROOT), vt.ticks_ms, ticks_diff, vt.sleep_ms, cfg)
    app.cpu_ticks = lambda: ticks[0]
    app.cpu_reset()
    scan = app.scan_task()
    for _ in range(40):  # 40 scans 40 ms apart: 1600 ms across the wrap
        scan.send(None)
        ticks[0] = (ticks[0] + 40) % period
    assert app.cpu_stats()["elapsed_us"] == 40 * 40 * 1000
    assert app.cpu_stats()["scan_late_max_us"] == 0


def test_a_burst_of_slow_inputs_lets_the_scan_in_on_time():
    # Issue 20: a burst (here 20 inputs queued at once, 15 ms each: 300 ms of game task) never
    # delays a scheduled scan by a period - the game task makes a due scan between two inputs
    # (App.scan_if_due), and that scan's time counts to the scan task.
    empty = "".join(LOG.splitlines(True)[:3])
    vt, app = _app(log=empty)
    real = app.step

    def slow_step(item):
        if item[0] == 99:
            vt.now += 15
        return real(item)

    app.step = slow_step
    for _ in range(20):
        app.inputs.put((99, 0, None, None))  # a kind the game task ignores, after 15 ms
    vt.drive(app, 400)
    stats = app.cpu_stats()
    assert stats["tasks"]["game"] == 20 * 15 * 1000
    assert stats["scan_late_max_us"] <= 15 * 1000  # at most one input's time
    assert stats["scan_late_task"] == "inline"  # a checkpoint's scan, late within an input
    assert stats["scans"] >= 400 // 40


def test_a_press_during_a_burst_is_timed_at_the_checkpoints_and_in_order():
    # Issue 20, the twin's long game: the key task did not run for half a second of work, so
    # White's press for their move was counted at the same poll as Black's press for the next
    # one - after it, in key order: a White press with no White stone, a pass nobody made.
    # Now the checkpoints that let the scan in (App.scan_if_due) read the keys too, and the
    # presses of one poll go in the order they were made. Here no pin has edge interrupts:
    # without the checkpoint's poll, both 60 ms presses would fall between two polls.
    empty = "".join(LOG.splitlines(True)[:3])
    vt = VirtualTime()
    cfg, hw = hardware(vt, empty, keys={"W": [120], "B": [200]})
    clear_records(ROOT)
    app = App(hw, RecordsStore(ROOT), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    real = app.step
    keys = []

    def slow_step(item):
        if item[0] == 99:
            vt.now += 15
        if item[0] == 7:
            keys.append((item[2], item[1]))
        return real(item)

    app.step = slow_step
    for _ in range(30):
        app.inputs.put((99, 0, None, None))  # 450 ms of work the game task cannot cut short
    vt.drive(app, 600)
    assert [k for k, _t in keys] == [1, 0]  # White, then Black: as they pressed
    (_w, tw), (_b, tb) = keys
    assert 120 <= tw <= 120 + 60 and 200 <= tb <= 200 + 60  # timed within the press


def test_each_task_counts_into_its_own_counter_of_cpu_tasks():
    # The tasks' indices are private consts of their modules, folded away on MicroPython (no
    # name in the heap); on CPython they are there to be checked against CPU_TASKS.
    from ingboard.app import app, inputs

    pairs = (
        (inputs, "_T_SCAN", "scan"),
        (inputs, "_T_BOWLS", "bowls"),
        (inputs, "_T_KEYS", "keys"),
        (inputs, "_T_BACK", "background"),
        (app, "_T_GAME", "game"),
        (app, "_T_BACK", "background"),
        (app, "_T_RELAY", "relay"),
        (app, "_T_DISPLAY", "display"),
        (app, "_T_LINK", "link"),
    )
    present = [hasattr(module, name) for module, name, _task in pairs]
    if not any(present):
        return  # MicroPython: folded, as they should be
    assert all(present)
    for module, name, task in pairs:
        assert getattr(module, name) == CPU_TASKS.index(task), (module.__name__, name)

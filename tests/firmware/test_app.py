"""app.py: bounded queue, board time from ticks, and a restart that resumes from the journal."""

import json

from app_fakes import VirtualTime, clear_records, hardware
from ingboard.app.app import App, RingQueue
from ingboard.records.store import RecordsStore

LOG = (
    "ingboard-session 1\n"
    '0 config {"size": 9, "rules": "ing1991", "time": {"system": "ing-pp", "basic_s": 600}}\n'
    "0 scan " + "/".join(["........."] * 9) + "\n"
    "1000 scan " + "/".join(["........."] * 4 + ["....B...."] + ["........."] * 4) + "\n"
    "1500 press B\n"
    "3000 scan " + "/".join(["........."] * 4 + ["...WB...."] + ["........."] * 4) + "\n"
    "3500 press W\n"
)


def test_ring_queue_is_bounded_and_counts_what_it_refuses():
    q = RingQueue(3)
    assert [q.put(i) for i in range(5)] == [True, True, True, False, False]
    assert q.dropped == 2 and [q.get(), q.get()] == [0, 1]
    q.put(9)
    assert [q.get(), q.get(), q.get()] == [2, 9, None]


def test_board_time_handles_tick_wrap_and_never_goes_back():
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    period = 1 << 30
    ticks = [period - 5]

    def ticks_diff(a, b):
        return ((a - b + period // 2) & (period - 1)) - period // 2

    store = RecordsStore("/tmp/ingboard-test-app-wrap", limit=4096)
    app = App(hw, store, lambda: ticks[0], ticks_diff, vt.sleep_ms, cfg)
    ticks[0] = 10  # wrapped
    assert app.now() == 15
    ticks[0] = 5
    assert app.now() == 15


def test_restart_resumes_the_game_from_the_journal():
    root = "/tmp/ingboard-test-app-resume"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 5000)
    assert len(app.tracker.game.plies) == 2
    clock = app.tracker.clock.snapshot()
    app.journal_file.flush()
    # Power cut: a new app on the same flash, time restarting from 0.
    vt2 = VirtualTime()
    _cfg, hw2 = hardware(vt2, LOG)
    again = App(hw2, RecordsStore(root), vt2.ticks_ms, vt2.ticks_diff, vt2.sleep_ms, cfg)
    assert [p.point for p in again.tracker.game.plies] == [p.point for p in app.tracker.game.plies]
    assert again.number == app.number and again.now() >= 3500
    assert abs(again.tracker.clock.snapshot()[4] - clock[4]) <= 1000


def test_displays_are_built_per_side_and_a_silent_one_is_left_out():
    from ingboard.drivers import display

    def factory(w, h, i2c, addr):
        if addr == 0x3D:
            raise OSError(19)  # no ACK
        return (w, h, i2c, addr)

    got = display.build(
        ["bus0", "bus1"], {"B": {"bus": 1, "addr": 0x3C}, "W": {"bus": 0, "addr": 0x3D}}, factory
    )
    assert got == {"B": (128, 64, "bus1", 0x3C), "W": None}


def test_an_enrolled_set_is_kept_for_later_games():
    # Ing 1991 Art. 9 "Counting" (1): the set is enrolled once, when the players confirm they
    # counted it with the frame, and used for every later game (/set.json).
    import os

    root = "/tmp/ingboard-test-app-set"
    for d in ("", "/games", "/sessions", "/journal"):
        try:
            names = os.listdir(root + d)
        except OSError:
            continue
        for name in names:
            if name == "set.json" or d:
                os.remove(root + d + "/" + name)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    app._after(0, [{"type": "enrolled", "t": 0, "B": 270.5, "W": None}], None)
    app.new_game({"size": 9, "rules": "ing1991"})
    assert app.tracker.config["bowls"] == {"B": {"w180_g": 270.5}}
    # Kept as the full set's weight (180 a side), the 9x9 game's 40 stones being 270.5 g (Ing
    # 1991 Art. 12 "half the number of points on the board minus one").
    with open(root + "/set.json") as f:
        kept = json.loads(f.read())
    assert abs(kept["B"] - 270.5 * 180 / 40) < 0.1, kept
    assert app.tracker.bowls.bowls[0].verified and not app.tracker.bowls.bowls[1].verified
    # A config's own weight wins.
    app.new_game({"size": 9, "rules": "ing1991", "bowls": {"B": {"w180_g": 268.0}}})
    assert app.tracker.config["bowls"]["B"]["w180_g"] == 268.0


def test_a_new_game_reads_the_board_as_it_is_before_the_first_move():
    # A new game asked for while the board is empty (the host's new-game): its tracker is given
    # the board as the sensors see it at once, so the first stone placed is the first move - not
    # a stone already there when the game started (stone-extra) because the scan that held the
    # empty board went to the game before.
    root = "/tmp/ingboard-test-app-new-game"
    clear_records(root)
    vt = VirtualTime()
    new_game = b'{"cmd": "new-game", "config": {"size": 9, "rules": "ing1991"}}\n'
    cfg, hw = hardware(vt, LOG, host_lines=[(500, new_game)])
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 5000)
    sent = hw["link"].messages()
    assert [m["code"] for m in sent if m["type"] == "alert"] == []
    # The same plies as the game the board started with at boot (E5, D5), none lost.
    vt2 = VirtualTime()
    _cfg, hw2 = hardware(vt2, LOG)
    clear_records(root + "-ref")
    ref = App(hw2, RecordsStore(root + "-ref"), vt2.ticks_ms, vt2.ticks_diff, vt2.sleep_ms, cfg)
    vt2.drive(ref, 5000)
    plies = [(p.color, p.point) for p in app.tracker.game.plies]
    assert len(plies) == 2 and plies == [(p.color, p.point) for p in ref.tracker.game.plies]
    # The new game's session log starts from the board as it was: the empty board, then E5.
    app.log_file.flush()
    with open(app.store.session_part(app.number)) as f:
        scans = [ln.split()[2] for ln in f if ln.split()[1] == "scan"]
    assert scans[0] == "/".join(["........."] * 9) and "B" in scans[1]


def test_a_new_game_drops_the_inputs_queued_in_the_old_games_time():
    # The host's new-game restarts board time at 0; a bowl reading the bowl task had queued
    # just before it (stamped ~500 ms) must not reach the new tracker before the new game's
    # first inputs (stamped from 0): "time went backwards" (the twin's long game, issue 20).
    root = "/tmp/ingboard-test-app-new-game-queued"
    clear_records(root)
    vt = VirtualTime()
    new_game = b'{"cmd": "new-game", "config": {"size": 9, "rules": "ing1991"}}\n'
    log = _with_bowls(LOG, 100, 5000, [("B", 260.0), ("W", 260.0)])
    cfg, hw = hardware(vt, log, host_lines=[(500, new_game)])
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 5000)
    sent = hw["link"].messages()
    assert [m for m in sent if m["type"] == "warning"] == []
    assert [m["game"] for m in sent if m.get("cmd") == "new-game"] == [app.number]
    assert len(app.tracker.game.plies) == 2  # E5, D5 after the new game


def _with_bowls(log, every_ms, until, grams):
    # The log with bowl readings every every_ms (records in time order).
    head, config, rest = log.split("\n", 2)
    lines = [ln for ln in rest.split("\n") if ln]
    for t in range(every_ms, until, every_ms):
        for d, (c, g) in enumerate(grams):
            lines.append("%d bowl %s %s" % (t + d, c, g))
    lines.sort(key=lambda ln: int(ln.split(" ", 1)[0]))
    return "\n".join([head, config] + lines) + "\n"


def test_the_boards_own_log_replays_to_the_events_it_sent_with_a_late_game_task():
    # The board's game task takes its inputs late (here every 270 ms; on the RP2040 behind a
    # long scan or a flash write): what fell due before an input (a stone becoming stable) must
    # happen at its own time, not the input's, or `ingboard track` on the board's own session
    # log gives other times than the board sent (found on the device twin).
    from ingboard.records.session_read import read_text
    from ingboard.records.session_replay import track

    root = "/tmp/ingboard-test-app-late-game"
    clear_records(root)
    bowls = '"bowls": {"B": {"w180_g": 280.0}, "W": {"w180_g": 276.0}}, "time"'
    chinese = LOG.replace('"ing1991"', '"chinese"').replace('"time"', bowls)
    log = _with_bowls(chinese, 70, 5000, (("B", 280.0), ("W", 276.0)))
    vt = VirtualTime()
    cfg, hw = hardware(vt, log)
    app = App(
        hw,
        RecordsStore(root),
        vt.ticks_ms,
        vt.ticks_diff,
        vt.sleep_ms,
        cfg,
        bowl_ms=70,
        game_ms=270,
    )
    vt.drive(app, 5000, stop=False)
    sent = [m for m in hw["link"].messages() if m["type"] not in ("ok", "warning")]
    assert [m["type"] for m in sent if m["type"] in ("move", "pass")] == ["move", "move"]
    app.log_file.flush()
    with open(app.store.session_part(app.number)) as f:
        replayed = []
        track(read_text(f.read()), replayed.append)
    assert replayed == sent


def test_a_record_is_written_in_chunks_with_checkpoints_and_the_same_text():
    # issue 20: a long game's SGF goes to its file in ~512-byte writes, the app's scan
    # checkpoint called after every piece; the file holds exactly the text given.
    from ingboard.records.store import ChunkedWrite

    writes = []
    calls = [0]

    def checkpoint():
        calls[0] += 1

    out = ChunkedWrite(writes.append, checkpoint)
    pieces = [";B[%s%s]" % (chr(97 + i % 19), chr(97 + i // 19)) for i in range(300)]
    for piece in pieces:
        out.write(piece)
    out.flush()
    assert "".join(writes) == "".join(pieces)
    assert len(writes) == 4 and max(len(w) for w in writes) < 512 + 8
    assert calls[0] == 300


def test_resume_reads_a_long_journal_record_by_record_and_compacts_it_beside():
    # issue 20: at boot the journal is recovered and compacted from its file, never read
    # whole (a 600-ply game's journal is ~100 KB); the resumed game and journal are the same.
    from ingboard.records import journal_replay

    root = "/tmp/ingboard-test-app-resume-file"
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    vt.drive(app, 5000)
    app.journal_file.flush()
    data = app.store.journal_bytes()
    vt2 = VirtualTime()
    _cfg, hw2 = hardware(vt2, LOG)
    again = App(hw2, RecordsStore(root), vt2.ticks_ms, vt2.ticks_diff, vt2.sleep_ms, cfg)
    assert [p.point for p in again.tracker.game.plies] == [p.point for p in app.tracker.game.plies]
    compacted = journal_replay.compact(data)
    assert again.store.journal_bytes() == compacted
    assert again.compacted == len(compacted)
    assert again.journal.written == len(compacted)
    assert again.journal.records == len(journal_replay.read(compacted)[0])


_NOISE = (0.0, 0.1, -0.1, 0.2, 0.0, -0.2, 0.1)


def _log_with_bowls(more, until, black, white):
    """LOG with both bowls enrolled (more: its extra lines) and read every 100 ms up to
    `until` - black(t), white(t) grams, a little noise: (log text, readings)."""
    bowls = '"bowls": {"B": {"w180_g": 280.0}, "W": {"w180_g": 276.0}}, "time"'
    head, config, rest = LOG.replace('"time"', bowls).split("\n", 2)
    lines = [ln for ln in rest.split("\n") if ln] + more
    readings = 0
    for k, t in enumerate(range(100, until, 100)):
        lines.append("%d bowl B %.1f" % (t, black(t) + _NOISE[k % 7]))
        lines.append("%d bowl W %.1f" % (t + 1, white(t) - _NOISE[k % 5]))
        readings += 2
    lines.sort(key=lambda ln: int(ln.split(" ", 1)[0]))
    return "\n".join([head, config] + lines) + "\n", readings


def _board(root, log):
    """(virtual time, config, hardware, app) of a board replaying `log`, its records under
    root."""
    clear_records(root)
    vt = VirtualTime()
    cfg, hw = hardware(vt, log)
    return vt, cfg, hw, App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)


def test_quiet_bowl_readings_are_not_logged_and_the_log_replays_the_same():
    # issue 20 ("Bowl readings between moves should cost a small fraction of a move"): a
    # reading the settled bowl holds (bowls.py quiet()) goes neither to the tracker nor to the
    # session log nor to the journal. The board's own log replays to the events it sent, and
    # they are the events of the same board handing on every reading: the before-game check
    # (Ing 1991 Art. 9 "Counting" custom 1), the two moves, no alert for the stones taken.
    from ingboard.records.session_read import read_text
    from ingboard.records.session_replay import track

    log, readings = _log_with_bowls(
        [],
        6000,
        lambda t: 280.0 if t < 900 else 273.0,  # B's first stone leaves the bowl
        lambda t: 276.0 if t < 2900 else 269.1,
    )
    runs = []
    for every in (False, True):
        vt, _cfg, hw, app = _board("/tmp/ingboard-test-app-quiet-bowls-%d" % every, log)
        if every:
            # Hand on every reading: neither the game task (bowl_quiet) nor the bowl task
            # before the queue (bowl_quiet_dg) drops one.
            app.tracker.bowl_quiet = lambda t, color, grams: False
            app.tracker.bowl_quiet_dg = lambda t, index, dg: False
        vt.drive(app, 6000, stop=False)
        sent = [m for m in hw["link"].messages() if m["type"] not in ("ok", "warning")]
        app.log_file.flush()
        with open(app.store.session_part(app.number)) as f:
            own = f.read()
        logged = [ln for ln in own.split("\n") if ln.split(" ")[1:2] == ["bowl"]]
        replayed = []
        track(read_text(own), replayed.append)
        assert replayed == sent
        runs.append((sent, len(logged)))
    (sent, logged), (sent_every, logged_every) = runs
    assert [m["type"] for m in sent if m["type"] in ("move", "pass")] == ["move", "move"]
    assert [m["phase"] for m in sent if m["type"] == "bowls"] == ["before"]
    assert [m for m in sent if m["type"] == "alert"] == []
    assert sent == sent_every
    assert logged_every == readings and 0 < logged < readings // 2


def _counted(real, calls):
    def counted(*args):
        calls[0] += 1
        return real(*args)

    return counted


def _long_path(tracker):
    # Tracker.bowl as it was before its short path (Tracker._reading).
    def bowl(t, color, grams):
        return tracker._done(tracker._bowl(t, color, grams))

    return bowl


def test_bowl_readings_in_play_take_the_short_path_with_the_same_events_and_journal():
    # Issue 20: a reading in play with nothing due (Tracker._reading) neither steps the clock
    # nor makes the tracker's state again for the journal; the board sends the same events -
    # the before-game check, the moves, with a stone dropped from Black's bowl on the way
    # (Ing 1996 Rule 2, location of stones) - and resumes from its journal to the same game
    # as the long path.
    from ingboard.tracking.tracker import Tracker

    rows = ["........."] * 4 + ["...WB...."] + ["........."] * 2 + ["..B......"] + ["........."]
    log, _readings = _log_with_bowls(
        ["6000 scan " + "/".join(rows), "6500 press B"],
        9000,
        # B's stones leave the bowl for the moves at 1 s and 6 s; one is dropped at 5 s.
        lambda t: 280.0 if t < 900 else 273.0 if t < 5000 else 266.0 if t < 5900 else 259.0,
        lambda t: 276.0 if t < 2900 else 269.1,
    )
    runs = []
    for short in (True, False):
        root = "/tmp/ingboard-test-app-bowl-path-%d" % short
        vt, cfg, hw, app = _board(root, log)
        tracker = app.tracker
        taken = [0]
        if short:
            tracker._reading = _counted(tracker._reading, taken)
        else:
            tracker.bowl = _long_path(tracker)
        vt.drive(app, 9000, stop=False)
        sent = [m for m in hw["link"].messages() if m["type"] not in ("ok", "warning")]
        state = tracker.state()
        app.stop()
        again = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
        assert isinstance(again.tracker, Tracker)
        runs.append((sent, state, again.tracker.state(), again.tracker.game.plies, taken[0]))
    (sent, state, resumed, plies, taken), long_path = runs
    sent_long, state_long, resumed_long, plies_long, _ = long_path
    assert taken > 20  # most readings in play took the short path
    assert [m["type"] for m in sent if m["type"] in ("move", "pass")] == ["move"] * 3
    assert [m["phase"] for m in sent if m["type"] == "bowls"] == ["before"]
    assert sent == sent_long and state == state_long
    assert resumed == resumed_long and len(plies) == len(plies_long) == 3


def test_a_scan_that_finds_the_input_queue_full_goes_in_with_the_next_scan():
    # Issue 20: a change of the board seen while the game task's queue was full was lost for
    # good (the scan remembered the line as sent); the next change then came with it, in one
    # scan (a prisoner's lift and the next move in one scan read as a slipped prisoner).
    vt, _cfg, _hw, app = _board("/tmp/ingboard-test-app-queue-full", LOG)
    app._scan_at = 0
    vt.now = 1200  # the log's first stone is down
    app.inputs = RingQueue(1)
    app.inputs.put("an input the game task has not taken yet")
    app._scan(vt.now)
    assert app.inputs.dropped == 1
    assert app.inputs.get() == "an input the game task has not taken yet"
    vt.now = 1240
    app._scan(vt.now)
    kind, t, rows, _ = app.inputs.get()
    assert t == 1240 and rows[4] == "....B...."


def test_a_new_game_larger_than_the_grid_is_refused():
    # A smaller game is played in the grid's corner (tracking/region.py); a larger one cannot.
    vt = VirtualTime()
    cfg, hw = hardware(vt, LOG)  # LOG is a 9x9 game: the grid is 9x9
    app = App(hw, RecordsStore("/tmp/ingboard-test-app-size"), vt.ticks_ms, vt.ticks_diff,
              vt.sleep_ms, cfg)  # fmt: skip
    app.new_game({"size": 9, "rules": "ing1991"})
    number = app.number
    try:
        app.new_game({"size": 19, "rules": "ing1991"})
        raise AssertionError("a 19x19 game was taken on a 9x9 grid")
    except ValueError as exc:
        assert "this board is 9x9" in str(exc)
    assert app.number == number and app.tracker.game.size == 9  # the game in progress stays


def test_a_scan_cut_short_by_a_bad_reading_does_not_hide_the_stone_it_saw():
    # A reading that is no number ends the classifier's loop after the stone's class changed,
    # before the scan's `changed` is set: the next scans, whole again, must still send the
    # board with the stone (review of issue 32: the classifier's changed flag).
    vt, _cfg, _hw, app = _board("/tmp/ingboard-test-app-scan-cut", LOG)
    app._scan_at = 0
    vt.now = 500
    app._scan(vt.now)
    app.inputs.get()  # the empty board's line
    grid = app._grid
    whole = grid.scan

    def cut_short(out=None):
        out = list(whole(out))
        out[-1] = None
        return out

    grid.scan = cut_short
    vt.now = 1200  # the log's first stone is down
    app._scan(vt.now)
    assert app.inputs.get() is None
    grid.scan = whole
    vt.now = 1240
    app._scan(vt.now)
    kind, t, rows, _ = app.inputs.get()
    assert t == 1240 and rows[4] == "....B...."

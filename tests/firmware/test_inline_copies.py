"""The hot paths' deliberate in-line copies against their originals, on many generated inputs.

A call is ~25 us of the RP2040, so the board's most frequent paths carry a few tests and steps
in line (issue 32): Weighing.quiet_dg (Weighing.quiet's _quiet, in whole tenths of a gram),
BowlReadings.bowl_quiet_dg (bowl_quiet), Classifier.begin (_set_params), HX711.poll (ready and
read_code) and Collector.scanned (after_scan or early). Each copy must give what its original
gives on every state: these tests make the states (an LCG: the same on CPython and MicroPython)
and fail when a copy drifts. CPython and MicroPython.
"""

from array import array

from ingboard import gc_policy
from ingboard.bowls.bowls import Bowls
from ingboard.drivers.hx711 import HX711
from ingboard.sensing.classifier import Classifier
from ingboard.tracking.tracker import Tracker
from ingrules.game import ENDED, PAUSED, PLAY
from test_gc_policy import FakeGc, _timed_collector  # (its clock: one reading, one step)


class Lcg:
    """Pseudo-random small ints, the same sequence everywhere."""

    def __init__(self, seed):
        self.state = seed

    def __call__(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def _bowl_state(r, bowl, t):
    # Every field _quiet reads, each now and then at a value that makes the reading not quiet
    # (and at the band's and the evaluation period's edges).
    bowl.refused = r(8) == 0
    bowl.settled = r(6) != 0
    bowl.faulty = r(8) == 0
    bowl.last_eval = None if r(10) == 0 else t - r(5000) + 200
    bowl.count = -1 if r(5) == 0 else r(181)
    bowl.w180 = 0 if r(4) == 0 else 1100000 + r(200000)
    bowl.total = 180 if r(3) else 40
    bowl.eval_ms = (500, 2000, 4000)[r(3)]
    bowl.zero = r(2001) - 1000
    bowl.plateau = r(1400000) - 20000


def _reading_dg(r, bowl):
    # Whole tenths of a gram near the bowl's quiet band (a quarter stone, ~16 dg), or anywhere.
    if r(6) == 0:
        return r(1000001) - 500000
    return (bowl.plateau + bowl.zero) // 100 + r(81) - 40


def test_quiet_dg_answers_as_quiet_on_generated_bowls_and_readings():
    # Weighing.quiet_dg is Weighing.quiet (its _quiet) for a reading in whole tenths of a gram.
    r = Lcg(1)
    b = Bowls({"B": {"w180_g": 1188.4}, "W": {"w180_g": 1195.2}}, 19)
    quiet = 0
    for case in range(4000):
        index = r(2)
        bowl = b.bowls[index]
        t = 10000 + case * 7
        _bowl_state(r, bowl, t)
        dg = _reading_dg(r, bowl)
        want = b.quiet("BW"[index], dg / 10, t)
        assert b.quiet_dg(index, dg, t) == want, (case, index, dg, t)
        quiet += want
    assert 200 < quiet < 3800, quiet  # both answers, many times each


def test_bowl_quiet_dg_answers_as_bowl_quiet_on_generated_trackers_and_readings():
    # BowlReadings.bowl_quiet_dg is bowl_quiet (_before_due, the kept press, Bowls.quiet) for
    # a reading in whole tenths of a gram, the bowl by its index.
    r = Lcg(2)
    tracker = Tracker({"size": 19, "rules": "ing1991"})
    quiet = 0
    for case in range(4000):
        index = r(2)
        t = 20000 + case * 11
        tracker.started = r(8) != 0
        tracker.last_t = t - r(3000) + 100
        tracker.due = t + r(3000) - 100
        tracker.clock_behind = r(8) == 0
        tracker.press_pending = 0 if r(6) else 1 + r(2)
        tracker.game.phase = (PLAY, PLAY, PAUSED, ENDED)[r(4)]
        bowl = tracker.bowls.bowls[index]
        _bowl_state(r, bowl, t)
        dg = _reading_dg(r, bowl)
        want = tracker.bowl_quiet(t, 1 + index, dg / 10)
        assert tracker.bowl_quiet_dg(t, index, dg) == want, (case, index, dg, t)
        quiet += want
    assert 100 < quiet < 3900, quiet


def test_begin_writes_the_params_set_params_writes_on_generated_classifiers():
    # Classifier.begin writes the scan's params in line: the same words _set_params(0) writes;
    # the settings' words are written once, when the classifier is made, and stay the ones
    # given.
    r = Lcg(3)
    for case in range(300):
        size = (9, 13, 19)[r(3)]
        rail = r(2000)
        settings = [size * size, rail, 0xFFFF - rail, 1 + r(200), r(2000), r(256), r(16)]
        clf = Classifier(
            size,
            rail=rail,
            fault_scans=settings[3],
            frozen_scans=settings[4],
            settle_scans=settings[5],
            track_shift=settings[6],
        )
        n = size * size
        order = array("H", range(n))
        ends = [n // 2, n]
        p = clf._params
        for i in (7, 8):
            p[i] = r(100000) - 50000  # the last scan's words, whatever they were
        clf.begin(array("H", [0] * n), order, ends)
        written = list(p[:9])
        for i in (7, 8):
            p[i] = r(100000) - 50000
        clf._set_params(0)
        assert written == list(p[:9]) == settings + [0, 0], (case, written, list(p[:9]))
        clf.end()


class _Chip:
    """An HX711's two pins: a loaded 24-bit code shifted out on rising clock edges."""

    def __init__(self):
        self.bits = None
        self.rising = 0
        self.level = 0

    def load(self, code):
        self.bits = [(code >> (23 - i)) & 1 for i in range(24)]
        self.rising = 0

    def clock(self, v):
        if v and not self.level:
            self.rising += 1
        self.level = v

    def data(self):
        if self.bits is None:
            return 1  # no conversion: DOUT high
        if 0 < self.rising <= 24:
            return self.bits[self.rising - 1]
        return 1 if self.rising > 24 else 0

    def done(self):
        # After the read and its gain pulses: no conversion until the next load.
        if self.rising >= 24:
            self.bits = None


def _no_irq():
    return None


def _irq_on(state):
    return None


def test_poll_reads_as_ready_and_read_code_on_generated_codes():
    # HX711.poll carries ready() and read_code() in line: on the same chip it reads what they
    # read - no clock pulse while no conversion is ready, else the same signed code after the
    # same pulses (24 and the gain's).
    r = Lcg(4)
    for gain in (128, 64, 32):
        one, two = _Chip(), _Chip()
        a = HX711(one.clock, one.data, gain=gain, irq=(_no_irq, _irq_on), timeout_ms=10**9)
        b = HX711(two.clock, two.data, gain=gain, irq=(_no_irq, _irq_on))
        t = 0
        last = None
        for case in range(700):
            t += 50
            if r(5) == 0:  # nothing ready
                assert not b.ready()
                before = one.rising
                assert a.poll(t) is None and one.rising == before  # no pulse
                continue
            code = r(1 << 24)
            if r(8) == 0:
                code = (0x7FFFFF, 0x800000, 0xFFFFFF, 0, 1)[r(5)]  # the rails, -1, zero
            if code == last:
                continue  # a repeated code counts towards "stuck" (poll's own test)
            last = code
            one.load(code)
            two.load(code)
            assert b.ready()
            want = b.read_code()
            a.poll(t)  # (distinct codes in a row: no "stuck" SensorFault)
            assert a.last_code == want, (gain, case, code, a.last_code, want)
            assert one.rising == two.rising == 24 + b.pulses, (one.rising, two.rising)
            one.done()
            two.done()


def _steps(seed, n):
    # (board time, room us, what early()'s test takes, a hold before) of n scans.
    r = Lcg(seed)
    t = 0
    steps = []
    for _ in range(n):
        t += (40, 40, 40, 120, 900, gc_policy.CHECK_MS, 2 * gc_policy.CHECK_MS)[r(7)]
        room = gc_policy.ROOM_US + r(10001) - 5000 if r(3) else 35000
        steps.append((t, room, (30, 25000)[r(4) == 0], r(4) == 0))
    return steps


def _run_collector(steps, look):
    c = _timed_collector([])
    real = gc_policy.gc
    gc_policy.gc = fake = FakeGc()
    seen = []
    try:
        for t, room, took, hold in steps:
            if hold:
                c.hold()  # a checkpoint found the scan near (the app's scan_if_due)
            c.ticks_us = _timed_collector([0, took]).ticks_us
            seen.append((look(c, t, room), c.collections, c.checked, c.held, len(fake.calls)))
    finally:
        gc_policy.gc = real
    return seen, fake.calls


def test_scanned_is_after_scan_or_early_on_generated_scans():
    # Collector.scanned(t, room): after_scan(t, room) where the look is due, else early(room,
    # t) - the same answers, collections, thresholds (in order), holds and board times.
    for seed in range(1, 21):
        steps = _steps(seed, 60)
        one = _run_collector(steps, lambda c, t, room: c.scanned(t, room))
        two = _run_collector(steps, lambda c, t, room: c.after_scan(t, room) or c.early(room, t))
        assert one == two, seed
        assert "collect" in one[1] and gc_policy.HOLD in one[1], seed  # both kinds came


def test_idle_pass_skips_only_what_scan_if_due_and_background_would_not_do():
    # The game task's pass after its tick (App.game_task, Inputs._idle_pass): scan_if_due()'s
    # first test and background()'s in line. On generated states (the next scan far, near, due
    # or late; compaction running or due; the end's modules left to load in play, in a pass or
    # in the pause): where _idle_pass() says there is nothing to do, scan_if_due() would not
    # scan and background() would not act, and the hold is the one scan_if_due() makes; where
    # it says there is, one of them has work (background's, when the period has room for it).
    from app_fakes import VirtualTime, clear_records, hardware
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore
    from test_app import LOG

    root = "/tmp/ingboard-test-inline-copies"
    vt = VirtualTime()
    cfg, hw = hardware(vt, "".join(LOG.splitlines(True)[:3]))
    clear_records(root)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, cfg)
    acted = []
    app._compaction_step = lambda: acted.append("compaction")
    preload = app.end_preload
    preload.step_once = lambda period, report=None: acted.append("preload") or True
    game = app.tracker.game
    real = gc_policy.gc
    gc_policy.gc = FakeGc()
    try:
        seen = _idle_passes(app, vt, acted, preload, game)
    finally:
        gc_policy.gc = real
    assert seen[0] > 100 and seen[1] > 100, seen  # both answers, many times each


def _idle_passes(app, vt, acted, preload, game):
    r = Lcg(5)
    idle_seen = busy_seen = 0
    for case in range(600):
        vt.now = 100000 + case * 100
        d = r(90) - 70  # ms past the next scan's time (units of the app's clock: ms here)
        app._scan_at = None if r(12) == 0 else vt.now - d
        app.compaction = object() if r(6) == 0 else None
        app.compaction_due = r(6) == 0
        preload.left = ["ingrules.scoring"] if r(2) else []
        preload.period = None
        game.phase = PAUSED if r(5) == 0 else PLAY
        game.consecutive_passes = r(3) if r(3) == 0 else 0
        held = r(2) == 0
        app.collector.enabled = True
        app.collector.ticks_us = lambda: vt.now * 1000
        app.collector.ticks_diff = lambda x, y: x - y
        app.collector.held = held
        state = (app._scan_at, app.compaction is not None, app.compaction_due, preload.left)
        idle = app._idle_pass()
        held_idle = app.collector.held
        # The originals, from the same state.
        app.collector.held = held
        scans = app._scans
        del acted[:]
        app.scan_if_due()
        scanned = app._scans != scans
        held_then = app.collector.held
        if not scanned:
            app.background()
        if idle:
            idle_seen += 1
            assert not scanned and not acted and held_idle == held_then, (case, state)
        else:
            busy_seen += 1
            assert scanned or acted or not app._room(), (case, state)  # no room: it waits
    return idle_seen, busy_seen

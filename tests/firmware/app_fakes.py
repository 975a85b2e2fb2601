"""Fake drivers for running the whole app (firmware/ingboard/app/app.py) on a PC, CPython or
MicroPython: a virtual clock under asyncio, and a grid, HX711s, keys, buzzer PWM, displays and
host link that replay a session log (host_tools/simulate.py makes them)."""

import json

import framebuf
from ingboard.drivers.buzzer import Buzzer
from ingboard.drivers.keys import Keys
from ingboard.records.session_read import read_text
from ingboard.sensing.classifier import DEFAULT_EMPTY, DEFAULT_SPAN

_LEVEL = {".": DEFAULT_EMPTY, "B": DEFAULT_EMPTY + DEFAULT_SPAN, "W": DEFAULT_EMPTY - DEFAULT_SPAN}
_OVER = DEFAULT_EMPTY + 3 * DEFAULT_SPAN  # a '?': beyond the classifier's over-range


try:
    from types import coroutine
except ImportError:  # MicroPython: a generator can be awaited as it is

    def coroutine(f):
        return f


@coroutine
def _sleep(ms):
    yield ms


class VirtualTime:
    """ticks_ms / ticks_diff / sleep_ms on a virtual clock, and drive(): the app's task
    coroutines stepped in virtual-time order (each sleep yields its ms to the driver), the same
    way on CPython and on MicroPython (whose WebAssembly asyncio has no run())."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        return _sleep(ms)

    def drive(self, app, until, phase=None, stop=True):
        """Step the app's tasks until `until` (virtual ms), then app.stop() (with stop=False
        the app is left as it was: the power goes). `phase`: the board time at the
        start; each task then first runs when board time is a multiple of its period, so a
        resumed app samples its inputs at the same board-time instants as an app that ran
        from board time 0 (the tasks start at once otherwise)."""
        starts = [self.now] * 6
        if phase is not None:
            periods = app.task_periods()
            starts = [self.now + (-phase) % p for p in periods]
        tasks = [[starts[i], i, c] for i, c in enumerate(app.tasks())]
        while tasks and not app.stopping:
            best = tasks[0]
            for task in tasks:
                if task[0] < best[0] or (task[0] == best[0] and task[1] < best[1]):
                    best = task
            if best[0] > until:
                break
            # Never back in time: a task that spent time (a fake advancing `now`) delays the
            # next one, as on a board.
            self.now = max(self.now, best[0])
            try:
                ms = best[2].send(None)
            except StopIteration:
                tasks.remove(best)
                continue
            best[0] = self.now + ms
        if stop:
            app.stop()


class WorldTime:
    """The physical world's clock as the fakes read it (`now`): a VirtualTime's, `shift` ms
    ahead. After a restart the board's virtual time starts at 0 again while the players go on
    where they were: shift = the board time the resumed app starts from."""

    def __init__(self, vt, shift=0):
        self.vt = vt
        self.shift = shift

    @property
    def now(self):
        return self.vt.now + self.shift


class FakeGrid:
    """Raw Hall readings that the real classifier turns into the log's scans (with noise)."""

    def __init__(self, vt, scans, size):
        self.vt = vt
        self.scans = scans  # [(t, "row/row/...")]
        self.k = 0
        self.n = 0
        self.readings = [DEFAULT_EMPTY] * (size * size)

    def scan(self, out=None):
        scans = self.scans
        while self.k + 1 < len(scans) and scans[self.k + 1][0] <= self.vt.now:
            self.k += 1
        line = scans[self.k][1].replace("/", "")
        out = self.readings if out is None else out
        self.n += 1
        for i in range(len(line)):
            out[i] = _LEVEL.get(line[i], _OVER) + (self.n + i) % 5 - 2
        return out


class FakeScale:
    """An HX711 as the app polls it: the log's readings, each once, the latest first."""

    def __init__(self, vt, readings):
        self.vt = vt
        self.readings = readings  # [(t, grams)]
        self.k = 0

    def poll(self, now_ms):
        r = self.readings
        got = None
        while self.k < len(r) and r[self.k][0] <= self.vt.now:
            got = r[self.k][1]
            self.k += 1
        return got


class KeyPin:
    """A clock key wired to GND: reads 0 for 60 ms from each press of the log."""

    def __init__(self, vt, times):
        self.vt = vt
        self.times = times
        self.k = 0

    def __call__(self, *value):
        now = self.vt.now
        while self.k < len(self.times) and self.times[self.k] + 60 <= now:
            self.k += 1
        if self.k < len(self.times) and self.times[self.k] <= now:
            return 0
        return 1


class FakePWM:
    def __init__(self):
        self.tones = 0

    def freq(self, hz):
        if hz:
            self.tones += 1

    def duty_u16(self, value):
        pass


class FakeDisplay(framebuf.FrameBuffer):
    """An SSD1306 as the app draws it. With `watch` set (a function of no arguments), every
    shown frame for which it returns true is kept in `frames` as (t, bytes) when it differs
    from the last one kept."""

    def __init__(self, vt=None):
        self.buf = bytearray(128 * 64 // 8)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.shown = 0
        self.vt = vt
        self.watch = None
        self.frames = []
        self.kinds = []  # what the app said it drew, per kept frame (Standalone.shown)
        self.kind = None  # set by the watcher

    def show(self):
        self.shown += 1
        if self.watch is not None and self.watch():
            frame = bytes(self.buf)
            if not self.frames or self.frames[-1][1] != frame:
                self.frames.append((self.vt.now if self.vt else 0, frame))
                self.kinds.append(self.kind)


class FakeLink:
    """The host: sends its lines at their times, collects what the board writes."""

    def __init__(self, vt, lines):
        self.vt = vt
        self.lines = lines  # [(t, bytes)]
        self.k = 0
        self.out = []

    def readline(self):
        if self.k < len(self.lines) and self.lines[self.k][0] <= self.vt.now:
            self.k += 1
            return self.lines[self.k - 1][1]
        return None

    def write(self, data):
        self.out.append(data)

    def messages(self):
        return [json.loads(x) for x in b"".join(self.out).decode().split("\n") if x]


def hardware(vt, log_text, host_lines=(), keys=None):
    """(config, hw) replaying a session log: the grid, scales and keys follow its records.
    `keys`: more key presses, {"B"|"W"|"pause"|"menu": [t, ...]} (the menu key is the
    fourth key, as on the board)."""
    from ingboard.sensing.classifier import Classifier

    config = None
    scans = []
    bowls = {"B": [], "W": []}
    presses = {1: [], 2: []}
    for r in read_text(log_text):
        if r.kind == "config":
            config = r.payload
        elif r.kind == "scan":
            scans.append((r.t_ms, "/".join(r.payload)))
        elif r.kind == "bowl":
            bowls["B" if r.payload[0] == 1 else "W"].append((r.t_ms, r.payload[1]))
        elif r.kind == "press":
            presses[r.payload].append(r.t_ms)
    size = config["size"]
    more = keys or {}
    times = [
        sorted(presses[1] + list(more.get("B", ()))),
        sorted(presses[2] + list(more.get("W", ()))),
        sorted(more.get("pause", ())),
        sorted(more.get("menu", ())),
    ]
    pins = [KeyPin(vt, x) for x in times]
    pwm = FakePWM()
    hw = {
        "grid": FakeGrid(vt, scans, size),
        "classifier": Classifier(size),
        "hx711": {"B": FakeScale(vt, bowls["B"]), "W": FakeScale(vt, bowls["W"])},
        "keys": Keys(pins),
        "buzzer": Buzzer(pwm),
        "pwm": pwm,
        "displays": {"B": FakeDisplay(vt), "W": FakeDisplay(vt)},
        "link": FakeLink(vt, list(host_lines)),
    }
    return config, hw


def run_app(
    log_text,
    root,
    until_ms,
    host_lines=(),
    vt=None,
    periods=None,
    stop=True,
    keys=None,
    own_settings=False,
    watch=False,
):
    """Run the whole app over the log until until_ms of virtual time; returns (app, hw).
    stop=False: the app is not stopped (nothing flushed): see power_cut(). `keys`: more key
    presses (hardware()). own_settings: the app starts with the settings remembered on its
    flash, not the log's config. watch: the displays keep every frame other than the clock
    face (FakeDisplay.frames)."""
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore

    vt = vt or VirtualTime()
    config, hw = hardware(vt, log_text, host_lines, keys)
    store = RecordsStore(root)
    if own_settings:
        config = None
    app = App(hw, store, vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, config=config, **(periods or {}))
    if watch:
        for fb in hw["displays"].values():
            fb.watch = _watcher(app, fb)

    vt.drive(app, until_ms, stop=stop)
    return app, hw


def new_app(log_text, root, host_lines=()):
    """A new app on an emptied store at `root` (clear_records), its hardware replaying the log;
    not run yet: returns (vt, hw, app)."""
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore

    vt = VirtualTime()
    config, hw = hardware(vt, log_text, host_lines)
    clear_records(root)
    app = App(hw, RecordsStore(root), vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, config)
    return vt, hw, app


def _watcher(app, fb):
    def watch():
        fb.kind = app.standalone.shown
        return fb.kind != "clock"

    return watch


def clear_records(root):
    """Empty a test store's /games, /sessions and /journal (files left by an earlier run)."""
    import os

    for d in ("/games", "/sessions", "/journal"):
        try:
            names = os.listdir(root + d)
        except OSError:
            continue
        for name in names:
            os.remove(root + d + "/" + name)


def power_cut(src, dst):
    """The flash of a board whose power went at this instant: copies of the store's files
    under src into dst, as far as they were written to the file system (what a file object
    still buffers is lost, as on the board)."""
    import os

    for d in ("", "/games", "/sessions", "/journal"):
        try:
            os.mkdir(dst + d)
        except OSError:
            pass
    for d in ("", "/games", "/sessions", "/journal"):
        for name in os.listdir(src + d):
            if os.stat(src + d + "/" + name)[0] & 0x4000:
                continue  # a directory (the board's own files at the root are copied too)
            with open(src + d + "/" + name, "rb") as f:
                data = f.read()
            with open(dst + d + "/" + name, "wb") as f:
                f.write(data)


def resume_app(log_text, root, until_ms, periods=None, host_lines=()):
    """Boot a new app on the store at `root` (after power_cut) and run it while the world of
    the log goes on from the board time the app resumes at, until until_ms of that world's
    time; returns (app, hw). host_lines: (world time, line) the host sends."""
    from ingboard.app.app import App
    from ingboard.records.store import RecordsStore

    vt = VirtualTime()
    world = WorldTime(vt)
    config, hw = hardware(world, log_text, host_lines)
    store = RecordsStore(root)
    app = App(hw, store, vt.ticks_ms, vt.ticks_diff, vt.sleep_ms, config=config, **(periods or {}))
    world.shift = app.now()
    # The keys as the board finds them when it starts, in the world's time: a key still down
    # from the press just before the cut is held across the reboot, no new press (keys.py).
    hw["keys"] = Keys(hw["keys"]._pins)
    vt.drive(app, until_ms - world.shift, phase=world.shift)
    return app, hw

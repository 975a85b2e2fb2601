"""The device program: one asyncio task per concern around the tracker.

Tasks: `scan` (grid -> classifier -> a scan line when it changed), `bowls` (the two HX711s ->
grams), `keys` (clock keys and pause key; the buzzer's pattern), `game` (the only task that
touches the tracker: takes inputs from the bounded input queue in order, ticks the tracker at
its deadlines, writes the session log and the journal, queues the events), `display` (both clock
faces), `link` (host commands in, events out through the bounded output queue). A task that
dies stops the program loudly (the global exception handler records it and stops the loop).
Periods (ms, the constructor's defaults): scan 40 (25 Hz), bowls 100 (10 readings a second
per load cell), keys 20, game 40 - one pass per scan: an input waits at most a scan period,
and its idle pass (the clock kept current, the journal's mark) costs the RP2040 half what it
did at 20 ms (issue 20, "A CPU budget") - link 40 (a host answered within a scan period),
display 500.

Time: `ticks_ms`/`ticks_diff` (injected; time.ticks_ms on the board) are turned into the
session's board time in ONE place, `now()`: ms since the game started, never decreasing, with
ticks wrap-around handled by ticks_diff. After a power cut board time goes on from where the
records stop - the later of the journal's last record and the session log's last line, so that
neither goes back - plus the time since boot: the time without power is nobody's thinking time
(the clock stopped with the board). The session log is flushed whenever the journal is, so the
log on flash always explains the game the journal gives back.

Hardware (`hw`, a dict; board_config.build() plus displays and the link): "grid" (scan() ->
readings), "classifier" (sensing/classifier.Classifier), "hx711" {"B", "W"} (poll(now_ms) ->
grams or None, SensorFault), "keys" (drivers/keys.Keys: poll(now_ms), taken(): 0 B, 1 W, 2
pause, 3 menu; rest, read_at, edges), "buzzer" (drivers/buzzer.Buzzer: play(pattern,
now_ms), update(now_ms), pattern), "displays" {"B", "W"} (framebuf-like, show() if
present), "link" (readline() -> bytes or None without blocking, write(bytes)). Any may be
missing (None) except grid and classifier.

Records: the session log of every game (records/session.SessionWriter) and the SGF of every
finished game (records/store.py RecordsStore), the journal of the game in progress
(records/journal.py), recovered at start.
"""

from ingrules.board import BLACK, WHITE
from ingrules.game import PAUSED
from micropython import const

from ingboard import gc_policy
from ingboard.app import idle_wait
from ingboard.app.cpu_meter import CpuMeter
from ingboard.app.inputs import BOWL, BUTTON, FAULT, KEY, PRESS, SCAN, Inputs, RingQueue
from ingboard.app.recorder import JOURNAL_LIMIT, Recorder
from ingboard.link.commands import HostLink

OUTPUTS = const(64)
# The tasks' counters: their index in cpu_meter.CPU_TASKS.
# run(): how often it looks for a task that ended. Every wake-up of a task costs the scheduler
# time (idle_wait.py keeps its wait's frame off the heap).
_WATCH_MS = const(250)
_T_GAME = const(3)
_T_BACK = const(4)
_T_RELAY = const(5)
_T_DISPLAY = const(6)
_T_LINK = const(7)
# Each side's face: display name, colour (made once: a tuple of imported names written in the
# loop is made again at every pass, ~64 bytes of garbage each).
_FACES = (("B", BLACK), ("W", WHITE))
_ROOM_US = const(20000)  # background(): the least time left before the next scan for an import


# The game task's parts that need no method of their own (App.step, App._after): each a frame
# within 11 words (a bigger one is made on the heap at every call).


def _take(app, item):
    # The tracker's events of one input (None: not the tracker's).
    kind, t, a, b = item
    if kind == SCAN:
        return app.tracker.scan(t, a)
    if kind == PRESS:
        return app.tracker.press(t, a)
    if kind == BUTTON:
        return app.tracker.button(t, a)
    if kind == BOWL:
        return app.tracker.bowl(t, a, b)
    if kind == FAULT:
        return _fault(app, t, a, b)
    return None


# Alerts one point each, raised a point at a time: a flood of them (a bowl spilled over the
# board, every stone its own `wrong-colour`) is more than the outputs queue holds.
_POINT_ALERTS = ("wrong-colour", "stone-extra", "stone-missing")


def _merged(outputs, message):
    # With the outputs queue full (App.emit looks first), an alert of one point each goes out
    # with the newest queued alert of its code and text (that event as it is, its points one
    # more): the host and a display on it still learn every point to clear; nothing is left
    # out of the count. False when no such alert is queued (then dropped, and counted).
    slots = outputs.slots
    n = len(slots)
    if message.get("type") != "alert":
        return False
    code = message.get("code")
    points = message.get("points")
    if code not in _POINT_ALERTS or not points:
        return False
    for i in range(outputs.count - 1, -1, -1):
        queued = slots[(outputs.head + i) % n]
        if (
            queued.get("type") == "alert"
            and queued.get("code") == code
            and queued.get("points")
            and queued.get("text") == message.get("text")
        ):
            held = queued["points"]
            if held is not outputs.merged:
                # A new list, once: the queued event's own may be held elsewhere
                # (standalone.note); the next points go into this one in place (a new list
                # each time was ~185 KB of garbage for a full board's 361 alerts).
                held = list(held)
                queued["points"] = held
                outputs.merged = held
            for p in points:
                held.append(p)
            return True
    return False


def _fault(app, t, a, b):
    # The tracker brought to t first (its clock as of t for the journal: the game
    # task's idle ticks do not keep it current).
    tracker = app.tracker
    events = list(tracker.tick(t))
    tracker.bowls.fault(a, t, b)
    for event in tracker.bowls.poll():
        event["t"] = t
        events.append(event)
    return events


def _relay_event(app, event):
    try:
        app.relay.event(event)
    except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
        app.report("relay", exc)


def _relay_after(app, t, events, button):
    try:
        if button == "dispute":  # the players disagree: the director hears of it
            app.relay.event({"type": "dispute", "code": "dispute"})
        app.relay.after(app.tracker.clock, t, events)  # the clocks, and who runs
    except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
        app.report("relay", exc)


class App(Inputs, Recorder, CpuMeter, HostLink):
    """The board's program; see the module docstring. `run()` is the entry (asyncio). Its
    parts, each a mixin that initialises its own state: the sensors' tasks and the input queue
    (inputs.py), the game's records (recorder.py), the CPU accounting (cpu_meter.py), the host
    link's commands and lines out (link/commands.py); App keeps board time, the game step,
    the tasks that are not the sensors', and the events' way out."""

    PRESS = PRESS  # input kinds standalone.py hands back to step()
    BUTTON = BUTTON

    def __init__(
        self,
        hw,
        store,
        ticks_ms,
        ticks_diff,
        sleep_ms,
        config=None,
        scan_ms=40,
        bowl_ms=100,
        key_ms=20,
        game_ms=40,
        display_ms=500,
        link_ms=40,
        mark_ms=1000,
        journal_limit=JOURNAL_LIMIT,
        ticks_us=None,
    ):
        self.hw = hw
        self.store = store
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.sleep_ms = sleep_ms
        self._init_cpu_meter(ticks_ms, ticks_us)
        self._init_inputs()
        self.periods = (scan_ms, bowl_ms, key_ms, game_ms, display_ms, link_ms)
        self._init_recorder(mark_ms, journal_limit)
        self.outputs = RingQueue(OUTPUTS)
        self._init_host_link()
        self.failure = None
        self.errors = {}  # task name -> exceptions reported (report())
        # When the heap is collected: the one policy, reasons in gc_policy.py.
        self.collector = gc_policy.Collector()
        self.collector.start()
        self.end_preload = gc_policy.end_preload()  # the end's code, loaded in the pause
        self.stopping = False
        self.pause_paused = False
        self._t0 = ticks_ms()
        self._base = 0
        self._last = 0
        # The standalone surface (menus, faces, remembered settings): standalone.py.
        from ingboard.app.standalone import Standalone

        self.standalone = Standalone(self)
        # The club relay link (relay_feed.RelayFeed over relay_link.RelayLink), when main.py
        # found network settings; it never waits for the network.
        self.relay = hw.get("relay")
        self._relay_polled = 0
        if not self._resume():
            self.new_game(config or self._boot_config())

    # -- time: the one place ticks become board time --------------------------------------------

    def now(self):
        t = self._base + self.ticks_diff(self.ticks_ms(), self._t0)
        if t < self._last:
            t = self._last
        self._last = t
        return t

    def _restart_time(self, base):
        self._t0 = self.ticks_ms()
        self._base = base
        self._last = base

    # -- the way out ----------------------------------------------------------------------------

    def report(self, task, exc):
        """A task met an exception it cannot handle: one warning, counted, and the task goes on
        (issue 19: no input may stop the board program)."""
        n = self.errors.get(task, 0) + 1
        self.errors[task] = n
        if n & (n - 1) == 0:  # the 1st, 2nd, 4th, 8th...: a fault that repeats cannot flood
            self.warn("%s task (%d): %s: %s" % (task, n, exc.__class__.__name__, exc))

    def warn(self, text):
        self.emit({"t": self._last, "type": "warning", "text": text})

    def emit(self, message):
        if self.outputs.count < OUTPUTS or not _merged(self.outputs, message):  # (frame if full)
            self.outputs.put(message)  # full: counted in outputs.dropped (the state reply's)

    # -- the game task: the only caller of the tracker -----------------------------------------

    def step(self, item):
        """Apply one input (kind, t, a, b) to the tracker; journal, log and queue its events."""
        # In parts whose frames stay within 11 words (a bigger one is made on the heap at every
        # input: host_tools/mpy_frames.py).
        kind, t, a, b = item
        if kind == BOWL and self.tracker.bowl_quiet(t, a, b):
            # A reading that changes nothing (the settled bowl holds it): not handed to the
            # tracker, not logged, not journalled - replaying the log plays the same (issue 20:
            # "Bowl readings between moves should cost a small fraction of a move").
            return
        if kind == KEY:
            self.standalone.key(t, a)  # a clock press, pause, or the menus (standalone.py)
            return
        self._due_before(t)
        if kind == BUTTON and a == "new-game":
            self.new_game(self.tracker.config)
            return
        self._play(item)

    def _play(self, item):
        events = _take(self, item)
        if events is None:
            return
        # Checkpoints between the parts of one input (issue 20): the first scan of a board
        # took ~130 ms of the RP2040's time in one piece (tracker, session log, journal).
        self.scan_if_due()
        if item[0] != FAULT:
            self._record(item[0], item[1], item[2], item[3])
            self.scan_if_due()
        self._after(item[1], events, item[2] if item[0] == BUTTON else None)

    def _due_before(self, t):
        # What fell due before this input happens at its own time first (a stone stable, a
        # clock period), exactly as `ingboard track` replays the session log: the game task may
        # take an input only after its time has passed those deadlines.
        tracker = self.tracker
        if tracker.due >= t:
            return  # the usual case: the tracker's own next deadline is not before t
        due = tracker.next_deadline()
        if due is None or due >= t:
            return
        last = None
        events = []
        while due is not None and due < t:
            events += tracker.tick(due)
            last = due
            self.scan_if_due()  # each deadline's part (a big capture's play) a piece of its own
            due = tracker.next_deadline()
        if last is not None:
            self._after(last, events, None)

    def tick(self, t):
        # Nothing can happen (Tracker.nothing_due) and nothing to journal (JournalWriter.mark_due),
        # in line: 25 passes a second, a call ~25 us of the RP2040; a frame on the C stack.
        tracker = self.tracker
        journal = self.journal
        if (
            self.relay is None
            and tracker.started
            and tracker.last_t <= t < tracker.due
            and not tracker.press_pending
            and (
                journal is None
                or t - journal.last_t < journal.mark_ms
                or not tracker.clock.running()
            )
        ):
            return
        self._tick(t)

    def _tick(self, t):
        tracker = self.tracker
        if tracker.quiet_tick(t):
            # Nothing could happen (the game task's most frequent call, issue 20): no event
            # and nothing the journal keeps changed, so it is synced only for its mark.
            if self.relay is not None:
                try:
                    self.relay.after(tracker.clock, t, ())
                except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
                    self.report("relay", exc)
            if self.journal is not None and self.journal.mark_due(tracker, t):
                self._after(t, [], None)
            return
        due = self.tracker.next_deadline()
        events = []
        while due is not None and due <= t:
            events += self.tracker.tick(due)
            self.scan_if_due()
            due = self.tracker.next_deadline()
        events += self.tracker.tick(t)
        # A checkpoint between the tracker and the records: a play that took 32 stones was,
        # with its journal record, ~125 ms of the RP2040's time in one piece (issue 32).
        self.scan_if_due()
        self._after(t, events, None)

    def _after(self, t, events, button):
        # In parts whose frames stay within 11 words (called at every input the tracker
        # takes); most inputs have no event.
        if self.journal is not None:
            self._journal_after(t, events, button)  # recorder.py
            self.scan_if_due()
        if events:
            self._out(t, events)
        if self.relay is not None:
            _relay_after(self, t, events, button)
        self.standalone.after()
        self._save_if_ended()  # recorder.py

    def _out(self, t, events):
        for event in events:
            self.emit(event)
            self.standalone.cue(event, t)
            if event["type"] == "enrolled":
                self._keep_set(event)
            self.standalone.note(event, t)
            if self.relay is not None:
                _relay_event(self, event)

    def background(self):
        """What can wait for a quiet moment, once a game task's period (its test: the task's and
        Inputs._idle_pass, keep in step): a slice of the journal's compaction while one runs or
        is due, else from a pass on one of the end's modules (gc_policy.EndPreload)."""
        if self.journal is not None and (self.compaction is not None or self.compaction_due):
            if self._room():  # a slice is ~16 ms of the RP2040: not when a scan is near
                self._compaction_step()
        elif self.end_preload.left:
            self.preload_end()

    def preload_end(self):
        # background()'s from a pass on; also after a scan (the scan task), where the room is.
        game = self.tracker.game
        if self.end_preload.left and (game.phase == PAUSED or game.consecutive_passes):
            if self._room():
                return self.end_preload.step_once(self._scan_at, self.report)
        return False

    def _room(self):
        # Right after a scan: most of a period before the next is due (an import is a piece of
        # up to ~35 ms of the RP2040).
        return self._scan_at is None or self._room_us() >= _ROOM_US

    # -- tasks ----------------------------------------------------------------------------------

    async def game_task(self):
        period = self.periods[3]
        while not self.stopping:
            start = self.cpu_ticks()
            # (The queue's count looked at first: most passes of an idle board find it empty.)
            item = self.inputs.get() if self.inputs.count else None
            if item is not None:
                self.scan_if_due()  # (also: no collection started just before it, gc_policy)
            while item is not None:
                try:
                    self.step(item)
                except Exception as exc:  # noqa: BLE001 (one input never ends the game task)
                    self.report("game", exc)
                self.scan_if_due()  # between two inputs of a burst
                item = self.inputs.get()
            try:
                self.tick(self.now())
                idle = self._idle_pass()  # inputs.py: no scan due, nothing for background()
                start = self._spent(_T_GAME, start)
                if not idle:
                    self.scan_if_due()
                    if self.compaction is not None or self.compaction_due or self.end_preload.left:
                        self.background()  # between scans: nothing is waiting
                    start = self._spent(_T_BACK, start)
            except Exception as exc:  # noqa: BLE001
                self.report("game", exc)
                start = self._spent(_T_BACK, start)
            if self.relay is not None:
                self._poll_relay()
                self._spent(_T_RELAY, start)
            await self.sleep_ms(period)

    def _poll_relay(self):
        # Resends what the relay has not acknowledged, every 100 ms (never waits).
        t = self.relay.now()
        if t - self._relay_polled >= 100:
            self._relay_polled = t
            try:
                self.relay.poll()
            except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
                self.report("relay", exc)

    async def display_task(self):
        # Each face is painted piece by piece (Standalone.paint: only what changed) and sent
        # a page (8 rows) at a time where the display can (show_pages), yielding between
        # pieces: a face never holds the CPU for long, and the scan runs on time (issue 20).
        displays = self.hw.get("displays") or {}
        period = self.periods[4]
        clock = self.cpu_ticks
        while not self.stopping:
            start = clock()
            t = self.now()
            for name, color in _FACES:
                fb = displays.get(name)
                if fb is None:
                    continue
                try:
                    if self.standalone.unchanged(fb, color, t):
                        continue
                    self.scan_if_due()  # before the face's first piece too
                    for _ in self.standalone.paint(fb, color, t):
                        self.scan_if_due()
                        self._spent(_T_DISPLAY, start)
                        await self.sleep_ms(0)
                        start = clock()
                    low, high, x0, x1 = self.standalone.window  # what the paint changed
                    if low >= high:
                        continue
                    if hasattr(fb, "show_pages"):
                        # Its columns only, pages together while they fit one page's bytes (a
                        # clock's seconds: one write of ~80 bytes, not four pages of 128).
                        n = (high + 7) // 8 - low // 8
                        n = n if (x1 - x0) * n <= fb.width else 1
                        for page in range(low // 8, (high + 7) // 8, n):
                            fb.show_pages(page, min(page + n, (high + 7) // 8) - 1, x0, x1)
                            self.scan_if_due()
                            self._spent(_T_DISPLAY, start)
                            await self.sleep_ms(0)
                            start = clock()
                    elif hasattr(fb, "show"):
                        fb.show()
                        self._spent(_T_DISPLAY, start)
                        await self.sleep_ms(0)
                        start = clock()
                except Exception as exc:  # noqa: BLE001 (a display fault is reported)
                    self.report("display", exc)
            self._spent(_T_DISPLAY, start)
            # To the next whole second of a running clock's time shown, at most a period.
            await self.sleep_ms(self.standalone.wait_ms(self.now(), period))

    async def link_task(self):
        # Every 40 ms: a host's command answered within ~one scan period, at half the looks of
        # the keys' 20 ms (each ~130 us of the RP2040 on an idle board, where no host talks).
        link = self.hw.get("link")
        period = self.periods[5]
        while not self.stopping:
            start = self.cpu_ticks()
            if link is not None:
                line = link.readline()
                while line is not None:
                    if line.strip():
                        # Reading a line, parsing it and a new game's start are pieces of their
                        # own (in one, a new-game's ~100 ms held up a scan by 65 ms on the twin).
                        self.scan_if_due()
                        for reply in self.protocol.handle(line):
                            # A reply goes out at once, after what was queued before it: it is
                            # never dropped when a flood of events (a full board's alerts) has
                            # filled the queue - the host is waiting for it.
                            self._send_queued(link)
                            self._reply(link, reply, self.protocol.cmd)
                    line = link.readline()
            if self.outputs.count:  # (most passes have nothing to send)
                self._send_queued(link)
            self._spent(_T_LINK, start)
            await self.sleep_ms(period)

    def task_periods(self):
        """The period in ms of each coroutine of tasks(), in the same order."""
        return self.periods

    def tasks(self):
        return (
            self.scan_task(),
            self.bowl_task(),
            self.key_task(),
            self.game_task(),
            self.display_task(),
            self.link_task(),
        )

    async def run(self):
        """Run every task until one fails (re-raised) or stop() is called."""
        import asyncio

        idle_wait.install(asyncio)  # the loop's wait between wake-ups: off the heap
        loop = asyncio.get_event_loop()
        loop.set_exception_handler(self._failed)
        running = [asyncio.create_task(c) for c in self.tasks()]
        while not self.stopping and self.failure is None:
            for task in running:
                if task.done() and not self.stopping:
                    try:
                        await task  # a task ended by itself: take its exception
                        self.failure = RuntimeError("a task ended")
                    except Exception as exc:  # noqa: BLE001 (any task failure stops the app)
                        self.failure = exc
            await self.sleep_ms(_WATCH_MS)
        self.stopping = True
        for task in running:
            if not task.done():
                task.cancel()
        if self.failure is not None:
            raise self.failure

    def _failed(self, loop, context):
        # The global exception handler: a dying task stops the program loudly.
        self.failure = context.get("exception") or RuntimeError(str(context.get("message")))
        self.stopping = True

    def stop(self):
        self.stopping = True
        if self.log_file is not None:
            self.log_file.flush()

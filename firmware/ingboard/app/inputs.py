"""The board's inputs: every sensor polled on its own period into one bounded queue, which the
game task empties in order. The grid is scanned 25 times a second - each scan due a period
after the last one was due - and a scan line is queued only when the classes changed; a long
piece of work elsewhere calls `scan_if_due()` between its parts, so that no burst delays a scan
by a period (the keys are polled there too, so a press is timed within a scan period). A load
cell's reading is rounded to 0.1 g, or queued as a fault when it is not plausible; one the
tracker would drop (a settled bowl's, `bowl_quiet`) is dropped before the queue when nothing
is queued before it; key presses go in in the order they were made. `RingQueue` is the
queue: slots allocated once, a full queue refuses and counts the drop (the sensors say it
again). While a host calibrates the board (`calibrating`, below) neither the grid nor the
bowls feed the game. A mixin of App (app.py).
"""

from ingrules.board import BLACK, WHITE
from ingrules.game import PAUSED
from micropython import const

from ingboard.bowls.bowls import MAX_READING_G, plausible
from ingboard.gc_policy import ROOM_US
from ingboard.sensing.classifier import format_scan

# The kinds of input, the first item of a queued (kind, t, a, b).
SCAN, PRESS, BUTTON, BOWL, FAULT, LINE, KEY = 1, 2, 3, 4, 5, 6, 7
INPUTS = const(64)
# How long the calibration mode lasts after the host's last calibration request: a step is a
# person covering nine lines of the board with stones (hardware_docs/calibration.md), a few
# minutes, and the tool starts the mode again before each; a host that went away leaves the
# board tracking again after this.
CALIBRATING_MS = const(1800000)
# The tasks' counters: their index in cpu_meter.CPU_TASKS.
_T_SCAN = const(0)
_T_BOWLS = const(1)
_T_KEYS = const(2)
_T_BACK = const(4)
# Each bowl: its index, its load cell's name, its colour (made once: a tuple of imported
# names written in the loop is made again at every pass, 80 bytes of garbage ten times a
# second).
_BOWLS = ((0, "B", BLACK), (1, "W", WHITE))


class RingQueue:
    """Bounded FIFO over slots allocated once; put() returns False when full (nothing lost
    silently: the caller counts it)."""

    def __init__(self, n):
        self.slots = [None] * n
        self.head = 0
        self.count = 0
        self.dropped = 0
        self.merged = None  # the outputs': the points list app._merged made last

    def put(self, item):
        n = len(self.slots)
        if self.count == n:
            self.dropped += 1
            return False
        self.slots[(self.head + self.count) % n] = item
        self.count += 1
        return True

    def clear(self):
        """Forget every queued item (not counted as dropped)."""
        for i in range(len(self.slots)):
            self.slots[i] = None
        self.head = 0
        self.count = 0

    def get(self):
        if not self.count:
            return None
        item = self.slots[self.head]
        self.slots[self.head] = None
        self.head = (self.head + 1) % len(self.slots)
        self.count -= 1
        return item


class Inputs:
    """The sensors' tasks and the input queue of an App (a mixin: uses the app's `hw`,
    `periods`, `now()`, `report()`, `cpu_ticks`, `ticks_diff`, `sleep_ms`, `stopping`, and the
    CPU meter's `_inline`, `_spent`)."""

    def _init_inputs(self):
        self.inputs = RingQueue(INPUTS)
        self._scan_at = None  # when the next scan is due (cpu units), once the scan task runs
        # scan_if_due(): from this far before a scan is due (cpu units, negative) no threshold
        # collection before it (gc_policy.hold: it would hold the scan up)
        self._hold_from = -(ROOM_US // self.cpu_unit_us)
        # Each bowl's last reading, Black's then White's, in whole tenths of a gram (None
        # before the first): the `enrol` command's weights.
        self.bowl_dg = [None, None]
        self.last_scan = None
        # While a host calibrates (the `calibrating` command; `ingboard calibrate`): until when
        # (ticks_ms), else None.
        self.calibrating = None
        # Where the grid's scan is one native call (the RP2040), the classifier takes each
        # group address's points in the next address's power-on wait (GridScanner.scan's
        # `work`, Classifier.part): the same classes, without their time after the scan.
        grid = self.hw.get("grid")
        classifier = self.hw.get("classifier")
        # (Kept here: two lookups of hw at every scan were ~15 us of the RP2040.)
        self._grid = grid
        self._classifier = classifier
        self._part = None
        if getattr(grid, "whole", None) is not None and hasattr(classifier, "part"):
            if getattr(classifier, "native", None) is not None:
                self._part = classifier.part

    def _forget_inputs(self):
        # A new game: what the tasks queued before now is stamped in the old game's board
        # time; handed to the new tracker it would be later than the new game's first inputs
        # ("time went backwards", the twin's long game when the host's new-game came between
        # a bowl reading and the game task). The sensors say it again: the next scan gives the
        # board, the load cells read ten times a second. The new tracker is given the board as
        # the sensors see it at the next scan (not only once it changes), or a stone placed
        # first would be one already there (stone-extra).
        self.inputs.clear()
        self.last_scan = None

    def _input(self, kind, a, b=None):
        if not self.inputs.put((kind, self.now(), a, b)):
            raise ValueError("input queue full")

    def _scan(self, start):
        # One scan at cpu time `start`, due at self._scan_at: grid -> classifier -> a scan
        # line when the classes changed. The next is due a period after this one was due (25
        # scans a second on average), or after it started when it was a period late or more.
        # In pieces whose frames MicroPython keeps on the C stack (at most 11 words, less 3 a
        # handler: drivers/keys.py says why), all but this one with its handler: a scan's
        # three frames on the heap were ~4 ms a second of the RP2040 and a third of an idle
        # board's threshold collections (issue 32). The checkpoints' scans come here; the
        # scan task's own, 25 a second, have their handler in the task's loop (a generator's
        # frame is made once), and this frame is not made for them.
        self._schedule(start)
        try:
            self._scan_read()
        except Exception as exc:  # noqa: BLE001 (a bad scan never ends the scan task)
            self.report("scan", exc)
            # A scan cut short may have changed classes before its `changed` was set: the next
            # scan's line goes out whatever its flag says.
            self.last_scan = None
        return self._spent(_T_SCAN, start)

    def _schedule(self, start):
        late = self._scan_begun(start)  # cpu_meter: its lateness, the elapsed time
        span = self.periods[0] * 1000 // self.cpu_unit_us
        self._scan_at = start + span - (late if 0 < late < span else 0)

    def _scan_read(self):
        classifier = self._classifier
        grid = self._grid
        if self._part is not None:
            classifier.begin(grid.readings, grid.order, grid.ends)
            grid.scan(None, self._part)
            classifier.end()
        else:
            classifier.classify(grid.scan())
        # The line is made only when a class changed in the scan (the classifier's `changed`:
        # no copy of the last line's classes kept to compare, issue 32) or none was queued.
        if classifier.changed or self.last_scan is None:
            self._scan_changed(classifier.classes, classifier.size)

    def calibrate_mode(self, on):
        """Start (or renew) or end the calibration mode: while a host calibrates the board -
        a step is a band of 171 stones of one colour, its bowls hold a test mass - the
        scans and the bowls' readings are not the game's. Fed to the tracker they were
        hundreds of alerts (171 `wrong-colour` at White's first band) in the journal and in
        the outputs queue, and on the RP2040 the heap they split left no 2 KB block for the
        next raw scan (issue 32). It ends with `on` False, or CALIBRATING_MS after the host's
        last calibration request, and the tracker is then given the board as it is."""
        if on:
            self.calibrating = self.ticks_ms()
        elif self.calibrating is not None:
            self.calibrating = None
            self.last_scan = None  # the board as it is goes in at the next scan

    def _calibrating(self):
        # True while the calibration mode holds (see calibrate_mode); it lapses here.
        if self.ticks_diff(self.ticks_ms(), self.calibrating) < CALIBRATING_MS:
            return True
        self.calibrate_mode(False)
        self.warn(
            "calibration: no request from the host for %d min; the board plays again"
            % (CALIBRATING_MS // 60000)
        )
        return False

    def _scan_changed(self, classes, size):
        if self.calibrating is not None and self._calibrating():
            self.last_scan = None  # (and when the mode ends, the board as it is goes in)
            return
        line = format_scan(classes, size)
        if line != self.last_scan:
            # The line itself goes with its rows: the session log writes it as it is (no
            # second copy of ~380 characters joined from the rows).
            if self.inputs.put((SCAN, self.now(), line.split("/"), line)):
                self.last_scan = line
            else:
                # The queue full (counted in inputs.dropped): the board as it is goes in with
                # the next scan - a change is late, never lost.
                self.last_scan = None

    def scan_if_due(self):
        """A checkpoint inside long work (a burst of inputs, a face, the background): the
        scan, now, if it is due - so a burst never delays a scan by a period (issue 20). Its
        time counts to the scan task, not to the caller's."""
        if self._scan_at is None:
            return
        start = self.cpu_ticks()
        d = self.ticks_diff(start, self._scan_at)
        if d < 0:
            if d > self._hold_from and not self.collector.held:
                self.collector.hold()  # the scan is near (gc_policy: ROOM_US)
            return
        inline = self._inline
        self._inline = 0
        end = self._scan(start)
        # The keys too: a press made during a long piece of work is timed within a scan
        # period, not when the key task next runs (half a second late in the twin's long
        # game, after the opponent's next press: issue 20).
        keys = self.hw.get("keys")
        if keys is not None:
            self._poll_keys(keys, self.now())
            end = self.cpu_ticks()
        # gc_policy: a collection due soon, made now if the period has room for it
        d = self.ticks_diff(self._scan_at, end) * self.cpu_unit_us  # the room left, us
        if self.collector.early(d, self._last):
            end = self._spent(_T_BACK, end)
        self._inline = inline + self.ticks_diff(end, start)
        inline = self.ticks_diff(end, self._scan_at)  # (the name reused) past the next scan
        if inline >= 0:
            if d > 0:  # the scan left room, early()'s collection took it: once more, now
                self.scan_if_due()  # (a scan that took a period itself: the next checkpoint)
        elif inline > self._hold_from:
            self.collector.hold()  # the next scan is near already (gc_policy: ROOM_US)

    def _idle_pass(self):
        # The game task's pass after its tick, when it has nothing more to do (an idle board's
        # 25 passes a second): no scan due - scan_if_due()'s first test, with the hold when the
        # scan is near - and nothing for App.background() (its test and preload_end()'s: keep
        # them in step). True: no checkpoint call, no background() and no slice of its own
        # (~0.15 ms of the RP2040 a pass, issue 32).
        at = self._scan_at
        d = self._hold_from if at is None else self.ticks_diff(self.cpu_ticks(), at)
        if d >= 0 or self.compaction is not None or self.compaction_due:
            return False
        game = self.tracker.game
        if self.end_preload.left and (game.phase == PAUSED or game.consecutive_passes):
            return False
        if d > self._hold_from and not self.collector.held:
            self.collector.hold()  # the scan is near (gc_policy: ROOM_US)
        return True

    def _room_us(self):
        # The time left before the next scan is due, in us.
        return self.ticks_diff(self._scan_at, self.cpu_ticks()) * self.cpu_unit_us

    async def scan_task(self):
        # 25 Hz is 25 scans a second whatever a scan takes: each is due a period after the
        # last one was due (_scan); other tasks' checkpoints (scan_if_due) may make it first.
        # Only the reading is under the handler: a fault in the scheduling leaves the next
        # scan's time unset, and reported it would be retried at once, forever, without the
        # task ever yielding (the board frozen); it ends the app instead, as _scan's does.
        clock = self.cpu_ticks
        unit = self.cpu_unit_us
        span = self.periods[0] * 1000 // unit
        self._scan_at = clock()
        while not self.stopping:
            now = clock()
            wait = self.ticks_diff(self._scan_at, now)
            if wait <= 0:
                # _schedule(now) in line, outside the handler as in _scan (see above)
                late = self._scan_begun(now)
                self._scan_at = now + span - (late if 0 < late < span else 0)
                try:
                    self._scan_read()
                except Exception as exc:  # noqa: BLE001 (as _scan's: the task goes on)
                    self.report("scan", exc)
                    self.last_scan = None  # (as _scan's)
                end = self._spent(_T_SCAN, now)
                # gc_policy: the most room there is, and a collection due soon made now
                room = self.ticks_diff(self._scan_at, end) * unit
                if self.collector.scanned(self._last, room):
                    end = self._spent(_T_BACK, end)
                if self.preload_end():  # app.py: the end's code, in the pause
                    end = self._spent(_T_BACK, end)
                if self.ticks_diff(self._scan_at, end) * unit < ROOM_US:
                    self.collector.hold()  # the next scan is near already (gc_policy)
                continue
            await self.sleep_ms((wait * unit + 999) // 1000)

    async def bowl_task(self):
        from ingboard.drivers.hx711 import SensorFault

        scales = self.hw.get("hx711") or {}
        period = self.periods[1]
        inputs = self.inputs
        while not self.stopping:
            start = self.cpu_ticks()
            # While a host calibrates (the `calibrating` mode) the load cells are still polled -
            # the driver's watch for a silent HX711 stays fed (a gap of minutes read as one
            # unplugged) - but a test mass is no stone: nothing goes to the game.
            calibrating = self.calibrating is not None and self._calibrating()
            for i, c, color in _BOWLS:
                hx = scales.get(c)
                if hx is None:
                    continue
                t = self.now()
                try:
                    grams = hx.poll(t)
                except SensorFault as exc:
                    if not calibrating:
                        inputs.put((FAULT, t, color, str(exc)))
                    continue
                if calibrating:
                    continue
                if grams is not None and not plausible(grams):
                    # NaN, infinity, 100 kg: refused at the boundary as a fault (issue 19)
                    why = "reading %r g refused (not within +-%d g)" % (grams, MAX_READING_G)
                    inputs.put((FAULT, t, color, why))
                    continue
                if grams is not None:
                    dg = int(grams * 10 + (0.5 if grams >= 0 else -0.5))
                    self.bowl_dg[i] = dg
                    # A reading the game task would drop (App.step: the settled bowl holds
                    # it) is dropped here, in whole tenths (no float made, no queue slot):
                    # with nothing queued before it the game task would judge it against the
                    # same tracker. Each bowl's ten readings a second were, with the
                    # collections their floats brought, ~5 % of an idle board's CPU (issue 32).
                    if not inputs.count and self.tracker.bowl_quiet_dg(t, i, dg):
                        continue
                    inputs.put((BOWL, t, color, dg / 10))
            self._spent(_T_BOWLS, start)
            await self.sleep_ms(period)

    def _poll_keys(self, keys, t):
        # The game task decides what each press means (standalone.py: the clock, the pause,
        # or the open menu). Small (keys.poll says why): the presses are queued apart.
        if keys.poll(t):
            self._queue_keys(keys, t)

    def _queue_keys(self, keys, t):
        # Presses counted at one poll go in the order they were made.
        for i in keys.taken():
            self.inputs.put((KEY, t, i, None))

    async def key_task(self):
        keys = self.hw.get("keys")
        buzzer = self.hw.get("buzzer")
        period = self.periods[2]
        while not self.stopping:
            start = self.cpu_ticks()
            # Keys.poll's own first test, made here: with every key at rest and no edge since
            # the pins were read, nor a pattern playing, not even the clock is read (50 times
            # a second on an idle board).
            if keys is not None and not (keys.rest and keys.read_at == keys.edges):
                self._poll_keys(keys, self.now())
            if buzzer is not None and buzzer.pattern:
                buzzer.update(self.now())
            self._spent(_T_KEYS, start)
            await self.sleep_ms(period)

"""The device program: one asyncio task per concern around the tracker.

Tasks: `scan` (grid -> classifier -> a scan line when it changed), `bowls` (the two HX711s ->
grams), `keys` (clock keys and pause key; the buzzer's pattern), `game` (the only task that
touches the tracker: takes inputs from the bounded input queue in order, ticks the tracker at
its deadlines, writes the session log and the journal, queues the events), `display` (both clock
faces), `link` (host commands in, events out through the bounded output queue). A task that
dies stops the program loudly (the global exception handler records it and stops the loop).
Periods (ms, the constructor's defaults): scan 40 (25 Hz), bowls 100 (10 readings a second
per load cell), keys and link 10, game 40 - one pass per scan: an input waits at most a scan
period, and its idle pass (the clock kept current, the journal's mark) costs the RP2040 half
what it did at 20 ms (issue 20, "A CPU budget") - display 500.

Time: `ticks_ms`/`ticks_diff` (injected; time.ticks_ms on the board) are turned into the
session's board time in ONE place, `now()`: ms since the game started, never decreasing, with
ticks wrap-around handled by ticks_diff. After a power cut board time goes on from where the
records stop - the later of the journal's last record and the session log's last line, so that
neither goes back - plus the time since boot: the time without power is nobody's thinking time
(the clock stopped with the board). The session log is flushed whenever the journal is, so the
log on flash always explains the game the journal gives back.

Hardware (`hw`, a dict; board_config.build() plus displays and the link): "grid" (scan() ->
readings), "classifier" (sensing/classifier.Classifier), "hx711" {"B", "W"} (poll(now_ms) ->
grams or None, SensorFault), "keys" (poll(now_ms), taken(): 0 B, 1 W, 2 pause), "buzzer"
(play(pattern, now_ms), update(now_ms)), "displays" {"B", "W"} (framebuf-like, show() if
present), "link" (readline() -> bytes or None without blocking, write(bytes)). Any may be
missing (None) except grid and classifier.

Records: the session log of every game (records/session.SessionWriter) and the SGF of every
finished game (records/store.py RecordsStore), the journal of the game in progress
(records/journal.py), recovered at start.
"""

import json

from ingrules.board import BLACK, WHITE
from ingrules.game import PAUSED
from micropython import const

from ingboard import cues, gc_policy
from ingboard.app import cpu_meter
from ingboard.app.cpu_meter import CPU_BLOCK, CPU_TASKS
from ingboard.bowls.bowls import MAX_READING_G, plausible
from ingboard.game_config import check_config
from ingboard.link import commands, protocol
from ingboard.records import journal
from ingboard.records.session import SessionWriter
from ingboard.sensing.classifier import format_scan
from ingboard.tracking.tracker import Tracker

# Clock cues the app sounds from the tracker's `cue` events (the others it reads off the clock
# state: periods, penalty points, the forfeit).
_WARNING_CUES = (cues.BASIC_ENDING, cues.POINTS_NEXT, cues.FORFEIT_NEXT, cues.COUNTDOWN)

DEFAULT_CONFIG = {"size": 19, "rules": "ing1991", "komi": 8}
_FULL_SET = const(180)  # stones a side of the full 19x19 set (Ing 1991 Art. 12)


def _stones_a_side(size):
    # Ing 1991 Art. 12 "Number of stones": half the number of points on the board minus one.
    return (size * size - 1) // 2


_SCAN, _PRESS, _BUTTON, _BOWL, _FAULT, _LINE, _KEY = 1, 2, 3, 4, 5, 6, 7
INPUTS = const(64)
OUTPUTS = const(64)
JOURNAL_LIMIT = const(64 * 1024)
# Journal bytes compacted per game-task period: a few ms of the RP2040's time, and a few KB of
# garbage (a merged record of 2 KB decodes into several KB of lists).
_COMPACT_SLICE = const(512)
_COPY = const(512)
_LINK_SLICE = const(512)  # bytes of an event line written between two scan checkpoints
_ROOM_US = const(20000)  # background(): the least time left before the next scan for an import
# CPU accounting (cpu_meter.py): one counter per task of CPU_TASKS, in that order.
_T_SCAN, _T_BOWLS, _T_KEYS, _T_GAME, _T_BACK, _T_RELAY, _T_DISPLAY, _T_LINK = (
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
)
_T_INLINE = const(8)  # cpu_stats' scan_late_task: a checkpoint's own scan came late
_T_WALL = const(8)  # the elapsed time's counter, after the tasks'


class RingQueue:
    """Bounded FIFO over slots allocated once; put() returns False when full (nothing lost
    silently: the caller counts it)."""

    def __init__(self, n):
        self.slots = [None] * n
        self.head = 0
        self.count = 0
        self.dropped = 0

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


class App:
    """The board's program; see the module docstring. `run()` is the entry (asyncio)."""

    PRESS = _PRESS  # input kinds standalone.py hands back to step()
    BUTTON = _BUTTON

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
        mark_ms=1000,
        journal_limit=JOURNAL_LIMIT,
        ticks_us=None,
    ):
        self.hw = hw
        self.store = store
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.sleep_ms = sleep_ms
        # The CPU clock: ticks_us when given, else ticks_ms counted as 1000 us (virtual time).
        self.cpu_ticks = ticks_us or ticks_ms
        self.cpu_unit_us = 1 if ticks_us else 1000
        # [units below a block, blocks] per task, then the same for the elapsed time (folded in
        # at every scan from _cpu_mark: ticks_us wraps every 17.9 min).
        self._cpu = [0] * (2 * len(CPU_TASKS) + 2)
        self._cpu_mark = self.cpu_ticks()
        self._scan_late = 0  # worst lateness of a scheduled scan, in cpu units
        self._scan_late_at = 0  # board time of the last input or tick before it
        self._scans = 0
        # The longest task slice since the last scan (cpu units, task): what held up the
        # worst late scan (cpu_stats "scan_late_task"; "inline": a checkpoint's scan, late
        # in the piece of work that made it).
        self._slice_max = 0
        self._slice_task = -1
        self._scan_late_task = -1
        self._scan_at = None  # when the next scan is due (cpu units), once the scan task runs
        self._inline = 0  # cpu units of scans made inside another task's slice (scan_if_due)
        self._seen = None  # the classes of the last scan line (bytearray)
        self.periods = (scan_ms, bowl_ms, key_ms, game_ms, display_ms)
        self.mark_ms = mark_ms
        self.journal_limit = journal_limit
        self.inputs = RingQueue(INPUTS)
        self.outputs = RingQueue(OUTPUTS)
        self.protocol = commands.Protocol(self)
        self._writer = protocol.LineWriter()  # the link's one line buffer (allocated once)
        self.failure = None
        self.errors = {}  # task name -> exceptions reported (report())
        self.compacted = 0  # bytes of the journal after its last compaction
        self.compaction = None  # [Compactor, reader, new file, limit, records] while it runs
        # When the heap is collected: the one policy, reasons in gc_policy.py.
        self.collector = gc_policy.Collector()
        self.collector.start()
        self.end_preload = gc_policy.end_preload()  # the end's code, loaded in the pause
        self.stopping = False
        self.grams = {"B": None, "W": None}
        self.last_scan = None
        self.last_clock = {}
        self.pause_paused = False
        self.tracker = None
        self.number = 0
        self.log = None
        self.log_file = None
        self.journal = None
        self.journal_file = None
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

    # -- games ----------------------------------------------------------------------------------

    def _keep_set(self, event):
        # The set enrolled when the players confirmed the frame count (Ing 1991 Art. 9
        # "Counting" (1)) is kept on the board and used for every later game (new_game).
        from ingboard import storage_paths

        # Kept as the full 19x19 set's weight (180 stones a side, Ing 1991 Art. 12): a small
        # game's bowls hold fewer (40 for 9x9), its enrolment weighs those.
        share = _stones_a_side(self.tracker.game.size) if self.tracker is not None else _FULL_SET
        weights = {}
        for c in ("B", "W"):
            if event.get(c) is not None:
                w = event[c]
                weights[c] = w if share == _FULL_SET else round(w * _FULL_SET / share, 1)
        if not weights:
            return
        try:
            old = self._set_weights()
            old.update(weights)
            with open(self.store.root + storage_paths.SET_WEIGHTS, "w") as f:
                f.write(json.dumps(old))
        except OSError as exc:
            self.warn("set weights not saved: %s" % exc)

    def _set_weights(self):
        from ingboard import storage_paths

        try:
            with open(self.store.root + storage_paths.SET_WEIGHTS) as f:
                data = json.loads(f.read())
        except (OSError, ValueError):
            return {}
        out = {}
        for c in ("B", "W"):
            w = data.get(c) if isinstance(data, dict) else None
            if isinstance(w, (int, float)) and not isinstance(w, bool) and w > 0:
                out[c] = w
        return out

    def new_game(self, config):
        """Finish the game in progress (if any) and start one with `config` (ValueError).
        A set enrolled earlier (the `enrolled` event) gives the bowls' weights it lacks."""
        weights = self._set_weights()
        if weights:
            bowls = dict(config.get("bowls") or {})
            # The set's weight is of 180 stones a side; a small game's bowls hold its own
            # share (Ing 1991 Art. 12: half the points minus one, 40 for 9x9).
            size = config.get("size", 19) if isinstance(config, dict) else 19
            share = _stones_a_side(size) if isinstance(size, int) and 0 < size <= 19 else 0
            for c in weights:
                entry = dict(bowls.get(c) or {})
                if "w180_g" not in entry and share:
                    w = weights[c]
                    entry["w180_g"] = w if share == _FULL_SET else round(w * share / _FULL_SET, 1)
                bowls[c] = entry
            config = dict(config, bowls=bowls)
        check_config(config)
        classifier = self.hw.get("classifier")
        if classifier is not None and config["size"] > classifier.size:
            # A smaller game is played in the grid's lower-left corner (tracking/region.py).
            raise ValueError(
                "this board is %dx%d: a %dx%d game does not fit on it"
                % (classifier.size, classifier.size, config["size"], config["size"])
            )
        # A new game is several slices, the scan checkpoint between them (issue 20: the
        # host's new-game held up a scan by 218 ms on the twin): the tracker, the old game's
        # records closed, the new game's opened.
        # (The tracker's checkpoint: the count of a full board in slices too, issue 20.)
        tracker = Tracker(config, checkpoint=self.scan_if_due)
        self.scan_if_due()
        self._abort_compaction()
        if self.tracker is not None:
            self._finish()
        self.tracker = tracker
        self.number = self.store.next_number()
        self.scan_if_due()
        self._restart_time(0)
        # What the tasks queued before now is stamped in the old game's board time: handed to
        # the new tracker it would be later than the new game's first inputs ("time went
        # backwards", the twin's long game when the host's new-game came between a bowl
        # reading and the game task). The sensors say it again: the next scan gives the board,
        # the load cells read ten times a second.
        self.inputs.clear()
        # The new tracker is given the board as the sensors see it at the next scan (not only
        # once it changes), or a stone placed first would be one already there (stone-extra).
        self.last_scan = None
        self.compacted = 0
        self.log_file = self.store.open_session(self.number)
        self.log = SessionWriter(self.log_file)
        self.log.config(0, config)
        self.scan_if_due()
        self.journal_file = self.store.open_journal(b"")
        self.journal = journal.JournalWriter(self.journal_file, self.mark_ms)
        self.journal.start(tracker, 0)
        self.scan_if_due()
        self.journal_file.flush()
        self.scan_if_due()
        self.saved = False
        if self.relay is not None:
            try:
                self.relay.new_game(config)
            except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
                self.report("relay", exc)
        return self.number

    def _boot_config(self):
        # No game to resume: one with the settings remembered on flash, on this board's grid.
        classifier = self.hw.get("classifier")
        size = classifier.size if classifier is not None else DEFAULT_CONFIG["size"]
        try:
            return self.standalone.config(size)
        except ValueError as exc:
            self.warn("remembered settings refused (%s): the defaults are used" % exc)
            return dict(DEFAULT_CONFIG, size=size)

    def _resume(self):
        # The game of the journal on flash, if there is one (after a power cut): resume.py,
        # loaded for this and dropped after with the journal's reader (issue 17).
        reader = self.store.recovery_reader()
        if reader is None:
            return False
        from ingboard.app import resume

        try:
            return resume.resume(self, reader)
        finally:
            gc_policy.drop("ingboard.app.resume")
            gc_policy.drop("ingboard.records.journal_replay")
            gc_policy.drop("ingboard.records.session_read")  # when the log rebuilt the game

    def _write_sgf(self, write):
        # The game's SGF, piece by piece to write(str); sgf_record is loaded for it (its code
        # is not heap the game keeps).
        from ingboard.records.sgf_record import tracker_sgf

        tracker_sgf(self.tracker, write)

    def _finish(self):
        if not self.saved:
            self.saved = True
            for text in self.store.save_sgf(self.number, self._write_sgf, self.scan_if_due):
                self.warn(text)
        if self.log_file is not None:
            self.log_file.close()
            self.log_file = None
            self.scan_if_due()  # each file-system step takes tens of ms on the Pico
            self.store.close_session(self.number)
            self.scan_if_due()
        if self.journal_file is not None:
            self.journal_file.close()
            self.journal_file = None
            self.scan_if_due()
        self.store.clear_journal()
        self.scan_if_due()

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
        if not self.outputs.put(message):
            pass  # counted in outputs.dropped; reported with the next state reply

    # -- the game task: the only caller of the tracker -----------------------------------------

    def _record(self, kind, t, a, b=None):
        if self.log is not None:
            if kind == _SCAN:
                self.log.scan(t, a)
            elif kind == _PRESS:
                self.log.press(t, a)
            elif kind == _BUTTON:
                self.log.button(t, a)
            elif kind == _BOWL:
                self.log.bowl(t, a, b)
        elif self.log_file is not None:
            from ingboard.records.session import Record

            names = {_SCAN: "scan", _PRESS: "press", _BUTTON: "button", _BOWL: "bowl"}
            payload = (a, b) if kind == _BOWL else a
            self.log_file.write(Record(t, names[kind], payload).text() + "\n")

    def step(self, item):
        """Apply one input (kind, t, a, b) to the tracker; journal, log and queue its events."""
        kind, t, a, b = item
        if kind == _BOWL and self.tracker.bowl_quiet(t, a, b):
            # A reading that changes nothing (the settled bowl holds it): not handed to the
            # tracker, not logged, not journalled - replaying the log plays the same (issue 20:
            # "Bowl readings between moves should cost a small fraction of a move").
            return
        if kind != _KEY:
            self._due_before(t)
        tracker = self.tracker
        button = None
        if kind == _SCAN:
            events = tracker.scan(t, a)
        elif kind == _PRESS:
            events = tracker.press(t, a)
        elif kind == _BUTTON:
            button = a
            if a == "new-game":
                self.new_game(tracker.config)
                return
            events = tracker.button(t, a)
        elif kind == _BOWL:
            events = tracker.bowl(t, a, b)
        elif kind == _KEY:
            self.standalone.key(t, a)  # a clock press, pause, or the menus (standalone.py)
            return
        elif kind == _FAULT:
            # The tracker brought to t first (its clock as of t for the journal: the game
            # task's idle ticks do not keep it current).
            events = list(tracker.tick(t))
            tracker.bowls.fault(a, t, b)
            for event in tracker.bowls.poll():
                event["t"] = t
                events.append(event)
        else:
            return
        # Checkpoints between the parts of one input (issue 20): the first scan of a board
        # took ~130 ms of the RP2040's time in one piece (tracker, session log, journal).
        self.scan_if_due()
        if kind != _FAULT:
            self._record(kind, t, a, b)
            self.scan_if_due()
        self._after(t, events, button)

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
            due = tracker.next_deadline()
        if last is not None:
            self._after(last, events, None)

    def tick(self, t):
        tracker = self.tracker
        if (
            self.relay is None
            and tracker.nothing_due(t)
            and (self.journal is None or not self.journal.mark_due(tracker, t))
        ):
            # Nothing can happen and nothing is to be journaled: not even the clock is
            # advanced (issue 20: the quiet tick was ~1 % of an idle board's CPU).
            return
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
            due = self.tracker.next_deadline()
        events += self.tracker.tick(t)
        self._after(t, events, None)

    def _after(self, t, events, button):
        if self.journal is not None:
            try:
                if self.journal.sync(self.tracker, t, events, button):
                    if self.log_file is not None:
                        # The session log on flash is never behind the journal: after a power
                        # cut it still explains the game the journal gives back.
                        self.log_file.flush()
                    self.journal_file.flush()
                    if self.compaction is None and journal.should_compact(
                        self.journal.written, self.compacted, self.journal_limit
                    ):
                        self._compact()
            except journal.JournalError as exc:
                self.warn("journal stopped: %s" % exc)
                self.journal = None
                self._abort_compaction()
        for event in events:
            self.emit(event)
            self._cue(event, t)
            if event["type"] == "enrolled":
                self._keep_set(event)
            self.standalone.note(event, t)
            if self.relay is not None:
                try:
                    self.relay.event(event)
                except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
                    self.report("relay", exc)
        if self.relay is not None:
            try:
                if button == "dispute":  # the players disagree: the director hears of it
                    self.relay.event({"type": "dispute", "code": "dispute"})
                self.relay.after(self.tracker.clock, t, events)  # the clocks, and who runs
            except Exception as exc:  # noqa: BLE001 (the relay never stops a game)
                self.report("relay", exc)
        self.standalone.after()
        if self.tracker.game.phase == "ended" and not self.saved:
            self.saved = True
            for text in self.store.save_sgf(self.number, self._write_sgf, self.scan_if_due):
                self.warn(text)

    def _compact(self):
        # Compacted a slice at a time by background(), between scans (issue 20: a burst must
        # not delay a scan by a period; read record by record, never whole). The records
        # written meanwhile go on into the old file and are copied after the compacted ones.
        from ingboard.records.journal_replay import Compactor  # dropped once done (issue 17)

        limit = self.journal.written
        out = self.store.new_journal()
        job = Compactor(None, out, limit)  # its reader: opened for each slice
        self.compaction = [job, None, out, limit, self.journal.records]

    def _compaction_step(self):
        try:
            self._compaction_slice()
        except Exception as exc:  # noqa: BLE001 (MemoryError, OSError: the journal stays)
            # A compaction that fails part way is never taken up again where it stopped (its
            # reader would go on from the middle of a record: a journal missing records). The
            # journal is left as a power cut there would leave it - the old one, or the new
            # one if it was already whole and switched in - and the next try waits until it
            # has doubled again (should_compact).
            self._abort_compaction()
            if self.journal is not None:
                self.compacted = self.journal.written
                if self.journal_file is None:  # closed for the switch
                    self.journal_file = self.store.reopen_journal()
                    self.journal.out = self.journal_file
            self.warn("journal compaction stopped: %s: %s" % (exc.__class__.__name__, exc))

    def _compaction_slice(self):
        job, _reader, out, limit, records = self.compaction
        # The journal is opened for each slice and closed after it: a littlefs file handle
        # keeps the file's blocks as they were when it was opened, and each record the game
        # appends meanwhile (through the other handle, flushed) moves the file's last block,
        # so the block an older handle still reads is free and soon another file's: littlefs
        # then reports a corrupt file system (OSError 84) or the handle reads another file's
        # bytes as the journal's (issue 35). Nothing is appended during a slice.
        reader = self.store.journal_reader()
        self.compaction[1] = reader
        reader.seek(job.offset)
        job.reading(reader)
        done = job.step(_COMPACT_SLICE)
        reader.close()
        self.compaction[1] = None
        if not done:
            return
        # The end: each file-system step is tens of ms of the RP2040 (a flash erase or the
        # littlefs metadata); in one piece they held up a scan by 209 ms on the twin (issue 20).
        # Nothing is appended meanwhile: only the game task appends, and this is the game task.
        cp = self.scan_if_due
        self.journal_file.close()
        self.journal_file = None  # until the switch (_compaction_step: a failure reopens it)
        cp()
        reader = self.store.journal_reader()  # opened again: it sees what was appended
        self.compaction[1] = reader
        reader.seek(limit)
        appended = 0
        chunk = reader.read(_COPY)
        while chunk:
            out.write(chunk)
            appended += len(chunk)
            cp()
            chunk = reader.read(_COPY)
        reader.close()
        out.close()
        cp()
        self.compaction = None
        gc_policy.drop("ingboard.records.journal_replay")
        self.journal_file = self.store.commit_journal()
        self.compacted = job.bytes + appended
        writer = self.journal
        writer.out = self.journal_file
        writer.records = job.records + writer.records - records
        writer.written = job.bytes + appended

    def _abort_compaction(self):
        if self.compaction is not None:
            if self.compaction[1] is not None:
                self.compaction[1].close()
            self.compaction[2].close()
            self.compaction = None
            gc_policy.drop("ingboard.records.journal_replay")

    def background(self):
        """What can wait for a quiet moment - the game task calls it once a period, after its
        queue: a slice of the journal's compaction while one runs, else in the pause after two
        passes one of the end's modules (gc_policy.EndPreload). (The heap is collected right
        after a scan: scan_task, gc_policy.)"""
        if self.compaction is not None and self.journal is not None:
            self._compaction_step()
        elif self.end_preload.left and self.tracker.game.phase == PAUSED and self._room():
            self.end_preload.step()  # gc_policy: the end's modules, one a slice

    def _room(self):
        # Right after a scan: most of a period before the next is due (an import is a piece of
        # up to ~35 ms of the RP2040).
        if self._scan_at is None:
            return True
        left = self.ticks_diff(self._scan_at, self.cpu_ticks()) * self.cpu_unit_us
        return left >= _ROOM_US

    # -- CPU accounting --------------------------------------------------------------------------

    def _spent(self, task, start):
        # Adds the time since `start` (a cpu_ticks() value) to a task's counter, less the scans
        # made meanwhile (scan_if_due: counted to the scan); small ints only. Returns the
        # cpu_ticks() it ended at.
        end = self.cpu_ticks()
        d = self.ticks_diff(end, start) - self._inline
        self._add(task, d)
        self._inline = 0
        if d > self._slice_max:
            self._slice_max = d
            self._slice_task = task
        return end

    def _add(self, task, d):
        if d > 0:
            cpu = self._cpu
            i = 2 * task
            d += cpu[i]
            while d >= CPU_BLOCK:
                d -= CPU_BLOCK
                cpu[i + 1] += 1
            cpu[i] = d

    def cpu_stats(self):
        """The CPU each task took since the start (or cpu_reset()): cpu_meter.stats."""
        return cpu_meter.stats(self)

    def cpu_reset(self):
        cpu_meter.reset(self)

    def cmd_mem(self, cmd):
        reply = gc_policy.heap_figures(self.scan_if_due)
        reply["type"] = "mem"
        return [reply]

    def _cue(self, event, t):
        buzzer = self.hw.get("buzzer")
        kind = event["type"]
        cue = None
        if kind == "clock":
            for name in ("B", "W"):
                side = event[name]
                before = self.last_clock.get(name)
                if side["forfeit"] and not (before and before["forfeit"]):
                    cue = cues.FORFEIT
                elif before is not None and side["penalty"] > before["penalty"]:
                    cue = cues.POINTS
                elif before is not None and side["period"] > before["period"]:
                    cue = cues.PERIOD
                self.last_clock[name] = side
        elif kind == "alert":
            cue = cues.BASIC_OVER  # one long tone: look at the board
        elif kind == "cue" and event["cue"] in _WARNING_CUES:
            cue = event["cue"]  # the timekeeper's warnings (Ing 1991 Art. 10), the countdown
        if cue is not None and buzzer is not None:
            freq, durations = cues.beeps(cue)
            pattern = []
            for i in range(len(durations)):
                pattern.append(freq if i % 2 == 0 else 0)
                pattern.append(durations[i])
            buzzer.play(tuple(pattern), t)

    # -- commands (protocol.py) -----------------------------------------------------------------

    def _input(self, kind, a, b=None):
        if not self.inputs.put((kind, self.now(), a, b)):
            raise ValueError("input queue full")

    def cmd_ping(self, cmd):
        return [{"type": "pong", "version": protocol.VERSION}]

    def cmd_state(self, cmd):
        game = self.tracker.game
        return [
            {
                "type": "state",
                "game": self.number,
                "phase": game.phase,
                "to_play": "B" if game.to_play == BLACK else "W",
                "plies": len(game.plies),
                "result": game.result,
                "dropped": self.inputs.dropped + self.outputs.dropped,
            }
        ]

    def cmd_new_game(self, cmd):
        # new_game() refuses what the tracker cannot play before anything changes.
        return [{"type": "ok", "cmd": "new-game", "game": self.new_game(cmd["config"])}]

    def cmd_button(self, cmd):
        self._input(_BUTTON, cmd["name"])
        return []

    # -- tasks ----------------------------------------------------------------------------------

    def _scan(self, start):
        # One scan at cpu time `start`, due at self._scan_at: grid -> classifier -> a scan
        # line when the classes changed. The next is due a period after this one was due (25
        # scans a second on average), or after it started when it was a period late or more.
        classifier = self.hw["classifier"]
        late = self.ticks_diff(start, self._scan_at)
        if late > self._scan_late:
            self._scan_late = late
            self._scan_late_at = self._last  # board time (ms) of the worst, to find its cause
            self._scan_late_task = self._slice_task if self._slice_max > late else _T_INLINE
        self._slice_max = 0
        self._slice_task = -1
        self._scans += 1
        self._add(_T_WALL, self.ticks_diff(start, self._cpu_mark))
        self._cpu_mark = start
        span = self.periods[0] * 1000 // self.cpu_unit_us
        self._scan_at = start + span - (late if 0 < late < span else 0)
        try:
            classifier.classify(self.hw["grid"].scan())
            classes = classifier.classes
            seen = self._seen
            if seen is None or len(seen) != len(classes):
                seen = self._seen = bytearray(len(classes))
                self.last_scan = None
            # Compared as bytes first (no allocation): the line is made only on a change.
            if self.last_scan is None or classes != seen:
                seen[:] = classes
                line = format_scan(classes, classifier.size)
                if line != self.last_scan:
                    if self.inputs.put((_SCAN, self.now(), line.split("/"), None)):
                        self.last_scan = line
                    else:
                        # The queue full (counted in inputs.dropped): the board as it is goes
                        # in with the next scan - a change is late, never lost.
                        self.last_scan = None
        except Exception as exc:  # noqa: BLE001 (a bad scan never ends the scan task)
            self.report("scan", exc)
        return self._spent(_T_SCAN, start)

    def scan_if_due(self):
        """A checkpoint inside long work (a burst of inputs, a face, the background): the
        scan, now, if it is due - so a burst never delays a scan by a period (issue 20). Its
        time counts to the scan task, not to the caller's."""
        if self._scan_at is None:
            return
        start = self.cpu_ticks()
        if self.ticks_diff(start, self._scan_at) < 0:
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
        self._inline = inline + self.ticks_diff(end, start)

    async def scan_task(self):
        # 25 Hz is 25 scans a second whatever a scan takes: each is due a period after the
        # last one was due (_scan); other tasks' checkpoints (scan_if_due) may make it first.
        clock = self.cpu_ticks
        unit = self.cpu_unit_us
        self._scan_at = clock()
        while not self.stopping:
            now = clock()
            wait = self.ticks_diff(self._scan_at, now)
            if wait <= 0:
                end = self._scan(now)
                if self.collector.after_scan(self._last):  # gc_policy: the most room there is
                    self._spent(_T_BACK, end)
                continue
            await self.sleep_ms((wait * unit + 999) // 1000)

    async def bowl_task(self):
        from ingboard.drivers.hx711 import SensorFault

        scales = self.hw.get("hx711") or {}
        period = self.periods[1]
        while not self.stopping:
            start = self.cpu_ticks()
            for c, color in (("B", BLACK), ("W", WHITE)):
                hx = scales.get(c)
                if hx is None:
                    continue
                t = self.now()
                try:
                    grams = hx.poll(t)
                except SensorFault as exc:
                    self.inputs.put((_FAULT, t, color, str(exc)))
                    continue
                if grams is not None and not plausible(grams):
                    # NaN, infinity, 100 kg: refused at the boundary as a fault (issue 19)
                    why = "reading %r g refused (not within +-%d g)" % (grams, MAX_READING_G)
                    self.inputs.put((_FAULT, t, color, why))
                    continue
                if grams is not None:
                    grams = int(grams * 10 + (0.5 if grams >= 0 else -0.5)) / 10
                    self.grams[c] = grams
                    self.inputs.put((_BOWL, t, color, grams))
            self._spent(_T_BOWLS, start)
            await self.sleep_ms(period)

    def _poll_keys(self, keys, t):
        # The game task decides what each press means (standalone.py: the clock, the pause,
        # or the open menu); presses counted at one poll go in the order they were made.
        if keys.poll(t):
            for i in keys.taken():
                self.inputs.put((_KEY, t, i, None))

    async def key_task(self):
        keys = self.hw.get("keys")
        buzzer = self.hw.get("buzzer")
        period = self.periods[2]
        while not self.stopping:
            start = self.cpu_ticks()
            t = self.now()
            if keys is not None:
                self._poll_keys(keys, t)
            if buzzer is not None:
                buzzer.update(t)
            self._spent(_T_KEYS, start)
            await self.sleep_ms(period)

    async def game_task(self):
        period = self.periods[3]
        while not self.stopping:
            start = self.cpu_ticks()
            item = self.inputs.get()
            while item is not None:
                try:
                    self.step(item)
                except Exception as exc:  # noqa: BLE001 (one input never ends the game task)
                    self.report("game", exc)
                self.scan_if_due()  # between two inputs of a burst
                item = self.inputs.get()
            try:
                self.tick(self.now())
                start = self._spent(_T_GAME, start)
                self.scan_if_due()
                self.background()  # between scans: nothing is waiting
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
            for name, color in (("B", BLACK), ("W", WHITE)):
                fb = displays.get(name)
                if fb is None:
                    continue
                try:
                    low = high = -1
                    self.scan_if_due()  # before the face's first piece too
                    for y, h in self.standalone.paint(fb, color, t):
                        if h and (low < 0 or y < low):
                            low = y
                        if h and y + h > high:
                            high = y + h
                        self.scan_if_due()
                        self._spent(_T_DISPLAY, start)
                        await self.sleep_ms(0)
                        start = clock()
                    if low < 0:
                        continue
                    if hasattr(fb, "show_pages"):
                        for page in range(low // 8, (high + 7) // 8):
                            fb.show_pages(page, page)
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

    def _write(self, link, message):
        # One json.dumps (fast, in C), written a slice at a time with the scan checkpoint
        # between (a long line - the count's plan, a `plies` reply - in one write held up a
        # scan by 71 ms at the end of a long game on the twin); if the heap has no block for
        # the line, it goes out in pieces through the link's fixed buffer (issue 20: at the end
        # of a long game no 2 KB block may be left). The pieces are made in Python: a reply
        # made that way took 70-480 ms of the RP2040 there, so they are only the fallback.
        try:
            data = commands.Protocol.line(message)
        except MemoryError:
            data = None
        if data is None:
            self._writer.send(link.write, message)
        elif len(data) <= _LINK_SLICE:
            link.write(data)
        else:
            sent = 0
            try:
                for i in range(0, len(data), _LINK_SLICE):
                    link.write(data[i : i + _LINK_SLICE])
                    sent += 1
                    self.scan_if_due()
            except Exception:
                if sent:
                    link.write(b"\n")  # a line cut short is ended: never glued to the next
                raise

    def _send(self, link, message):
        # An event (its errors reported, never raised).
        if link is None:
            return
        try:
            self._write(link, message)
        except Exception as exc:  # noqa: BLE001 (a message that cannot be written)
            if message.get("type") == "warning":  # no loop of warnings on warnings
                self.errors["link"] = self.errors.get("link", 0) + 1
            else:
                self.report("link", exc)

    def _reply(self, link, reply, cmd):
        # A reply to the host's command `cmd`; if it cannot be written, the host still gets an
        # answer - an error reply naming the command - instead of waiting for one that never
        # comes (issue 20).
        if link is None:
            return
        try:
            self._write(link, reply)
            return
        except Exception as exc:  # noqa: BLE001 (the host must get an answer)
            text = "reply lost: %s: %s" % (exc.__class__.__name__, exc)
        try:
            link.write(commands.Protocol.line(protocol.error(text, cmd)))
        except Exception as exc:  # noqa: BLE001 (a message that cannot be written)
            self.report("link", exc)

    def _send_queued(self, link):
        message = self.outputs.get()
        while message is not None:
            self._send(link, message)
            self.scan_if_due()  # a burst of events (the count's) is many writes
            message = self.outputs.get()

    async def link_task(self):
        link = self.hw.get("link")
        period = self.periods[2]
        while not self.stopping:
            start = self.cpu_ticks()
            if link is not None:
                line = link.readline()
                while line is not None:
                    if line.strip():
                        for reply in self.protocol.handle(line):
                            # A reply goes out at once, after what was queued before it: it is
                            # never dropped when a flood of events (a full board's alerts) has
                            # filled the queue - the host is waiting for it.
                            self._send_queued(link)
                            self._reply(link, reply, self.protocol.cmd)
                    line = link.readline()
            self._send_queued(link)
            self._spent(_T_LINK, start)
            await self.sleep_ms(period)

    def task_periods(self):
        """The period in ms of each coroutine of tasks(), in the same order."""
        p = self.periods
        return (p[0], p[1], p[2], p[3], p[4], p[2])

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
            await self.sleep_ms(self.periods[3])
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


def parse_line(line):
    """A host line as JSON (for tests and tools)."""
    return json.loads(line)

"""The game's records on flash, kept by the app: a game started (its session log, its journal,
the set's weights from an earlier enrolment) and finished (the SGF saved, the files closed),
the game of the journal resumed at boot after a power cut, each input written to the session
log, and the journal compacted a slice at a time while the game goes on - every file-system
step with the scan checkpoint between, since each takes tens of ms on the Pico. A mixin of App
(app.py); the formats are records/'s.
"""

import json

from micropython import const

from ingboard import gc_policy
from ingboard.app.inputs import BOWL, BUTTON, PRESS, SCAN
from ingboard.records import journal
from ingboard.records.session import SessionWriter
from ingboard.tracking.tracker import Tracker

DEFAULT_CONFIG = {"size": 19, "rules": "ing1991", "komi": 8}
_FULL_SET = const(180)  # stones a side of the full 19x19 set (Ing 1991 Art. 12)


def _stones_a_side(size):
    # Ing 1991 Art. 12 "Number of stones": half the number of points on the board minus one.
    return (size * size - 1) // 2


JOURNAL_LIMIT = const(64 * 1024)
# Journal bytes compacted per game-task period: ~16 ms of the RP2040's time (512 bytes were
# ~33 ms on the twin, issue 32), and a few KB of garbage (a merged record of 2 KB decodes into
# several KB of lists).
_COMPACT_SLICE = const(256)
_COPY = const(512)


class Recorder:
    """The game in progress and its records (a mixin: uses the app's `store`, `hw`, `relay`,
    `standalone`, `scan_if_due()`, `warn()`, `report()`, `_restart_time()`, and the inputs'
    `_forget_inputs()`)."""

    def _init_recorder(self, mark_ms, journal_limit):
        self.mark_ms = mark_ms
        self.journal_limit = journal_limit
        self.compacted = 0  # bytes of the journal after its last compaction
        self.compaction = None  # [Compactor, reader, new file, limit, records] while it runs
        self.compaction_due = False  # the journal has grown enough: background() starts it
        self.tracker = None
        self.number = 0
        self.log = None
        self.log_file = None
        self.journal = None
        self.journal_file = None
        self.saved = False

    def _journal_after(self, t, events, button):
        # The journal synced after a tracker call (the session log flushed with it), and its
        # compaction started when it has grown enough.
        try:
            if self.journal.sync(self.tracker, t, events, button):
                self.scan_if_due()  # the record made (in RAM); then the files are written
                if self.log_file is not None:
                    # The session log on flash is never behind the journal: after a power
                    # cut it still explains the game the journal gives back.
                    self.log_file.flush()
                self.journal_file.flush()
                if self.compaction is None and journal.should_compact(
                    self.journal.written, self.compacted, self.journal_limit
                ):
                    # Started by background() where a scan period has room: its code's
                    # import and the new file's creation were, here in the middle of a ply's
                    # work, ~50 ms of the RP2040 in one piece (twin; issue 32).
                    self.compaction_due = True
        except journal.JournalError as exc:
            self.warn("journal stopped: %s" % exc)
            self.journal = None
            self._abort_compaction()

    def _save_if_ended(self):
        if self.tracker.game.phase == "ended" and not self.saved:
            self.saved = True
            for text in self.store.save_sgf(self.number, self._write_sgf, self.scan_if_due):
                self.warn(text)

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
        self.scan_if_due()  # (a file read: each file-system step is a piece of its own)
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
        from ingboard.config_check import check_config

        check_config(config)
        self.scan_if_due()
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
        # The last game's end (count, fill-in plan, SGF writer, result face) is not this one's:
        # its code goes (gc_policy.drop_end), and where the code runs in place the pause of
        # this game preloads it again.
        gc_policy.drop_end()
        self.end_preload = gc_policy.end_preload()
        self.number = self.store.next_number()
        self.scan_if_due()
        self._restart_time(0)
        self._forget_inputs()  # inputs.py: queued in the old game's time
        self.compacted = 0
        self.log_file = self.store.open_session(self.number)
        self.scan_if_due()
        self.log = SessionWriter(self.log_file)
        self.log.config(0, config)
        self.scan_if_due()
        self.journal_file = self.store.open_journal(b"")
        self.scan_if_due()
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
            gc_policy.drop("ingboard.tracking.tracker_restore")
            gc_policy.drop("ingboard.bowls.bowls_restore")
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

    def _record(self, kind, t, a, b=None):
        if self.log is not None:
            if kind == SCAN:
                self.log.scan(t, a, b)  # b: the rows' line as the scan task made it
            elif kind == PRESS:
                self.log.press(t, a)
            elif kind == BUTTON:
                self.log.button(t, a)
            elif kind == BOWL:
                self.log.bowl(t, a, b)
        elif self.log_file is not None:
            self._record_line(kind, t, a, b)

    def _record_line(self, kind, t, a, b):
        # No session writer: the record's line written as it is (its own function, so that
        # _record's frame stays within 11 words: it is called at every input).
        from ingboard.records.session import Record

        names = {SCAN: "scan", PRESS: "press", BUTTON: "button", BOWL: "bowl"}
        payload = (a, b) if kind == BOWL else a
        self.log_file.write(Record(t, names[kind], payload).text() + "\n")

    def _compact(self):
        # Compacted a slice at a time by background(), between scans (issue 20: a burst must
        # not delay a scan by a period; read record by record, never whole). The records
        # written meanwhile go on into the old file and are copied after the compacted ones.
        self.compaction_due = False
        from ingboard.records.journal_replay import Compactor  # dropped once done (issue 17)

        self.scan_if_due()  # (the import and the file's creation: a piece each)
        limit = self.journal.written
        out = self.store.new_journal()
        job = Compactor(None, out, limit)  # its reader: opened for each slice
        self.compaction = [job, None, out, limit, self.journal.records]

    def _compaction_step(self):
        try:
            if self.compaction is None:
                self._compact()  # its first step: the code and the new file
                return
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
        # Each file-system step a piece of its own (the open, the seek into a long file, the
        # records read and written, the close: a slice in one piece was 110-135 ms of the twin
        # late in a long game); the scans between append nothing (only the game task appends,
        # and this is the game task).
        cp = self.scan_if_due
        done = False
        if not job.writing():
            reader = self.store.journal_reader()
            self.compaction[1] = reader
            cp()
            reader.seek(job.offset)
            cp()
            job.reading(reader)
            done = job.step(_COMPACT_SLICE)
            cp()
            reader.close()
            self.compaction[1] = None
        while job.writing():
            # What the step made (a merged record: appending ~2 KB to a littlefs file in one
            # piece was up to ~60 ms of the RP2040), written a piece at a time, the checkpoint
            # between: in this slice, so that the compaction takes no more periods.
            cp()
            done = job.step(_COMPACT_SLICE)
        if not done:
            return
        cp()
        # The end: each file-system step is tens of ms of the RP2040 (a flash erase or the
        # littlefs metadata); in one piece they held up a scan by 209 ms on the twin (issue 20).
        # Nothing is appended meanwhile: only the game task appends, and this is the game task.
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
        self.compaction_due = False
        if self.compaction is not None:
            if self.compaction[1] is not None:
                self.compaction[1].close()
            self.compaction[2].close()
            self.compaction = None
            gc_policy.drop("ingboard.records.journal_replay")

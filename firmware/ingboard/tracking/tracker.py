"""From classified snapshots of the physical board to an exact game record.

The tracker keeps two things apart (ARCHITECTURE "The physical board is not the game"): the
*game* (game.py: what the rules say the position is) and the *board* (the last scan: what the
sensors see). It commits a move only when the difference is explained, raises an alert when it
is not, and never adopts the physical board as the game.

Inputs, each with the board time `t` in ms (never decreasing): `scan(t, rows)` (rows top line
first, '.', 'B', 'W', '?'), `press(t, color)`, `button(t, name)`, `bowl(t, color, grams)`,
`tick(t)`. Each returns a list of events (dicts with "t" and "type", the schema of
`ingboard track`, session-log spec). `next_deadline()` tells when something will happen with
no new input (a stone becoming stable, a clock period), so a replay or the device loop can call
`tick()` exactly then.

How a scan is read (per point; '?' points are unknown and change nothing):
- a stone where the game has none: a *new stone*. When the player to move has exactly one new
  stone, stable for `settle_ms` (default 100 ms of board time, not a count of scans), at a legal
  point, it is committed as that player's move. A single flicker (one scan) never lasts that
  long. At an illegal point it raises the rule's alert (occupied, suicide, ko, superko,
  recycle) and the game is unchanged until the stone is taken back.
- a new stone of the player not to move: `wrong-colour`; two or more of the player to move:
  `two-stones` (Ing 1991 Art. 9: two stones on the board signal resignation; the player
  resigns with the button, the tracker never decides it).
- a stone missing where the game has one: a stone *captured but not yet lifted* is expected to
  go (lifted one by one, in any order, over seconds, even after the opponent's next stone:
  `remove-captured` reminds when the next move comes while some remain); any other missing
  stone is `stone-missing`, or `stone-moved` when a new stone of the same colour stands on a
  neighbouring point. During the pause after two passes, missing stones are dead stones being
  taken away (a whole chain gone = removed in the game).
- the clock press: completes or confirms the presser's move; with no new stone and no unknown
  points it is a pass (per the ruleset's pass semantics); with unknown points it waits (up to
  `press_wait_ms`) for the board to become readable.
Alerts are raised when a condition has held for `alert_ms` and once per condition; they are
resolved when the board is put right. Nothing is ever resynchronised silently.
"""

from array import array

from ingrules.board import BLACK, WHITE
from ingrules.chunked import ChunkedText
from ingrules.game import ENDED, PAUSED, Game, IllegalMove
from ingrules.rulesets import komi_warning
from micropython import const

from ingboard.bowls.bowls import Bowls
from ingboard.clock.clock import Clock
from ingboard.tracking.board_alerts import BoardAlerts
from ingboard.tracking.board_view import UNKNOWN, Sensing
from ingboard.tracking.bowl_readings import BowlReadings
from ingboard.tracking.displacement import Displacement
from ingboard.tracking.game_end import GameEnd
from ingboard.tracking.notes import Notes
from ingboard.tracking.plays import _DIFFER, Plays
from ingboard.tracking.presses import Presses
from ingboard.tracking.sensor_faults import SensorFaults
from ingboard.tracking.timekeeper import Timekeeper
from ingboard.tracking.tracker_state import TrackerState

_NO_EVENTS = ()

SETTLE_MS = const(100)
ALERT_MS = const(400)
_FAR = const(0x3FFFFFFF)
_RESUMED = const(-2)  # unordered_t until the first scan after a resume
# The config's `retraction`: what a changed play costs (out_of_turn.py).
RETRACTION_SETTINGS = ("record", "forfeit")


def _no_checkpoint():
    pass


# A str compares equal to a buffer of its characters where it is one (MicroPython): a scan's
# row is then compared with the last line's part in place (no bytes of the row, no copy of the
# part: ~50 bytes a row, 19 rows a scan line, issue 32).
_STR_IS_BUFFER = memoryview(b".") == "."


def _same_row(view, k, m, row):
    # Whether `row` (str or bytes) reads as the last line's m characters at k (view: of it).
    if _STR_IS_BUFFER or not isinstance(row, str):
        return view[k : k + m] == row
    return view[k : k + m] == row.encode()


# One concept per module; the Tracker is their sum. Each mixin creates its own attributes in its
# `_init_<concept>()`, called from __init__ below, and is the only file that assigns them
# (others read them); tracker_state.py puts every concept's state back after a power cut.
class Tracker(
    Sensing,
    SensorFaults,
    Plays,
    Presses,
    Displacement,
    BoardAlerts,
    Timekeeper,
    GameEnd,
    BowlReadings,
    TrackerState,
):
    """Tracks one game from its session-log config (see session-log.md `config`)."""

    def __init__(self, config, settle_ms=SETTLE_MS, alert_ms=ALERT_MS, checkpoint=None):
        # `checkpoint`: see self.checkpoint below; also called between the parts of this
        # construction (~64 ms of the RP2040 for 19x19 in one piece held up a scan, issue 20).
        cp = checkpoint or _no_checkpoint
        self.config = config
        size = config["size"]
        self.game = Game(
            size,
            config["rules"],
            komi=config.get("komi"),
            handicap=config.get("handicap", 0),
            handicap_style=config.get("handicap_style"),
            compensation=config.get("handicap_compensation"),
        )
        time = config.get("time")
        if (
            self.game.rules.late_forfeit
            and isinstance(time, dict)
            and "basic_s" in time
            and "late_forfeit" not in time
        ):
            time = dict(time, late_forfeit=True)  # the ruleset's default (Ing 1996 Rule 10)
        cp()
        self.clock = Clock(time)
        cp()
        # Lateness (Ing 1991 Art. 8, Ing 1996 Rule 10): with `round_start_ms` in the config,
        # each player presses their own key on arrival (or their first stone is their arrival);
        # the clock starts once both are there, each late player's basic time reduced.
        self.round_start = config.get("round_start_ms")
        self.arrived = [True, True, True] if self.round_start is None else [True, False, False]
        rules = self.game.rules
        # The bowls' arithmetic knows where prisoners and pass stones go (bowls.py PRISONERS,
        # PASS_STONES): the ruleset's default, or the config's.
        self.bowls = Bowls(
            config.get("bowls"),
            size,
            config.get("prisoners", rules.prisoners) == "bowl",
            config.get("pass_stones", "prisoner" if rules.pass_stones else rules.pass_signal),
        )
        cp()
        self.settle_ms = settle_ms
        self.alert_ms = alert_ms
        board = self.game.board
        n = len(board.cells)
        # Each concept creates its own state (in its own file): a reader looks up an attribute
        # where its _init_ is, and only that file changes it (tests/test_architecture.py).
        self._init_board_view(n)
        cp()  # (each of these parts allocates KB: a collection may fall in any of them)
        self._rows_version = -1  # scan(): _rows is the last line while seen_version is this
        self._dues = []  # next_deadline's cache of the board's deadlines (see _board_dues)
        self._dues_seen = -1
        self._dues_cells = bytearray(n)
        self._init_sensor_faults(n)
        cp()
        self._init_plays()
        self.scanned = False  # the first scan has been read
        # Board time of the first scan after a resume (restore_state: _RESUMED until then):
        # what it shows changed while the board was off, in an order nobody saw (_slipped).
        self.unordered_t = -1
        self._init_displacement()
        self._init_presses()
        retraction = config.get("retraction", "record")
        if retraction not in RETRACTION_SETTINGS:
            raise ValueError(
                "retraction must be one of %s, not %r"
                % (", ".join(RETRACTION_SETTINGS), retraction)
            )
        # Scan position -> padded board index, top line first (2 bytes a point: a list took
        # twice the heap of the Pico for as long as the game lasts).
        cp()
        order = array("H", range(size * size))
        k = 0
        for i in range(size):
            row = size - 1 - i
            for col in range(size):
                order[k] = board.index(col, row)
                k += 1
        self.order = order
        self._rows = bytearray(size * size)  # the last scan line's characters (scan)
        cp()
        self.started = False
        self._init_board_alerts()
        self.outside = ()  # a smaller game: the stones outside its region in the last scan
        self._init_timekeeper()
        # SGF text of each ply's properties (BL/WL...), by game.plies; in fixed chunks.
        self.ply_props = ChunkedText()
        self.notes = Notes()  # SGF comments: alerts, retractions, accepted shifts
        # Called between the slices of long work (a press, the count of a full board): the
        # app's App.scan_if_due, so that the end of a long game never holds up a scan (issue 20).
        self.checkpoint = checkpoint
        self.due = 0  # board time before which nothing happens without new input
        self.reading_only = False  # the last input was a bowl reading that changed no state()
        self._init_game_end()
        self.checked_before = False  # the 180 check before the game was made (_check_before)
        self.last_t = 0

    def scan(self, t, rows):
        """A classified snapshot as rows of '.', 'B', 'W', '?' (top line first): the game's
        size, or the full 19x19 grid's for a smaller game (its region, region.py)."""
        outside = None
        if len(rows) != self.game.board.size:
            from ingboard.tracking.region import region_scan

            rows, outside, self.outside = region_scan(self, t, rows)
        changed = False
        k = 0
        # Only the rows that differ from the last line are read (a row's walk is ~0.6 ms of the
        # RP2040); that line is kept in a buffer made once (no row strings kept in the heap),
        # and is what `seen` holds while seen_version is _rows_version.
        last, valid = self._rows, self._rows_version == self.seen_version
        self._rows_version = -1  # until the whole line is read (an error part way: read all)
        fits = True  # (a row longer than the board's: read, not kept)
        view = memoryview(last)
        for row in rows:
            m = len(row)
            if not valid or k + m > len(last) or not _same_row(view, k, m, row):
                data = row.encode() if isinstance(row, str) else row
                if self._read(t, data, k):
                    changed = True
                if k + len(data) <= len(last):
                    last[k : k + len(data)] = data
                else:
                    fits = False
            k += m
        if fits:
            self._rows_version = self.seen_version
        if outside:
            return outside + list(self._scanned(t, changed))
        return self._scanned(t, changed)

    def scan_codes(self, t, codes):
        """The same from the classifier's bytearray (scan order, one byte per point): the
        device's path, which allocates nothing when the board has not changed."""
        return self._scanned(t, self._read(t, codes, 0))

    def _scanned(self, t, changed):
        if not self.scanned:
            self._first_scan()
        if self.unordered_t == _RESUMED:
            self.unordered_t = t
        if not changed and self._quiet(t):
            return _NO_EVENTS  # nothing new and nothing due: the steady state
        return self._done(self._start(t) + self._evaluate(t))

    def _first_scan(self):
        self.scanned = True
        # Stones already on the board when the game starts are no one's move (stone-extra):
        # a stone left from the last game, or a sensor reading as one.
        seen = self.seen
        cells = self.game.board.cells
        for p in self.order:
            v = seen[p]
            if v != UNKNOWN and v != 0 and v != cells[p]:
                self.extra[p] = True

    def tick(self, t):
        if self._quiet(t):
            return _NO_EVENTS
        return self._done(self._start(t) + self._evaluate(t))

    def quiet_tick(self, t):
        """tick(t) when nothing can happen before the next deadline: True, the clock kept
        current and nothing else changed (no event, nothing the journal keeps); False and
        nothing done otherwise (call tick(t)). The device app's idle path (issue 20)."""
        return self._quiet(t)

    def nothing_due(self, t):
        """True when tick(t) could only bring the clock up to t: the game started, t before
        the next deadline, no press kept. Looks only (the app's game task skips such a tick
        unless the journal's mark is due - App.tick makes this test in line: keep them in
        step; every look at the clock - a face, the SGF - gives its own time)."""
        return self.started and self.last_t <= t < self.due and not self.press_pending

    def _quiet(self, t):
        # Nothing can happen before self.due: keep the clock current and allocate nothing.
        if not self.started or t >= self.due or self.press_pending:
            return False
        if t < self.last_t:
            raise ValueError("time went backwards: %d after %d" % (t, self.last_t))
        self.last_t = t
        self.clock.advance(t)  # no event before self.due, so nothing to report
        return True

    def _done(self, events):
        self.reading_only = False
        if self.clock_behind:
            events = events + self._catch_up_press()  # timekeeper.py
        # The next instant anything can happen without new input (see next_deadline).
        self._slice()
        due = self.next_deadline()
        self.due = _FAR if due is None else due
        return events

    def press(self, t, color):
        return self._done(self._press(t, color))

    def button(self, t, name):
        return self._done(self._button(t, name))

    def _button(self, t, name):
        events = self._start(t) + self._evaluate(t)
        game = self.game
        try:
            if name == "resign-B" or name == "resign-W":
                game.resign(BLACK if name == "resign-B" else WHITE)
                return events + self._ended(t)
            if name == "agree":
                if game.phase != PAUSED:
                    game.agree()  # raises: agreement only in the pause
                return events + self._agree(t)  # game_end.py: once the dead stones are off
            if name == "dispute":
                game.dispute()
                return events + self._resumed(t)
            if name == "pause":
                return events + self._clock_events(t, self.clock.pause(t)) + [self._ev(t, "pause")]
            if name == "resume":
                return events + self._resumed(t)
            if name == "undo":
                return events + self._undo(t)
            if name == "accept-shift":
                return events + self._accept_shift(t)
            if name == "enrol":
                return events + self._enrol(t)
        except IllegalMove as exc:
            return events + [self._alert_event(t, "not-your-turn", [], str(exc))]
        return events  # new-game: handled by the app, which starts a new Tracker

    def bowl(self, t, color, grams):
        if self._before_due(t):
            return self._reading(t, color, grams)
        return self._done(self._bowl(t, color, grams))

    def _before_due(self, t):
        # In the game, t before anything falls due: no clock event, deadline or kept press's
        # catch-up to make first (bowl(), bowl_quiet()).
        return (
            self.started
            and self.last_t <= t < self.due
            and self.game.phase != ENDED
            and not self.clock_behind
        )

    def _reading(self, t, color, grams):
        # A reading in the game with nothing due before it: the most frequent input (a stone
        # taken, a still bowl evaluated again). Only the bowls can change: no clock event or
        # forfeit falls before self.due and no deadline depends on the bowls, so the clock is
        # brought to t without looking for events (the journal snapshots it as of t) and
        # self.due stands (issue 20). `reading_only`: nothing of state() changed.
        self.last_t = t
        self.clock.advance(t)  # nothing to report before self.due
        events = self._reading_events(t, color, grams)  # () when nothing happened
        self.reading_only = not events
        return events

    def _slice(self):
        # A checkpoint between the parts of one long input (a press at the end of a long game
        # took ~80 ms of the RP2040's time in one piece, issue 20): the app's scan runs if it
        # is due. It only queues inputs, so the tracker is never entered again meanwhile.
        if self.checkpoint is not None:
            self.checkpoint()

    def _bowl(self, t, color, grams):
        events = self._start(t)
        if t >= self.due:
            events += self._evaluate(t)  # a stone may have become stable at this very instant
        if self.game.phase == ENDED:
            if not self.filled and self.fill_target and self.bowls.settled():
                events += self._after_end(t)  # the after-count check waited for the bowls
            events += self._put_away(t)
        events += self._reading_events(t, color, grams)  # (a tuple when empty: in place)
        return events

    def take(self, record):
        """One session-log record other than `config` (session.Record) at its own time; the
        caller has stepped tick() to the deadlines before it. Returns its events."""
        kind = record.kind
        t = record.t_ms
        if kind == "scan":
            return self.scan(t, record.payload)
        if kind == "press":
            return self.press(t, record.payload)
        if kind == "button":
            return self.button(t, record.payload)
        if kind == "bowl":
            return self.bowl(t, record.payload[0], record.payload[1])
        if kind == "lid":
            return self.lid(t, record.payload[0], record.payload[1])
        return _NO_EVENTS

    def next_deadline(self):
        """Board time at which tick() may produce something, or None."""
        best = _FAR
        last_t = self.last_t
        if (
            self.press_pending
            or self.agree_pending
            or (self.game.phase == ENDED and not self.put_away)
        ):
            # A kept press (or agreement) is judged once the board has been still for the
            # settle time; after the end, the fill-in and put-away checks look again once the
            # board is still (Ing 1991 Art. 9 "Counting" (3): the check after putting the
            # stones away always comes, even when the last stones lifted were fill-in stones -
            # points the game holds empty, where the sensors and the game agree again).
            since = self.since
            for p in self.order:
                due = since[p] + self.settle_ms
                if due > last_t and due < best:
                    best = due
        for due in self._board_dues():
            if due > last_t and due < best:
                best = due
        if self.fault_due > self.last_t and self.fault_due < best:
            best = self.fault_due
        clock_next = self.clock.next_event_ms()
        if clock_next is not None and clock_next < best:
            best = clock_next
        if self.round_start is not None and self.game.phase != ENDED:
            for color in (BLACK, WHITE):
                due = self._no_show_at(color)  # timekeeper.py
                if due is not None and due < best:
                    best = due
        return None if best == _FAR else best

    def _board_dues(self):
        # When each point where the sensors differ from the game becomes stable (settle_ms) or
        # alert-worthy (alert_ms). Issue 20: this walk over every point cost ~9 ms of the
        # RP2040's time after each input - a bowl reading, a tick - so it is made again only
        # when the sensors (seen_version) or the game's stones (compared in C) changed.
        cells = self.game.board.cells
        if self._dues_seen == self.seen_version and self._dues_cells == cells:
            return self._dues
        dues = self._dues
        dues.clear()  # refilled in place
        seen = self.seen
        since = self.since
        order = self.order
        n = len(order)
        # Where there is native code, only the points read otherwise than the game are visited
        # (~1.8 ms; no point left out: _no_faulty), else every point (plays._differences).
        differ = _DIFFER[0]
        none = self._no_faulty
        k = 0 if differ is None else differ(order, seen, cells, none, 0)
        while k < n:
            p = order[k]
            k = k + 1 if differ is None else differ(order, seen, cells, none, k + 1)
            v = seen[p]
            if v != UNKNOWN and v != cells[p]:
                dues.append(since[p] + self.settle_ms)
                dues.append(since[p] + self.alert_ms)
        self._dues_seen = self.seen_version
        self._dues_cells[:] = cells
        return dues

    def _start(self, t):
        if t < self.last_t:
            raise ValueError("time went backwards: %d after %d" % (t, self.last_t))
        self.last_t = t
        events = []
        if not self.started:
            self.started = True
            if self.round_start is None:
                self.clock.start(t, self.game.to_play)
            game = self.game
            warning = komi_warning(game.rules, game.komi, game.compensation)
            if warning:
                events.append(self._alert_event(t, "odd-komi", [], warning))
        # Step to each clock event's own instant, so its state is logged as it was then.
        events += self._catch_up(t)  # timekeeper.py
        if self.round_start is not None and not (self.arrived[BLACK] and self.arrived[WHITE]):
            events += self._no_show(t)  # timekeeper.py
        return events

    def _before_check(self, t):
        # Ing 1991 Art. 9 custom 1: verify 180 each before the first move - once, when both
        # bowls have settled or when the first stone is on the board (plays.py).
        self.checked_before = True
        return self._bowls_event(t, "before")

    def _note(self, text):
        """A comment in the SGF at the current ply (retractions, two moves, accepted shifts)."""
        self.notes.add(len(self.game.plies), text)

    def _ev(self, t, kind):
        return {"t": t, "type": kind}

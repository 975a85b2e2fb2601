"""The game clock: both players' time under one time system, started, switched by the players'
moves, paused, held at a press the board cannot judge yet, and put back for an undo. Pure
logic: nothing here reads a clock; every call that depends on time takes `now_ms`, an integer
of milliseconds that never decreases (the app converts `ticks_ms()` in one place). The time
systems, their settings and the period list are time_systems.py's (`TimeSystem`); the Ing
penalty points are ing_penalty.py's (`IngPenalty`); `Clock` is one object built on both.

Lateness (Ing 1991 Art. 8, Ing 1996 Rule 10): twice the lateness is deducted from the late
player's basic time (never below zero).

API (colours are board.BLACK / board.WHITE, or "B" / "W"):

    clock = Clock(config["time"])
    clock.apply_lateness(color, round_start_ms, arrival_ms) -> events   # before start()
    clock.start(now_ms, color_to_move)
    clock.advance(now_ms) -> events        # (alias tick) call often, e.g. every refresh
    clock.moved(now_ms, color) -> events   # the tracker accepted color's move or pass
    clock.pause(now_ms) / clock.resume(now_ms) -> events   # SET, two passes, counting
    clock.hold(now_ms) -> events; clock.unhold()  # a press kept until the board is readable
    snap = clock.snapshot(); clock.restore(snap, now_ms)   # undo, journal
    clock.state(now_ms) -> the session log's `clock` event dict (no side effects)
    clock.player(color, now_ms) -> (main_ms, period, period_ms, stones_left, penalty, forfeit)
    clock.next_event_ms() -> instant of the next event, or None
    clock.penalty(color), clock.net_penalty(), clock.penalty_stones(), clock.moves(color)
    clock.loser -> colour that lost on time, or 0

Events are tuples (at_ms, kind, color, value), in time order; at_ms is the exact instant.
(kind, color, value) is one of:
- ("period", color, k): color entered overtime period k (Canadian: started block k)
- ("penalty", color, points): color was charged; points = color's total so far
- ("forfeit", color, 0): color lost on time; the clock stops (the game records the end)
- ("late", color, deducted_ms): lateness deducted from color's basic time
- ("pause", 0, 0) / ("resume", 0, 0): the clock stopped / started again
- ("cue", color, (cue_id, n)): a cue of cues.py (beep / voice)
The tracker logs a session-log `clock` event after every event but "cue". `state(now_ms)` needs
now_ms >= the last time given; to log the state at each event's own instant, step the clock with
`advance(next_event_ms())` while that is <= the log line's time (see test_clock.py).

A press kept until the board can be judged (issue 14: a hand over the board at the press):
`hold(press_ms)` charges the running player up to the press and then nobody (running() is
false, no event is due); once the press is judged, `unhold()` and either `moved(press_ms, c)` -
the switch as of the press, the opponent's time runs from it - or nothing: the presser's time
then runs on from the press (their press switched nothing). Then `advance(now)` as usual.

Undo of an accepted retraction: before `moved(now, c)` take `advance(now)` then `snapshot()`;
`restore(snapshot, now_ms)` puts both players' time, periods and penalties back to that instant
and the clock runs again from now_ms for the player to move. A snapshot is a list of small ints
(JSON-safe, for the journal).
"""

from ingrules.board import BLACK, WHITE
from micropython import const

from ingboard.clock.ing_penalty import IngPenalty
from ingboard.clock.time_systems import (
    EV_LATE,
    EV_PAUSE,
    EV_RESUME,
    TimeSystem,
    check_time,
    colour,
)

_NO_EVENTS = ()
_SNAPSHOT_VERSION = const(1)
# A player's numbers: time_systems.py's layout (its _MAIN...; tests/firmware/test_clock.py
# checks they are the same), kept here as consts that fold away on MicroPython.
_MAIN = const(0)
_PERIOD = const(1)
_LEFT = const(2)
_STONES = const(3)
_POINTS = const(4)
_FORFEIT = const(5)
_MOVES = const(6)
_BASE = const(8)
_SIZE = const(9)


def _name(color):
    return "B" if color == BLACK else "W"


def _numbers(p):
    # Clock.player's tuple of a player's numbers.
    return p[_MAIN], p[_PERIOD], p[_LEFT], p[_STONES], p[_POINTS], p[_FORFEIT]


class Clock(TimeSystem, IngPenalty):
    """Both players' time under one time system; see the module docstring."""

    def __init__(self, time=None):
        self._init_time_system(time)
        self._players = (self._fresh(), self._fresh())
        self.turn = 0  # colour whose clock runs (or would run when resumed)
        self.started = False
        self.paused = False
        self.loser = 0  # colour that lost on time
        self.held = False  # a press waits to be judged: nobody is charged (hold())
        self._since = 0
        self._scratch = []  # advance() collects events here (no allocation when none)

    # -- queries -------------------------------------------------------------------------------

    def running(self):
        """True while a player's time is being used."""
        return (
            self.started and not self.paused and not self.held and not self.loser and self._timed
        )

    def moves(self, color):
        """Moves (board and pass plays) color has made on this clock."""
        return self._players[colour(color) - 1][_MOVES]

    def state(self, now_ms):
        """The session log's `clock` event dict at now_ms (nothing changes)."""
        players = self._players
        if self.running() and now_ms != self._since:
            keep = self.snapshot()
            since = self._since
            self.advance(now_ms)
            players = (list(self._players[0]), list(self._players[1]))
            self.restore(keep, since)
        out = {}
        for color in (BLACK, WHITE):
            p = players[color - 1]
            out[_name(color)] = {
                "main_ms": p[_MAIN],
                "period": p[_PERIOD],
                "period_ms": p[_LEFT],
                "penalty": p[_POINTS],
                "forfeit": bool(p[_FORFEIT]),
            }
        return out

    def player(self, color, now_ms=None):
        """One player's numbers at now_ms (None: as of the last call), for displays and SGF:
        (main_ms, period, period_ms, stones_left, penalty, forfeit). Nothing changes."""
        c = colour(color)
        p = self._players[c - 1]
        if now_ms is not None and self.running() and self.turn == c and now_ms != self._since:
            return self._running(p, now_ms)
        return _numbers(p)

    def _running(self, p, now_ms):
        # player()'s numbers of the running player (p) at now_ms: as advance(now_ms) would
        # charge them. While no limit falls before now_ms - nearly always: a face asks every
        # second - that is the time running out of the span it is in, and nothing else that
        # player() gives changes (a warning's cue only marks it given): those numbers are made
        # at once, without the copy and the charge of _charged (~0.4 KB allocated a call on
        # the RP2040, the idle board's collections: issue 32). In a frame MicroPython keeps on
        # the C stack (drivers/keys.py says why).
        check_time(now_ms)
        if now_ms <= self._since:
            return _numbers(p)
        used = now_ms - self._since
        if p[_FORFEIT] or used >= (p[_LEFT] if p[_PERIOD] else p[_MAIN]) + (0 if self._at else 1):
            return self._charged(self.turn, p, now_ms)
        if p[_PERIOD]:
            return p[_MAIN], p[_PERIOD], p[_LEFT] - used, p[_STONES], p[_POINTS], p[_FORFEIT]
        return p[_MAIN] - used, p[_PERIOD], p[_LEFT], p[_STONES], p[_POINTS], p[_FORFEIT]

    def _charged(self, c, p, now_ms):
        # _running()'s numbers when a limit falls before now_ms: charged as advance(now_ms)
        # would, on a copy (a face asks every second: snapshot() and restore() took ~4 ms of
        # the RP2040's time, issue 20).
        players = self._players
        loser = self.loser
        work = list(p)
        self._players = (work, players[1]) if c == 1 else (players[0], work)
        try:
            self._consume(c, self._since, now_ms, [])
        finally:
            self._players = players
            self.loser = loser
        return _numbers(work)

    def next_event_ms(self):
        """The instant of the next event advance() will report (a period, penalty, forfeit or
        cue of the running player), or None when no clock runs. The tracker can step the clock
        to each such instant to log the exact `state()` there; the app can sleep until it."""
        if not self.running():
            return None
        return self._next_crossing(self._players[self.turn - 1], self._since)

    # -- control -------------------------------------------------------------------------------

    def apply_lateness(self, color, round_start_ms, arrival_ms):
        """Deduct twice the lateness from color's basic time; call before start().

        Ing 1991 Art. 8 "Lateness": "twice the amount of time by which he is late is deducted
        from his basic time limit". With late_forfeit (Ing 1996 Rule 10) lateness of more than
        1/6 of the basic time forfeits.
        """
        c = colour(color)
        if self.started:
            raise ValueError("lateness must be applied before the clock starts")
        if not isinstance(round_start_ms, int) or not isinstance(arrival_ms, int):
            raise ValueError("round_start_ms and arrival_ms must be integers (ms)")
        late = arrival_ms - round_start_ms
        if late <= 0 or not self._timed or self.loser:
            return []
        p = self._players[c - 1]
        if late >= self.no_show_ms(c):
            return self._forfeit(c, arrival_ms, [])
        deducted = min(2 * late, p[_MAIN])
        p[_MAIN] -= deducted
        if self.pp_base == "reduced":
            p[_BASE] = p[_MAIN]
        return [(arrival_ms, EV_LATE, c, deducted)]

    def start(self, now_ms, color_to_move):
        """Start the clock for the player to move."""
        c = colour(color_to_move)
        check_time(now_ms)
        if self.started or self.loser:
            return  # started once only (a second arrival press changes nothing)
        self.started = True
        self.turn = c
        self._since = now_ms

    def advance(self, now_ms):
        """Use the running player's time up to now_ms; return the events that happened.

        Allocates nothing when nothing happened (it is called on every scan of the board)."""
        check_time(now_ms)
        if not self.running():
            return _NO_EVENTS
        if now_ms < self._since:
            return _NO_EVENTS  # time never runs backwards: an earlier instant uses no time
        p = self._players[self.turn - 1]
        if not p[_FORFEIT] and now_ms < self._next_crossing(p, self._since):
            # Before the next warning, countdown second or limit (nearly always: the app's
            # quiet ticks and bowl readings): only the time of the span it is in runs out, as
            # _consume would charge it, without its frame on the heap (issue 32).
            if p[_PERIOD]:
                p[_LEFT] -= now_ms - self._since
            else:
                p[_MAIN] -= now_ms - self._since
            self._since = now_ms
            return _NO_EVENTS
        events = self._scratch
        self._consume(self.turn, self._since, now_ms, events)
        self._since = now_ms
        if not events:
            return _NO_EVENTS
        out = list(events)
        del events[:]
        return out

    tick = advance

    def moved(self, now_ms, color):
        """color's move (board or pass play) was accepted: charge the time, switch the clock.

        If color's time ran out before now_ms the events hold the forfeit and nothing switches.
        """
        c = colour(color)
        check_time(now_ms)
        if not self.started or self.loser or c != self.turn:
            # A press that does not apply (a double press, the other player's key, a key after
            # a loss on time) is an input from the hall: it changes nothing and never raises.
            return []
        if now_ms < self._since:
            now_ms = self._since
        events = list(self.advance(now_ms))
        if self.loser:
            return events
        self._move_made(c, self._players[c - 1], now_ms, events)
        self.turn = 3 - c
        self._since = now_ms
        return events

    def hold(self, now_ms):
        """A press at now_ms waits to be judged: charge the running player up to it, then
        nobody until unhold() (see the module docstring). Returns the events up to now_ms."""
        events = list(self.advance(now_ms))
        if self.running():
            self.held = True
        return events

    def unhold(self):
        """The kept press is judged: the clock runs again from the instant of hold() (the
        caller switches it as of then with moved(), or lets the presser's time run on)."""
        self.held = False

    def pause(self, now_ms):
        """Stop the clock (SET button, the pause after two passes, counting)."""
        events = list(self.advance(now_ms))
        if self.paused or self.loser:
            return events
        self.paused = True
        events.append((now_ms, EV_PAUSE, 0, 0))
        return events

    def resume(self, now_ms):
        """Start the clock again after pause(), for the player to move."""
        check_time(now_ms)
        if not self.paused or self.loser:
            return []
        self.paused = False
        self._since = now_ms
        return [(now_ms, EV_RESUME, 0, 0)]

    def snapshot(self):
        """The clock as of the last call, as a list of small ints (journal, undo)."""
        flags = (1 if self.started else 0) | (2 if self.paused else 0) | (4 if self.held else 0)
        # One list made, filled in place (the journal takes a snapshot at every sync: the
        # concatenation made two more lists each time, issue 32).
        snap = [0] * (4 + 2 * _SIZE)
        snap[0] = _SNAPSHOT_VERSION
        snap[1] = self.turn
        snap[2] = flags
        snap[3] = self.loser
        snap[4 : 4 + _SIZE] = self._players[0]
        snap[4 + _SIZE :] = self._players[1]
        return snap

    def restore(self, snap, now_ms):
        """Put the clock back to a snapshot; the time from now_ms on is the player to move's."""
        check_time(now_ms)
        if not isinstance(snap, (list, tuple)) or len(snap) != 4 + 2 * _SIZE:
            raise ValueError("not a clock snapshot: %r" % (snap,))
        if snap[0] != _SNAPSHOT_VERSION:
            raise ValueError("clock snapshot version %r is not %d" % (snap[0], _SNAPSHOT_VERSION))
        for v in snap:
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError("not a clock snapshot: %r" % (snap,))
        if snap[1] not in (0, BLACK, WHITE) or snap[3] not in (0, BLACK, WHITE):
            raise ValueError("not a clock snapshot: %r" % (snap,))
        self.turn = snap[1]
        self.started = bool(snap[2] & 1)
        self.paused = bool(snap[2] & 2)
        self.held = bool(snap[2] & 4)
        self.loser = snap[3]
        self._players = (list(snap[4 : 4 + _SIZE]), list(snap[4 + _SIZE :]))
        self._since = now_ms

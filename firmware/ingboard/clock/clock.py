"""The game clock: every time system as basic time followed by a list of overtime periods.

Pure logic: nothing here reads a clock. Every call that depends on time takes `now_ms`, an
integer of milliseconds that never decreases (the app converts `ticks_ms()` in one place).

Settings (the session log's config `time` dict; ValueError with a clear message when bad):

    {"system": "none|absolute|ing-pp|byoyomi|canadian|fischer", "basic_s": 3600,
     "periods": 5, "period_s": 30, "stones": 25, "increment_s": 10,
     "exceeded": "after", "pp_base": "stipulated", "late_forfeit": false}

Only the keys a system uses are accepted. One model covers all systems: basic time B, then
periods entered one after another when the time before them is exceeded:

- none: the clock does not count.
- absolute: no periods; exceeding B forfeits.
- ing-pp: 3 periods of B/6, 2 penalty points charged on entering each; time is not restored
  per move; exceeding the third forfeits (Ing 1991 Art. 7 (1), Ing 1996 Rule 9).
- byoyomi: `periods` of `period_s`; a move restarts the period; a period is lost only when it
  runs out; exceeding the last forfeits (Ing 1991 Art. 7 (2), Ing 1996 Rule 9).
- canadian: blocks of `period_s` for `stones` moves; after `stones` moves a new block starts in
  full; a block that runs out forfeits.
- fischer: no periods; `increment_s` added after each move; exceeding the time forfeits.

Canadian counts every accepted move, board or pass play (Ing 1991 Art. 1: "Moves are board or
pass plays"); the move during which basic time ran out is the block's first.

Ing PP periods: period k ends at floor(k*B/6) ms of additional time, so the periods may differ
by 1 ms when B is not a multiple of 6 ms. Penalty points of the two players cancel; the net
becomes one penalty stone per two points in the fill-in count (Ing 1991 Art. 4 "Positioning":
"one stone for every two points is filled into a separate area near the winning or shared
space"; Ing 1996 Diagram 2: a 4-point penalty on White is two black stones). See
`penalty_stones()`.

Ambiguous points of the seeds, made settings (default = the seed's wording):
- `exceeded`: "after" (default): a limit is exceeded only when MORE time than the limit has
  been used ("in excess of", Ing 1991 Art. 7; "If a move is made before the period expires the
  period is not used", Ing 1996 Rule 9): a press at exactly the limit is in time, one ms later
  is not. "at": the instant the limit is reached counts (the "reaches 3/6" wording of Art. 7).
  The period's own time always runs from the end of the time before it.
- `pp_base`: "stipulated" (default): the Ing PP periods are 1/6 of the basic time of the
  tournament agreement, the same for both players (Ing 1996 Rule 10 "all contestants are given
  the same time limit"), even for a player whose basic time lateness reduced. "reduced": 1/6
  of that player's basic time after the lateness deduction.
- `late_forfeit`: false (Ing 1991 Art. 8: lateness only costs time); true for Ing 1996 Rule 10
  "If a player is late by more than 1/6 of the basic time, he forfeits the game" (more than:
  exactly B/6 late is not a forfeit). B/6 there is always the stipulated basic time.
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

from ingrules.board import BLACK, WHITE, color_from_name
from micropython import const

from ingboard import cues

SYSTEMS = ("none", "absolute", "ing-pp", "byoyomi", "canadian", "fischer")
_NONE = const(0)
_NO_EVENTS = ()
_ABSOLUTE = const(1)
_ING_PP = const(2)
_BYOYOMI = const(3)
_CANADIAN = const(4)
_FISCHER = const(5)

# The keys each system accepts besides "system" (and the ambiguity settings).
_KEYS = (
    (),
    ("basic_s", "late_forfeit", "warn_s"),
    ("basic_s", "periods", "exceeded", "pp_base", "late_forfeit", "warn_s"),
    ("basic_s", "periods", "period_s", "exceeded", "late_forfeit", "warn_s"),
    ("basic_s", "stones", "period_s", "exceeded", "late_forfeit", "warn_s"),
    ("basic_s", "increment_s", "exceeded", "late_forfeit", "warn_s"),
)
_ALL_KEYS = (
    "system",
    "basic_s",
    "periods",
    "period_s",
    "stones",
    "increment_s",
    "exceeded",
    "pp_base",
    "late_forfeit",
    "warn_s",
)

EV_PERIOD = "period"
EV_PENALTY = "penalty"
EV_FORFEIT = "forfeit"
EV_LATE = "late"
EV_PAUSE = "pause"
EV_RESUME = "resume"
EV_CUE = "cue"

ING_PP_PERIODS = const(3)  # Ing 1996 Rule 9: "Each player is limited to three periods"
ING_PP_POINTS = const(2)  # Ing 1991 Art. 7 (1): two points on exceeding each limit
_MAX_S = const(86400)  # one day: Ing 1991 Art. 7 "games should be completed in one day"
_WARN_MS = const(300000)  # the default lead time of the timekeeper's warnings (5 minutes)
_COUNTDOWN_S = const(10)

# One player's state: a list of small ints, indexed by these.
_MAIN = const(0)  # basic time left (ms)
_PERIOD = const(1)  # overtime periods entered (0: still in basic time)
_LEFT = const(2)  # time left in the current period (ms)
_STONES = const(3)  # Canadian: moves still to make in the current block
_POINTS = const(4)  # penalty points charged
_FORFEIT = const(5)  # 1 when lost on time
_MOVES = const(6)  # accepted moves (board and pass plays)
_WARNED = const(7)  # spans warned so far: 1 after the basic time's warning, k+1 period k's
_BASE = const(8)  # basic time the Ing PP periods are sixths of (ms)
_SIZE = const(9)

_SNAPSHOT_VERSION = const(1)


def _colour(color):
    if color == BLACK or color == WHITE:
        return color
    if isinstance(color, str):
        return color_from_name(color)
    raise ValueError("colour must be B or W, not %r" % (color,))


def _name(color):
    return "B" if color == BLACK else "W"


def _seconds_ms(cfg, key, lo, required):
    if key not in cfg:
        if required:
            raise ValueError("time.%s is required for system %s" % (key, cfg["system"]))
        return 0
    v = cfg[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError("time.%s must be a number of seconds, not %r" % (key, v))
    if v < lo or v > _MAX_S:
        raise ValueError(
            "time.%s must be between %s and %d seconds, not %r" % (key, lo, _MAX_S, v)
        )
    ms = int(v * 1000 + 0.5)
    if ms < lo * 1000 or (lo > 0 and ms == 0):
        raise ValueError("time.%s is too small: %r" % (key, v))
    return ms


def _count(cfg, key, lo, hi, default):
    if key not in cfg:
        if default is None:
            raise ValueError("time.%s is required for system %s" % (key, cfg["system"]))
        return default
    v = cfg[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise ValueError("time.%s must be a whole number %d..%d, not %r" % (key, lo, hi, v))
    return v


def _choice(cfg, key, options):
    v = cfg.get(key, options[0])
    if v not in options:
        raise ValueError(
            "time.%s must be one of %s, not %r" % (key, ", ".join(repr(o) for o in options), v)
        )
    return options.index(v)


class Clock:
    """Both players' time under one time system; see the module docstring."""

    def __init__(self, time=None):
        cfg = {"system": "none"} if time is None else time
        if not isinstance(cfg, dict):
            raise ValueError("time settings must be a dict, not %r" % (cfg,))
        system = cfg.get("system")
        if system not in SYSTEMS:
            raise ValueError(
                "time.system must be one of %s, not %r" % (", ".join(SYSTEMS), system)
            )
        self.system = system
        s = SYSTEMS.index(system)
        self._sys = s
        for key in cfg:
            if key not in _ALL_KEYS:
                raise ValueError("unknown time setting %r" % (key,))
            if key != "system" and key not in _KEYS[s]:
                raise ValueError("time.%s does not apply to system %s" % (key, system))
        lo_basic = 1 if s in (_ABSOLUTE, _ING_PP, _FISCHER) else 0
        self.basic_ms = _seconds_ms(cfg, "basic_s", lo_basic, s != _NONE)
        self.periods = 0
        self.period_ms = 0
        self.stones = 0
        self.increment_ms = 0
        if s == _ING_PP:
            # Ing 1991 Art. 7 (1): penalties at 1/6, 2/6 of B, forfeit past 3/6: three periods.
            self.periods = _count(cfg, "periods", ING_PP_PERIODS, ING_PP_PERIODS, ING_PP_PERIODS)
        elif s == _BYOYOMI:
            self.periods = _count(cfg, "periods", 1, 1000, None)
            self.period_ms = _seconds_ms(cfg, "period_s", 1, True)
        elif s == _CANADIAN:
            self.periods = 1  # a block that runs out forfeits; full blocks start new ones
            self.stones = _count(cfg, "stones", 1, 1000, None)
            self.period_ms = _seconds_ms(cfg, "period_s", 1, True)
        elif s == _FISCHER:
            self.increment_ms = _seconds_ms(cfg, "increment_s", 0, True)
        self.exceeded = ("after", "at")[_choice(cfg, "exceeded", ("after", "at"))]
        self._at = self.exceeded == "at"
        self.pp_base = ("stipulated", "reduced")[
            _choice(cfg, "pp_base", ("stipulated", "reduced"))
        ]
        late = cfg.get("late_forfeit", False)
        if late is not True and late is not False:
            raise ValueError("time.late_forfeit must be true or false, not %r" % (late,))
        if late and not self.basic_ms:
            raise ValueError("time.late_forfeit needs basic time (1/6 of it is the limit)")
        self.late_forfeit = late
        # Ing 1991 Art. 10 "Timekeeper": "inform a player when he is about to run out of basic
        # time or additional time": a warning cue `warn_s` before the basic time ends, before
        # each Ing penalty-point period ends (the next points) and before the forfeit; half
        # the span when the span is shorter than twice that, so a short basic time is warned
        # too. 0: no warnings.
        self.warn_ms = _seconds_ms(cfg, "warn_s", 0, False) if "warn_s" in cfg else _WARN_MS
        self._players = (self._fresh(), self._fresh())
        self.turn = 0  # colour whose clock runs (or would run when resumed)
        self.started = False
        self.paused = False
        self.loser = 0  # colour that lost on time
        self.held = False  # a press waits to be judged: nobody is charged (hold())
        self._since = 0
        self._scratch = []  # advance() collects events here (no allocation when none)

    def _fresh(self):
        p = [0] * _SIZE
        p[_MAIN] = self.basic_ms
        p[_BASE] = self.basic_ms
        return p

    # -- queries -------------------------------------------------------------------------------

    def running(self):
        """True while a player's time is being used."""
        return (
            self.started
            and not self.paused
            and not self.held
            and not self.loser
            and self._sys != _NONE
        )

    def penalty(self, color):
        """Penalty points charged to color (Ing PP)."""
        return self._players[_colour(color) - 1][_POINTS]

    def moves(self, color):
        """Moves (board and pass plays) color has made on this clock."""
        return self._players[_colour(color) - 1][_MOVES]

    def net_penalty(self):
        """(color, points): the player penalized after opposing points cancel, or (0, 0).

        Ing 1991 Art. 7 (1): "If both players are penalized, opposing penalty points cancel".
        """
        d = self._players[0][_POINTS] - self._players[1][_POINTS]
        if d > 0:
            return BLACK, d
        if d < 0:
            return WHITE, -d
        return 0, 0

    def penalty_stones(self):
        """(stone colour, count) for the fill-in count, or (0, 0).

        Ing 1991 Art. 4 "Positioning": "one stone for every two points is filled into a separate
        area near the winning or shared space"; Ing 1996 Diagram 2: a 4-point penalty on White
        is two black stones. The stones are the colour of the player who benefits.
        """
        color, points = self.net_penalty()
        if not color:
            return 0, 0
        return 3 - color, points // 2

    def _lead(self, p, k):
        # The warning's lead time in span k (0: basic time) when it is still due, else 0. Byo-
        # yomi periods are read out second by second instead (the countdown cues).
        if p[_WARNED] > k or not self.warn_ms:
            return 0
        if k == 0:
            span = self.basic_ms
        elif self._sys == _ING_PP or self._sys == _CANADIAN:
            b = p[_BASE]
            span = (k * b) // 6 - ((k - 1) * b) // 6 if self._sys == _ING_PP else self.period_ms
        else:
            return 0
        half = span // 2
        return self.warn_ms if self.warn_ms < half else half

    def period_length(self, color, k):
        """Length in ms of overtime period k (1-based) for color."""
        if self._sys == _ING_PP:
            b = self._players[_colour(color) - 1][_BASE]
            return (k * b) // 6 - ((k - 1) * b) // 6
        return self.period_ms

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
        c = _colour(color)
        p = self._players[c - 1]
        if now_ms is not None and self.running() and self.turn == c and now_ms != self._since:
            # The running player's time as advance(now_ms) would charge it, on a copy of their
            # numbers (a face asks twice a second: snapshot() and restore() took ~4 ms of the
            # RP2040's time, issue 20).
            self._check_time(now_ms)
            if now_ms > self._since:
                players = self._players
                loser = self.loser
                work = list(p)
                self._players = (work, players[1]) if c == 1 else (players[0], work)
                try:
                    self._consume(c, self._since, now_ms, [])
                finally:
                    self._players = players
                    self.loser = loser
                p = work
        return p[_MAIN], p[_PERIOD], p[_LEFT], p[_STONES], p[_POINTS], p[_FORFEIT]

    def next_event_ms(self):
        """The instant of the next event advance() will report (a period, penalty, forfeit or
        cue of the running player), or None when no clock runs. The tracker can step the clock
        to each such instant to log the exact `state()` there; the app can sleep until it."""
        if not self.running():
            return None
        p = self._players[self.turn - 1]
        t = self._since
        extra = 0 if self._at else 1
        k = p[_PERIOD]
        lead = self._lead(p, k)
        if k == 0:
            r = p[_MAIN]
            if lead and r > lead:
                return t + r - lead
            return t + r + extra
        r = p[_LEFT]
        if lead and r > lead:
            return t + r - lead
        if self._sys == _BYOYOMI and r > 1000:
            edge = min(r - 1, _COUNTDOWN_S * 1000) // 1000 * 1000
            return t + r - edge
        return t + r + extra

    # -- control -------------------------------------------------------------------------------

    def apply_lateness(self, color, round_start_ms, arrival_ms):
        """Deduct twice the lateness from color's basic time; call before start().

        Ing 1991 Art. 8 "Lateness": "twice the amount of time by which he is late is deducted
        from his basic time limit". With late_forfeit (Ing 1996 Rule 10) lateness of more than
        1/6 of the basic time forfeits.
        """
        c = _colour(color)
        if self.started:
            raise ValueError("lateness must be applied before the clock starts")
        if not isinstance(round_start_ms, int) or not isinstance(arrival_ms, int):
            raise ValueError("round_start_ms and arrival_ms must be integers (ms)")
        late = arrival_ms - round_start_ms
        if late <= 0 or self._sys == _NONE or self.loser:
            return []
        p = self._players[c - 1]
        if late >= self.no_show_ms(c):
            return self._forfeit(c, arrival_ms, [])
        deducted = min(2 * late, p[_MAIN])
        p[_MAIN] -= deducted
        if self.pp_base == "reduced":
            p[_BASE] = p[_MAIN]
        return [(arrival_ms, EV_LATE, c, deducted)]

    def time_limit_ms(self, color):
        """color's whole time limit: basic time and all the additional time (Ing 1991 Art. 7
        "The time limit is divided into basic time and additional time"): the three Ing PP
        periods (half the basic time), every byo-yomi period, the first Canadian block. None
        when the clock does not count."""
        if self._sys == _NONE:
            return None
        c = _colour(color)
        extra = 0
        if self._sys == _ING_PP:
            extra = sum(self.period_length(c, k) for k in range(1, self.periods + 1))
        elif self._sys in (_BYOYOMI, _CANADIAN):
            extra = self.periods * self.period_ms
        return self.basic_ms + extra

    def no_show_ms(self, color):
        """The smallest lateness (ms) that forfeits color's game, or None (no time limit).

        Ing 1991 Art. 8 "Forfeiture" (1) "Failure to appear: a player fails to appear within his
        time limit": twice the lateness is charged (Art. 8 "Lateness"), so a player forfeits
        once that charge exceeds the whole time limit (`time_limit_ms`; "at": reaches it) -
        also a player who never arrives. With late_forfeit, Ing 1996 Rule 10: "late by more than
        1/6 of the basic time". The deduction itself comes off the basic time only ("deducted
        from his basic time limit"), so a player late by less keeps the additional time."""
        limit = self.time_limit_ms(color)
        if limit is None:
            return None
        first = (limit + 1) // 2 if self._at else limit // 2 + 1
        if self.late_forfeit:
            sixth = self.basic_ms // 6 + 1  # more than B/6 (the stipulated B)
            if sixth < first:
                first = sixth
        return first

    def start(self, now_ms, color_to_move):
        """Start the clock for the player to move."""
        c = _colour(color_to_move)
        self._check_time(now_ms)
        if self.started or self.loser:
            return  # started once only (a second arrival press changes nothing)
        self.started = True
        self.turn = c
        self._since = now_ms

    def advance(self, now_ms):
        """Use the running player's time up to now_ms; return the events that happened.

        Allocates nothing when nothing happened (it is called on every scan of the board)."""
        self._check_time(now_ms)
        if not self.running():
            return _NO_EVENTS
        if now_ms < self._since:
            return _NO_EVENTS  # time never runs backwards: an earlier instant uses no time
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
        c = _colour(color)
        self._check_time(now_ms)
        if not self.started or self.loser or c != self.turn:
            # A press that does not apply (a double press, the other player's key, a key after
            # a loss on time) is an input from the hall: it changes nothing and never raises.
            return []
        if now_ms < self._since:
            now_ms = self._since
        events = list(self.advance(now_ms))
        if self.loser:
            return events
        p = self._players[c - 1]
        p[_MOVES] += 1
        s = self._sys
        if s == _BYOYOMI and p[_PERIOD]:
            # Ing 1996 Rule 9: "If a move is made before the period expires the period is not
            # used": the period starts again in full.
            p[_LEFT] = self.period_ms
        elif s == _CANADIAN and p[_PERIOD]:
            p[_STONES] -= 1
            if p[_STONES] <= 0:
                p[_PERIOD] += 1
                p[_LEFT] = self.period_ms
                p[_STONES] = self.stones
                events.append((now_ms, EV_PERIOD, c, p[_PERIOD]))
                events.append((now_ms, EV_CUE, c, (cues.PERIOD, p[_PERIOD])))
        elif s == _FISCHER:
            p[_MAIN] += self.increment_ms
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
        self._check_time(now_ms)
        if not self.paused or self.loser:
            return []
        self.paused = False
        self._since = now_ms
        return [(now_ms, EV_RESUME, 0, 0)]

    def snapshot(self):
        """The clock as of the last call, as a list of small ints (journal, undo)."""
        flags = (1 if self.started else 0) | (2 if self.paused else 0) | (4 if self.held else 0)
        return (
            [_SNAPSHOT_VERSION, self.turn, flags, self.loser]
            + self._players[0]
            + (self._players[1])
        )

    def restore(self, snap, now_ms):
        """Put the clock back to a snapshot; the time from now_ms on is the player to move's."""
        self._check_time(now_ms)
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

    # -- the period list -------------------------------------------------------------------------

    def _check_time(self, now_ms):
        if not isinstance(now_ms, int) or isinstance(now_ms, bool):
            raise ValueError("now_ms must be an integer number of ms, not %r" % (now_ms,))

    def _consume(self, c, t, t1, events):
        # Charge color c the time from t to t1, crossing limits in order. A limit of r ms is
        # exceeded at r + 1 ms ("after", the default) or at r ms ("at"); the next period's own
        # time runs from the end of the one before it (Ing 1991 Art. 7).
        p = self._players[c - 1]
        extra = 0 if self._at else 1
        byoyomi = self._sys == _BYOYOMI
        while not p[_FORFEIT]:
            used = t1 - t
            k = p[_PERIOD]
            lead = self._lead(p, k)
            if k == 0:
                r = p[_MAIN]
                if lead and r > lead and used >= r - lead:
                    # Ing 1991 Art. 10 "Timekeeper": "inform a player when he is about to run
                    # out of basic time".
                    p[_WARNED] = 1
                    events.append((t + r - lead, EV_CUE, c, (cues.BASIC_ENDING, lead // 1000)))
                if used < r + extra:
                    p[_MAIN] = r - used
                    return
                p[_MAIN] = 0
            else:
                r = p[_LEFT]
                if lead and r > lead and used >= r - lead:
                    # "... or additional time": the next penalty points, or the forfeit.
                    p[_WARNED] = k + 1
                    cue = cues.FORFEIT_NEXT if k >= self.periods else cues.POINTS_NEXT
                    events.append((t + r - lead, EV_CUE, c, (cue, lead // 1000)))
                if byoyomi:
                    # Ing 1991 Art. 9: "the reading out of seconds" in the last ten.
                    k = _COUNTDOWN_S
                    while k > 0:
                        edge = k * 1000
                        if r > edge and used >= r - edge:
                            events.append((t + r - edge, EV_CUE, c, (cues.COUNTDOWN, k)))
                        k -= 1
                if used < r + extra:
                    p[_LEFT] = r - used
                    return
                p[_LEFT] = 0
            self._enter(c, p, p[_PERIOD] + 1, t + r + extra, events)
            t += r

    def _enter(self, c, p, k, at_ms, events):
        if k > self.periods:
            # Ing 1991 Art. 7 (1): "uses additional time in excess of half the basic time limit
            # forfeits"; Art. 8 "Forfeiture (4) Excessive time".
            self._forfeit(c, at_ms, events)
            return
        p[_PERIOD] = k
        p[_LEFT] = self.period_length(c, k)
        p[_STONES] = self.stones
        if self._sys == _ING_PP:
            # Ing 1991 Art. 7 (1): two points for exceeding the basic time, two more past 1/6
            # and past 2/6 of it.
            p[_POINTS] += ING_PP_POINTS
            events.append((at_ms, EV_PENALTY, c, p[_POINTS]))
            events.append((at_ms, EV_PERIOD, c, k))
            events.append((at_ms, EV_CUE, c, (cues.POINTS, p[_POINTS])))
        else:
            events.append((at_ms, EV_PERIOD, c, k))
            if k == 1:
                events.append((at_ms, EV_CUE, c, (cues.BASIC_OVER, 0)))
            else:
                events.append((at_ms, EV_CUE, c, (cues.PERIOD, k)))

    def _forfeit(self, c, at_ms, events):
        p = self._players[c - 1]
        p[_FORFEIT] = 1
        self.loser = c
        events.append((at_ms, EV_FORFEIT, c, 0))
        events.append((at_ms, EV_CUE, c, (cues.FORFEIT, 0)))
        return events

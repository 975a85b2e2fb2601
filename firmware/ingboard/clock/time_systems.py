"""The time systems: every one of them as basic time followed by a list of overtime periods.

This module owns the period list (the settings are read and checked, with a clear ValueError,
by time_settings.py when a Clock is made): how the running player's time is charged across its
limits, the periods entered, the forfeit, the timekeeper's warnings and the countdown, and what
a move does to the time left. `Clock` (clock.py) is built on it and adds the control and the
queries; the penalty points charged on entering an Ing period are `IngPenalty`'s
(ing_penalty.py).

Settings (the session log's config `time` dict):

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
by 1 ms when B is not a multiple of 6 ms.

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
- `warn_s`: the timekeeper's warning lead (Ing 1991 Art. 10), default 300 s, 0 for none.
"""

from ingrules.board import BLACK, WHITE, color_from_name
from micropython import const

from ingboard import cues, gc_policy

# The index of the clock's system in time_settings.SYSTEMS (`_sys`).
_NONE = const(0)
_ABSOLUTE = const(1)
_ING_PP = const(2)
_BYOYOMI = const(3)
_CANADIAN = const(4)
_FISCHER = const(5)

EV_PERIOD = "period"
EV_PENALTY = "penalty"
EV_FORFEIT = "forfeit"
EV_LATE = "late"
EV_PAUSE = "pause"
EV_RESUME = "resume"
EV_CUE = "cue"

_COUNTDOWN_S = const(10)

# One player's state: a list of small ints, indexed by these (the journal keeps it through
# Clock.snapshot()). Private, so that they fold away on MicroPython (no name in the heap):
# clock.py and ing_penalty.py keep the ones they read as their own, and tests/firmware/
# test_clock.py checks that they are these.
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


def colour(color):
    """board.BLACK / board.WHITE from either those or "B" / "W"; ValueError otherwise."""
    if color == BLACK or color == WHITE:
        return color
    if isinstance(color, str):
        return color_from_name(color)
    raise ValueError("colour must be B or W, not %r" % (color,))


def check_time(now_ms):
    if not isinstance(now_ms, int) or isinstance(now_ms, bool):
        raise ValueError("now_ms must be an integer number of ms, not %r" % (now_ms,))


class TimeSystem:
    """The settings and the period list of a Clock (a mixin: the Clock is the one object).
    Uses the Clock's `_players`, `loser`; charges Ing penalty points through `_charge_points`."""

    def _init_time_system(self, time):
        # The settings, read and checked by time_settings.py: loaded for it and dropped after
        # (a game reads them once, at its start; on the stock image the code would be heap).
        from ingboard.clock import time_settings

        try:
            time_settings.read(self, time)
        finally:
            gc_policy.drop("ingboard.clock.time_settings")

    def _fresh(self):
        p = [0] * _SIZE
        p[_MAIN] = self.basic_ms
        p[_BASE] = self.basic_ms
        return p

    # -- the limits ------------------------------------------------------------------------------

    def period_length(self, color, k):
        """Length in ms of overtime period k (1-based) for color."""
        if self._sys == _ING_PP:
            b = self._players[colour(color) - 1][_BASE]
            return (k * b) // 6 - ((k - 1) * b) // 6
        return self.period_ms

    def time_limit_ms(self, color):
        """color's whole time limit: basic time and all the additional time (Ing 1991 Art. 7
        "The time limit is divided into basic time and additional time"): the three Ing PP
        periods (half the basic time), every byo-yomi period, the first Canadian block. None
        when the clock does not count."""
        if self._sys == _NONE:
            return None
        c = colour(color)
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

    # -- the period list -------------------------------------------------------------------------

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

    def _next_crossing(self, p, t):
        # The instant of the next event of player p whose time runs from t (a warning, a
        # countdown second, a limit exceeded).
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
            self._charge_points(c, p, k, at_ms, events)
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

    def _move_made(self, c, p, now_ms, events):
        # What color c's accepted move does to their time.
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

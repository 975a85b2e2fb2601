"""Weighing: one load cell's readings into a confident count of the stones in its bowl.

This part owns each bowl's scale: the window of readings, the small zero correction on top of
the driver's tare, the enrolment of the set's full weight (its calibration: W180, and so the mean
stone), when a reading has settled on a plateau, and the plateau's count in stones - given only
when it is certain, never guessed. It knows nothing of the board but the stones the
reconciliation says are out of a bowl never enrolled (`_off_board`), and it hands each new count
to the reconciliation (`_reconcile`).

Model (all weights are integer milligrams inside; `grams` only at the edges)
- A reading is net of the empty bowl (tare removed upstream); this module keeps its own small
  zero correction on top (re-zeroed whenever a bowl is confidently empty) and flags
  `sensor-fault` when that zero has wandered further than `zero_limit_g` from where it started.
- Enrolment: W180, the exact weight of that colour's full set (config `w180_g`, or the heaviest
  recent settled reading before the first move, the players having verified 180 with the frame).
  The mean stone is m = W180 / 180 exactly, so a full bowl is known to the scale's error alone
  (Ing 1991 Art. 12 and 1996 Rule 12: 180 stones per colour on 19x19, (points - 1) / 2, of 6.5
  to 7 g each).
- Stability: a reading counts only when the last `window` readings are settled: their range is
  at most 3/4 stone and the means of the two halves differ by at most 1/4 stone (to stay
  settled on the same plateau: a whole stone and 1/3 stone). The plateau is
  the window mean; its standard error is estimated from the range (range / (3 sqrt n)).
  A settled plateau is evaluated again at most every _EVAL_MS - from the before-game check
  (or the first move) to the after-count check, every _STEADY_MS once _STEADY_EVALS
  evaluations in a row gave the same confident count with nothing unexplained: a bowl nobody
  touches (a re-evaluation is a reading the app logs and journals, ~13 ms of the RP2040's time,
  four a second with two still bowls, ~7 ms a second of an idle board on the twin at a _STEADY_MS
  of 2 s, half that at 4 s: issue 32; the checks themselves count on plateaus evaluated every
  _EVAL_MS, creep settling after the stones are poured): a reading within 1/4 stone of it
  before then, its count confident (or the bowl not enrolled yet), is quiet - it changes
  nothing, not even the window (quiet()) - so the app drops it before the tracker, the session
  log and the journal ("Bowl readings between moves should cost a small fraction of a move"),
  and a log replayed with or without such readings gives the same counts.
- Counting, two estimates per plateau, in stones:
  absolute  n = 180 - (W180 - P) / m. Its spread term is the unknown per-stone spread s (default
            3 %, config `spread_pct`) of the k = 180 - n stones that are out: the weight of k
            stones drawn from an exactly known set of 180 varies by s*m*sqrt(k(180-k)/179). It
            is exact at 0 and 180 (the 180 checks) and poorest mid-game (k = 90, s = 3 %:
            1.3 g, 0.2 stone): mid-game it alone is rarely confident.
  relative  n = n_ref + (P - P_ref) / m against the last plateau whose count was confident: an
            event of j stones taken or returned adds only s*m*sqrt(j) of spread plus the noise
            of the two plateaus and an allowance for creep since the reference. Single stones
            taken during play are therefore counted exactly all game long (event counting).
  Each estimate has an uncertainty u (noise, spread, `bias_g` for calibration/creep bias). It is
  confident only when its fractional part is within +-0.3 stone AND u <= 0.14 stone (a wrong
  integer then needs a 5-sigma error). Two confident estimates that disagree make the count
  uncertain. Uncertain counts are reported as null, never guessed.

Limits (honest physics): a bias the scale cannot see (creep under load, a calibration error,
temperature) adds straight to the estimate: up to ~1 g it only costs confidence; above ~3 g
(half a stone) a weighing cannot tell a missing stone from a biased scale, hence the bias
allowance and the zero-wander alert.
"""

from micropython import const

_ACCEPT_CS = const(30)  # fractional part within +-0.30 stone (centi-stones)
_MAX_U_CS = const(14)  # uncertainty at most 0.14 stone: a wrong integer needs a 5 sigma error
_NOMINAL_STONE_MG = const(6500)  # 1991 Art. 12: standard stone 6.5 g (before enrolment)
_EVAL_MS = const(500)  # re-evaluate a settled plateau at most this often
_STEADY_EVALS = const(4)  # ... unless this many evaluations in a row gave the same count
_STEADY_MS = const(4000)  # then at most this often (until the count or the board changes)
MAX_SE_MG = const(15000)  # keeps se*se + ref_se*ref_se below 2**30
# Net of the empty bowl; beyond it a reading is refused. Stones poured back in at the put-away
# give impact spikes of 10-13 kg for a moment (host_tools/bowl_model.py), so the bound is well
# above those; 100 kg, NaN or infinity are faults.
MAX_READING_G = const(50000)

NAMES = ("B", "W")
_COLOUR_KEYS = ("w180_g", "spread_pct", "temp_c")


_NUMBER = (int, float)  # (made once: a tuple written in the call is made at every call)


def plausible(grams):
    """True for a load-cell reading the bowls can use: a finite number of grams within
    +-MAX_READING_G (a full bowl of 180 stones is about 1.2 kg; a pour's impact spike 10-13 kg)."""
    if isinstance(grams, bool) or not isinstance(grams, _NUMBER):
        return False
    return -MAX_READING_G <= grams <= MAX_READING_G  # False for NaN


def to_mg(grams, what):
    if isinstance(grams, bool) or not isinstance(grams, _NUMBER):
        raise TypeError("%s must be a number of grams, not %r" % (what, grams))
    if grams != grams or grams > 1e5 or grams < -1e5:
        raise ValueError("%s out of range: %r g" % (what, grams))
    mg = grams * 1000
    return int(mg + 0.5) if mg >= 0 else -int(-mg + 0.5)


def colour_index(color):
    if color in ("B", "b", 1):
        return 0
    if color in ("W", "w", 2):
        return 1
    raise ValueError("colour must be B or W, not %r" % (color,))


def isqrt(n):
    # Newton's method on ints: the same result on CPython and MicroPython.
    if n <= 0:
        return 0
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def centi(num, den):
    """num / den in hundredths, floored, without products beyond small ints (num*100 < 2**30)."""
    q, r = divmod(num, den)
    return q * 100 + (r * 100) // den


def _quiet(bowl, v, now_ms):
    # A reading v (mg, net of the zero) that feed() ignores: the settled plateau holds it.
    # Not while an enrolled bowl's count is uncertain: each reading may narrow the window's
    # range until the count is confident.
    if not bowl.settled or bowl.faulty or bowl.last_eval is None:
        return False
    if bowl.count < 0 and bowl.w180:
        return False
    if now_ms - bowl.last_eval >= bowl.eval_ms or now_ms < bowl.last_eval:
        return False
    # (stone_mg() in line: every reading of a settled bowl comes here.)
    band = (bowl.w180 // bowl.total if bowl.w180 else _NOMINAL_STONE_MG) // 4
    return -band <= v - bowl.plateau <= band


def unsteady(bowl):
    # Evaluated every _EVAL_MS again: its count changed, or something may have (see feed).
    bowl.steady = 0
    bowl.eval_ms = _EVAL_MS


def _push(bowl, v):
    # The reading into the bowl's window (a ring); True when the window is full.
    h = bowl.head
    bowl.vals[h] = v
    bowl.head = (h + 1) % bowl.window
    if bowl.filled < bowl.window:
        bowl.filled += 1
    return bowl.filled >= bowl.window


def _near(d, band):
    return -band <= d <= band


def _older(vals, j, half, n):
    # The sum of the `half` oldest readings of the window (the oldest at j).
    s = 0
    while half > 0:
        s += vals[j]
        j += 1
        if j == n:
            j = 0
        half -= 1
    return s


def _trend(bowl):
    # The mean of the newer half of the window minus that of the older half.
    n = bowl.window
    half = n // 2
    first = _older(bowl.vals, bowl.head, half, n)
    return (sum(bowl.vals) - first) // (n - half) - first // half


def _held(bowl, v, p):
    # Hysteresis: a settled bowl stays settled through one noisy window (range up to a
    # stone) as long as its mean p stays within 1/4 stone of the plateau - not when the
    # newest reading v is half a stone off the plateau: a stone has come or gone (a window
    # mixing both plateaus would count the old one).
    stone = bowl.stone_mg()
    return (
        bowl.settled
        and _near(p - bowl.plateau, stone // 4)
        and _near(v - bowl.plateau, stone // 2)
    )


def _moving(bowl, v, p, spread):
    # True when the full window (mean p, readings spread mg apart, the newest v) is no
    # plateau: spread too wide or a trend between its halves.
    stone = bowl.stone_mg()
    if _held(bowl, v, p):
        limit = stone
        slope = stone // 3
    else:
        limit = (stone * 3) // 4
        slope = stone // 4
    return spread > limit or not _near(_trend(bowl), slope)


def _standing(bowl, p, now_ms):
    # The settled plateau, counted and evaluated less than eval_ms ago, holds the window's
    # mean p: nothing to evaluate.
    return (
        bowl.settled
        and bowl.count >= 0
        and bowl.last_eval is not None
        and now_ms - bowl.last_eval < bowl.eval_ms
        and _near(p - bowl.plateau, bowl.stone_mg() // 4)
    )


def _plateau_se(spread, n):
    return min(MAX_SE_MG, spread // (3 * isqrt(n * 100) // 10) + 1)


class Bowl:
    """One colour's bowl. Its scale is created here (readings window, enrolment, zero, count);
    the reconciliation adds its board bookkeeping to the same object (_init_reconciliation)."""

    def __init__(self, name, window, total):
        self.name = name
        self.window = window
        self.total = total  # stones in the full set: 180 on 19x19, 40 on 9x9
        self.vals = [0] * window
        self.head = 0
        self.filled = 0
        self.w180 = 0  # mg; 0 = not enrolled
        # The set's weight was enrolled when the players had counted it with the frame (config
        # w180_g kept on the board, or confirm_set()): only then can the before-game check
        # say 180 (Ing 1991 Art. 9 "Counting" (1)). An assumed weight (the first steady
        # reading) still counts stones taken and returned, but verifies nothing.
        self.verified = False
        self.spread_pct = 3
        self.temp_c = None
        self.zero = 0  # mg subtracted from every reading
        self.candidate = None  # enrolment candidates (mg): latest and previous settled plateaus
        self.candidate_prev = None
        # Stones of this set the board knew out of the bowl when each candidate settled: a set
        # never enrolled may first settle after the first moves (the virtual board's player
        # clicks at once); the candidate is then that many stones short of the full set.
        self.candidate_out = 0
        self.candidate_prev_out = 0
        self.range = 0  # mg: the spread of the readings of the last settled window
        # Readings fed so far, and their number at the last weighing: a weighing is fresh when
        # it was made after the last change of this colour's stones on the board (the
        # reconciliation's changed_fed, _fresh).
        self.fed = 0
        self.eval_fed = 0
        self.settled = False
        self.plateau = 0
        self.plateau_se = 0
        self.last_eval = None
        self.eval_ms = _EVAL_MS  # how long a settled plateau stands before it is evaluated
        self.steady = 0  # evaluations in a row that gave the same confident count
        self.ref_p = 0
        self.ref_se = 0
        self.ref_n = -1  # -1: no confident reference yet
        self.ref_t = 0
        # The reference as of the last change of the confident count ((n, p, se, t), a new
        # tuple at each change): what the journal keeps (snapshot).
        self.kept = None
        self.count = -1  # latest confident count, -1 = uncertain
        self.faulty = False
        self.refused = False  # the last reading was refused (out of range); alerted once
        self.zero_alerted = False

    def stone_mg(self):
        return self.w180 // self.total if self.w180 else _NOMINAL_STONE_MG


def to_grams(mg):
    # Exact decimal grams from mg without float rounding noise in the journal.
    return mg / 1000


class Weighing:
    """The Bowls' scales (a mixin of Bowls): readings, zero, enrolment, plateaus, counts."""

    def _init_weighing(self, cfg):
        window = cfg.get("window", 8)
        if isinstance(window, bool) or not isinstance(window, int) or not 4 <= window <= 64:
            raise ValueError("bowls.window must be an int 4..64, not %r" % (window,))
        self.bias = to_mg(cfg.get("bias_g", 0.5), "bowls.bias_g")
        self.creep = to_mg(cfg.get("creep_g_per_min", 0.3), "bowls.creep_g_per_min")
        self.zero_limit = to_mg(cfg.get("zero_limit_g", 5.0), "bowls.zero_limit_g")
        if self.bias < 0 or self.creep < 0 or self.zero_limit <= 0:
            raise ValueError("bowls.bias_g, creep_g_per_min >= 0 and zero_limit_g > 0 required")
        self.bowls = (Bowl("B", window, self.total), Bowl("W", window, self.total))
        for i in (0, 1):
            self._configure(self.bowls[i], cfg.get(NAMES[i], {}))

    def _configure(self, bowl, c):
        if not isinstance(c, dict):
            raise TypeError("bowls.%s must be a dict, not %r" % (bowl.name, c))
        for key in c:
            if key not in _COLOUR_KEYS:
                raise ValueError("unknown key bowls.%s.%s" % (bowl.name, key))
        if "w180_g" in c:
            self._enrol(bowl, to_mg(c["w180_g"], "bowls.%s.w180_g" % bowl.name))
            bowl.verified = True
        spread = c.get("spread_pct", 3)
        if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not 0 < spread < 20:
            raise ValueError(
                "bowls.%s.spread_pct must be in (0, 20), not %r" % (bowl.name, spread)
            )
        bowl.spread_pct = spread
        bowl.temp_c = c.get("temp_c")

    def _enrol(self, bowl, w180_mg):
        # Ing 1991 Art. 12 / 1996 Rule 12: stones of 6.5-7 g; allow generously for other sets.
        if not self.total * 2000 <= w180_mg <= self.total * 15000:
            raise ValueError(
                "bowl %s: %d g cannot be %d stones" % (bowl.name, w180_mg // 1000, self.total)
            )
        bowl.w180 = w180_mg
        bowl.ref_n = -1
        bowl.kept = None
        bowl.count = -1

    # ---------------------------------------------------------------- readings
    def feed(self, color, grams, now_ms):
        """One reading of a bowl, in grams net of the empty bowl (may be noisy or unsettled).

        A reading that is not a finite number within +-MAX_READING_G (NaN, infinity, a 100 kg
        spike: a load cell is a trust boundary, issue 19) is refused: one `sensor-fault` alert
        per run of such readings, and nothing else changes."""
        # In parts, each frame within 11 words: a bigger one is made on the heap at every call
        # (host_tools/mpy_frames.py), and this is every bowl reading the board does not
        # ignore.
        bowl = self.bowls[colour_index(color)]
        if not plausible(grams):
            self._refuse(bowl, grams, now_ms)
            return
        bowl.refused = False
        v = to_mg(grams, "bowl reading") - bowl.zero
        if _quiet(bowl, v, now_ms):
            return
        bowl.faulty = False
        bowl.fed += 1
        if _push(bowl, v):
            self._weigh(bowl, v, now_ms)

    def _refuse(self, bowl, grams, now_ms):
        if not bowl.refused:
            bowl.refused = True
            text = "%s bowl scale: reading %r g refused (not within +-%d g)" % (
                bowl.name,
                grams,
                MAX_READING_G,
            )
            self._alert("sensor-fault", text, bowl.name, now_ms)

    def _weigh(self, bowl, v, now_ms):
        # The window is full: settled (a plateau, evaluated when due) or moving.
        p = sum(bowl.vals) // bowl.window
        spread = max(bowl.vals) - min(bowl.vals)
        if _moving(bowl, v, p, spread):
            bowl.settled = False
            unsteady(bowl)
            return
        if _standing(bowl, p, now_ms):
            return
        bowl.settled = True
        bowl.range = spread
        bowl.plateau = p
        bowl.plateau_se = _plateau_se(spread, bowl.window)
        bowl.last_eval = now_ms
        self._steadied(bowl, bowl.count, now_ms)

    def _steadied(self, bowl, before, now_ms):
        # The new plateau evaluated; steady when the count stayed what it was (`before`).
        self._evaluate(bowl, now_ms)
        if (
            self.between_checks
            and bowl.w180
            and bowl.count >= 0
            and bowl.count == before
            and not bowl.mis
        ):
            bowl.steady += 1
            if bowl.steady >= _STEADY_EVALS:
                bowl.eval_ms = _STEADY_MS
        else:
            unsteady(bowl)

    def quiet(self, color, grams, now_ms):
        """True when feed(color, grams, now_ms) would change nothing: the bowl is settled, its
        plateau was evaluated less than _EVAL_MS ago and the reading is within 1/4 stone of it
        (see the module docstring). Pure and cheap: what the app asks before it hands a reading
        on (issue 20)."""
        bowl = self.bowls[colour_index(color)]
        if bowl.refused or not plausible(grams):
            return False
        return _quiet(bowl, to_mg(grams, "bowl reading") - bowl.zero, now_ms)

    def quiet_dg(self, index, dg, now_ms):
        """quiet() for bowl `index` (0 Black, 1 White) and a plausible reading in whole tenths of
        a gram (an int): the same answer without a float made (the board's most frequent
        question: each bowl's reading ten times a second, issue 32)."""
        bowl = self.bowls[index]
        # (_quiet() in line: each bowl's reading ten times a second.)
        if bowl.refused or not bowl.settled or bowl.faulty or bowl.last_eval is None:
            return False
        if bowl.count < 0 and bowl.w180:
            return False
        if now_ms - bowl.last_eval >= bowl.eval_ms or now_ms < bowl.last_eval:
            return False
        band = (bowl.w180 // bowl.total if bowl.w180 else _NOMINAL_STONE_MG) // 4
        return -band <= dg * 100 - bowl.zero - bowl.plateau <= band

    def fault(self, color, now_ms, why=""):
        """The driver has no reading for this bowl (chip missing, timeout): counts uncertain."""
        bowl = self.bowls[colour_index(color)]
        if not bowl.faulty:
            text = "%s bowl scale: no reading%s" % (bowl.name, (" (" + why + ")") if why else "")
            self._alert("sensor-fault", text, bowl.name, now_ms)
        bowl.faulty = True
        bowl.settled = False
        unsteady(bowl)
        bowl.filled = 0
        bowl.count = -1

    # ---------------------------------------------------------------- counting
    def _estimate(self, bowl, p, se, now_ms):
        """(count, confident) of plateau p; see the module docstring."""
        w = bowl.w180
        total = self.total
        stone = w // total
        sd_s = stone * bowl.spread_pct // 100  # per-stone spread, mg
        found = -1
        conflict = False
        # absolute: against the enrolled full set
        cs = total * 100 - centi((w - p) * total, w)
        k = total - (cs + 50) // 100
        if k < 0:
            k = 0
        elif k > total:
            k = total
        var = se * se + (sd_s * sd_s * k * (total - k)) // (total - 1)
        found, conflict = self._judge(cs, isqrt(var) + self.bias, stone, found, conflict)
        # relative: the weight difference to the last confident plateau (event counting)
        if bowl.ref_n >= 0:
            d = p - bowl.ref_p
            cs = bowl.ref_n * 100 + centi(d * total, w)
            j = abs((cs + 50) // 100 - bowl.ref_n)
            dt = now_ms - bowl.ref_t
            creep = (self.creep * dt) // 60000 if dt > 0 else 0
            var = se * se + bowl.ref_se * bowl.ref_se + sd_s * sd_s * j
            found, conflict = self._judge(cs, isqrt(var) + creep, stone, found, conflict)
        if conflict or found < 0:
            return -1
        return found

    @staticmethod
    def _judge(cs, u_mg, stone, found, conflict):
        n = (cs + 50) // 100
        frac = cs - n * 100
        u_cs = (min(u_mg, MAX_SE_MG) * 100) // stone
        if -_ACCEPT_CS <= frac <= _ACCEPT_CS and u_cs <= _MAX_U_CS:
            if found >= 0 and found != n:
                conflict = True
            found = n
        return found, conflict

    def _evaluate(self, bowl, now_ms):
        p = bowl.plateau
        if not bowl.w180:
            # Not enrolled yet: remember the settled plateaus (enrolled at the first move or
            # at check("before")).
            if bowl.range > (bowl.stone_mg() * 3) // 4:
                return  # settled through a noisy window (hysteresis): maybe a stone moving
            if self.playing and self.to_play == colour_index(bowl.name):
                # This colour is to move: a stone may be in the hand, or on the board before
                # the press - the plateau is no measure of the set.
                return
            out = bowl.on_board + self._off_board(bowl)
            if bowl.candidate is None or abs(p - bowl.candidate) > bowl.stone_mg() // 2:
                bowl.candidate_prev = bowl.candidate
                bowl.candidate_prev_out = bowl.candidate_out
            bowl.candidate = p
            bowl.candidate_out = out
            if not self.playing:
                return
            # Play has begun and the bowl has settled for the first time (the players began
            # at once): enrolled now, so the stones taken and returned are followed from here.
            self._enrol_candidate(bowl)
            if bowl.w180:
                bowl.eval_fed = bowl.fed
                self._reconcile(bowl, now_ms)
            return
        n = self._estimate(bowl, p, bowl.plateau_se, now_ms)
        bowl.count = n
        bowl.eval_fed = bowl.fed
        if n < 0:
            return
        if n == 0:
            self._rezero(bowl, p, now_ms)
            p = 0
        bowl.ref_p = p
        bowl.ref_se = bowl.plateau_se
        bowl.ref_n = n
        bowl.ref_t = now_ms
        if bowl.kept is None or bowl.kept[0] != n:
            bowl.kept = (n, p, bowl.ref_se, now_ms)
        if self.playing:
            self._reconcile(bowl, now_ms)

    def _rezero(self, bowl, p, now_ms):
        # Known empty: whatever it reads is the zero's error (drift, creep recovery).
        bowl.zero += p
        for i in range(bowl.window):
            bowl.vals[i] -= p
        bowl.plateau -= p
        if abs(bowl.zero) > self.zero_limit and not bowl.zero_alerted:
            bowl.zero_alerted = True
            self._alert(
                "sensor-fault",
                "%s bowl scale: the empty bowl's zero has wandered %s g; recalibrate"
                % (bowl.name, to_grams(bowl.zero)),
                bowl.name,
                now_ms,
            )

    def settled(self):
        """True when both bowls have a settled reading (a check can be made now)."""
        for bowl in self.bowls:
            if not bowl.settled or bowl.faulty:
                return False
        return True

    def count(self, color):
        """The bowl's current count if settled and confident, else None."""
        bowl = self.bowls[colour_index(color)]
        if bowl.faulty or not bowl.settled or bowl.count < 0:
            return None
        return bowl.count

    # ---------------------------------------------------------------- enrolment
    def confirm_set(self, now_ms):
        """The players counted the set with the measuring frame (Ing 1991 Art. 9 "Counting" (1):
        "use the measuring frame to verify the number of stones, and correct any
        deficiencies") and confirm it: each bowl's settled weight now is its full set, kept for
        later games (the `enrolled` event: {"B": grams, "W": grams}, None for a bowl that is not
        settled, which stays as it was)."""
        event = {"type": "enrolled", "t": now_ms}
        for bowl in self.bowls:
            if bowl.settled and not bowl.faulty and bowl.filled >= bowl.window:
                w = bowl.plateau
                self._enrol(bowl, w)
                bowl.verified = True
                bowl.ref_p = w
                bowl.ref_se = bowl.plateau_se
                bowl.ref_n = self.total
                bowl.ref_t = now_ms
                bowl.count = self.total
                event[bowl.name] = to_grams(w)
            else:
                event[bowl.name] = None
        return event

    def _enrol_candidate(self, bowl):
        # The heaviest of the last two plateaus at the same board count: the stone just taken
        # may still be in a hand. The plateau held the full set less the stones the board had
        # out of it then (an assumed weight: the set's mean stone from what the bowl held).
        w = bowl.candidate
        out = bowl.candidate_out
        prev = bowl.candidate_prev
        total = self.total
        hand = 0
        if (
            prev is not None
            and bowl.candidate_prev_out == out
            and 0 < prev - w <= (3 * prev) // (2 * (total - out))
        ):
            w = prev
            hand = 1
        n = total - out
        if n <= 0:
            return  # nothing in the bowl to weigh a stone by: enrol on a later plateau
        w180 = (w * total + n // 2) // n if out else w
        if not total * 2000 <= w180 <= total * 15000:
            if not out:
                # No stone out and still not a full set (an empty bowl, a lid on the scale):
                # said once per plateau, and the next plateau is tried again (Ing 1991 Art. 9
                # "Counting" (1)).
                bowl.candidate = bowl.candidate_prev = None
                self._alert(
                    "bowl-mismatch",
                    "%s bowl: %s g is not a full set of %d stones"
                    % (bowl.name, to_grams(w), total),
                    bowl.name,
                    bowl.last_eval or 0,
                )
            return  # the board's count does not fit this plateau: enrol on a later one
        self._enrol(bowl, w180)
        bowl.ref_p = w
        bowl.ref_se = bowl.plateau_se
        bowl.ref_n = n
        bowl.ref_t = bowl.last_eval or 0
        bowl.count = n - hand

"""The Ing measuring bowls on load cells: weights -> stone counts, the 180 checks, reconciliation.

Why: Ing 1991 Art. 9 (Counting, customs 1 and 3) and Ing 1996 Rule 2 (Goe equipment 1-3) ask the
players to verify 180 stones per colour before the game and, after fill-in counting, to put the
stones away and check 180 "to confirm that the game was counted correctly"; 1991 Art. 12 and
1996 Rule 12 give 180 stones per colour on 19x19 ((points - 1) / 2) of 6.5 to 7 g each.

Model (all weights are integer milligrams inside; `grams` only at the edges)
- A reading is net of the empty bowl (tare removed upstream); this module keeps its own small
  zero correction on top (re-zeroed whenever a bowl is confidently empty) and flags
  `sensor-fault` when that zero has wandered further than `zero_limit_g` from where it started.
- Enrolment: W180, the exact weight of that colour's full set (config `w180_g`, or the heaviest
  recent settled reading before the first move, the players having verified 180 with the frame).
  The mean stone is m = W180 / 180 exactly, so a full bowl is known to the scale's error alone.
- Stability: a reading counts only when the last `window` readings are settled: their range is
  at most 3/4 stone and the means of the two halves differ by at most 1/4 stone (to stay
  settled on the same plateau: a whole stone and 1/3 stone). The plateau is
  the window mean; its standard error is estimated from the range (range / (3 sqrt n)).
  A settled plateau is evaluated again at most every _EVAL_MS - from the before-game check
  (or the first move) to the after-count check, every _STEADY_MS once _STEADY_EVALS
  evaluations in a row gave the same confident count with nothing unexplained: a bowl nobody
  touches (issue 20: a re-evaluation is a reading the app logs and journals, ~13 ms of the
  RP2040's time, four a second with two still bowls; the checks themselves count on plateaus
  evaluated every _EVAL_MS, creep settling after the stones are poured): a reading within 1/4
  stone of
  it before then, its count confident (or the bowl not enrolled yet), is quiet - it changes
  nothing, not even the window (quiet()) - so the app drops it before the tracker, the session
  log and the journal (issue 20: "Bowl readings between moves should cost a small fraction of
  a move"), and a log replayed with or without such readings gives the same counts.
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
- Reconciliation with the board (1996 Rule 2, "Location of stones"): for each colour
  bowl + on board + prisoners (lid) + hand = 180. The board's counts come from the tracker; a
  decrease of a colour on the board is taken as prisoners (they may sit in a lid or be returned
  to the bowl; once the bowl shows them back, they are no longer allowed for). One stone short
  for the player to move is normal (a stone in hand). Anything else is a mismatch; it becomes a
  `bowl-mismatch` alert when it is still there at a second board position or after
  `persist_ms`, so a dropped stone is reported within two moves and a stone in flight is not.
  At the three checks the comparison is immediate.

Limits (honest physics): a bias the scale cannot see (creep under load, a calibration error,
temperature) adds straight to the estimate: up to ~1 g it only costs confidence; above ~3 g
(half a stone) a weighing cannot tell a missing stone from a biased scale, hence the bias
allowance and the zero-wander alert. A resting hand or a tilted bowl that stays still looks
like a settled reading; the persistence rule keeps that from raising alerts. A lid with its own
cell (lid()) is counted by the stones dropped in or taken out; without one, prisoners are
allowed for from the board's counts.

API (the tracker): Bowls(config_bowls, size); feed(color, grams, now_ms) per reading
(quiet(color, grams, now_ms): True when feed would change nothing);
fault(color, now_ms, why) when a driver reports no reading; lid(owner, grams, now_ms) per reading
of a lid's own load cell; on_board(black, white, now_ms,
to_play) after each accepted move or removal; check(phase, now_ms, black=None, white=None)
-> the `bowls` event; poll() -> alert events; count(color) -> (n or None); snapshot()/restore().
Colours are "B"/"W" or the board's BLACK (1) / WHITE (2).
"""

from micropython import const

from ingboard.alerts import alert_text

_ACCEPT_CS = const(30)  # fractional part within +-0.30 stone (centi-stones)
_MAX_U_CS = const(14)  # uncertainty at most 0.14 stone: a wrong integer needs a 5 sigma error
_NOMINAL_STONE_MG = const(6500)  # 1991 Art. 12: standard stone 6.5 g (before enrolment)
_EVAL_MS = const(500)  # re-evaluate a settled plateau at most this often
_STEADY_EVALS = const(4)  # ... unless this many evaluations in a row gave the same count
_STEADY_MS = const(2000)  # then at most this often (until the count or the board changes)
_MAX_ALERTS = const(16)
_MAX_SE_MG = const(15000)  # keeps se*se + ref_se*ref_se below 2**30
# Net of the empty bowl; beyond it a reading is refused. Stones poured back in at the put-away
# give impact spikes of 10-13 kg for a moment (host_tools/bowl_model.py), so the bound is well
# above those; 100 kg, NaN or infinity are faults.
MAX_READING_G = const(50000)

PHASES = ("before", "play", "after-count", "put-away")
_NAMES = ("B", "W")
_CONFIG_KEYS = (
    "B",
    "W",
    "window",
    "bias_g",
    "creep_g_per_min",
    "zero_limit_g",
    "persist_ms",
    "prisoners",
    "pass_stones",
)
# Where captured stones go (config bowls.prisoners): "lid" - kept out of the bowl, in the
# lid, until the count (Ing 1991 Art. 13 "The bowls should have removable lids that can be
# turned upside down to hold removed stones"; AGA prisoners); "bowl" - returned to their
# owner's bowl at once (Ing 1996 Rule 2 "(or return them to the opponent)"; Kim/Simon/Straus
# Part 1 2 "Captured stones are returned to the opponent's bowl").
PRISONERS = ("lid", "bowl")
# A stone taken out of the passer's bowl at each pass play (config bowls.pass_stones): "none";
# "prisoner" - handed to the opponent as a prisoner (AGA Rule 7: "a player passing must hand
# the opponent a stone as a prisoner"); "beside" - Ing 1991 Art. 9 "Passing" (2): "he should
# place one stone beside the board" (Ing 1996 Rule 2 "Shoutan": "at the side of the board").
# A prisoner pass stone is allowed for outside the bowl until the count, like any prisoner. A
# stone beside the board is only the pass's signal: the passer's own stone, which goes back to
# their bowl once play goes on (Ing 1991 Art. 9 "Counting" (2) "Location of stones: During the
# game, there should be no stones except the live and dead stones on the board, unplayed stones
# in the bowls, and removed stones in their designated containers"). It is allowed for from the
# pass until the passer's next board play, and no longer once the bowl shows it back - so it
# never hides a stone dropped later.
PASS_STONES = ("none", "prisoner", "beside")
# Board positions after a capture by which (under rules that return prisoners at once) the
# captured stones must be back in their bowl: three moves of each player.
_PRISONER_POSITIONS = const(6)
# Where a lid is weighed (lid()), the board positions after a capture by which its prisoners
# must be in the lid or back in their bowl: lifted, then dropped in by the next move.
_LID_POSITIONS = const(2)
_COLOUR_KEYS = ("w180_g", "spread_pct", "temp_c")


def plausible(grams):
    """True for a load-cell reading the bowls can use: a finite number of grams within
    +-MAX_READING_G (a full bowl of 180 stones is about 1.2 kg; a pour's impact spike 10-13 kg)."""
    if isinstance(grams, bool) or not isinstance(grams, (int, float)):
        return False
    return -MAX_READING_G <= grams <= MAX_READING_G  # False for NaN


def _to_mg(grams, what):
    if isinstance(grams, bool) or not isinstance(grams, (int, float)):
        raise TypeError("%s must be a number of grams, not %r" % (what, grams))
    if grams != grams or grams > 1e5 or grams < -1e5:
        raise ValueError("%s out of range: %r g" % (what, grams))
    mg = grams * 1000
    return int(mg + 0.5) if mg >= 0 else -int(-mg + 0.5)


def _index(color):
    if color in ("B", "b", 1):
        return 0
    if color in ("W", "w", 2):
        return 1
    raise ValueError("colour must be B or W, not %r" % (color,))


def _isqrt(n):
    # Newton's method on ints: the same result on CPython and MicroPython.
    if n <= 0:
        return 0
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def _centi(num, den):
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
    band = bowl.stone_mg() // 4
    return -band <= v - bowl.plateau <= band


def _off_board(bowls, bowl):
    # The stones of this set out of its bowl and off the board (prisoners, pass stones) as a
    # set never enrolled is weighed against (_evaluate): a weighed lid counts those in it
    # (lid()) - the prisoners' allowance in_lid is cleared once they are there, so it alone
    # would take them for stones in the bowl - and in_lid the ones still on their way to it.
    # Pass stones handed over as prisoners (AGA Rule 7) lie in that lid too.
    lidded = bowl.in_lid
    beside = bowl.pass_out
    if bowls.pass_stones == "prisoner":
        lidded += beside
        beside = 0
    if bowl.lid_n > lidded:
        lidded = bowl.lid_n
    return lidded + beside


def _fresh(bowl):
    # The last weighing was made after this colour's stones on the board last changed: it is
    # no count from before the stone just played left the bowl (placed and pressed before
    # the bowl was read again).
    return bowl.eval_fed > bowl.changed_fed


def _unsteady(bowl):
    # Evaluated every _EVAL_MS again: its count changed, or something may have (see feed).
    bowl.steady = 0
    bowl.eval_ms = _EVAL_MS


class _Bowl:
    """One colour's bowl: readings window, enrolment, zero, count and board bookkeeping."""

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
        # Readings fed so far, and their number at the last weighing and at the last change of
        # this colour's stones on the board: a weighing is fresh (_fresh) when it was made
        # after that change.
        self.fed = 0
        self.eval_fed = 0
        self.changed_fed = 0
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
        self.on_board = 0
        self.in_lid = 0  # prisoners that may still be outside the bowl (see lid())
        # Stones of this set in the opponent's lid as its own load cell counts them (lid());
        # -1: no lid cell, or its count is uncertain - then in_lid allows for them.
        self.lid_n = -1
        self.lid_ref_n = 0  # the lid's last confident count and its weight (mg): counted on
        self.lid_ref_mg = 0  # from there by the stones dropped in or taken out (event counting)
        self.lid_version = 0  # board position at which prisoners were last taken
        self.pass_out = 0  # pass stones allowed for outside this bowl (PASS_STONES)
        self.pass_seen = 0  # of them, seen out of the bowl ("beside": then seen back)
        self.mis = 0  # unexplained difference (+ surplus / - deficit), 0 = none
        self.mis_version = -1
        self.mis_seen = 0
        self.mis_since = 0
        self.mis_alerted = 0
        self.faulty = False
        self.refused = False  # the last reading was refused (out of range); alerted once
        self.zero_alerted = False

    def stone_mg(self):
        return self.w180 // self.total if self.w180 else _NOMINAL_STONE_MG


class Bowls:
    """Both bowls of a set; see the module docstring for the model and the API."""

    def __init__(self, config_bowls=None, size=19, prisoners_returned=False, pass_stones="none"):
        if isinstance(size, bool) or not isinstance(size, int) or not 5 <= size <= 19:
            raise ValueError("board size must be an int 5..19, not %r" % (size,))
        cfg = {} if config_bowls is None else config_bowls
        if not isinstance(cfg, dict):
            raise TypeError("bowls config must be a dict, not %r" % (cfg,))
        for key in cfg:
            if key not in _CONFIG_KEYS:
                raise ValueError("unknown bowls config key %r" % (key,))
        self.total = (size * size - 1) // 2  # 1991 Art. 12: half the points minus one
        window = cfg.get("window", 8)
        if isinstance(window, bool) or not isinstance(window, int) or not 4 <= window <= 64:
            raise ValueError("bowls.window must be an int 4..64, not %r" % (window,))
        self.bias = _to_mg(cfg.get("bias_g", 0.5), "bowls.bias_g")
        self.creep = _to_mg(cfg.get("creep_g_per_min", 0.3), "bowls.creep_g_per_min")
        self.zero_limit = _to_mg(cfg.get("zero_limit_g", 5.0), "bowls.zero_limit_g")
        self.persist_ms = cfg.get("persist_ms", 120000)
        if self.bias < 0 or self.creep < 0 or self.zero_limit <= 0:
            raise ValueError("bowls.bias_g, creep_g_per_min >= 0 and zero_limit_g > 0 required")
        if not isinstance(self.persist_ms, int) or self.persist_ms <= 0:
            raise ValueError("bowls.persist_ms must be a positive int")
        self.bowls = (_Bowl("B", window, self.total), _Bowl("W", window, self.total))
        # Captured stones returned to their owner's bowl at once (PRISONERS "bowl"; the
        # ruleset's default, or the config's): then a prisoner is allowed for outside the bowl
        # only for a few board positions, so it cannot hide a drop.
        prisoners = cfg.get("prisoners", "bowl" if prisoners_returned else "lid")
        if prisoners not in PRISONERS:
            raise ValueError("bowls.prisoners must be one of %s, not %r" % (PRISONERS, prisoners))
        self.prisoners_returned = prisoners == "bowl"
        self.pass_stones = cfg.get("pass_stones", pass_stones)
        if self.pass_stones not in PASS_STONES:
            raise ValueError(
                "bowls.pass_stones must be one of %s, not %r" % (PASS_STONES, self.pass_stones)
            )
        for i in (0, 1):
            self._configure(self.bowls[i], cfg.get(_NAMES[i], {}))
        self.alerts = []
        self.playing = False
        # Between the before-game check (or the first move) and the after-count check: a still
        # bowl's count needs no evaluation every _EVAL_MS (see feed, _STEADY_MS).
        self.between_checks = False
        # The game has ended (the count; the tracker's between(False) after play): from then on
        # the journal keeps the counts (snapshot "ref").
        self.ended = False
        self.version = 0  # board position counter (one per on_board call that changes it)
        self.to_play = -1

    def _configure(self, bowl, c):
        if not isinstance(c, dict):
            raise TypeError("bowls.%s must be a dict, not %r" % (bowl.name, c))
        for key in c:
            if key not in _COLOUR_KEYS:
                raise ValueError("unknown key bowls.%s.%s" % (bowl.name, key))
        if "w180_g" in c:
            self._enrol(bowl, _to_mg(c["w180_g"], "bowls.%s.w180_g" % bowl.name))
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
    def between(self, flag):
        """The tracker's word before each reading: True from the before-game check (or the
        first move) until the game ends (the count: the after-count and put-away checks count
        on plateaus evaluated every _EVAL_MS). Set here too by check() and on_board() for a
        Bowls used alone."""
        if self.between_checks and not flag:
            self.ended = True
            for bowl in self.bowls:
                _unsteady(bowl)
        self.between_checks = flag

    def feed(self, color, grams, now_ms):
        """One reading of a bowl, in grams net of the empty bowl (may be noisy or unsettled).

        A reading that is not a finite number within +-MAX_READING_G (NaN, infinity, a 100 kg
        spike: a load cell is a trust boundary, issue 19) is refused: one `sensor-fault` alert
        per run of such readings, and nothing else changes."""
        bowl = self.bowls[_index(color)]
        if not plausible(grams):
            if not bowl.refused:
                bowl.refused = True
                text = "%s bowl scale: reading %r g refused (not within +-%d g)" % (
                    bowl.name,
                    grams,
                    MAX_READING_G,
                )
                self._alert("sensor-fault", text, bowl.name, now_ms)
            return
        bowl.refused = False
        v = _to_mg(grams, "bowl reading") - bowl.zero
        if _quiet(bowl, v, now_ms):
            return
        bowl.faulty = False
        bowl.fed += 1
        h = bowl.head
        bowl.vals[h] = v
        n = bowl.window
        bowl.head = (h + 1) % n
        if bowl.filled < n:
            bowl.filled += 1
            if bowl.filled < n:
                return
        vals = bowl.vals
        lo = hi = v
        first = 0
        second = 0
        half = n // 2
        j = bowl.head  # oldest reading
        for k in range(n):
            x = vals[j]
            if x < lo:
                lo = x
            elif x > hi:
                hi = x
            if k < half:
                first += x
            else:
                second += x
            j += 1
            if j == n:
                j = 0
        stone = bowl.stone_mg()
        trend = second // (n - half) - first // half
        p = (first + second) // n
        # Hysteresis: a settled bowl stays settled through one noisy window (range up to a
        # stone) as long as its mean stays within 1/4 stone of the plateau.
        limit = (stone * 3) // 4
        slope = stone // 4
        # Not when the newest reading is half a stone off the plateau: a stone has come or
        # gone (a window mixing both plateaus would count the old one).
        if (
            bowl.settled
            and -(stone // 4) <= p - bowl.plateau <= stone // 4
            and -(stone // 2) <= v - bowl.plateau <= stone // 2
        ):
            limit = stone
            slope = stone // 3
        if hi - lo > limit or trend > slope or trend < -slope:
            bowl.settled = False
            _unsteady(bowl)
            return
        if (
            bowl.settled
            and bowl.count >= 0
            and bowl.last_eval is not None
            and now_ms - bowl.last_eval < bowl.eval_ms
            and -(stone // 4) <= p - bowl.plateau <= stone // 4
        ):
            return
        bowl.settled = True
        bowl.range = hi - lo
        bowl.plateau = p
        bowl.plateau_se = min(_MAX_SE_MG, (hi - lo) // (3 * _isqrt(n * 100) // 10) + 1)
        bowl.last_eval = now_ms
        before = bowl.count
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
            _unsteady(bowl)

    def quiet(self, color, grams, now_ms):
        """True when feed(color, grams, now_ms) would change nothing: the bowl is settled, its
        plateau was evaluated less than _EVAL_MS ago and the reading is within 1/4 stone of it
        (see the module docstring). Pure and cheap: what the app asks before it hands a reading
        on (issue 20)."""
        bowl = self.bowls[_index(color)]
        if bowl.refused or not plausible(grams):
            return False
        return _quiet(bowl, _to_mg(grams, "bowl reading") - bowl.zero, now_ms)

    def fault(self, color, now_ms, why=""):
        """The driver has no reading for this bowl (chip missing, timeout): counts uncertain."""
        bowl = self.bowls[_index(color)]
        if not bowl.faulty:
            text = "%s bowl scale: no reading%s" % (bowl.name, (" (" + why + ")") if why else "")
            self._alert("sensor-fault", text, bowl.name, now_ms)
        bowl.faulty = True
        bowl.settled = False
        _unsteady(bowl)
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
        cs = total * 100 - _centi((w - p) * total, w)
        k = total - (cs + 50) // 100
        if k < 0:
            k = 0
        elif k > total:
            k = total
        var = se * se + (sd_s * sd_s * k * (total - k)) // (total - 1)
        found, conflict = self._judge(cs, _isqrt(var) + self.bias, stone, found, conflict)
        # relative: the weight difference to the last confident plateau (event counting)
        if bowl.ref_n >= 0:
            d = p - bowl.ref_p
            cs = bowl.ref_n * 100 + _centi(d * total, w)
            j = abs((cs + 50) // 100 - bowl.ref_n)
            dt = now_ms - bowl.ref_t
            creep = (self.creep * dt) // 60000 if dt > 0 else 0
            var = se * se + bowl.ref_se * bowl.ref_se + sd_s * sd_s * j
            found, conflict = self._judge(cs, _isqrt(var) + creep, stone, found, conflict)
        if conflict or found < 0:
            return -1
        return found

    @staticmethod
    def _judge(cs, u_mg, stone, found, conflict):
        n = (cs + 50) // 100
        frac = cs - n * 100
        u_cs = (min(u_mg, _MAX_SE_MG) * 100) // stone
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
            if self.playing and self.to_play == _index(bowl.name):
                # This colour is to move: a stone may be in the hand, or on the board before
                # the press - the plateau is no measure of the set.
                return
            out = bowl.on_board + _off_board(self, bowl)
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
                % (bowl.name, _grams(bowl.zero)),
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
        bowl = self.bowls[_index(color)]
        if bowl.faulty or not bowl.settled or bowl.count < 0:
            return None
        return bowl.count

    # ---------------------------------------------------------------- the board
    def on_board(self, black, white, now_ms, to_play=None):
        """The game's stone counts changed (after a move, a removal, a retraction, a fill-in)."""
        counts = (black, white)
        for c in counts:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= self.total:
                raise ValueError("stones on the board must be 0..%d, not %r" % (self.total, c))
        self.to_play = -1 if to_play is None else _index(to_play)
        for i in (0, 1):
            bowl = self.bowls[i]
            if not bowl.w180 and bowl.candidate is not None and counts[i] > 0:
                self._enrol_candidate(bowl)
            if counts[i] != bowl.on_board:
                bowl.changed_fed = bowl.fed
            if counts[i] < bowl.on_board:
                if bowl.lid_n >= 0 and self.version - bowl.lid_version >= _LID_POSITIONS:
                    # A weighed lid: the earlier prisoners are in it or back in the bowl by
                    # now; only the new ones may be on their way (a later capture never
                    # renews the allowance of an earlier one: a lost stone shows).
                    bowl.in_lid = 0
                bowl.in_lid += bowl.on_board - counts[i]  # prisoners (or a retraction)
                bowl.lid_version = self.version
            elif counts[i] > bowl.on_board and self.pass_stones == "beside" and self.playing:
                # (not the first position told after a restart: the journal's pass_out stands)
                # The passer plays on: the stone beside the board is back in the bowl by now
                # (PASS_STONES); one still out is missing from here on.
                bowl.pass_out = 0
                bowl.pass_seen = 0
            elif bowl.in_lid and (
                (bowl.lid_n >= 0 and self.version - bowl.lid_version >= _LID_POSITIONS)
                or (
                    self.prisoners_returned
                    and self.version - bowl.lid_version >= _PRISONER_POSITIONS
                )
            ):
                # Long enough to put them back (or, where the lid is weighed, into the lid):
                # a shortage is now a loss.
                bowl.in_lid = 0
            bowl.on_board = counts[i]
        self.version += 1
        self.playing = True
        self.between_checks = True
        for bowl in self.bowls:
            if bowl.count >= 0 and bowl.settled and not bowl.faulty:
                self._reconcile(bowl, now_ms)

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
                event[bowl.name] = _grams(w)
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
                    "%s bowl: %s g is not a full set of %d stones" % (bowl.name, _grams(w), total),
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

    def lid(self, owner, grams, now_ms):
        """A reading of the load cell under the lid of `owner`'s bowl, in grams net of the
        empty lid: the prisoners `owner` took, stones of the other colour (Ing 1991 Art. 13
        "The bowls should have removable lids that can be turned upside down to hold removed
        stones"; 1996 Rule 2 "Goe equipment" (2) "captured stones in their designated
        containers (or return them to the opponent)"; AGA Rule 7 pass stones handed over as
        prisoners go there too).

        The lid is counted like a bowl, by the stones dropped in or taken out since its last
        confident count (an empty lid is exact), and from then on that set's stones in the lid
        are accounted for exactly: never a mismatch, under either ruleset's convention, and
        no longer a blanket allowance either - a prisoner neither in the lid nor back in its
        bowl two board positions after its capture is missing (a stone really lost). A lid
        reading that is not a whole number of stones (a hand in it, a stone on its rim) leaves
        the lid uncertain: the allowances of PRISONERS apply until a confident reading."""
        bowl = self.bowls[1 - _index(owner)]
        if not plausible(grams):
            bowl.lid_n = -1
            return
        mg = _to_mg(grams, "lid reading")
        stone = bowl.stone_mg()
        sd_s = stone * bowl.spread_pct // 100
        cs = bowl.lid_ref_n * 100 + _centi(mg - bowl.lid_ref_mg, stone)
        j = abs((cs + 50) // 100 - bowl.lid_ref_n)
        u = _isqrt(sd_s * sd_s * j) + self.bias
        found, _conflict = self._judge(cs, u, stone, -1, False)
        if found < 0 or found > self.total:
            bowl.lid_n = -1
            return
        bowl.lid_n = found
        bowl.lid_ref_n = found
        bowl.lid_ref_mg = mg
        if self.playing and bowl.count >= 0 and bowl.settled and not bowl.faulty:
            self._reconcile(bowl, now_ms)

    def pass_stone(self, color, now_ms, n=1):
        """color made a pass play (n=-1: it was retracted): under the pass-stone convention a
        stone of color's set leaves the bowl (PASS_STONES) and is allowed for from now on."""
        if self.pass_stones == "none":
            return
        bowl = self.bowls[_index(color)]
        bowl.pass_out = max(0, bowl.pass_out + n)
        bowl.pass_seen = min(bowl.pass_seen, bowl.pass_out)

    def _reconcile(self, bowl, now_ms):
        n = bowl.count
        hi = self.total - bowl.on_board
        lid = bowl.lid_n
        # Counted in a weighed lid: neither on the board nor in the bowl, never missing. (The
        # lid only narrows what may be missing: a surplus is judged as without it.)
        base = hi - lid if lid >= 0 else hi
        out = base - n  # stones of this set neither on the board, in the bowl nor a weighed lid
        if self.pass_stones == "beside" and bowl.pass_out:
            # A stone beside the board seen back in the bowl is no longer allowed for (one
            # not yet seen out still is: the press may come before it leaves the bowl).
            seen = out - bowl.in_lid
            if seen > bowl.pass_seen:
                bowl.pass_seen = min(seen, bowl.pass_out)
            elif seen < bowl.pass_seen:
                back = bowl.pass_seen - (seen if seen > 0 else 0)
                bowl.pass_out -= back
                bowl.pass_seen -= back
        passing = bowl.pass_out
        if lid >= 0 and self.pass_stones == "prisoner":
            passing = 0  # AGA pass stones go into the opponent's lid: counted there
        lo = base - bowl.in_lid - passing
        if lo <= n <= hi:
            # Prisoners seen back in the bowl are no longer allowed for. Prisoner pass stones
            # stay allowed for: the press may come before the stone leaves the bowl.
            # Only on a weighing made since this colour's stones on the board last changed:
            # a stale one (the bowl not settled since the stone just played left it) would
            # take a prisoner for one returned.
            out -= passing
            if _fresh(bowl):
                bowl.in_lid = out if out > 0 else 0
            bowl.mis = 0
            bowl.mis_alerted = 0
            return
        if n > hi:
            diff = n - hi
        else:
            diff = n - lo
            if self.to_play == _index(bowl.name):
                diff += 1  # one stone in the hand of the player to move is normal
                if not diff:
                    return
        if bowl.mis == 0 or (bowl.mis > 0) != (diff > 0):
            # A new episode: seen at how many board positions, since when.
            bowl.mis_seen = 0
            bowl.mis_since = now_ms
            bowl.mis_version = -1
            bowl.mis_alerted = 0
        bowl.mis = diff
        if bowl.mis_version != self.version and _fresh(bowl):
            # Seen at a new board position, weighed since this colour's stones on the board
            # last changed: a count weighed before the stone just played left the bowl (the
            # bowl has not settled since: place and press within a reading) is not a sighting.
            bowl.mis_version = self.version
            bowl.mis_seen += 1
        if abs(diff) > bowl.mis_alerted and (
            bowl.mis_seen >= 2 or now_ms - bowl.mis_since >= self.persist_ms
        ):
            bowl.mis_alerted = abs(diff)
            other = self.bowls[1 - _index(bowl.name)]
            self._mismatch(bowl, n, n - diff, other.mis, now_ms)

    def _mismatch(self, bowl, n, expected, other_diff, now_ms):
        d = n - expected
        colour = "Black" if bowl.name == "B" else "White"
        if d < 0:
            cause = "dropped or pocketed"
            if other_diff > 0:
                cause = "in the %s bowl" % ("white" if bowl.name == "B" else "black")
            text = "%s: %d stone%s short (%s?); bowl %d, expected %d" % (
                colour, -d, "" if d == -1 else "s", cause, n, expected)  # fmt: skip
        else:
            cause = "from the other bowl or not of this set"
            if other_diff < 0:
                cause = "from the %s bowl" % ("white" if bowl.name == "B" else "black")
            text = "%s: %d stone%s too many (%s?); bowl %d, expected %d" % (
                colour, d, "" if d == 1 else "s", cause, n, expected)  # fmt: skip
        self._alert("bowl-mismatch", text, bowl.name, now_ms)

    # ---------------------------------------------------------------- checks
    def check(self, phase, now_ms, black=None, white=None, kept_out=False):
        """One of the three checks (or "play"): the `bowls` event; alerts go to poll().

        before: 180 each, enrolling now a set not yet enrolled (1991 Art. 9 custom 1);
        after-count: every stone on the board or in the bowl as the count requires (pass the
        board's counts after filling in); put-away: 180 each (1991 Art. 9 custom 3; 1996 Rule 2).
        kept_out (after-count): a count that leaves the prisoners where they are - AGA Rule 12
        area counting ("Prisoners are ignored"), or territory counted before the prisoners
        are filled in - so the prisoners and prisoner pass stones still out of the bowl are
        expected out of it (the Ing fill-in puts every stone on the board or in its bowl)."""
        if phase not in PHASES:
            raise ValueError("bowls check phase must be one of %s, not %r" % (PHASES, phase))
        if black is not None or white is not None:
            b = self.bowls[0].on_board if black is None else black
            w = self.bowls[1].on_board if white is None else white
            for i, c in ((0, b), (1, w)):
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= self.total:
                    raise ValueError("stones on the board must be 0..%d, not %r" % (self.total, c))
                self.bowls[i].on_board = c
        event = {"type": "bowls", "t": now_ms, "phase": phase}
        expect = {}
        confident = True
        diffs = [0, 0]
        for i in (0, 1):
            bowl = self.bowls[i]
            if phase == "before" and not bowl.w180 and bowl.candidate is not None:
                if bowl.settled and not bowl.faulty:
                    self._enrol_candidate(bowl)
            n = self.count(bowl.name)
            if phase == "before" and not bowl.verified:
                # Ing 1991 Art. 9 "Counting" (1): a set never counted with the frame is not
                # confirmed as 180 by its own weight ("unverified"; check_text).
                n = None
            if phase == "put-away":
                expected = self.total
            elif phase == "play":
                expected = None
            elif phase == "after-count" and kept_out and bowl.lid_n >= 0:
                # The lid says how many prisoners are out (a few may still be on their way).
                expected = self.total - bowl.on_board
                low = expected - bowl.lid_n - bowl.in_lid
                if n is not None and low <= n < expected:
                    expected = n
                elif n is None or n < low:
                    expected = low
            elif phase == "after-count" and kept_out:
                expected = self.total - bowl.on_board - bowl.in_lid
                if self.pass_stones == "prisoner":
                    expected -= bowl.pass_out
            else:
                expected = self.total - bowl.on_board
            if (
                phase == "after-count"
                and self.pass_stones == "beside"
                and n is not None
                and expected - bowl.pass_out <= n < expected
            ):
                # Ing 1991 Art. 9 "Passing" (2): the stones of the last pass plays may still
                # lie beside the board ("one stone beside the board"): accounted for.
                expected = n
            if n is None:
                confident = False
            elif expected is not None:
                diffs[i] = n - expected
            event[bowl.name] = n
            expect[bowl.name] = expected
        for i in (0, 1):
            if diffs[i]:
                bowl = self.bowls[i]
                n = event[bowl.name]
                self._mismatch(bowl, n, n - diffs[i], diffs[1 - i], now_ms)
        event["confident"] = confident
        event["expected"] = expect
        event["verified"] = {"B": self.bowls[0].verified, "W": self.bowls[1].verified}
        if phase == "before":
            self.between_checks = True  # made: until the first move nothing needs counting
        if phase == "after-count":
            self.playing = False  # putting away follows: no reconciliation with the board
            self.between_checks = False
            for bowl in self.bowls:
                _unsteady(bowl)  # the put-away check counts on the latest readings
            for bowl in self.bowls:
                bowl.in_lid = 0  # the count filled every prisoner in
                bowl.pass_out = 0  # and every pass stone
        return event

    # ---------------------------------------------------------------- alerts, persistence
    def _alert(self, code, detail, color, now_ms):
        if len(self.alerts) >= _MAX_ALERTS:
            self.alerts.pop(0)
        self.alerts.append(
            {
                "type": "alert",
                "t": now_ms,
                "code": code,
                "points": [],
                "color": color,
                "text": alert_text(code) + " " + detail,
            }
        )

    def poll(self):
        """The alerts raised since the last poll (oldest first)."""
        out = self.alerts
        self.alerts = []
        return out

    def snapshot_key(self):
        """What snapshot() is made of, as a tuple of the bowls' own values (no float or dict
        made): equal keys give equal snapshots. The journal compares it at every sync and
        makes the snapshot only when it changed (issue 20: a bowl reading's cost)."""
        a, b = self.bowls
        # From the count on the counts are in it too: a new count is a new snapshot (see
        # snapshot(), "ref"). During play they are not: a record at every stone taken would
        # cost more than it keeps.
        counts = (a.kept, b.kept) if self.ended else None
        return (
            a.zero,
            a.spread_pct,
            a.w180,
            a.verified,
            a.temp_c,
            a.pass_out,
            b.zero,
            b.spread_pct,
            b.w180,
            b.verified,
            b.temp_c,
            b.pass_out,
            counts,
        )

    def snapshot(self):
        """Enrolment and zero of both bowls, JSON-ready, for the journal (keep snapshot_key()
        in step with what it reads). From the count on each bowl's last confident count goes
        with them ("ref": [count, plateau g, its standard error g, board time]): a power cut
        between the count and the after-count check (Ing 1991 Art. 9 "Counting" (3): the check "to
        confirm that the game was counted correctly") then loses neither the check nor its
        counts - see restore()."""
        snap = {}
        keep_ref = self.ended
        for bowl in self.bowls:
            s = {"zero_g": _grams(bowl.zero), "spread_pct": bowl.spread_pct}
            if bowl.w180:
                s["w180_g"] = _grams(bowl.w180)
                if bowl.verified:
                    s["verified"] = True
            if bowl.temp_c is not None:
                s["temp_c"] = bowl.temp_c
            if bowl.pass_out:
                s["pass_out"] = bowl.pass_out
            kept = bowl.kept
            if keep_ref and bowl.w180 and kept is not None:
                s["ref"] = [kept[0], _grams(kept[1]), _grams(kept[2]), kept[3]]
            snap[bowl.name] = s
        return snap

    def restore(self, snap):
        """Undo of snapshot(): enrolment and zero come back; counts re-settle from readings.

        A bowl restored with its last confident count ("ref") goes on from that plateau: it is
        the reference of the relative count again (a bowl half full is counted to the stone
        only by the stones taken and returned since a confident count), and the readings'
        window starts out holding it, so a first reading after the restart that agrees with it
        within the noise settles the bowl at once instead of after a whole window (the players
        may begin to put the stones away before a whole window is read: the after-count check
        must come first). A reading a stone or more away from it (stones moved while the power
        was off) unsettles the bowl until a whole window of new readings agrees. The count
        stays uncertain until a new reading has been weighed."""
        for bowl in self.bowls:
            s = snap.get(bowl.name, {}) if isinstance(snap, dict) else None
            if not isinstance(s, dict):
                raise TypeError("bowls snapshot must be a dict of dicts, not %r" % (snap,))
            bowl.zero = _to_mg(s.get("zero_g", 0), "zero_g")
            if "w180_g" in s:
                self._enrol(bowl, _to_mg(s["w180_g"], "w180_g"))
            bowl.verified = bool(s.get("verified", False))
            if "spread_pct" in s:
                bowl.spread_pct = s["spread_pct"]
            bowl.temp_c = s.get("temp_c")
            bowl.pass_out = s.get("pass_out", 0)
            bowl.filled = 0
            bowl.settled = False
            bowl.count = -1
            bowl.last_eval = None
            ref = s.get("ref")
            if ref is not None and bowl.w180:
                _restore_ref(bowl, ref)
                self.ended = True


def _restore_ref(bowl, ref):
    # snapshot()'s "ref" of one bowl: the relative count's reference, and the readings' window
    # holding that plateau (Bowls.restore).
    if not isinstance(ref, list) or len(ref) != 4:
        raise TypeError("bowls snapshot ref must be [count, grams, grams, ms], not %r" % (ref,))
    n, p, se, t = ref
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= bowl.total:
        raise ValueError("bowls snapshot ref count out of range: %r" % (n,))
    if isinstance(t, bool) or not isinstance(t, int):
        raise TypeError("bowls snapshot ref time must be an int, not %r" % (t,))
    p = _to_mg(p, "ref plateau")
    bowl.ref_n = n
    bowl.ref_p = p
    bowl.ref_se = min(_MAX_SE_MG, max(0, _to_mg(se, "ref error")))
    bowl.ref_t = t
    bowl.kept = (n, p, bowl.ref_se, t)
    for i in range(bowl.window):
        bowl.vals[i] = p
    bowl.head = 0
    bowl.filled = bowl.window


def _grams(mg):
    # Exact decimal grams from mg without float rounding noise in the journal.
    return mg / 1000


def check_text(event, color):
    """Display text of a `bowls` event for one colour: '180 ok', '179 !' (not as expected), '---'.

    '---' is an uncertain count (the bowl is moving, the scale is noisy or faulty); 'unverified'
    a before-game check of a set whose weight was never enrolled after a count with the frame.
    """
    name = _NAMES[_index(color)]
    n = event.get(name)
    if event.get("phase") == "before" and not (event.get("verified") or {}).get(name, True):
        return "unverified"  # Ing 1991 Art. 9 "Counting" (1): count the set with the frame
    if n is None:
        return "---"
    expected = event.get("expected", {}).get(name)
    if expected is None:
        return "%d" % n
    return "%d %s" % (n, "ok" if n == expected else "!")

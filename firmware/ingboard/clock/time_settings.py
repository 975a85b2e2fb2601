"""A Clock's settings (the session log's config `time` dict, time_systems.py's docstring): read
and checked, with a clear ValueError, when a Clock is made. TimeSystem imports this module for
that and drops it after: a game reads its settings once.
"""

from micropython import const

# In the order of time_systems.py's _NONE.._FISCHER (the Clock's `_sys`).
SYSTEMS = ("none", "absolute", "ing-pp", "byoyomi", "canadian", "fischer")
ING_PP_PERIODS = const(3)  # Ing 1996 Rule 9: "Each player is limited to three periods"
_MAX_S = const(86400)  # one day: Ing 1991 Art. 7 "games should be completed in one day"
_WARN_MS = const(300000)  # the default lead time of the timekeeper's warnings (5 minutes)

# The keys each system accepts besides "system" (and the ambiguity settings).
_KEYS = {
    "none": (),
    "absolute": ("basic_s", "late_forfeit", "warn_s"),
    "ing-pp": ("basic_s", "periods", "exceeded", "pp_base", "late_forfeit", "warn_s"),
    "byoyomi": ("basic_s", "periods", "period_s", "exceeded", "late_forfeit", "warn_s"),
    "canadian": ("basic_s", "stones", "period_s", "exceeded", "late_forfeit", "warn_s"),
    "fischer": ("basic_s", "increment_s", "exceeded", "late_forfeit", "warn_s"),
}
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


def read(clock, time):
    """Set `clock`'s settings (system, basic_ms, periods, ...) from `time` (None: no clock)."""
    cfg = {"system": "none"} if time is None else time
    if not isinstance(cfg, dict):
        raise ValueError("time settings must be a dict, not %r" % (cfg,))
    system = cfg.get("system")
    if system not in SYSTEMS:
        raise ValueError("time.system must be one of %s, not %r" % (", ".join(SYSTEMS), system))
    clock.system = system
    clock._sys = SYSTEMS.index(system)
    clock._timed = system != "none"  # the clock counts time at all
    for key in cfg:
        if key not in _ALL_KEYS:
            raise ValueError("unknown time setting %r" % (key,))
        if key != "system" and key not in _KEYS[system]:
            raise ValueError("time.%s does not apply to system %s" % (key, system))
    lo_basic = 1 if system in ("absolute", "ing-pp", "fischer") else 0
    clock.basic_ms = _seconds_ms(cfg, "basic_s", lo_basic, system != "none")
    clock.periods = 0
    clock.period_ms = 0
    clock.stones = 0
    clock.increment_ms = 0
    if system == "ing-pp":
        # Ing 1991 Art. 7 (1): penalties at 1/6, 2/6 of B, forfeit past 3/6: three periods.
        clock.periods = _count(cfg, "periods", ING_PP_PERIODS, ING_PP_PERIODS, ING_PP_PERIODS)
    elif system == "byoyomi":
        clock.periods = _count(cfg, "periods", 1, 1000, None)
        clock.period_ms = _seconds_ms(cfg, "period_s", 1, True)
    elif system == "canadian":
        clock.periods = 1  # a block that runs out forfeits; full blocks start new ones
        clock.stones = _count(cfg, "stones", 1, 1000, None)
        clock.period_ms = _seconds_ms(cfg, "period_s", 1, True)
    elif system == "fischer":
        clock.increment_ms = _seconds_ms(cfg, "increment_s", 0, True)
    clock.exceeded = ("after", "at")[_choice(cfg, "exceeded", ("after", "at"))]
    clock._at = clock.exceeded == "at"
    clock.pp_base = ("stipulated", "reduced")[_choice(cfg, "pp_base", ("stipulated", "reduced"))]
    late = cfg.get("late_forfeit", False)
    if late is not True and late is not False:
        raise ValueError("time.late_forfeit must be true or false, not %r" % (late,))
    if late and not clock.basic_ms:
        raise ValueError("time.late_forfeit needs basic time (1/6 of it is the limit)")
    clock.late_forfeit = late
    # Ing 1991 Art. 10 "Timekeeper": "inform a player when he is about to run out of basic
    # time or additional time": a warning cue `warn_s` before the basic time ends, before
    # each Ing penalty-point period ends (the next points) and before the forfeit; half
    # the span when the span is shorter than twice that, so a short basic time is warned
    # too. 0: no warnings.
    clock.warn_ms = _seconds_ms(cfg, "warn_s", 0, False) if "warn_s" in cfg else _WARN_MS

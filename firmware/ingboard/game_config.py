"""What a game's config may say: the rule systems, handicap styles, time systems and buttons,
and `check_config(config)`, which raises ValueError naming the problem.

The vocabulary shared by the session log (records/), the menus and settings (menus/), the
host's commands (link/) and the app: a config is the session log's `config` record, and the
same dict a host sends with `new-game` or the menus build. The rule systems and handicap styles
come from the rules core's one table (ingrules.rulesets).
"""

from ingrules.board import MAX_SIZE, MIN_SIZE
from ingrules.game import MAX_KOMI
from ingrules.rulesets import (
    COMPENSATIONS,
    HANDICAP_FIXED,
    HANDICAP_FREE,
    HANDICAP_ING_PLAYS,
    NAMES,
)

BUTTONS = (
    "pause",
    "resume",
    "agree",
    "dispute",
    "resign-B",
    "resign-W",
    "undo",
    "new-game",
    "accept-shift",
    "enrol",  # the players counted the set with the frame (Ing 1991 Art. 9 "Counting" (1))
)

# The rule systems and handicap styles a config may name come from rulesets.py's one table.
RULES = NAMES
HANDICAP_STYLES = (HANDICAP_ING_PLAYS, HANDICAP_FIXED, HANDICAP_FREE)
# Time systems and the keys each needs besides "system" (spec: basic_s for all but none);
# the same systems as clock.py's SYSTEMS (a test checks).
TIME_SYSTEMS = {
    "none": (),
    "absolute": ("basic_s",),
    "ing-pp": ("basic_s",),
    "byoyomi": ("basic_s", "periods", "period_s"),
    "canadian": ("basic_s", "stones", "period_s"),
    "fischer": ("basic_s", "increment_s"),
}

# Bounds of a config's numbers (a trust boundary: host lines, files): every number is finite and
# at most MAX_NUMBER (a year of milliseconds is 3.2e10); names are at most MAX_NAME characters.
MAX_NUMBER = 10**12
MAX_NAME = 64


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    """A finite number within +-MAX_NUMBER (NaN, infinities, 1e308 and huge ints are not)."""
    return (
        (isinstance(v, int) or isinstance(v, float))
        and not isinstance(v, bool)
        and -MAX_NUMBER <= v <= MAX_NUMBER
    )


def check_config(config):
    """Raise ValueError naming the problem unless `config` is a valid config object."""
    if not isinstance(config, dict):
        raise ValueError("config must be a JSON object")
    if "size" not in config:
        raise ValueError("config has no size")
    size = config["size"]
    if not is_int(size) or size < MIN_SIZE or size > MAX_SIZE:
        raise ValueError("config size must be %d..%d, not %r" % (MIN_SIZE, MAX_SIZE, size))
    if "rules" not in config:
        raise ValueError("config has no rules")
    if config["rules"] not in RULES:
        raise ValueError("unknown rules %r (one of %s)" % (config["rules"], ", ".join(RULES)))
    if "komi" in config and not (is_number(config["komi"]) and abs(config["komi"]) <= MAX_KOMI):
        raise ValueError(
            "config komi must be a number within +-%d, not %r" % (MAX_KOMI, config["komi"])
        )
    if "handicap" in config:
        h = config["handicap"]
        if not is_int(h) or h < 0 or h >= size * size:
            raise ValueError("config handicap must be a count of stones, not %r" % (h,))
    if "handicap_style" in config and config["handicap_style"] not in HANDICAP_STYLES:
        raise ValueError(
            "unknown handicap_style %r (one of %s)"
            % (config["handicap_style"], ", ".join(HANDICAP_STYLES))
        )
    if "handicap_compensation" in config and config["handicap_compensation"] not in COMPENSATIONS:
        raise ValueError(
            "unknown handicap_compensation %r (one of %s)"
            % (config["handicap_compensation"], ", ".join(COMPENSATIONS))
        )
    if "time" in config:
        _check_time(config["time"])
    if "round_start_ms" in config:
        r = config["round_start_ms"]
        if not is_int(r) or r < 0 or r > MAX_NUMBER:
            raise ValueError("config round_start_ms must be an integer >= 0, not %r" % (r,))
    if "prisoners" in config and config["prisoners"] not in ("lid", "bowl"):
        raise ValueError("config prisoners must be lid or bowl, not %r" % (config["prisoners"],))
    if "pass_stones" in config and config["pass_stones"] not in ("none", "prisoner", "beside"):
        raise ValueError(
            "config pass_stones must be none, prisoner or beside, not %r"
            % (config["pass_stones"],)
        )
    for key in ("date", "event", "round"):
        if key in config and not isinstance(config[key], str):
            raise ValueError("config %s must be a string, not %r" % (key, config[key]))
    if "players" in config:
        _check_per_colour(config["players"], "players")
        for name in config["players"].values():
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise ValueError(
                    "config players must be names of at most %d characters, not %r"
                    % (MAX_NAME, name)
                )
    if "bowls" in config:
        _check_per_colour(config["bowls"], "bowls")
        for bowl in config["bowls"].values():
            if not isinstance(bowl, dict):
                raise ValueError("config bowls.B / bowls.W must be objects")
            if "w180_g" in bowl and not (is_number(bowl["w180_g"]) and bowl["w180_g"] > 0):
                raise ValueError("config w180_g must be a positive weight in grams")


def _check_per_colour(value, key):
    if not isinstance(value, dict):
        raise ValueError("config %s must be an object" % key)
    for k in value:
        if k not in ("B", "W"):
            raise ValueError("config %s keys must be B and W, not %r" % (key, k))


def _check_time(time):
    if not isinstance(time, dict):
        raise ValueError("config time must be an object")
    system = time.get("system")
    if system not in TIME_SYSTEMS:
        raise ValueError(
            "unknown time system %r (one of %s)" % (system, ", ".join(sorted(TIME_SYSTEMS)))
        )
    for key in TIME_SYSTEMS[system]:
        if key not in time:
            raise ValueError("time system %s needs %s" % (system, key))
        if not is_number(time[key]) or time[key] < 0:
            raise ValueError("time %s must be a number >= 0, not %r" % (key, time[key]))

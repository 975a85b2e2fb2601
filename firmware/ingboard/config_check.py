"""`check_config(config)`: raises ValueError naming the problem unless `config` is a valid
game config (game_config.py says what a config may hold).

Imported where a config is checked - the app's new game, the session log's writer and reader,
the host's `new-game`, the settings - and dropped (gc_policy.drop) by the session log's writer
and reader after their check, the last a new game makes: on the stock image its code would
otherwise be heap for the whole game.
"""

from ingrules.board import MAX_SIZE, MIN_SIZE
from ingrules.game import MAX_KOMI
from ingrules.rulesets import COMPENSATIONS

from ingboard.game_config import (
    HANDICAP_STYLES,
    MAX_NUMBER,
    RULES,
    TIME_SYSTEMS,
    is_int,
    is_number,
)

MAX_NAME = 64  # a player's name, in characters


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

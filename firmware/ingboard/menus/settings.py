"""The board's own game settings: what the menus set up, remembered on flash between games.

A settings dict keeps every choice of the setup menu (menus/menu.py), also the time parameters
of the time systems not chosen now, so switching systems back and forth loses nothing:

    {"rules": "ing1991", "komi": None, "handicap": 0, "handicap_style": None,
     "time": {"system": "ing-pp", "basic_s": 3600, "periods": 5, "period_s": 30,
              "stones": 25, "increment_s": 10},
     "round_start_min": None}

`komi` and `handicap_style` None: the ruleset's own. `round_start_min` None: no lateness;
otherwise the round starts that many minutes after START is pressed and each player presses
their own key on arrival (Ing 1991 Art. 8, Ing 1996 Rule 10; see tracker.py).

`config(settings, size)` gives the session-log config of a new game (only the keys its time
system uses, game_config.TIME_SYSTEMS); `text()` / `parse()` are the file on flash
(storage_paths.SETTINGS): one line of JSON with "format": 1. A damaged file is a ValueError
naming the problem (the app then starts from DEFAULTS and says so).
"""

import json

from ingboard.config_check import check_config
from ingboard.game_config import HANDICAP_STYLES, RULES, TIME_SYSTEMS, is_int

FORMAT = 1
TIME_KEYS = ("basic_s", "periods", "period_s", "stones", "increment_s")

DEFAULTS = {
    "rules": "ing1991",
    "komi": None,
    "handicap": 0,
    "handicap_style": None,
    "time": {
        "system": "ing-pp",
        "basic_s": 3600,
        "periods": 5,
        "period_s": 30,
        "stones": 25,
        "increment_s": 10,
    },
    "round_start_min": None,
}


def defaults():
    """A fresh copy of DEFAULTS."""
    return copy(DEFAULTS)


def copy(settings):
    out = dict(settings)
    out["time"] = dict(settings["time"])
    return out


def config(settings, size):
    """The session-log config of a new game of `size` with these settings (ValueError if the
    game would refuse them)."""
    cfg = {"size": size, "rules": settings["rules"]}
    if settings["komi"] is not None:
        cfg["komi"] = settings["komi"]
    if settings["handicap"]:
        cfg["handicap"] = settings["handicap"]
        if settings["handicap_style"] is not None:
            cfg["handicap_style"] = settings["handicap_style"]
    t = settings["time"]
    system = t["system"]
    time = {"system": system}
    for key in TIME_SYSTEMS[system]:
        time[key] = t[key]
    cfg["time"] = time
    if settings["round_start_min"] is not None:
        cfg["round_start_ms"] = settings["round_start_min"] * 60000
    check_config(cfg)
    return cfg


def check(settings):
    """Raise ValueError naming the first bad entry of a settings dict."""
    if not isinstance(settings, dict):
        raise ValueError("settings must be an object")
    for key in DEFAULTS:
        if key not in settings:
            raise ValueError("settings have no %s" % key)
    if settings["rules"] not in RULES:
        raise ValueError("settings: unknown rules %r" % (settings["rules"],))
    komi = settings["komi"]
    if komi is not None and (
        not isinstance(komi, (int, float)) or isinstance(komi, bool) or komi * 2 != int(komi * 2)
    ):
        raise ValueError("settings: komi must be a number of half points, not %r" % (komi,))
    h = settings["handicap"]
    if not is_int(h) or h < 0 or h > 9:
        raise ValueError("settings: handicap must be 0..9, not %r" % (h,))
    style = settings["handicap_style"]
    if style is not None and style not in HANDICAP_STYLES:
        raise ValueError("settings: unknown handicap_style %r" % (style,))
    t = settings["time"]
    if not isinstance(t, dict) or t.get("system") not in TIME_SYSTEMS:
        raise ValueError("settings: unknown time system")
    for key in TIME_KEYS:
        v = t.get(key)
        if not is_int(v) or v < 0 or v > 100000:
            raise ValueError("settings: time %s must be a whole number, not %r" % (key, v))
    r = settings["round_start_min"]
    if r is not None and (not is_int(r) or r < 0 or r > 240):
        raise ValueError("settings: round_start_min must be 0..240, not %r" % (r,))
    config(settings, 19)  # what the game itself refuses (e.g. Ing PP without basic time)


def text(settings):
    """The settings file's text (one line of JSON)."""
    check(settings)
    data = {"format": FORMAT}
    for key in DEFAULTS:
        data[key] = settings[key]
    return json.dumps(data) + "\n"


def parse(data):
    """A settings dict from the file's text; ValueError if it is damaged."""
    try:
        raw = json.loads(data)
    except ValueError:
        raise ValueError("settings file is not JSON")
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ValueError("settings file: unknown format")
    out = {}
    for key in DEFAULTS:
        if key not in raw:
            raise ValueError("settings file has no %s" % key)
        out[key] = raw[key]
    if not isinstance(out["time"], dict):
        raise ValueError("settings: unknown time system")
    out["time"] = dict(out["time"])
    check(out)
    return out

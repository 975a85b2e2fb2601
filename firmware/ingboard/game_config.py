"""What a game's config may say: the rule systems, handicap styles, time systems and buttons.

The vocabulary shared by the session log (records/), the menus and settings (menus/), the
host's commands (link/) and the app: a config is the session log's `config` record, and the
same dict a host sends with `new-game` or the menus build. The rule systems and handicap styles
come from the rules core's one table (ingrules.rulesets). The check of a whole config is
config_check.py's, imported where a config is checked (a new game, changed settings, a log
read back) and dropped once the session log has checked it: no game holds its code.
"""

from ingrules.rulesets import HANDICAP_FIXED, HANDICAP_FREE, HANDICAP_ING_PLAYS, NAMES

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
# the same systems as clock/time_settings.py's SYSTEMS (a test checks).
TIME_SYSTEMS = {
    "none": (),
    "absolute": ("basic_s",),
    "ing-pp": ("basic_s",),
    "byoyomi": ("basic_s", "periods", "period_s"),
    "canadian": ("basic_s", "stones", "period_s"),
    "fischer": ("basic_s", "increment_s"),
}

# Bounds of a config's numbers (a trust boundary: host lines, files): every number is finite and
# at most MAX_NUMBER (a year of milliseconds is 3.2e10).
MAX_NUMBER = 10**12


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    """A finite number within +-MAX_NUMBER (NaN, infinities, 1e308 and huge ints are not)."""
    return (
        (isinstance(v, int) or isinstance(v, float))
        and not isinstance(v, bool)
        and -MAX_NUMBER <= v <= MAX_NUMBER
    )

"""ONE table of the rule systems ingboard knows. Each ruleset is data; code asks questions
(`rules.suicide`, `rules.ko`, `rules.passes_to_pause`), never `if name == "aga"`.

Sources (the project's rule texts; paragraph named on every field of ruleset_rows.py):
  ing1991        Ing's SST Laws of Wei-Ch'i 1991 (tr. Davies)
  ing1996        Ing's Goe Rules 1996 (tr. Yuan)
  simplified-ing Simplified Ing Rules (EGF)
  aga            AGA Rules of Go 1991, area counting (Rule 12 "area")
  aga-territory  AGA Rules of Go 1991, territory counting (Rule 12 default)
  chinese, japanese, nz, tromp-taylor: the common modern texts of those systems.
"""

import sys

from . import const

# Ko policies (ko.py implements them).
KO_SIMPLE = const(0)  # only the immediate retake of a single stone is forbidden
KO_POSITIONAL = const(1)  # no board play may recreate any earlier board position
KO_SITUATIONAL = const(2)  # ... with the same player to move
KO_ING = const(3)  # Ing: hot stones (fighting ko) + the disturber may not recycle

# Scoring methods (scoring.py implements them).
AREA = "area"
TERRITORY = "territory"
ING_FILL_IN = "ing-fill-in"

# What happens when a player completes an illegal move (press after an illegal stone).
ILLEGAL_REJECT = "reject"  # retract it without penalty (Ing 1991, Kim/Simon/Straus item 6)
ILLEGAL_AS_PASS = "pass"  # AGA Rule 8: retract, treated as a pass, a pass stone handed over
ILLEGAL_FORFEIT_KO = "forfeit-ko"  # Ing 1996 Rule "Penalized mistakes": ko retake / 2 moves

# Handicap styles (session-log config `handicap_style`).
HANDICAP_ING_PLAYS = "ing-plays"
HANDICAP_FIXED = "fixed"
HANDICAP_FREE = "free"

# Handicap compensation conventions (session-log config `handicap_compensation`, CLI
# `--compensation`, SGF private property IC): the ruleset's own, or Kim/Simon/Straus Part 2
# "Counting" 5 ("In handicap games of N-stone handicap, White must receive N-point
# compensation ... In handicap games, White wins ties"), which that text says "is not found in
# any official documentation of the Ing rules" - so it is a setting, off by default.
COMPENSATION_RULES = "rules"
COMPENSATION_KSS = "kss"
COMPENSATIONS = (COMPENSATION_RULES, COMPENSATION_KSS)


class Ruleset:
    """One rule system. All fields are plain data; see ruleset_rows.py for the sources. A ruleset
    holds only the fields its rule system sets apart from the defaults below (class
    attributes): ten rulesets of 25 fields each as instance dicts took ~2 KB of the Pico's
    heap all game long."""

    passes_to_pause = 2
    ends_at_pause = False
    passes_to_end = 4
    # After a dispute, the next two passes pause again for the dead stones (the default: the
    # count comes only once the dead stones are off and the players agree); False only where
    # the text ends the game there with every stone on the board alive - AGA Rule 10 "if both
    # players pass twice in succession. In this case any stones remaining on the board are
    # deemed alive"; Simplified Ing "immediately after the next two successive passes, they
    # determine the scores".
    pause_again_after_dispute = True
    pass_stones = False
    white_passes_last = False
    handicap_style = HANDICAP_FREE
    # Points to White for the handicap under area counting: 0 none, 1 one per stone after
    # the first (AGA Rule 4), 2 one per stone (Chinese).
    handicap_compensation = 0
    illegal = ILLEGAL_REJECT
    draw_winner = 0
    fill_in = False
    # Territory counting: do empty points surrounded in seki count? (AGA yes; Japanese 1989
    # Art. 8: no)
    seki_territory = True
    # Lateness over 1/6 of the basic time forfeits (Ing 1996 Rule 10); else it only costs
    # twice its length (Ing 1991 Art. 8).
    late_forfeit = False
    # Passes during the pause confirm the removals (AGA Rule 9 commentary: "If both players
    # pass and there was no disagreement indicated, the game is over") - or, Simplified Ing,
    # they are continued alternate moving "as if there had been no removals".
    pause_passes_confirm = True
    # Where captured stones go during play (bowls.PRISONERS; config `prisoners`): "lid"
    # (Ing 1991 Art. 13, AGA prisoners) or "bowl" (Ing 1996 Rule 2 "or return them to the
    # opponent", Kim/Simon/Straus Part 1).
    prisoners = "lid"
    # A pass play's stone without pass stones as prisoners: "beside" - Ing 1991 Art. 9
    # "Passing" (2) "he should place one stone beside the board" (1996 Rule 2 "Shoutan": "at
    # the side of the board"); "none" - nothing leaves the bowl.
    pass_signal = "none"
    # Two stones placed on the board signal resignation (Ing 1991 Art. 9 "Resigning": "he
    # should place two stones on the board to indicate that he has resigned"; 1996 puts
    # them "at the side of the board", so only 1991 reads them off the board).
    resign_two_stones = False

    def __init__(
        self, name, title, suicide, ko, scoring, komi, komi_handicap, sgf_ru=None, **fields
    ):
        # `fields`: any of the class attributes above; only those that differ from the
        # default are kept on the instance.
        self.name = name
        self.title = title
        self.suicide = suicide
        self.ko = ko
        self.scoring = scoring
        self.komi = komi
        self.komi_handicap = komi_handicap
        # The SGF RU value (FF[4] names AGA, GOE, Japanese, NZ; others by their usual name);
        # the SGF also keeps `name` in the private property IR.
        self.sgf_ru = sgf_ru or title
        for key in fields:
            default = getattr(Ruleset, key, fields)  # (fields: no such attribute)
            if default is fields or callable(default):
                raise TypeError("a ruleset has no field %r" % (key,))
            if fields[key] != default:
                setattr(self, key, fields[key])

    def __repr__(self):
        return "Ruleset(%s)" % self.name


# The known names, sorted (a test checks them against the table).
NAMES = (
    "aga",
    "aga-territory",
    "chinese",
    "ing1991",
    "ing1996",
    "japanese",
    "nz",
    "simplified-ing",
    "tromp-taylor",
)
# name -> its Ruleset, made once. The cache is what the app needs: a Ruleset is asked for at
# every Game made and every menu screen that shows the rules' komi; it holds at most the nine
# names (each Ruleset only the fields its rules set apart), most games one. Keeping only the
# last one made was tried (issue 32's review): the twin's game at a people's pace then held a
# scan up 26.5 ms at the app's start, 20.7 ms with this cache.
_MADE = {}
_ROWS = "ingrules.ruleset_rows"


def get(name):
    """The ruleset called `name`; ValueError naming the known ones otherwise. A name not made
    yet is made by its row (ruleset_rows.py), loaded for it and forgotten after: a game needs
    its rows once (on the stock image their code was ~2 KB of heap held all game, issue 32)."""
    rules = _MADE.get(name)
    if rules is None:
        rules = _from_rows("row", name, sys.modules[__name__])
        if rules is None:
            raise ValueError("unknown rules %r (known: %s)" % (name, ", ".join(NAMES)))
        _MADE[name] = rules
    return rules


def _from_rows(attr, *args):
    # ruleset_rows.py's function `attr` called with args, the module loaded for the call and
    # forgotten after (as ingboard's gc_policy.drop forgets a module; the rules package imports
    # nothing of the board's): only where the code is heap (MicroPython); CPython keeps it.
    from . import ruleset_rows

    try:
        return getattr(ruleset_rows, attr)(*args)
    finally:
        if sys.implementation.name == "micropython" and _ROWS in sys.modules:
            del sys.modules[_ROWS]
            package = sys.modules.get("ingrules")
            if package is not None and hasattr(package, "ruleset_rows"):
                delattr(package, "ruleset_rows")  # the package's attribute refers to it too


def fixed_handicap_points(size, handicap):
    """(col, row) of the fixed handicap stones (AGA Rule 4), 0-based from the bottom left.

    The 4-4 points on 13x13 and larger, the 3-3 points below; side and centre points exist
    only on odd sizes. ValueError when the handicap cannot be placed on this board. (Its
    table is ruleset_rows.py's: a game places its handicap once.)
    """
    return _from_rows("fixed_handicap_points", size, handicap)


def komi_warning(rules, komi, compensation=COMPENSATION_RULES):
    """A sentence when `komi` cannot be paid as the fill-in count pays it, else None.

    Ing 1991 Art. 4 "Counting" (3) Step size: "When the score is adjusted by compensation
    points or time-difference penalty points, the unit of adjustment is therefore two points;
    the score cannot be adjust[ed] by an odd number of points"; Ing 1996 Rule 8 "Non-fixed
    compensation: ... decides the number of compensation points (must be an even number)".
    The count still works (an odd point leaves a point of the payer's territory open, a half
    point is given back in the result), so this is a warning, not a refusal.
    """
    if not rules.fill_in or compensation == COMPENSATION_KSS:
        return None
    if komi == int(komi) and int(komi) % 2 == 0:
        return None
    return (
        "komi %s is not an even number of points: the Ing fill-in pays compensation one stone "
        "per two points (Ing 1991 Art. 4 step size, Ing 1996 Rule 8)" % (komi,)
    )

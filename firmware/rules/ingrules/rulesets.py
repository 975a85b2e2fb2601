"""ONE table of the rule systems ingboard knows. Each ruleset is data; code asks questions
(`rules.suicide`, `rules.ko`, `rules.passes_to_pause`), never `if name == "aga"`.

Sources (the project's rule texts; paragraph named on every field below):
  ing1991        Ing's SST Laws of Wei-Ch'i 1991 (tr. Davies)
  ing1996        Ing's Goe Rules 1996 (tr. Yuan)
  simplified-ing Simplified Ing Rules (EGF)
  aga            AGA Rules of Go 1991, area counting (Rule 12 "area")
  aga-territory  AGA Rules of Go 1991, territory counting (Rule 12 default)
  chinese, japanese, nz, tromp-taylor: the common modern texts of those systems.
"""

try:
    from micropython import const
except ImportError:  # CPython: const() is only a marker there

    def const(x):
        return x


from .board import (
    BLACK,
    SUICIDE_ALLOWED,
    SUICIDE_FORBIDDEN,
    SUICIDE_GROUPS_ONLY,
)

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
    """One rule system. All fields are plain data; see _row() for the sources. A ruleset
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


# The table: each rule system's row, made into a Ruleset only when get() first asks for it. A
# game uses one; all nine made at import held ~1 KB of the Pico's heap all game long (the rows
# themselves are code: on a ROMFS image, flash).
def _row(name):
    # Ing 1991 Art. 1 "Self-removal of a single stone ... prohibited ...; self removal of a
    # group of stones does not cause invariation so it is not prohibited"; Art. 3 ko; Art. 1
    # "both players pass and play pauses ... both players pass again and play ends"; Art. 4
    # fill-in counting; Art. 6 "eight points ... For draws, a practical rule is to award the
    # game to black"; Art. 6 handicap plays "The size of the handicap is one less than the
    # number (N) of initial board plays by Black" (so Black makes handicap+1 plays, White
    # handicap mandatory passes).
    if name == "ing1991":
        return Ruleset(
            "ing1991",
            "Ing SST Laws 1991",
            SUICIDE_GROUPS_ONLY,
            KO_ING,
            ING_FILL_IN,
            sgf_ru="GOE",
            komi=8,
            komi_handicap=0,
            passes_to_pause=2,
            passes_to_end=4,
            handicap_style=HANDICAP_ING_PLAYS,
            illegal=ILLEGAL_REJECT,
            draw_winner=BLACK,
            fill_in=True,
            resign_two_stones=True,
            pass_signal="beside",  # Art. 9 "Passing" (2): "one stone beside the board"
        )
    # Ing 1996: as 1991; Rule 8 "Fixed compensation: Mandatory eight points handicap, black
    # wins in case of drawn games"; Rule 3 "At the start of a handicap game, white makes
    # mandatory passes, known as handicap plays" and Rule 8 "gives a 5 duan one handicap play"
    # (N handicap plays = N mandatory White passes, as in 1991); "Penalized mistakes: ...
    # recapturing a ko stone without an intervening play violates the ko rule. ... the game is
    # forfeited."
    if name == "ing1996":
        return Ruleset(
            "ing1996",
            "Ing's Goe Rules 1996",
            SUICIDE_GROUPS_ONLY,
            KO_ING,
            ING_FILL_IN,
            sgf_ru="GOE",
            prisoners="bowl",
            pass_signal="beside",  # 1996 Rule 2 "Shoutan": "at the side of the board"
            komi=8,
            komi_handicap=0,
            passes_to_pause=2,
            passes_to_end=4,
            handicap_style=HANDICAP_ING_PLAYS,
            illegal=ILLEGAL_FORFEIT_KO,
            draw_winner=BLACK,
            fill_in=True,
            late_forfeit=True,
        )
    # Simplified Ing (EGF): "area scoring, positional superko, allowed suicide, two successive
    # passes, an agreement phase for removals, an optional playing out continuation"; after a
    # disagreement "immediately after the next two successive passes, they determine the
    # scores"; komi is set by extra tournament rules ("4 white stones can represent a komi of
    # 7.5 or 8"): 7.5 by default here.
    if name == "simplified-ing":
        return Ruleset(
            "simplified-ing",
            "Simplified Ing Rules (EGF)",
            SUICIDE_ALLOWED,
            KO_POSITIONAL,
            AREA,
            sgf_ru="Simplified Ing",
            komi=7.5,
            komi_handicap=0,
            pause_again_after_dispute=False,
            pause_passes_confirm=False,
            handicap_style=HANDICAP_FREE,
        )
    # AGA 1991: Rule 3 komi 5 1/2 even, 1/2 handicap; Rule 4 fixed star-point order and, under
    # area counting, "White receives an additional point of compensation for each Black
    # handicap stone after the first"; Rule 5 "self-capture is illegal"; Rule 6 situational
    # superko; Rule 7 pass stones; Rule 8 illegal move = pass; Rules 9-10 agreement, dispute,
    # then "if both players pass twice in succession" the game is over; Rule 11 White last.
    if name == "aga":
        return Ruleset(
            "aga",
            "AGA Rules 1991 (area counting)",
            SUICIDE_FORBIDDEN,
            KO_SITUATIONAL,
            AREA,
            sgf_ru="AGA",
            komi=5.5,
            komi_handicap=0.5,
            pause_again_after_dispute=False,
            pass_stones=True,
            white_passes_last=True,
            handicap_style=HANDICAP_FIXED,
            handicap_compensation=1,
            illegal=ILLEGAL_AS_PASS,
        )
    if name == "aga-territory":
        return Ruleset(
            "aga-territory",
            "AGA Rules 1991 (territory counting)",
            SUICIDE_FORBIDDEN,
            KO_SITUATIONAL,
            TERRITORY,
            sgf_ru="AGA",
            komi=5.5,
            komi_handicap=0.5,
            pause_again_after_dispute=False,
            pass_stones=True,
            white_passes_last=True,
            handicap_style=HANDICAP_FIXED,
            illegal=ILLEGAL_AS_PASS,
        )
    # Chinese (1988/2002): area counting, no suicide, basic ko, komi 7.5.
    if name == "chinese":
        return Ruleset(
            "chinese",
            "Chinese rules",
            SUICIDE_FORBIDDEN,
            KO_SIMPLE,
            AREA,
            sgf_ru="Chinese",
            komi=7.5,
            komi_handicap=0,
            handicap_style=HANDICAP_FIXED,
            handicap_compensation=2,  # White receives one point per handicap stone
        )
    # Japanese 1989: territory counting, no suicide, basic ko, komi 6.5.
    if name == "japanese":
        return Ruleset(
            "japanese",
            "Japanese rules 1989",
            SUICIDE_FORBIDDEN,
            KO_SIMPLE,
            TERRITORY,
            sgf_ru="Japanese",
            komi=6.5,
            komi_handicap=0.5,
            handicap_style=HANDICAP_FIXED,
            seki_territory=False,
        )
    # New Zealand: area counting, suicide of any chain allowed, situational superko, komi 7.
    if name == "nz":
        return Ruleset(
            "nz",
            "New Zealand rules",
            SUICIDE_ALLOWED,
            KO_SITUATIONAL,
            AREA,
            sgf_ru="NZ",
            komi=7,
            komi_handicap=0,
            handicap_style=HANDICAP_FREE,
        )
    # Tromp-Taylor: area counting, suicide allowed, positional superko, the game ends at two
    # consecutive passes with every stone on the board counted alive.
    if name == "tromp-taylor":
        return Ruleset(
            "tromp-taylor",
            "Tromp-Taylor rules",
            SUICIDE_ALLOWED,
            KO_POSITIONAL,
            AREA,
            sgf_ru="Tromp-Taylor",
            komi=7.5,
            komi_handicap=0,
            ends_at_pause=True,
            handicap_style=HANDICAP_FREE,
        )

    return None


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


def get(name):
    """The ruleset called `name`; ValueError naming the known ones otherwise."""
    rules = _MADE.get(name)
    if rules is None:
        rules = _row(name)
        if rules is None:
            raise ValueError("unknown rules %r (known: %s)" % (name, ", ".join(NAMES)))
        _MADE[name] = rules
    return rules


# AGA Rule 4: star points in the traditional order (1st..9th), as (col, row) from the edges:
# upper right, lower left, lower right, upper left, right, left, top, bottom, centre.
_STAR_ORDER = ((2, 2), (0, 0), (2, 0), (0, 2), (2, 1), (0, 1), (1, 2), (1, 0), (1, 1))
# Which of those points each handicap uses (AGA Rule 4 table).
_HANDICAP_STARS = {
    2: (0, 1),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
    5: (0, 1, 2, 3, 8),
    6: (0, 1, 2, 3, 4, 5),
    7: (0, 1, 2, 3, 4, 5, 8),
    8: (0, 1, 2, 3, 4, 5, 6, 7),
    9: (0, 1, 2, 3, 4, 5, 6, 7, 8),
}


def fixed_handicap_points(size, handicap):
    """(col, row) of the fixed handicap stones (AGA Rule 4), 0-based from the bottom left.

    The 4-4 points on 13x13 and larger, the 3-3 points below; side and centre points exist
    only on odd sizes. ValueError when the handicap cannot be placed on this board.
    """
    if handicap < 2 or handicap > 9:
        raise ValueError("fixed handicap must be 2..9 stones, not %r" % (handicap,))
    edge = 3 if size >= 13 else 2
    if size < 7:
        raise ValueError("no fixed handicap points on a %dx%d board" % (size, size))
    lines = (edge, size // 2, size - 1 - edge)
    uses = _HANDICAP_STARS[handicap]
    if size % 2 == 0 and any(i >= 4 for i in uses):
        raise ValueError("a %d-stone fixed handicap needs an odd board size" % handicap)
    if size < 9 and handicap > 4:
        raise ValueError("at most 4 fixed handicap stones on a %dx%d board" % (size, size))
    return [(lines[_STAR_ORDER[i][0]], lines[_STAR_ORDER[i][1]]) for i in uses]


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

"""The rows of the table of rule systems (rulesets.py): each system's fields, with the
paragraphs of its text they come from; and the fixed handicap points (AGA Rule 4's table).

Read when a ruleset is first asked for (`rulesets.get`: a game's, a menu screen's) or a fixed
handicap is placed, and forgotten at once: a game keeps the one Ruleset it uses, and on the
stock image this code would be heap all game long (issue 32).
"""

from .board import BLACK, SUICIDE_ALLOWED, SUICIDE_FORBIDDEN, SUICIDE_GROUPS_ONLY


def row(name, rs):
    """The Ruleset of rule system `name`, made afresh; None if there is no such row. `rs`: the
    rulesets module (its Ruleset and its names; this module imports nothing of it)."""
    # Ing 1991 Art. 1 "Self-removal of a single stone ... prohibited ...; self removal of a
    # group of stones does not cause invariation so it is not prohibited"; Art. 3 ko; Art. 1
    # "both players pass and play pauses ... both players pass again and play ends"; Art. 4
    # fill-in counting; Art. 6 "eight points ... For draws, a practical rule is to award the
    # game to black"; Art. 6 handicap plays "The size of the handicap is one less than the
    # number (N) of initial board plays by Black" (so Black makes handicap+1 plays, White
    # handicap mandatory passes).
    if name == "ing1991":
        return rs.Ruleset(
            "ing1991",
            "Ing SST Laws 1991",
            SUICIDE_GROUPS_ONLY,
            rs.KO_ING,
            rs.ING_FILL_IN,
            sgf_ru="GOE",
            komi=8,
            komi_handicap=0,
            passes_to_pause=2,
            passes_to_end=4,
            handicap_style=rs.HANDICAP_ING_PLAYS,
            illegal=rs.ILLEGAL_REJECT,
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
        return rs.Ruleset(
            "ing1996",
            "Ing's Goe Rules 1996",
            SUICIDE_GROUPS_ONLY,
            rs.KO_ING,
            rs.ING_FILL_IN,
            sgf_ru="GOE",
            prisoners="bowl",
            pass_signal="beside",  # 1996 Rule 2 "Shoutan": "at the side of the board"
            komi=8,
            komi_handicap=0,
            passes_to_pause=2,
            passes_to_end=4,
            handicap_style=rs.HANDICAP_ING_PLAYS,
            illegal=rs.ILLEGAL_FORFEIT_KO,
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
        return rs.Ruleset(
            "simplified-ing",
            "Simplified Ing Rules (EGF)",
            SUICIDE_ALLOWED,
            rs.KO_POSITIONAL,
            rs.AREA,
            sgf_ru="Simplified Ing",
            komi=7.5,
            komi_handicap=0,
            pause_again_after_dispute=False,
            pause_passes_confirm=False,
            handicap_style=rs.HANDICAP_FREE,
        )
    # AGA 1991: Rule 3 komi 5 1/2 even, 1/2 handicap; Rule 4 fixed star-point order and, under
    # area counting, "White receives an additional point of compensation for each Black
    # handicap stone after the first"; Rule 5 "self-capture is illegal"; Rule 6 situational
    # superko; Rule 7 pass stones; Rule 8 illegal move = pass; Rules 9-10 agreement, dispute,
    # then "if both players pass twice in succession" the game is over; Rule 11 White last.
    if name == "aga":
        return rs.Ruleset(
            "aga",
            "AGA Rules 1991 (area counting)",
            SUICIDE_FORBIDDEN,
            rs.KO_SITUATIONAL,
            rs.AREA,
            sgf_ru="AGA",
            komi=5.5,
            komi_handicap=0.5,
            pause_again_after_dispute=False,
            pass_stones=True,
            white_passes_last=True,
            handicap_style=rs.HANDICAP_FIXED,
            handicap_compensation=1,
            illegal=rs.ILLEGAL_AS_PASS,
        )
    if name == "aga-territory":
        return rs.Ruleset(
            "aga-territory",
            "AGA Rules 1991 (territory counting)",
            SUICIDE_FORBIDDEN,
            rs.KO_SITUATIONAL,
            rs.TERRITORY,
            sgf_ru="AGA",
            komi=5.5,
            komi_handicap=0.5,
            pause_again_after_dispute=False,
            pass_stones=True,
            white_passes_last=True,
            handicap_style=rs.HANDICAP_FIXED,
            illegal=rs.ILLEGAL_AS_PASS,
        )
    # Chinese (1988/2002): area counting, no suicide, basic ko, komi 7.5.
    if name == "chinese":
        return rs.Ruleset(
            "chinese",
            "Chinese rules",
            SUICIDE_FORBIDDEN,
            rs.KO_SIMPLE,
            rs.AREA,
            sgf_ru="Chinese",
            komi=7.5,
            komi_handicap=0,
            handicap_style=rs.HANDICAP_FIXED,
            handicap_compensation=2,  # White receives one point per handicap stone
        )
    # Japanese 1989: territory counting, no suicide, basic ko, komi 6.5.
    if name == "japanese":
        return rs.Ruleset(
            "japanese",
            "Japanese rules 1989",
            SUICIDE_FORBIDDEN,
            rs.KO_SIMPLE,
            rs.TERRITORY,
            sgf_ru="Japanese",
            komi=6.5,
            komi_handicap=0.5,
            handicap_style=rs.HANDICAP_FIXED,
            seki_territory=False,
        )
    # New Zealand: area counting, suicide of any chain allowed, situational superko, komi 7.
    if name == "nz":
        return rs.Ruleset(
            "nz",
            "New Zealand rules",
            SUICIDE_ALLOWED,
            rs.KO_SITUATIONAL,
            rs.AREA,
            sgf_ru="NZ",
            komi=7,
            komi_handicap=0,
            handicap_style=rs.HANDICAP_FREE,
        )
    # Tromp-Taylor: area counting, suicide allowed, positional superko, the game ends at two
    # consecutive passes with every stone on the board counted alive.
    if name == "tromp-taylor":
        return rs.Ruleset(
            "tromp-taylor",
            "Tromp-Taylor rules",
            SUICIDE_ALLOWED,
            rs.KO_POSITIONAL,
            rs.AREA,
            sgf_ru="Tromp-Taylor",
            komi=7.5,
            komi_handicap=0,
            ends_at_pause=True,
            handicap_style=rs.HANDICAP_FREE,
        )

    return None


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
    """rulesets.fixed_handicap_points (which loads this module for it)."""
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

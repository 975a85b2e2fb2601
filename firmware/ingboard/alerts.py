"""Every alert code the firmware can emit, with the text a player sees.

One table: the tracker, bowls, clock and drivers emit only codes listed here, and the hardware
docs' troubleshooting table must have an entry for each (a test checks both).
"""

ALERTS = {
    # rules (the game is unchanged; resolved when the stone is taken back)
    "occupied": "That point is already occupied.",
    "suicide": "Suicide is not allowed under these rules: take the stone back.",
    "ko": "Ko: those stones are hot and may not be taken yet. Play elsewhere (or pass) first.",
    "superko": "That play would repeat an earlier position (superko).",
    "recycle": "Ing ko: you have already started this cycle once; play elsewhere.",
    "not-your-turn": "It is the other player's turn.",
    "wrong-colour": "A stone of the wrong colour was placed: take it back.",
    # the physical board differs from the game
    "two-stones": "Two new stones are on the board: take one back (Ing: it signals resignation).",
    "remove-captured": "Captured stones are still on the board: please remove them.",
    "stone-missing": "A stone is missing from the board: put it back.",
    "stone-extra": "There is a stone on the board that is not in the game: remove it.",
    "stone-moved": "A stone was nudged to a neighbouring point: put it back.",
    "outside-board": (
        "A stone is outside the small board (its lower-left corner, lines 1 to its size): "
        "it is not part of the game, take it off."
    ),
    # the fill-in count (Ing 1991 Art. 4)
    "fill-in-wrong": "The fill-in does not match the count's plan.",
    "fill-in-disturbed": "A stone of the counted position was moved in the fill-in: put it back.",
    # settings
    "odd-komi": "Komi is not an even number: Ing counting pays it in stones, two points each.",
    # sequences the rules judge (issue 14 class 6, issue 15 item 5)
    "two-moves": "Two moves in a row by one player: the rules decide (taken back, pass, forfeit).",
    "retraction": "A play was changed after it was made (Ing 1991 Art. 8): recorded.",
    "resign-offer": "Two stones and the press: resigning? Press again (or the resign button).",
    "dead-point": "That point's sensor is dead: if you played there, press your key again.",
    # equipment
    "bowl-mismatch": "The bowls and the board do not add up to the full set of stones.",
    "sensor-fault": "A sensor is not reading correctly; the game continues without it.",
}


def alert_text(code):
    """The player-facing text of an alert code; KeyError for a code that does not exist."""
    return ALERTS[code]

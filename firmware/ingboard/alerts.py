"""Every alert code the firmware can emit, with the text a player sees and the few words its
alert face shows (faces/board_face.py).

One table: the tracker, bowls, clock and drivers emit only codes listed here, and the hardware
docs' troubleshooting table must have an entry for each (a test checks both).

The table is one string, a line per code: "code|sentence|face title|what to do" (a
test keeps the face's words within the face). One string constant is one object in the board's
heap where the code runs in place (ROMFS, frozen), where a dict of the sentences and another of
the face's words were ~90 objects held all game (~1.5 KB on the twin's ROMFS image).
"""

_TABLE = (
    # rules (the game is unchanged; resolved when the stone is taken back)
    "\noccupied|That point is already occupied."
    "|POINT TAKEN|TAKE THE STONE BACK"
    "\nsuicide|Suicide is not allowed under these rules: take the stone back."
    "|SUICIDE|NOT ALLOWED: TAKE THE STONE BACK"
    "\nko|Ko: those stones are hot and may not be taken yet. Play elsewhere (or pass) "
    "first."
    "|KO|HOT STONE: PLAY ELSEWHERE FIRST"
    "\nsuperko|That play would repeat an earlier position (superko)."
    "|SUPERKO|REPEATS A POSITION: TAKE IT BACK"
    "\nrecycle|Ing ko: you have already started this cycle once; play elsewhere."
    "|ING KO|CYCLE ALREADY USED: PLAY ELSEWHERE"
    "\nnot-your-turn|It is the other player's turn."
    "|NOT YOUR TURN|THE OTHER PLAYER IS TO MOVE"
    "\nwrong-colour|A stone of the wrong colour was placed: take it back."
    "|WRONG COLOUR|TAKE THE STONE BACK"
    # the physical board differs from the game
    "\ntwo-stones|Two new stones are on the board: take one back (Ing: it signals "
    "resignation)."
    "|TWO STONES|TAKE ONE BACK (OR RESIGN)"
    "\nremove-captured|Captured stones are still on the board: please remove them."
    "|CAPTURED|REMOVE THE CAPTURED STONES"
    "\nstone-missing|A stone is missing from the board: put it back."
    "|STONE MISSING|PUT IT BACK"
    "\nstone-extra|There is a stone on the board that is not in the game: remove it."
    "|EXTRA STONE|REMOVE IT"
    "\nstone-moved|A stone was nudged to a neighbouring point: put it back."
    "|STONE MOVED|PUT IT BACK ON ITS POINT"
    "\noutside-board|A stone is outside the small board (its lower-left corner, lines 1 "
    "to its size): it is not part of the game, take it off."
    "|OUTSIDE BOARD|NOT IN THE SMALL GAME: TAKE IT OFF"
    # the fill-in count (Ing 1991 Art. 4)
    "\nfill-in-wrong|The fill-in does not match the count's plan."
    "|FILL-IN|NOT AS THE PLAN: CHECK THE POINTS"
    "\nfill-in-disturbed|A stone of the counted position was moved in the fill-in: put it "
    "back."
    "|STONE MOVED|PUT THE COUNTED STONE BACK"
    # settings
    "\nodd-komi|Komi is not an even number: Ing counting pays it in stones, two points "
    "each."
    "|ODD KOMI|ING KOMI IS PAID IN TWOS: CHECK THE SETTINGS"
    # sequences the rules judge (issue 14 class 6, issue 15 item 5)
    "\ntwo-moves|Two moves in a row by one player: the rules decide (taken back, pass, "
    "forfeit)."
    "|TWO MOVES|TWO IN A ROW: THE RULES DECIDE"
    "\nretraction|A play was changed after it was made (Ing 1991 Art. 8): recorded."
    "|PLAY CHANGED|RECORDED: PUT THE STONE BACK"
    "\nresign-offer|Two stones and the press: resigning? Press again (or the resign "
    "button)."
    "|RESIGN?|PRESS AGAIN TO RESIGN"
    "\ndead-point|That point's sensor is dead: if you played there, press your key again."
    "|DEAD POINT|PLAYED THERE? PRESS AGAIN"
    # equipment
    "\nbowl-mismatch|The bowls and the board do not add up to the full set of stones."
    "|BOWLS|STONES DO NOT ADD UP: CHECK THE BOWLS"
    "\nsensor-fault|A sensor is not reading correctly; the game continues without it."
    "|SENSOR FAULT|PLAY ON AND CALL THE DIRECTOR"
    "\n"
)


def _fields(code):
    # [sentence, face title, what to do] of a code; KeyError for a code that does not exist.
    i = _TABLE.find("\n" + code + "|") if code and "|" not in code else -1
    if i < 0:
        raise KeyError(code)
    return _TABLE[i + len(code) + 2 : _TABLE.find("\n", i + 1)].split("|")


def alert_text(code):
    """The player-facing text of an alert code; KeyError for a code that does not exist."""
    return _fields(code)[0]


def face_words(code):
    """(title, what to do) of an alert code on its alert face (board_face.alert)."""
    f = _fields(code)
    return f[1], f[2]


def codes():
    """Every alert code, in the table's order (a list: tools and tests)."""
    return [line.split("|")[0] for line in _TABLE.split("\n") if line]

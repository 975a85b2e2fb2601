"""What the director is told about a table, and what to do about it.

Every alert the relay lists comes from a board (its own alert codes, firmware/ingboard/
alerts.py, published on `go/v1/{event}/{board}/alert`) or from the relay itself (an illegal
move its rules check found, a board gone offline, a player seated at two boards). Each kind
has a short title and the referee's next step; unknown board codes are listed as they come.
"""

# kind -> (title, what to do)
KINDS = {
    "bowl-mismatch": (
        "Bowl mismatch",
        "Go to the table: count the stones in both bowls, on the board and captured with the "
        "players; a set is 180 + 180. Fix the bowls before the game goes on.",
    ),
    "stone-missing": (
        "Stone missing",
        "Go to the table: a stone of the game is not on the board. Put it back where the game "
        "page shows it (open the board's game).",
    ),
    "illegal-move": (
        "Illegal move",
        "Go to the table: a move broke the rules (see the detail). The relay holds the game's "
        "broadcast; decide the case under the event's rules and note it on the result.",
    ),
    "sensor-fault": (
        "Sensor fault",
        "The board reads a point or a bowl wrongly; the game goes on. Watch the table and swap "
        "the board after the game.",
    ),
    "dispute": (
        "Dispute",
        "Go to the table: the players disagree about the count or a dead group. Settle it "
        "under the rules, then confirm or correct the result here.",
    ),
    "offline": (
        "Board offline",
        "The board stopped talking to the relay (power, Wi-Fi, or switched off). Check the "
        "table; the board keeps every move and sends them when it is back.",
    ),
    "two-boards": (
        "Player at two boards",
        "One player's name is in two games at once: check both tables, correct the pairing "
        "or the board's settings.",
    ),
    "wrong-players": (
        "Wrong players",
        "The board's game names other players than the pairing for its table: check who "
        "sits there.",
    ),
}
# Board alert codes (ingboard/alerts.py) -> the director's kind. The board's own rule alerts
# (occupied, suicide, ko, superko, recycle, not-your-turn, wrong-colour) are not listed: the
# board refuses such a stone and withdraws the alert when it is taken back, at the table, a
# few times a game; a move the rules refuse that the board did commit is the relay's own
# "illegal-move" (its rules check). They stay in the archive's flags all the same.
BOARD_CODES = {
    "bowl-mismatch": "bowl-mismatch",
    "stone-missing": "stone-missing",
    "sensor-fault": "sensor-fault",
    "dead-point": "sensor-fault",
    "dispute": "dispute",
    "two-moves": "illegal-move",
    "retraction": "illegal-move",
    "fill-in-wrong": "dispute",
}
TABLE_ONLY = ("occupied", "suicide", "ko", "superko", "recycle", "not-your-turn",
              "wrong-colour", "two-stones", "remove-captured", "stone-extra", "stone-moved",
              "resign-offer", "fill-in-disturbed", "odd-komi")  # fmt: skip


def describe(kind):
    """(title, what to do) of an alert kind (a board code the relay does not know: as is)."""
    return KINDS.get(kind, (kind, "Go to the table and see what the board shows."))

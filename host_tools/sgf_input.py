"""Reading a game record (SGF) for the firmware's rules core, with one clear error per defect.

Uses sgfmill for the SGF syntax; everything about the rules is the firmware's.
"""

from sgfmill import sgf

from host_tools.errors import InputError

# SGF RU values (lower case, '-' and '_' read as spaces) that name one of our rulesets; our
# own names are accepted as they are.
RU_NAMES = {
    "ing": "ing1991",
    "goe": "ing1991",
    "ing goe": "ing1991",
    "simplified ing": "simplified-ing",
    "aga": "aga",
    "aga territory": "aga-territory",
    "chinese": "chinese",
    "japanese": "japanese",
    "nz": "nz",
    "new zealand": "nz",
    "tromp taylor": "tromp-taylor",
    "tt": "tromp-taylor",
}


def rules_from_ru(ru):
    """Our ruleset name for an SGF RU value, or None when it names none of them."""
    from ingboard.core.rulesets import RULESETS

    key = ru.strip().lower()
    if key in RULESETS:
        return key
    return RU_NAMES.get(key.replace("-", " ").replace("_", " "))


class GameRecord:
    """The main line of an SGF: size, rules name (or None), komi, handicap, setup, moves.

    setup: [(colour 'b'/'w'/None, (row, col))]; moves: [(colour 'b'/'w', (row, col) or None)],
    rows counted from the bottom as sgfmill does.
    """

    def __init__(self, size, rules, komi, handicap, setup, to_play, moves):
        self.size = size
        self.rules = rules
        self.komi = komi
        self.handicap = handicap
        self.setup = setup
        self.to_play = to_play
        self.moves = moves


def load(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    return parse(data, path)


def parse(data, name="SGF"):
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise InputError("%s is not a valid SGF file: %s" % (name, exc)) from None
    try:
        size = game.get_size()
    except ValueError as exc:
        raise InputError("%s: bad board size: %s" % (name, exc)) from None
    if size < 5 or size > 19:
        raise InputError("%s: board size %d is out of range (5..19)" % (name, size))
    root = game.get_root()
    rules = None
    if root.has_property("RU"):
        # A repeated RU, or text the file's charset (CA) cannot decode, is one clear error.
        try:
            rules = rules_from_ru(root.get("RU"))
        except ValueError as exc:
            raise InputError("%s: bad RU: %s" % (name, exc)) from None
    try:
        komi = game.get_komi() if root.has_property("KM") else None  # None: the ruleset's
        handicap = game.get_handicap() or 0
    except ValueError as exc:
        raise InputError("%s: bad KM or HA: %s" % (name, exc)) from None
    setup = []
    try:
        black, white, empty = root.get_setup_stones()
    except ValueError as exc:
        raise InputError("%s: bad setup stones: %s" % (name, exc)) from None
    for colour, points in (("b", black), ("w", white), (None, empty)):
        for point in sorted(points):
            _check_point(point, size, name, "setup stone")
            setup.append((colour, point))
    to_play = None
    if root.has_property("PL"):
        try:
            to_play = root.get("PL")
        except ValueError as exc:
            raise InputError("%s: bad PL: %s" % (name, exc)) from None
    moves = []
    number = 0
    for node in game.get_main_sequence():
        if node.has_property("B") and node.has_property("W"):
            raise InputError("%s: a node has both a black and a white move" % name)
        try:
            colour, point = node.get_move()
        except ValueError as exc:
            raise InputError("%s: move %d is malformed: %s" % (name, number + 1, exc)) from None
        if colour is None:
            continue
        number += 1
        if point is not None:
            _check_point(point, size, name, "move %d" % number)
        moves.append((colour, point))
    return GameRecord(size, rules, komi, handicap, setup, to_play, moves)


def _check_point(point, size, name, what):
    row, col = point
    if not (0 <= row < size and 0 <= col < size):
        raise InputError("%s: %s is off the %dx%d board" % (name, what, size, size))

"""Reading a game record (SGF) for the firmware's rules core, with one clear error per defect.

Uses sgfmill for the SGF syntax; everything about the rules is the firmware's.
"""

import re

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
    from ingrules.rulesets import NAMES

    key = ru.strip().lower()
    if key in NAMES:
        return key
    return RU_NAMES.get(key.replace("-", " ").replace("_", " "))


class GameRecord:
    """The main line of an SGF: size, rules name (or None), komi, handicap, setup, moves.

    setup: [(colour 'b'/'w'/None, (row, col))]; moves: [(colour 'b'/'w', (row, col) or None)],
    rows counted from the bottom as sgfmill does. What the board's own SGF adds (sgf_record.py):
    result (RE or None), dead (DS, else the stones standing in the other colour's TB/TW
    territory markup of the last node; None when the record marks nothing), penalty ({"B","W"}
    from IP), compensation (IC or None).
    """

    def __init__(self, size, rules, komi, handicap, setup, to_play, moves):
        self.size = size
        self.rules = rules
        self.komi = komi
        self.handicap = handicap
        self.setup = setup
        self.to_play = to_play
        self.moves = moves
        self.result = None
        self.dead = None
        self.territory = None
        self.penalty = {"B": 0, "W": 0}
        self.compensation = None


MAX_BYTES = 4 * 1024 * 1024  # a game record is a few KB; a collection a few hundred


def load(path):
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    if len(data) > MAX_BYTES:
        raise InputError("%s is larger than %d MiB: not a game record" % (path, MAX_BYTES >> 20))
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
    if root.has_property("IR"):
        rules = rules_from_ru(_text(root, "IR"))  # the board's own name of its ruleset
    if rules is None and root.has_property("RU"):
        # A repeated RU, or text the file's charset (CA) cannot decode, is one clear error.
        try:
            rules = rules_from_ru(root.get("RU"))
        except ValueError as exc:
            raise InputError("%s: bad RU: %s" % (name, exc)) from None
    try:
        komi = game.get_komi() if root.has_property("KM") else None  # None: the ruleset's
        # HA[1] is an Ing one-play handicap (Ing 1991 Art. 6), which sgfmill refuses.
        handicap = int(root.get("HA")) if root.has_property("HA") else 0
        if handicap < 0:
            raise ValueError("a negative handicap")
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
    record = GameRecord(size, rules, komi, handicap, setup, to_play, moves)
    if root.has_property("RE"):
        record.result = _text(root, "RE").strip() or None
    if root.has_property("IC"):
        record.compensation = _text(root, "IC").strip()
    if root.has_property("IP"):
        found = re.match(r"^B(\d+)W(\d+)$", _text(root, "IP").strip())
        if not found:
            raise InputError("%s: bad IP (penalty points, e.g. B4W2)" % name)
        record.penalty = {"B": int(found.group(1)), "W": int(found.group(2))}
    last = game.get_main_sequence()[-1]
    for node in (last, root):
        marks = {}
        for prop in ("DS", "TB", "TW"):
            if node.has_property(prop):
                marks[prop] = _points(node, prop, size, name)
        if marks:
            record.dead = marks.get("DS")
            record.territory = (marks.get("TB", []), marks.get("TW", []))
            break
    return record


def _text(node, prop):
    value = node.get_raw(prop)
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _points(node, prop, size, name):
    """The points of a point-list property (DS may hold any points: read it raw)."""
    out = []
    for raw in node.get_raw_list(prop):
        text = raw.decode("ascii", "replace") if isinstance(raw, bytes) else raw
        corners = [_point(part, size, name, prop) for part in text.split(":")]
        if len(corners) > 2:
            raise InputError("%s: %s holds %r, not a point" % (name, prop, text))
        (r0, c0), (r1, c1) = corners[0], corners[-1]
        for row in range(min(r0, r1), max(r0, r1) + 1):
            for col in range(min(c0, c1), max(c0, c1) + 1):
                out.append((row, col))
    return out


def _point(text, size, name, prop):
    if len(text) != 2 or not text.isalpha():
        raise InputError("%s: %s holds %r, not a point" % (name, prop, text))
    point = (size - 1 - (ord(text[1].lower()) - 97), ord(text[0].lower()) - 97)
    _check_point(point, size, name, prop)
    return point


def _check_point(point, size, name, what):
    row, col = point
    if not (0 <= row < size and 0 <= col < size):
        raise InputError("%s: %s is off the %dx%d board" % (name, what, size, size))

"""A round's pairings, as the director's pairing program gives them: the players and the tables.

Two ways in (`read(data, filename, round_no)` picks by content):

- OpenGotha's tournament file (XML): opengotha.py. Every round it holds, with results.
- A plain CSV, one table a line: `table, black, white, handicap, komi`, optionally `round`,
  `board` (the board bound to the table), `result` (B+R, W+2.5, B+F, =, ...), and the players'
  `black_rank`, `white_rank`, `black_club`, `white_club`, `black_country`, `white_country`,
  `black_egd`, `white_egd`, `black_aga`, `white_aga`. A header line names the columns (any case,
  in any order; `B`/`W`, `hcp`/`ha`, `km`, `tbl`/`#`, `board`/`bd` are understood); without one
  the first five columns are the ones above. Commas, semicolons or tabs separate the columns;
  lines starting with '#' are comments, except `# event: NAME`, `# date: YYYY-MM-DD`,
  `# location: ...`, `# komi: 6.5` and `# tiebreaks: NBW SOS SOSOS` (OpenGotha's criterion
  names) which say so. A name may carry its rank: "Ito Ann (3d)".

Whatever is wrong comes back as one `PairingError` with the line (or game) it is on; nothing is
imported from a file with an error.
"""

import csv
import io
import re

MAX_TABLES = 2000
MAX_NAME = 64  # the relay's checker refuses longer names (checker.MAX_NAME)
OUTCOMES = ("B", "W", "=", "0", "2")  # black wins, white wins, jigo, both lose, both win


class PairingError(ValueError):
    """A pairings file the relay cannot use; the message says what and where."""


class Player:
    def __init__(self, key, surname, given="", rank="", rating=None, country="", club="",
                 egd="", aga="", extra=None):  # fmt: skip
        self.key = key
        self.surname = surname
        self.given = given
        self.rank = rank
        self.rating = rating
        self.country = country
        self.club = club
        self.egd = egd
        self.aga = aga
        self.extra = extra or {}

    @property
    def name(self):
        """ "Surname Given", the way the EGD and the boards name players."""
        return (self.surname + " " + self.given).strip()[:MAX_NAME]

    def as_dict(self):
        out = {"key": self.key, "name": self.name, "surname": self.surname, "given": self.given}
        for k in ("rank", "rating", "country", "club", "egd", "aga"):
            v = getattr(self, k)
            if v not in ("", None):
                out[k] = v
        return out


class Table:
    """One pairing: a table of a round, its players (keys), handicap, komi, and the result the
    file already carries (outcome as OUTCOMES, or None; bydef: decided without play)."""

    def __init__(self, rnd, table, black, white, handicap=0, komi=None, outcome=None,
                 bydef=False, board=None):  # fmt: skip
        self.round = rnd
        self.table = table
        self.black = black
        self.white = white
        self.handicap = handicap
        self.komi = komi
        self.outcome = outcome
        self.bydef = bydef
        self.board = board
        self.known_colour = True


class Tournament:
    """What an import carries: the event, players, tables per round, byes, tie-breaks."""

    def __init__(self, source):
        self.source = source
        self.name = ""
        self.short_name = ""
        self.begin = ""
        self.end = ""
        self.location = ""
        self.director = ""
        self.komi = None
        self.size = 19
        self.rounds = None
        self.criteria = []  # placement criteria, OpenGotha's names (MMS, SOSM, NBW, ...)
        self.mcmahon = {}  # bar, floor, zero ranks
        self.players = {}  # key -> Player
        self.tables = {}  # round -> {table: Table}
        self.byes = {}  # round -> [player keys]

    def add_table(self, tbl):
        tables = self.tables.setdefault(tbl.round, {})
        if tbl.table in tables:
            raise PairingError("round %d has two games at table %d" % (tbl.round, tbl.table))
        for other in tables.values():
            both = {other.black, other.white} & {tbl.black, tbl.white}
            if both:
                raise PairingError(
                    "round %d: %s plays at tables %d and %d"
                    % (tbl.round, self.players[both.pop()].name, other.table, tbl.table)
                )
        if sum(len(t) for t in self.tables.values()) >= MAX_TABLES:
            raise PairingError("more than %d tables" % MAX_TABLES)
        tables[tbl.table] = tbl

    def all_tables(self):
        return [self.tables[r][n] for r in sorted(self.tables) for n in sorted(self.tables[r])]


# -- CSV ----------------------------------------------------------------------------------------

_ALIASES = {
    "table": ("table", "tbl", "#", "no", "nr", "table number", "tablenumber"),
    "black": ("black", "b", "black player", "blackplayer"),
    "white": ("white", "w", "white player", "whiteplayer"),
    "handicap": ("handicap", "hcp", "ha", "h", "handi"),
    "komi": ("komi", "km"),
    "round": ("round", "rnd", "r", "roundnumber", "round number"),
    "board": ("board", "bd"),
    "result": ("result", "res", "re"),
}
_PLAYER_FIELDS = ("rank", "club", "country", "egd", "aga")
_POSITIONAL = ("table", "black", "white", "handicap", "komi")


def _column(name):
    low = name.strip().lower().replace("_", " ")
    for col, names in _ALIASES.items():
        if low in names:
            return col
    for colour in ("black", "white"):
        for field in _PLAYER_FIELDS:
            if low in ("%s %s" % (colour, field), "%s %s" % (colour[0], field)):
                return "%s_%s" % (colour, field)
    return None


def _decode(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # a spreadsheet's "CSV (Windows)"


_META = re.compile(r"#\s*(event|name|date|location|komi|tie-?breaks?)\s*[:=]\s*(.*)", re.I)


def read_csv(data, round_no=None):
    text = _decode(data)
    lines = [(i + 1, line) for i, line in enumerate(text.splitlines())]
    meta = [_META.fullmatch(line.strip()) for _n, line in lines]
    lines = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise PairingError("the CSV file has no lines")
    sample = "\n".join(line for _n, line in lines[:5])
    delimiter = max((",", ";", "\t"), key=sample.count)
    rows = [(n, next(csv.reader(io.StringIO(line), delimiter=delimiter))) for n, line in lines]
    first = [_column(c) for c in rows[0][1]]
    if "black" in first and "white" in first:
        columns, rows = first, rows[1:]  # unknown columns are left out
    else:
        if not rows[0][1][0].strip().isdigit():
            raise PairingError(
                "line %d: a header must name at least the black and white columns" % rows[0][0]
            )
        columns = list(_POSITIONAL)
    t = Tournament(source="csv")
    for m in meta:  # "# event: Spring Open", "# date: 2026-05-02", "# tiebreaks: NBW SOS"
        if m is None:
            continue
        what, value = m.group(1).lower(), m.group(2).strip()[:MAX_NAME]
        if what in ("event", "name"):
            t.name = value
        elif what == "date":
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise PairingError("# date: %r is not YYYY-MM-DD" % value)
            t.begin = t.end = value
        elif what == "location":
            t.location = value
        elif what == "komi":
            try:
                t.komi = float(value.replace(",", "."))
            except ValueError:
                raise PairingError("# komi: %r is not a number" % value) from None
        else:
            t.criteria = [c.upper() for c in re.split(r"[\s,;]+", value) if c]
    for n, cells in rows:
        t.add_table(_csv_table(t, n, dict(zip(columns, cells)), round_no))
    if not t.tables:
        raise PairingError("the CSV file pairs no table")
    return t


def _csv_table(t, n, row, round_no):
    where = "line %d" % n
    row = {k: (v or "").strip() for k, v in row.items() if k}
    table = _whole(row.get("table"), where, "table", None)
    if table is None or table < 1:
        raise PairingError("%s: the table number must be 1 or more" % where)
    rnd = _whole(row.get("round"), where, "round", round_no or 1)
    if not 1 <= rnd <= 32:
        raise PairingError("%s: round %d is not 1..32" % (where, rnd))
    handicap = _whole(row.get("handicap"), where, "handicap", 0)
    if not 0 <= handicap <= 9:
        raise PairingError("%s: handicap %d is not 0..9" % (where, handicap))
    komi = None
    if row.get("komi"):
        try:
            komi = float(row["komi"].replace(",", "."))
        except ValueError:
            raise PairingError("%s: komi %r is not a number" % (where, row["komi"])) from None
        if abs(komi) > 100:
            raise PairingError("%s: komi %s is out of range" % (where, row["komi"]))
    keys = []
    for colour in ("black", "white"):
        name = row.get(colour, "")
        if not name:
            raise PairingError("%s: no %s player" % (where, colour))
        keys.append(_csv_player(t, where, colour, name, row))
    if keys[0] == keys[1]:
        raise PairingError("%s: %s would play themself" % (where, t.players[keys[0]].name))
    outcome, bydef = parse_result(row.get("result", ""), where)
    board = row.get("board") or None
    return Table(rnd, table, keys[0], keys[1], handicap, komi, outcome, bydef, board)


def _whole(text, where, what, default):
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise PairingError("%s: %s %r is not a whole number" % (where, what, text)) from None


def _csv_player(t, where, colour, name, row):
    rank = row.get(colour + "_rank", "")
    m = re.fullmatch(r"(.*?)\s*[(\[]\s*(\d{1,2}\s*[kdpKDP])\s*[)\]]", name)
    if m:
        name, rank = m.group(1), rank or m.group(2)
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise PairingError(
            "%s: the %s player's name is longer than %d" % (where, colour, MAX_NAME)
        )
    if not all(c.isprintable() for c in name):
        raise PairingError("%s: the %s player's name has control characters" % (where, colour))
    surname, _, given = name.partition(" ")
    key = name.replace(" ", "").upper()
    p = t.players.get(key)
    if p is None:
        p = Player(key, surname, given)
        t.players[key] = p
    rank = rank.replace(" ", "").lower()
    if rank:
        if not re.fullmatch(r"\d{1,2}[kdp]", rank):
            raise PairingError("%s: rank %r is not like 5k, 2d or 1p" % (where, rank))
        p.rank = rank
    for field in ("club", "country", "egd", "aga"):
        if row.get(colour + "_" + field):
            setattr(p, field, row[colour + "_" + field][:32])
    return key


def parse_result(text, where="result"):
    """(outcome, by default) of a result as the boards, the director or a CSV write it:
    B+R, W+3.5, B+T, B+F (forfeit: decided by default), "=" / Draw / Jigo, 0-0 (both lose),
    1-1 (both win); empty or "?": not known yet."""
    s = (text or "").strip()
    if not s or s == "?":
        return None, False
    up = s.upper().replace(" ", "")
    if up in ("=", "DRAW", "JIGO", "0.5-0.5", "½-½"):
        return "=", False
    if up in ("0-0", "BOTHLOSE", "VOID"):
        return "0", False
    if up in ("1-1", "BOTHWIN"):
        return "2", False
    m = re.fullmatch(r"([BW])(\+.*)?", up)
    if m:
        tail = (m.group(2) or "+")[1:]
        bydef = tail in ("F", "FORFEIT", "BYDEF", "DEF")
        if (
            tail
            and not bydef
            and tail not in ("R", "RESIGN", "T", "TIME")
            and not re.fullmatch(r"\d+(\.\d+)?", tail)
        ):
            raise PairingError("%s: %r is not a result (B+R, W+3.5, B+T, B+F, =)" % (where, s))
        return m.group(1), bydef
    raise PairingError("%s: %r is not a result (B+R, W+3.5, B+T, B+F, =)" % (where, s))

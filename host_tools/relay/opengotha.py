"""OpenGotha's tournament file (its XML save format) in and out.

The format is OpenGotha's own: read and written by `ExternalDocument.java` in OpenGotha's
sources (github.com/lucvannier/opengotha, src/info/vannier/gotha/ExternalDocument.java:
`importPlayersFromXMLFile`, `importGamesFromXMLFile`, `importByePlayersFromXMLFile`,
`importTournamentParameterSetFromXMLFile`, `generateXMLFile`; the example files in its
`distribution/tournamentfiles/`). The help page "Import facilities" says the same XML file is
how OpenGotha imports players, games (with their results) and parameters from another file -
so the file written here is the director's way back into OpenGotha: Tournament > Import >
"Import tournament from XML file", games only.

    <Tournament dataVersion="201" ...>
      <Players><Player name="Rebelo" firstName="Manuela" rank="18K" rating="276" club="92Ge"
               country="FR" egfPin="" agaId="" participating="111..." .../></Players>
      <Games><Game roundNumber="1" tableNumber="9" blackPlayer="REBELOMANUELA"
               whitePlayer="..." handicap="9" knownColor="true" result="RESULT_WHITEWINS"/>
      </Games>
      <ByePlayers><ByePlayer roundNumber="2" player="..."/></ByePlayers>
      <TournamentParameterSet><GeneralParameterSet name=".." shortName=".." beginDate=".."
               endDate=".." komi="7.5" numberOfRounds="5" genMMBar="4D" genMMFloor="20K"
               genMMZero="30K" .../>
        <PlacementParameterSet><PlacementCriteria><PlacementCriterion name="MMS" number="1"/>
        ...
    </Tournament>

A game names its players by key: since dataVersion 201, `(name + firstName)` without spaces,
upper-cased (Player.computeKeyString); before (dataVersion absent or <= 200) the "obsolete
canonical name": the same upper-cased, accents folded, only A-Z kept
(Tournament.getPlayerByObsoleteCanonicalName). OpenGotha falls back from one to the other; so
does this reader. Results are RESULT_{WHITEWINS, BLACKWINS, EQUAL, BOTHWIN, BOTHLOSE}
(optionally _BYDEF: by default, i.e. not played) or RESULT_UNKNOWN.

Reading is tolerant (attribute names in any case, missing optional attributes take OpenGotha's
defaults, a missing table number is given the next free one) and fails with one clear
`PairingError` naming what is wrong, and where, for anything it cannot use.
"""

import re
import unicodedata
import xml.etree.ElementTree as ET

from host_tools.relay.pairings import PairingError, Player, Table, Tournament

# OpenGotha result codes -> (outcome, by default). Outcome: "B", "W", "=" (jigo / draw),
# "0" (both lose), "2" (both win), None (not known yet).
RESULTS = {
    "RESULT_UNKNOWN": (None, False),
    "RESULT_WHITEWINS": ("W", False),
    "RESULT_BLACKWINS": ("B", False),
    "RESULT_EQUAL": ("=", False),
    "RESULT_BOTHLOSE": ("0", False),
    "RESULT_BOTHWIN": ("2", False),
    "RESULT_WHITEWINS_BYDEF": ("W", True),
    "RESULT_BLACKWINS_BYDEF": ("B", True),
    "RESULT_EQUAL_BYDEF": ("=", True),
    "RESULT_BOTHLOSE_BYDEF": ("0", True),
    "RESULT_BOTHWIN_BYDEF": ("2", True),
}
CODES = {v: k for k, v in RESULTS.items()}
MAX_BYTES = 8 * 1024 * 1024  # a tournament file of thousands of players is a few MB
MAX_ROUNDS = 32  # OpenGotha's Gotha.MAX_NUMBER_OF_ROUNDS is 20


def key_string(surname, given):
    """OpenGotha's player key since dataVersion 201 (Player.computeKeyString)."""
    return (surname + given).replace(" ", "").upper()


def canonical_name(surname, given):
    """OpenGotha's obsolete canonical name (dataVersion <= 200): upper case, accents folded
    (ExternalDocument's forceToASCII / getPlayerByObsoleteCanonicalName), only A-Z."""
    text = unicodedata.normalize("NFKD", (surname + given).upper())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub("[^A-Z]", "", text)


def _attrs(element):
    """An element's attributes by lower-cased name (tolerant of hand-edited files)."""
    return {k.lower(): (v or "").strip() for k, v in element.attrib.items()}


def _int(attrs, name, default, where):
    text = attrs.get(name.lower(), "")
    if text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise PairingError("%s: %s=%r is not a whole number" % (where, name, text)) from None


def _float(attrs, name, where):
    text = attrs.get(name.lower(), "").replace(",", ".")
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        raise PairingError("%s: %s=%r is not a number" % (where, name, text)) from None


def _children(root, tag):
    """Every element named `tag` (any case) anywhere under root, in document order."""
    low = tag.lower()
    return [e for e in root.iter() if isinstance(e.tag, str) and e.tag.lower() == low]


def _parse_xml(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > MAX_BYTES:
        raise PairingError("the file is %d bytes; a tournament file is at most %d" % (
            len(data), MAX_BYTES))  # fmt: skip
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        raise PairingError("not an XML file (OpenGotha's tournament file is XML)")
    if b"<!ENTITY" in data.upper():
        # OpenGotha declares no entities (a DOCTYPE naming its DTD is harmless: expat does not
        # fetch it); entity tricks (billion laughs) stop here.
        raise PairingError("the XML file declares entities (<!ENTITY>): not an OpenGotha file")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        root = _latin1_saved_as_utf8(data)
        if root is None:
            raise PairingError("the XML file is damaged: %s" % exc) from None
    if not isinstance(root.tag, str) or root.tag.lower() != "tournament":
        raise PairingError(
            "not an OpenGotha tournament file: its root element is <%s>, not <Tournament>"
            % root.tag
        )
    return root


def _latin1_saved_as_utf8(data):
    """A file that says UTF-8 (or nothing) but was saved as Windows-1252 by an editor: read
    as such, or None when that is not what is wrong."""
    try:
        data.decode("utf-8")
        return None  # valid UTF-8: the damage is elsewhere
    except UnicodeDecodeError:
        pass
    head = data[:200].lower()
    if b"encoding=" in head and b"utf-8" not in head:
        return None
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", data.decode("cp1252", errors="replace"))
    try:
        return ET.fromstring(text)
    except ET.ParseError:
        return None


def read(data):
    """A Tournament (pairings.py) from an OpenGotha tournament file (bytes or text)."""
    root = _parse_xml(data)
    top = _attrs(root)
    try:
        version = int(top.get("dataversion") or 200)
    except ValueError:
        version = 200
    t = Tournament(source="opengotha")
    _general(root, t)
    players = _children(root, "Player")
    if not players:
        raise PairingError("the tournament file has no <Player> in <Players>")
    by_key, by_canon = {}, {}
    for i, el in enumerate(players):
        a = _attrs(el)
        where = "player %d" % (i + 1)
        surname, given = a.get("name", ""), a.get("firstname", "")
        if not surname and not given:
            raise PairingError("%s has neither name nor firstName" % where)
        p = Player(
            key=key_string(surname, given),
            surname=surname,
            given=given,
            rank=_rank(a.get("rank") or a.get("grade") or ""),
            rating=_int(a, "rating", None, where),
            country=a.get("country", ""),
            club=a.get("club", ""),
            egd=a.get("egfpin", ""),
            aga=a.get("agaid", ""),
            extra={k: v for k, v in el.attrib.items()},
        )
        if version < 201 and p.rating is not None:
            p.rating += 2050  # ExternalDocument: ratings of old files are shifted
        if p.key in by_key:
            raise PairingError("two players are both %r (%s %s)" % (p.key, surname, given))
        by_key[p.key] = p
        by_canon.setdefault(canonical_name(surname, given), p)
        t.players[p.key] = p

    def player(ref, where):
        ref = ref.strip()
        p = None
        if version > 200:
            p = by_key.get(ref) or by_key.get(ref.replace(" ", "").upper())
        if p is None:
            p = by_canon.get(canonical_name(ref, ""))
        if p is None:
            raise PairingError("%s names %r, who is not among the file's players" % (where, ref))
        return p.key

    used = {}  # round -> set of table numbers
    pending = []
    for i, el in enumerate(_children(root, "Game")):
        a = _attrs(el)
        where = "game %d" % (i + 1)
        rnd = _int(a, "roundNumber", 1, where)
        if not 1 <= rnd <= MAX_ROUNDS:
            raise PairingError("%s: roundNumber %d is not 1..%d" % (where, rnd, MAX_ROUNDS))
        where = "round %d, %s" % (rnd, where)
        black = player(a.get("blackplayer", ""), where + " (blackPlayer)")
        white = player(a.get("whiteplayer", ""), where + " (whitePlayer)")
        if black == white:
            raise PairingError("%s pairs %s with themself" % (where, black))
        code = a.get("result", "RESULT_UNKNOWN").upper() or "RESULT_UNKNOWN"
        if code not in RESULTS:
            raise PairingError("%s: result %r is not one of OpenGotha's" % (where, code))
        outcome, bydef = RESULTS[code]
        table = _int(a, "tableNumber", None, where)
        handicap = _int(a, "handicap", 0, where)
        if not 0 <= handicap <= 9:
            raise PairingError("%s: handicap %d is not 0..9" % (where, handicap))
        tbl = Table(rnd, table, black, white, handicap, None, outcome, bydef)
        tbl.known_colour = a.get("knowncolor", "true").lower() != "false"
        pending.append(tbl)
        if table is not None:
            if table in used.setdefault(rnd, set()):
                raise PairingError("round %d has two games at table %d" % (rnd, table))
            used[rnd].add(table)
    for tbl in pending:  # tables without a number: the next free ones of their round
        if tbl.table is None:
            n = 1
            while n in used.setdefault(tbl.round, set()):
                n += 1
            tbl.table = n
            used[tbl.round].add(n)
        t.add_table(tbl)
    for i, el in enumerate(_children(root, "ByePlayer")):
        a = _attrs(el)
        where = "bye %d" % (i + 1)
        rnd = _int(a, "roundNumber", 1, where)
        t.byes.setdefault(rnd, []).append(player(a.get("player", ""), where))
    return t


def _rank(text):
    """A rank as 'NNk' / 'Nd' / 'Np' (OpenGotha writes '3K', '2D', sometimes ' 3K')."""
    text = text.strip().lower().replace(" ", "")
    m = re.fullmatch(r"(\d{1,2})([kdp])", text)
    return m.group(1) + m.group(2) if m else ""


def _general(root, t):
    gps = _children(root, "GeneralParameterSet")
    if gps:
        a = _attrs(gps[0])
        t.name = a.get("name") or a.get("shortname") or ""
        t.short_name = a.get("shortname", "")
        t.begin = _date(a.get("begindate", ""))
        t.end = _date(a.get("enddate", "")) or t.begin
        t.location = a.get("location", "")
        t.director = a.get("director", "")
        t.komi = _float(a, "komi", "GeneralParameterSet")
        t.size = _int(a, "size", 19, "GeneralParameterSet")
        t.rounds = _int(a, "numberOfRounds", None, "GeneralParameterSet")
        for key in ("genmmbar", "genmmfloor", "genmmzero"):
            if a.get(key):
                t.mcmahon[key[5:]] = _rank(a[key])
    # Only the individual placement: a team tournament's TeamPlacementParameterSet has
    # criteria of its own.
    criteria = []
    for pps in _children(root, "PlacementParameterSet"):
        for el in _children(pps, "PlacementCriterion"):
            a = _attrs(el)
            name = a.get("name", "").upper()
            if name and name != "NULL":
                number = _int(a, "number", len(criteria) + 1, "PlacementCriterion")
                criteria.append((number, name))
        break
    t.criteria = [name for _n, name in sorted(criteria)]


def _date(text):
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text.strip())
    return "%s-%02d-%02d" % (m.group(1), int(m.group(2)), int(m.group(3))) if m else ""


# -- writing ------------------------------------------------------------------------------------


def write(t, results):
    """The tournament as an OpenGotha XML file (text) with `results` {(round, table):
    (outcome, bydef)} in its games: OpenGotha imports it (games) to take the results back."""
    root = ET.Element("Tournament", {"dataVersion": "201", "runningMode": "SAL"})
    players = ET.SubElement(root, "Players")
    for p in t.players.values():
        attrs = {
            "name": p.surname,
            "firstName": p.given,
            "rank": p.rank.upper(),  # left out when unknown: OpenGotha then reads 30K
            "grade": p.rank.upper(),
            "rating": str(p.rating if p.rating is not None else -900),
            "club": p.club,
            "country": p.country,
            "egfPin": p.egd,
            "agaId": p.aga,
            "ffgLicence": "",
            "ffgLicenceStatus": "",
            "agaExpirationDate": "",
            "participating": "1" * 20,
            "ratingOrigin": "",
            "registeringStatus": "FIN",
            "smmsCorrection": "0",
        }
        for k, v in p.extra.items():
            if k not in ("name", "firstName"):
                attrs[k] = v
        if p.rating is not None:
            attrs["rating"] = str(p.rating)
        if not p.rank:
            attrs.pop("rank")
            attrs.pop("grade")
        ET.SubElement(players, "Player", attrs)
    games = ET.SubElement(root, "Games")
    for tbl in t.all_tables():
        outcome = results.get((tbl.round, tbl.table), (tbl.outcome, tbl.bydef))
        code = CODES.get((outcome[0], bool(outcome[1])), "RESULT_UNKNOWN")
        ET.SubElement(
            games,
            "Game",
            {
                "roundNumber": str(tbl.round),
                "tableNumber": str(tbl.table),
                "blackPlayer": tbl.black,
                "whitePlayer": tbl.white,
                "handicap": str(tbl.handicap),
                "knownColor": "true",
                "result": code,
            },
        )
    if any(t.byes.values()):
        byes = ET.SubElement(root, "ByePlayers")
        for rnd in sorted(t.byes):
            for key in t.byes[rnd]:
                ET.SubElement(byes, "ByePlayer", {"roundNumber": str(rnd), "player": key})
    tps = ET.SubElement(root, "TournamentParameterSet")
    general = {
        "name": t.name or "relay",
        "shortName": t.short_name or t.name or "relay",
        "beginDate": t.begin,
        "endDate": t.end or t.begin,
        "location": t.location,
        "director": t.director,
        "size": str(t.size),
        "numberOfRounds": str(max([t.rounds or 0] + list(t.tables))),
    }
    if t.komi is not None:
        general["komi"] = str(t.komi)
    for k, v in t.mcmahon.items():
        general["genMM" + k.capitalize()] = v.upper()
    ET.SubElement(tps, "GeneralParameterSet", general)
    pps = ET.SubElement(ET.SubElement(tps, "PlacementParameterSet"), "PlacementCriteria")
    for i in range(6):
        name = t.criteria[i] if i < len(t.criteria) else "NULL"
        ET.SubElement(pps, "PlacementCriterion", {"name": name, "number": str(i + 1)})
    ET.indent(root, space="")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n"

"""Standings after a round: wins, then the tie-breaks the import carries (OpenGotha's placement
criteria), or the default NBW, SOS, SOSOS when it carries none (a CSV).

The criteria, as OpenGotha names and defines them (PlacementParameterSet.java):

    NBW      number of wins: a win 1, jigo 1/2, both win 1 each, both lose 0, a bye 1
    MMS      McMahon score: the start score (rank held between the floor and the bar, less the
             zero rank: 30k = 0 by default) plus the wins as NBW counts them
    SOS      sum of the opponents' scores (SOSW: their NBW; SOSM: their MMS; plain SOS: of
             the first criterion's kind)
    SOS-1, SOS-2   the same without the lowest one or two
    SOSOS    sum of the opponents' SOS
    SODOS    sum of the scores of the opponents beaten (half for a jigo)
    CUSS     cumulative sum of the score after each round
    RANK, RATING   the player's rank and rating

Only confirmed results count (the director's). A bye or a round not played adds nothing to
SOS. Criteria not listed here (DC, SDC, EXT, EXR, CAT, CPS, STS, SOSTS) are named in `ignored`
and left out; players equal on every criterion share a place.
"""

import re

DEFAULT = ["NBW", "SOS", "SOSOS"]
_WIN = {"B": (1.0, 0.0), "W": (0.0, 1.0), "=": (0.5, 0.5), "0": (0.0, 0.0), "2": (1.0, 1.0)}
KNOWN = ("NBW", "MMS", "SOS", "SOSOS", "SODOS", "CUSS", "RANK", "RATING")


def rank_value(rank):
    """OpenGotha's rank number: 30k = -30 ... 1k = -1, 1d = 0 ... 9d = 8 (pros after)."""
    m = re.fullmatch(r"(\d{1,2})([kdp])", (rank or "").strip().lower())
    if not m:
        return -30
    n, kind = int(m.group(1)), m.group(2)
    return -n if kind == "k" else n - 1 if kind == "d" else n + 8


def _base(name):
    """(family, kind, drop) of a criterion name: SOSW-1 -> (SOS, NBW, 1)."""
    name = name.upper()
    drop = 0
    m = re.fullmatch(r"(.*?)-([12])", name)
    if m:
        name, drop = m.group(1), int(m.group(2))
    for family in ("SOSOS", "SODOS", "SOS", "CUSS"):
        if name.startswith(family):
            rest = name[len(family) :]
            kind = {"W": "NBW", "M": "MMS", "": None}.get(rest, "?")
            return family, kind, drop
    return name, None, 0


def compute(players, games, byes=None, criteria=None, mcmahon=None, upto=None):
    """Standings rows, best first: {"place", "key", "name", "rank", "club", "country", "nbw",
    "values": {criterion: value}, "games": [{"round", "opponent", "colour", "outcome"}]}.

    players {key: Player}; games [(round, black, white, outcome, bydef)] (outcome None = not
    known, left out); byes {round: [keys]}; criteria (OpenGotha's names); mcmahon {"bar",
    "floor", "zero"}; upto: the last round counted."""
    criteria = [c.upper() for c in (criteria or []) if c and c.upper() != "NULL"] or DEFAULT
    mm = mcmahon or {}
    rounds = sorted({g[0] for g in games} | set((byes or {}).keys()))
    if upto is not None:
        rounds = [r for r in rounds if r <= upto]
    score = {k: 0.0 for k in players}
    per_round = {k: {} for k in players}  # key -> round -> points
    opponents = {k: [] for k in players}  # key -> [(opponent, my points)]
    history = {k: [] for k in players}
    for rnd, black, white, outcome, _bydef in games:
        if (
            rnd not in rounds
            or outcome not in _WIN
            or black not in players
            or white not in players
        ):
            continue
        pb, pw = _WIN[outcome]
        for me, other, pts, colour in ((black, white, pb, "B"), (white, black, pw, "W")):
            score[me] += pts
            per_round[me][rnd] = pts
            opponents[me].append((other, pts))
            history[me].append({"round": rnd, "opponent": other, "colour": colour,
                                "outcome": outcome})  # fmt: skip
    for rnd, keys in (byes or {}).items():
        if rnd in rounds:
            for k in keys:
                if k in score:
                    score[k] += 1.0
                    per_round[k][rnd] = 1.0
                    history[k].append({"round": rnd, "opponent": None, "colour": "",
                                       "outcome": "bye"})  # fmt: skip
    floor = rank_value(mm.get("floor") or "30k")
    bar = rank_value(mm.get("bar") or "9d")
    zero = rank_value(mm.get("zero") or "30k")
    mms0 = {}
    for k, p in players.items():
        corr = 0
        try:
            corr = int((p.extra or {}).get("smmsCorrection", 0))
        except (TypeError, ValueError):
            corr = 0
        mms0[k] = min(max(rank_value(p.rank), floor), bar) - zero + corr
    main = {"NBW": dict(score), "MMS": {k: mms0[k] + score[k] for k in players}}
    first = next((c for c in criteria if c in ("NBW", "MMS")), "NBW")

    def sos(kind, drop=0):
        base = main[kind or first]
        out = {}
        for k in players:
            vals = sorted(base[o] for o, _p in opponents[k])
            out[k] = sum(vals[drop:]) if drop < len(vals) else 0.0
        return out

    values, ignored = {}, []
    for name in criteria:
        family, kind, drop = _base(name)
        if kind == "?":
            family = None
        if family in ("NBW", "MMS"):
            values[name] = main[family]
        elif family == "SOS":
            values[name] = sos(kind, drop)
        elif family == "SOSOS":
            s = sos(kind)
            values[name] = {k: sum(s[o] for o, _p in opponents[k]) for k in players}
        elif family == "SODOS":
            base = main[kind or first]
            values[name] = {k: sum(base[o] * p for o, p in opponents[k]) for k in players}
        elif family == "CUSS":
            base0 = mms0 if (kind or first) == "MMS" else {k: 0 for k in players}
            out = {}
            for k in players:
                run, total = base0[k], 0.0
                for r in rounds:
                    run += per_round[k].get(r, 0.0)
                    total += run
                out[k] = total
            values[name] = out
        elif family == "RANK":
            values[name] = {k: rank_value(p.rank) for k, p in players.items()}
        elif family == "RATING":
            values[name] = {k: p.rating or 0 for k, p in players.items()}
        else:
            ignored.append(name)
    used = [c for c in criteria if c in values]
    order = sorted(
        players,
        key=lambda k: tuple(-values[c][k] for c in used) + (players[k].name,),
    )
    rows, last, place = [], None, 0
    for i, k in enumerate(order):
        vector = tuple(values[c][k] for c in used)
        if vector != last:
            place, last = i + 1, vector
        p = players[k]
        rows.append(
            {
                "place": place,
                "key": k,
                "name": p.name,
                "rank": p.rank,
                "club": p.club,
                "country": p.country,
                "nbw": score[k],
                "values": {c: values[c][k] for c in used},
                "games": sorted(history[k], key=lambda g: g["round"]),
            }
        )
    return {"criteria": used, "ignored": ignored, "rounds": rounds, "rows": rows}

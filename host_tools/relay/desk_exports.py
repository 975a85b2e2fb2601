"""The director's results out, from the confirmed results of the desk (director.py):

- OpenGotha: the tournament file with the results in its games (opengotha.write); OpenGotha
  takes them back with Tournament > Import > tournament from XML file (games).
- EGD: the tournament table (.h9) of exports.egd, with the event's name and dates.
- AGA: the results submission of exports.aga, with the event's name and dates.
- A round's games as SGF, one zip (one file per table, named by round, table and players).

Only confirmed (or corrected, or imported) results go out; a table still waiting for the
director is left out of EGD and AGA and written RESULT_UNKNOWN for OpenGotha.
"""

import io
import re
import zipfile

from host_tools.relay import exports, opengotha
from host_tools.relay.director import DONE


def _results(director):
    return {k: (r["outcome"], bool(r["bydef"])) for k, r in
            director.desk.results(director.event).items() if r["status"] in DONE}  # fmt: skip


def opengotha_xml(director):
    t = director.tournament()
    results = _results(director)
    for tbl in t.all_tables():  # an import's own results only when the desk has them
        tbl.outcome, tbl.bydef = None, False
    return opengotha.write(t, results)


def _player(p):
    return {"name": p.name, "rank": p.rank, "country": p.country, "club": p.club,
            "egd": p.egd, "aga": p.aga}  # fmt: skip


def _games(director, rnd=None):
    t = director.tournament()
    out = []
    for (r, n), (outcome, _bydef) in sorted(_results(director).items()):
        tbl = t.tables.get(r, {}).get(n)
        if tbl is None or outcome not in ("B", "W", "=") or (rnd is not None and r != rnd):
            continue
        info = {"handicap": tbl.handicap, "komi": tbl.komi if tbl.komi is not None else t.komi}
        black, white = t.players.get(tbl.black), t.players.get(tbl.white)
        if black and white:
            out.append((r, info, _player(black), _player(white), outcome))
    return t, out


def _span(t):
    if not t.begin:
        return ""
    return t.begin if t.end in ("", t.begin) else "%s,%s" % (t.begin, t.end)


def egd(director, rnd=None):
    t, games = _games(director, rnd)
    return exports.egd(games, t.name or director.event, _span(t), t.komi)


def aga(director, rnd=None):
    t, games = _games(director, rnd)
    return exports.aga(games, t.name or director.event, t.begin, t.end or t.begin)


def _slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:24] or "x"


def sgf_zip(director, rnd):
    """(zip bytes, number of games) of round `rnd`'s games with a board record."""
    t = director.tournament()
    store = director.store
    results = director.desk.results(director.event, rnd)
    buf = io.BytesIO()
    count = 0
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n in sorted(t.tables.get(rnd, {})):
            tbl = t.tables[rnd][n]
            row = results.get((rnd, n)) or {}
            if not row.get("gid") or not row.get("board"):
                continue
            game = store.game(director.event, row["board"], row["gid"])
            if game is None:
                continue
            info = dict(game["info"], round=rnd)
            info["players"] = {}
            for colour, key in (("B", tbl.black), ("W", tbl.white)):
                p = t.players.get(key)
                info["players"][colour] = {"name": p.name, "rank": p.rank} if p else key
            text = exports.sgf(
                info,
                store.moves(director.event, row["board"], row["gid"]),
                row.get("result") if row.get("status") in DONE else game["result"],
                event=t.name or director.event,
                date=store.date(director.event, row["board"], row["gid"]),
                clocks=store.clocks(director.event, row["board"], row["gid"]),
            )
            names = [_slug(info["players"][c]["name"]) if isinstance(info["players"][c], dict)
                     else _slug(info["players"][c]) for c in "BW"]  # fmt: skip
            name = "round%d-table%02d-%s-%s.sgf" % (rnd, n, names[0], names[1])
            z.writestr(name, text)
            count += 1
    return buf.getvalue(), count

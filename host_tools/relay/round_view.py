"""One round as the hall sees it: every table with its board, players, live state and result;
the boards still finishing the previous round; a player seated at two boards.

Used by the hall page (GET /api/round), the projector and the director's page.
"""

from host_tools.relay.director import _name, _norm


def _player(t, key):
    p = t.players.get(key)
    if p is None:
        return {"key": key, "name": key, "rank": ""}
    return {"key": key, "name": p.name, "rank": p.rank, "club": p.club, "country": p.country}


def round_view(director, rnd=None, views=None):
    """{"event", "name", "date", "round", "rounds", "tables", "finishing", "two_boards",
    "byes", "criteria"} (see the module docstring). `views`: the boards as the public sees
    them (after the broadcast delay); a board's result not yet broadcast is not shown. By
    default the relay's own (the director's page)."""
    t = director.tournament()
    current = director.current_round()
    rnd = current if rnd is None else rnd
    seats = director.seats()
    results = director.desk.results(director.event, rnd)
    public = views is not None
    views = {v["board"]: v for v in (director.views() if views is None else views)
             if v.get("event") == director.event}  # fmt: skip
    tables = []
    for n in sorted(t.tables.get(rnd, {})):
        tbl = t.tables[rnd][n]
        board = seats.get(n)
        row = results.get((rnd, n)) or {}
        v = views.get(board) or {}
        live = bool(v) and row.get("gid") is not None and v.get("g") == row.get("gid")
        status = row.get("status") or "waiting"
        if public and status == "reported" and not (live and v.get("result")):
            status, row = "playing", dict(row, result=None, board_result=None)
        entry = {
            "table": n,
            "board": board,
            "black": _player(t, tbl.black),
            "white": _player(t, tbl.white),
            "handicap": tbl.handicap,
            "komi": tbl.komi,
            "status": status,
            "result": row.get("result"),
            "board_result": row.get("board_result"),
            "reason": row.get("board_reason"),
            "at": row.get("at"),
            "g": row.get("gid"),
            "online": bool(v.get("online")),
            "n": v.get("n", 0) if live else 0,
            "clock": v.get("clock") if live else None,
            "held": bool(v.get("held")) if live else False,
        }
        if v and not live and v.get("g") and v.get("result") is None:
            other = (v.get("info") or {}).get("round")
            if isinstance(other, int) and other < rnd:
                entry["busy"] = "still playing round %d" % other
        tables.append(entry)
    finishing = []
    seated = {}  # player name -> boards with an unfinished game or a game of this round
    for board, v in sorted(views.items()):
        info = v.get("info") or {}
        r = info.get("round")
        if not v.get("g"):
            continue
        names = [_name((info.get("players") or {}).get(c)) for c in "BW"]
        if isinstance(r, int) and r < rnd and v.get("result") is None:
            finishing.append({"board": board, "round": r, "n": v.get("n", 0),
                              "black": names[0], "white": names[1]})  # fmt: skip
        if v.get("result") is None or r == rnd:
            for name in names:
                if name:
                    seated.setdefault(_norm(name), (name, []))[1].append(board)
    two = [{"name": name, "boards": boards} for name, boards in seated.values() if len(boards) > 1]
    for d in two if not public else ():
        director._alert(
            d["boards"][0], "two-boards", "%s at %s" % (d["name"], ", ".join(d["boards"])),
            "two:%s:%s" % (_norm(d["name"]), ",".join(d["boards"])),
        )  # fmt: skip
    return {
        "event": director.event,
        "name": t.name or director.event,
        "date": t.begin,
        "round": rnd,
        "current": current,
        "rounds": sorted(t.tables),
        "tables": tables,
        "finishing": finishing,
        "two_boards": two,
        "byes": [_player(t, k) for k in t.byes.get(rnd, [])],
        "criteria": t.criteria,
    }

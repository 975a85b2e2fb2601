"""Exports from the relay's archive: SGF per game, round results for the EGD and the AGA.

Players come from each game's `game` message: `players` maps "B"/"W" to a name, or to an object
{"name": "Surname Given", "rank": "3d", "country": "FR", "club": "Pari", "egd": "...",
"aga": "..."}; `round` is the round number (default 1).

- SGF: the legal moves as the relay checked them (a game held by an illegal move stops there,
  with a comment for the tournament director), `RE` from the board's result.
- EGD: the tournament table the EGF rating officer reads: one line per player, place, name,
  rank, country, club, then one entry per round `<opponent place><+|-|=>/<w|b><handicap>`
  (`0=` = no game that round), then the player's EGD PIN as `|12345678` when the board gave
  one (`egd`: the 8 digits the EGD numbers its players with; the convention of the .h9 files
  OpenGotha writes for the EGD), header lines starting with ';' (EV, DT, KM, HA, CM). A PIN
  that is not 8 digits is not put on the player's line: a ';' comment names it for the TD.
- AGA: the AGAGD submission text: `TOURNEY`, `PLAYERS` (AGA id, "Surname, Given", rank) and
  `GAMES` lines `white_id black_id winner handicap komi` (winner W or B).
"""

import os

from ingboard.clock.clock_sgf import sgf_seconds
from ingrules.board import Board


def _one_line(value, limit=64):
    """Board-supplied text as one line of printable text (no line or control characters can
    break an export's format), at most `limit` characters."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    return "".join(c if c.isprintable() else " " for c in text)[:limit]


def _player(info, color):
    players = info.get("players")
    p = players.get(color) if isinstance(players, dict) else None
    if isinstance(p, dict):
        out = {str(k): _one_line(v) for k, v in p.items()}
    else:
        out = {"name": _one_line(p) if p else "?"}
    if not out.get("name"):
        out["name"] = "?"
    return out


def _sgf_text(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def sgf(info, moves, result=None, held=False, event=None, date=None, clocks=None):
    """One game as SGF text; `moves` = [(n, color, point, status, ...)] in ply order.

    What is known goes in (ingrules/sgf.py's conventions): AP, the event (EV, the board's `event`
    or the relay's event name), DT (the board's `date`, else the day the relay first saw the
    game), TM/OT from the game's `time` settings (clock/clock_sgf_root.py), and BL/WL after each
    move from `clocks` {n: (black ms, white ms)} (the boards' clock messages)."""
    from ingboard import VERSION

    size = info.get("size", 19)
    board = Board(size)
    props = ["GM[1]", "FF[4]", "CA[UTF-8]", "AP[ingboard:%s]" % VERSION, "SZ[%d]" % size]
    if info.get("rules"):
        props.append("RU[%s]" % _sgf_text(info["rules"]))
    if info.get("komi") is not None:
        props.append("KM[%s]" % info["komi"])
    if info.get("handicap"):
        props.append("HA[%d]" % info["handicap"])
    for color, key in (("B", "PB"), ("W", "PW")):
        p = _player(info, color)
        props.append("%s[%s]" % (key, _sgf_text(p["name"])))
        if p.get("rank"):
            props.append("%sR[%s]" % (color, _sgf_text(p["rank"])))
    known = {"event": event, "date": date}
    for key, prop in (("event", "EV"), ("round", "RO"), ("date", "DT")):
        value = info.get(key) if info.get(key) is not None else known.get(key)
        if value is not None:
            props.append("%s[%s]" % (prop, _sgf_text(value)))
    props += ["%s[%s]" % pair for pair in _time_props(info)]
    if result:
        props.append("RE[%s]" % _sgf_text(result))
    out = ["(;" + "".join(props)]
    for row in moves:
        n, color, point, status = row[0], row[1], row[2], row[3]
        if status != "legal":
            out.append(
                ";C[ply %d %s %s was not accepted (%s): see the relay's flags]"
                % (n, color, point, status)
            )
            break
        where = "" if point == "pass" else board.sgf(board.parse(point))
        left = (clocks or {}).get(n)
        ms = left and left[0 if color == "B" else 1]
        timing = "%sL[%s]" % (color, sgf_seconds(ms)) if isinstance(ms, int) and ms >= 0 else ""
        out.append(";%s[%s]%s" % (color, where, timing))
    return "\n".join(out) + ")\n"


def _time_props(info):
    """TM/OT of the game's time settings (the session-log config's `time`), if valid."""
    from ingboard.clock.clock import Clock
    from ingboard.clock.clock_sgf_root import root_props

    time = info.get("time")
    if not isinstance(time, dict):
        return []
    try:
        return root_props(Clock(time))
    except (ValueError, TypeError, KeyError):
        return []


def write_sgf(store, directory, event=None):
    """One SGF per game, named {event}-{board}-{game id}.sgf; returns the paths."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for ev, board, gid, info, result, _reason in store.games(event):
        moves = store.moves(ev, board, gid)
        path = os.path.join(directory, "%s-%s-%s.sgf" % (ev, board, gid))
        text = sgf(
            info,
            moves,
            result,
            event=ev,
            date=store.date(ev, board, gid),
            clocks=store.clocks(ev, board, gid),
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        paths.append(path)
    return paths


def _winner(result):
    if not result:
        return None
    head = result[:2].upper()
    if head in ("B+", "W+"):
        return head[0]
    if result.lower().startswith(("draw", "0", "jigo")):
        return "="
    return None


def finished_games(store, event=None, round_no=None):
    """[(round, info, black player, white player, winner "B"/"W"/"=")] with a result."""
    out = []
    for _ev, _board, _gid, info, result, _reason in store.games(event):
        winner = _winner(result)
        if winner is None:
            continue
        rnd = info.get("round", 1)
        if round_no is not None and rnd != round_no:
            continue
        out.append((rnd, info, _player(info, "B"), _player(info, "W"), winner))
    return out


def egd(games, event_name="", date="", komi=None):
    """The EGD tournament table for these games (see the module docstring)."""
    rounds = sorted({g[0] for g in games})
    players = {}
    for _r, _info, black, white, _w in games:
        for p in (black, white):
            players.setdefault(p["name"], p)
    wins = {name: 0 for name in players}
    for _r, _info, black, white, w in games:
        if w == "B":
            wins[black["name"]] += 1
        elif w == "W":
            wins[white["name"]] += 1
    order = sorted(players, key=lambda name: (-wins[name], name))
    place = {name: i + 1 for i, name in enumerate(order)}
    entries = {name: {} for name in players}
    for r, info, black, white, w in games:
        h = info.get("handicap", 0) or 0
        for me, other, colour in ((black, white, "b"), (white, black, "w")):
            if w == "=":
                sym = "="
            else:
                sym = "+" if w.lower() == colour else "-"
            entries[me["name"]][r] = "%d%s/%s%d" % (place[other["name"]], sym, colour, h)
    lines = [
        "; EV[%s]" % event_name,
        "; DT[%s]" % date,
        "; KM[%s]" % ("" if komi is None else komi),
        "; HA[h9]",
        "; CM[exported by the ingboard relay]",
    ]
    pins = {}
    for name in order:
        pin = players[name].get("egd", "").strip()
        if _egd_pin(pin):
            pins[name] = " |" + pin
        elif pin:
            lines.append("; %s: EGD PIN %s is not 8 digits, left out" % (name, pin))
    lines += [
        ";",
        "; Pl Name                         Rk Co Club  " + " ".join("R%d" % r for r in rounds),
    ]
    for name in order:
        p = players[name]
        results = " ".join(entries[name].get(r, "0=") for r in rounds)
        lines.append(
            "%4d %-28s %-3s %-2s %-5s %s%s"
            % (
                place[name],
                name[:28],
                p.get("rank", "")[:3],
                p.get("country", "")[:2],
                p.get("club", "")[:5],
                results,
                pins.get(name, ""),
            )
        )
    return "\n".join(lines) + "\n"


def _egd_pin(text):
    """An EGD PIN: 8 digits (e.g. 12850431)."""
    return len(text) == 8 and all("0" <= c <= "9" for c in text)


def _aga_name(name):
    parts = name.split()
    if len(parts) >= 2 and "," not in name:
        return "%s, %s" % (parts[0], " ".join(parts[1:]))
    return name


def aga(games, event_name="", start="", finish="", rules="AGA"):
    """The AGA ratings submission for these games (see the module docstring)."""
    players = {}
    for _r, _info, black, white, _w in games:
        for p in (black, white):
            players.setdefault(p.get("aga") or p["name"], p)
    lines = [
        "TOURNEY %s" % event_name,
        "\tstart=%s" % start,
        "\tfinish=%s" % finish,
        "\trules=%s" % rules,
        "",
        "PLAYERS",
    ]
    for pid, p in players.items():
        lines.append("%s %s %s" % (pid, _aga_name(p["name"]), p.get("rank", "")))
    lines += ["", "GAMES"]
    for _r, info, black, white, w in games:
        if w == "=":
            continue  # the AGA records a winner; a draw is reported to the TD by hand
        lines.append(
            "%s %s %s %d %s"
            % (
                white.get("aga") or white["name"],
                black.get("aga") or black["name"],
                w,
                info.get("handicap", 0) or 0,
                info.get("komi", 0),
            )
        )
    return "\n".join(lines) + "\n"

"""The director's desk and the tournament's public views over HTTP (called from web.py).

Public (anyone who can see the hall page):

    GET /api/round[?round=N]   the round (round_view.py): tables, boards, results, boards
                               still finishing the previous round, players at two boards
    GET /api/standings[?round=N]   standings after round N (default: every confirmed result)
    GET /api/player?k=KEY      one player: their standings row and games (with board links)
    GET /projector, /standings (?k=KEY: a player's page)   the pages

The director (auth.py: HTTP Basic credentials; POSTs also need the `X-Ingboard: director`
header):

    GET  /director                       the director's page
    GET  /director/api/state             the round, alerts, corrections, boards known
    GET  /director/labels                a card to print for each table (its board, players)
    POST /director/api/import?round=N&name=FILE   body: an OpenGotha XML or CSV file
    POST /director/api/bind     {"table", "board"}     ("" unbinds)
    POST /director/api/round    {"round"}              the round now played
    POST /director/api/confirm  {"round", "table"} or {"round", "all": true}
    POST /director/api/correct  {"round", "table", "result", "reason"}
    POST /director/api/alert    {"id"}                 marked handled
    GET  /director/export/opengotha.xml | egd.h9 | aga.txt [?round=N] | sgf.zip?round=N

Errors are JSON {"error": text} with 400 (bad request), 401 (no or wrong credentials), 403
(the desk is off) or 404.
"""

import json

from host_tools.relay import desk_exports
from host_tools.relay.auth import HEADER, MAX_BODY, REALM
from host_tools.relay.director import DeskError
from host_tools.relay.pairings import PairingError
from host_tools.relay.round_view import round_view

PUBLIC = ("/api/round", "/api/standings", "/api/player")


def _int(query, name, default=None):
    text = query.get(name)
    if text in (None, ""):
        return default
    try:
        return int(text)
    except ValueError:
        raise DeskError("%s must be a whole number" % name) from None


def public(h, path, query):
    d = h.server.director
    if d is None or d.desk.meta(d.event)[0] is None:
        h._send(404, "application/json", b'{"error": "no tournament on this relay (yet)"}')
        return
    try:
        if path == "/api/round":
            _seq, published = h.server.broadcaster.snapshot()  # what the delay has let out
            h._json(round_view(d, _int(query, "round"), published))
        elif path == "/api/standings":
            every = d.standings()["rounds"]  # the rounds with a confirmed result
            h._json(dict(d.standings(_int(query, "round")), event=d.event, every=every,
                         name=d.tournament().name or d.event))  # fmt: skip
        else:
            key = query.get("k", "")
            table = d.standings()
            row = next((r for r in table["rows"] if r["key"] == key), None)
            if row is None:
                h._send(404, "application/json", b'{"error": "no such player"}')
                return
            results = d.desk.results(d.event)
            t = d.tournament()
            games = []
            for tbl in t.all_tables():
                rnd, n = tbl.round, tbl.table
                if key not in (tbl.black, tbl.white):
                    continue
                res = results.get((rnd, n)) or {}
                other = tbl.white if key == tbl.black else tbl.black
                games.append({"round": rnd, "table": n, "colour": "B" if key == tbl.black
                              else "W", "opponent": t.players[other].name if other in
                              t.players else other, "opponent_key": other,
                              "handicap": tbl.handicap, "result": res.get("result"),
                              "status": res.get("status") or "waiting",
                              "board": res.get("board"), "g": res.get("gid")})  # fmt: skip
            h._json({"event": d.event, "player": row, "games": games,
                     "criteria": table["criteria"]})  # fmt: skip
    except DeskError as exc:
        _error(h, 400, str(exc))


def _error(h, status, text, auth=False):
    body = json.dumps({"error": text}).encode()
    h.send_response(status)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.send_header("Cache-Control", "no-store")
    h._safety_headers()
    if auth:
        h.send_header("WWW-Authenticate", 'Basic realm="%s", charset="UTF-8"' % REALM)
    h.end_headers()
    h.wfile.write(body)


def _allowed(h):
    """The director's credentials are there; else the refusal is sent and False returned."""
    if h.server.director is None or h.server.auth is None:
        _error(h, 403, "the director's desk is off: start the relay with --event and "
               "--director-password-file")  # fmt: skip
        return False
    if not h.server.auth.check(h.headers.get("Authorization")):
        # The browser's login prompt only for the director's page: a script's request (the
        # page's own, or anyone's) is refused without a prompt.
        page = h.command == "GET" and h.path.split("?")[0] == "/director"
        _error(h, 401, "the director's credentials are needed", auth=page)
        return False
    return True


def get(h, path, query, static):
    if not _allowed(h):
        return
    d = h.server.director
    try:
        if path == "/director":
            ctype, body = static["director.html"]
            h._send(200, ctype, body)
        elif path == "/director/api/state":
            h._json({"round": round_view(d, _int(query, "round")), "alerts": d.alerts(),
                     "corrections": d.corrections(), "boards": sorted(
                         v["board"] for v in d.views() if v["event"] == d.event),
                     "user": h.server.auth.user})  # fmt: skip
        elif path == "/director/labels":
            h._send(200, "text/html; charset=utf-8", _labels(d).encode())
        elif path.startswith("/director/export/"):
            _export(h, d, path[len("/director/export/") :], query)
        else:
            _error(h, 404, "no such page")
    except DeskError as exc:
        _error(h, 400, str(exc))


def _labels(d):
    """A printable card per table of the round: its number, its board, its players."""
    from html import escape

    view = round_view(d)
    cards = []
    for t in view["tables"]:
        cards.append(
            '<div class="label"><div class="lt">table %d</div><div class="lb">board %s</div>'
            "<div>%s - %s</div></div>" % (t["table"], escape(t["board"] or "-"),
                                           escape(t["black"]["name"]), escape(t["white"]["name"]))
        )  # fmt: skip
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>table cards</title>'
        '<link rel="stylesheet" href="/page.css"></head><body class="labels"><h1>%s, round %d'
        "</h1>%s</body></html>" % (escape(view["name"]), view["round"], "".join(cards))
    )


def _export(h, d, name, query):
    rnd = _int(query, "round")
    slug = d.event + ("-round%d" % rnd if rnd else "")
    if name == "opengotha.xml":
        body, ctype, file = desk_exports.opengotha_xml(d).encode(), "application/xml", d.event
        file += ".xml"
    elif name == "egd.h9":
        body, ctype, file = desk_exports.egd(d, rnd).encode(), "text/plain", slug + ".h9"
    elif name == "aga.txt":
        body, ctype, file = desk_exports.aga(d, rnd).encode(), "text/plain", slug + "-aga.txt"
    elif name == "sgf.zip":
        if rnd is None:
            raise DeskError("sgf.zip needs ?round=N")
        body, _count = desk_exports.sgf_zip(d, rnd)
        ctype, file = "application/zip", slug + "-sgf.zip"
    else:
        _error(h, 404, "no such export")
        return
    h._send(200, ctype + ("; charset=utf-8" if ctype != "application/zip" else ""), body,
            disposition='attachment; filename="%s"' % file)  # fmt: skip


def post(h, path, query):
    if not _allowed(h):
        return
    if h.headers.get(HEADER) != "director":
        _error(h, 400, "a director's request carries the header %s: director" % HEADER)
        return
    try:
        length = int(h.headers.get("Content-Length") or 0)
    except ValueError:
        length = -1
    if not 0 <= length <= MAX_BODY:
        _error(h, 400, "the request body must be 0..%d bytes" % MAX_BODY)
        return
    body = h.rfile.read(length) if length else b""
    d = h.server.director
    by = h.server.auth.user
    try:
        if path == "/director/api/import":
            report = d.import_file(body, query.get("name", ""), _int(query, "round"), by)
            h._json({"imported": report})
            return
        try:
            msg = json.loads(body.decode("utf-8") or "{}")
        except (ValueError, UnicodeError):
            raise DeskError("the request is not JSON") from None
        if not isinstance(msg, dict):
            raise DeskError("the request is a JSON object")
        if path == "/director/api/bind":
            d.bind(msg.get("table"), str(msg.get("board") or ""))
        elif path == "/director/api/round":
            d.set_round(msg.get("round"))
        elif path == "/director/api/confirm":
            if msg.get("all"):
                h._json({"confirmed": d.confirm_all(msg.get("round"), by)})
                return
            d.confirm(msg.get("round"), msg.get("table"), by)
        elif path == "/director/api/correct":
            d.correct(msg.get("round"), msg.get("table"), msg.get("result"),
                      msg.get("reason"), by)  # fmt: skip
        elif path == "/director/api/alert":
            d.handle_alert(msg.get("id"), by)
        else:
            _error(h, 404, "no such request")
            return
        h._json({"ok": True})
    except (DeskError, PairingError) as exc:
        _error(h, 400, str(exc))

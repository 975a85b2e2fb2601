"""An import into the director's desk (director.py): what a pairings file changes.

The event's name, dates, komi and placement criteria are taken from the file where it has
them; players are merged (a CSV that names players an OpenGotha file ranked keeps their rank);
each round of the file replaces that round's tables - unless boards already play it with
other tables (kept, and said so); results the file carries come in as "imported" (never over a
result the director confirmed or corrected); byes are replaced per round. The round played
becomes the first imported round with a table still open, if later than the current one.
"""

import time

from host_tools.relay import standings

DONE = ("confirmed", "corrected", "imported")


def result_text(outcome, bydef=False):
    """A result as the desk writes it: B+, W+F, =, 0-0, 1-1."""
    if outcome in ("B", "W"):
        return outcome + ("+F" if bydef else "+")
    return {"=": "=", "0": "0-0", "2": "1-1"}.get(outcome, "")


def apply(d, new):
    meta, current = d.desk.meta(d.event)
    meta = dict(meta or {})
    for k in ("name", "short_name", "begin", "end", "location", "director", "komi", "size",
              "rounds", "criteria", "mcmahon"):  # fmt: skip
        v = getattr(new, k)
        if v not in ("", None, [], {}) or k not in meta:
            meta[k] = v
    meta["source"] = new.source
    if not meta.get("criteria"):
        meta["criteria"] = []
    if not meta.get("name"):
        meta["name"] = d.event  # exports always name the event...
    if not meta.get("begin"):
        # ...and date it (the day of the import, when the file has no date)
        meta["begin"] = meta["end"] = time.strftime("%Y-%m-%d", time.localtime(d.wall()))
    d.desk.set_meta(d.event, meta)
    known = d.desk.players(d.event)
    for key, p in new.players.items():
        data = dict(known.get(key) or {})  # a CSV names players the OpenGotha file ranked
        data.update({k: v for k, v in p.as_dict().items() if v not in ("", None)})
        if p.extra or "extra" not in data:
            data["extra"] = p.extra
        d.desk.put_player(d.event, key, data)
    results = d.desk.results(d.event)
    kept, imported, with_results = [], [], 0
    for rnd in sorted(new.tables):
        started = [k for k, r in results.items() if k[0] == rnd and r["gid"]]
        old = {row[1]: row for row in d.desk.tables(d.event, rnd)}
        rows = [(t.table, t.black, t.white, t.handicap, t.komi)
                for t in sorted(new.tables[rnd].values(), key=lambda t: t.table)]  # fmt: skip
        if started and {r[0]: r[:3] for r in rows} != {n: o[1:4] for n, o in old.items()}:
            kept.append(rnd)  # boards already play this round's games: keep its tables
            continue
        d.desk.replace_round(d.event, rnd, rows)
        imported.append(rnd)
        for t in new.tables[rnd].values():
            if t.board:
                d.desk.seat(d.event, t.table, t.board)
            if t.outcome is not None and results.get((rnd, t.table), {}).get("status") not in (
                "confirmed",
                "corrected",
            ):
                with_results += 1
                d.desk.put_result(d.event, rnd, t.table, outcome=t.outcome,
                                     bydef=int(t.bydef), result=result_text(t.outcome,
                                     t.bydef), status="imported", at=d.now())  # fmt: skip
    for rnd, keys in new.byes.items():
        d.desk.set_byes(d.event, rnd, keys)
    # The round to play: the first imported round with a table still without a result.
    results = d.desk.results(d.event)
    open_rounds = [r for r in imported
                   if any((r, n) not in results or results[(r, n)]["status"] not in DONE
                          for n in new.tables[r])]  # fmt: skip
    target = min(open_rounds) if open_rounds else max(imported or [current or 0])
    if target > current:
        d.desk.set_round(d.event, target)
        current = target
    return {
        "source": new.source,
        "name": meta.get("name", ""),
        "players": len(new.players),
        "rounds": imported,
        "kept": kept,
        "tables": sum(len(new.tables[r]) for r in imported),
        "results": with_results,
        "round": current,
        "criteria": meta["criteria"] or standings.DEFAULT,
    }

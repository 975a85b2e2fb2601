"""The host's diagnostic and set-up commands (protocol.py): calibrate, calibrating, enrol, list,
read, health, raw-scan, raw-bowl, plies - each `cmd_<name>(app, cmd) -> [replies]`.

Rare during play, so not part of app.py: commands.Protocol imports this module for one of them and
drops it after (gc_policy.drop; issue 17: on the stock Pico image the code of .mpy files is
heap, and this is heap the game keeps). The frequent commands (ping, state, new-game, button,
mem: its figures without this module's code, cpu: a host that watches the load asks it every
few scans) stay App methods.
"""

from ingrules.board import BLACK
from ingrules.ko import PASS

from ingboard.link import protocol
from ingboard.tracking.tracker import Tracker


def cmd_plies(app, cmd):
    game = app.tracker.game
    board = game.board
    plies = game.plies
    start = cmd.get("from", 0)
    out = []
    for i in range(start, min(len(plies), start + protocol.MAX_PLIES)):
        ply = plies[i]
        point = None if ply.point == PASS else board.name(ply.point)
        out.append(["B" if ply.color == BLACK else "W", point, ply.kind])
    return [{"type": "plies", "from": start, "total": len(plies), "plies": out}]


def cmd_calibrate(app, cmd):
    grid = _load_grid(app)
    if grid:
        app.standalone.show_health(app.now())  # the health map on both faces
    return [{"type": "ok", "cmd": "calibrate", "grid": grid, "bowls": False}]


def cmd_calibrating(app, cmd):
    on = cmd.get("on", True)
    app.calibrate_mode(on)
    return [{"type": "ok", "cmd": "calibrating", "on": on}]


def _renew_calibration(app):
    # A raw request while the calibration mode holds renews it (protocol.py, `calibrating`).
    if app.calibrating is not None:
        app.calibrate_mode(True)


def _load_grid(app):
    from ingboard import storage_paths

    try:
        with open(app.store.root + storage_paths.CALIBRATION, "rb") as f:
            data = f.read()
    except OSError:
        return False
    app.hw["classifier"].load_calibration(data)
    return True


def cmd_enrol(app, cmd):
    tracker = app.tracker
    if tracker.game.plies:
        raise ValueError("bowls are enrolled only before the first move")
    weights = {}
    for i, c in ((0, "B"), (1, "W")):
        if c in cmd:
            g = cmd[c]
        else:
            dg = app.bowl_dg[i]  # the bowl's last reading
            g = None if dg is None else dg / 10
        if g is None:
            raise ValueError("no reading of the %s bowl yet" % c)
        weights[c] = g
    config = dict(tracker.config)
    bowls = dict(config.get("bowls") or {})
    for c in ("B", "W"):
        entry = dict(bowls.get(c) or {})
        entry["w180_g"] = weights[c]
        bowls[c] = entry
    config["bowls"] = bowls
    from ingboard.config_check import check_config

    check_config(config)
    Tracker(config)
    # The players counted the set with the frame: kept for every later game (/set.json),
    # like the `enrolled` event; this game starts again with it (journal, session log).
    app._keep_set(weights)
    app.new_game(config)
    return [{"type": "ok", "cmd": "enrol", "B": weights["B"], "W": weights["W"]}]


def cmd_list(app, cmd):
    return [{"type": "games", "files": app.store.finished()}]


def cmd_read(app, cmd):
    offset = cmd.get("offset", 0)
    data, size = app.store.read(cmd["name"], offset, cmd.get("count", 512))
    return [
        {
            "type": "file",
            "name": cmd["name"],
            "offset": offset,
            "size": size,
            "data": data.decode(),
        }
    ]


def cmd_health(app, cmd):
    c = app.hw["classifier"]
    return [{"type": "health", "rows": c.health_rows(), "faults": c.fault_points()}]


def cmd_raw_scan(app, cmd):
    n = cmd.get("n", 1)
    _renew_calibration(app)
    grid = app.hw["grid"]
    sums = None
    for _ in range(n):
        readings = grid.scan()
        if sums is None:
            sums = [0] * len(readings)
        for i in range(len(readings)):
            sums[i] += readings[i]
    # The means in place: one list of the board's size, no second one grown to 2 KB.
    for i in range(len(sums)):
        sums[i] = (sums[i] + n // 2) // n
    return [{"type": "raw-scan", "n": n, "size": app.hw["classifier"].size, "values": sums}]


def cmd_raw_bowl(app, cmd):
    n = cmd.get("n", 1)
    _renew_calibration(app)
    ticks, diff = app.ticks_ms, app.ticks_diff
    reply = {"type": "raw-bowl", "n": n}
    for c, hx in (app.hw.get("hx711") or {}).items():
        if not hasattr(hx, "read_code"):
            raise ValueError("the %s bowl has no raw reading" % c)
        codes = []
        # An HX711 gives 10 conversions a second (4 periods after a power-up): a sample may
        # take up to 500 ms of waiting, by the clock (and a bound on the tries where the
        # clock is virtual and stands still).
        start = ticks()
        tries = 0
        while len(codes) < n:
            tries += 1
            if hx.ready():
                codes.append(hx.read_code())
                start = ticks()
                tries = 0
            elif diff(ticks(), start) > 500 or tries > 200000:
                raise ValueError("the %s bowl's HX711 does not answer" % c)
        codes.sort()
        reply[c] = codes[n // 2]
    return [reply]

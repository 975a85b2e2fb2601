"""The host's diagnostic and set-up commands (protocol.py): calibrate, enrol, list, read,
health, raw-scan, raw-bowl, plies, cpu - each `cmd_<name>(app, cmd) -> [replies]`; and the
app's CPU accounting read out (App.cpu_stats, cpu_reset).

Rare during play, so not part of app.py: Protocol imports this module for one of them and
drops it after (gc_policy.drop; issue 17: on the stock Pico image the code of .mpy files is
heap, and this is heap the game keeps). The frequent commands (ping, state, new-game, button,
mem: its figures without this module's code) stay App methods.
"""

from micropython import const

from ingboard import protocol
from ingboard.app import CPU_BLOCK, CPU_TASKS
from ingboard.core.board import BLACK
from ingboard.core.ko import PASS
from ingboard.core.session import check_config
from ingboard.core.tracker import Tracker

_CONVERSION_MS = const(100)  # HX711 at 10 samples a second (RATE low)
_MAX_POLLS = const(200000)


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
    for c in ("B", "W"):
        g = cmd.get(c, app.grams[c])
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
    grid = app.hw["grid"]
    sums = None
    for _ in range(n):
        readings = grid.scan()
        if sums is None:
            sums = [0] * len(readings)
        for i in range(len(readings)):
            sums[i] += readings[i]
    values = [(s + n // 2) // n for s in sums]
    return [{"type": "raw-scan", "n": n, "size": app.hw["classifier"].size, "values": values}]


def cmd_raw_bowl(app, cmd):
    n = cmd.get("n", 1)
    reply = {"type": "raw-bowl", "n": n}
    for c, hx in (app.hw.get("hx711") or {}).items():
        if not hasattr(hx, "read_code"):
            raise ValueError("the %s bowl has no raw reading" % c)
        # The HX711 converts 10 times a second (and settles 400 ms after a power-down), so
        # the wait is timed: a count of polls ends long before the next conversion on a fast
        # chip. The poll cap only ends the wait where the clock does not move (virtual time).
        codes = []
        tries = 0
        start = app.ticks_ms()
        limit_ms = getattr(hx, "timeout_ms", 500) + _CONVERSION_MS * n
        while len(codes) < n:
            if hx.ready():
                codes.append(hx.read_code())
                continue
            tries += 1
            waited = app.ticks_diff(app.ticks_ms(), start)
            if waited > limit_ms or tries > _MAX_POLLS * n:
                raise ValueError("the %s bowl's HX711 does not answer" % c)
        codes.sort()
        reply[c] = codes[n // 2]
    return [reply]


def cpu_stats(app):
    """The CPU each task took since the start (or cpu_reset()), in us: {"elapsed_us",
    "tasks": {name: us}, "load_pct", "scans", "scan_wait_us", "scan_late_max_us",
    "scan_late_at_ms", "scan_late_task"} - load is the share of the elapsed time the tasks
    ran (scan_wait_us: how much of the scan's was the sensors' power-on waits); a scan's
    lateness is how long after its scheduled time (the previous wake-up plus the period) it ran
    ("scan_late_at_ms": about when the worst was, in board time; "scan_late_task": the task
    whose slice held it up, "inline" when a checkpoint's scan came late within the piece of
    work that made it). The resolution is that of the clock the app was given (`unit_us`)."""
    unit = app.cpu_unit_us
    tasks = {}
    busy = 0
    for i in range(len(CPU_TASKS)):
        units = app._cpu[2 * i + 1] * CPU_BLOCK + app._cpu[2 * i]
        tasks[CPU_TASKS[i]] = units * unit
        busy += units * unit
    n = len(CPU_TASKS)
    wall = app._cpu[2 * n + 1] * CPU_BLOCK + app._cpu[2 * n]
    elapsed = (wall + app.ticks_diff(app.cpu_ticks(), app._cpu_mark)) * unit
    return {
        "unit_us": unit,
        "elapsed_us": elapsed,
        "tasks": tasks,
        "load_pct": round(100 * busy / elapsed, 1) if elapsed > 0 else None,
        "scans": app._scans,
        # Of the scan's time, the sensors' power-on waits (GridScanner.wait_us a scan).
        "scan_wait_us": app._scans * getattr(app.hw.get("grid"), "wait_us", 0),
        "scan_late_max_us": app._scan_late * unit,
        "scan_late_at_ms": app._scan_late_at,
        "scan_late_task": (CPU_TASKS + ("inline", None))[app._scan_late_task],  # -1: none yet
    }


def cpu_reset(app):
    for i in range(len(app._cpu)):
        app._cpu[i] = 0
    app._cpu_mark = app.cpu_ticks()
    app._scan_late = 0
    app._scan_late_at = 0
    app._scan_late_task = -1
    app._scans = 0


def cmd_cpu(app, cmd):
    reply = cpu_stats(app)
    reply["type"] = "cpu"
    if cmd.get("reset"):
        cpu_reset(app)
    return [reply]

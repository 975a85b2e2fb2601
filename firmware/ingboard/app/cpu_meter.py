"""The app's CPU accounting read out: how much of the elapsed time each task took.

App counts (App._spent/_add, on every task slice): one counter per task of CPU_TASKS, in the
units of the clock the app was given (ticks_us on the board; ticks_ms where only that exists).
A counter spills every CPU_BLOCK units into a second one, so both stay small ints for any
length of game (a CPU budget per task: docs and `make bench`). `stats(app)` and `reset(app)`
are the `cpu` host command's and the benchmarks' view of those counters.
"""

from micropython import const

CPU_TASKS = ("scan", "bowls", "keys", "game", "background", "relay", "display", "link")
CPU_BLOCK = const(1 << 20)


def stats(app):
    """The CPU each task took since the start (or reset()), in us: {"elapsed_us",
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


def reset(app):
    for i in range(len(app._cpu)):
        app._cpu[i] = 0
    app._cpu_mark = app.cpu_ticks()
    app._scan_late = 0
    app._scan_late_at = 0
    app._scan_late_task = -1
    app._scans = 0

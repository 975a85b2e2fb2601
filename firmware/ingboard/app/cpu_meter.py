"""The app's CPU accounting: how much of the elapsed time each task took, and how late the
scans ran. `CpuMeter`, a mixin of App (app.py), counts on every task slice (`_spent`): one
counter per task of CPU_TASKS, in the units of the clock the app was given (ticks_us on the
board; ticks_ms where only that exists). A counter spills every CPU_BLOCK units into a second
one, so both stay small ints for any length of game (a CPU budget per task: docs and `make
bench`). `stats(app)` and `reset(app)` are the `cpu` host command's and the benchmarks' view of
those counters.
"""

from micropython import const

CPU_TASKS = ("scan", "bowls", "keys", "game", "background", "relay", "display", "link")
CPU_BLOCK = const(1 << 20)
# One counter per task of CPU_TASKS, in that order: a task passes its index to `_spent()`,
# a private const of its own module (folded away on MicroPython; tests/firmware/
# test_app_cpu.py checks each against CPU_TASKS).
_T_INLINE = const(8)  # stats' scan_late_task: a checkpoint's own scan came late
_T_WALL = const(8)  # the elapsed time's counter, after the tasks'


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


class CpuMeter:
    """The CPU counters of an App (a mixin: uses the app's `ticks_diff`, `_last`, and the
    inputs' `_scan_at`)."""

    def _init_cpu_meter(self, ticks_ms, ticks_us):
        # The CPU clock: ticks_us when given, else ticks_ms counted as 1000 us (virtual time).
        self.cpu_ticks = ticks_us or ticks_ms
        self.cpu_unit_us = 1 if ticks_us else 1000
        # [units below a block, blocks] per task, then the same for the elapsed time (folded in
        # at every scan from _cpu_mark: ticks_us wraps every 17.9 min).
        self._cpu = [0] * (2 * len(CPU_TASKS) + 2)
        self._cpu_mark = self.cpu_ticks()
        self._scan_late = 0  # worst lateness of a scheduled scan, in cpu units
        self._scan_late_at = 0  # board time of the last input or tick before it
        self._scans = 0
        # The longest task slice since the last scan (cpu units, task): what held up the
        # worst late scan (cpu_stats "scan_late_task"; "inline": a checkpoint's scan, late
        # in the piece of work that made it).
        self._slice_max = 0
        self._slice_task = -1
        self._scan_late_task = -1
        self._inline = 0  # cpu units of scans made inside another task's slice (scan_if_due)

    def _scan_begun(self, start):
        # A scan starts at cpu time `start`, due at _scan_at: its lateness (returned) and the
        # elapsed time counted.
        late = self.ticks_diff(start, self._scan_at)
        if late > self._scan_late:
            self._scan_late = late
            self._scan_late_at = self._last  # board time (ms) of the worst, to find its cause
            self._scan_late_task = self._slice_task if self._slice_max > late else _T_INLINE
        self._slice_max = 0
        self._slice_task = -1
        self._scans += 1
        # (_add's sum in line, as in _spent: once a scan.)
        d = self.ticks_diff(start, self._cpu_mark)
        if 0 < d and d + self._cpu[2 * _T_WALL] < CPU_BLOCK:
            self._cpu[2 * _T_WALL] += d
        else:
            self._add(_T_WALL, d)
        self._cpu_mark = start
        return late

    def _spent(self, task, start):
        # Adds the time since `start` (a cpu_ticks() value) to a task's counter, less the scans
        # made meanwhile (scan_if_due: counted to the scan); small ints only. Returns the
        # cpu_ticks() it ended at.
        # (_add's sum in line: a method call is ~25 us of the RP2040, at ~200 slices a second.)
        end = self.cpu_ticks()
        d = self.ticks_diff(end, start) - self._inline
        self._inline = 0
        if d > 0:
            cpu = self._cpu
            if d + cpu[2 * task] < CPU_BLOCK:
                cpu[2 * task] += d
            else:
                self._add(task, d)
            if d > self._slice_max:
                self._slice_max = d
                self._slice_task = task
        return end

    def _add(self, task, d):
        if d > 0:
            cpu = self._cpu
            i = 2 * task
            d += cpu[i]
            while d >= CPU_BLOCK:
                d -= CPU_BLOCK
                cpu[i + 1] += 1
            cpu[i] = d

    def cpu_stats(self):
        """The CPU each task took since the start (or cpu_reset()): cpu_meter.stats."""
        return stats(self)

    def cpu_reset(self):
        reset(self)

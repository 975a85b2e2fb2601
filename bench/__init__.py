"""`make bench`: the firmware's figures, measured in this run (issue 10).

Every figure is a `Figure`: a name, a measured value, a unit and, where the project set one, a
goal. `python -m bench` prints one machine-readable line per figure as it is measured,

    name value unit [MISS]

then a short table with the goals; a goal not met says MISS in both. A figure that could not be
measured in this run (a part of the firmware not built yet, a part of a section that failed) has
the value `NA` and is a MISS with the reason; the run goes on with the next figure. Nothing is
estimated or copied from an earlier run: `bench/results.md` keeps the history (`python -m bench
--record` appends this run's figures to it).

Modules, one per group of figures: `rules` (rules core vs sgfmill under MicroPython and
CPython; `rules_job` is the part that runs inside both interpreters), `heap` (MicroPython heap
over a 300-move game), `scan` (scan path allocations and time), `latency` (tracker latency
over the corpus), `size` (.mpy size), `mcu` (the device's figures on the twin); `games`
prepares the inputs from the test corpus.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (ROOT, os.path.join(ROOT, "tests")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import host_tools  # noqa: E402,F401  (firmware/ and the micropython shim on sys.path)

KB = 1024  # the goals' KB are 1024 bytes


class BenchError(RuntimeError):
    """A measurement went wrong (an engine disagreed, an interpreter failed): no figure."""


class Figure:
    """One measured figure. `goal` is (">=" or "<=", limit) or None; `reason` explains NA."""

    def __init__(self, name, value, unit, goal=None, note="", reason=""):
        self.name = name
        self.value = value
        self.unit = unit
        self.goal = goal
        self.note = note
        self.reason = reason

    @property
    def measured(self):
        return self.value is not None

    @property
    def missed(self):
        if not self.measured:
            return True  # NA is a MISS, goal or not: the run says why
        if self.goal is None:
            return False
        op, limit = self.goal
        return not (self.value >= limit if op == ">=" else self.value <= limit)

    def value_text(self):
        if not self.measured:
            return "NA"
        if isinstance(self.value, int):
            return "%d" % self.value
        if abs(self.value) >= 100:
            return "%.1f" % self.value
        return "%.3g" % self.value if abs(self.value) < 1 else "%.2f" % self.value

    def goal_text(self):
        if self.goal is None:
            return ""
        op, limit = self.goal
        limit_text = ("%d" % limit) if limit == int(limit) else ("%g" % limit)
        return "%s %s %s" % (op, limit_text, self.unit)

    def line(self):
        """The machine-readable line: `name value unit`, then MISS (and why) if missed."""
        text = "%s %s %s" % (self.name, self.value_text(), self.unit)
        if self.missed:
            text += " MISS"
            if self.reason:
                text += " (%s)" % self.reason
        return text


def missing(name, unit, goal, reason):
    """A figure this run could not measure: NA, a MISS with its reason."""
    return Figure(name, None, unit, goal=goal, reason=reason)


def table(figures):
    """The short table: figure, value, goal, status (ok / MISS / blank without a goal)."""
    rows = [("figure", "value", "goal", "status")]
    for f in figures:
        value = f.value_text() if f.measured else "NA"
        status = "MISS" if f.missed else ("ok" if f.goal else "")
        if f.missed and f.reason:
            status += " (%s)" % f.reason
        rows.append((f.name, "%s %s" % (value, f.unit), f.goal_text(), status))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    out = []
    for i, r in enumerate(rows):
        out.append(
            "%-*s  %*s  %-*s  %s" % (widths[0], r[0], widths[1], r[1], widths[2], r[2], r[3])
        )
        if i == 0:
            out.append("-" * (sum(widths) + 6 + 6))
    return "\n".join(line.rstrip() for line in out)


def percentile(values, pct):
    """Nearest-rank percentile of a non-empty list (p95 = the value 95 % do not exceed)."""
    ordered = sorted(values)
    rank = -(-pct * len(ordered) // 100)  # ceil
    return ordered[max(0, min(len(ordered) - 1, rank - 1))]

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
import host_tools  # noqa: E402,F401  (firmware/ and the micropython shim on sys.path)

# The shared firmware tests import their helpers (expect, positions) as top-level modules, the
# way they are laid out in MicroPython's file system.
sys.path.insert(0, os.path.join(HERE, "firmware"))


def pytest_terminal_summary(terminalreporter):
    """Say how much of this run happened under real MicroPython (tests/test_under_micropython)."""
    counts = {}
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if "test_under_micropython.py" in nodeid and report.when == "call":
                kind = "imports" if "test_imports_under_micropython" in nodeid else "tests"
                counts[(kind, outcome)] = counts.get((kind, outcome), 0) + 1
    if counts:
        terminalreporter.write_line(
            "under MicroPython (WebAssembly): %d shared tests and %d module imports checked, "
            "%d of them failing"
            % (
                counts.get(("tests", "passed"), 0) + counts.get(("tests", "failed"), 0),
                counts.get(("imports", "passed"), 0) + counts.get(("imports", "failed"), 0),
                counts.get(("tests", "failed"), 0) + counts.get(("imports", "failed"), 0),
            )
        )

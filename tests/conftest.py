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


def _file_rank(items):
    """Where a test file runs in the order: 0 the MicroPython run (one long fixture: started
    first, it overlaps the rest when pytest has a worker per core), 1 the files marked `slow`
    (longest first, so no worker is left with one at the end), 3 the users of the GNU Go corpus
    (last: `make test` generates the corpus in the background meanwhile), 2 the others."""
    if any("corpus" in item.fixturenames for item in items):
        return 3
    if os.path.basename(str(items[0].fspath)) == "test_under_micropython.py":
        return 0
    if any(item.get_closest_marker("slow") for item in items):
        return 1
    return 2


def pytest_collection_modifyitems(config, items):
    """Order the test files (each keeps its own order, so module fixtures are set up once):
    see _file_rank. The order is the same in every pytest-xdist worker (it depends on the
    collected tests only), as xdist requires."""
    files = {}
    for item in items:
        files.setdefault(str(item.fspath), []).append(item)
    ordered = sorted(files.values(), key=_file_rank)  # stable: collection order within a rank
    items[:] = [item for group in ordered for item in group]

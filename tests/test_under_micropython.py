"""The shared firmware tests (tests/firmware/) again, under real MicroPython (WebAssembly).

One pytest test per firmware module (it must import under MicroPython) and one per shared test
function, all from a single MicroPython run, so pytest's summary counts the MicroPython run.
"""

import ast
import os

import pytest

from host_tools import micropython as mp

TESTS_DIR = mp.FIRMWARE_TESTS

# The first test's setup runs the whole MicroPython suite (minutes when the machine is busy): the
# make test limit (600 s) applies to each test's own call; each MicroPython interpreter run is
# bounded by host_tools.micropython's own time limit.
pytestmark = pytest.mark.timeout(func_only=True)


def _shared_tests():
    cases = []
    for module in mp.test_modules():
        with open(os.path.join(TESTS_DIR, module + ".py")) as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cases.append(module + "." + node.name)
    return sorted(cases)


FIRMWARE_FILES = [path for path, _module in mp.firmware_modules()]
SHARED_TESTS = _shared_tests()


@pytest.fixture(scope="session")
def micropython_results():
    records = mp.run_firmware_tests()
    by_name = {}
    for kind, name, ok, detail in records:
        by_name[(kind, name)] = (ok, detail)
    return by_name


def _check(results, key):
    if ("run", "micropython") in results:
        pytest.fail(results[("run", "micropython")][1])
    if key not in results:
        pytest.fail("%s was not run under MicroPython" % (key[1],))
    ok, detail = results[key]
    if not ok:
        pytest.fail("under MicroPython: %s\n%s" % (key[1], detail))


@pytest.mark.parametrize("path", FIRMWARE_FILES)
def test_imports_under_micropython(micropython_results, path):
    _check(micropython_results, ("import", path))


@pytest.mark.parametrize("name", SHARED_TESTS)
def test_shared_test_under_micropython(micropython_results, name):
    _check(micropython_results, ("test", name))

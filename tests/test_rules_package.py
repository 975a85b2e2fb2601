"""The rules core as a package of its own (firmware/rules/): its wheel installs with pip into a
fresh venv, and its own tests pass against the installed package on CPython and on MicroPython
(the installed files alone, away from the source tree)."""

import os

import pytest

from host_tools import RULES, rules_package

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    work = str(tmp_path_factory.mktemp("ingrules"))
    python, package_dir = rules_package.install(work)
    return work, python, package_dir


def test_the_wheel_installs_the_package_and_only_it(installed):
    _work, _python, package_dir = installed
    names = sorted(n for n in os.listdir(package_dir) if n.endswith(".py"))
    source = sorted(n for n in os.listdir(os.path.join(RULES, "ingrules")) if n.endswith(".py"))
    assert names == source
    assert "__init__.py" in names and "ko.py" in names and "game.py" in names


def test_its_tests_pass_on_cpython_against_the_installed_package(installed):
    work, python, package_dir = installed
    status, output = rules_package.run_cpython(python, work)
    assert status == 0, output
    assert "from %s" % os.path.join(package_dir, "__init__.py") in output, output
    last = output.strip().splitlines()[-1]
    passed, failed = [int(word) for word in last.replace(",", "").split() if word.isdigit()]
    assert failed == 0 and passed >= 70, last


def test_its_tests_pass_under_micropython_from_the_installed_files(installed):
    _work, _python, package_dir = installed
    run = rules_package.run_micropython(package_dir)
    assert run["from"] == "/lib/ingrules/__init__.py"
    failed = [(name, trace) for name, trace in run["results"] if trace is not None]
    assert not failed, failed
    assert len(run["results"]) >= 70


def test_a_failing_test_makes_the_run_fail(installed, tmp_path):
    # The runner itself can fail: a copy of the tests with one false assertion added.
    import shutil

    work, python, _package_dir = installed
    tests = tmp_path / "tests"
    shutil.copytree(rules_package.TESTS, tests)
    (tests / "test_zz_false.py").write_text("def test_false():\n    assert 1 == 2\n")
    status, output = rules_package.run_cpython(python, work, tests=str(tests))
    assert status == 1, output
    assert "FAILED test_zz_false.test_false" in output
    assert output.strip().splitlines()[-1].endswith(" passed, 1 failed")

"""Fixtures for the host tests: the generated game corpus (tests/corpus.py)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus as _corpus  # noqa: E402  (tests/corpus.py)


@pytest.fixture(scope="session")
def corpus():
    """Sorted SGF paths of the test corpus; generated with GNU Go on first use, then cached."""
    return _corpus.corpus_paths()


def pytest_collection_modifyitems(config, items):
    """Every test that runs the real rp2 firmware on the device twin (tests/host/test_twin_*.py)
    is a `device` test: `make test-device` runs them, `make test` (the README's fast command:
    CPython and MicroPython's WebAssembly port) does not. CI runs both."""
    for item in items:
        if os.path.basename(str(item.fspath)).startswith("test_twin_"):
            item.add_marker(pytest.mark.device)
        if "corpus" in item.fixturenames:
            # make test generates the corpus beside pytest: the first user may wait for it in
            # its setup (each GNU Go command has its own time limit); the time limit of a test
            # (make test: 600 s) applies to its own call.
            item.add_marker(pytest.mark.timeout(func_only=True))

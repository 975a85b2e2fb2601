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

"""docs/conformance.md (issue 15 item 8): every rule row names a seed, a sentence and a test that
exists; README links the table."""

import os
import re

from host_tools import ROOT

TABLE = os.path.join(ROOT, "docs", "conformance.md")
TEST = re.compile(r"`((?:firmware/rules/)?tests/[a-z_/]+\.py)::(test_[a-z0-9_]+)`")
SEEDS = ("1991", "1996", "SI", "AGA", "KSS", "all")


def rows():
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            if line.startswith("| ") and not line.startswith("| seed") and "---" not in line:
                yield [cell.strip() for cell in line.strip().strip("|").split("|")]


def test_every_row_cites_a_seed_a_sentence_and_existing_tests():
    count = 0
    for cells in rows():
        assert len(cells) == 5, cells
        seed, sentence, _what, _setting, tests = cells
        assert seed.split()[0] in SEEDS, seed
        assert sentence, cells
        found = TEST.findall(tests)
        assert found, "row without a test: %s" % seed
        for path, name in found:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                source = f.read()
            assert re.search(r"^def %s\(" % name, source, re.M), "%s::%s" % (path, name)
        count += 1
    assert count >= 40


def test_the_readme_links_the_table():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert "docs/conformance.md" in f.read()

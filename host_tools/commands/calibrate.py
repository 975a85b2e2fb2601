"""`ingboard calibrate [--port P]`: guided grid and bowl calibration, written to the board.

Grid (hardware_docs/calibration.md, "Grid three-level calibration"): clear the board, then
cover it with Black stones a band of lines at a time (default 9 lines: 19-11, 10-2, 1), then
the same with White. After each step the board sends the mean of `--scans` raw scans
(`{"cmd": "raw-scan", "n": N}`); a point counts as covered when it moved more than a quarter
of the default span from its empty level. Points no step covered are asked for by name. The
three levels go through sensing/calibration.py's `calibration_bytes` into `/calib.bin`; a point
whose levels cannot work (Black and White on the same side of empty, or too weak) is shown as
`C` on the health map and makes the run end with exit 1 (the file is still written: the other
points need it).

Bowls: empty both bowls (lids off), then put a known mass (`--weight-g`) in each in turn; the
medians of raw HX711 codes (`{"cmd": "raw-bowl", "n": N}`) give each bowl's offset and scale,
written to `/bowls.json` (format in ingboard/storage_paths.py).

During the guided steps the board is in its calibration mode (`{"cmd": "calibrating"}`, sent
again before each step's request): the stones and the test mass are not a game's moves, and
the board raises no alert for them. At the end (or when the board refuses a step) the user is
asked to clear the board and put the stones back in their bowls, and the restart (or the
mode's `off`) has the board play again; a board the tool lost on the way (Ctrl-C, input ended)
plays again by itself 30 minutes after the last request.

`--upload FILE` skips the guided steps and copies a saved grid calibration (checked first: a
damaged file is refused, exit 2); `--save FILE` keeps a copy of the new one. Every file is
read back from the board and compared; the board's program is restarted to load it.
"""

import json
import sys
import time

from host_tools.device import DeviceError, connect, wait_app_started
from host_tools.errors import InputError

HELP = "guided grid and bowl calibration, written to the board's calibration files"

SCAN_TIMEOUT_S = 60.0


def add_arguments(parser):
    parser.add_argument("--port", help="the board's serial port (default: $INGBOARD_PORT)")
    parser.add_argument(
        "--only", choices=("grid", "bowls"), help="calibrate only the grid or only the bowls"
    )
    parser.add_argument(
        "--lines-per-step",
        type=int,
        default=9,
        help="board lines covered per step (1-9; 9 lines = 171 stones, default)",
    )
    parser.add_argument("--scans", type=int, default=32, help="scans averaged per step (1-64)")
    parser.add_argument(
        "--weight-g", type=float, default=500.0, help="known mass for the bowls (grams)"
    )
    parser.add_argument("--upload", metavar="FILE", help="copy this grid calibration file")
    parser.add_argument("--save", metavar="FILE", help="also keep the grid calibration here")


def ask(prompt):
    try:
        return input(prompt + " [Enter] ")
    except EOFError:
        raise InputError("calibrate is interactive: input ended before the last step") from None


def request(dev, cmd, reply_type, timeout_s=SCAN_TIMEOUT_S):
    """Send one protocol command; return the first reply of `reply_type` (events are skipped)."""
    dev.write((json.dumps(cmd) + "\n").encode())
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        raw = dev.readline(1.0)
        if raw is None:
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        if msg.get("type") == reply_type:
            return msg
        if msg.get("type") == "error":
            raise DeviceError("the board refused %s: %s" % (cmd.get("cmd"), msg.get("text")))
    raise DeviceError(
        "no %s reply from the board in %d s (is the ingboard firmware running? "
        "`ingboard flash`)" % (reply_type, timeout_s)
    )


def calibration_mode(dev):
    """Tell the board a calibration is under way (its scans and bowl readings are not moves)."""
    try:
        request(dev, {"cmd": "calibrating", "on": True}, "ok")
    except DeviceError as exc:
        if "unknown command" not in str(exc):
            raise
        raise DeviceError(
            "the board's firmware is older than this tool (no calibration mode): "
            "run `ingboard flash` first"
        ) from None


PUT_BACK = (
    "Take the mass out, clear the board and put the stones back in their bowls: "
    "the board then plays again."
)


def end_calibration_mode(dev):
    """A calibration cut short: once the board is cleared (a band of stones left on it would be
    a flood of alerts), the board plays again (best effort: no reply awaited)."""
    try:
        ask(PUT_BACK)
    except InputError:
        pass  # not interactive: the board plays again as it is
    try:
        dev.write(b'{"cmd": "calibrating", "on": false}\n')
    except Exception:  # noqa: BLE001 (the board may be gone)
        pass


def raw_scan(dev, scans):
    calibration_mode(dev)  # again before each step: a step may outlast the mode's lapse
    msg = request(dev, {"cmd": "raw-scan", "n": scans}, "raw-scan")
    values = msg.get("values")
    size = msg.get("size")
    if not isinstance(size, int) or not isinstance(values, list) or len(values) != size * size:
        raise DeviceError("malformed raw-scan reply from the board")
    return size, values


def bands(size, per_step):
    """Bands of board lines, top first: [(top line, bottom line)], e.g. 19-11, 10-2, 1-1."""
    out = []
    top = size
    while top >= 1:
        bottom = max(1, top - per_step + 1)
        out.append((top, bottom))
        top = bottom - 1
    return out


def band_points(size, band):
    top, bottom = band
    lines = range(top, bottom - 1, -1)
    return [(size - line) * size + col for line in lines for col in range(size)]


def covered(empty, reading, threshold):
    return [i for i in range(len(empty)) if abs(reading[i] - empty[i]) > threshold]


def level_of_colour(dev, size, empty, colour, per_step, scans, log):
    """Each point's reading under a stone of `colour`, from band steps and then by name."""
    from ingboard.sensing.classifier import DEFAULT_SPAN, point_name

    name = {"B": "Black", "W": "White"}[colour]
    level = [None] * (size * size)
    threshold = DEFAULT_SPAN // 4
    steps = bands(size, per_step)
    for top, bottom in steps:
        lines = "line %d" % top if top == bottom else "lines %d-%d" % (top, bottom)
        n = (top - bottom + 1) * size
        ask("Clear the board, then cover %s with %s stones (%d stones)." % (lines, name, n))
        _size, reading = raw_scan(dev, scans)
        hits = covered(empty, reading, threshold)
        for i in hits:
            level[i] = reading[i]
        wanted = set(band_points(size, (top, bottom)))
        log("  %s: %d of %d points read a stone" % (lines, len(wanted & set(hits)), len(wanted)))
    for _attempt in range(2):
        missing = [i for i in range(size * size) if level[i] is None]
        if not missing:
            break
        names = " ".join(point_name(i, size) for i in missing)
        ask("Clear the board, then put %s stones on: %s." % (name, names))
        _size, reading = raw_scan(dev, scans)
        for i in covered(empty, reading, threshold):
            level[i] = reading[i]
    missing = [point_name(i, size) for i in range(size * size) if level[i] is None]
    return level, missing


def calibrate_grid(dev, per_step, scans, log=print):
    """The guided grid steps; returns (calibration bytes, faulty point names)."""
    from ingboard.sensing.calibration import calibration_bytes
    from ingboard.sensing.classifier import Classifier

    ask("Clear the board: no stone on it.")
    size, empty = raw_scan(dev, scans)
    black, missing_b = level_of_colour(dev, size, empty, "B", per_step, scans, log)
    white, missing_w = level_of_colour(dev, size, empty, "W", per_step, scans, log)
    if missing_b or missing_w:
        raise DeviceError(
            "no stone was ever seen on: %s" % " ".join(sorted(set(missing_b + missing_w)))
        )
    data = calibration_bytes(size, empty, black, white)
    check = Classifier(size=size)
    check.load_calibration(data)
    log("health map (+ good, C unusable calibration):")
    for row in check.health_rows():
        log("  " + row)
    return data, check.fault_points()


def put_and_check(dev, path, data):
    dev.fs_put(path, data)
    back = dev.fs_get(path)
    if back != data:
        raise DeviceError(
            "%s read back %d bytes that differ from the %d written" % (path, len(back), len(data))
        )


def raw_bowls(dev, scans):
    calibration_mode(dev)  # (as raw_scan)
    msg = request(dev, {"cmd": "raw-bowl", "n": scans}, "raw-bowl")
    if not isinstance(msg.get("B"), int) or not isinstance(msg.get("W"), int):
        raise DeviceError("malformed raw-bowl reply from the board")
    return msg


def calibrate_bowls(dev, weight_g, scans, log=print):
    """Offsets from the empty bowls, scales from the known mass; returns the file's text."""
    from ingboard.storage_paths import bowl_calibration_text

    ask("Take the lids off and empty both bowls.")
    zero = raw_bowls(dev, scans)
    scales = {}
    for colour, name in (("B", "Black"), ("W", "White")):
        ask("Put the %g g mass in %s's bowl (and nothing in the other)." % (weight_g, name))
        loaded = raw_bowls(dev, scans)
        delta = loaded[colour] - zero[colour]
        # A 500 g load moves a 5 kg cell at gain 128 by about 50 000 counts; under 1000 means
        # the mass is missing or the cell is not wired.
        if abs(delta) < 1000:
            raise DeviceError(
                "%s's bowl did not change (%d counts): is its cell wired?" % (name, delta)
            )
        scales[colour] = delta / weight_g
        log("  %s: zero %d, %.2f counts per gram" % (name, zero[colour], scales[colour]))
    return bowl_calibration_text({"B": zero["B"], "W": zero["W"]}, scales)


def load_upload(path):
    from ingboard.sensing.calibration import parse_calibration

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror)) from None
    try:
        parse_calibration(data)
    except ValueError as exc:
        raise InputError("%s: %s" % (path, exc)) from None
    return data


def run(args):
    from ingboard import storage_paths as sp

    if not 1 <= args.lines_per_step <= 9:
        raise InputError("--lines-per-step must be 1-9 (a bowl holds 180 stones)")
    if not 1 <= args.scans <= 64:
        raise InputError("--scans must be 1-64 (the board averages at most 64 scans a request)")
    if not args.weight_g > 0:
        raise InputError("--weight-g must be a positive mass in grams")
    upload = load_upload(args.upload) if args.upload else None
    dev = connect(args.port)
    faulty = []
    try:
        if upload is not None:
            put_and_check(dev, sp.CALIBRATION, upload)
            print("copied %s to %s" % (args.upload, sp.CALIBRATION))
        else:
            dev.start_app()
            wait_app_started(dev)  # a line sent while main.py loads reaches nobody
            calibration_mode(dev)
            grid = bowls = None
            if args.only != "bowls":
                grid, faulty = calibrate_grid(dev, args.lines_per_step, args.scans)
            if args.only != "grid":
                bowls = calibrate_bowls(dev, args.weight_g, args.scans)
            if grid is not None:
                put_and_check(dev, sp.CALIBRATION, grid)
                print("wrote %s (%d bytes)" % (sp.CALIBRATION, len(grid)))
                if args.save:
                    with open(args.save, "wb") as f:
                        f.write(grid)
            if bowls is not None:
                put_and_check(dev, sp.BOWL_CALIBRATION, bowls.encode())
                print("wrote %s" % sp.BOWL_CALIBRATION)
            ask(PUT_BACK)  # what lies on the board meets the game when the board restarts
        dev.start_app()
    except DeviceError as exc:
        print("ingboard calibrate: %s" % exc, file=sys.stderr)
        if upload is None:
            end_calibration_mode(dev)
        return 1
    finally:
        dev.close()
    if faulty:
        print(
            "ingboard calibrate: %d points cannot be calibrated (C): %s"
            % (len(faulty), " ".join(faulty)),
            file=sys.stderr,
        )
        return 1
    return 0

"""`ingboard bringup [--port P | --twin [--fault F]... | --readings FILE]`: the finished board
checked part by part; every wiring fault named with the chip, pin, cable or part to check.

The walk (host_tools/bringup/walk.py): the empty board (each input's level and spread), each
sensor group's power switched on and off, the I2C buses and the supply; Black stones in eleven
patterns (host_tools/bringup/plan.py: each scan index then tells which sensor it really
reads); each key pressed once; a known weight at each end of each bowl's platform. From those
raw readings (host_tools/bringup/diagnosis.py, a pure function) it names swapped or stuck
select lines (S0-S3, A0-A3), swapped analog lines, swapped or miswired sensors on a mux, dead
or always-on groups (their MOSFET), enable lines open or shorted, sensors dead, reversed, on
the wrong axis or too deep, reversed stones, load cells backwards or mismatched, displays at
the wrong address or an SH1106 for an SSD1306, keys swapped, open or stuck.

- `--port P`: a real board (the firmware flashed: `ingboard flash`); it asks for each step
  (Enter goes on, q stops). `--answers FILE` answers the prompts from FILE, one line each.
  The reads go through the board's REPL with the game app stopped (drivers/probe.py, sent
  with each read); the app is started again at the end.
- `--twin`: the device twin (MicroPython rp2 on the emulated RP2040, $INGBOARD_MCU_DIR) plays
  the builder; `--fault TEXT` wires it wrong first (host_tools/twin/faults.py).
- `--readings FILE`: diagnose saved readings (`--save-readings FILE` writes them).
- `--pole POINT [--colour B|W]`: the pole tester: hold stones over POINT one by one; each is
  called black, white, weak or reversed.

Exit 0: no fault; 1: faults found (or the board failed); 2: bad input.
"""

import json
import sys

from host_tools.errors import InputError

HELP = "walk the builder through the finished board and name every wiring fault"
PARTS = ("grid", "keys", "bowls", "displays")


def add_arguments(parser):
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (default: $INGBOARD_PORT)")
    where.add_argument(
        "--twin", action="store_true", help="the device twin plays the builder (no board)"
    )
    where.add_argument("--readings", metavar="FILE", help="diagnose saved readings (JSON)")
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="TEXT",
        help="with --twin: a wiring fault, e.g. swap:S0,S1 mosfet-open:Q5 mux-swap:U7:3,5"
        " (host_tools/twin/faults.py lists them)",
    )
    parser.add_argument("--answers", metavar="FILE", help="answers to the prompts, one a line")
    parser.add_argument("--save-readings", metavar="FILE", help="write the readings (JSON)")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.add_argument(
        "--only", help="comma-separated parts to check: %s (default: all)" % ",".join(PARTS)
    )
    parser.add_argument(
        "--weight-g", type=float, default=500.0, help="the known weight for the bowls (grams)"
    )
    parser.add_argument(
        "--variant", default=None, help="board_config variant (default: pico2; twin: pico)"
    )
    parser.add_argument("--pole", metavar="POINT", help="pole tester: stones held over POINT")
    parser.add_argument(
        "--colour", choices=("B", "W"), help="with --pole: the colour the stones should be"
    )


def _parts(text):
    if not text:
        return PARTS
    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        raise InputError("--only: parts are %s (got %s)" % (", ".join(PARTS), text))
    return parts


def _load_readings(path):
    try:
        with open(path) as f:
            readings = json.load(f)
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror)) from None
    except ValueError as exc:
        raise InputError("%s is not JSON: %s" % (path, exc)) from None
    if not isinstance(readings, dict) or readings.get("version") != 1:
        raise InputError("%s: not bring-up readings (version 1)" % path)
    return readings


def _answers(path):
    if path is None:
        return None
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f]
    except OSError as exc:
        raise InputError("cannot read %s: %s" % (path, exc.strerror)) from None


def _finish(readings, args, save=False):
    from host_tools.bringup.diagnosis import diagnose, report

    notes = []
    findings = diagnose(readings, notes)
    if args.save_readings and save:
        from host_tools.outputs import write_all

        write_all({args.save_readings: json.dumps(readings)})
    if args.json:
        print(json.dumps(findings, indent=1))
    else:
        for line in report(findings, notes):
            print(line)
    return 1 if findings else 0


def run(args):
    from ingboard import board_config

    from host_tools.bringup import bench as benches
    from host_tools.bringup.walk import walk
    from host_tools.device import DeviceError, connect

    parts = _parts(args.only)
    if not args.weight_g > 0:
        raise InputError("--weight-g must be a positive mass in grams")
    if args.fault and not args.twin:
        raise InputError("--fault wires the twin: give --twin too")
    if args.readings:
        readings = _load_readings(args.readings)
        try:
            return _finish(readings, args)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise InputError("%s: incomplete readings (%s)" % (args.readings, exc)) from None
    variant = args.variant or ("pico" if args.twin else None)
    if variant is not None:
        try:
            board_config.variant(variant)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    answers = _answers(args.answers)
    if args.twin:
        from host_tools.twin.faults import parse

        parse(args.fault, variant)  # a bad fault text is bad input before anything boots
        bench = benches.TwinBench(args.fault, variant, log=lambda t: print(t, file=sys.stderr))
        try:
            bench.start()
        except DeviceError as exc:
            print("ingboard bringup: the twin: %s" % exc, file=sys.stderr)
            return 1
    else:
        dev = connect(args.port)
        if variant is None:
            variant = board_config.DEFAULT
        bench = benches.BoardBench(
            dev, board_config.variant(variant)["grid"]["size"], variant, answers
        )
    try:
        if args.pole:
            return _pole(bench, args)
        readings = walk(bench, variant, args.weight_g, parts)
    except KeyboardInterrupt:
        print("ingboard bringup: stopped before the last step", file=sys.stderr)
        return 1
    except DeviceError as exc:
        print("ingboard bringup: %s" % exc, file=sys.stderr)
        return 1
    finally:
        bench.close()
    return _finish(readings, args, save=True)


def _pole(bench, args):
    from ingboard.sensing.classifier import point_index

    from host_tools.bringup import pole

    size = getattr(bench, "size", 19)
    try:
        i = point_index(args.pole, size)
    except ValueError:
        raise InputError(
            "--pole %s: not a point of the %dx%d board" % (args.pole, size, size)
        ) from None
    bench.clear()
    empty = bench.probe("scan", n=8)["values"][i]
    verdicts = []
    while True:
        try:
            bench.hold(args.pole.upper())
        except KeyboardInterrupt:
            break
        reading = bench.probe("scan", n=4)["values"][i]
        what, share = pole.verdict(empty, reading, args.colour)
        verdicts.append(what)
        print(
            "%s: %s (%d %% of a stone's field)"
            % (args.pole.upper(), pole.TEXT[what], round(100 * share))
        )
        if not hasattr(bench, "ask"):
            break  # the twin holds one stone
    bad = [v for v in verdicts if v in ("weak", "reversed", "none")]
    return 1 if bad or not verdicts else 0

"""The bring-up walk over a bench (bench.py): every step, and the readings it collects (the
input of diagnosis.diagnose; saved as JSON by `ingboard bringup --save-readings`)."""

from host_tools.bringup import plan
from host_tools.bringup.diagnosis import READINGS_VERSION
from host_tools.device import DeviceError

EMPTY_SCANS = 4  # averaged for the empty levels
SPREAD_SCANS = 3  # single scans, for the spread of each input
PATTERN_SCANS = 1
BOWL_SAMPLES = 3


def _scan(bench, n):
    msg = bench.probe("scan", n=n)
    values = msg.get("values")
    if not isinstance(values, list) or len(values) != msg.get("size", 0) ** 2:
        raise DeviceError("malformed scan from the board")
    return msg["size"], values


def walk(bench, variant, grams=500.0, parts=("grid", "keys", "bowls", "displays")):
    """Run the steps; returns the readings."""
    readings = {"version": READINGS_VERSION, "variant": variant}
    bench.clear()
    if "grid" in parts:
        bench.say("Reading the empty board and the sensor groups' power.")
        size, empty = _scan(bench, EMPTY_SCANS)
        readings["size"] = size
        readings["empty"] = empty
        readings["empty_scans"] = [_scan(bench, 1)[1] for _ in range(SPREAD_SCANS)]
        readings["power"] = bench.probe("grid-power")["groups"]
    if "displays" in parts:
        bench.say("Asking the I2C buses who is there; the supply.")
        readings["i2c"] = bench.probe("i2c")["buses"]
        readings["supply_mv"] = bench.probe("supply")["mv"]
    if "grid" in parts:
        bench.say("Stones in patterns: each scan index tells which sensor it reads.")
        steps = []
        for name, indexes in plan.pattern_steps(readings["size"]):
            bench.stones(name, indexes)
            steps.append(
                {"name": name, "points": indexes, "values": _scan(bench, PATTERN_SCANS)[1]}
            )
        readings["patterns"] = steps
        bench.clear()
    if "keys" in parts:
        bench.say("The keys, one at a time.")
        asked = {}
        for name in plan.KEYS:
            reply = bench.key(name, bench.key_window_ms)
            asked[name] = {"idle": reply.get("idle", []), "down": reply.get("down", [])}
        readings["keys"] = {"asked": asked}
    if "bowls" in parts:
        bench.say("The bowls: empty, then the known weight at each end of each platform.")
        readings["bowls"] = _bowls(bench, grams)
    return readings


def _bowls(bench, grams):
    out = {"grams": grams, "zero": None, "loads": {}, "errors": {}}
    zero = bench.probe("bowls", n=BOWL_SAMPLES)
    out["errors"] = dict(zero["errors"])
    if out["errors"]:
        return out
    out["zero"] = dict(zero["codes"])
    for colour in ("B", "W"):
        out["loads"][colour] = {}
        for spot, _where in plan.BOWL_SPOTS:
            bench.load(colour, grams, spot)
            # The median of 3: one conversion from before the load changes nothing.
            r = bench.probe("bowls", n=BOWL_SAMPLES)
            out["loads"][colour][spot] = dict(r["codes"])
        bench.load(colour, 0, None)
    return out

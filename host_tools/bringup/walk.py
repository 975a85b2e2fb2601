"""The bring-up walk over a bench (bench.py): every step, and the readings it collects (the
input of diagnosis.diagnose; saved as JSON by `ingboard bringup --save-readings`)."""

from host_tools.bringup import plan
from host_tools.bringup.diagnosis import READINGS_VERSION
from host_tools.device import DeviceError

EMPTY_SCANS = 4  # averaged for the empty levels
SPREAD_SCANS = 3  # single scans, for the spread of each input
PATTERN_SCANS = 1
BOWL_SAMPLES = 2


def _scan(bench, n):
    msg = bench.request({"cmd": "raw-scan", "n": n}, "raw-scan")
    values = msg.get("values")
    if not isinstance(values, list) or len(values) != msg.get("size", 0) ** 2:
        raise DeviceError("malformed raw-scan reply from the board")
    return msg["size"], values


def walk(bench, variant, grams=500.0, parts=("grid", "keys", "bowls", "displays")):
    """Run the steps; returns the readings."""
    readings = {"version": READINGS_VERSION, "variant": variant}
    bench.clear()
    if "grid" in parts:
        bench.say("Reading the empty board, the sensor groups' power and the buses.")
        size, empty = _scan(bench, EMPTY_SCANS)
        readings["size"] = size
        readings["empty"] = empty
        readings["empty_scans"] = [_scan(bench, 1)[1] for _ in range(SPREAD_SCANS)]
        readings["power"] = bench.request({"cmd": "probe", "what": "grid-power"}, "probe")[
            "groups"
        ]
    if "displays" in parts:
        readings["i2c"] = bench.request({"cmd": "probe", "what": "i2c"}, "probe")["buses"]
        readings["supply_mv"] = bench.request({"cmd": "probe", "what": "supply"}, "probe")["mv"]
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


def _raw_bowl(bench):
    return bench.request({"cmd": "raw-bowl", "n": BOWL_SAMPLES}, "raw-bowl")


def _bowls(bench, grams):
    out = {"grams": grams, "zero": None, "loads": {}, "errors": {}}
    try:
        zero = _raw_bowl(bench)
    except DeviceError as exc:
        text = str(exc)
        for colour in ("B", "W"):
            if "the %s bowl" % colour in text:
                out["errors"][colour] = text
        if not out["errors"]:
            raise
        return out
    out["zero"] = {"B": zero["B"], "W": zero["W"]}
    for colour in ("B", "W"):
        out["loads"][colour] = {}
        for spot, _where in plan.BOWL_SPOTS:
            bench.load(colour, grams, spot)
            r = _raw_bowl(bench)
            r = _raw_bowl(bench)  # the first may be a conversion from before the load
            out["loads"][colour][spot] = {"B": r["B"], "W": r["W"]}
        bench.load(colour, 0, None)
    return out

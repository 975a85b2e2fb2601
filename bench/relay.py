"""Club relay: boards per broker and board→page latency (issue 11), measured, not estimated.

Starts a real mosquitto on loopback, the relay and 200 simulated boards (the firmware's own
relay_link with a paho transport) playing for a bounded time (host_tools.relay.fleet.run_bench),
then reports how many boards one broker served with every move archived exactly once, the move
rate, and the latency from a board's `move()` to that ply arriving on the live page's event
stream (p50 / p99). Skipped (reported as not measured) when mosquitto is not installed.
"""

import shutil

from bench import BenchError, Figure

BOARDS = 200
SECONDS = 15
# `python -m bench --tiny` (the guard in make test): a few boards for a few seconds.
TINY = {"BOARDS": 10, "SECONDS": 3}


def measure(log=print):
    if shutil.which("mosquitto") is None and not _debian_mosquitto():
        raise BenchError("mosquitto is not installed (make setup installs it)")
    from host_tools.relay.fleet import run_bench

    log("# relay: %d simulated boards on one mosquitto for %d s" % (BOARDS, SECONDS))
    result = run_bench(boards=BOARDS, seconds=SECONDS)
    if not result["complete"]:
        log("# relay: the archive is NOT complete")
    latency = result["latency_ms"]
    return [
        Figure(
            "relay_boards_complete",
            result["boards"] if result["complete"] else 0,
            "boards",
            note="every move of every board archived once, in order",
        ),
        Figure("relay_moves_per_s", round(result["moves_per_s"], 1), "moves/s"),
        Figure("relay_latency_p50", round(latency["p50"], 1), "ms"),
        Figure("relay_latency_p99", round(latency["p99"], 1), "ms"),
    ]


def _debian_mosquitto():
    import os

    return os.path.exists("/usr/sbin/mosquitto")

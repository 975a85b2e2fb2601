"""Rules core vs sgfmill, in the same interpreter: MicroPython (WebAssembly) and CPython.

MicroPython: one node process (host_tools.micropython.run_script) with firmware/ mounted at
/fw and, at /bench, bench/rules_job.py, sgfmill's board module rewritten for a flat import
(bench/games.py) and the corpus as compact text. CPython: the same rules_job with the installed
sgfmill. Both report the best of `repeats` interleaved replays of the whole corpus.
"""

import json
import os
import shutil
import tempfile

from bench import BenchError, Figure, games
from host_tools import FIRMWARE
from host_tools import micropython as mp

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = "ing1991"
GOAL_SPEEDUP_MP = 2.5  # vs sgfmill under MicroPython
GOAL_SPEEDUP_CPYTHON = 2.0  # vs sgfmill under CPython

_SCRIPT = """
import json
import rules_job
from sgfmill_boards import Board
with open("/bench/games.txt") as f:
    text = f.read()
RESULT = json.dumps(rules_job.run(text, Board, %r, %d))
"""


def run_micropython(games_text, sources, rules=RULES, repeats=3):
    """rules_job.run under MicroPython; BenchError with the interpreter's message on failure."""
    with tempfile.TemporaryDirectory(prefix="ingboard-bench-") as tmp:
        shutil.copy(os.path.join(HERE, "rules_job.py"), os.path.join(tmp, "rules_job.py"))
        for name, text in sources.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        with open(os.path.join(tmp, "games.txt"), "w") as f:
            f.write(games_text)
        try:
            status, out, err, result = mp.run_script(
                _SCRIPT % (rules, repeats),
                mounts=[(FIRMWARE, "/fw"), (tmp, "/bench")],
                sys_path=["/fw", "/fw/rules", "/bench"],
            )
        except mp.MicroPythonUnavailable as exc:
            raise BenchError(str(exc)) from None
    if status != 0 or not result:
        raise BenchError("rules under MicroPython failed:\n%s%s" % (out[-2000:], err[-2000:]))
    return json.loads(result)


def run_cpython(games_text, rules=RULES, repeats=3):
    from sgfmill.boards import Board

    from bench import rules_job

    return rules_job.run(games_text, Board, rules, repeats)


def describe(result):
    stops = result["stops"]
    return (
        "rules: %s, %d corpus games (%s), %d of %d moves replayed (%s); "
        "µs per board play (%d plays; ours also plays the %d passes in its time); "
        "best of %d interleaved runs"
        % (
            result["rules"],
            result["games"],
            "/".join("%d×%d" % (s, s) for s in result["sizes"]),
            result["plays"] + result["passes"],
            result["corpus_moves"],
            "all accepted"
            if not stops
            else "stopped before the first refused move for both engines: " + "; ".join(stops),
            result["plays"],
            result["passes"],
            result["repeats"],
        )
    )


def figures_from(result, interpreter, goal=None):
    plays = result["plays"]
    if plays <= 0:
        raise BenchError("no board play to time")
    ours = result["ours_us"] / plays
    theirs = result["sgfmill_us"] / plays
    if ours <= 0:
        raise BenchError("the clock did not advance while our core played")
    return [
        Figure("rules_%s_ours" % interpreter, ours, "us/move"),
        Figure("rules_%s_sgfmill" % interpreter, theirs, "us/move"),
        Figure("rules_%s_speedup" % interpreter, theirs / ours, "x", goal=goal),
    ]


def measure(corpus=None, repeats=3, log=print):
    corpus = corpus if corpus is not None else games.corpus_games()
    text = games.encode(corpus)
    sources = games.sgfmill_sources()
    mp_result = run_micropython(text, sources, RULES, repeats)
    log("# " + describe(mp_result) + " (MicroPython)")
    log("# " + runs(mp_result, "MicroPython"))
    out = figures_from(mp_result, "mp", (">=", GOAL_SPEEDUP_MP))
    cp_result = run_cpython(text, RULES, repeats)
    if (cp_result["plays"], cp_result["stops"]) != (mp_result["plays"], mp_result["stops"]):
        raise BenchError("CPython and MicroPython replayed different moves")
    log("# " + runs(cp_result, "CPython"))
    out += figures_from(cp_result, "cpython", (">=", GOAL_SPEEDUP_CPYTHON))
    return out


def runs(result, where):
    """Each run's CPU time (ms), in the order run: a figure that swings shows why here."""
    return "rules: each run's CPU ms under %s, ours %s, sgfmill %s" % (
        where,
        " ".join("%.1f" % (us / 1000) for us in result["runs_ours_us"]),
        " ".join("%.1f" % (us / 1000) for us in result["runs_sgfmill_us"]),
    )

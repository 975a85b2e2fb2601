"""`python -m bench` (`make bench`): measure every figure, print them, then the table.

    python -m bench [--only rules,heap,scan,latency,size,relay,mcu] [--repeats N] [--record]
                    [--tiny]

--tiny runs every section once on tiny inputs (a few corpus games, short games on the twin,
each section's own `TINY` settings): the guard in `make test` that no section crashes and no
figure turns NA. Its figures are not the bench's (not recorded).

Every section runs; a figure that cannot be measured is printed as NA with its reason (a MISS)
and the run goes on. Exit status 0 when every section ran (missed goals and NA figures are
printed as MISS, not errors), 1 when a whole section failed (an engine disagreed, an
interpreter failed: its one NA line `<section>` says why).
"""

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time

from bench import BenchError, games, missing, table

SECTIONS = ("rules", "heap", "scan", "latency", "size", "relay", "mcu")
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results.md")


def machine():
    """One line about this machine: CPU model, cores, Python, node, MicroPython package."""
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        node = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        node = "no node"
    return "%s, %d cores, %s %s, CPython %s, node %s" % (
        cpu,
        os.cpu_count() or 0,
        platform.system(),
        platform.release(),
        platform.python_version(),
        node,
    )


def record(figures, when, where, seconds):
    lines = [
        "",
        "## %s" % when,
        "",
        "Machine: %s. Run time %.0f s." % (where, seconds),
        "",
        "```",
    ]
    lines += [f.line() for f in figures]
    lines += ["```", ""]
    with open(RESULTS, "a") as f:
        f.write("\n".join(lines))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="comma-separated sections (%s)" % ",".join(SECTIONS))
    parser.add_argument("--repeats", type=int, default=9, help="rules: replays per engine")
    parser.add_argument("--record", action="store_true", help="append to bench/results.md")
    parser.add_argument("--tiny", action="store_true", help="every section on tiny inputs")
    args = parser.parse_args(argv)
    if args.tiny and args.record:
        parser.error("--tiny figures are not recorded")
    sections = SECTIONS if not args.only else tuple(s.strip() for s in args.only.split(","))
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        parser.error("unknown section(s): %s" % ", ".join(unknown))

    def log(text):
        print(text, flush=True)

    start = time.time()
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    where = machine()
    log("# ingboard bench, %s, %s" % (when, where))
    figures = []
    failed = []
    corpus = None
    for name in sections:
        try:
            if name in ("rules", "heap", "scan", "latency", "mcu") and corpus is None:
                corpus = games.corpus_games()
                if args.tiny:
                    corpus = games.tiny_corpus(corpus)
            module = __import__("bench." + name, fromlist=["measure"])
            if args.tiny:
                for key, value in getattr(module, "TINY", {}).items():
                    setattr(module, key, value)
            if name == "rules":
                repeats = 1 if args.tiny else args.repeats
                found = module.measure(corpus, repeats=repeats, log=log)
            elif name in ("size", "relay"):
                found = module.measure(log=log)
            else:
                found = module.measure(corpus, log=log)
        except Exception as exc:  # noqa: BLE001 (a section that fails is NA; the run goes on)
            failed.append(name)
            text = str(exc).strip().splitlines()
            reason = "%s%s" % (
                "" if isinstance(exc, BenchError) else type(exc).__name__ + ": ",
                text[-1] if text else "",
            )
            log("# %s FAILED: %s" % (name, exc))
            found = [missing(name, "", None, "section failed: " + reason)]
        for figure in found:
            log(figure.line())
        figures += found
    seconds = time.time() - start
    log("")
    log(table(figures))
    missed = [f.name for f in figures if f.missed]
    log(
        "\n%d figures in %.0f s; %d goals missed%s%s"
        % (
            len(figures),
            seconds,
            len(missed),
            (": " + ", ".join(missed)) if missed else "",
            ("; FAILED: " + ", ".join(failed)) if failed else "",
        )
    )
    if args.record and not failed:
        record(figures, when, where, seconds)
        log("recorded in bench/results.md")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

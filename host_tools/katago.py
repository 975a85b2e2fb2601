"""KataGo, where `make katago` installed and tuned it (host_tools/setup/katago.sh): the GTP
command line for `ingboard sim --engine`, `ingboard gtp --engine` and the board's engine mode.
GNU Go stays the default opponent; KataGo is optional.

Everything KataGo keeps lives in `.katago/` of the checkout: the binary, the network, the GTP
config, the OpenCL tuning (`opencl-tuning.txt`, made once by `make katago`; the config names it,
so KataGo never starts tuning by itself) and pocl's compiled kernels (`pocl-cache/`).

`python -m host_tools.katago --sizes 9 19 --visits 16 64 --moves 20` times genmove: each move
is searched from an empty tree (`clear_cache` first), so the figures are the time a move takes
when nothing of the last search can be reused.
"""

import argparse
import os
import shlex
import statistics
import sys
import time

from host_tools import ROOT

HOME = os.path.join(ROOT, ".katago")
BINARY = os.path.join(HOME, "squashfs-root", "usr", "bin", "katago")
MODEL = os.path.join(HOME, "model.bin.gz")
CONFIG = os.path.join(HOME, "gtp.cfg")
TUNING = os.path.join(HOME, "opencl-tuning.txt")
KERNELS = os.path.join(HOME, "pocl-cache")
INSTALL = (
    "make katago installs it and tunes OpenCL once (KaTrain's KataGo from PyPI, Debian's "
    "pocl for OpenCL; the tuning takes 20-60 min on 2 busy cores)"
)


def tuned():
    """True once `make katago` has tuned OpenCL for this machine."""
    return os.path.isfile(TUNING) and os.path.getsize(TUNING) > 0


# The tuner's stages, in its order, as its log titles them, and the section of the tuning file
# each fills (KataGo's OpenCLTuneParams::save: a VERSION line, 8 FP16 flags, 13 sections).
STAGES = (
    ("Tuning xGemmDirect for 1x1 convolutions and matrix mult", "xGemmDirect"),
    ("Tuning xGemm for convolutions", "xGemm"),
    ("Tuning winograd transform for convolutions", "conv3x3"),
    ("Tuning winograd untransform for convolutions", "conv3x3"),
    ("Tuning global pooling strides", "gPool"),
    ("Tuning transformer attention kernel", "transformer"),
    ("Tuning transformerRMSNorm", "transformerRMSNorm"),
    ("Tuning pointWise (addPointWise + swiGLU)", "pointWise"),
    ("Tuning addChannelBiasesNCHW", "addChannelBiasesNCHW"),
    ("Tuning spatialRMSNorm", "spatialRMSNorm"),
)
SECTIONS = (
    "xGemmDirect xGemm xGemm16 hGemmWmma hGemmWmmaNCHW conv3x3 conv5x5 gPool transformer "
    "transformerRMSNorm pointWise addChannelBiasesNCHW spatialRMSNorm"
).split()
FP16_FLAGS = (
    "canUseFP16Storage canUseFP16Compute canUseFP16TensorCores canUseFP16TensorCoresFor1x1 "
    "shouldUseFP16Storage shouldUseFP16Compute shouldUseFP16TensorCores "
    "shouldUseFP16TensorCoresFor1x1"
).split()


def tuning_from_log(text):
    """A tuning file (KataGo's format, version 13) from the log of a tuner run that died part
    way, and the names of the sections it tuned. Each stage the tuner finished gives its best
    configuration (the last "Tuning i/n Calls/sec ..." line of the stage); the stage it died
    in and those after keep KataGo's own untuned defaults (a section without KEY=VALUE), since
    a bad configuration's damage may show only some configurations later. FP16 stays off."""
    titles = dict(STAGES)
    found = []  # [section, best KEY=VALUE words or None]
    tile = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Setting winograd3x3TileSize = "):
            tile = int(line.rsplit("=", 1)[1])
        elif line in titles:
            found.append([titles[line], None])
        elif found and line.startswith("Tuning ") and " Calls/sec " in line:
            found[-1][1] = [w for w in line.split() if "=" in w and not w.startswith("=")]
    if not found:
        raise ValueError("the tuner's log shows no finished stage")
    values = {}
    tuned = []
    for section, words in found[:-1]:  # the last stage never finished
        if words:
            values.setdefault(section, []).extend(words)
            if section not in tuned:
                tuned.append(section)
    if tile and "conv3x3" in values:
        values["conv3x3"] = [
            "INTILE_XSIZE=%d" % (tile + 2),
            "INTILE_YSIZE=%d" % (tile + 2),
            "OUTTILE_XSIZE=%d" % tile,
            "OUTTILE_YSIZE=%d" % tile,
        ] + values["conv3x3"]
    if "xGemm" in values:
        values["xGemm16"] = values["xGemm"]  # as the tuner does when FP16 is off
    lines = ["VERSION=13"]
    for flag in FP16_FLAGS:
        lines += ["#" + flag, "0"]
    for section in SECTIONS:
        lines += ["#" + section, " ".join(values.get(section, ["default"]))]
    return "\n".join(lines) + "\n", tuned


def installed():
    return os.access(BINARY, os.X_OK) and os.path.isfile(MODEL) and os.path.isfile(CONFIG)


def command(visits=None):
    """The GTP command line of the installed, tuned KataGo (None where it is not ready);
    `visits` overrides the config's maxVisits."""
    if not (installed() and tuned()):
        return None
    argv = ["env", "POCL_CACHE_DIR=" + KERNELS, BINARY, "gtp"]
    argv += ["-model", MODEL, "-config", CONFIG]
    if visits:
        argv += ["-override-config", "maxVisits=%d" % visits]
    return " ".join(shlex.quote(word) for word in argv)


def _cpu_seconds(pid):
    """CPU seconds a process has used so far, all its threads (Linux's /proc)."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_genmoves(size, visits, moves, timeout=900.0):
    """Wall-clock and CPU seconds of each of `moves` genmoves on a size x size board (KataGo
    playing both sides, each searched from an empty tree at `visits` visits), and the moves."""
    from host_tools.gtp import GtpEngine

    argv = shlex.split(command(visits))
    argv[-1] += ",allowResignation=false"
    seconds, cpu, played = [], [], []
    with GtpEngine(argv, timeout=timeout) as engine:
        pid = engine._proc.pid  # `env` execs KataGo: the same process
        engine.send("boardsize %d" % size)
        engine.send("clear_board")
        engine.send("komi 7.5")
        engine.send("genmove b")  # the first answer also loads the net: not timed
        engine.send("clear_board")
        for ply in range(moves):
            engine.send("clear_cache")
            started, cpu_started = time.monotonic(), _cpu_seconds(pid)
            move = engine.send("genmove %s" % "bw"[ply % 2])
            seconds.append(time.monotonic() - started)
            cpu.append(_cpu_seconds(pid) - cpu_started)
            played.append(move.strip())
            print(
                "%dx%d %d visits: %s %.2f s (CPU %.2f s)"
                % (size, size, visits, move.strip(), seconds[-1], cpu[-1]),
                file=sys.stderr,
                flush=True,
            )
    return seconds, cpu, played


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m host_tools.katago", description="time KataGo's genmove"
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    parser.add_argument("--visits", type=int, nargs="+", default=[16, 64, 200])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument(
        "--tuning-from-log",
        metavar="LOG",
        help="write the tuning file (--output) from the log of a tuner run that died part way",
    )
    parser.add_argument("--output", metavar="FILE", default=TUNING)
    args = parser.parse_args(argv)
    if args.tuning_from_log:
        with open(args.tuning_from_log, encoding="utf-8", errors="replace") as log:
            try:
                text, tuned = tuning_from_log(log.read())
            except ValueError as exc:
                print("%s: %s" % (args.tuning_from_log, exc), file=sys.stderr)
                return 1
        with open(args.output, "w") as out:
            out.write(text)
        print(
            "%s: tuned %s; KataGo's untuned defaults for the rest"
            % (args.output, ", ".join(tuned) or "nothing")
        )
        return 0
    if command() is None:
        print("KataGo is not installed and tuned: " + INSTALL, file=sys.stderr)
        return 2
    print(
        "size visits moves median_s max_s cpu_median_s cpu_max_s  (load average %.1f)"
        % os.getloadavg()[0]
    )
    for size in args.sizes:
        for visits in args.visits:
            seconds, cpu, played = time_genmoves(size, visits, args.moves)
            print(
                "%4d %6d %5d %8.2f %6.2f %12.2f %9.2f  %s"
                % (
                    size,
                    visits,
                    len(seconds),
                    statistics.median(seconds),
                    max(seconds),
                    statistics.median(cpu),
                    max(cpu),
                    " ".join(played),
                ),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

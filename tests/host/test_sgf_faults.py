"""Issue 19: odd SGF files give one clear error line (exit 2), never a traceback.

The kinds found by fuzzing `ingboard replay` and `ingboard score`: a repeated RU, text the
file's charset (CA) cannot decode, more stones than a set holds, komi or handicap out of range.
Then a seeded, bounded fuzz of mutated SGF through replay and score: every outcome is exit 0, 1
or 2 with the checks' own messages (the CLI's last-resort net for unexpected exceptions is never
needed).
"""

import contextlib
import io
import random
import subprocess
import sys

from host_tools import ROOT, cli

ODD = {
    "repeated RU": b"(;SZ[9]RU[Chinese][Japanese];B[ee])",
    "undecodable charset": b"(;CA[utf-16]SZ[9]RU[Chinese];B[ee])",
    "more stones than a set (setup)": b"(;SZ[5]AB[aa:ee];W[])",
    "more stones than a set (filled)": b"(;SZ[9]AB[aa:ii];W[])",
    "komi 1e308": b"(;SZ[9]KM[1e308];B[ee])",
    "komi inf": b"(;SZ[9]KM[inf];B[ee])",
    "komi nan": b"(;SZ[9]KM[nan];B[ee])",
    "handicap 500": b"(;SZ[9]HA[500];B[ee])",
}


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def test_each_odd_kind_is_one_clear_error(tmp_path):
    path = str(tmp_path / "odd.sgf")
    for kind, data in ODD.items():
        with open(path, "wb") as f:
            f.write(data)
        for command in ("replay", "score"):
            code, _out, err = _run([command, path])
            if code == 0:
                continue  # e.g. komi read as the ruleset's own when sgfmill refuses it
            assert code == 2, (kind, command, code, err)
            assert err.count("\n") == 1 and err.startswith("ingboard %s: error:" % command)
            assert "cannot process the input" not in err, (kind, err)  # handled, not caught


def test_no_traceback_from_a_real_process(tmp_path):
    path = str(tmp_path / "odd.sgf")
    with open(path, "wb") as f:
        f.write(ODD["repeated RU"])
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "score", path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "ingboard score: error: %s: bad RU: multiple values" % path


SEEDS = [
    b"(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[ee];W[cc];B[dd];W[];B[])",
    b"(;GM[1]FF[4]SZ[9]HA[2]AB[cc][gg];W[ee];B[dd])",
    b"(;GM[1]FF[4]CA[UTF-8]SZ[13]PL[W]AW[dd]AE[aa];W[ff](;B[gg])(;B[hh]))",
]
PIECES = [
    b"KM[1e308]", b"KM[inf]", b"KM[nan]", b"HA[99999]", b"HA[-3]", b"SZ[0]", b"SZ[52]",
    b"SZ[19:13]", b"PL[X]", b"CA[klingon]", b"CA[utf-16]", b"RU[Ing]", b"RU[\xff\xfe]",
    b"AB[zz]", b"B[zz]", b"B[tt]", b"AB[aa:ii]", b"AE[aa:ss]", b"B[ee]", b"W[ee]", b";", b"(",
    b")", b"\\", b"]", b"[", b"KM[]", b"RU[a][b]", b"AB[]", b"B[a]", b"KM[0.3]", b"KM[1e15]",
]  # fmt: skip


def _mutate(rng, data):
    b = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(b) + 1)
        k = rng.randrange(4)
        if k == 0 and b:
            del b[i : i + rng.randrange(1, 5)]
        elif k == 1 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        else:
            b[i:i] = rng.choice(PIECES)
    return bytes(b)


def test_fuzz_replay_and_score_with_mutated_sgf(tmp_path):
    """Seeded and bounded: 150 mutated files, each through replay and score."""
    rng = random.Random(19)
    path = str(tmp_path / "fuzz.sgf")
    codes = {}
    tried = 0
    for _ in range(150):
        data = _mutate(rng, rng.choice(SEEDS))
        with open(path, "wb") as f:
            f.write(data)
        for command in ("replay", "score"):
            code, _out, err = _run([command, path])
            tried += 1
            codes[code] = codes.get(code, 0) + 1
            assert code in (0, 1, 2), (data, err)
            assert "cannot process the input" not in err, (data, err)
            if code == 2:
                assert err.count("\n") == 1
    print("SGF fuzz: %d runs, exit codes %r" % (tried, codes))
    assert tried == 300 and codes.get(2, 0) > 50 and codes.get(0, 0) > 20


def test_a_huge_file_is_refused_without_reading_it_all(tmp_path):
    from host_tools import sgf_input

    path = str(tmp_path / "huge.sgf")
    with open(path, "wb") as f:
        f.write(b"(;SZ[9]" + b";B[]" * (sgf_input.MAX_BYTES // 4) + b")")
    code, _out, err = _run(["replay", path])
    assert code == 2 and "larger than 4 MiB" in err and err.count("\n") == 1

"""`ingboard bringup` on the device twin: the real firmware (ROMFS deploy, main.py, the app and
its host commands - raw-scan, raw-bowl and the probe) on MicroPython's rp2 port in the emulated
RP2040, with the twin's hardware models wired wrong (host_tools/twin/faults.py). The walk does
what it would ask a builder to do, and must name every injected fault - every fault class of
the bring-up, several at once - and nothing on a healthy board.

One twin is booted for the module and rewired between walks (each walk is about a minute of
CPU: the emulator is the cost). The diagnosis itself is tried on many more generated faults
and combinations in test_bringup_diagnosis.py."""

import argparse

import pytest
from test_bringup_diagnosis import _named, expected
from twin_support import ingboard, require_images

from host_tools.bringup.bench import TwinBench
from host_tools.bringup.diagnosis import diagnose
from host_tools.bringup.walk import walk

require_images("romfs")


@pytest.fixture(scope="module")
def bench():
    with TwinBench([]) as b:
        yield b


def _walk(bench, texts, parts):
    bench.rewire(texts)
    findings = diagnose(walk(bench, "pico", parts=parts))
    for text in texts:
        assert _named(findings, expected(text)), (text, findings)
    wanted = [expected(t) for t in texts]
    extra = [f for f in findings if not any(_named([f], w) for w in wanted)]
    assert not extra, extra
    return findings


def test_a_healthy_twin_gives_a_clean_report(bench):
    assert _walk(bench, [], ("grid", "keys", "bowls", "displays")) == []


@pytest.mark.parametrize(
    "texts",
    [
        # channel-select lines swapped, an always-on group, a sensor face down, one reversed
        # stone, a dead sensor
        ["swap:S0,S2", "mosfet-short:Q12", "sensor-reversed:D4", "stone-reversed:H8"],
        # group-select lines swapped, a dead group, two mux channels swapped, a sensor on the
        # wrong axis
        ["swap:A1,A3", "mosfet-open:Q5", "mux-swap:U7:3,5", "sensor-axis:K10"],
        # an enable line shorted to GND; every stone's magnet reversed
        ["short:EN0", "stone-reversed", "sensor-dead:Q16"],
        # an enable line open (floating)
        ["open:EN1", "mux-swap:U3:1,14"],
        # the two enable lines crossed; a channel-select line crossed with a group-select one
        ["swap:EN0,EN1", "swap:S3,A0", "sensor-deep:K10=6"],
    ],
)
def test_grid_faults_are_named(bench, texts):
    _walk(bench, texts, ("grid",))


def test_keys_bowls_and_displays_faults_are_named(bench):
    texts = [
        "key-swap:B,W",
        "key-short:menu",
        "cell-reversed:B",
        "cell-mismatch:W=0.6",
        "display-addr:W=0x3D",
        "display-sh1106:B",
    ]
    _walk(bench, texts, ("keys", "bowls", "displays"))


def test_missing_parts_are_named(bench):
    _walk(
        bench, ["hx711-open:W", "display-open:W", "key-open:pause"], ("keys", "bowls", "displays")
    )


def test_the_pole_tester_calls_a_reversed_stone(bench, capsys):
    from host_tools.commands import bringup

    bench.rewire(["stone-reversed"])
    args = argparse.Namespace(pole="D4", colour="B")
    assert bringup._pole(bench, args) == 1
    assert "D4: REVERSED" in capsys.readouterr().out
    bench.rewire([])
    assert bringup._pole(bench, args) == 0
    assert "D4: BLACK" in capsys.readouterr().out


def test_the_command_line_on_the_twin():
    done = ingboard("bringup", "--twin", "--only", "displays", "--fault", "display-sh1106:W")
    assert done.returncode == 1, done.stderr
    assert "[display-sh1106] display W" in done.stdout
    bad = ingboard("bringup", "--twin", "--fault", "swap:S0")
    assert bad.returncode == 2 and "swap:S0" in bad.stderr


def test_a_board_on_its_serial_port_with_an_answers_file(bench, tmp_path):
    # The real-board path: the twin served on a pseudo-terminal, the command asking its
    # questions and reading the answers from a file (this restarts the app: last test).
    from host_tools.twin import deploy

    bench.rewire(["display-addr:B=0x3D"])
    answers = tmp_path / "answers.txt"
    answers.write_text("\n\n\n")
    with deploy.Serving(bench.twin, realtime=False) as port:
        done = ingboard("bringup", "--port", port, "--only", "displays", "--answers", str(answers))
    assert done.returncode == 1, done.stderr
    assert "[display-address] display B" in done.stdout
    assert "Take every stone off the board" in done.stdout

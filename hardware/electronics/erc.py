"""Electrical rules check of every board with SKiDL (KiCad 6 has no headless ERC).

    .venv-hardware/bin/python -m hardware.electronics.erc

Each board's netlist model (netlist.py) becomes a SKiDL circuit with the pin types of the parts
table; pins the design leaves open are marked no-connect (netlist.Board.unconnected lists them,
and tests/host/test_board_netlist.py fixes which they may be); supply nets are declared as
driven by their source (the Pico's regulator, USB, the cell, the group switches). SKiDL's ERC
then checks drivers against receivers on every net. Writes hardware/kicad/<board>/<board>-erc.txt
and prints one line per board; exits 1 on any ERC error.
"""

import contextlib
import io
import os
import re
import sys
import tempfile

from hardware.electronics import netlist
from hardware.electronics import parts as pt

# Supply nets and what drives them (documentation for the report; SKiDL only needs the flag).
SUPPLIES = {
    "GND": "ground",
    "+3V3": "the Pico's 3.3 V regulator (3V3 pin)",
    "VSYS": "USB through the Pico's diode, or the cell through D1",
    "VBUS": "USB",
    "BAT+": "the cell",
    "BAT_SW": "the cell through the power switch",
    "3V3_HALL_RAW": "the TPS63001's output",
    "3V3_HALL": "the TPS63001 through the ferrite bead (the sensor rail)",
    "VSUP": "the bowl board: the cable's 3V3 through the ferrite bead",
    "AVDD": "the bowl board: the HX711's analog regulator (its PNP)",
}


def _is_supply(board, name):
    if name in SUPPLIES:
        return True
    if board.name == "sensor_strip" and name.startswith("VCC_"):
        return True  # from the controller's group switch, through the ribbon
    return re.match(r"G\d\d_VCC$", name) is not None  # a group switch's drain


def check(board, workdir):
    import builtins

    from skidl import ERC, SKIDL, Net, Part, Pin, erc_logger

    builtins.default_circuit.reset()  # one circuit per board
    types = {
        "in": Pin.types.INPUT,
        "out": Pin.types.OUTPUT,
        "bidir": Pin.types.BIDIR,
        "passive": Pin.types.PASSIVE,
        "pwr_in": Pin.types.PWRIN,
        "pwr_out": Pin.types.PWROUT,
        "nc": Pin.types.NOCONNECT,
    }
    made = {}
    for ref in sorted(board.parts, key=netlist._ref_key):
        p = pt.part(board.parts[ref])
        if not p["pins"]:
            continue
        part = Part(
            tool=SKIDL,
            name=board.parts[ref],
            ref_prefix=ref.rstrip("0123456789"),
            pins=[
                Pin(num=n, name=name, func=types[t])
                for n, (name, t) in sorted(
                    p["pins"].items(), key=lambda kv: netlist._node_key(("", kv[0]))
                )
            ],
        )
        part.ref = ref
        made[ref] = part
    for name, members in sorted(board.nets.items()):
        net = Net(name)
        for ref, pin in members:
            net += made[ref][pin]
        if _is_supply(board, name):
            net.drive = Pin.drives.POWER
    for ref, pin in board.unconnected():
        made[ref][pin] += builtins.NC
    out = io.StringIO()
    old = os.getcwd()
    os.chdir(workdir)
    e0, w0 = erc_logger.error.count, erc_logger.warning.count
    try:
        with contextlib.redirect_stderr(out), contextlib.redirect_stdout(out):
            ERC()
    finally:
        os.chdir(old)
    errors = erc_logger.error.count - e0
    warnings = erc_logger.warning.count - w0
    lines = []
    for f in sorted(os.listdir(workdir)):
        if f.endswith(".erc"):
            with open(os.path.join(workdir, f), encoding="utf-8") as fh:
                lines += [ln.rstrip() for ln in fh if ln.startswith("ERC ")]
    text = "\n".join(lines)
    return errors, warnings, text


def main():
    bad = 0
    for name in netlist.BOARDS:
        board = netlist.build(name)
        with tempfile.TemporaryDirectory() as tmp:
            errors, warnings, text = check(board, tmp)
        report = os.path.join(netlist.KICAD_DIR, name, name + "-erc.txt")
        with open(report, "w", encoding="utf-8") as f:
            f.write(
                "SKiDL ERC of %s (%d parts, %d nets)\n" % (name, len(board.parts), len(board.nets))
            )
            f.write(
                "no-connect pins: %s\n"
                % (", ".join("%s.%s" % rp for rp in board.unconnected()) or "none")
            )
            f.write(
                "supplies: %s\n" % ", ".join(n for n in sorted(board.nets) if _is_supply(board, n))
            )
            f.write("errors: %d, warnings: %d\n%s\n" % (errors, warnings, text))
        print("%s: ERC %d errors, %d warnings (SKiDL)" % (name, errors, warnings))
        bad += errors
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, netlist.ROOT)
    raise SystemExit(main())

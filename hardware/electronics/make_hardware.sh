#!/bin/sh
# `make hardware`, electronics part: tools, netlists, ERC, boards with DRC and fab files, and a
# check that the committed netlists are what board_config.py gives. Prints a summary and the
# time it took; exits non-zero on an ERC or DRC error.
set -e
start=$(date +%s)
sh hardware/electronics/install.sh
.venv/bin/python -m hardware.electronics.netlist
# The unit boards' sizing (I2C pull-ups at the display end, the HX711's analog supply).
.venv/bin/python -m hardware.electronics.units
KICAD6_SYMBOL_DIR=/usr/share/kicad/symbols .venv-hardware/bin/python -m hardware.electronics.erc \
    >.venv-hardware/erc.log 2>&1 || { cat .venv-hardware/erc.log; exit 1; }
grep "ERC [0-9]" .venv-hardware/erc.log
nice -n 10 /usr/bin/python3 -m hardware.electronics.kicad_boards
.venv/bin/python -m hardware.electronics.netlist --check
# The per-set cost comes from the costed BOM (hardware_docs/bom.md, host_tools/set_parts.py).
cost=$(grep -h -m1 "for one set" hardware_docs/bom.md 2>/dev/null | sed 's/[*]//g' || true)
echo "per-set cost: ${cost:-not in hardware_docs/bom.md yet}"
echo "make hardware (electronics): done in $(( $(date +%s) - start )) s; files in hardware/kicad/"

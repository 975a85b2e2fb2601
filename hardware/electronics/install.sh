#!/bin/sh
# The heavy tools of `make hardware`, installed only when missing (not by `make setup`):
# - KiCad 6 (Debian bookworm's 6.0.11) with its footprint and symbol libraries, whose pcbnew
#   module Debian's /usr/bin/python3 imports; --no-install-recommends keeps it near 450 MB
#   (without it apt pulls about 5.5 GB of 3D models and docs);
# - numpy and Pillow for that python3 (the router's grid, the PNG renders), DejaVu fonts;
# - SKiDL (PyPI) for the ERC, in its own venv .venv-hardware (it pulls matplotlib and more,
#   which the project's .venv does not need).
set -e
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
need=""
/usr/bin/python3 -c "import pcbnew" 2>/dev/null || need="$need kicad"
[ -d /usr/share/kicad/footprints/Package_SO.pretty ] || need="$need kicad-footprints"
[ -d /usr/share/kicad/symbols ] || need="$need kicad-symbols"
/usr/bin/python3 -c "import numpy" 2>/dev/null || need="$need python3-numpy"
/usr/bin/python3 -c "import PIL" 2>/dev/null || need="$need python3-pil"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
if [ -n "$need" ]; then
    echo "make hardware: installing$need (Debian packages, once)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
fi
if [ ! -x .venv-hardware/bin/python ] || ! .venv-hardware/bin/python -c "import skidl" 2>/dev/null; then
    echo "make hardware: installing SKiDL into .venv-hardware (once)"
    python3 -m venv .venv-hardware
    .venv-hardware/bin/pip install --quiet --disable-pip-version-check "skidl==3.0.0"
fi

#!/bin/sh
# Render every printed part (scad/*.scad) to STL (stl/) and a PNG of that STL (renders/) with
# OpenSCAD. A part whose STL is newer than its source is skipped (FORCE=1 renders all).
# Installs Debian's openscad and xvfb when missing (OpenSCAD 2021 needs an X display for PNG).
set -e
cd "$(dirname "$0")"
missing=""
command -v openscad >/dev/null 2>&1 || missing="$missing openscad"
command -v xvfb-run >/dev/null 2>&1 || missing="$missing xvfb xauth"
if [ -n "$missing" ]; then
  echo "installing Debian packages:$missing"
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: need root to install:$missing (apt-get install --no-install-recommends$missing)" >&2
    exit 2
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
mkdir -p stl renders
view=$(mktemp -d)
trap 'rm -rf "$view"' EXIT
for src in scad/*.scad; do
  name=$(basename "$src" .scad)
  case "$name" in *-assembly)
    # an assembly is only looked at: a coloured preview, no STL
    if [ -n "$FORCE" ] || ! [ "renders/$name.png" -nt "$src" ]; then
      xvfb-run -a -s "-screen 0 1024x768x24" openscad -q --viewall --autocenter \
        --imgsize=1000,750 --colorscheme=Tomorrow --camera=0,0,0,70,0,25,0 \
        -o "renders/$name.png" "$src"
      echo "rendered $name: renders/$name.png"
    fi
    continue ;;
  esac
  if [ -z "$FORCE" ] && [ "stl/$name.stl" -nt "$src" ] && [ "renders/$name.png" -nt "$src" ]; then
    continue
  fi
  # the full geometry once (CGAL), then a picture of exactly that STL (a quick preview)
  openscad -q --export-format binstl -o "stl/$name.stl" "$src"
  "${PY:-python3}" stl_normalise.py "stl/$name.stl"  # OpenSCAD's triangle order varies
  echo "import(\"$PWD/stl/$name.stl\");" > "$view/$name.scad"
  xvfb-run -a -s "-screen 0 1024x768x24" openscad -q --viewall --autocenter \
    --imgsize=1000,750 --colorscheme=Tomorrow --camera=0,0,0,55,0,25,0 \
    -o "renders/$name.png" "$view/$name.scad"
  echo "rendered $name: stl/$name.stl renders/$name.png"
done
# parts no longer generated leave no stale files behind
for stl in stl/*.stl; do
  name=$(basename "$stl" .stl)
  [ -e "scad/$name.scad" ] || { rm -f "$stl" "renders/$name.png"; echo "removed $name"; }
done

#!/bin/sh
# Optional: KataGo as a strong GTP opponent (`make katago`). KaTrain's wheel on PyPI ships a
# Linux KataGo (v1.18, OpenCL, an AppImage) and a small network (b10c384); Debian's pocl gives
# it OpenCL on the CPU. Installs into .katago/ of the checkout: the unpacked binary, the
# network and a GTP config (64 visits, 2 search threads). Its first start tunes OpenCL for the
# machine (over 18 minutes on 2 busy CPU cores; cached in ~/.katago/opencltuning after).
# Usage: sh host_tools/setup/katago.sh PYTHON   (the venv's python, for pip)
set -e
PY=${1:-.venv/bin/python}
DEST=.katago
WHEEL_VERSION=1.20.0
missing=""
[ -e /etc/OpenCL/vendors/pocl.icd ] || missing="$missing pocl-opencl-icd"
ldconfig -p 2>/dev/null | grep -q libOpenCL.so.1 || missing="$missing ocl-icd-libopencl1"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "installing Debian packages:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
if [ -x "$DEST/squashfs-root/usr/bin/katago" ] && [ -f "$DEST/model.bin.gz" ]; then
  echo "KataGo already in $DEST"
else
  mkdir -p "$DEST/download"
  "$PY" -m pip download --quiet --disable-pip-version-check --no-deps \
    "katrain==$WHEEL_VERSION" -d "$DEST/download"
  wheel=$(ls "$DEST"/download/katrain-*.whl | head -1)
  "$PY" -m zipfile -e "$wheel" "$DEST/unpacked"
  cp "$DEST/unpacked/katrain/KataGo/katago" "$DEST/katago.AppImage"
  cp "$DEST"/unpacked/katrain/models/*.bin.gz "$DEST/model.bin.gz"
  chmod +x "$DEST/katago.AppImage"
  # An AppImage needs FUSE to mount itself; unpacked it runs anywhere.
  (cd "$DEST" && ./katago.AppImage --appimage-extract >/dev/null)
  rm -rf "$DEST/unpacked" "$DEST/download" "$DEST/katago.AppImage"
fi
echo "logDir = $(pwd)/$DEST/logs" > "$DEST/gtp.cfg"
cat >> "$DEST/gtp.cfg" <<'CFG'
logAllGTPCommunication = false
logSearchInfo = false
logToStderr = false
rules = chinese
allowResignation = true
resignThreshold = -0.90
resignConsecTurns = 3
maxVisits = 64
ponderingEnabled = false
lagBuffer = 1.0
numSearchThreads = 2
searchFactorAfterOnePass = 0.50
searchFactorAfterTwoPass = 0.25
searchFactorWhenWinning = 0.40
searchFactorWhenWinningThreshold = 0.95
nnMaxBatchSize = 2
openclUseFP16 = false
CFG
"$DEST/squashfs-root/usr/bin/katago" version | head -1
echo "engine: $DEST/squashfs-root/usr/bin/katago gtp -model $DEST/model.bin.gz -config $DEST/gtp.cfg"
echo "(its first start tunes OpenCL: many minutes; ingboard sim --engine ... --handshake-timeout 3600)"

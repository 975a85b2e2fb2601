#!/bin/sh
# Optional: KataGo as a strong GTP opponent (`make katago`). KaTrain's wheel on PyPI ships a
# Linux KataGo (v1.18, OpenCL, an AppImage) and a small network (b10c384); Debian's pocl gives
# it OpenCL on the CPU. Everything goes into .katago/ of the checkout:
#   squashfs-root/   the unpacked binary          model.bin.gz   the network
#   gtp.cfg          GTP config (16 visits)       opencl-tuning.txt  OpenCL tuning, made once here
#   pocl-cache/      pocl's compiled kernels      logs/          KataGo's logs, the tuner's log
# The tuning runs once, niced, with FP16 off (pocl's CPU device has no cl_khr_fp16, and KataGo's
# own first-start tuning would probe the FP16 and tensor-core kernels too); it takes 20-60 min
# on 2 busy cores. The config names the tuning file, so KataGo never starts tuning by itself.
# Where the tuner dies or times out, the stages it finished are kept and the rest get KataGo's
# untuned defaults (slower kernels, same play); delete .katago/opencl-tuning.txt and run
# `make katago` again to tune anew. Last, one genmove on 9x9 checks the whole.
# Usage: sh host_tools/setup/katago.sh PYTHON   (the venv's python, for pip)
#   KATAGO_TUNE_TIMEOUT=seconds  limit for the tuner (default 7200)
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
HOME_DIR=$(cd "$DEST" && pwd)
TUNING="$HOME_DIR/opencl-tuning.txt"
mkdir -p "$HOME_DIR/logs" "$HOME_DIR/pocl-cache" "$HOME_DIR/home"
cat > "$DEST/gtp.cfg" <<CFG
logDir = $HOME_DIR/logs
homeDataDir = $HOME_DIR/home
openclTunerFile = $TUNING
CFG
cat >> "$DEST/gtp.cfg" <<'CFG'
logAllGTPCommunication = false
logSearchInfo = false
logToStderr = false
rules = chinese
allowResignation = true
resignThreshold = -0.90
resignConsecTurns = 3
maxVisits = 16
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
KATAGO="$HOME_DIR/squashfs-root/usr/bin/katago"
export POCL_CACHE_DIR="$HOME_DIR/pocl-cache"
"$KATAGO" version | head -1
if [ -s "$TUNING" ]; then
  echo "OpenCL already tuned: $TUNING"
else
  LOG="$HOME_DIR/logs/tuner.log"
  echo "tuning OpenCL for this machine, once (20-60 min on 2 busy cores); log: $LOG"
  status=0
  nice -n 19 timeout "${KATAGO_TUNE_TIMEOUT:-7200}" "$KATAGO" tuner \
    -config "$DEST/gtp.cfg" -model "$DEST/model.bin.gz" -output "$TUNING.part" \
    -xsize 19 -ysize 19 -batchsize 2 -testFP16 false -testFP16Storage false \
    -testFP16Compute false -testFP16TensorCores false >"$LOG" 2>&1 || status=$?
  if [ "$status" = 0 ] && [ -s "$TUNING.part" ]; then
    mv "$TUNING.part" "$TUNING"
  else
    # pocl 3.1's CPU device: the tuner aborts in its transformerRMSNorm stage ("malloc(): invalid
    # size (unsorted)", exit 134: glibc finds its heap damaged, most likely by a trial kernel writing
    # past its buffer, which on a CPU device is the process's own memory).
    echo "KataGo's OpenCL tuner stopped (exit $status; 124 = timed out): $(tail -1 "$LOG")"
    rm -f "$TUNING.part"
    "$PY" -m host_tools.katago --tuning-from-log "$LOG" --output "$TUNING"
  fi
fi
# One move on 9x9 (the first start also compiles pocl's kernels into pocl-cache/).
answer=$(printf 'boardsize 9\nclear_board\ngenmove b\nquit\n' |
  nice -n 19 timeout 900 "$KATAGO" gtp -model "$DEST/model.bin.gz" -config "$DEST/gtp.cfg" \
    2>>"$HOME_DIR/logs/check.log" | grep '^= [A-HJ-T][0-9]' || true)
if [ -z "$answer" ]; then
  echo "KataGo did not answer genmove; see $HOME_DIR/logs/check.log" >&2
  exit 1
fi
echo "KataGo answers genmove b on 9x9 with ${answer#= }"
echo "engine: python -c 'from host_tools import katago; print(katago.command())'"

#!/bin/sh
# The toolchain `make firmware` builds MicroPython's rp2 port with: Debian's arm-none-eabi GCC
# and newlib, CMake and a host compiler (for mpy-cross and picotool). Installs only what is
# missing; needs root (or sudo) only then. Not part of `make setup`.
set -e
missing=""
command -v arm-none-eabi-gcc >/dev/null 2>&1 || missing="$missing gcc-arm-none-eabi"
[ -e /usr/lib/arm-none-eabi/newlib/libc.a ] || missing="$missing libnewlib-arm-none-eabi"
[ -d /usr/lib/arm-none-eabi/include/c++ ] || missing="$missing libstdc++-arm-none-eabi-newlib"
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || missing="$missing build-essential"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
[ -z "$missing" ] && exit 0
echo "installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "error: need root to install:$missing (apt-get install$missing)" >&2; exit 2
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null

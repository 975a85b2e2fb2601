#!/bin/sh
# Install the Debian packages ingboard's tests and tools use as real peers, if missing.
# Idempotent; needs root (or sudo) only when something is missing.
set -e
missing=""
[ -x /usr/games/gnugo ] || command -v gnugo >/dev/null 2>&1 || missing="$missing gnugo"
[ -z "$missing" ] && exit 0
echo "installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "error: need root to install:$missing (apt-get install$missing)" >&2; exit 2
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null

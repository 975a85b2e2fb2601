#!/bin/sh
# Install the Debian packages ingboard's tests and tools use as real peers, if missing.
# Idempotent; needs root (or sudo) only when something is missing.
set -e
missing=""
[ -x /usr/games/gnugo ] || command -v gnugo >/dev/null 2>&1 || missing="$missing gnugo"
[ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1 || missing="$missing mosquitto"
# The browser simulator's end-to-end test drives Debian's Chromium with playwright-core (npm).
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -z "$missing" ] && exit 0
echo "installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "error: need root to install:$missing (apt-get install$missing)" >&2; exit 2
fi
$SUDO apt-get update -qq
# The relay's tests start their own mosquitto on loopback: the package's system service must
# not start (policy-rc.d "101" = action forbidden) nor be enabled.
policy=""
case "$missing" in *mosquitto*) if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d; policy=1; fi ;;
esac
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null || status=$?
if [ -n "$policy" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
case "$missing" in *mosquitto*) if command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl disable --now mosquitto >/dev/null 2>&1 || true; fi ;;
esac
exit ${status:-0}

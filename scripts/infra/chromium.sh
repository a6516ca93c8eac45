#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright's own download is not reachable here):
# install it when missing. Needs root (or passwordless sudo) the first time.
source "$(dirname "$0")/common.sh"
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
# The emoji font only makes the screenshots readable (reactions); the tests do not need it.
[[ -x "$CHROMIUM" ]] && exit 0
log "installing chromium for the browser tests"
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo -n"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y chromium fonts-noto-color-emoji >/dev/null 2>&1 || {
  $SUDO apt-get update >/dev/null && $SUDO apt-get install -y chromium fonts-noto-color-emoji >/dev/null
} || die "could not install chromium (apt-get install -y chromium); set CHROMIUM_PATH to a Chromium binary"

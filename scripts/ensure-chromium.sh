#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium; install it when it is missing and apt is there.
set -euo pipefail
if [ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_PATH:-}" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "== installing Debian's chromium"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing and apt-get is not available: install Chromium and set CHROMIUM_PATH." >&2
  exit 1
fi

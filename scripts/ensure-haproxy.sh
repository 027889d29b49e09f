#!/usr/bin/env bash
# `npm run cluster` and its tests put Debian's HAProxy in front of the portal; install it when it is missing and apt is
# there.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "== installing Debian's haproxy"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq haproxy >/dev/null
else
  echo "HAProxy is missing and apt-get is not available: install HAProxy (2.6 or later)." >&2
  exit 1
fi

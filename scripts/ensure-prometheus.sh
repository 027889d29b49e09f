#!/usr/bin/env bash
# The metrics test runs a real Prometheus and checks the alert rules with promtool (Debian's `prometheus` package);
# install it when it is missing and apt is there. Only the binaries are used: the package's service is not started.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "== installing Debian's prometheus"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
else
  echo "Prometheus is missing and apt-get is not available: install prometheus and promtool on the PATH." >&2
  exit 1
fi

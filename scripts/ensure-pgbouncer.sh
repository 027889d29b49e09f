#!/usr/bin/env bash
# `npm run cluster` with CLUSTER_PGBOUNCER=1 and its tests put Debian's PgBouncer between the portal and PostgreSQL;
# install it when it is missing and apt is there.
set -euo pipefail
if command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  echo "== installing Debian's pgbouncer"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pgbouncer >/dev/null
else
  echo "PgBouncer is missing and apt-get is not available: install PgBouncer (1.18 or later)." >&2
  exit 1
fi

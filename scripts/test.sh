#!/usr/bin/env bash
# The README's test command: every suite, in order of speed. Exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

bash scripts/ensure-chromium.sh

echo "== type check"
npm run -s typecheck

echo "== lint and format"
npx eslint --max-warnings 0 .
npm run -s format:check

echo "== build"
npm run -s build

run() { # name, then vitest arguments
  local name="$1"; shift
  echo "== $name"
  npx vitest run "$@" --reporter=default --reporter=json --outputFile="$results/$name.json"
}

run unit --project unit
# The metrics test scrapes the built server with a real Prometheus.
bash scripts/ensure-prometheus.sh
# The cluster test puts HAProxy in front of two built servers (in the PostgreSQL pass).
bash scripts/ensure-haproxy.sh
# And one part of it reaches PostgreSQL through PgBouncer in transaction mode.
bash scripts/ensure-pgbouncer.sh
run integration-pglite --project integration

# The same integration suite on a real PostgreSQL when one is configured or answers locally.
if [ -n "${DATABASE_URL:-}" ] || node scripts/pg-reachable.mjs; then
  # The schema fuzz judges how every call takes requests, the same on either database: it runs in the PGlite pass only,
  # which keeps the whole run inside CI's time.
  TEST_DB=postgres TEST_DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" \
    run integration-postgres --project integration --exclude '**/fuzz.test.ts'
else
  echo "== integration-postgres skipped: no DATABASE_URL and nothing answers on 127.0.0.1:5432"
fi

run e2e --project e2e

node scripts/test-summary.mjs "$results"

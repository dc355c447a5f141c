#!/usr/bin/env bash
# Every test: types, lint, unit + integration (vitest, real broker), conformance on both
# targets, browser end-to-end tests. Prints one closing line `all: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system.sh || exit 1
rm -rf test-results && mkdir -p test-results
status=0
step() { echo; echo "== $1"; shift; "$@" || status=1; }
step "typecheck" pnpm -r --if-present typecheck
step "lint" pnpm exec eslint .
step "vitest" pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
if [ -f e2e/run-e2e.ts ]; then
  step "e2e (Playwright, Debian Chromium)" pnpm --filter @retry-studio/e2e exec tsx run-e2e.ts --results ../test-results/e2e.json
fi
node scripts/summarize.mjs test-results || status=1
exit $status

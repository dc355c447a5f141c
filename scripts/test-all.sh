#!/usr/bin/env bash
# Every test: types, lint, unit + integration (vitest, real broker; the conformance suites on both
# targets run there), browser end-to-end tests. Prints one closing line `all: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system.sh || exit 1
rm -rf test-results && mkdir -p test-results
status=0
step() { echo; echo "== $1"; shift; "$@" || status=1; }
step "typecheck" pnpm -r --if-present typecheck
step "lint" pnpm exec eslint .
step "format (prettier --check)" pnpm exec prettier --check --log-level warn .
step "structure" node scripts/check-structure.mjs
step "structure check (its own test)" node --test scripts/check-structure.test.mjs
step "package: face imports (its own test)" node --test scripts/faceImports.test.mjs
step "package: one-command bundles (its own test)" node --test scripts/commandBundles.test.mjs
step "vitest: core, contract and web (pure, parallel)" pnpm exec vitest run --project core --project contract --project web --reporter=default --reporter=json --outputFile.json=test-results/vitest-pure.json
# The server's integration tests share one real broker (one of them restarts it): files run one at a time.
step "vitest: server (real broker)" pnpm exec vitest run --project server --no-file-parallelism --reporter=default --reporter=json --outputFile.json=test-results/vitest-server.json
if [ -f e2e/run-e2e.ts ]; then
  step "e2e (Playwright, Debian Chromium)" pnpm --filter @retry-studio/e2e exec tsx run-e2e.ts --results ../test-results/e2e.json
fi
node scripts/summarize.mjs test-results || status=1
exit $status

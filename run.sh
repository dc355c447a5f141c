#!/usr/bin/env bash
# The two README commands: `./run.sh start` (install, then serve the app) and `./run.sh test`
# (install what tests need, then run every test). Works on a fresh Debian machine with Node 20.
set -euo pipefail
cd "$(dirname "$0")"
PNPM_VERSION=10.34.8
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || corepack enable pnpm
fi
pnpm install --frozen-lockfile
case "${1:-}" in
  start) exec pnpm start ;;
  test) exec pnpm test ;;
  *) echo "usage: ./run.sh start|test" >&2; exit 2 ;;
esac

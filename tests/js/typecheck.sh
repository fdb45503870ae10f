#!/usr/bin/env bash
# Type-checks the leaderboard app's scripts (pwc_mcp/ui/*.js: `// @ts-check`, JSDoc
# types) with `tsc --noEmit` under tests/js/tsconfig.json (strict). Run by `make lint`.
#
# The pinned TypeScript is installed from npm, outside the tracked files, into
# .cache/typescript/ (git-ignored) on first use and whenever the pin changes, the way
# scripts/interop.sh installs its npm packages; afterwards the check runs offline. Needs node
# and npm on PATH (any Node the pinned TypeScript supports: 14.17 or later).
set -euo pipefail

TYPESCRIPT_VERSION=5.9.3
INSTALL_TIMEOUT=240

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=${PWC_TYPESCRIPT_CACHE:-$ROOT/.cache/typescript}
TSC=$DIR/node_modules/typescript/bin/tsc

if [ "$(node "$TSC" --version 2>/dev/null)" != "Version $TYPESCRIPT_VERSION" ]; then
  echo "typecheck: installing typescript@$TYPESCRIPT_VERSION into ${DIR#"$ROOT"/}" >&2
  rm -rf "$DIR" && mkdir -p "$DIR"
  printf '{"name":"pwc-typecheck","private":true}\n' > "$DIR/package.json"
  (cd "$DIR" && timeout "$INSTALL_TIMEOUT" npm install --no-audit --no-fund --save-exact \
      --loglevel=error "typescript@$TYPESCRIPT_VERSION") >&2
fi
node "$TSC" --project "$ROOT/tests/js/tsconfig.json"
echo "typecheck: pwc_mcp/ui/*.js pass tsc $TYPESCRIPT_VERSION (strict)"

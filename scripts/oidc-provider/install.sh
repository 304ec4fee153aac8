#!/usr/bin/env bash
# Installs the test OIDC provider's packages (oidc-provider, jose) from package-lock.json.
# Idempotent: runs `npm ci` only when node_modules is missing or the lock file changed since the
# last install (its sha256 is kept in node_modules/.lock-sha256). Needs node >= 20.19 and npm.
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)"
cd "$dir"
command -v node >/dev/null || { echo "install.sh: node is not installed" >&2; exit 1; }
command -v npm >/dev/null || { echo "install.sh: npm is not installed" >&2; exit 1; }
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
have="$(cat node_modules/.lock-sha256 2>/dev/null || true)"
if [ -d node_modules/oidc-provider ] && [ "$want" = "$have" ]; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
echo "$want" >node_modules/.lock-sha256

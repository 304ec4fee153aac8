#!/usr/bin/env bash
# The SPA's sign-in in OIDC mode, end to end, against a real OpenID provider: starts the test
# provider of scripts/oidc-provider (panva's oidc-provider, set up like Auth0) and
# `scribevault all` with SCRIBEVAULT_AUTH=oidc in a temporary data dir, then drives headless
# Chromium through frontend/e2e/oidc.mjs (alice@example.org is allowed and an admin,
# mallory@example.org is not allowed). The last line is `oidc-e2e: N passed, N failed`.
#
# Does not build the Rust binary: it runs $CARGO_TARGET_DIR/debug/scribevault (CARGO_TARGET_DIR
# defaults to ~/.cache/scribevault/target). WAIT_FOR_BINARY_SECONDS=N waits that long for a build
# in progress to produce it. Builds frontend/dist when it is missing. Screenshots and both servers'
# logs go to SCREENSHOT_DIR (default target-e2e-screenshots/oidc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
binary="$CARGO_TARGET_DIR/debug/scribevault"
audience="${OIDC_AUDIENCE:-https://scribevault.test/api}"

waited=0
while [ ! -x "$binary" ]; do
  if [ "$waited" -ge "${WAIT_FOR_BINARY_SECONDS:-0}" ]; then
    echo "e2e-oidc: $binary is missing: build it with 'cargo build -p scribevault'"
    echo "oidc-e2e: 0 passed, 1 failed"
    exit 1
  fi
  [ "$waited" -eq 0 ] && echo "e2e-oidc: waiting up to ${WAIT_FOR_BINARY_SECONDS}s for $binary"
  sleep 5
  waited=$((waited + 5))
done

"$root/scripts/oidc-provider/install.sh"
[ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null || "$root/scripts/install-test-tools.sh"
if [ ! -f "$root/frontend/dist/index.html" ]; then
  (
    cd "$root/frontend"
    [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
    npm run --silent build
  )
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

node "$root/scripts/oidc-provider/server.mjs" --port 0 --verbose >"$work/provider.out" 2>"$work/provider.log" &
pids+=($!)
issuer=""
for _ in $(seq 1 100); do
  issuer="$(sed -n 's/^OIDC_ISSUER=//p' "$work/provider.out")"
  [ -n "$issuer" ] && break
  sleep 0.1
done
[ -n "$issuer" ] || { echo "the OIDC provider did not start"; cat "$work/provider.log"; echo "oidc-e2e: 0 passed, 1 failed"; exit 1; }

SCRIBEVAULT_DATA_DIR="$work/data" SCRIBEVAULT_HTTP_ADDR="127.0.0.1:0" \
  SCRIBEVAULT_FRONTEND_DIR="$root/frontend/dist" SCRIBEVAULT_WHISPER_THREADS=1 \
  SCRIBEVAULT_AUTH=oidc SCRIBEVAULT_OIDC_ISSUER="$issuer" SCRIBEVAULT_OIDC_AUDIENCE="$audience" \
  SCRIBEVAULT_OIDC_CLIENT_ID=scribevault-spa \
  SCRIBEVAULT_OIDC_ALLOWED_EMAILS=alice@example.org SCRIBEVAULT_ADMIN_EMAILS=alice@example.org \
  "$binary" all >"$work/scribevault.log" 2>&1 &
pids+=($!)
addr=""
for _ in $(seq 1 300); do
  addr="$(sed -n 's/^scribevault listening http //p' "$work/scribevault.log" | head -1 | tr -d '[:space:]')"
  [ -n "$addr" ] && curl -fsS "http://$addr/healthz" >/dev/null 2>&1 && break
  addr=""
  sleep 0.1
done
[ -n "$addr" ] || { echo "scribevault did not start"; cat "$work/scribevault.log"; echo "oidc-e2e: 0 passed, 1 failed"; exit 1; }
echo "issuer $issuer, scribevault at http://$addr"

shots="${SCREENSHOT_DIR:-$root/target-e2e-screenshots/oidc}"
mkdir -p "$shots"
cd "$root/frontend"
status=0
BASE_URL="http://$addr" OIDC_ISSUER="$issuer" OIDC_AUDIENCE="$audience" OIDC_CLIENT_ID=scribevault-spa \
  OIDC_ALLOWED_EMAIL=alice@example.org OIDC_DENIED_EMAIL=mallory@example.org \
  SCREENSHOT_DIR="$shots" node e2e/oidc.mjs || status=$?
# The servers' logs stay beside the screenshots (the last line printed stays the count).
cp "$work/provider.log" "$shots/provider.log"
cp "$work/scribevault.log" "$shots/scribevault.log"
exit "$status"

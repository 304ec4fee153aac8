#!/usr/bin/env bash
# Load figures of issue 21 (point 5), on loopback only: builds the release binary, installs
# oha (crates.io) when missing, then runs bench/load/load.py against fresh `scribevault all`
# processes it starts and stops itself. Writes bench/results/load-latest.json.
#
# Arguments are passed to load.py (e.g. `--rounds 1 --phases http`); see `load.py --help`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
shared="${SCRIBEVAULT_SHARED_DIR:-$(cd "$root/.." && pwd)/shared}"
export PATH="$HOME/.cargo/bin:$PATH"

oha_version="1.16.0"
if ! oha --version 2>/dev/null | grep -q "$oha_version"; then
  echo "== installing oha $oha_version from crates.io"
  cargo install oha --version "$oha_version" --locked
fi
if [ ! -f frontend/node_modules/socket.io-client/package.json ]; then
  echo "== installing the SPA's packages (for the stock socket.io-client)"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
fi
command -v curl >/dev/null || { echo "curl is needed for the upload storm" >&2; exit 1; }

echo "== release build"
cargo build --release -p scribevault

# 1,000 sockets and the oha connections need more descriptors than some shells allow.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

mkdir -p bench/results
echo "== load rounds (each on a fresh server; several minutes)"
python3 bench/load/load.py \
  --binary "$CARGO_TARGET_DIR/release/scribevault" \
  --shared "$shared" \
  --out bench/results/load-latest.json \
  "$@"

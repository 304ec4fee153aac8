#!/usr/bin/env bash
# Search by meaning's costs on one core (issue 37): one query's vector, the back-fill's rate in
# hours of transcript a CPU-minute, the peak RSS. Builds the example in release, runs it three
# times on long-01-bread.txt repeated to an hour of speech, prints one JSON line a run.
#   bench/embedding.sh [MODEL]   (MODEL defaults to the one scripts/install-embedding-model.sh installs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
model="${1:-$("$root/scripts/install-embedding-model.sh")}"
cargo build --quiet --release -p scribevault-embed --example embed_bench
for _ in 1 2 3; do
  OMP_NUM_THREADS=1 "$CARGO_TARGET_DIR/release/examples/embed_bench" "$model" \
    "$root/../shared/audio/long-01-bread.txt" 191
done

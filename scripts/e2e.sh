#!/usr/bin/env bash
# The SPA end to end against the real product: starts `scribevault all` on embedded defaults in
# a temporary data dir (local auth; a model dir whose ggml-small.bin is the small test model;
# the YouTube Data API replaced by the fake in test-support, seeded with @scribevault-demo),
# then drives headless Chromium through frontend/e2e/e2e.mjs. The fake dies by SIGTERM (exit
# 143), so the traps ignore what `wait` says.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
binary="$CARGO_TARGET_DIR/debug/scribevault"
shared="$(cd "$root/.." && pwd)/shared"
work="$(mktemp -d)"
mkdir -p "$work/models"
ln -s "$shared/models/ggml-tiny.en.bin" "$work/models/ggml-small.bin"
cargo build -q -p scribevault-test-support --bin fake-youtube
"$CARGO_TARGET_DIR/debug/fake-youtube" --port 0 >"$work/fake-youtube.out" 2>"$work/fake-youtube.log" &
fake=$!
trap 'kill $fake 2>/dev/null; wait $fake 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  grep -q '^FAKE_YOUTUBE_BASE=' "$work/fake-youtube.out" 2>/dev/null && break
  sleep 0.1
done
youtube_base="$(sed -n 's/^FAKE_YOUTUBE_BASE=//p' "$work/fake-youtube.out")"
[ -n "$youtube_base" ] || { echo "the YouTube fake did not start"; cat "$work/fake-youtube.log"; exit 1; }
# Port 0: the server binds a free port itself and announces it, so no other process can take
# it between a pick and the bind.
SCRIBEVAULT_DATA_DIR="$work/data" SCRIBEVAULT_HTTP_ADDR="127.0.0.1:0" \
  SCRIBEVAULT_FRONTEND_DIR="$root/frontend/dist" SCRIBEVAULT_WHISPER_MODEL_DIR="$work/models" \
  SCRIBEVAULT_YOUTUBE_API_BASE="$youtube_base" SCRIBEVAULT_YOUTUBE_API_KEY=e2e-key \
  SCRIBEVAULT_WHISPER_THREADS=1 "$binary" all >"$work/scribevault.log" 2>&1 &
server=$!
trap 'kill $server $fake 2>/dev/null; wait $server $fake 2>/dev/null || true; rm -rf "$work"' EXIT
addr=""
for _ in $(seq 1 300); do
  addr="$(sed -n 's/^scribevault listening http //p' "$work/scribevault.log" | head -1 | tr -d '[:space:]')"
  [ -n "$addr" ] && curl -fsS "http://$addr/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "scribevault did not start"; cat "$work/scribevault.log"; exit 1; }
cd "$root/frontend"
YOUTUBE_DEMO_CHANNEL=@scribevault-demo BASE_URL="http://$addr" AUDIO_DIR="$shared/audio" SCREENSHOT_DIR="${SCREENSHOT_DIR:-$root/target-e2e-screenshots}" node e2e/e2e.mjs

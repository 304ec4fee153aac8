#!/usr/bin/env bash
# Runs every check and test of the project: what `make test` and CI run.
# Installs and starts what the tests need (idempotently), then: rustfmt, clippy, the Rust test
# suites (conformance suites against the real servers), the SPA's lint/typecheck/tests/build and
# the deployment manifests' validation. Ends with one `N passed, N failed` line.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
logs="$(mktemp -d)"
failed_steps=()
step_times=()
passed=0
failed=0
run_start=$SECONDS

# Runs one step, prints its wall time and keeps it for the table at the end (docs/performance.md
# records these for a fresh machine).
step() {
  local name="$1"; shift
  local start=$SECONDS
  echo "==> $name"
  if "$@"; then echo "==> $name: ok ($((SECONDS - start)) s)"; else echo "==> $name: FAILED ($((SECONDS - start)) s)"; failed_steps+=("$name"); fi
  step_times+=("$(printf '%6d s  %s' "$((SECONDS - start))" "$name")")
}
# A setup step: like `step`, but the run cannot go on without it.
setup() {
  local name="$1"; shift
  local start=$SECONDS
  echo "==> $name"
  "$@" || { echo "==> $name: FAILED"; exit 1; }
  echo "==> $name: ok ($((SECONDS - start)) s)"
  step_times+=("$(printf '%6d s  %s' "$((SECONDS - start))" "$name")")
}

# Servers and tools.
setup "install the test services" scripts/services.sh install
setup "start the test services" scripts/services.sh start
eval "$(scripts/services.sh env)"
setup "install the build tools" scripts/install-build-deps.sh
setup "install the test tools" scripts/install-test-tools.sh
setup "install ffmpeg and yt-dlp" scripts/install-media-tools.sh
setup "install poppler-utils and tesseract" scripts/install-pdf-tools.sh
SCRIBEVAULT_TEST_YTDLP="$(scripts/install-media-tools.sh --print-ytdlp)"
export SCRIBEVAULT_TEST_YTDLP
# whisper.cpp's Silero VAD model, built from the silero-vad wheel on PyPI (no torch).
vad_start=$SECONDS
SCRIBEVAULT_TEST_VAD_MODEL="$(scripts/install-vad-model.sh)" || { echo "cannot install the Silero VAD model"; exit 1; }
export SCRIBEVAULT_TEST_VAD_MODEL
step_times+=("$(printf '%6d s  %s' "$((SECONDS - vad_start))" "install the Silero VAD model")")
if ! cargo nextest --version >/dev/null 2>&1; then
  setup "install cargo-nextest" cargo install cargo-nextest --locked --quiet
fi
setup "install the lint tools" scripts/install-lint-tools.sh

frontend_deps() (
  cd "$root/frontend" || exit 1
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
)
# The Rust end-to-end tests drive the SPA's socket.io-client, so its packages come first.
step "frontend dependencies" frontend_deps

step "rustfmt" cargo fmt --all -- --check
step "clippy" cargo clippy --workspace --all-targets --quiet -- -D warnings
step "unused dependencies" cargo machete
step "vendored whisper.cpp is the release + our patch" scripts/vendor-whisper-rs-sys.sh --check
step "OpenAPI document (current and valid)" scripts/check-openapi.sh

rust_tests() {
  cargo nextest run --workspace --no-fail-fast --status-level pass --final-status-level slow 2>&1 | tee "$logs/rust.log"
  return "${PIPESTATUS[0]}"
}
step "rust tests" rust_tests
summary="$(grep -E 'tests run:' "$logs/rust.log" | tail -1)"
rust_passed="$(sed -nE 's/.* ([0-9]+) passed.*/\1/p' <<<"$summary")"
rust_failed="$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<<"$summary")"
passed=$((passed + ${rust_passed:-0}))
failed=$((failed + ${rust_failed:-0}))
# The chaos harness restarts PostgreSQL and RabbitMQ (its own, on other ports) and keeps both
# cores busy, so it runs alone, after the Rust tests: 3 rounds here, 20 with `make chaos`.
chaos() {
  scripts/chaos.sh --rounds 3 2>&1 | tee "$logs/chaos.log"
  return "${PIPESTATUS[0]}"
}
step "chaos (3 rounds)" chaos
step "fuzzing (short)" scripts/fuzz.sh --ci

if [ -f frontend/package.json ]; then
  frontend_tests() {
    (cd "$root/frontend" && npm test 2>&1) | tee "$logs/frontend.log"
    return "${PIPESTATUS[0]}"
  }
  step "eslint" bash -c "cd '$root/frontend' && npm run --silent lint"
  step "tsc --noEmit" bash -c "cd '$root/frontend' && npm run --silent typecheck"
  step "frontend tests" frontend_tests
  step "frontend build" bash -c "cd '$root/frontend' && npm run --silent build"
  e2e() {
    scripts/e2e.sh 2>&1 | tee "$logs/e2e.log"
    return "${PIPESTATUS[0]}"
  }
  step "SPA end to end (chromium)" e2e
  e2e_oidc() {
    scripts/e2e-oidc.sh 2>&1 | tee "$logs/e2e-oidc.log"
    return "${PIPESTATUS[0]}"
  }
  step "SPA sign-in through a real OIDC provider (chromium)" e2e_oidc
  for log in frontend e2e e2e-oidc; do
    line="$(grep -E '^([a-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed' "$logs/$log.log" | tail -1 | sed -E 's/^[a-z0-9-]+: //')"
    passed=$((passed + $(sed -nE 's/^([0-9]+) passed.*/\1/p' <<<"$line" | grep . || echo 0)))
    failed=$((failed + $(sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line" | grep . || echo 0)))
  done
fi

step "deployment manifests" scripts/validate-deploy.sh

echo
echo "==> wall time of each step"
printf '%s\n' "${step_times[@]}"
printf '%6d s  %s\n' "$((SECONDS - run_start))" "the whole run"
echo
if [ ${#failed_steps[@]} -gt 0 ]; then
  echo "failed steps: ${failed_steps[*]}"
  # A failed step with no failing test (lint, build) still fails the run.
  [ "$failed" -eq 0 ] && failed=1
fi
echo "$passed passed, $failed failed"
[ ${#failed_steps[@]} -eq 0 ]

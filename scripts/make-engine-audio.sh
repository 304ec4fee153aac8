#!/usr/bin/env bash
# Engine test audio, made from shared/audio (espeak-ng speech) with ffmpeg and sox (installed
# with apt-get when missing).
#
#   scripts/make-engine-audio.sh
#     Writes crates/transcription-worker/tests/fixtures/padded.mp3 (committed; 16 kHz mono MP3,
#     ABR 20 kbit/s) and padded.json beside it: sample-01-welcome, sample-02-subscribe, sample-03-meeting,
#     sample-04-noisy and long-01-bread in that order, with a leading gap, gaps between them and
#     a trailing gap of 3-12 s, alternating pure digital silence and brown/pink noise at -45 dBFS
#     RMS, so that about 35 % of the file is not speech. padded.json gives each piece's `file`,
#     `text` (its .txt), `start_seconds`/`end_seconds` (where its speech really starts and ends
#     in padded.mp3: the first and last 10 ms frame above -38 dBFS RMS, measured on the piece,
#     not where the piece with its own leading silence starts), `total_seconds` and
#     `non_speech_fraction`. It then decodes padded.mp3 again, finds the speech in it with no
#     knowledge of where it was put and fails unless every start and end is within 50 ms.
#     Deterministic (sox -R, and -D: no dither, so the silent gaps are digital zero): running it
#     again gives the same file.
#
#   scripts/make-engine-audio.sh --long HOURS [OUT.mp3]
#     Writes an HOURS-hour podcast-like MP3 (44.1 kHz mono, CBR 64 kbit/s) by looping
#     padded.mp3's content: one loop is encoded once, then copied frame by frame (ffmpeg
#     -stream_loop -c copy), so it streams and takes seconds. OUT defaults to
#     ~/.cache/scribevault/engine-audio/padded-HOURSh.mp3; an OUT already of that length is
#     kept. Prints OUT's path. Used by the benchmark for 3 and 10 hours.
#
# SCRIBEVAULT_SHARED_DIR overrides where shared/ is (default: beside the repository).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SCRIBEVAULT_SHARED_DIR:-$(cd "$root/.." && pwd)/shared}"
fixtures="$root/crates/transcription-worker/tests/fixtures"
padded="$fixtures/padded.mp3"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/scribevault"

fail() {
  echo "make-engine-audio: $*" >&2
  exit 1
}

install_tools() {
  local missing=()
  { command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; } || missing+=(ffmpeg)
  if [ "${1:-}" = sox ] && ! command -v sox >/dev/null; then missing+=(sox); fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

duration_of() {
  ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$1"
}

long() {
  local hours="$1" out="${2:-}" seconds
  seconds="$(python3 -c 'import sys; h = float(sys.argv[1]); assert h > 0; print(round(h * 3600, 3))' "$hours" 2>/dev/null)" ||
    fail "--long wants a positive number of hours, not '$hours'"
  [ -n "$out" ] || out="$cache/engine-audio/padded-${hours}h.mp3"
  [ -f "$padded" ] || fail "$padded is missing: run scripts/make-engine-audio.sh first"
  install_tools
  mkdir -p "$(dirname "$out")"
  if [ -f "$out" ] && [ "$out" -nt "$padded" ] &&
    python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1)' \
      "$(duration_of "$out" 2>/dev/null || echo 0)" "$seconds"; then
    echo "$out"
    return
  fi

  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # One loop at the target format; the copies then need no encoding. Cut by MP3 frames (1,152
  # samples each): with -stream_loop and -c copy, `-t` overshoots by ~26 ms a loop. Each loop
  # keeps the encoder's delay and padding, ~50 ms more silence, which is harmless.
  ffmpeg -v error -nostdin -i "$padded" -ar 44100 -ac 1 -c:a libmp3lame -b:a 64k \
    -map_metadata -1 -fflags +bitexact -flags:a +bitexact -write_xing 0 "$work/loop.mp3"
  ffmpeg -v error -nostdin -stream_loop -1 -i "$work/loop.mp3" -c copy \
    -frames:a "$(python3 -c 'import math, sys; print(math.ceil(float(sys.argv[1]) * 44100 / 1152))' "$seconds")" \
    -map_metadata -1 -fflags +bitexact "$work/long.mp3"
  mv -f "$work/long.mp3" "$out"
  echo "$out"
}

fixture() {
  install_tools sox
  local rate=16000
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  local pieces=(sample-01-welcome sample-02-subscribe sample-03-meeting sample-04-noisy long-01-bread)
  # Gap before each piece, then the trailing one: silence, noise, silence, ... (seconds).
  local gaps=(6 9.5 3.5 12 7.5 10)
  local noises=(brownnoise pinknoise brownnoise)
  local parts=() i
  for i in "${!gaps[@]}"; do
    local gap="$work/gap$i.wav"
    if [ $((i % 2)) -eq 0 ]; then
      sox -D -n -r "$rate" -c 1 -b 16 "$gap" trim 0 "${gaps[$i]}"
    else
      sox -D -R -n -r "$rate" -c 1 -b 16 "$work/noise$i.wav" synth "${gaps[$i]}" "${noises[$((i / 2))]}"
      local rms
      rms="$(sox "$work/noise$i.wav" -n stats 2>&1 | awk '/^RMS lev dB/ {print $4}')"
      sox -D -R "$work/noise$i.wav" "$gap" gain "$(python3 -c 'import sys; print(-45 - float(sys.argv[1]))' "$rms")"
    fi
    parts+=("$gap")
    if [ "$i" -lt ${#pieces[@]} ]; then
      local src="$shared/audio/${pieces[$i]}.mp3"
      [ -f "$src" ] || fail "$src is missing (set SCRIBEVAULT_SHARED_DIR)"
      ffmpeg -v error -nostdin -i "$src" -ac 1 -ar "$rate" -c:a pcm_s16le "$work/piece$i.wav"
      parts+=("$work/piece$i.wav")
    fi
  done
  sox -D "${parts[@]}" "$work/padded.wav"
  mkdir -p "$fixtures"
  # LAME ABR 20 kbit/s (~406 KB; CBR 24k would be 480 KB, CBR 32k 640 KB). LAME's VBR modes
  # (-V7..-V9) leave 10 ms bursts above -38 dBFS in the noise gaps, which the check below catches.
  ffmpeg -v error -nostdin -y -i "$work/padded.wav" -c:a libmp3lame -abr 1 -b:a 20k \
    -map_metadata -1 -fflags +bitexact -flags:a +bitexact "$work/padded.mp3"
  ffmpeg -v error -nostdin -i "$work/padded.mp3" -ac 1 -ar "$rate" -f s16le "$work/decoded.s16"
  python3 - "$work" "$shared/audio" "$fixtures/padded.json" "${pieces[@]}" <<'PY'
import array, json, math, os, sys, wave

work, audio, out, pieces = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
RATE, FRAME = 16000, 160  # 10 ms frames
THRESHOLD_DB = -38.0  # above the -45 dBFS gaps and sample-04-noisy's own pink noise
MERGE_SECONDS = 2.0  # pauses inside a piece are shorter; gaps between pieces are longer
TOLERANCE = 0.05


def loud_frames(samples):
    limit = (10 ** (THRESHOLD_DB / 20) * 32768) ** 2 * FRAME
    for f in range(len(samples) // FRAME):
        chunk = samples[f * FRAME:(f + 1) * FRAME]
        if sum(x * x for x in chunk) > limit:
            yield f


def speech_span(samples):
    frames = list(loud_frames(samples))
    if not frames:
        raise SystemExit("no speech found")
    return frames[0] * FRAME / RATE, (frames[-1] + 1) * FRAME / RATE


def read_wav(path):
    with wave.open(path) as w:
        assert w.getframerate() == RATE and w.getnchannels() == 1 and w.getsampwidth() == 2
        samples = array.array("h", w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    return samples


def wav_seconds(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


offset, result = 0.0, []
i = 0
while os.path.exists(os.path.join(work, "gap%d.wav" % i)):
    offset += wav_seconds(os.path.join(work, "gap%d.wav" % i))
    piece = os.path.join(work, "piece%d.wav" % i)
    if i < len(pieces):
        start, end = speech_span(read_wav(piece))
        with open(os.path.join(audio, pieces[i] + ".txt"), encoding="utf-8") as f:
            text = f.read().strip()
        result.append({
            "file": pieces[i] + ".mp3",
            "text": text,
            "start_seconds": round(offset + start, 3),
            "end_seconds": round(offset + end, 3),
        })
        offset += wav_seconds(piece)
    i += 1
total = wav_seconds(os.path.join(work, "padded.wav"))
speech = sum(p["end_seconds"] - p["start_seconds"] for p in result)

# Check: find the speech again in the decoded MP3, knowing nothing of the layout.
decoded = array.array("h")
with open(os.path.join(work, "decoded.s16"), "rb") as f:
    decoded.frombytes(f.read())
if sys.byteorder == "big":
    decoded.byteswap()
regions = []
for f in loud_frames(decoded):
    t0, t1 = f * FRAME / RATE, (f + 1) * FRAME / RATE
    if regions and t0 - regions[-1][1] < MERGE_SECONDS:
        regions[-1][1] = t1
    else:
        regions.append([t0, t1])
problems = []
if len(regions) != len(result):
    problems.append("found %d speech regions in the MP3, expected %d: %s" % (len(regions), len(result), regions))
for p, (t0, t1) in zip(result, regions):
    if abs(p["start_seconds"] - t0) > TOLERANCE or abs(p["end_seconds"] - t1) > TOLERANCE:
        problems.append("%s: %.3f-%.3f expected, %.3f-%.3f in the MP3" % (p["file"], p["start_seconds"], p["end_seconds"], t0, t1))
decoded_seconds = len(decoded) / RATE
if abs(decoded_seconds - total) > TOLERANCE:
    problems.append("the MP3 lasts %.3f s, the PCM %.3f s" % (decoded_seconds, total))
if problems:
    raise SystemExit("padded.mp3 does not match what was put in it:\n  " + "\n  ".join(problems))

doc = {
    "about": "made by scripts/make-engine-audio.sh from shared/audio; start/end = speech onset/end in padded.mp3 (10 ms frames above %g dBFS RMS)" % THRESHOLD_DB,
    "pieces": result,
    "total_seconds": round(total, 3),
    "non_speech_fraction": round(1 - speech / total, 4),
}
with open(out, "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
print("%-24s %9s %9s %9s %9s" % ("piece", "start", "end", "mp3 start", "mp3 end"), file=sys.stderr)
for p, (t0, t1) in zip(result, regions):
    print("%-24s %9.3f %9.3f %9.3f %9.3f" % (p["file"], p["start_seconds"], p["end_seconds"], t0, t1), file=sys.stderr)
print("total %.3f s, non-speech %.1f %%" % (total, 100 * doc["non_speech_fraction"]), file=sys.stderr)
PY
  mv -f "$work/padded.mp3" "$padded"
  echo "$padded"
}

case "${1:-}" in
  --long)
    [ $# -ge 2 ] || fail "usage: $0 --long HOURS [OUT.mp3]"
    long "$2" "${3:-}"
    ;;
  "") fixture ;;
  *) fail "usage: $0 [--long HOURS [OUT.mp3]]" ;;
esac

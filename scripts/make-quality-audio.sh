#!/usr/bin/env bash
# Audio that makes Whisper (tiny.en) invent text or loop, for the quality guard's tests, made
# from shared/audio (espeak-ng speech) with ffmpeg and sox (installed with apt-get when
# missing). docs/quality.md says what each one made tiny.en write.
#
#   scripts/make-quality-audio.sh [OUT_DIR]
#     Writes into OUT_DIR (default ~/.cache/scribevault/quality-audio) as 16 kHz mono MP3s:
#       looped-speech.mp3        sample-02-subscribe sped up 1.8x, pitch and all (sox speed):
#                                tiny.en writes one sentence four times (5.0 s)
#       looped-speech-twice.mp3  the same with sample-02 said twice: with whisper.cpp's own
#                                temperature fallback off, one phrase three times, text that
#                                compresses by 2.48 (10.1 s)
#       speech-under-noise.mp3   sample-03-meeting under brown noise louder than the speech:
#                                invented sentences at a mean log-probability near -5 (9.2 s)
#       music.mp3                a plucked melody, five times over: "(lively music)" at -1.07,
#                                and "Thank you." once decoded again (28 s)
#       pink-noise.mp3           pink noise: "(wind howling)" where whisper heard no speech (9.2 s)
#       silence-then-speech.mp3  25 s of digital silence, then sample-01-welcome: without VAD
#                                the first sentence is dated into the silence (32.5 s)
#       speech-then-music.mp3    sample-01-welcome, then the melody: without VAD, "Thank you for
#                                watching." over the music (35.5 s)
#     Deterministic (sox -R: the same noise each run; -D: no dither). Files already made by
#     this version of the script are kept; prints OUT_DIR.
#
# SCRIBEVAULT_SHARED_DIR overrides where shared/ is (default: beside the repository).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SCRIBEVAULT_SHARED_DIR:-$(cd "$root/.." && pwd)/shared}"
out="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/scribevault/quality-audio}"
version=4

fail() {
  echo "make-quality-audio: $*" >&2
  exit 1
}

if ! command -v sox >/dev/null || ! command -v ffmpeg >/dev/null; then
  echo "installing sox and ffmpeg" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sox ffmpeg >/dev/null
fi

mkdir -p "$out"
if [ "$(cat "$out/VERSION" 2>/dev/null)" = "$version" ]; then
  echo "$out"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sx() { sox -R -D "$@"; }
speech() {
  local src="$shared/audio/$1.mp3"
  [ -f "$src" ] || fail "$src is missing (set SCRIBEVAULT_SHARED_DIR)"
  ffmpeg -v error -nostdin -i "$src" -ac 1 -ar 16000 "$work/$1.wav"
}
mp3() {
  ffmpeg -v error -nostdin -y -i "$work/$1.wav" -ac 1 -ar 16000 -c:a libmp3lame -b:a 48k "$work/$1.mp3"
  mv -f "$work/$1.mp3" "$out/$1.mp3"
}

speech sample-01-welcome
speech sample-02-subscribe
speech sample-03-meeting

# A C-major arpeggio plucked, 5.6 s; five of them.
sx -n -r 16000 -c 1 "$work/melody.wav" synth 0.4 pluck C4 : synth 0.4 pluck E4 : \
  synth 0.4 pluck G4 : synth 0.4 pluck C5 : synth 0.4 pluck G4 : synth 0.4 pluck E4 : \
  synth 0.8 pluck C4 repeat 3 gain -3
sx "$work/melody.wav" "$work/melody.wav" "$work/melody.wav" "$work/melody.wav" "$work/melody.wav" \
  "$work/music.wav"

sx "$work/sample-02-subscribe.wav" "$work/looped-speech.wav" speed 1.8
sx "$work/sample-02-subscribe.wav" "$work/sample-02-subscribe.wav" "$work/looped-speech-twice.wav" \
  speed 1.8
sx -n -r 16000 -c 1 "$work/brown.wav" synth 9.2 brownnoise gain -3
sx -m "$work/sample-03-meeting.wav" "$work/brown.wav" "$work/speech-under-noise.wav"
sx -n -r 16000 -c 1 "$work/pink-noise.wav" synth 9.2 pinknoise gain -12
sx -n -r 16000 -c 1 "$work/silence.wav" trim 0 25
sx "$work/silence.wav" "$work/sample-01-welcome.wav" "$work/silence-then-speech.wav"
sx "$work/sample-01-welcome.wav" "$work/music.wav" "$work/speech-then-music.wav"

for name in looped-speech looped-speech-twice speech-under-noise music pink-noise silence-then-speech \
  speech-then-music; do
  mp3 "$name"
done
echo "$version" >"$out/VERSION"
echo "$out"

#!/usr/bin/env bash
# Installs whisper.cpp's Silero VAD model (ggml-silero-v6.2.0.bin) into DEST, idempotently and
# without torch: `pip download`s the silero-vad 6.2.0 wheel from PyPI (into
# ~/.cache/scribevault/wheels), checks its sha256, converts it with scripts/build-vad-model.py
# (standard library only) and checks that the result is byte-identical to whisper.cpp's
# for-tests-silero-v6.2.0-ggml.bin. Does nothing when DEST already has the right file.
#   scripts/install-vad-model.sh [DEST]               install; prints the model's path
#   scripts/install-vad-model.sh --print-path [DEST]  only prints where the model is or would be
# DEST defaults to ~/.cache/scribevault/models. Exits non-zero, saying why, on any failure.
set -euo pipefail
SILERO_VERSION=6.2.0
WHEEL=silero_vad-$SILERO_VERSION-py3-none-any.whl
WHEEL_SHA256=8a31f1e58e73cdc20820d842f757e678e0ae1b0ee1cb7b8aa50f20f8fd7f7638
MODEL=ggml-silero-v$SILERO_VERSION.bin
MODEL_SHA256=2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987
cache="${XDG_CACHE_HOME:-$HOME/.cache}/scribevault"
root="$(cd "$(dirname "$0")/.." && pwd)"

print_only=false
if [ "${1:-}" = "--print-path" ]; then
  print_only=true
  shift
fi
dest="${1:-$cache/models}"
model="$dest/$MODEL"
if $print_only; then
  echo "$model"
  exit 0
fi

fail() {
  echo "install-vad-model: $*" >&2
  exit 1
}
# shellcheck source=scripts/pypi-wheel.sh
. "$(dirname "$0")/pypi-wheel.sh"

if [ -f "$model" ] && [ "$(sha_of "$model")" = "$MODEL_SHA256" ]; then
  echo "$model"
  exit 0
fi

wheel_from_pypi "$WHEEL" "$WHEEL_SHA256" "silero-vad==$SILERO_VERSION"

mkdir -p "$dest" || fail "cannot create $dest"
tmp="$model.partial.$$"
trap 'rm -f "$tmp"' EXIT
python3 "$root/scripts/build-vad-model.py" "$wheel" "$tmp" >&2 ||
  fail "scripts/build-vad-model.py could not convert $wheel"
got="$(sha_of "$tmp")"
[ "$got" = "$MODEL_SHA256" ] ||
  fail "the converted model has sha256 $got, expected $MODEL_SHA256 (not installed)"
mv -f "$tmp" "$model"
echo "$model"

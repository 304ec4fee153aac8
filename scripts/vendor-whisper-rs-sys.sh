#!/usr/bin/env bash
# vendor/whisper-rs-sys is crates.io's whisper-rs-sys with the GPU backends left out and
# vendor/whisper-rs-sys.patch applied (vendor/README.md says what the patch changes and why).
#
#   scripts/vendor-whisper-rs-sys.sh           rebuild vendor/whisper-rs-sys from the release
#   scripts/vendor-whisper-rs-sys.sh --check   fail unless vendor/whisper-rs-sys is exactly that
#   scripts/vendor-whisper-rs-sys.sh --diff    rewrite the patch from the edited vendor tree
#
# To change whisper.cpp: edit vendor/whisper-rs-sys, run --diff, commit both. To move to a new
# release: change VERSION and SHA256, run without arguments, fix what no longer applies.
set -euo pipefail
VERSION=0.15.0
# crates.io's checksum of whisper-rs-sys-0.15.0.crate (Cargo.lock held it before the patch)
SHA256=6986c0fe081241d391f09b9a071fbcbb59720c3563628c3c829057cf69f2a56f
# Backends whose sources the CPU build never reads; a build that turns one on fails in cmake.
PRUNED="cann cuda hexagon hip metal musa opencl rpc sycl vulkan webgpu zdnn zendnn"

root="$(cd "$(dirname "$0")/.." && pwd)"
vendored="$root/vendor/whisper-rs-sys"
patch_file="$root/vendor/whisper-rs-sys.patch"
mode="${1:-build}"
case "$mode" in build | --check | --diff) ;; *)
  echo "usage: $0 [--check | --diff]" >&2
  exit 2
  ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
crate="$work/whisper-rs-sys-$VERSION.crate"
curl -sSfL --retry 3 -o "$crate" "https://static.crates.io/crates/whisper-rs-sys/whisper-rs-sys-$VERSION.crate"
echo "$SHA256  $crate" | sha256sum --check --quiet
tar -xzf "$crate" -C "$work"
upstream="$work/whisper-rs-sys-$VERSION"
rm -f "$upstream/.cargo_vcs_info.json"
for backend in $PRUNED; do rm -rf "$upstream/whisper.cpp/ggml/src/ggml-$backend"; done

if [ "$mode" = --diff ]; then
  # diff exits 1 when the trees differ, which is the point here
  (cd "$work" && cp -r "$vendored" patched && rm -rf patched/.git &&
    mv "whisper-rs-sys-$VERSION" upstream &&
    { diff -ruN upstream patched >"$patch_file" || [ $? -eq 1 ]; })
  echo "wrote $patch_file ($(grep -c '^+++ ' "$patch_file") files)"
  exit 0
fi

(cd "$upstream" && patch -p1 --quiet --no-backup-if-mismatch <"$patch_file")
if [ "$mode" = --check ]; then
  if ! diff -r --exclude=.git "$upstream" "$vendored" >"$work/differences"; then
    echo "vendor/whisper-rs-sys is not whisper-rs-sys $VERSION + vendor/whisper-rs-sys.patch:" >&2
    head -40 "$work/differences" >&2
    exit 1
  fi
  echo "vendor/whisper-rs-sys: whisper-rs-sys $VERSION + vendor/whisper-rs-sys.patch"
  exit 0
fi
rm -rf "$vendored"
mv "$upstream" "$vendored"
echo "rebuilt $vendored"

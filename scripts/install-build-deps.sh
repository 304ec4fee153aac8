#!/usr/bin/env bash
# Installs what building the binary needs beyond Rust: cmake (whisper.cpp is compiled from
# source by whisper-rs-sys) and a C++ compiler. Idempotent and quiet when all is there.
set -euo pipefail
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v g++ >/dev/null || missing+=(g++)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing build tools: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

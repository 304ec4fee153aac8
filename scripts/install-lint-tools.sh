#!/usr/bin/env bash
# Installs the lint tools beyond rustfmt and clippy: cargo-machete, which finds dependencies a
# crate declares but never uses. Idempotent and quiet when it is there.
set -euo pipefail
if ! command -v cargo-machete >/dev/null; then
  echo "installing cargo-machete"
  cargo install cargo-machete --locked --quiet
fi

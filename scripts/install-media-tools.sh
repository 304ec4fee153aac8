#!/usr/bin/env bash
# Installs what audio downloads need, idempotently: Debian's ffmpeg (yt-dlp extracts MP3 with
# ffmpeg and ffprobe) and yt-dlp, pinned, in a venv under the cache directory. Prints nothing
# when both are there. `scripts/install-media-tools.sh --print-ytdlp` prints yt-dlp's path.
set -euo pipefail
YTDLP_VERSION=2026.10.26
venv="${XDG_CACHE_HOME:-$HOME/.cache}/scribevault/yt-dlp-venv"
ytdlp="$venv/bin/yt-dlp"
if [ "${1:-}" = "--print-ytdlp" ]; then
  echo "$ytdlp"
  exit 0
fi
if ! command -v ffmpeg >/dev/null || ! command -v ffprobe >/dev/null; then
  echo "installing ffmpeg"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg >/dev/null
fi
if [ ! -x "$ytdlp" ] || [ "$("$ytdlp" --version 2>/dev/null)" != "$YTDLP_VERSION" ]; then
  echo "installing yt-dlp $YTDLP_VERSION into $venv"
  if ! python3 -m venv "$venv" 2>/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check "yt-dlp==$YTDLP_VERSION"
fi

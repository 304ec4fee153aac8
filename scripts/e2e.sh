#!/usr/bin/env bash
# The SPA end to end against the real product: starts `scribevault all` on embedded defaults in
# a temporary data dir (local auth; a model dir whose ggml-small.bin is the small test model;
# the quality guard's looping inputs made into it by scripts/make-quality-audio.sh;
# the YouTube Data API replaced by the fake in test-support, seeded with @scribevault-demo),
# and yt-dlp's targets replaced by a local server that answers every /media/<id>.mp3 with a
# sample MP3, so download jobs run the real yt-dlp offline), then drives headless Chromium
# through frontend/e2e/e2e.mjs. The fakes die by SIGTERM (exit 143), so the traps ignore what
# `wait` says.
#
# Sign-up stays at the default `invite`: the run's first account is the instance's owner (a fresh
# instance's /config.json says `open`), and the second account signs up through an invitation the
# owner makes on Settings → Users, as a real instance does. The SPA is served from frontend/dist:
# run `npm run build` in frontend/ after changing it (it is built here only when missing). The
# server's Content-Security-Policy is the real one, and the run fails on any violation of it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
binary="$CARGO_TARGET_DIR/debug/scribevault"
shared="$(cd "$root/.." && pwd)/shared"
work="$(mktemp -d)"
mkdir -p "$work/models"
ln -s "$shared/models/ggml-tiny.en.bin" "$work/models/ggml-small.bin"
# The workspace's test build makes both binaries (the YouTube fake through its own integration
# test): the same build `make test` runs the Rust suites with, so nothing is built twice.
cargo nextest run --workspace --no-run --cargo-quiet
"$root/scripts/install-media-tools.sh"
# Premium OCR (pdftoppm + tesseract) for the Vault's Import PDF step; the server answers 503 without them.
"$root/scripts/install-pdf-tools.sh"
ytdlp="$("$root/scripts/install-media-tools.sh" --print-ytdlp)"
# Inputs that make tiny.en loop or invent (docs/quality.md), for the quality guard's steps.
quality_audio="$("$root/scripts/make-quality-audio.sh" "$work/quality-audio")"
python3 - "$shared/audio/sample-02-subscribe.mp3" >"$work/media.out" 2>"$work/media.log" <<'PY' &
import http.server, sys
body = open(sys.argv[1], "rb").read()
class Media(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/media/") and self.path.endswith(".mp3"):
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404, "File not found")
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Media)
print(f"MEDIA_BASE=http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
PY
media=$!
"$CARGO_TARGET_DIR/debug/fake-youtube" --port 0 >"$work/fake-youtube.out" 2>"$work/fake-youtube.log" &
fake=$!
trap 'kill $fake $media 2>/dev/null; wait $fake $media 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  grep -q '^FAKE_YOUTUBE_BASE=' "$work/fake-youtube.out" 2>/dev/null && break
  sleep 0.1
done
youtube_base="$(sed -n 's/^FAKE_YOUTUBE_BASE=//p' "$work/fake-youtube.out")"
[ -n "$youtube_base" ] || { echo "the YouTube fake did not start"; cat "$work/fake-youtube.log"; exit 1; }
for _ in $(seq 1 100); do
  grep -q '^MEDIA_BASE=' "$work/media.out" 2>/dev/null && break
  sleep 0.1
done
media_base="$(sed -n 's/^MEDIA_BASE=//p' "$work/media.out")"
[ -n "$media_base" ] || { echo "the media server did not start"; cat "$work/media.log"; exit 1; }
# Port 0: the server binds a free port itself and announces it, so no other process can take
# it between a pick and the bind.
SCRIBEVAULT_DATA_DIR="$work/data" SCRIBEVAULT_HTTP_ADDR="127.0.0.1:0" \
  SCRIBEVAULT_FRONTEND_DIR="$root/frontend/dist" SCRIBEVAULT_WHISPER_MODEL_DIR="$work/models" \
  SCRIBEVAULT_YOUTUBE_API_BASE="$youtube_base" SCRIBEVAULT_YOUTUBE_API_KEY=e2e-key \
  SCRIBEVAULT_YTDLP_PATH="$ytdlp" SCRIBEVAULT_YOUTUBE_WATCH_URL="$media_base/media/{id}.mp3" \
  SCRIBEVAULT_WEBHOOKS_ALLOW_PRIVATE=true SCRIBEVAULT_WEBHOOKS_ALLOW_ANY_PORT=true SCRIBEVAULT_WHISPER_THREADS=1 "$binary" all >"$work/scribevault.log" 2>&1 &
server=$!
trap 'kill $server $fake $media 2>/dev/null; wait $server $fake $media 2>/dev/null || true; rm -rf "$work"' EXIT
addr=""
for _ in $(seq 1 300); do
  addr="$(sed -n 's/^scribevault listening http //p' "$work/scribevault.log" | head -1 | tr -d '[:space:]')"
  [ -n "$addr" ] && curl -fsS "http://$addr/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "scribevault did not start"; cat "$work/scribevault.log"; exit 1; }
cd "$root/frontend"
if [ ! -f dist/index.html ]; then
  [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
  npm run --silent build
fi
shots="${SCREENSHOT_DIR:-$root/target-e2e-screenshots}"
status=0
YOUTUBE_DEMO_CHANNEL=@scribevault-demo BASE_URL="http://$addr" AUDIO_DIR="$shared/audio" QUALITY_AUDIO_DIR="$quality_audio" \
  SCREENSHOT_DIR="$shots" node e2e/e2e.mjs || status=$?
# The server's log stays beside the screenshots (the last line printed stays the count).
mkdir -p "$shots"
cp "$work/scribevault.log" "$shots/scribevault.log" 2>/dev/null || true
exit "$status"

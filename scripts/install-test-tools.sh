#!/usr/bin/env bash
# Installs the tools the tests drive besides the servers: Debian's chromium (SPA end to end),
# openssl (test keys), python-socketio (a second Socket.IO client library), openapi-spec-validator,
# standardwebhooks (the official verifier of webhook signatures), openai (OpenAI's own client, against
# /v1/audio/transcriptions), espeak-ng (speech in other languages than the shared English samples,
# for the language detection tests), sox (the quality guard's noise, music and sped-up speech,
# scripts/make-quality-audio.sh).
# Idempotent.
set -euo pipefail
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v openssl >/dev/null || missing+=(openssl)
command -v espeak-ng >/dev/null || missing+=(espeak-ng)
command -v sox >/dev/null || missing+=(sox)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing test tools: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! python3 -c "import socketio, websocket" 2>/dev/null; then
  echo "installing python-socketio"
  python3 -m pip install -q --disable-pip-version-check "python-socketio[client]" websocket-client
fi
# A maintained validator of OpenAPI 3.1 documents, for docs/openapi.json.
if ! python3 -c "import openapi_spec_validator" 2>/dev/null; then
  echo "installing openapi-spec-validator"
  python3 -m pip install -q --disable-pip-version-check "openapi-spec-validator==0.9.0"
fi
# The official Standard Webhooks verifier, which checks the gateway's webhook signatures.
if ! python3 -c "import standardwebhooks" 2>/dev/null; then
  echo "installing standardwebhooks"
  python3 -m pip install -q --disable-pip-version-check "standardwebhooks==1.1.0"
fi
# OpenAI's official Python client, which the OpenAI-compatible endpoint is tested with.
if ! python3 -c "import openai" 2>/dev/null; then
  echo "installing openai"
  python3 -m pip install -q --disable-pip-version-check "openai==3.57.0"
fi
# A feed parser from a registry, to read the podcast feeds as podcast apps do.
if ! python3 -c "import feedparser" 2>/dev/null; then
  echo "installing feedparser"
  python3 -m pip install -q --disable-pip-version-check "feedparser==6.0.14"
fi
# The official MCP SDK, as the client of the Vault's MCP server.
if ! python3 -c "import mcp" 2>/dev/null; then
  echo "installing mcp"
  python3 -m pip install -q --disable-pip-version-check "mcp==1.30.0"
fi
# The OpenID provider (npm's oidc-provider) the OIDC tests sign in against.
"$(dirname "$0")/oidc-provider/install.sh"

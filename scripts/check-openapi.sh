#!/usr/bin/env bash
# Checks docs/openapi.json: that it is what the code generates now (`make openapi` writes it),
# and that it is a valid OpenAPI 3.1 document by a maintained validator (openapi-spec-validator,
# installed by scripts/install-test-tools.sh). `--write` regenerates it instead of checking.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
committed="docs/openapi.json"
generated="$(mktemp)"
trap 'rm -f "$generated"' EXIT
# SCRIBEVAULT_BIN: a scribevault binary already built (CI passes the test build's, which
# `cargo run -p scribevault` would build again with other features).
if [ -n "${SCRIBEVAULT_BIN:-}" ]; then
  "$SCRIBEVAULT_BIN" openapi > "$generated"
else
  cargo run --quiet -p scribevault -- openapi > "$generated"
fi
if [ "${1:-}" = "--write" ]; then
  cp "$generated" "$committed"
  echo "wrote $committed"
  exit 0
fi
if ! cmp -s "$generated" "$committed"; then
  diff -u "$committed" "$generated" | head -40 || true
  echo "$committed is stale: run 'make openapi' and commit it (the SPA's types are generated from it)"
  exit 1
fi
python3 - "$committed" <<'PY'
import json, sys
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

spec, _ = read_from_filename(sys.argv[1])
validate(spec)
print(f"{sys.argv[1]}: valid OpenAPI {spec['openapi']}, {len(spec['paths'])} paths, "
      f"{len(spec['components']['schemas'])} schemas")
PY

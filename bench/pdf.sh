#!/usr/bin/env bash
# PDF → markdown benchmark: makes the PDFs (reportlab, Chromium), installs the Python converters
# in a venv, builds our converter and compares them in one session.
#   bench/pdf.sh [PAGES_OF_LONG_PDF]    (default 160 chapters ≈ 110 pages)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
scripts/install-pdf-tools.sh --with-python
venv="$(scripts/install-pdf-tools.sh --print-venv)"
# pymupdf4llm 2.x is an empty shim (its code moved into pymupdf 2.x); 1.27 is the last whole one
# without the ONNX layout model.
"$venv/bin/python" -c "import pymupdf4llm, markitdown" 2>/dev/null \
  || "$venv/bin/pip" install -q --disable-pip-version-check "pymupdf4llm<1.28" "markitdown[pdf]"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" scripts/make-pdf-fixtures.py "$work/pdfs" --long "${1:-160}"
cargo bench -q -p scribevault-conversion --bench pdf_convert --no-run
bin="$(ls -t "$CARGO_TARGET_DIR"/release/deps/pdf_convert-* | grep -v '\.d$' | head -1)"
files=()
for name in long headings-lists two-columns hyphenated scanned chromium; do files+=("$work/pdfs/$name.pdf"); done
mkdir -p bench/results
PDF_CONVERT_BIN="$bin" "$venv/bin/python" bench/pdf_compare.py "${PDF_RESULT:-bench/results/pdf-latest.json}" "$work" "${files[@]}" >/dev/null
cat "${PDF_RESULT:-bench/results/pdf-latest.json}"

#!/usr/bin/env bash
# Installs what PDF conversion needs, idempotently: poppler-utils (pdftoppm renders pages for
# OCR; pdftotext is the tests' reference) and tesseract with its English data. Prints nothing
# when they are there.
#   --with-python   also a venv with reportlab and pillow, which make the PDF fixtures
#                   (scripts/make-pdf-fixtures.py) and the benchmark's PDFs
#   --print-venv    prints that venv's path
set -euo pipefail
venv="${XDG_CACHE_HOME:-$HOME/.cache}/scribevault/pdf-venv"
if [ "${1:-}" = "--print-venv" ]; then
  echo "$venv"
  exit 0
fi
missing=()
if ! command -v pdftoppm >/dev/null || ! command -v pdftotext >/dev/null; then missing+=(poppler-utils); fi
if ! command -v tesseract >/dev/null; then missing+=(tesseract-ocr); fi
if ! compgen -G "/usr/share/tesseract-ocr/*/tessdata/eng.traineddata" >/dev/null; then missing+=(tesseract-ocr-eng); fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = "--with-python" ] && ! "$venv/bin/python" -c "import reportlab, PIL" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check reportlab pillow
fi

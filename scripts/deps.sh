#!/usr/bin/env bash
# The one list of Debian (bookworm) packages Steppe needs to build, test and run
# (docs/dependencies.md says why each is there). Installs only what is missing, with
# `apt-get update` first only when something is missing. Run as root (or with sudo).
# Other parts of the project append their packages to PACKAGES below.
set -euo pipefail

PACKAGES=(
  # build
  build-essential cmake g++ git pkg-config ccache
  # libraries
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev libsqlite3-dev libboost-dev
  # PostgreSQL store shared by several server instances (client library; the server binaries
  # for the throw-away cluster the tests start, docs/deploy.md)
  libpqxx-dev postgresql
  # formatting, static analysis, fuzzing (clang + libFuzzer runtime)
  clang clang-format clang-tidy libclang-rt-14-dev
  # web UI build and data tools
  nodejs npm python3
  # map pictures (steppe-mapgen render SVG -> PNG via rsvg-convert)
  librsvg2-bin
  # browser tests (web/tests/run-browser-tests.sh: headless Chromium driven by npm playwright-core)
  chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then continue; fi
  # A tool provided otherwise (e.g. npm inside NodeSource's nodejs, which conflicts with
  # Debian's npm package) counts as installed.
  if command -v "$p" >/dev/null 2>&1; then continue; fi
  missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "deps: missing packages (${missing[*]}) and not root: run scripts/deps.sh as root" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"

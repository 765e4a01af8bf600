#!/usr/bin/env bash
# Set up everything on a fresh Debian bookworm machine (as root) and run the main job:
# `steppe serve` on localhost with its SQLite store. Extra arguments go to `steppe serve`
# (see `build/src/cli/steppe serve --help`).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh
JOBS="${JOBS:-$(nproc)}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$JOBS" --target steppe

if [ -f scripts/build-web.sh ]; then
  bash scripts/build-web.sh
fi

if ! build/src/cli/steppe serve --help >/dev/null 2>&1; then
  echo "run.sh: this build of steppe has no 'serve' command yet (the server is not finished); nothing to run" >&2
  exit 1
fi
exec build/src/cli/steppe serve "$@"

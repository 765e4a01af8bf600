#!/usr/bin/env bash
# Builds the browser UI (web/ -> web/dist) for `steppe serve`: runs `npm ci` when
# node_modules is missing or older than package-lock.json, and `npm run build` when dist
# is missing or older than any source. Usage: scripts/build-web.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/../web"
force=0
[[ "${1:-}" == "--force" ]] && force=1
if ! command -v npm >/dev/null; then
  echo "build-web: npm is not installed (Debian: apt-get install npm)" >&2
  exit 1
fi
if [[ $force == 1 || ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "build-web: npm ci"
  # npm 11 here writes lock files without the other platforms' optional rollup/esbuild
  # packages and then refuses them in `npm ci` ("Missing: @rollup/rollup-android-... from
  # lock file"); `npm install` resolves the same locked versions, so fall back to it.
  if ! npm ci --no-audit --no-fund; then
    echo "build-web: npm ci refused the lock file; falling back to npm install (same locked versions)" >&2
    npm install --no-audit --no-fund
  fi
fi
newest_src=$(find src index.html vite.config.ts tsconfig.json package.json -type f -newer dist/index.html 2>/dev/null | head -1 || true)
if [[ $force == 1 || ! -f dist/index.html || -n "$newest_src" ]]; then
  echo "build-web: vite build"
  npm run build --silent
else
  echo "build-web: web/dist is up to date"
fi

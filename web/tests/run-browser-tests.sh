#!/usr/bin/env bash
# Runs the browser tests: builds the UI if needed, starts `steppe serve` on a free loopback
# port with a temporary database, runs web/tests/browser.test.mjs in headless Chromium
# (Debian's chromium + npm playwright-core), stops the server.
# Usage: web/tests/run-browser-tests.sh [path/to/steppe] [--screenshots DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
steppe="${1:-}"
shots=""
if [[ "${2:-}" == "--screenshots" ]]; then shots="$3"; fi
if [[ -z "$steppe" ]]; then
  for b in "$root"/build*/src/cli/steppe; do [[ -x "$b" ]] && steppe="$b" && break; done
fi
if [[ -z "$steppe" || ! -x "$steppe" ]]; then
  echo "run-browser-tests: no steppe binary (build it, or pass its path)" >&2
  exit 1
fi
if [[ ! -x /usr/bin/chromium ]]; then
  echo "run-browser-tests: /usr/bin/chromium is missing (apt-get install chromium; scripts/deps.sh lists it)" >&2
  exit 1
fi
"$root/scripts/build-web.sh"
tmp="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$steppe" serve --host 127.0.0.1 --port "$port" --db "$tmp/steppe.db" --web "$root/web/dist" >"$tmp/serve.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  grep -q "serving on" "$tmp/serve.log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
  sleep 0.1
done
cd "$root/web"
STEPPE_URL="http://127.0.0.1:$port" STEPPE_SCREENSHOTS="$shots" node --test ${BROWSER_TEST_PATTERN:+--test-name-pattern="$BROWSER_TEST_PATTERN"} tests/browser.test.mjs

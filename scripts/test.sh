#!/usr/bin/env bash
# The whole check, as CI runs it (.ci/run): installs what is missing, builds Release and
# an ASan+UBSan Debug build, runs ctest on both, builds the web UI and runs its unit tests
# (vitest) and browser tests (headless Chromium against a real `steppe serve`), checks
# clang-format over src/ tests/ bench/ fuzz/ tools/ and clang-tidy over src/ tools/
# (scripts/tidy.sh), and runs each fuzz target briefly.
# Exits non-zero on any failure (every stage runs even after a failure, so one run shows
# everything that is wrong); the last line counts every test run: `N passed, N failed`.
#   JOBS=N          parallel build/test jobs (default 2)
#   FUZZ_SECONDS=N  seconds per fuzz target (default 20; 0 skips fuzzing)
#   SKIP_ASAN=1     skip the sanitizer build (local quick runs only)
set -uo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-2}"
FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
failed=()
start_all=$(date +%s)
passed_total=0
failed_total=0
log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT

count() {  # count READ PASSED FAILED: adds a stage's test counts to the closing line; an
  # empty READ (the runner's summary was not found) counts one failure and fails the stage
  if [ -z "$1" ]; then
    failed_total=$((failed_total + 1))
    echo "test.sh: could not read the test count above" >&2
    return 1
  fi
  passed_total=$((passed_total + $2))
  failed_total=$((failed_total + $3))
}

ctest_counted() {  # ctest_counted ARGS...: runs ctest, shows its output, counts its tests
  local out="$log_dir/ctest.out" rc total bad
  ctest "$@" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  # "100% tests passed, 0 tests failed out of 239"
  read -r bad total < <(sed -nE 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p' "$out" | tail -1)
  count "${total:-}" "$((${total:-0} - ${bad:-0}))" "${bad:-0}" || return 1
  return "$rc"
}

stage() {  # stage NAME COMMAND...: runs a stage, records its time and a failure
  local name="$1"; shift
  local t0; t0=$(date +%s)
  echo "=== $name"
  if "$@"; then
    echo "=== $name: ok ($(( $(date +%s) - t0 )) s)"
  else
    echo "=== $name: FAILED ($(( $(date +%s) - t0 )) s)"
    failed+=("$name")
  fi
}

bash scripts/deps.sh || { echo "test.sh: cannot install dependencies" >&2; exit 1; }

# ccache (scripts/deps.sh installs it): on a machine that built Steppe before, in any clone,
# unchanged sources are not compiled again. Paths are taken relative to the clone
# (CCACHE_BASEDIR) and the working directory is left out of the hash of debug builds
# (CCACHE_NOHASHDIR), so two clones in different folders share their objects.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

release() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null &&
    nice cmake --build build -j"$JOBS" &&
    ctest_counted --test-dir build -j"$JOBS" --output-on-failure --timeout 600
}

# Debug information in the sanitizer and fuzz builds is line tables only (-g1): a report's stack
# trace keeps its files and lines, and compiling takes about a quarter less CPU (service.cpp
# 34.6 -> 25.6 s, bd/combat.cpp 10.9 -> 8.1 s under ASan; objects half the size), which the
# 30-minute budget of the whole run needs.
# The sanitizers run the unit tests. The end-to-end tests that drive the real `steppe serve`
# through whole games over HTTP (InstalledGames.*: the fog guards and the real-binary checks)
# test what the server sends, not memory; they run in the release stage, and under ASan they
# took about 570 of the stage's 860 s of tests.
# ServerUnderAttack.* run a server with no file descriptor left, on purpose (issue 21,
# defect 2). The sanitizers cannot check such a process: GCC's UBSan starts lazily, at its
# first check that misses its cache, and its vptr check reads a vtable only after probing
# the memory through a pipe (libsanitizer's IsAccessibleMemoryRange); with no descriptor
# for the pipe a valid shared_ptr control block is reported as an "invalid vptr" ("memory
# cannot be printed"), and no suppression file can be read then either. They run in the
# release stage, where what they test (no spinning, recovery) is measured.
ASAN_EXCLUDE='^(InstalledGames|ServerUnderAttack)\.'
asan() {
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSTEPPE_SANITIZE=ON -DSTEPPE_BENCH=OFF \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 "${launcher[@]}" >/dev/null &&
    nice cmake --build build-asan -j"$JOBS" &&
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest_counted --test-dir build-asan -j"$JOBS" --output-on-failure --timeout 900 -E "$ASAN_EXCLUDE"
}

node_counted() {  # node_counted COMMAND...: runs a node test runner, counts "# pass N"/"# fail N"
  local out="$log_dir/node.out" rc p f
  "$@" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  p=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$out" | tail -1)
  f=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$out" | tail -1)
  count "$p" "${p:-0}" "${f:-0}" || return 1
  return "$rc"
}

web_unit() {  # the UI's TypeScript unit tests (vitest), after `npm ci` and a type-checked build
  bash scripts/build-web.sh || return 1
  local out="$log_dir/vitest.out" rc p f
  (cd web && NO_COLOR=1 npx vitest run --reporter=default) 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  # "      Tests  5 passed (5)" or "Tests  1 failed | 4 passed (5)"; colour codes removed first
  # (vitest colours its summary when CI=true even into a pipe).
  sed -i -E 's/\x1b\[[0-9;]*m//g' "$out"
  p=$(sed -nE 's/.*Tests .* ([0-9]+) passed.*/\1/p' "$out" | tail -1)
  f=$(sed -nE 's/.*Tests +([0-9]+) failed.*/\1/p' "$out" | tail -1)
  count "$p$f" "${p:-0}" "${f:-0}" || return 1
  return "$rc"
}

browser() {  # real Chromium against a real `steppe serve` (web/tests/run-browser-tests.sh)
  node_counted bash web/tests/run-browser-tests.sh build/src/cli/steppe
}

format_check() {
  local files
  files=$(find src tests bench fuzz tools \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) \
            -not -path '*/node_modules/*' 2>/dev/null | sort)
  [ -z "$files" ] && return 0
  # shellcheck disable=SC2086
  clang-format --dry-run --Werror $files
}

fuzz() {
  [ "$FUZZ_SECONDS" = "0" ] && { echo "fuzzing skipped (FUZZ_SECONDS=0)"; return 0; }
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEPPE_FUZZ=ON \
    -DSTEPPE_BENCH=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" "${launcher[@]}" >/dev/null &&
    nice cmake --build build-fuzz -j"$JOBS" --target fuzz_all || return 1
  local ok=0 t
  for t in fuzz_json_data fuzz_scenario_parser fuzz_save_load fuzz_action_parser fuzz_position_load fuzz_server; do
    local work="build-fuzz/corpus-$t"
    mkdir -p "$work" build-fuzz/artifacts
    echo "--- $t (${FUZZ_SECONDS}s)"
    if ! "build-fuzz/fuzz/$t" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 -rss_limit_mb=2048 \
        -artifact_prefix=build-fuzz/artifacts/ "$work" "fuzz/corpus/${t#fuzz_}" 2>"build-fuzz/$t.log"; then
      echo "$t FOUND A CRASH:"; tail -40 "build-fuzz/$t.log"; ok=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build-fuzz/$t.log" | sed "s/^/  /"
  done
  return $ok
}

# The rule coverage reports (docs/coverage/GAME.md) are regenerated by a local run; in CI
# (CI=true) they are not, so ctest's coverage.GAME tests fail when a commit left one stale.
coverage_reports() {
  local g
  for g in bd moscow41; do python3 tools/coverage.py "$g" || return 1; done
}
if [ "${CI:-}" != "true" ]; then stage "coverage reports" coverage_reports; fi
stage "release build + ctest" release
if [ "${SKIP_ASAN:-0}" != "1" ]; then stage "asan+ubsan build + ctest" asan; fi
stage "web unit tests" web_unit
stage "browser tests" browser
stage "clang-format" format_check
stage "clang-tidy" bash scripts/tidy.sh build
stage "fuzz" fuzz

echo "=== total $(( $(date +%s) - start_all )) s"
status=0
if [ ${#failed[@]} -gt 0 ]; then
  echo "test.sh: FAILED: ${failed[*]}"
  status=1
  # A failed stage that ran no counted test (a build, the format check) still counts once.
  [ "$failed_total" -eq 0 ] && failed_total=${#failed[@]}
else
  echo "test.sh: all stages passed"
fi
echo "$passed_total passed, $failed_total failed"
exit "$status"

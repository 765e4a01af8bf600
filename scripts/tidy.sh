#!/usr/bin/env bash
# clang-tidy (root .clang-tidy) over every C++ source of src/ and tools/, using the
# compile commands of a configured build directory (default build/, as scripts/test.sh
# leaves it). Exits non-zero on any finding. Usage: scripts/tidy.sh [BUILD_DIR]
#   JOBS=N  files checked in parallel (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
JOBS="${JOBS:-2}"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy: $build/compile_commands.json is missing (configure with cmake first)" >&2
  exit 1
fi
# A file whose preprocessed input, flags, configuration and clang-tidy version are those of
# a run that found it clean is not checked again (scripts/tidy_cached.py; the cache is in
# ~/.cache/steppe-tidy). TIDY_NO_CACHE=1 checks every file.
if [ "${TIDY_NO_CACHE:-0}" != "1" ]; then
  exec python3 scripts/tidy_cached.py "$build" "$JOBS"
fi
log="$build/tidy.log"
# GCC-only warning flags in the compile commands are unknown to clang: not a finding.
set +e
find src tools -name '*.cpp' -not -path '*/node_modules/*' | sort |
  xargs -P"$JOBS" -n4 clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option >"$log" 2>/dev/null
rc=$?
set -e
if grep -E "(warning|error):" "$log"; then
  echo "tidy: findings above (full output: $log)" >&2
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "tidy: clang-tidy failed (exit $rc; output: $log)" >&2
  exit 1
fi
echo "tidy: clean ($(find src tools -name '*.cpp' | wc -l) files)"

#!/usr/bin/env bash
# cli_expect.sh RC REGEX COMMAND...: runs COMMAND, passes if its exit code is RC ("nonzero"
# for any failure that is not a crash) and its stdout+stderr match the extended REGEX.
# A crash (signal, or exit >= 128) or the CLI's internal-error exit (70) always fails.
set -u
want_rc="$1"; regex="$2"; shift 2
out=$("$@" 2>&1 </dev/null); rc=$?
echo "$out" | head -40
echo "exit code: $rc"
if [ "$rc" -ge 128 ] || [ "$rc" -eq 70 ]; then echo "FAIL: crashed or internal error"; exit 1; fi
case "$want_rc" in
  nonzero) [ "$rc" -ne 0 ] || { echo "FAIL: expected a non-zero exit"; exit 1; } ;;
  any) ;;
  *) [ "$rc" -eq "$want_rc" ] || { echo "FAIL: expected exit $want_rc"; exit 1; } ;;
esac
echo "$out" | grep -Eq -- "$regex" || { echo "FAIL: output does not match /$regex/"; exit 1; }
exit 0

#!/usr/bin/env bash
# cli_play.sh STEPPE: `steppe play` in the terminal: the situation is shown when a side's
# turn begins (stacks by hex, markers, reinforcements), `find` lists the actions naming a
# word, `sit` shows the situation again, and a number plays an action.
set -u
steppe="$1"
out=$(printf 'find order\nsit\n1\nquit\n' | timeout 60 "$steppe" play bd citadel --seed 1 2>&1)
rc=$?
echo "$out" | head -80
fail() { echo "FAIL: $1"; exit 1; }
[ "$rc" -eq 0 ] || fail "exit code $rc"
echo "$out" | grep -q "^Game Turn 19 (Aug 43), phase soviet-order" || fail "no situation header"
echo "$out" | grep -Eq "^  1011: LPMA 23A 42A 55A 67A$" || fail "no Soviet stack at Leningrad"
echo "$out" | grep -q "^reinforcements: GT20: LCFC;" || fail "no reinforcement track"
echo "$out" | grep -q "^2 action(s)$" || fail "find order did not list the two orders"
[ "$(echo "$out" | grep -c '^Game Turn 19 (Aug 43), phase soviet-order')" -eq 2 ] || fail "sit did not show it again"
echo "$out" | grep -q "^soviet: order move-fight$" || fail "action 1 was not played"
exit 0

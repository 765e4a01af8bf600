#!/usr/bin/env bash
# cli_play_fog.sh STEPPE: `steppe play` shows each player only his own view, as the browser
# does (BD 11.7, Moscow '41 1.5): against an agent, the agent's actions are printed as the
# human's seat sees them (the notation of a hidden move would name the hidden unit), `log`
# likewise; a hot-seat game says whose view is shown.
set -u
steppe="$1"
fail() { echo "FAIL: $1"; exit 1; }
# BD: the Soviet agent plays its Citadel turn; the German human then asks for the log.
out=$(printf 'log\nquit\n' | timeout 120 "$steppe" play bd citadel --agent random --side 1 --seed 3 2>&1)
rc=$?
[ "$rc" -eq 0 ] || { echo "$out" | tail -20; fail "bd: exit code $rc"; }
echo "$out" | grep -m3 "^soviet (random):"
# Soviet moves, RVGK moves and set-ups reach the German only as the events 11.7 allows.
if echo "$out" | grep -Eq "^soviet( \(random\))?: (move|strategic|rvgk-in|rvgk-out|emergency-rvgk|attach|enter|convert) "; then
  echo "$out" | grep -E "^soviet( \(random\))?: (move|strategic|rvgk-in|rvgk-out|emergency-rvgk|attach|enter|convert) " | head -5
  fail "bd: a hidden Soviet action printed to the German"
fi
echo "$out" | grep -q "^soviet (random): (an action hidden from you)$" || fail "bd: no hidden Soviet action shown as such"
echo "$out" | grep -q "^(the log as german sees it)$" || fail "bd: log does not say whose view it is"
# Hot-seat: the screen says whose view it shows.
out=$(printf '1\nquit\n' | timeout 60 "$steppe" play bd citadel --seed 1 2>&1)
echo "$out" | grep -q "^(hot-seat: soviet's view is shown)$" || fail "bd: hot-seat does not say whose view is shown"
# Moscow '41: the agent's hidden block moves never name the block to the human (1.5).
if "$steppe" games 2>/dev/null | grep -q "^moscow41"; then
  out=$(printf 'log\nquit\n' | timeout 120 "$steppe" play moscow41 campaign --agent random --side 0 --seed 3 2>&1)
  rc=$?
  [ "$rc" -eq 0 ] || { echo "$out" | tail -20; fail "moscow41: exit code $rc"; }
  echo "$out" | grep -m3 "(random):"
  echo "$out" | grep -q "(random): (an action hidden from you)$" || fail "moscow41: no hidden agent action shown as such"
fi
exit 0

#!/usr/bin/env bash
# cli_roundtrip.sh STEPPE: new -> actions -> apply (legal and illegal) -> replay -> selfplay
# on the first installed game. Exit 77 (skipped) while no game is installed.
set -eu
steppe="$1"
game=$("$steppe" games | head -1 | cut -f1)
if [ "$game" = "no game is installed" ] || [ -z "$game" ]; then echo "no game is installed: skipped"; exit 77; fi
scen=$("$steppe" scenarios "$game" | head -1 | cut -f1)
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
save="$dir/g.json"
"$steppe" new "$game" "$scen" --seed 5 -o "$save"
first=$("$steppe" actions "$save" | head -1)
[ -n "$first" ] || { echo "FAIL: no legal actions at the start"; exit 1; }
h0=$("$steppe" replay "$save")
"$steppe" apply "$save" "$first"
h1=$("$steppe" replay "$save")
[ "$h0" != "$h1" ] || echo "note: the first action did not change the hash"
cp "$save" "$dir/before.json"
if "$steppe" apply "$save" "this is not an action 123" 2>"$dir/err"; then echo "FAIL: garbage action accepted"; exit 1; fi
cat "$dir/err"
cmp "$save" "$dir/before.json" || { echo "FAIL: the save changed after a refused action"; exit 1; }
# Tampered rules hash: refused with the clear message.
sed 's/"rules_hash": *"[^"]*"/"rules_hash": "0000other"/' "$save" > "$dir/other.json"
if "$steppe" replay "$dir/other.json" 2>"$dir/err2"; then echo "FAIL: other rules data accepted"; exit 1; fi
grep -q "made with other rules data" "$dir/err2" || { cat "$dir/err2"; echo "FAIL: unclear message"; exit 1; }
"$steppe" selfplay "$game" "$scen" --seed 3 --agents random --max-actions 300 -o "$dir/self.json" > "$dir/summary.json"
grep -q '"final_hash"' "$dir/summary.json" || { cat "$dir/summary.json"; echo "FAIL: no summary"; exit 1; }
"$steppe" replay "$dir/self.json" > "$dir/replayed"
grep -q "$(cat "$dir/replayed")" "$dir/summary.json" || { echo "FAIL: replayed hash differs from selfplay's"; exit 1; }
echo "ok: $game/$scen"

#!/usr/bin/env bash
# The refactor guardrail (issue 19): the final state hash of a random self-play game for
# every scenario of every installed game, seeds 1-5, one line each. A refactor must leave
# this list unchanged (diff it before and after), or explain each change by a rule fix.
#   scripts/selfplay-hashes.sh [path/to/steppe] > hashes.txt
set -euo pipefail
steppe="${1:-build/src/cli/steppe}"
for game in $("$steppe" games | cut -f1); do
  for scenario in $("$steppe" scenarios "$game" 2>/dev/null | cut -f1); do
    for seed in 1 2 3 4 5; do
      hash=$("$steppe" selfplay "$game" "$scenario" --seed "$seed" --agents random |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["final_hash"], j["actions"], j.get("winner"))')
      echo "$game $scenario $seed $hash"
    done
  done
done

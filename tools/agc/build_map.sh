#!/bin/sh
# Rebuilds data/agc/map.json and docs/maps/agc.png from geography (tools/geo, unchanged).
# STEPPE: the steppe CLI (default build/src/cli/steppe).
set -e
cd "$(dirname "$0")/../.."
STEPPE=${STEPPE:-build/src/cli/steppe}
python3 tools/agc/make_grid.py
"$STEPPE" mapgen agc --root . -o /tmp/agc-base.json
python3 tools/agc/build_map.py /tmp/agc-base.json
python3 tools/agc/render_map.py /tmp/agc.svg
rsvg-convert -w 2000 /tmp/agc.svg -o docs/maps/agc.png

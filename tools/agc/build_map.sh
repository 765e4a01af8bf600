#!/bin/sh
# Rebuilds data/agc/map.json and docs/maps/agc.png from geography (tools/geo, unchanged).
# MAPGEN: the map generator tool (default build/tools/geo/steppe-mapgen).
set -e
cd "$(dirname "$0")/../.."
MAPGEN=${MAPGEN:-build/tools/geo/steppe-mapgen}
python3 tools/agc/make_grid.py
"$MAPGEN" generate agc --root . -o /tmp/agc-base.json
python3 tools/agc/build_map.py /tmp/agc-base.json
python3 tools/agc/render_map.py /tmp/agc.svg
rsvg-convert -w 2000 /tmp/agc.svg -o docs/maps/agc.png

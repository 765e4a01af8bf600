#!/usr/bin/env bash
# Installs the GIS packages (Debian) and re-creates data/geo/*.json. Never needed to build
# or test Steppe: the extracts are committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v gmt >/dev/null || [ ! -e /usr/share/ferret-vis/data/etopo5.cdf ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    gmt gmt-gshhg-high ferret-datasets
fi
python3 tools/geo/extract.py

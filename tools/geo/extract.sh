#!/usr/bin/env bash
# Installs the GIS packages (Debian) at the versions data/geo/SOURCES.md records, and npm and
# python3 if missing, then re-creates data/geo/*.json with tools/geo/extract.py, which checks
# every input against the sha256 in SOURCES.md first. Never needed to build or test Steppe:
# the extracts are committed.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Keep in step with data/geo/SOURCES.md ("Pinned package versions").
pinned=(gmt=6.4.0+dfsg-2 gmt-common=6.4.0+dfsg-2 gmt-gshhg-high=2.3.7-6 ferret-datasets=7.6.0-5)

to_install=()
for p in "${pinned[@]}"; do
  name=${p%%=*}
  want=${p#*=}
  have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)
  if [ "$have" != "$want" ]; then
    to_install+=("$p")
  fi
done
command -v npm >/dev/null || to_install+=(npm)
command -v python3 >/dev/null || to_install+=(python3)

if [ ${#to_install[@]} -gt 0 ]; then
  echo "installing: ${to_install[*]}"
  apt-get update -qq
  # --allow-downgrades: a newer installed version would give different extracts.
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends --allow-downgrades \
    "${to_install[@]}"
fi

python3 tools/geo/extract.py

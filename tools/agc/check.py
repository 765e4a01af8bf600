#!/usr/bin/env python3
"""Checks data/agc: every hex a hexside, road, railway, place or region names exists; the map
and every overlay record is marked reconstructed with a source; every set-up unit (when
scenarios exist) is in the counter mix. Exit 1 with the failures listed."""
import json, os, glob, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = os.path.join(ROOT, "data", "agc")
bad = []
m = json.load(open(os.path.join(D, "map.json")))
ids = {h["id"] for h in m["hexes"]}
if not (m.get("reconstructed") and m.get("source")): bad.append("map.json: not marked reconstructed with a source")
for s in m["hexsides"]:
    for h in s["hexes"]:
        if h not in ids: bad.append("hexside %s: hex %s missing" % (s["hexes"], h))
for r in m["roads"] + m["railways"]:
    for h in r["hexes"]:
        if h not in ids: bad.append("road/railway hex %s missing" % h)
for n, h in m["place_hexes"].items():
    if h not in ids: bad.append("place %s: hex %s missing" % (n, h))
for n, hs in m["regions"].items():
    for h in hs:
        if h not in ids: bad.append("region %s: hex %s missing" % (n, h))
for f in glob.glob(os.path.join(D, "geo", "*.json")) + [os.path.join(D, "grid.json")]:
    j = json.load(open(f))
    if not (j.get("reconstructed") and j.get("source")): bad.append("%s: no reconstructed/source" % f)
    for k in ("cities", "lines", "zones", "river_names"):
        for rec in (j.get(k) if isinstance(j.get(k), list) else []):
            if not rec.get("source"): bad.append("%s: %s %s has no source" % (f, k, rec.get("name")))
cpath = os.path.join(D, "counters.json")
units = {u["id"] for u in json.load(open(cpath))["units"]} if os.path.exists(cpath) else set()
for sc in glob.glob(os.path.join(D, "scenarios", "*.json")):
    for e in json.load(open(sc)).get("setup", []):
        if e["unit"] not in units: bad.append("%s: unit %s not in counters.json" % (sc, e["unit"]))
        if "hex" in e and e["hex"] not in ids: bad.append("%s: hex %s missing" % (sc, e["hex"]))
print("data/agc: %d hexes, %d hexsides, %d roads, %d railways, %d places checked" % (len(ids), len(m["hexsides"]), len(m["roads"]), len(m["railways"]), len(m["place_hexes"])))
for b in bad[:50]: print("FAIL", b)
sys.exit(1 if bad else 0)

#!/usr/bin/env python3
"""Schema sanity of The Dark Valley data (data/dv/): run from the repo root.

    python3 tools/dv/check.py

Checks that every hex a file names exists on data/dv/map.json, every unit a set-up names
exists in counters.json (once per scenario), every reconstructed item has a source, every
`rule` cites a numbered section of data/dv/sections.json, the tables are complete (CRT cells,
44 turns), and the set-ups keep 5.3's stacking (4 combat units, 2 armies, 3 corps a hex) on
land their side controls. Prints one line per problem and exits 1 if there is any.
"""
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
D = os.path.join(ROOT, "data", "dv")
problems = []


def load(name):
    with open(os.path.join(D, name), encoding="utf-8") as f:
        return json.load(f)


def bad(where, msg):
    problems.append(f"data/dv/{where}: {msg}")


sections = {s["number"] for s in load("sections.json")["sections"]}
SECTION = re.compile(r"(?<![\d.\-])(\d{1,2}\.\d{1,2}(?:\.\d{1,2}){0,2})(?![\d\-])")


def check_rule(where, rule):
    """A `rule` names one or more sections; each must be a section of the rulebook."""
    if not isinstance(rule, str):
        bad(where, f"rule is not a string: {rule!r}")
        return
    cited = SECTION.findall(rule.split("(")[0])
    if not cited and not rule.startswith(("1", "2", "3", "4", "5", "6", "7", "8", "9")):
        return
    for n in cited:
        if n not in sections:
            bad(where, f"rule cites {n}, which is not a section of sections.json")


def walk_items(where, x, path=""):
    """Every object that says reconstructed: true needs a source; every rule must cite sections."""
    if isinstance(x, dict):
        if x.get("reconstructed") is True and not x.get("source"):
            bad(where, f"{path or '/'} is reconstructed but has no source")
        if "rule" in x:
            check_rule(f"{where} {path}", x["rule"])
        for k, v in x.items():
            walk_items(where, v, f"{path}/{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            walk_items(where, v, f"{path}/{i}")


mp = load("map.json")
hexes = {h["id"]: h for h in mp["hexes"]}
land = {i for i, h in hexes.items() if h["terrain"] not in ("all-sea", "all-lake")}


def need_hex(where, h):
    if h not in hexes:
        bad(where, f"hex {h} is not on the map")
        return False
    return True


files = sorted(f for f in os.listdir(D) if f.endswith(".json")) + sorted(
    "scenarios/" + f for f in os.listdir(os.path.join(D, "scenarios")) if f.endswith(".json"))
for name in files:
    doc = load(name)
    if name in ("map.json", "sections.json"):
        continue
    if not (doc.get("reconstructed") is True and doc.get("source")) and "rule" not in doc:
        bad(name, "the file says neither reconstructed (with a source) nor the rule it copies")
    walk_items(name, doc)

# grid and fixes
grid = load("grid.json")
for a in grid["fit"]["anchors"]:
    need_hex("grid.json fit/anchors", a["hex"])
    if mp["place_hexes"].get(a["name"].split(" (")[0]) not in (None, a["hex"]):
        bad("grid.json", f"anchor {a['name']} is placed in {mp['place_hexes'].get(a['name'])}, not {a['hex']}")
for f in load("map-fixes.json")["fixes"]:
    for h in ([f["hex"]] if "hex" in f else f.get("hexside", [])):
        need_hex("map-fixes.json", h)

# places
places = load("places.json")
for k, h in places["hexes"].items():
    need_hex(f"places.json hexes/{k}", h)
for k, v in places["printed_ids"].items():
    if k not in ("rule", "note"):
        need_hex(f"places.json printed_ids/{k}", v)
if len(places["vp_hexes"]["hexes"]) != 47:
    bad("places.json", f"3.1 has 47 VP hexes, vp_hexes lists {len(places['vp_hexes']['hexes'])}")
for key in ("vp_hexes", "factory_cities", "military_roads", "usir", "river_ports", "gulf_of_finland_ports"):
    for h in places[key]["hexes"]:
        need_hex(f"places.json {key}", h)
        if h in hexes and h not in land:
            bad(f"places.json {key}", f"hex {h} is water")
for key in ("fortified_zones", "defensive_works"):
    for h in places[key]["hexes"]:
        if need_hex(f"places.json {key}", h) and h not in land:
            bad(f"places.json {key}", f"hex {h} is water")
for kind in ("fort", "weak-fort"):
    for side, hs in places["forts"][kind].items():
        for h in hs:
            need_hex(f"places.json forts/{kind}/{side}", h)
for key in ("kerch_straits",):
    for a, b in places[key]["hexsides"]:
        need_hex(f"places.json {key}", a) and need_hex(f"places.json {key}", b)

# counters
units = {}
for u in load("counters.json")["units"]:
    if u["id"] in units:
        bad("counters.json", f"unit id {u['id']} twice")
    units[u["id"]] = u
    if u["side"] not in ("axis", "soviet"):
        bad("counters.json", f"{u['id']}: side {u['side']}")
    if (u["steps"] == 2) != (u["reduced"] is not None):
        bad("counters.json", f"{u['id']}: steps {u['steps']} but reduced {u['reduced']}")
    for k in ("counterpart", "base"):
        if k in u and u[k] not in [x["id"] for x in load("counters.json")["units"]] and k != "base":
            bad("counters.json", f"{u['id']}: {k} {u[k]} is not a unit")
labels = [u["label"].lower() for u in units.values()]
for lab in {x for x in labels if labels.count(x) > 1}:
    bad("counters.json", f"label {lab} is not unique")

# tables
crt = load("crt.json")
for t in ("A", "B"):
    for c in crt["odds_columns"]:
        cells = crt[t].get(c, [])
        if len(cells) != len(crt["roll_rows"]):
            bad("crt.json", f"CRT {t} column {c} has {len(cells)} cells")
        for r in cells:
            if r not in crt["results"]:
                bad("crt.json", f"CRT {t} column {c}: result {r} is not in results")
trt = load("trt.json")
if [t["turn"] for t in trt["turns"]] != list(range(1, 45)):
    bad("trt.json", "turns are not 1..44 (3.2: the game ends with Turn 44)")
for t in trt["turns"]:
    if t["weather"] not in trt["weather_types"]:
        bad("trt.json", f"turn {t['turn']}: weather {t['weather']}")
    if t["initiative"] not in ("axis", "soviet"):
        bad("trt.json", f"turn {t['turn']}: initiative {t['initiative']}")
    for side in ("axis", "soviet"):
        if t["crt"][side] not in ("A", "B"):
            bad("trt.json", f"turn {t['turn']}: CRT {t['crt'][side]}")
    # 10.2: the Axis has the initiative in Fair turns through July 1943 (Turn 24) and Mixed
    # turns through September 1942 (Turn 15); the Soviet in all others.
    want = "axis" if (t["weather"] == "fair" and t["turn"] <= 24) or (t["weather"] == "mixed" and t["turn"] <= 15) else "soviet"
    if t["initiative"] != want:
        bad("trt.json", f"turn {t['turn']}: initiative {t['initiative']}, 10.2 gives {want}")
terrain = load("terrain.json")
for tt in grid["terrain_types"]:
    if tt not in terrain["hex"]:
        bad("terrain.json", f"map terrain {tt} has no TEC line")

# scenarios
ARMY = {"rifle-army", "shock-army", "guards-rifle-army", "guards-tank-army", "minor-army", "communist-minor-army"}
CORPS = {"infantry-corps", "minor-corps", "guards-rifle-corps", "tank-corps", "mech-corps", "mech-corps-1941",
         "guards-tank-corps", "guards-mech-corps", "guards-cavalry-corps", "airborne-corps", "naval-corps",
         "militia-corps", "minor-mech", "minor-cavalry", "minor-mountain", "cavalry"}
OUTSIDE = {"panzer-hq", "stavka-hq", "leader", "artillery", "depot"}  # 5.4
for name in files:
    if not name.startswith("scenarios/"):
        continue
    sc = load(name)
    seen = set()
    stack = {}
    control = sc.get("control_changes", {})
    side_of = {}
    for h, hx in hexes.items():
        c = hx.get("control")
        side_of[h] = "axis" if c == "german" else c
    for s, hs in control.items():
        for h in hs:
            if need_hex(f"{name} control_changes", h):
                side_of[h] = s
    for s in sc["setup"]:
        u = s["unit"]
        if u not in units:
            bad(name, f"set-up unit {u} is not in counters.json")
            continue
        if u in seen:
            bad(name, f"unit {u} is set up twice")
        seen.add(u)
        if "hex" in s:
            h = s["hex"]
            if not need_hex(name, h):
                continue
            if h not in land:
                bad(name, f"{u} is set up in water hex {h}")
            if side_of.get(h) != units[u]["side"]:
                bad(name, f"{u} ({units[u]['side']}) is set up in {h}, controlled by {side_of.get(h)}")
            if units[u]["type"] not in OUTSIDE:
                stack.setdefault(h, []).append(units[u]["type"])
        elif "box" not in s:
            bad(name, f"{u}: neither hex nor box")
    for h, types in stack.items():
        armies = sum(t in ARMY for t in types)
        corps = sum(t in CORPS for t in types)
        if len(types) > 4 or armies > 2 or corps > 3:
            bad(name, f"hex {h} overstacked (5.3): {len(types)} units, {armies} armies, {corps} corps")
    if not 1 <= sc["first_turn"] <= sc["last_turn"] <= 44:
        bad(name, f"turns {sc['first_turn']}..{sc['last_turn']}")

for p in problems:
    print(p)
print(f"tools/dv/check.py: {len(files)} files, {len(units)} units, {len(hexes)} hexes, "
      f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)

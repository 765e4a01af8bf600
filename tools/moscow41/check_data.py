#!/usr/bin/env python3
"""Consistency checks for data/moscow41 (map, roster, scenarios). Exit status 1 on failure.

Checks what the rulebook fixes (175 areas, 12 boxes, 50/70 blocks and their per-colour
counts, the set-up numbers) and that the reconstruction keeps every set-up legal.
"""
import json
import os
import sys
from collections import Counter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "moscow41")
errors = []


def check(cond, msg):
  if not cond:
    errors.append(msg)


m = json.load(open(os.path.join(ROOT, "map.json")))
r = json.load(open(os.path.join(ROOT, "roster.json")))
areas = {a["id"]: a for a in m["areas"]}
check(len(areas) == 175, "2.0: 175 areas expected, got %d" % len(areas))
for n in range(1, 172):
  check(str(n) in areas, "2.0: area %d missing" % n)
for s in ["16A", "9A", "4A", "2A"]:
  check(s in areas and areas[s]["terrain"] == "staging", "2.4.4: staging area %s" % s)
check(len(m["boxes"]) == 12, "2.2: 12 boxes expected")
road = sorted([b for b in m["boxes"] if b["kind"] == "road"], key=lambda b: b["road_index"])
check(len(road) == 10 and road[0]["name"] == "Pskov" and road[-1]["name"] == "Leningrad", "2.2 road ends")
names = [b["name"] for b in road]
check(names.index("Pushkin") == names.index("Novgorod") + 1, "10.9 example: Novgorod then Pushkin")
check("Shlisselburg" in names, "2.2: Shlisselburg on the road")
adj = {a: set() for a in areas}
for c in m["connections"]:
  if "land" in c["types"]:
    check(c["a"] in areas and c["b"] in areas, "connection to unknown area %s-%s" % (c["a"], c["b"]))
    adj[c["a"]].add(c["b"]); adj[c["b"]].add(c["a"])
for a in areas.values():
  check(len(a["polygon"]) >= 3, "area %s polygon" % a["id"])
  check(a["terrain"] in ("green", "yellow", "victory", "staging"), "area %s terrain" % a["id"])
  check(a.get("reconstructed") is True and a.get("source"), "area %s reconstructed/source" % a["id"])
  check(len(adj[a["id"]]) >= 2, "area %s has %d neighbours" % (a["id"], len(adj[a["id"]])))
seen, todo = {"63"}, ["63"]
while todo:
  x = todo.pop()
  for y in adj[x]:
    if y not in seen:
      seen.add(y); todo.append(y)
check(len(seen) == 175, "map is not connected (%d reachable from Moscow)" % len(seen))
vict = sorted(a.get("city", a["name"]) for a in areas.values() if a["terrain"] == "victory")
check(vict == ["Kursk", "Moscow", "Smolensk", "Tula", "Voronezh"], "2.4.3 victory areas: %s" % vict)
check(areas["63"]["name"] == "Moscow", "OR 14.3: Moscow is area 63")
check(areas["70"]["terrain"] == "yellow" and "city" in areas["70"]["features"], "10.14.1: Vyazma Yellow + city")
cities = {a.get("city"): a["id"] for a in areas.values() if a.get("city")}
for c in ["Chernigov", "Romny", "Kaluga", "Kalinin", "Naro-Fominsk", "Mogilev", "Vyazma"]:
  check(c in cities, "city %s missing" % c)
sup = Counter(t for a in areas.values() for t in a["supply"])
check(sup["kiev"] == 7 and sup["shlisselburg"] == 5 and sup["leningrad"] == 5, "2.1 supply icons %s" % sup)
# 2.1/2.2/9.2 (docs/rulings.md): the southern Red Border is exactly the 7 orange areas; the
# south-edge areas west of them (162, 163, 164) are no supply source.
south_edge = sorted((a for a in areas.values() if "south" in a["edges"]), key=lambda a: a["centre"][0])
orange = [a["id"] for a in south_edge if "kiev" in a["supply"]]
check(orange == [a["id"] for a in south_edge[-7:]], "2.2: the 7 orange areas are the eastern end of the south edge")
for a in south_edge[:-7]:
  check(a["supply"] == [], "2.2/9.2: south-edge area %s west of the orange icons is no supply source" % a["id"])
check("95" in adj["100"], "10.3 example: 95 adjacent to 100")
for a in ["66", "67", "89", "90", "100"]:
  check(areas[a]["terrain"] != "staging", "Balkan cross area %s" % a)
check(areas["89"]["terrain"] == "green", "campaign: 3 blocks in 89 need a Green area")

# Rivers (2.4.6, 10.12.5.1): the model of map.json `rivers` (each river's course, the areas
# it passes through with their banks, the borders it forms) is the one truth; the connections'
# "river" type must say the same. A river separates areas; it does not ring a town.
river_pairs = {}
for rv in m["rivers"]:
  check(rv.get("reconstructed") is True and rv.get("source"), "river %s reconstructed/source" % rv.get("name"))
  check("areas" in rv and "borders" in rv, "river %s: no course model (areas it passes, borders it forms)" %
        rv.get("name"))
  rv.setdefault("areas", [])
  rv.setdefault("borders", [])
  for x in rv["areas"]:
    check(x["id"] in areas and x["bank"] in ("left", "right"), "river %s: area %s" % (rv["name"], x))
  for a, b in rv["borders"]:
    check(b in adj.get(a, ()), "river %s: border %s-%s between areas that are not adjacent" % (rv["name"], a, b))
    river_pairs.setdefault(frozenset((a, b)), set()).add(rv["name"])
for c in m["connections"]:
  if "land" in c["types"]:
    names = river_pairs.get(frozenset((c["a"], c["b"])), set())
    check(("river" in c["types"]) == bool(names) and set(c.get("rivers", [])) == names,
          "connection %s-%s: types %s / rivers %s disagree with the river model %s" % (
              c["a"], c["b"], c["types"], c.get("rivers"), sorted(names)))
river_adj = {a: set() for a in areas}
for c in m["connections"]:
  if "land" in c["types"] and "river" in c["types"]:
    river_adj[c["a"]].add(c["b"]); river_adj[c["b"]].add(c["a"])
# Areas whose geography puts a river on all sides but one (the reason is checked by eye on
# the map): nothing else may be so enclosed.
ENCLOSED_BY_GEOGRAPHY = {
    "161": "east of the Don at the map's east edge: the Don separates it from 160 and 171, west of the river",
    "162": "the south-west corner, right bank of the Dnepr: the Dnepr separates it from Kozelets (163); "
           "its other neighbour, 150, is on its own bank",
}
for aid, a in areas.items():
  n = len(adj[aid])
  if river_adj[aid] and len(river_adj[aid]) >= n - 1:
    check(aid in ENCLOSED_BY_GEOGRAPHY, "2.4.6: area %s (%s) has river borders on %d of its %d sides: %s" % (
        aid, a["name"], len(river_adj[aid]), n, sorted(river_adj[aid])))
# Each named river passes the towns it passes in reality (through the town's area).
RIVER_TOWNS = [("Dnepr", "Smolensk"), ("Dnepr", "Mogilev"), ("Desna", "Bryansk"), ("Desna", "Chernigov"),
               ("Volga", "Rzhev"), ("Volga", "Kalinin"), ("Oka", "Kaluga"), ("Oka", "Orel"),
               ("Oka", "Serpukhov"), ("Moskva", "Mozhaysk"), ("Moskva", "Moscow"), ("Don", "Voronezh"),
               ("Ugra", "Yukhnov"), ("Sozh", "Gomel"), ("Seym", "Kursk"), ("Tvertsa", "Torzhok")]
by_place = {}
for aid, a in areas.items():
  for nm in [a["name"], a.get("city")] + a.get("towns", []):
    if nm:
      by_place.setdefault(nm, aid)
rivers_by_name = {rv["name"]: rv for rv in m["rivers"]}
for river, town in RIVER_TOWNS:
  rv = rivers_by_name.get(river)
  check(rv is not None, "river %s missing" % river)
  if rv and town in by_place:
    check(by_place[town] in [x["id"] for x in rv["areas"]],
          "the %s passes %s, but not through its area %s" % (river, town, by_place[town]))
  check(town in by_place, "town %s is in no area" % town)
# The Volga does not run through Torzhok (the Tvertsa does), nor the Don through Kursk.
for river, town in [("Volga", "Torzhok"), ("Don", "Kursk")]:
  if river in rivers_by_name and town in by_place:
    check(by_place[town] not in [x["id"] for x in rivers_by_name[river]["areas"]],
          "the %s does not pass %s" % (river, town))
# Voronezh is on the left (east) bank of the Don: the approach from Kursk crosses it.
for x in rivers_by_name.get("Don", {}).get("areas", []):
  if x["id"] == by_place.get("Voronezh"):
    check(x["bank"] == "left", "Voronezh is east of the Don (left bank), the data says %s" % x["bank"])

# Fronts.
def side(aid, front):
  return areas[aid]["front_side"][front]
for aid in ["28", "42", "53", "67", "90", "101", "114", "127", "154"]:
  check(side(aid, "typhoon") == "german", "Typhoon: German set-up area %s is not German" % aid)
for aid in ["4", "15", "17", "18", "45", "70", "117", "63", "108", "146", "149", "81", "26", "74"]:
  check(side(aid, "typhoon") == "soviet", "Typhoon: Soviet set-up area %s is not Soviet" % aid)
for aid in ["14", "58", "84", "117", "59", "71", "134", "93", "90", "146"]:
  check(side(aid, "last-gasp") == "german", "Last Gasp: German area %s is not German" % aid)
for aid in ["4", "15", "17", "31", "32", "36", "74", "137", "20", "33", "34", "35", "37", "49", "50", "61", "62",
            "73", "75", "76", "85", "96", "108", "121", "122", "135", "147", "159", "170", "171", "63", "149"]:
  check(side(aid, "last-gasp") == "soviet", "Last Gasp: Soviet area %s is not Soviet" % aid)
for front, hq_area, need, who in [("typhoon", "45", 5, "soviet"), ("typhoon", "70", 6, "soviet"),
                                  ("typhoon", "117", 5, "soviet"), ("typhoon", "42", 4, "german"),
                                  ("typhoon", "114", 4, "german"), ("typhoon", "90", 3, "german"),
                                  ("typhoon", "28", 1, "german"), ("last-gasp", "58", 4, "german"),
                                  ("last-gasp", "117", 4, "german"), ("last-gasp", "84", 3, "german"),
                                  ("last-gasp", "14", 1, "german")]:
  n = sum(1 for b in adj[hq_area] if side(b, front) == who and areas[b]["terrain"] != "staging")
  check(n >= need, "%s: area %s has %d %s neighbours, set-up needs %d" % (front, hq_area, n, who, need))
for aid in ["4", "15", "17", "31"]:
  check(any(side(b, "last-gasp") == "german" for b in adj[aid]), "Last Gasp: Red Star %s touches no German area" % aid)
icons = m["setup_icons"]["icons"]
check(len(icons) == 28, "campaign: 28 icons")
check(len({i["area"] for i in icons}) == 28, "campaign: icons share areas")
ic = Counter((i["colour"], i["type"]) for i in icons)
check(ic[("yellow", "infantry")] + ic[("yellow", "tank")] == 3 and
      ic[("lightblue", "infantry")] + ic[("lightblue", "tank")] == 7, "icon colours")
check(sum(v for (c, t), v in ic.items() if t == "tank") == 8, "campaign: 8 tank icons")
for i in icons:
  check(i["area"] not in ["66", "67", "89", "90", "100"], "icon in German area %s" % i["area"])

# Roster.
b = r["blocks"]
check(len(b) == 120, "120 blocks")
side_n = Counter(x["side"] for x in b)
check(side_n["german"] == 50 and side_n["soviet"] == 70, "50/70 blocks: %s" % side_n)
col = Counter((x["side"], x["colour"]) for x in b)
for (s, c), n in {("german", "yellow"): 6, ("german", "lightblue"): 5, ("german", "pink"): 6,
                  ("german", "brown"): 3, ("german", "red"): 7, ("german", "green"): 4, ("german", "blue"): 4,
                  ("german", "white"): 12, ("german", "luftwaffe"): 2, ("soviet", "green"): 8,
                  ("soviet", "lightblue"): 8, ("soviet", "red"): 8, ("soviet", "blue"): 14, ("soviet", "yellow"): 4,
                  ("soviet", "white"): 26}.items():
  check(col[(s, c)] == n, "army list: %s %s has %d blocks, text says %d" % (s, c, col[(s, c)], n))
red = sorted(x["id"] for x in b if x["side"] == "german" and x["colour"] == "red")
check(red == sorted(["HQ2Pg", "24PzK", "46PzK", "47PzK", "DR", "GD", "1Kav"]), "E14 (4.2.6): 2nd Panzer Gruppe")
letters = Counter(x.get("letter") for x in b)
check(letters["K"] == 1 and letters["L"] == 4 and letters["N"] == 5, "5.1 letters %s" % letters)
corps = [x for x in b if x.get("tag") == "corps"]
check(len(corps) == 28 and sum(x["type"] == "tank" for x in corps) == 8, "campaign step 8: 20 infantry + 8 tanks")
check(sum(x["remnant"] and x["type"] == "infantry" for x in corps) == 11 and
      sum(x["remnant"] and x["type"] == "tank" for x in corps) == 3, "campaign step 8: 11+3 remnants")
check(sum(x["type"] == "cavalry" and x["side"] == "soviet" for x in b) == 7, "OR 14.6: seven Soviet cavalry")
check(sum(x.get("infantry_division", False) for x in b) == 6, "OR 14.7: six German infantry divisions")
for x in b:
  if x["kind"] == "combat":
    check(len(x["steps"]) == x["max"], "block %s steps" % x["id"])
check(sum(x["type"] == "tank" and x["max"] == 2 and x["side"] == "soviet" for x in b) == 3, "4.2 note: 3 tank divisions")
bombers = r["bombers"]["list"]
check(sum(x["type"] == "he111" for x in bombers) == 6 and sum(x["type"] == "stuka" for x in bombers) == 2, "bombers")

for e in errors:
  print("FAIL:", e)
print("moscow41 data: %d problems" % len(errors))
sys.exit(1 if errors else 0)

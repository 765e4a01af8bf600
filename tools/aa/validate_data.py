#!/usr/bin/env python3
"""Checks data/aa/ (the Axis & Allies-style Barbarossa, rulebook seeds/003) for the mistakes a
hand-edited reconstruction makes: a one-way border, a set-up naming a zone or a unit type that
does not exist, a reconstructed table without a source, a unit type without printed values.

    tools/aa/validate_data.py [DATA_DIR]     exits 1 and lists every problem
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = {"land", "city", "marsh", "lake", "sea"}


def load(data_dir, name, problems):
    path = os.path.join(data_dir, name)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        problems.append(f"{name}: cannot read: {e}")
        return None


def check_reconstructed(doc, where, problems):
    """Every object marked reconstructed carries a non-empty source (I The Game Map & Setup:
    the map and setup charts are not in the text)."""
    if isinstance(doc, dict):
        if doc.get("reconstructed") is True:
            src = doc.get("source")
            if not isinstance(src, str) or not src.strip():
                problems.append(f"{where}: reconstructed but has no source")
        elif "reconstructed" in doc and not isinstance(doc["reconstructed"], bool):
            problems.append(f"{where}: reconstructed must be true or false")
        for k, v in doc.items():
            check_reconstructed(v, f"{where}/{k}", problems)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            check_reconstructed(v, f"{where}/{i}", problems)


def validate(data_dir):
    problems = []
    units = load(data_dir, "units.json", problems)
    mp = load(data_dir, "map.json", problems)
    setup = load(data_dir, "setup.json", problems)
    rules = load(data_dir, "rules.json", problems)
    sections = load(data_dir, "sections.json", problems)
    if problems:
        return problems
    for name, doc in (("units.json", units), ("map.json", mp), ("setup.json", setup), ("rules.json", rules),
                      ("sections.json", sections)):
        check_reconstructed(doc, name, problems)

    types = {}
    for i, u in enumerate(units["unit_types"]):
        where = f"units.json: /unit_types/{i}"
        for key in ("id", "name", "attack", "defence", "movement", "cost", "hits", "classes"):
            if key not in u:
                problems.append(f"{where}: missing {key}")
        if u.get("id") in types:
            problems.append(f"{where}: duplicate unit type {u.get('id')}")
        types[u.get("id")] = u
        for key in ("attack", "defence"):
            v = u.get(key)
            if not isinstance(v, int) or not 0 <= v <= 12:
                problems.append(f"{where}: {key} {v!r} is not a d12 value 0..12 (3.36.2.3)")
        if u.get("hits", 1) == 2 and "repair_cost" not in u:
            problems.append(f"{where}: a 2-hit unit needs its repair_cost (3.2)")

    zones = {}
    for i, z in enumerate(mp["territories"]):
        where = f"map.json: /territories/{i} ({z.get('name')})"
        if z.get("name") in zones:
            problems.append(f"{where}: duplicate territory name")
        zones[z.get("name")] = z
        if z.get("kind") not in KINDS:
            problems.append(f"{where}: kind {z.get('kind')!r} is not one of {sorted(KINDS)}")
        lon, lat = z.get("lon"), z.get("lat")
        if not (isinstance(lon, (int, float)) and isinstance(lat, (int, float)) and 10 <= lon <= 60 and 35 <= lat <= 72):
            problems.append(f"{where}: lon/lat {lon},{lat} is not on the Eastern Front")
        if z.get("kind") in ("land", "city", "marsh") and "original_owner" not in z:
            problems.append(f"{where}: a land zone needs its original_owner (1.1)")
    for name, z in zones.items():
        seen = set()
        for e in z.get("adjacent", []):
            other = e.get("to")
            if other in seen:
                problems.append(f"map.json: {name}: {other} listed twice")
            seen.add(other)
            if other not in zones:
                problems.append(f"map.json: {name}: adjacent {other!r} is not a territory")
                continue
            if other == name:
                problems.append(f"map.json: {name}: adjacent to itself")
            back = [b for b in zones[other].get("adjacent", []) if b.get("to") == name]
            if not back:
                problems.append(f"map.json: {name} -> {other} has no border back (adjacency must be symmetric)")
            elif {k: v for k, v in back[0].items() if k != "to"} != {k: v for k, v in e.items() if k != "to"}:
                problems.append(f"map.json: the border {name} / {other} differs in its two directions")
        if not z.get("adjacent"):
            problems.append(f"map.json: {name} has no neighbours")
    # One connected map: every land zone reachable from every other over land and lakes.
    land = [n for n, z in zones.items() if z.get("kind") != "sea"]
    if land:
        reach, todo = {land[0]}, [land[0]]
        while todo:
            for e in zones[todo.pop()].get("adjacent", []):
                t = e.get("to")
                if t in zones and t not in reach and zones[t].get("kind") != "sea":
                    reach.add(t)
                    todo.append(t)
        for n in land:
            if n not in reach:
                problems.append(f"map.json: {n} is cut off from the rest of the map")
    kerch = [(n, e["to"]) for n, z in zones.items() for e in z.get("adjacent", []) if e.get("kerch")]
    if sorted(kerch) != sorted([("Crimea", "Krosnodor"), ("Krosnodor", "Crimea")]):
        problems.append(f"map.json: the Kerch Straits must join Crimea and Krosnodor (3.29), found {kerch}")
    for needed in ("Moscow", "Baku"):
        if not any(z.get("city") == needed for z in zones.values()):
            problems.append(f"map.json: no zone of the city {needed} (1.3 Victory Conditions)")
    for name, vp in (("Kalomna", 3), ("Stalingrad", 5)):  # the text's own numbers (2.9)
        if zones.get(name, {}).get("vp") != vp:
            problems.append(f"map.json: {name} must be worth {vp} VP as the text says (2.9)")
    kinds = {z.get("reinforcement") for z in zones.values()}
    for r in ("german_1", "german_2", "italian", "lend_lease", "siberian_1"):
        if r not in kinds:
            problems.append(f"map.json: no {r} reinforcement zone (2.1-2.11)")
    for name in ("Lake Lagoda", "Lake Peipus", "Pripet Marshes", "Viipuri", "Helsinki", "Budapest", "Bucharest",
                 "Bulgaria", "Western Kiev", "Crimea", "Krosnodor", "Stalingrad", "Kalomna", "Leningrad North"):
        if name not in zones:
            problems.append(f"map.json: the text names {name} but the map has no such zone")

    for i, f in enumerate(setup["forces"]):
        where = f"setup.json: /forces/{i}"
        z = zones.get(f.get("zone"))
        if z is None:
            problems.append(f"{where}: zone {f.get('zone')!r} is not a territory")
        elif z.get("kind") in ("sea", "lake"):
            problems.append(f"{where}: land forces set up in the {z['kind']} {f['zone']}")
        for t, n in f.get("units", {}).items():
            if t not in types:
                problems.append(f"{where}: unit type {t!r} does not exist in units.json")
            elif not isinstance(n, int) or n < 1:
                problems.append(f"{where}: count {n!r} for {t}")
            elif types[t].get("nations") and f.get("nation") not in types[t]["nations"]:
                problems.append(f"{where}: {t} belongs only to {types[t]['nations']}")
    for nation, spec in rules.get("minor_axis", {}).items():
        if not isinstance(spec, dict):
            continue
        for key in ("places", "each_turn"):
            for t in spec.get(key, {}):
                if t not in types:
                    problems.append(f"rules.json: /minor_axis/{nation}/{key}: unit type {t!r} does not exist")
        zone = spec.get("zone")
        if zone and not zone.startswith("original") and zone not in zones:
            problems.append(f"rules.json: /minor_axis/{nation}: zone {zone!r} is not a territory")

    numbers = [s.get("number") for s in sections["sections"]]
    if len(set(numbers)) != len(numbers):
        problems.append("sections.json: a section number is listed twice")
    return problems


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "data", "aa")
    problems = validate(data_dir)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s) in {data_dir}")
        return 1
    print(f"{data_dir}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

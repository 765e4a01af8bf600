#!/usr/bin/env python3
"""Turns the geography pipeline's output for AGC (steppe mapgen agc -o BASE) into
data/agc/map.json with AGC's terrain (2.1/10.7 of the rulebook): hills from the relief test,
city / major city / town from the 1939 population, roads (motorway, main, minor) and bridges
where roads and railways crossed rivers, and the 1941 border (German / Soviet hexsides).

usage: build_map.py BASE.json   (tools/agc/build_map.sh runs the whole pipeline)
"""
import json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_grid  # noqa: E402

GERMAN = {"germany", "general_government"}
ROAD_SRC = ("reconstructed: 1941 road net per the German 1:300,000 maps and standard historical atlases "
            "(Moscow-Minsk motorway of 1936-39; the Warsaw-Moscow chaussee and paved roads as main roads; "
            "other all-weather roads as minor roads); drawn as hex lines between the towns they joined")
ROADS = {
    "motorway": [["Minsk", "Borisov", "Krupki", "Tolochin", "Orsha", "Krasny", "Smolensk", "Yartsevo", "Dorogobuzh", "Vyazma", "Gzhatsk"]],
    "main-road": [
        ["Biala Podlaska", "Brest", "Kobrin", "Bereza", "Baranovichi", "Stolbtsy", "Dzerzhinsk", "Minsk"],
        ["Bialystok", "Volkovysk", "Slonim", "Baranovichi"],
        ["Suwalki", "Augustow", "Grodno", "Sokolka", "Bialystok", "Bielsk Podlaski", "Brest"],
        ["Kaunas", "Vilnius", "Oshmyany", "Molodechno", "Minsk"],
        ["Minsk", "Marina Gorka", "Osipovichi", "Bobruisk", "Rogachev", "Zhlobin", "Gomel"],
        ["Mogilev", "Shklov", "Orsha", "Vitebsk", "Polotsk", "Daugavpils"],
        ["Vitebsk", "Rudnya", "Smolensk", "Roslavl", "Zhukovka", "Bryansk"],
        ["Bobruisk", "Bykhov", "Mogilev", "Krichev", "Roslavl"],
        ["Gomel", "Novozybkov", "Unecha", "Pochep", "Bryansk"],
        ["Grodno", "Shchuchin", "Lida", "Vilnius"],
        ["Kaunas", "Marijampole", "Suwalki"],
    ],
    "minor-road": [
        ["Lida", "Novogrudok", "Baranovichi", "Lyakhovichi", "Slutsk", "Glusk", "Parichi", "Kalinkovichi", "Mozyr"],
        ["Volkovysk", "Mosty", "Shchuchin"], ["Slonim", "Novogrudok", "Stolbtsy"],
        ["Brest", "Pruzhany", "Volkovysk"], ["Kobrin", "Drogichin", "Pinsk", "Luninets", "David-Gorodok", "Turov", "Petrikov", "Mozyr", "Rechitsa", "Gomel"],
        ["Minsk", "Slutsk", "Nesvizh", "Baranovichi"], ["Borisov", "Lepel", "Polotsk"], ["Borisov", "Berezino", "Bobruisk"],
        ["Minsk", "Cherven", "Berezino", "Mogilev"], ["Molodechno", "Vileyka", "Glubokoe", "Disna", "Polotsk"],
        ["Vilnius", "Svencionys", "Postavy", "Glubokoe", "Lepel", "Senno", "Vitebsk"], ["Vilnius", "Varena", "Grodno"],
        ["Vilnius", "Ukmerge", "Zarasai", "Daugavpils"], ["Kaunas", "Alytus", "Varena"], ["Marijampole", "Alytus"],
        ["Tolochin", "Senno", "Ulla", "Polotsk"], ["Vitebsk", "Surazh", "Velizh", "Demidov", "Dukhovshchina", "Yartsevo"],
        ["Vitebsk", "Gorodok", "Nevel", "Velikiye Luki"], ["Smolensk", "Demidov"], ["Dukhovshchina", "Bely", "Sychevka", "Vyazma"],
        ["Smolensk", "Yelnya", "Spas-Demensk", "Kirov"], ["Dorogobuzh", "Yelnya"], ["Orsha", "Gorki", "Mstislavl", "Roslavl"],
        ["Mogilev", "Cherikov", "Klimovichi", "Roslavl"], ["Rogachev", "Slavgorod", "Cherikov"], ["Gomel", "Klintsy", "Unecha"],
        ["Krichev", "Klimovichi", "Unecha"], ["Bialystok", "Hajnowka", "Kobrin"], ["Vyazma", "Kholm-Zhirkovsky", "Bely"],
        ["Yartsevo", "Kholm-Zhirkovsky"], ["Roslavl", "Kirov"], ["Bykhov", "Slavgorod"], ["Bobruisk", "Glusk"],
        ["Lida", "Oshmyany"], ["Smorgon", "Vileyka"],
    ],
}
ROAD_RANK = {"motorway": 3, "main-road": 2, "minor-road": 1}

def rc(hid):
    return int(hid[:2]), int(hid[2:])

def cube(hid):
    r, c = rc(hid)
    # odd rows shift half a hex toward higher columns (make_grid.centre)
    q = c - (r - (r & 1)) // 2
    return q, r

def from_cube(q, r):
    return "%02d%02d" % (r, q + (r - (r & 1)) // 2)

def cube_round(x, z):
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif not dy > dz:
        rz = -rx - ry
    return rx, rz

def hex_line(a, b):
    (q1, r1), (q2, r2) = cube(a), cube(b)
    n = max(abs(q1 - q2), abs(r1 - r2), abs((-q1 - r1) - (-q2 - r2)))
    out = []
    for i in range(n + 1):
        t = i / n if n else 0
        h = from_cube(*cube_round(q1 + (q2 - q1) * t + 1e-6, r1 + (r2 - r1) * t + 2e-6))
        if not out or out[-1] != h:
            out.append(h)
    return out

def adjacent(a, b):
    (q1, r1), (q2, r2) = cube(a), cube(b)
    return max(abs(q1 - q2), abs(r1 - r2), abs((q1 + r1) - (q2 + r2))) == 1

def main():
    base = json.load(open(sys.argv[1]))
    hexes = {h["id"]: h for h in base["hexes"]}
    pop = {p[0]: p[3] for p in make_grid.PLACES}
    place_hex = base["place_hexes"]
    # neighbours sanity: our cube conversion must agree with the generator's hexsides
    for s in base["hexsides"][:500]:
        a, b = s["hexes"]
        assert adjacent(a, b), ("cube conversion disagrees with mapgen adjacency", a, b)

    out_hexes = []
    settlement_of = {}
    for name, hid in place_hex.items():
        p = pop.get(name, 0)
        kind = "major-city" if p >= make_grid.MAJOR_CITY_MIN_K else "city" if p >= make_grid.CITY_MIN_K else "town"
        settlement_of[hid] = (kind, name)
    for h in base["hexes"]:
        t = {"rough": "hills", "all-lake": "lake"}.get(h["terrain"], h["terrain"])
        o = {"id": h["id"], "terrain": t, "country": h.get("country"), "control": h.get("control"),
             "lonlat": h["lonlat"], "elev_m": h.get("elev_m")}
        if h["id"] in settlement_of:
            o["settlement"], o["name"] = settlement_of[h["id"]]
        if "fortified-line" in h.get("features", []):
            o["fortified_line"] = True
        out_hexes.append(o)

    sides = {}
    for s in base["hexsides"]:
        a, b = s["hexes"]
        f = set(s["features"])
        if "border" in f:
            f.discard("border")
            ca, cb = hexes[a].get("country"), hexes[b].get("country")
            if ca and cb and ((ca in GERMAN) != (cb in GERMAN)):
                f.add("border-1941")
        if "major-river" in f:
            f.discard("river")
        if f:
            o = {"hexes": [a, b], "features": sorted(f)}
            if s.get("name"):
                o["name"] = s["name"]
            sides[tuple(sorted((a, b)))] = o

    roads = []
    road_side_rank = {}
    for kind, chains in ROADS.items():
        for chain in chains:
            st = [n for n in chain if n in place_hex]
            path = []
            for x, y in zip(st, st[1:]):
                seg = hex_line(place_hex[x], place_hex[y])
                path += seg if not path else seg[1:]
            path = [h for h in path if h in hexes]
            if len(path) < 2:
                continue
            roads.append({"type": kind, "towns": st, "hexes": path})
            for a, b in zip(path, path[1:]):
                k = tuple(sorted((a, b)))
                road_side_rank[k] = max(road_side_rank.get(k, 0), ROAD_RANK[kind])
    rail_sides = set()
    for p in base["railways"]:
        for a, b in zip(p, p[1:]):
            rail_sides.add(tuple(sorted((a, b))))
    n_bridge = 0
    for k, s in sides.items():
        f = set(s["features"])
        if not ({"river", "major-river"} & f):
            continue
        # 10.7.9a/b: road and railroad bridges; every 1941 road of main rank and every
        # railway crossing is taken as bridged, minor roads only over ordinary rivers.
        rank = road_side_rank.get(k, 0)
        if rank >= 2 or (rank == 1 and "river" in f):
            f.add("road-bridge"); n_bridge += 1
        if k in rail_sides:
            f.add("rail-bridge"); n_bridge += 1
        s["features"] = sorted(f)

    lon = [h["lonlat"][0] for h in base["hexes"]]; lat = [h["lonlat"][1] for h in base["hexes"]]
    out = {
        "format": "steppe-hexmap-agc-1",
        "reconstructed": True,
        "source": "generated by tools/agc/build_map.sh: steppe mapgen agc (tools/geo, data/geo, data/agc/grid.json, data/agc/geo overlays, data/agc/map-fixes.json), then tools/agc/build_map.py (AGC terrain names, settlements, roads, bridges, 1941 border). The printed AGC maps are MISSING from the rulebook text; an owner of the box corrects hexes in data/agc/map-fixes.json and roads in tools/agc/build_map.py",
        "scale_km": 8.0, "rule": "2.1",
        "grid": base["grid"],
        "extent_lonlat": [round(min(lon), 2), round(min(lat), 2), round(max(lon), 2), round(max(lat), 2)],
        "terrain_types": ["clear", "woods", "swamp", "marsh", "hills", "lake"],
        "settlement_types": ["town", "city", "major-city"],
        "hexside_features": ["river", "major-river", "all-lake", "border-1941", "road-bridge", "rail-bridge"],
        "road_types": ["motorway", "main-road", "minor-road"],
        "notes": {
            "terrain": "hills: the generator's relief test (mean ETOPO5 elevation >= 235 m, or 90th percentile >= 300 m, or 150 m of relief); woods, swamp, marsh: hand zones of data/agc/geo/terrain.json; lake: a hex at least half lake",
            "settlement": "major city: 1939 population >= 100,000; city >= 30,000; town: every other named place (6.4 Note: every city and major-city hex is a rail hex)",
            "bridges": "10.7.9: a road bridge where a main road or the motorway crosses a river or major river, or a minor road an ordinary river; a rail bridge where a railway crosses one",
            "border-1941": "10.5.8: hexsides between German (Germany, General Government) and Soviet (USSR incl. the Baltic SSRs) hexes, 22 June 1941",
            "ids": "RRCC, rows 00-75 north to south, columns 00-99 east to west (the geography pipeline's convention); the printed maps' letters and numbers are unknown",
        },
        "geo_fit": base["geo_fit"],
        "hexes": out_hexes,
        "hexsides": sorted(sides.values(), key=lambda s: s["hexes"]),
        "roads": roads,
        "railways": [{"hexes": p} for p in base["railways"]],
        "place_hexes": place_hex,
        "regions": base["regions"],
        "fixes_applied": base.get("fixes_applied", []),
    }
    path = os.path.join(ROOT, "data", "agc", "map.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"), ensure_ascii=False, sort_keys=False)
        f.write("\n")
    from collections import Counter
    print("hexes", len(out_hexes), Counter(h["terrain"] for h in out_hexes))
    print("settlements", Counter(h.get("settlement") for h in out_hexes if h.get("settlement")))
    print("hexsides", Counter(f for s in sides.values() for f in s["features"]))
    print("roads", len(roads), "bridges", n_bridge)

if __name__ == "__main__":
    main()

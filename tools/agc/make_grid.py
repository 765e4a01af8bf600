#!/usr/bin/env python3
"""Writes data/agc/grid.json and the AGC overlays in data/agc/geo/ (cities, railways,
terrain zones, river names) for `steppe mapgen agc` (tools/geo, unchanged).

The AGC rulebook prints no hex ids and no map: the grid is an 8 km hex grid (2.1: "about
5.0 miles (8.0 km) from side to side") laid on a Lambert conformal conic projection; the
anchors are computed from that projection, so the affine fit is exact up to rounding to a
hex centre. Every value is reconstructed; each record carries its source.
"""
import json, math, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "data", "agc")
KM_PER_HEX = 8.0
ROWS, COLS = 76, 100           # rows 00..75, cols 00..99 (RRCC ids)
LON0, LAT0, LAT1, LAT2, R = 28.9, 54.0, 52.0, 56.0, 6371.0
ROW_STEP = math.sqrt(3) / 2

def lcc():
    p1, p2, p0 = map(math.radians, (LAT1, LAT2, LAT0))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(math.tan(math.pi/4 + p2/2) / math.tan(math.pi/4 + p1/2))
    f = math.cos(p1) * math.tan(math.pi/4 + p1/2) ** n / n
    rho0 = R * f / math.tan(math.pi/4 + p0/2) ** n
    def fwd(lon, lat):
        rho = R * f / math.tan(math.pi/4 + math.radians(lat)/2) ** n
        t = n * math.radians(lon - LON0)
        return rho * math.sin(t), rho0 - rho * math.cos(t)
    return fwd
FWD = lcc()

def plane(lon, lat):
    """Hex plane point: X grows westward (columns), Y southward; centre of the map at lon0/lat0."""
    x, y = FWD(lon, lat)
    return (COLS - 1) / 2 - x / KM_PER_HEX, (ROWS - 1) / 2 * ROW_STEP - y / KM_PER_HEX

def centre(r, c):
    return c + (0.5 if r % 2 else 0.0), r * ROW_STEP

def hex_of(lon, lat):
    X, Y = plane(lon, lat)
    best = None
    r0 = round(Y / ROW_STEP)
    for r in range(r0 - 1, r0 + 2):
        for c in range(int(X) - 1, int(X) + 2):
            cx, cy = centre(r, c)
            d = (cx - X) ** 2 + (cy - Y) ** 2
            if best is None or d < best[0]:
                best = (d, r, c)
    _, r, c = best
    if not (0 <= r < ROWS and 0 <= c < COLS):
        return None
    return "%02d%02d" % (r, c)

POP_SRC = ("pop_1939_k: approximate urban population of 1939 (Soviet census of 1939; Polish 1931 census "
           "for the places annexed in 1939; Lithuanian estimates), rounded; lonlat: the modern town")
# name, lon, lat, population (thousands), kind
PLACES = [
    ("Minsk", 27.56, 53.90, 239), ("Vilnius", 25.28, 54.69, 209), ("Vitebsk", 30.20, 55.19, 167),
    ("Smolensk", 32.05, 54.78, 157), ("Kaunas", 23.90, 54.90, 152), ("Gomel", 30.98, 52.44, 144),
    ("Bialystok", 23.16, 53.13, 107), ("Mogilev", 30.33, 53.91, 99), ("Bryansk", 34.37, 53.25, 87),
    ("Bobruisk", 29.22, 53.14, 84), ("Brest", 23.69, 52.10, 51), ("Grodno", 23.83, 53.68, 49),
    ("Borisov", 28.50, 54.23, 49), ("Daugavpils", 26.53, 55.87, 45), ("Orsha", 30.42, 54.51, 37),
    ("Velikiye Luki", 30.53, 56.34, 35), ("Pinsk", 26.10, 52.11, 32), ("Polotsk", 28.80, 55.49, 30),
    ("Baranovichi", 26.01, 53.13, 30), ("Vyazma", 34.30, 55.21, 30), ("Roslavl", 32.86, 53.95, 30),
    ("Klintsy", 32.24, 52.75, 30), ("Suwalki", 22.93, 54.10, 25), ("Rechitsa", 30.39, 52.36, 25),
    ("Slutsk", 27.56, 53.03, 23), ("Lida", 25.30, 53.89, 20), ("Mozyr", 29.25, 52.05, 20),
    ("Novozybkov", 31.93, 52.54, 20), ("Slonim", 25.32, 53.09, 16), ("Volkovysk", 24.47, 53.16, 15),
    ("Zhlobin", 30.02, 52.89, 15), ("Marijampole", 23.35, 54.56, 15), ("Biala Podlaska", 23.12, 52.03, 15),
    ("Rogachev", 30.05, 53.09, 12), ("Krichev", 31.71, 53.71, 12), ("Augustow", 22.98, 53.84, 12),
    ("Novogrudok", 25.82, 53.60, 10), ("Molodechno", 26.85, 54.31, 10), ("Kalinkovichi", 29.33, 52.13, 10),
    ("Luninets", 26.80, 52.25, 10), ("Kobrin", 24.36, 52.21, 10), ("Bielsk Podlaski", 23.19, 52.77, 10),
    ("Nevel", 29.92, 56.02, 10), ("Yartsevo", 32.69, 55.07, 10), ("Yelnya", 33.18, 54.58, 10),
    ("Gorki", 30.99, 54.29, 10), ("Mstislavl", 31.73, 54.02, 10), ("Pochep", 33.47, 52.93, 10),
    ("Unecha", 32.68, 52.85, 10), ("David-Gorodok", 27.21, 52.05, 10), ("Alytus", 24.05, 54.40, 10),
    ("Ukmerge", 24.77, 55.25, 10), ("Pruzhany", 24.46, 52.56, 8), ("Lepel", 28.69, 54.88, 8),
    ("Glubokoe", 27.69, 55.14, 8), ("Velizh", 31.19, 55.61, 8), ("Dorogobuzh", 33.28, 54.91, 8),
    ("Gzhatsk", 35.01, 55.55, 8), ("Kirov", 34.31, 54.08, 8), ("Bykhov", 30.25, 53.52, 8),
    ("Shklov", 30.29, 54.21, 8), ("Osipovichi", 28.64, 53.30, 8), ("Nesvizh", 26.67, 53.22, 8),
    ("Sokolka", 23.50, 53.40, 7), ("Stolbtsy", 26.73, 53.48, 6), ("Dzerzhinsk", 27.14, 53.68, 6),
    ("Vileyka", 26.92, 54.49, 6), ("Demidov", 31.51, 55.27, 6), ("Rudnya", 31.09, 54.94, 6),
    ("Bely", 32.94, 55.83, 6), ("Sychevka", 34.28, 55.83, 6), ("Klimovichi", 31.95, 53.61, 6),
    ("Oshmyany", 25.94, 54.42, 6), ("Smorgon", 26.40, 54.48, 6), ("Hajnowka", 23.58, 52.74, 6),
    ("Tolochin", 29.70, 54.41, 5), ("Senno", 29.71, 54.81, 5), ("Postavy", 26.84, 55.11, 5),
    ("Disna", 28.21, 55.57, 5), ("Gorodok", 30.00, 55.46, 5), ("Spas-Demensk", 34.02, 54.41, 5),
    ("Zhukovka", 33.73, 53.53, 5), ("Cherven", 28.43, 53.71, 5), ("Petrikov", 28.50, 52.13, 5),
    ("Turov", 27.74, 52.07, 5), ("Stolin", 26.85, 51.89, 5), ("Lyakhovichi", 26.27, 53.04, 5),
    ("Shchuchin", 24.74, 53.60, 5), ("Bereza", 24.98, 52.54, 5), ("Svencionys", 26.16, 55.14, 5),
    ("Zarasai", 26.25, 55.73, 5), ("Krupki", 28.69, 54.32, 4), ("Berezino", 28.99, 53.84, 4),
    ("Marina Gorka", 28.15, 53.51, 4), ("Glusk", 28.68, 52.90, 4), ("Parichi", 29.42, 52.80, 4),
    ("Mosty", 24.54, 53.41, 4), ("Drogichin", 25.15, 52.19, 4), ("Surazh", 30.72, 55.41, 4),
    ("Dukhovshchina", 32.42, 55.19, 4), ("Krasny", 31.42, 54.56, 4), ("Cherikov", 31.38, 53.57, 4),
    ("Slavgorod", 31.00, 53.44, 4), ("Ulla", 29.25, 55.23, 3), ("Varena", 24.57, 54.22, 3),
    ("Kholm-Zhirkovsky", 33.49, 55.54, 3), ("Mogilno", 0, 0, 0),
]
PLACES = [p for p in PLACES if p[3] > 0]
MAJOR_CITY_MIN_K, CITY_MIN_K = 100, 30

def kinds(pop):
    return ["city"] if pop >= CITY_MIN_K else ["town"]

RAILWAYS = [
    ("Moscow-Brest (Alexandrovskaya) main line", ["Biala Podlaska", "Brest", "Kobrin", "Bereza", "Baranovichi", "Stolbtsy", "Dzerzhinsk", "Minsk", "Borisov", "Krupki", "Tolochin", "Orsha", "Krasny", "Smolensk", "Yartsevo", "Vyazma", "Gzhatsk"]),
    ("St Petersburg-Warsaw railway", ["Daugavpils", "Svencionys", "Vilnius", "Varena", "Grodno", "Sokolka", "Bialystok", "Bielsk Podlaski"]),
    ("Kaunas-Vilnius", ["Kaunas", "Vilnius"]),
    ("Kaunas-Marijampole-Suwalki", ["Kaunas", "Marijampole", "Suwalki"]),
    ("Grodno-Augustow-Suwalki", ["Grodno", "Augustow", "Suwalki"]),
    ("Bialystok-Volkovysk-Baranovichi", ["Bialystok", "Volkovysk", "Slonim", "Baranovichi"]),
    ("Bologoye-Siedlce railway", ["Velikiye Luki", "Nevel", "Polotsk", "Glubokoe", "Molodechno", "Lida", "Mosty", "Volkovysk", "Hajnowka"]),
    ("Libau-Romny railway", ["Vilnius", "Oshmyany", "Molodechno", "Minsk", "Marina Gorka", "Osipovichi", "Bobruisk", "Zhlobin", "Gomel", "Novozybkov", "Unecha"]),
    ("Vilnius-Smorgon-Molodechno", ["Vilnius", "Smorgon", "Molodechno"]),
    ("Polesie railway", ["Brest", "Drogichin", "Pinsk", "Luninets", "Petrikov", "Kalinkovichi", "Rechitsa", "Gomel"]),
    ("Baranovichi-Luninets", ["Baranovichi", "Luninets"]),
    ("Lida-Baranovichi", ["Lida", "Novogrudok", "Baranovichi"]),
    ("Riga-Orel railway", ["Daugavpils", "Polotsk", "Vitebsk", "Rudnya", "Smolensk", "Roslavl", "Zhukovka", "Bryansk"]),
    ("Vitebsk-Zhlobin railway", ["Nevel", "Gorodok", "Vitebsk", "Orsha", "Shklov", "Mogilev", "Bykhov", "Rogachev", "Zhlobin"]),
    ("Orsha-Krichev-Unecha", ["Orsha", "Gorki", "Krichev", "Unecha", "Pochep", "Bryansk"]),
    ("Kalinkovichi-Mozyr-Zhlobin", ["Mozyr", "Kalinkovichi", "Parichi", "Zhlobin"]),
    ("Mogilev-Krichev", ["Mogilev", "Krichev"]),
    ("Vyazma-Rzhev (to Sychevka)", ["Vyazma", "Sychevka"]),
    ("Vyazma-Kirov-Bryansk", ["Vyazma", "Spas-Demensk", "Kirov", "Bryansk"]),
    ("Smolensk-Sukhinichi (to Spas-Demensk)", ["Smolensk", "Yelnya", "Spas-Demensk"]),
    ("Slutsk branch", ["Osipovichi", "Slutsk", "Lyakhovichi", "Baranovichi"]),
]
RAIL_SRC = ("reconstructed: 1941 railway lines between the named stations per standard historical railway "
            "atlases of the Belorussian and Western railways (routes, not exact courses)")

# Terrain zones (lon/lat polygons). First zone covering overlay_share of a hex wins.
ZONE_SRC = ("reconstructed: extent of the terrain as of 1941 (before post-war drainage) per standard "
            "physical atlases of Belorussia and the western USSR and the German 1:300,000 maps of 1941; "
            "coarse hand polygon")
ZONES = [
    ("swamp", "Pripyat (Polesie) swamps, core", [[24.6, 51.7], [25.2, 52.05], [25.8, 52.2], [26.6, 52.4], [27.6, 52.45], [28.4, 52.6], [29.0, 52.5], [29.6, 52.3], [30.2, 52.0], [30.4, 51.7]]),
    ("swamp", "Berezina swamps (Berezina-Svisloch mires)", [[28.55, 53.05], [29.0, 53.0], [29.15, 53.35], [28.9, 53.7], [28.65, 53.6]]),
    ("swamp", "Upper Berezina mires (Berezinsky bogs)", [[28.0, 54.5], [28.7, 54.45], [28.8, 54.8], [28.3, 54.95], [27.95, 54.75]]),
    ("marsh", "Biebrza-Narew marshes", [[22.3, 53.2], [22.8, 53.25], [23.2, 53.55], [23.2, 53.8], [22.8, 53.75], [22.4, 53.5]]),
    ("marsh", "Yaselda and Shchara marshes (northern Polesie)", [[24.5, 52.3], [25.3, 52.35], [26.2, 52.55], [26.9, 52.7], [27.6, 52.75], [28.4, 52.8], [28.4, 52.6], [27.6, 52.45], [26.6, 52.4], [25.8, 52.2], [25.2, 52.05], [24.6, 51.85]]),
    ("marsh", "Southern Polesie beyond the Pripyat", [[24.0, 51.55], [30.6, 51.55], [30.4, 51.7], [24.6, 51.7]]),
    ("marsh", "Sozh-Iput lowland mires", [[30.5, 52.1], [31.2, 52.0], [31.6, 52.25], [31.0, 52.5], [30.6, 52.4]]),
    ("woods", "Bialowieza forest", [[23.45, 52.5], [24.2, 52.45], [24.25, 52.9], [23.55, 52.95]]),
    ("woods", "Augustow forest", [[22.95, 53.7], [23.7, 53.65], [23.75, 54.05], [23.05, 54.05]]),
    ("woods", "Naliboki forest", [[25.9, 53.55], [26.85, 53.6], [26.95, 54.0], [26.1, 54.05]]),
    ("woods", "Dzukija forests (Varena)", [[24.2, 53.95], [24.95, 54.0], [24.95, 54.4], [24.25, 54.4]]),
    ("woods", "Berezina-Drut forests", [[28.6, 53.2], [29.8, 53.2], [29.9, 53.8], [29.2, 54.0], [28.6, 53.75]]),
    ("woods", "Cherven-Marina Gorka forests", [[27.8, 53.35], [28.6, 53.35], [28.6, 53.9], [28.0, 53.9]]),
    ("woods", "Lepel-Ushachi forests and lakes", [[28.3, 54.9], [29.3, 54.9], [29.3, 55.4], [28.4, 55.45]]),
    ("woods", "Dukhovshchina-Demidov forests", [[31.3, 55.05], [32.5, 55.05], [32.6, 55.55], [31.4, 55.55]]),
    ("woods", "Rzhev-Bely forests", [[32.4, 55.6], [34.2, 55.6], [34.4, 56.4], [32.3, 56.4]]),
    ("woods", "Vyazma-Yelnya-Ugra forests", [[33.2, 54.2], [35.3, 54.2], [35.3, 54.8], [33.6, 54.8]]),
    ("woods", "Bryansk forests", [[33.3, 52.9], [34.3, 53.0], [34.9, 53.5], [34.5, 54.0], [33.6, 53.8]]),
    ("woods", "Roslavl-Desna forests", [[32.7, 53.55], [33.5, 53.55], [33.5, 54.1], [32.9, 54.2]]),
    ("woods", "Gomel Polesie forests", [[29.6, 52.45], [30.5, 52.55], [30.6, 52.9], [29.8, 52.9]]),
    ("woods", "Nalibok-Ivenets to Volozhin forests", [[26.3, 54.0], [27.0, 54.0], [27.0, 54.25], [26.3, 54.25]]),
    ("woods", "Oshmyany-Narach forests", [[26.1, 54.6], [27.0, 54.6], [27.2, 55.0], [26.3, 55.0]]),
    ("woods", "Pruzhany-Ruzhany forest", [[24.4, 52.6], [25.0, 52.6], [25.1, 52.9], [24.5, 52.9]]),
]

RIVERS_EXTRA = [
    ("Dnepr (upper)", [[34.0, 55.5], [33.7, 55.1], [33.3, 54.9], [32.8, 54.85], [32.05, 54.78], [31.4, 54.7], [30.8, 54.6], [30.42, 54.51], [30.3, 54.2], [30.33, 53.91]]),
    ("Shchara", [[26.5, 53.4], [26.0, 53.05], [25.3, 53.1], [24.8, 53.35], [24.4, 53.55], [24.1, 53.7]]),
    ("Svisloch", [[27.4, 54.1], [27.6, 53.85], [28.1, 53.55], [28.7, 53.3], [29.1, 53.05]]),
    ("Drut", [[29.9, 54.6], [29.6, 54.3], [29.5, 53.9], [29.6, 53.5], [30.05, 53.1]]),
    ("Ptich", [[27.2, 53.8], [27.7, 53.2], [28.2, 52.7], [28.7, 52.2]]),
    ("Viliya (Neris)", [[27.6, 54.8], [26.9, 54.5], [26.2, 54.75], [25.3, 54.7], [24.2, 54.95], [23.9, 54.9]]),
    ("Vop", [[32.2, 55.6], [32.5, 55.3], [32.6, 54.9]]),
    ("Kasplya", [[31.6, 54.6], [31.4, 55.0], [31.2, 55.3], [31.0, 55.5]]),
    ("Ulla", [[28.5, 54.7], [28.9, 55.0], [29.2, 55.25]]),
    ("Iput", [[32.4, 53.6], [31.8, 52.9], [31.2, 52.4]]),
    ("Narew upper", [[24.0, 52.7], [23.4, 53.0], [22.8, 53.05], [22.3, 53.2]]),
    ("Yaselda", [[24.5, 52.7], [25.3, 52.45], [26.0, 52.2]]),
]

def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, ensure_ascii=False)
        f.write("\n")

def main():
    geo = os.path.join(OUT, "geo")
    os.makedirs(geo, exist_ok=True)
    cities = []
    for name, lon, lat, pop in PLACES:
        if hex_of(lon, lat) is None:
            continue
        cities.append({"name": name, "lonlat": [lon, lat], "country_1941": "", "pop_1939_k": pop,
                       "kinds": kinds(pop), "reconstructed": True, "source": POP_SRC})
    on_map = {c["name"] for c in cities}
    write(os.path.join(geo, "cities.json"), {
        "reconstructed": True, "source": "AGC places (tools/agc/make_grid.py): every town a 1941 operational map "
        "of Army Group Center names; kinds city = 1939 population >= %dk (major city >= %dk, see tools/agc/build_map.py)" % (CITY_MIN_K, MAJOR_CITY_MIN_K),
        "note": "country_1941 is left to the country polygons", "cities": cities})
    lines = []
    for name, stations in RAILWAYS:
        st = [s for s in stations if s in on_map]
        missing = [s for s in stations if s not in on_map and s not in dict((p[0], 1) for p in PLACES)]
        if missing:
            sys.exit("railway %s: unknown stations %s" % (name, missing))
        if len(st) >= 2:
            lines.append({"name": name, "stations": st, "source": RAIL_SRC})
    write(os.path.join(geo, "railways.json"), {"reconstructed": True, "source": RAIL_SRC, "note": "stations off the map are dropped", "lines": lines})
    write(os.path.join(geo, "terrain.json"), {
        "reconstructed": True, "source": ZONE_SRC,
        "note": "AGC terrain zones at 8 km hexes: swamp (10.7.11: motorized units only along road/rail hexsides in Dry/Mud), marsh, woods (10.7.4); hills come from ETOPO5 relief (tools/agc/build_map.py)",
        "zones": [{"terrain": t, "name": n, "source": ZONE_SRC, "polygon": p} for t, n, p in ZONES]})
    hydro = json.load(open(os.path.join(ROOT, "data/geo/hist/hydro_1941.json")))
    hydro["source"] = "data/geo/hist/hydro_1941.json (river names, reservoirs to undo) plus AGC's smaller named rivers (tools/agc/make_grid.py)"
    hydro["river_names"] = hydro["river_names"] + [
        {"name": n, "anchors": a, "source": "reconstructed: anchor points along the named river's course per standard atlases of Belorussia"}
        for n, a in RIVERS_EXTRA]
    hydro["lake_lines"] = []
    write(os.path.join(geo, "hydro.json"), hydro)

    anchors = []
    for name in ["Minsk", "Smolensk", "Brest", "Bialystok", "Grodno", "Vitebsk", "Gomel", "Vyazma", "Mogilev", "Polotsk", "Bobruisk", "Pinsk", "Vilnius", "Roslavl"]:
        p = next(p for p in PLACES if p[0] == name)
        anchors.append({"hex": hex_of(p[1], p[2]), "name": name, "lonlat": [p[1], p[2]],
                        "rule": "reconstructed: hex of the place on the 8 km LCC grid (tools/agc/make_grid.py)"})
    bd = json.load(open(os.path.join(ROOT, "data/bd/grid.json")))
    grid = {
        "reconstructed": True,
        "source": "grid for Barbarossa: Army Group Center reconstructed from the rulebook (2.1: hexes about 8.0 km from side to side, four-digit hex ids) and fitted to real geography; the printed maps (and their map letters) are MISSING from the text",
        "game": "agc",
        "grid": {"id_format": "RRCC", "orientation": "pointy",
                 "rows": {"first": 0, "last": ROWS - 1, "increase": "south"},
                 "cols": {"first": 0, "last": COLS - 1, "increase": "west"},
                 "odd_rows_shift": "west"},
        "outline": {"note": "reconstructed: a rectangle of 100 columns x 76 rows of 8 km hexes, from west of the 1941 border (Suwalki, Biala Podlaska) to east of Vyazma, and from the Pripyat to Velikiye Luki", "max_col": {str(r): COLS - 1 for r in range(ROWS)}},
        "projection": {"type": "lambert_conformal_conic", "lon0": LON0, "lat0": LAT0, "lat1": LAT1, "lat2": LAT2, "radius_km": R},
        "fit": {"method": "least-squares affine from projected km to the hex plane, then an exact Gaussian radial-basis correction through the anchors; the anchors are the hexes the same projection at 8 km per hex gives (tools/agc/make_grid.py), so the fit is a pure 8 km/hex LCC up to the rounding to hex centres",
                "rbf_sigma_hexes": 2.5, "anchors": anchors},
        "sampling": bd["sampling"],
        "terrain_types": ["clear", "rough", "woods", "swamp", "marsh", "all-sea", "all-lake"],
        "terrain": {"sea_share": 0.8, "lake_share": 0.5, "rough_mean_elev_m": 235, "rough_p90_elev_m": 300,
                    "rough_relief_m": 150, "overlay_share": 0.4, "default": "clear",
                    "overlay_terrain": {"swamp": "swamp", "marsh": "marsh", "woods": "woods"},
                    "note": "rough here is the generator's word for the relief test; tools/agc/build_map.py makes it AGC's hills (10.7.3). Thresholds chosen so the Minsk, Novogrudok, Oshmyany and Smolensk-Vyazma uplands come out as hills (ETOPO5, 5' cells, about 9 km)"},
        "hexsides": {"river_max_class": 2, "river_min_class": 0, "named_river_max_class": 3,
                     "major_rivers": ["Dnepr", "Dnepr (upper)", "Western Dvina (Daugava)", "Western Dvina upper", "Neman", "Bug (Western)", "Bug (Western) upper", "Berezina", "Pripyat", "Desna"],
                     "name_max_dist_km": 12, "sea_share": 0.5, "lake_share": 0.5,
                     "note": "rivers of GSHHG class 0-2, class 3 where near a named river; major rivers (10.7.9) are the named ones listed (reconstructed: the rivers a 1941 operational map of the Western Front treats as major obstacles)"},
        "cities": {"name_every_hex_min_pop_k": 1, "city_hex_min_land_share": 0.1,
                   "feature_names": {"port": [], "oil": [], "capital": [], "industrial": []},
                   "note": "every place of data/agc/geo/cities.json names its hex; city / major city from the population (tools/agc/build_map.py)"},
        "fortified_line_max_dist_hexes": 0.6,
        "regions": {
            "axis_supply_edge": {"edge": "west", "from": "0099", "to": "7599", "rule": "6.5.1", "note": "reconstructed: the Play Book designates the supply-source hexes; taken as the west map edge"},
            "soviet_supply_edge": {"edge": "east", "from": "0000", "to": "7500", "rule": "6.5.1", "note": "reconstructed: the east map edge"},
        },
        "overlays": {"countries": "data/geo/hist/countries_1941.json", "cities": "data/agc/geo/cities.json",
                     "railways": "data/agc/geo/railways.json", "terrain": "data/agc/geo/terrain.json",
                     "hydro": "data/agc/geo/hydro.json", "fortified_lines": "data/geo/hist/fortified_lines.json"},
        "extracts": bd["extracts"],
        "fixes": "data/agc/map-fixes.json",
    }
    write(os.path.join(OUT, "grid.json"), grid)
    fx = os.path.join(OUT, "map-fixes.json")
    if not os.path.exists(fx):
        write(fx, {"reconstructed": True, "source": "hand corrections to the generated AGC map (none yet); an owner of the printed maps corrects hexes here", "fixes": []})
    print("anchors:", [(a["name"], a["hex"]) for a in anchors])

if __name__ == "__main__":
    main()

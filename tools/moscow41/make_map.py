#!/usr/bin/env python3
"""Builds data/moscow41/map.json: the reconstructed Moscow '41 area map.

The rulebook text (seeds/002) lost the printed map. We rebuild it from real geography
at the map's scale (1:1,000,000; board 86 x 62 cm = 860 km north-south by 620 km
west-east), from every area number the text names (set-ups, examples) and from the
historical fronts of July, October and November 1941:

  * anchor areas: every area number the text uses, placed at a historical location that
    fits its role in the set-ups (ANCHORS below, each with its reason);
  * filler areas: the other numbers, on a hexagonal lattice of seed points (spacing
    tuned so that exactly 171 numbered areas + 4 staging areas + the logo corner exist),
    numbered in reading order (north to south, west to east);
  * area polygons: Voronoi cells of the seed points (local equirectangular km), clipped
    to the map frame; adjacency = cells sharing an edge;
  * geography: the committed extracts in data/geo (provenance: data/geo/SOURCES.md),
    the same ones the BD hex map is generated from (tools/geo/mapgen.cpp); it moves no
    seed, so adjacency stays what the anchors and the lattice make it;
  * rivers: each named river's course (RIVER_COURSES, upstream to downstream through the
    towns an atlas puts on it, checked against the WDBII lines of data/geo/rivers.json)
    passes through a chain of areas; each area it passes lies on one bank (the bank of its
    city or of the town it is named for, else the bank holding most of it near the river,
    the river keeping to one side of its chain where the shares allow: SWITCH_COST), each
    neighbour on the bank holding (almost) all of it. A border is a river border when the
    river separates the two areas: they lie on opposite banks, the river does not flow
    from one into the other across it, and it lies within EDGE_KM of the course. So a
    river city is not ringed by its own river and a drive along a river pays no crossing
    at each step. map.json `rivers`
    lists per river its course, the areas it passes (with their banks) and the borders it
    forms; the connections' "river" type is derived from those borders;
  * terrain: each area is sampled on a 4 km lattice (SAMPLE_KM) inside its polygon. Yellow
    (rough: forest, swamp or hills) when the marsh, rough and forest zones of
    hist/terrain_1941.json together cover >= 40% of its land samples (OVERLAY_SHARE, the
    BD map's share; YELLOW_ZONES), or its ETOPO5 (relief.json) mean elevation is >= 230 m
    (ROUGH_MEAN_M: the Valdai and the crest of the Central Russian upland), or its local
    relief p90 - p10 is >= 120 m (ROUGH_RELIEF_M: the dissected Valdai edge). The forest
    zones are the big 1941 massifs (Rzhev-Bely, Vyazma-Yukhnov, Istra-Klin, Meshchera,
    the Lovat-Pola wooded swamps, the Chernigov-Gomel Polesie; the Valdai and Bryansk
    forests are rough zones); the BD hex map ignores them (data/bd/grid.json
    terrain.overlay_terrain: no forest terrain at 90 km). Victory for the five Victory
    Areas, Staging for 16A/9A/4A/2A, else Green. RULEBOOK_TERRAIN overrides the geodata
    only where the text fixes a terrain it does not deliver (Vyazma, 10.14.1);
  * lakes: mask.json (GSHHG) lake samples; no area may be mostly lake (the rules have
    none, 2.4: lakes are scenery); Lake Ilmen (a named feature) goes to the area holding
    the most Ilmen-basin lake samples;
  * cities: CITIES (names) placed at the coordinates of hist/cities_1941.json, else
    data/geo/cities.json (PLACE_ALIASES maps 1941 names to the data's), in the area
    containing them (one city per area); only a place missing from both keeps its hand
    coordinates and is listed in map.json geodata.hand_placed_cities (Novgorod-Seversky);
    towns (scenery names of filler areas) the same way;
  * supply edges: cells touching the north/east/south frame edges;
  * the two scenario front lines (White and Red Dashed Lines) as polylines; areas west of
    them are German at set-up.

Python 3 standard library only; deterministic (same output bytes on every run).
Usage: tools/moscow41/make_map.py [--check] [output path]   (default data/moscow41/map.json;
       --check compares instead of writing: exit status 1 when the file differs)
"""
import json
import math
import os
import sys

SOURCE = ("reconstructed by tools/moscow41/make_map.py from real geography (the data/geo extracts and "
          "1941 overlays, 1:1,000,000, 86x62 cm), the area numbers named in the rulebook set-ups and the "
          "1941 fronts")

# Map frame (lon/lat). 620 km W-E at 54.4N is ~9.6 deg; 860 km N-S is ~7.8 deg.
WEST, EAST, SOUTH, NORTH = 29.8, 39.8, 50.5, 58.3
LAT0 = 54.4
KX = 111.32 * math.cos(math.radians(LAT0))  # km per degree of longitude
KY = 110.57                                   # km per degree of latitude


def to_km(lon, lat):
  return ((lon - WEST) * KX, (lat - SOUTH) * KY)


def to_ll(x, y):
  return (round(WEST + x / KX, 4), round(SOUTH + y / KY, 4))


W_KM, H_KM = to_km(EAST, NORTH)

# ---------------------------------------------------------------------------------------
# Anchors: (id, lon, lat, name, why). Every area number the rulebook names is here.
ANCHORS = [
    ("4", 33.24, 57.98, "Valdai", "Red Star area (Last Gasp), NW Front Yellow block (Typhoon, Last Gasp)"),
    ("14", 32.47, 57.64, "Demyansk", "German 16th Army HQ in Last Gasp: the Demyansk salient"),
    ("15", 33.38, 57.52, "Lake Seliger", "Red Star area; NW Front Yellow block"),
    ("17", 33.10, 57.12, "Ostashkov", "Red Star area; NW Front Yellow block"),
    ("18", 34.57, 57.58, "Vyshny Volochek", "Soviet NW Front HQ in Typhoon, behind the Seliger line"),
    ("20", 33.55, 56.80, "Selizharovo", "Soviet Red block in Last Gasp (22nd Army sector)"),
    ("28", 31.18, 57.15, "Kholm", "Soviet NW HQ in July; German 16th Army HQ in Typhoon"),
    ("31", 35.00, 57.02, "Torzhok", "Red Star area: the German thrust to Mednoye/Torzhok, Oct 1941"),
    ("32", 34.15, 57.12, "Kuvshinovo", "Soviet NW Front HQ in Last Gasp"),
    ("33", 35.65, 57.35, "Likhoslavl", "Soviet Red block in Last Gasp (Kalinin Front)"),
    ("34", 36.60, 57.55, "Rameshki", "Soviet Red block in Last Gasp"),
    ("35", 37.60, 57.35, "Kashin", "Soviet Red block in Last Gasp"),
    ("36", 36.50, 57.00, "Kushalino", "Soviet Kalinin Front HQ in Last Gasp, east of Kalinin"),
    ("37", 37.35, 56.82, "Kimry", "Soviet Red block in Last Gasp"),
    ("41", 31.64, 56.50, "Toropets", "Soviet Airborne Corps (Remnant) in the campaign"),
    ("42", 32.10, 56.22, "Zapadnaya Dvina", "German 9th Army HQ in Typhoon"),
    ("45", 34.28, 55.83, "Sychevka", "Soviet Kalinin Front HQ in Typhoon (Reserve Front armies)"),
    ("46", 34.33, 56.26, "Rzhev", "Soviet White Army in the campaign (Rzhev-Vyazma line)"),
    ("49", 36.73, 56.33, "Klin", "Soviet Blue block in Last Gasp"),
    ("50", 37.75, 56.45, "Dmitrov", "Soviet Blue block in Last Gasp"),
    ("53", 31.20, 55.62, "Velizh", "German 2nd Fliegerkorps in Typhoon"),
    ("58", 34.95, 56.55, "Staritsa", "German 9th Army HQ in Last Gasp"),
    ("59", 35.95, 56.03, "Volokolamsk", "German 3rd Panzer Gruppe HQ in Last Gasp"),
    ("61", 36.55, 56.05, "Istra", "Soviet Blue block in Last Gasp"),
    ("62", 37.45, 56.12, "Solnechnogorsk", "Soviet Blue block in Last Gasp"),
    ("63", 37.62, 55.75, "Moscow", "Moscow is Area 63 (OR 14.3)"),
    ("66", 31.51, 55.27, "Demidov", "Balkan Cross: 3rd Panzer Gruppe spearhead, July 1941"),
    ("67", 32.25, 55.40, "Dukhovshchina", "Balkan Cross: Hoth in July; 3rd Pz Gruppe HQ in Typhoon"),
    ("68", 32.75, 55.02, "Yartsevo", "Soviet DL in the campaign (Rokossovsky's group); Scenario 1 objective"),
    ("70", 34.30, 55.21, "Vyazma", "Soviet DL in the campaign; Western Front HQ in Typhoon; combat example"),
    ("71", 35.00, 55.55, "Gzhatsk", "German 4th Pz Gruppe HQ and 2FK in Last Gasp"),
    ("72", 36.03, 55.50, "Mozhaysk", "behind the German line in Last Gasp"),
    ("73", 36.86, 55.73, "Zvenigorod", "Soviet White Army (campaign), Blue block (Last Gasp)"),
    ("74", 36.73, 55.39, "Naro-Fominsk", "Soviet Western Front HQ in Last Gasp; Typhoon White block"),
    ("75", 38.45, 55.85, "Noginsk", "Soviet Blue block in Last Gasp"),
    ("76", 39.25, 55.55, "Yegoryevsk", "Soviet Blue block in Last Gasp"),
    ("84", 36.47, 55.01, "Maloyaroslavets", "German 4th Army HQ in Last Gasp"),
    ("85", 37.55, 55.40, "Podolsk", "Soviet Blue block in Last Gasp"),
    ("89", 31.35, 54.52, "Krasny", "Balkan Cross: Guderian in July"),
    ("90", 32.04, 54.78, "Smolensk", "Balkan Cross; Victory Area; German 4th Army HQ in Typhoon"),
    ("91", 33.18, 54.57, "Yelnia", "Soviet Airborne Corps (Remnant) in the campaign; Scenario 1 objective"),
    ("93", 35.23, 54.74, "Yukhnov", "German 8th Fliegerkorps in Last Gasp"),
    ("95", 30.33, 53.90, "Mogilev", "Guderian example: a battle in 95, adjacent to 100 (the Mogilev pocket)"),
    ("96", 37.41, 54.92, "Serpukhov", "Soviet Blue block in Last Gasp"),
    ("100", 31.00, 53.92, "Chausy", "Balkan Cross: Red cavalry and tank, 24th Pz Corps over the Dnepr"),
    ("101", 32.86, 53.95, "Roslavl", "German 4th Pz Gruppe HQ in Typhoon"),
    ("108", 37.62, 54.19, "Tula", "Victory Area; Soviet Blue block (50th Army) in Last Gasp"),
    ("114", 32.85, 53.06, "Mglin", "German 2nd Army HQ in Typhoon"),
    ("117", 34.37, 53.25, "Bryansk", "Soviet Bryansk Front HQ in Typhoon; German 2nd Army HQ in Last Gasp"),
    ("121", 38.25, 54.40, "Venev", "Soviet Blue block in Last Gasp"),
    ("122", 38.75, 53.95, "Mikhailov", "Soviet Green block in Last Gasp"),
    ("127", 30.40, 52.35, "Rechitsa", "German 8th Fliegerkorps in Typhoon"),
    ("128", 31.00, 52.44, "Gomel", "Soviet Central Front HQ in the campaign"),
    ("134", 37.45, 53.75, "Plavsk", "German 2nd Panzer Gruppe HQ in Last Gasp, south of Tula"),
    ("135", 39.10, 53.30, "Skopin", "Soviet Green block in Last Gasp"),
    ("137", 38.50, 52.62, "Yelets", "Soviet Bryansk Front HQ in Last Gasp"),
    ("147", 38.35, 52.05, "Zadonsk", "Soviet Green block in Last Gasp"),
    ("154", 33.92, 51.68, "Glukhov", "German 2nd Panzer Gruppe HQ in Typhoon"),
    ("159", 37.95, 51.55, "Kastornoye", "Soviet Green block in Last Gasp"),
    ("170", 37.70, 50.85, "Stary Oskol", "Soviet Green block in Last Gasp"),
    ("171", 38.80, 50.95, "Ostrogozhsk", "Soviet Green block in Last Gasp"),
    # German Staging Areas on the west edge (2.4.4), one per army's axis of advance.
    ("16A", 30.05, 56.85, "16A Staging Area (Nevel-Velikie Luki)", "German Staging Area (2.4.4)"),
    ("9A", 30.05, 55.55, "9A Staging Area (Vitebsk)", "German Staging Area (2.4.4)"),
    ("4A", 30.05, 54.55, "4A Staging Area (Orsha)", "German Staging Area (2.4.4)"),
    ("2A", 30.05, 53.15, "2A Staging Area (Rogachev)", "German Staging Area (2.4.4)"),
]
LOGO = (39.45, 50.85)  # the unplayable logo area in the south-east corner (2.0)

VICTORY = {"63": "Moscow", "90": "Smolensk", "108": "Tula"}
VICTORY_BY_CITY = ["Kursk", "Voronezh"]  # placed by coordinates
STAGING = {"16A", "9A", "4A", "2A"}
# Terrain the rulebook fixes where the geodata does not deliver it (as data/bd/map-fixes.json
# does for the hex map): the 10.14.1 example fights in Vyazma, "a Yellow area with a city".
# The Vyazma-Yukhnov forest zone lies south of the town and covers 30% of area 70 (under
# OVERLAY_SHARE), and ETOPO5 gives it a mean of 224 m, under ROUGH_MEAN_M.
RULEBOOK_TERRAIN = {"70": ("yellow", "10.14.1 example: Vyazma is a Yellow area with a city")}

# Cities (2.4.5): name, lon, lat. One per area; Chernigov and Romny are the two special
# cities that decide Kiev (13.2). Victory Areas are listed too (they are heavy urban).
CITIES = [
    ("Moscow", 37.62, 55.75), ("Smolensk", 32.04, 54.78), ("Tula", 37.62, 54.19),
    ("Kursk", 36.19, 51.73), ("Voronezh", 39.20, 51.67),
    ("Chernigov", 31.29, 51.49), ("Romny", 33.47, 50.75),
    ("Kalinin", 35.90, 56.86), ("Kaluga", 36.26, 54.51), ("Naro-Fominsk", 36.73, 55.39),
    ("Vyazma", 34.30, 55.21), ("Rzhev", 34.33, 56.26), ("Mogilev", 30.33, 53.90),
    ("Gomel", 31.00, 52.44), ("Bryansk", 34.37, 53.25), ("Orel", 36.07, 52.97),
    ("Roslavl", 32.86, 53.95), ("Mozhaysk", 36.03, 55.50), ("Serpukhov", 37.41, 54.92),
    ("Kolomna", 38.77, 55.08), ("Ryazan", 39.74, 54.63), ("Yelets", 38.50, 52.62),
    ("Klin", 36.73, 56.33), ("Staraya Russa", 31.35, 57.99), ("Vyshny Volochek", 34.57, 57.58),
    ("Konotop", 33.20, 51.24), ("Sumy", 34.80, 50.91), ("Novgorod-Seversky", 33.27, 52.00),
    ("Velikie Luki", 30.52, 56.34), ("Torzhok", 34.96, 57.04),
]
SPECIAL_CITIES = {"Chernigov", "Romny"}

# Towns: scenery only (2.4 note), used to name filler areas.
TOWNS = [
    ("Shimsk", 30.72, 58.20), ("Lychkovo", 32.42, 57.93), ("Bologoye", 34.05, 57.88),
    ("Udomlya", 35.00, 57.88), ("Bezhetsk", 36.70, 57.78), ("Krasny Kholm", 37.12, 58.06),
    ("Uglich", 38.33, 57.53), ("Rybinsk", 38.85, 58.05), ("Dno", 29.97, 57.83),
    ("Loknya", 30.15, 56.83), ("Porkhov", 29.56, 57.77), ("Andreapol", 32.27, 56.65),
    ("Nelidovo", 32.78, 56.22), ("Olenino", 33.48, 56.21), ("Zubtsov", 34.58, 56.18),
    ("Lotoshino", 35.64, 56.23), ("Konakovo", 36.77, 56.70), ("Taldom", 37.53, 56.73),
    ("Kalyazin", 37.85, 57.24), ("Sergiev Posad", 38.13, 56.31), ("Aleksandrov", 38.70, 56.40),
    ("Kirzhach", 38.87, 56.15), ("Nevel", 29.92, 56.02), ("Usvyaty", 30.95, 55.75),
    ("Ilino", 31.85, 55.95), ("Bely", 32.94, 55.83), ("Kholm-Zhirkovsky", 33.50, 55.50),
    ("Novodugino", 34.28, 55.65), ("Gzhatsk", 35.00, 55.55), ("Ruza", 36.20, 55.70),
    ("Orekhovo-Zuyevo", 38.98, 55.80), ("Shatura", 39.54, 55.58), ("Rudnya", 31.10, 54.94),
    ("Liozno", 30.80, 55.02), ("Dorogobuzh", 33.29, 54.92), ("Semlevo", 33.95, 54.85),
    ("Temkino", 35.01, 55.10), ("Medyn", 35.86, 54.97), ("Borovsk", 36.49, 55.21),
    ("Kashira", 38.15, 54.85), ("Zaraysk", 38.88, 54.76), ("Shklov", 30.30, 54.21),
    ("Gorki", 30.99, 54.29), ("Monastyrshchina", 31.83, 54.34), ("Pochinok", 32.44, 54.41),
    ("Spas-Demensk", 34.02, 54.41), ("Kirov", 34.31, 54.08), ("Sukhinichi", 35.33, 54.10),
    ("Kozelsk", 35.78, 54.04), ("Aleksin", 37.07, 54.50), ("Stalinogorsk", 38.27, 54.01),
    ("Bykhov", 30.25, 53.52), ("Propoisk", 30.90, 53.38), ("Krichev", 31.71, 53.71),
    ("Khislavichi", 32.17, 54.19), ("Zhukovka", 33.73, 53.53), ("Lyudinovo", 34.45, 53.87),
    ("Belev", 36.13, 53.81), ("Odoev", 36.68, 53.94), ("Bogoroditsk", 38.13, 53.77),
    ("Yefremov", 38.12, 53.15), ("Zhlobin", 30.05, 52.90), ("Chechersk", 30.91, 52.92),
    ("Kostyukovichi", 32.05, 53.35), ("Klintsy", 32.24, 52.75), ("Pochep", 33.47, 52.93),
    ("Karachev", 34.97, 53.12), ("Bolkhov", 36.01, 53.44), ("Mtsensk", 36.56, 53.28),
    ("Chern", 36.91, 53.45), ("Novozybkov", 31.93, 52.54), ("Starodub", 32.56, 52.58),
    ("Trubchevsk", 33.77, 52.58), ("Navlya", 34.50, 52.83), ("Kromy", 35.70, 52.69),
    ("Livny", 37.60, 52.43), ("Novosil", 37.04, 52.97), ("Dankov", 39.14, 53.26),
    ("Lebedyan", 39.15, 53.02), ("Loyev", 30.80, 51.94), ("Gorodnya", 31.60, 51.89),
    ("Shostka", 33.48, 51.87), ("Sevsk", 34.48, 52.15), ("Dmitriev", 35.14, 52.13),
    ("Fatezh", 35.86, 52.09), ("Maloarkhangelsk", 36.50, 52.40), ("Kolpny", 37.03, 52.23),
    ("Terbuny", 38.28, 52.15), ("Nezhin", 31.88, 51.05), ("Bakhmach", 32.82, 51.18),
    ("Baturin", 32.88, 51.34), ("Putivl", 33.87, 51.33), ("Rylsk", 34.68, 51.57),
    ("Lgov", 35.26, 51.66), ("Oboyan", 36.28, 51.21), ("Tim", 37.11, 51.62),
    ("Korocha", 37.16, 50.81), ("Nizhnedevitsk", 38.37, 51.54), ("Kozelets", 31.12, 50.91),
    ("Priluki", 32.39, 50.59), ("Lokhvitsa", 33.27, 50.36), ("Lebedin", 34.48, 50.59),
    ("Belgorod", 36.59, 50.60), ("Zadonsk", 38.93, 52.39), ("Kursk-east", 36.90, 51.90),
]

# ---------------------------------------------------------------------------------------
# Geodata (data/geo, provenance in data/geo/SOURCES.md): the same extracts and 1941 overlays
# the hex maps are generated from (tools/geo/mapgen.cpp).
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GEO = os.path.join(ROOT, "data", "geo")

# WDBII lines that check the hand-traced river courses (RIVER_COURSES): classes up to 3
# (additional major); 4+ (minor, intermittent, canals) never.
NAMED_RIVER_MAX_CLASS = 3

# Terrain thresholds (Yellow = rough: forest, swamp or hills), over the land sample points
# of each area (a 4 km lattice inside its polygon):
#   * the hist/terrain_1941.json zones of YELLOW_ZONES terrain (marsh, rough, forest) together
#     covering >= OVERLAY_SHARE of them (a sample inside two zones counts once), or
#   * ETOPO5 relief: mean elevation >= ROUGH_MEAN_M, or local relief p90 - p10 >= ROUGH_RELIEF_M.
# The zones count together, not one by one: an area half Valdai hills and half Lovat swamp
# forest is as rough as one all hills. (The BD hex map ignores forest zones: grid.json
# terrain.overlay_terrain.)
YELLOW_ZONES = ("marsh", "rough", "forest")
OVERLAY_SHARE = 0.4
ROUGH_MEAN_M = 230
ROUGH_RELIEF_M = 120
SAMPLE_KM = 4.0

# An area is a lake area when >= LAKE_SHARE of its samples are lake (the rules have none:
# lakes are scenery, 2.4; the check is kept so that a frame change cannot hide one).
LAKE_SHARE = 0.5

# Rivers (2.4.6, 10.12.5.1). Each named river's course, upstream to downstream, through the
# towns an atlas puts on it (lon/lat; most points are the towns' coordinates). The WDBII
# extract (data/geo/rivers.json) has no names, only classes 1-3 here, and lacks the Ugra and
# the Vop altogether, so the course is traced by hand and WDBII only checks it: each river's
# `source` in map.json gives the mean and largest distance of its course from the nearest
# WDBII point (a source end far from WDBII is normal: WDBII's small classes stop short of
# it). Only these named rivers are game rivers (the text names none; the main rivers of the
# 1941 battles, as a player would look for them); small tributaries (the Vazuza, the
# Zhizdra) are left out, as crossings near their sources would be noise at this scale.
RIVER_COURSES = [
 ("Volga", [(32.83,57.25),(32.72,56.92),(33.10,56.88),(33.47,56.85),(33.85,56.62),(34.05,56.45),(34.33,56.26),(34.58,56.18),(34.75,56.32),(34.93,56.51),(35.30,56.68),(35.60,56.80),(35.90,56.86),(36.30,56.78),(36.77,56.72),(37.17,56.73),(37.35,56.87),(37.60,57.05),(37.85,57.24),(38.33,57.53),(38.60,57.80),(38.85,58.05),(38.95,58.30)]),
 ("Tvertsa", [(34.57,57.58),(34.75,57.30),(34.96,57.04),(35.47,56.93),(35.90,56.86)]),
 ("Western Dvina", [(32.85,56.87),(32.55,56.75),(32.27,56.65),(32.15,56.45),(32.10,56.26),(31.85,55.95),(31.50,55.75),(31.20,55.62),(30.73,55.42),(30.20,55.19),(29.80,55.30)]),
 ("Lovat", [(30.20,55.90),(30.52,56.34),(30.85,56.75),(31.18,57.15),(31.40,57.55),(31.65,57.97),(31.55,58.30)]),
 ("Dnepr", [(33.20,55.85),(33.45,55.50),(33.55,55.20),(33.29,54.92),(32.90,54.86),(32.60,54.84),(32.30,54.78),(32.05,54.78),(31.70,54.75),(31.30,54.68),(30.90,54.62),(30.42,54.51),(30.30,54.22),(30.35,53.90),(30.25,53.52),(30.05,53.09),(30.02,52.89),(30.39,52.36),(30.80,51.94),(30.65,51.70),(30.55,51.30),(30.52,50.50)]),
 ("Vop", [(32.55,55.65),(32.75,55.30),(32.70,55.07),(32.68,54.88)]),
 ("Sozh", [(32.30,54.55),(32.17,54.19),(31.71,53.71),(31.38,53.57),(30.99,53.44),(30.91,52.92),(31.00,52.44),(30.80,51.94)]),
 ("Desna", [(33.30,54.60),(33.35,54.15),(33.73,53.53),(34.37,53.25),(34.05,53.05),(33.77,52.58),(33.27,52.00),(33.05,51.65),(32.50,51.50),(31.90,51.55),(31.29,51.49),(30.88,50.95),(30.55,50.55)]),
 ("Seym", [(36.90,51.90),(36.19,51.73),(35.26,51.66),(34.68,51.57),(34.30,51.35),(33.87,51.33),(32.88,51.34),(32.45,51.50)]),
 ("Ugra", [(33.35,54.42),(33.80,54.60),(34.35,54.77),(34.90,54.80),(35.23,54.74),(35.55,54.68),(35.85,54.55),(36.14,54.49)]),
 ("Oka", [(36.50,52.35),(36.07,52.97),(36.10,53.35),(36.13,53.81),(36.25,54.10),(36.26,54.51),(36.60,54.45),(37.07,54.50),(37.18,54.72),(37.41,54.92),(37.80,54.85),(38.15,54.85),(38.77,55.08),(39.20,54.85),(39.74,54.63),(39.80,54.62)]),
 ("Moskva", [(35.40,55.50),(36.03,55.50),(36.47,55.60),(36.86,55.73),(37.25,55.78),(37.62,55.75),(37.85,55.60),(38.26,55.43),(38.68,55.32),(38.77,55.08)]),
 ("Don", [(38.27,54.01),(38.55,53.82),(38.85,53.50),(39.14,53.26),(39.15,53.02),(39.20,52.75),(38.93,52.39),(38.95,52.10),(39.05,51.85),(39.02,51.69),(39.10,51.50),(39.46,51.00),(39.65,50.50)]),
]
RIVER_TOWNS = {
    "Volga": "Peno, Selizharovo, Rzhev, Zubtsov, Staritsa, Kalinin, the Volga (Ivankovo) Reservoir of 1937 "
             "(Konakovo-Dubna), Kimry, Kalyazin, Uglich, Rybinsk",
    "Tvertsa": "Vyshny Volochek, Torzhok, Mednoye, Kalinin (its mouth)",
    "Western Dvina": "Andreapol, Zapadnaya Dvina, Velizh, Surazh, Vitebsk",
    "Lovat": "Velikie Luki, Kholm, Parfino, Lake Ilmen",
    "Dnepr": "Kholm-Zhirkovsky, Dorogobuzh, Solovyovo crossing, Smolensk, Orsha, Shklov, Mogilev, Bykhov, "
             "Rogachev, Zhlobin, Rechitsa, Loyev, Lyubech",
    "Vop": "Yartsevo, its mouth at the Solovyovo crossing",
    "Sozh": "Khislavichi, Krichev, Cherikov, Propoisk, Chechersk, Gomel, Loyev (its mouth)",
    "Desna": "Desnogorsk, Zhukovka, Bryansk, Trubchevsk, Novgorod-Seversky, Sosnitsa, Chernigov, Oster",
    "Seym": "Kursk, Lgov, Rylsk, Putivl, Baturin",
    "Ugra": "Ugra station, Yukhnov, its mouth above Kaluga (the Ugra line of October 1941)",
    "Oka": "Orel, Belev, Likhvin, Kaluga, Aleksin, Tarusa, Serpukhov, Kashira, Kolomna, Ryazan",
    "Moskva": "Mozhaysk, Tuchkovo, Zvenigorod, Moscow, Bronnitsy, Voskresensk, Kolomna (its mouth)",
    "Don": "Stalinogorsk (its source), Dankov, Lebedyan, Zadonsk, Semiluki (west of Voronezh), Liski",
}
# The bank of a city the river runs through (the old centre's bank, facing downstream), where
# the city's coordinates lie too close to the course to tell (CITY_OFF_KM).
CITY_BANK = {
    ("Dnepr", "Smolensk"): "left", ("Dnepr", "Mogilev"): "right", ("Sozh", "Gomel"): "right",
    ("Desna", "Bryansk"): "right", ("Desna", "Chernigov"): "right", ("Volga", "Kalinin"): "right",
    ("Oka", "Kaluga"): "left", ("Oka", "Serpukhov"): "left", ("Oka", "Kolomna"): "left",
    ("Oka", "Ryazan"): "right", ("Moskva", "Moscow"): "left",
}
NOT_IN_WDBII = {"Ugra", "Vop"}  # no WDBII line of classes 1-3 follows them
CITY_OFF_KM = 3.0   # a city farther than this from the course sets its area's bank
NEAR_KM = 20.0      # an area's samples within this distance of the course decide its bank
EDGE_KM = 40.0      # a border is a river border only where it comes this close to the course
SWITCH_COST = 0.3   # see river_model: how strongly a river keeps to one side of its chain of areas
NEIGHBOUR_SHARE = 0.75  # a neighbour of a passed area is on a bank when this much of it is
MIN_RUN_KM = 3.0    # the course passes through an area when it runs this far inside it

# Cities and towns whose 1941 (or map) name differs from the name in the geodata.
PLACE_ALIASES = {"Vyshny Volochek": "Vyshniy Volochek", "Velikie Luki": "Velikiye Luki",
                 "Gzhatsk": "Gagarin", "Sergiev Posad": "Sergiyev Posad", "Gorki": "Horki",
                 "Stalinogorsk": "Novomoskovsk", "Krichev": "Krychaw", "Nezhin": "Nizhyn",
                 "Priluki": "Pryluky", "Lebedin": "Lebedyn"}


def load_geo(rel):
  with open(os.path.join(GEO, rel)) as f:
    return json.load(f)


# Scenario fronts, north to south (lon/lat). The German side is west of the line.
FRONTS = {
    "typhoon": {
        "name": "White Dashed Line (front of 1 October 1941)",
        "line": [(31.80, 58.30), (32.00, 57.95), (32.85, 57.75), (32.85, 57.35), (32.60, 57.00),
                 (32.90, 56.60), (32.60, 56.00), (32.85, 55.60), (33.00, 55.10), (32.85, 54.70),
                 (33.20, 54.20), (33.35, 53.80), (33.40, 53.20), (33.50, 52.70), (33.70, 52.20),
                 (34.30, 51.80), (34.40, 51.40), (34.50, 50.50)],
    },
    "last-gasp": {
        "name": "Red Dashed Line (front of mid-November 1941)",
        "line": [(31.80, 58.30), (32.00, 57.95), (32.75, 57.80), (32.90, 57.45), (32.80, 57.05),
                 (33.20, 56.70), (33.75, 56.55), (33.90, 56.85), (34.60, 56.95), (35.50, 57.05), (36.15, 57.00),
                 (36.30, 56.75), (36.45, 56.45), (36.20, 56.20), (36.25, 55.95), (36.55, 55.55),
                 (36.45, 55.25), (36.90, 55.00), (37.05, 54.70), (36.95, 54.40), (37.35, 54.05),
                 (37.90, 54.00), (38.30, 53.60), (38.10, 53.05), (37.70, 52.50), (37.30, 51.90),
                 (37.20, 51.20), (37.30, 50.50)],
    },
}

# Road to Leningrad (2.2, 10.9): 10 boxes. Pskov first, Novgorod then Pushkin, Leningrad
# last (text); the others follow Army Group North's historical route.
ROAD = [("R1", "Pskov", False), ("R2", "Porkhov", True), ("R3", "Dno", True),
        ("R4", "Soltsy", True), ("R5", "Shimsk", True), ("R6", "Novgorod", False),
        ("R7", "Pushkin", False), ("R8", "Mga", True), ("R9", "Shlisselburg", True),
        ("R10", "Leningrad", False)]

# Campaign set-up icons (Soviet, 28): colour, type, area (one block per icon). July 1941 positions of the
# NW Front (Yellow), Central Front (Light Blue) and the reserve/western armies (White).
ICONS = [
    ("yellow", "infantry", "2"), ("yellow", "infantry", "11"), ("yellow", "tank", "14"),
    ("lightblue", "infantry", "95"), ("lightblue", "infantry", "97"), ("lightblue", "infantry", "99"),
    ("lightblue", "infantry", "107"), ("lightblue", "infantry", "127"), ("lightblue", "tank", "98"),
    ("lightblue", "tank", "116"),
    ("white", "infantry", "38"), ("white", "infantry", "39"), ("white", "infantry", "42"),
    ("white", "infantry", "48"), ("white", "infantry", "52"), ("white", "infantry", "53"),
    ("white", "infantry", "57"), ("white", "infantry", "60"), ("white", "infantry", "78"),
    ("white", "infantry", "79"), ("white", "infantry", "86"), ("white", "infantry", "101"),
    ("white", "infantry", "103"),
    ("white", "tank", "54"), ("white", "tank", "64"), ("white", "tank", "68"), ("white", "tank", "80"),
    ("white", "tank", "102"),
]


# ---------------------------------------------------------------------------------------
def clip(poly, a, b, c):
  """Keeps the part of convex polygon `poly` where a*x + b*y <= c."""
  out = []
  n = len(poly)
  for i in range(n):
    p, q = poly[i], poly[(i + 1) % n]
    fp = a * p[0] + b * p[1] - c
    fq = a * q[0] + b * q[1] - c
    if fp <= 0:
      out.append(p)
    if (fp < 0 < fq) or (fq < 0 < fp):
      t = fp / (fp - fq)
      out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
  return out


def voronoi(seeds):
  frame = [(0.0, 0.0), (W_KM, 0.0), (W_KM, H_KM), (0.0, H_KM)]
  cells = []
  for i, (xi, yi) in enumerate(seeds):
    poly = list(frame)
    # Nearest first keeps polygons small while clipping.
    order = sorted(range(len(seeds)), key=lambda j: (seeds[j][0] - xi) ** 2 + (seeds[j][1] - yi) ** 2)
    for j in order:
      if j == i:
        continue
      xj, yj = seeds[j]
      d2 = (xj - xi) ** 2 + (yj - yi) ** 2
      if poly and d2 > 4 * max((px - xi) ** 2 + (py - yi) ** 2 for px, py in poly) + 1e-9:
        break  # no farther seed can cut this cell
      a, b = xj - xi, yj - yi
      c = (xj * xj + yj * yj - xi * xi - yi * yi) / 2.0
      poly = clip(poly, a, b, c)
    cells.append(poly)
  return cells


def shared_edge(pi, pj, si, sj, tol=1e-6):
  """Length of the common border of cells i and j (points equidistant to both seeds)."""
  pts = []
  for (x, y) in pi:
    di = math.hypot(x - si[0], y - si[1])
    dj = math.hypot(x - sj[0], y - sj[1])
    if abs(di - dj) < 1e-4 * max(1.0, di):
      pts.append((x, y))
  if len(pts) < 2:
    return 0.0
  best = 0.0
  for a in range(len(pts)):
    for b in range(a + 1, len(pts)):
      best = max(best, math.hypot(pts[a][0] - pts[b][0], pts[a][1] - pts[b][1]))
  return best


def seg_cross(p1, p2, q1, q2):
  def orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
  d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
  d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
  return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def point_in_poly(pt, poly):
  x, y = pt
  inside = False
  n = len(poly)
  for i in range(n):
    x1, y1 = poly[i]
    x2, y2 = poly[(i + 1) % n]
    if (y1 > y) != (y2 > y):
      xin = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
      if x < xin:
        inside = not inside
  return inside


def german_polygon(line):
  """The German side of a front: the line closed around the west edge."""
  pts = [to_km(lon, lat) for lon, lat in line]
  return pts + [to_km(WEST - 1.0, SOUTH - 0.01), to_km(WEST - 1.0, NORTH + 0.01)]


def dist_point_segment(p, a, b):
  dx, dy = b[0] - a[0], b[1] - a[1]
  L = dx * dx + dy * dy
  t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
  return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def dist_point_polyline(p, line):
  if len(line) == 1:
    return math.hypot(p[0] - line[0][0], p[1] - line[0][1])
  return min(dist_point_segment(p, line[k - 1], line[k]) for k in range(1, len(line)))


def near_frame(lon, lat, margin):
  return WEST - margin <= lon <= EAST + margin and SOUTH - margin <= lat <= NORTH + margin


class Mask:
  """data/geo/mask.json (GSHHG h): 0 sea, 1 land, 2 lake; rows north to south, pixel
  registration. Only the rows around the frame are decoded."""

  def __init__(self):
    m = load_geo("mask.json")
    self.west, self.north, self.step = m["west"], m["north"], m["step_deg"]
    self.ncols, self.nrows = m["ncols"], m["nrows"]
    self.r0 = max(0, int((self.north - NORTH - 1.0) / self.step))
    self.r1 = min(self.nrows, int((self.north - SOUTH + 1.0) / self.step) + 1)
    self.rows = {}
    for r in range(self.r0, self.r1):
      row = bytearray()
      rle = m["rows_rle"][r]
      for k in range(0, len(rle), 2):
        row.extend(bytes([rle[k]]) * rle[k + 1])
      if len(row) != self.ncols:
        sys.exit("mask.json: run-length row %d does not add up to ncols" % r)
      self.rows[r] = row

  def cell(self, lon, lat):
    return int(math.floor((self.north - lat) / self.step)), int(math.floor((lon - self.west) / self.step))

  def at(self, lon, lat):
    r, c = self.cell(lon, lat)
    if r not in self.rows or not 0 <= c < self.ncols:
      return 1
    return self.rows[r][c]

  def drain(self, lon, lat):
    """Turns the lake holding (lon, lat) (or touching its 7x7 pixel neighbourhood) to land,
    as mapgen does for post-1941 reservoirs. Returns the number of pixels changed."""
    r0, c0 = self.cell(lon, lat)
    stack = [(r0 + dr, c0 + dc) for dr in range(-3, 4) for dc in range(-3, 4)]
    n = 0
    while stack:
      r, c = stack.pop()
      if r not in self.rows or not 0 <= c < self.ncols or self.rows[r][c] != 2:
        continue
      self.rows[r][c] = 1
      n += 1
      stack.extend([(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)])
    return n


class Relief:
  """data/geo/relief.json: ETOPO5 metres, rows north to south (nearest grid node)."""

  def __init__(self):
    m = load_geo("relief.json")
    self.west, self.north, self.dx, self.dy = m["west"], m["north"], m["dx"], m["dy"]
    self.ncols, self.nrows = m["ncols"], m["nrows"]
    self.v = m["rows_north_to_south"]

  def at(self, lon, lat):
    c = int(math.floor((lon - self.west) / self.dx + 0.5))
    r = int(math.floor((self.north - lat) / self.dy + 0.5))
    if not (0 <= r < self.nrows and 0 <= c < self.ncols):
      return 0
    return self.v[r][c]


def load_hydro(mask):
  """Rivers at 1941 (the lines that check RIVER_COURSES): WDBII polylines (km) and the old
  courses of the post-1941 reservoirs of hist/hydro_1941.json, which are drained back to
  land in the mask (so the lake samples of an area are those of 1941)."""
  hydro = load_geo("hist/hydro_1941.json")
  rivers = []  # (class, name or "", km points, lon/lat points)
  drained = []
  for res in hydro["reservoirs_post_1941"]:
    pts = [res["seed"]] + res["course"]
    if not any(near_frame(lon, lat, 0.3) for lon, lat in pts):
      continue
    n = mask.drain(*res["seed"])
    course = res["course"]
    for k in range(1, len(course)):
      (x0, y0), (x1, y1) = course[k - 1], course[k]
      steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / 0.02))
      for i in range(steps + 1):
        n += mask.drain(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
    drained.append((res["name"], n))
    rivers.append((1, res["river"], [to_km(lon, lat) for lon, lat in course], [list(p) for p in course]))
  for r in load_geo("rivers.json")["rivers"]:
    if r["class"] > NAMED_RIVER_MAX_CLASS:
      continue
    if not any(near_frame(lon, lat, 0.2) for lon, lat in r["points"]):
      continue
    rivers.append((r["class"], "", [to_km(lon, lat) for lon, lat in r["points"]], r["points"]))
  return rivers, drained


def load_places():
  """name -> (lon, lat, source) from hist/cities_1941.json (1941 name or modern name), then
  data/geo/cities.json (places of 20,000+ today), near the frame only."""
  out = {}
  for c in load_geo("cities.json")["cities"]:
    lon, lat = c["lonlat"]
    if near_frame(lon, lat, 1.0) and c["name"] not in out:
      out[c["name"]] = (lon, lat, "data/geo/cities.json")
  for c in load_geo("hist/cities_1941.json")["cities"]:
    lon, lat = c["lonlat"]
    if near_frame(lon, lat, 1.0):
      for n in (c.get("modern"), c["name"]):
        if n:
          out[n] = (lon, lat, "data/geo/hist/cities_1941.json")
  return out


def place(name, lon, lat, places):
  """Coordinates of a named place from the geodata; the hand coordinates only when the
  geodata lacks the place (small towns)."""
  for n in (name, PLACE_ALIASES.get(name)):
    if n and n in places:
      return places[n]
  return (lon, lat, "hand-placed (not in data/geo)")


def side_of(p, course):
  """+1 when p lies left of the course (facing downstream), -1 right, 0 beyond its ends;
  and the distance from p to the course."""
  best = None
  for k in range(len(course) - 1):
    (ax, ay), (bx, by) = course[k], course[k + 1]
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else ((p[0] - ax) * dx + (p[1] - ay) * dy) / L
    beyond = (k == 0 and t < 0) or (k == len(course) - 2 and t > 1)
    tc = max(0.0, min(1.0, t))
    d = math.hypot(p[0] - ax - tc * dx, p[1] - ay - tc * dy)
    if best is None or d < best[0]:
      cross = dx * (p[1] - ay) - dy * (p[0] - ax)
      best = (d, 0 if beyond else (1 if cross > 0 else -1))
  return best[1], best[0]


def shared_edge_points(pi, si, sj):
  """The two ends of the common border of cells i and j (see shared_edge)."""
  pts = [(x, y) for x, y in pi
         if abs(math.hypot(x - si[0], y - si[1]) - math.hypot(x - sj[0], y - sj[1])) <
         1e-4 * max(1.0, math.hypot(x - si[0], y - si[1]))]
  best, ends = -1.0, None
  for a in range(len(pts)):
    for b in range(a + 1, len(pts)):
      d = math.hypot(pts[a][0] - pts[b][0], pts[a][1] - pts[b][1])
      if d > best:
        best, ends = d, (pts[a], pts[b])
  return ends


def densify(line, step):
  out = []
  for k in range(len(line) - 1):
    (x0, y0), (x1, y1) = line[k], line[k + 1]
    n = max(1, int(math.ceil(math.hypot(x1 - x0, y1 - y0) / step)))
    for i in range(n):
      out.append((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n))
  out.append(line[-1])
  return out


def river_model(ids, seeds, cells, city_of, city_pt, wdbii, towns):
  """Each river of RIVER_COURSES relative to the areas: the areas it passes through (in
  course order, each with its bank), the bank of every area near it, and the borders it
  forms. Returns (map.json `rivers`, {frozenset(a, b): [river names]})."""
  live = [i for i, aid in enumerate(ids) if aid != "logo"]
  wpts = [p for _, _, km, ll in wdbii for p, q in zip(km, ll) if near_frame(q[0], q[1], 0.3)]
  inside = lambda p: 0 <= p[0] <= W_KM and 0 <= p[1] <= H_KM
  nearest = lambda p: min(range(len(seeds)), key=lambda i: (seeds[i][0] - p[0]) ** 2 + (seeds[i][1] - p[1]) ** 2)
  samples = {i: area_samples(cells[i]) for i in live}
  docs, borders = [], {}
  for name, course_ll in RIVER_COURSES:
    course = [to_km(lon, lat) for lon, lat in course_ll]
    dense = densify(course, 1.0)
    run, order = {}, []
    for q in dense:
      if not inside(q):
        continue
      i = nearest(q)
      run[i] = run.get(i, 0.0) + 1.0
      if i not in order:
        order.append(i)
    passed = [i for i in order if run[i] >= MIN_RUN_KM and ids[i] != "logo"]
    # Banks. An area the course passes through lies on its city's bank (CITY_BANK, else the
    # side of its city, or of the town it is named for, when that is off the course), else on one bank chosen along the course so
    # that the river changes sides between areas as rarely as the areas' shares allow (a
    # change costs SWITCH_COST; an area put on the bank holding the smaller share of it near
    # the river costs the difference of the shares): the river then runs along the borders
    # of a chain of areas as a printed map draws it. A neighbour of such an area lies on the
    # bank holding (almost) all of it.
    def shares(i, near_only):
      left = right = 0
      for p in samples[i]:
        sd, d = side_of(p, course)
        if not near_only or d <= NEAR_KM:
          left += sd > 0
          right += sd < 0
      return left, right
    fixed, share_of = {}, {}
    for i in passed:
      city = city_of.get(ids[i])
      if city and (name, city) in CITY_BANK:
        fixed[i] = (1 if CITY_BANK[(name, city)] == "left" else -1,
                    "city %s: its old centre is on the %s bank" % (city, CITY_BANK[(name, city)]))
      elif city or ids[i] in towns:
        place_name, pt = (city, city_pt[ids[i]]) if city else towns[ids[i]]
        sd, d = side_of(pt, course)
        if sd and d >= CITY_OFF_KM:
          fixed[i] = (sd, "%s %s, %.0f km from the river" % ("city" if city else "town", place_name, d))
      share_of[i] = shares(i, True)
    def cost(i, b):
      if i in fixed:
        return 0.0 if fixed[i][0] == b else 1e9
      left, right = share_of[i]
      n = max(1, left + right)
      return max(0.0, ((right - left) if b > 0 else (left - right)) / n)
    best = {b: (cost(passed[0], b), [b]) for b in (1, -1)} if passed else {}
    for i in passed[1:]:
      best = {b: min((best[pb][0] + (SWITCH_COST if pb != b else 0.0) + cost(i, b), best[pb][1] + [b])
                     for pb in (1, -1)) for b in (1, -1)}
    chosen = min(best.values())[1] if passed else []
    bank, why = {}, {}
    for i, b in zip(passed, chosen):
      bank[i] = b
      if i in fixed:
        why[i] = fixed[i][1]
      else:
        left, right = share_of[i]
        why[i] = "%d%% of it near the river on this bank" % round(100 * (left if b > 0 else right) /
                                                                   max(1, left + right))
    for i in live:
      if i in bank or not any(shared_edge(cells[i], cells[j], seeds[i], seeds[j]) >= 2.0 for j in passed):
        continue
      left, right = shares(i, False)
      if left + right and max(left, right) / (left + right) >= NEIGHBOUR_SHARE:
        bank[i] = 1 if left > right else -1
    # Borders: a passed area and an area on the other bank, unless the river flows from one
    # into the other across that border (then both straddle it: no crossing).
    formed = []
    for ii, i in enumerate(live):
      for j in live[ii + 1:]:
        if i not in bank or j not in bank or bank[i] == bank[j] or (i not in passed and j not in passed):
          continue
        if shared_edge(cells[i], cells[j], seeds[i], seeds[j]) < 2.0:
          continue
        e0, e1 = shared_edge_points(cells[i], seeds[i], seeds[j])
        if any(seg_cross(e0, e1, course[k], course[k + 1]) for k in range(len(course) - 1)):
          continue
        d, sd = min((side_of(q, course)[1], side_of(q, course)[0]) for q in densify([e0, e1], 1.0))
        if d > EDGE_KM or sd == 0:
          continue  # far from the river, or beyond its source or mouth
        pair = sorted((ids[i], ids[j]), key=lambda a: (0, int(a)) if a.isdigit() else (1, a))
        formed.append(pair)
        borders.setdefault(frozenset(pair), []).append(name)
    formed.sort(key=lambda pr: [(0, int(a)) if a.isdigit() else (1, a) for a in pr])
    ds = [min(math.hypot(q[0] - w[0], q[1] - w[1]) for w in wpts) for q in densify(course, 3.0) if inside(q)]
    side_name = {1: "left", -1: "right"}
    docs.append({
        "name": name,
        "reconstructed": True,
        "source": "course through %s (atlas), upstream to downstream; %s" % (
            RIVER_TOWNS[name],
            ("absent from data/geo/rivers.json (WDBII classes 1-3), so traced by hand only" if name in NOT_IN_WDBII
             else "checked against data/geo/rivers.json (WDBII classes 1-3): mean %.1f km, largest %.1f km from "
             "its lines" % (sum(ds) / len(ds), max(ds)))),
        "line": [[lon, lat] for lon, lat in course_ll],
        "areas": [{"id": ids[i], "bank": side_name[bank[i]], "by": why[i]} for i in passed if i in bank],
        "borders": formed,
    })
  return docs, borders


def area_samples(cell):
  """Lattice points (SAMPLE_KM) inside a cell, at least its centroid."""
  xs = [p[0] for p in cell]
  ys = [p[1] for p in cell]
  pts = []
  y = math.floor(min(ys) / SAMPLE_KM) * SAMPLE_KM + SAMPLE_KM / 2
  while y < max(ys):
    x = math.floor(min(xs) / SAMPLE_KM) * SAMPLE_KM + SAMPLE_KM / 2
    while x < max(xs):
      if point_in_poly((x, y), cell):
        pts.append((x, y))
      x += SAMPLE_KM
    y += SAMPLE_KM
  if not pts:
    pts.append((sum(xs) / len(xs), sum(ys) / len(ys)))
  return pts


def build():
  anchors = [(aid, to_km(lon, lat), name, why) for aid, lon, lat, name, why in ANCHORS]
  fixed = [p for _, p, _, _ in anchors] + [to_km(*LOGO)]
  anchored_numbers = {aid for aid, *_ in ANCHORS if aid not in STAGING}
  free_numbers = [str(n) for n in range(1, 172) if str(n) not in anchored_numbers]
  want = len(free_numbers)

  # Hexagonal lattice; pick the spacing (deterministic scan) that leaves exactly `want`
  # lattice points farther than `clear` km from every anchor.
  def lattice(d, clear):
    pts = []
    row = 0
    y = H_KM - d * 0.45
    while y > 0:
      x = (d * 0.5 if row % 2 else 0.0) + d * 0.35
      while x < W_KM:
        if all((x - fx) ** 2 + (y - fy) ** 2 >= clear * clear for fx, fy in fixed):
          pts.append((row, x, y))
        x += d
      y -= d * math.sqrt(3) / 2
      row += 1
    return pts

  chosen = None
  for k in range(0, 3000):
    d = 50.0 + k * 0.01
    pts = lattice(d, 0.62 * d)
    if len(pts) == want:
      chosen = (d, pts)
      break
  if chosen is None:
    sys.exit("no lattice spacing gives exactly %d filler areas" % want)
  d, pts = chosen
  pts.sort(key=lambda p: (p[0], p[1]))  # reading order: row north->south, then west->east

  ids, seeds, names, why = [], [], [], []
  for aid, p, name, reason in anchors:
    ids.append(aid); seeds.append(p); names.append(name); why.append(reason)
  for num, (_, x, y) in zip(free_numbers, pts):
    ids.append(num); seeds.append((x, y)); names.append(None); why.append(None)
  ids.append("logo"); seeds.append(to_km(*LOGO)); names.append(None); why.append(None)

  cells = voronoi(seeds)
  idx = {aid: i for i, aid in enumerate(ids)}

  def containing(lon, lat):
    p = to_km(lon, lat)
    best = min(range(len(seeds)), key=lambda i: (seeds[i][0] - p[0]) ** 2 + (seeds[i][1] - p[1]) ** 2)
    return ids[best]

  # Cities and towns: coordinates from the geodata (hand coordinates only for places it lacks).
  places = load_places()
  city_of, city_src, city_pt = {}, {}, {}
  hand_placed = []
  for name, lon0, lat0 in CITIES:
    lon, lat, src = place(name, lon0, lat0, places)
    if src.startswith("hand"):
      hand_placed.append(name)
    if not (WEST < lon < EAST and SOUTH < lat < NORTH):
      continue
    aid = containing(lon, lat)
    if aid in city_of or aid in STAGING or aid == "logo":
      continue
    city_of[aid] = name
    city_pt[aid] = to_km(lon, lat)
    city_src[aid] = "%s at %.2fE %.2fN (%s)" % (name, lon, lat, src)
  town_names, town_pt = {}, {}  # town_pt: the town an area is named for, if no city
  for name, lon0, lat0 in TOWNS:
    lon, lat, src = place(name, lon0, lat0, places)
    if not (WEST < lon < EAST and SOUTH < lat < NORTH):
      continue
    aid = containing(lon, lat)
    town_names.setdefault(aid, []).append(name)
    town_pt.setdefault(aid, (name, to_km(lon, lat)))

  # Geography per area: land/lake samples, ETOPO5 relief, 1941 terrain zones.
  mask, relief = Mask(), Relief()
  rivers, drained = load_hydro(mask)
  zones = [(z["terrain"], z["name"], z["polygon"]) for z in load_geo("hist/terrain_1941.json")["zones"]
           if z["terrain"] in YELLOW_ZONES and any(near_frame(lon, lat, 1.0) for lon, lat in z["polygon"])]
  geo = {}
  for i, aid in enumerate(ids):
    if aid == "logo":
      continue
    land = lake = ilmen = 0
    elev = []
    zcount = {}
    rough_n = 0  # land samples inside at least one Yellow zone
    for x, y in area_samples(cells[i]):
      lon, lat = WEST + x / KX, SOUTH + y / KY
      m = mask.at(lon, lat)
      if m == 2:
        lake += 1
        if lat > 58.0 and lon < 32.0:  # the Ilmen basin, cut by the map's north edge
          ilmen += 1
        continue
      if m == 0:
        continue
      land += 1
      elev.append(relief.at(lon, lat))
      inside = [zi for zi, (_, _, poly) in enumerate(zones) if point_in_poly((lon, lat), poly)]
      for zi in inside:
        zcount[zi] = zcount.get(zi, 0) + 1
      if inside:
        rough_n += 1
    elev.sort()
    n = max(1, land)
    g = {"land": land, "lake": lake, "ilmen": ilmen, "mean": sum(elev) / n if elev else 0,
         "p90": elev[len(elev) * 9 // 10] if elev else 0, "p10": elev[len(elev) // 10] if elev else 0,
         "zone_share": rough_n / n}
    reasons = []
    if rough_n / n >= OVERLAY_SHARE:
      reasons.append("%s of data/geo/hist/terrain_1941.json cover %d%% of its land" % (
          " + ".join("%s (%s, %d%%)" % (zones[zi][1], zones[zi][0], round(100 * zcount[zi] / n))
                     for zi in sorted(zcount, key=lambda z: (-zcount[z], z))), round(100 * rough_n / n)))
    if g["mean"] >= ROUGH_MEAN_M:
      reasons.append("ETOPO5 mean elevation %d m >= %d" % (g["mean"], ROUGH_MEAN_M))
    if g["p90"] - g["p10"] >= ROUGH_RELIEF_M:
      reasons.append("ETOPO5 local relief %d m >= %d" % (g["p90"] - g["p10"], ROUGH_RELIEF_M))
    g["rough"] = reasons
    g["is_lake"] = lake >= LAKE_SHARE * (land + lake) and lake > 0
    geo[aid] = g
  ilmen_area = max((a for a in geo if geo[a]["ilmen"] > 0), key=lambda a: (geo[a]["ilmen"], a), default=None)

  german = {k: german_polygon(v["line"]) for k, v in FRONTS.items()}

  areas = []
  for i, aid in enumerate(ids):
    if aid == "logo":
      continue
    lon, lat = to_ll(*seeds[i])
    poly = [list(to_ll(x, y)) for x, y in cells[i]]
    if aid in STAGING:
      terrain = "staging"
    elif aid in VICTORY or city_of.get(aid) in VICTORY_BY_CITY:
      terrain = "victory"
    elif aid in RULEBOOK_TERRAIN:
      terrain = RULEBOOK_TERRAIN[aid][0]
      geo[aid]["rough"] = ["fixed by the rulebook: " + RULEBOOK_TERRAIN[aid][1]]
    elif geo[aid]["rough"]:
      terrain = "yellow"
    else:
      terrain = "green"
    if geo[aid]["is_lake"]:
      sys.exit("area %s is mostly lake: the rules have no lake areas (2.4); move its seed" % aid)
    name = names[i] or city_of.get(aid) or (town_names.get(aid) or [None])[0] or ("Area " + aid)
    features = []
    city = city_of.get(aid)
    if city:
      features.append("special_city" if city in SPECIAL_CITIES else "city")
    if aid == ilmen_area:
      features.append("lake_ilmen")
    # Which frame edges the cell touches (for the red-border supply sources, 2.1).
    edges = set()
    for (x1, y1), (x2, y2) in zip(cells[i], cells[i][1:] + cells[i][:1]):
      if abs(y1 - H_KM) < 1e-6 and abs(y2 - H_KM) < 1e-6 and abs(x1 - x2) > 1: edges.add("north")
      if abs(y1) < 1e-6 and abs(y2) < 1e-6 and abs(x1 - x2) > 1: edges.add("south")
      if abs(x1 - W_KM) < 1e-6 and abs(x2 - W_KM) < 1e-6 and abs(y1 - y2) > 1: edges.add("east")
      if abs(x1) < 1e-6 and abs(x2) < 1e-6 and abs(y1 - y2) > 1: edges.add("west")
    side = {k: ("german" if point_in_poly(seeds[i], g) else "soviet") for k, g in german.items()}
    a = {"id": aid, "name": name, "terrain": terrain, "features": features,
         "centre": [lon, lat], "polygon": poly, "edges": sorted(edges)}
    if city:
      a["city"] = city
    towns = [t for t in town_names.get(aid, []) if t != name]
    if towns:
      a["towns"] = towns
    a["front_side"] = side
    a["reconstructed"] = True
    a["source"] = ("area number named in the rulebook; placed at " + names[i] + ": " + why[i]) if why[i] \
        else SOURCE + "; filler area numbered in reading order"
    g = geo[aid]
    if terrain in ("green", "yellow"):
      a["source"] += "; terrain %s: %s" % (terrain, "; ".join(g["rough"]) if g["rough"] else
                                           "no terrain_1941 zone, ETOPO5 mean %d m, local relief %d m"
                                           % (g["mean"], g["p90"] - g["p10"]))
    if city:
      a["source"] += "; city: " + city_src[aid]
    areas.append(a)

  # Supply icons (2.1, 2.2). North edge cells W->E (the north-east corner cell included):
  # first 5 light blue (cut by Shlisselburg), next 5 blue (cut by Leningrad). South edge:
  # the 7 easternmost cells carry the orange icon (cut by Kiev); the westernmost south-edge
  # cells, facing Army Group South, are not red border. East edge cells are permanent
  # sources. `supply` lists every source tag of the area.
  north = sorted([a for a in areas if "north" in a["edges"]], key=lambda a: a["centre"][0])
  south = sorted([a for a in areas if "south" in a["edges"] and "east" not in a["edges"]
                  and a["terrain"] != "staging"], key=lambda a: a["centre"][0])
  for a in areas:
    a["supply"] = []
  for k, a in enumerate(north[-10:]):
    a["supply"].append("shlisselburg" if k < 5 else "leningrad")
  for a in south[-7:]:
    a["supply"].append("kiev")
  for a in areas:
    if "east" in a["edges"]:
      a["supply"].append("east")
    if a["terrain"] == "staging":
      a["supply"].append("german")

  # Adjacency and rivers (see RIVER_COURSES): each river's course gives the areas it passes
  # through, each on one bank; a border is a river border when the river separates the two
  # areas (they lie on opposite banks and their common border runs along the course), never
  # when the river flows from one into the other on the same bank.
  river_docs, river_borders = river_model(ids, seeds, cells, city_of, city_pt, rivers,
                                          {**{ids[i]: town_pt[ids[i]] for i in range(len(ids))
                                              if ids[i] in town_pt and not names[i] and ids[i] not in city_of},
                                           # an anchor area is named for the place at its seed
                                           **{ids[i]: (names[i], seeds[i]) for i in range(len(ids))
                                              if names[i] and ids[i] not in STAGING and ids[i] not in city_of}})
  conns = []
  live = [i for i, aid in enumerate(ids) if aid != "logo"]
  for ii, i in enumerate(live):
    for j in live[ii + 1:]:
      if shared_edge(cells[i], cells[j], seeds[i], seeds[j]) < 2.0:
        continue
      rnames = sorted(river_borders.get(frozenset((ids[i], ids[j])), []))
      types = ["land"] + (["river"] if rnames else [])
      c = {"a": ids[i], "b": ids[j], "types": types}
      if rnames:
        c["rivers"] = rnames
      conns.append(c)
  adjacent = {frozenset((c["a"], c["b"])) for c in conns}
  for pair, names in river_borders.items():
    if pair not in adjacent:
      sys.exit("river border %s (%s) between areas that share no border" % (sorted(pair), names))

  def key(aid):
    return (0, int(aid)) if aid.isdigit() else (1, aid)

  areas.sort(key=lambda a: key(a["id"]))
  for c in conns:
    if key(c["a"]) > key(c["b"]):
      c["a"], c["b"] = c["b"], c["a"]
  conns.sort(key=lambda c: (key(c["a"]), key(c["b"])))

  boxes = [{"id": "rastenburg", "name": "Rastenburg", "kind": "rastenburg",
            "reconstructed": False, "source": "2.2"},
           {"id": "kiev", "name": "Kiev", "kind": "kiev", "victory": True, "reconstructed": False,
            "source": "2.2, 13.2"}]
  for k, (bid, name, recon) in enumerate(ROAD):
    b = {"id": bid, "name": name, "kind": "road", "road_index": k + 1}
    if name == "Leningrad":
      b["victory"] = True
    if name == "Shlisselburg":
      b["shlisselburg"] = True
    b["reconstructed"] = recon
    b["source"] = ("reconstructed: Army Group North's route Pskov-Luga/Shimsk-Novgorod-Pushkin-"
                   "Mga-Shlisselburg-Leningrad; the text fixes only Pskov (1), Novgorod->Pushkin, "
                   "Leningrad (10) and that Shlisselburg is on the road") if recon else "2.2, 10.9"
    boxes.append(b)
  for k in range(len(ROAD) - 1):
    conns.append({"a": ROAD[k][0], "b": ROAD[k + 1][0], "types": ["road_to_leningrad"]})

  icons = []
  for colour, utype, aid in ICONS:
    icons.append({"area": aid, "colour": colour, "type": utype})

  doc = {
      "format": "steppe-areamap-1",
      "game": "moscow41",
      "reconstructed": True,
      "source": SOURCE,
      "frame": {"west": WEST, "east": EAST, "south": SOUTH, "north": NORTH,
                "scale_km_per_cm": 10, "lattice_spacing_km": round(d, 2)},
      "terrain_types": ["green", "yellow", "victory", "staging"],
      "area_features": ["city", "special_city", "lake_ilmen"],
      "connection_types": ["land", "river", "road_to_leningrad"],
      "areas": areas,
      "boxes": boxes,
      "connections": conns,
      "rivers": river_docs,
      "geodata": {
          "source": "data/geo (see data/geo/SOURCES.md): rivers.json (WDBII), relief.json (ETOPO5), "
                    "mask.json (GSHHG), cities.json; hist/hydro_1941.json, hist/terrain_1941.json, "
                    "hist/cities_1941.json",
          "rivers": "courses traced in tools/moscow41/make_map.py RIVER_COURSES (atlas towns on each river), "
                    "checked against the WDBII lines of data/geo/rivers.json (classes 1-3): each river's "
                    "source gives its mean and largest distance from them",
          "rough": {"overlay_share": OVERLAY_SHARE, "mean_elev_m": ROUGH_MEAN_M, "local_relief_m": ROUGH_RELIEF_M,
                    "sample_km": SAMPLE_KM},
          "reservoirs_drained": [{"name": n, "lake_pixels": k} for n, k in drained],
          "hand_placed_cities": hand_placed,
      },
      "fronts": {k: {"name": v["name"], "line": [list(p) for p in v["line"]]} for k, v in FRONTS.items()},
      "setup_icons": {"reconstructed": True,
                      "source": "July 1941 positions of the NW Front (Yellow), Central Front "
                                "(Light Blue) and reserve armies (White); 20 infantry + 8 tank icons "
                                "(campaign set-up step 8)",
                      "icons": icons},
  }
  return doc


def main():
  check = "--check" in sys.argv[1:]
  args = [a for a in sys.argv[1:] if a != "--check"]
  out = args[0] if args else os.path.join(
      os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "moscow41", "map.json")
  doc = build()
  text = json.dumps(doc, indent=None, separators=(",", ":"), sort_keys=False)
  # One area / connection per line keeps diffs readable.
  text = text.replace("},{\"id\"", "},\n{\"id\"").replace("},{\"a\"", "},\n{\"a\"")
  if check:  # the committed map must be exactly what this tool writes
    with open(out) as f:
      same = f.read() == text + "\n"
    print("%s: %s" % (out, "reproduced byte for byte" if same else "DIFFERS from what make_map.py writes now; "
                      "edit the tool's inputs and re-run it, never map.json by hand"))
    sys.exit(0 if same else 1)
  with open(out, "w") as f:
    f.write(text + "\n")
  n_areas = len(doc["areas"])
  print("wrote %s: %d areas, %d boxes, %d connections" % (out, n_areas, len(doc["boxes"]),
                                                          len(doc["connections"])))


if __name__ == "__main__":
  main()

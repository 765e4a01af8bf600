#!/usr/bin/env python3
"""Writes data/agc/counters.json, the reconstructed counter mix of Barbarossa: Army Group
Center, from the historical orders of battle of 22 June 1941 and the reinforcements of June to
September 1941 (sources in data/agc/SOURCES-oob.md). The printed counters are MISSING from the
rulebook text; what the text fixes is applied and cited:

  16.3.2  steps from the full-side defense: >= 8 four, >= 5 three, else two; one-sided counters,
          Soviet HQs, Untried units and Axis S-H artillery one step
  16.3.3  a Step Loss marker is -2 attack and -2 defense (ruling A-20)
  3.0e    stacking points, 10 a hex; HQs, MSUs, Dumps, Bridges 0 (ruling A-6)
  10.5.10, 11.5, 22.7  MA colours: yellow motorized (infiltrate with MA >= 7, ruling A-10),
          orange (artillery, Soviet AA, truck MSUs), green (super-heavy artillery), white (leg)
  15.6.7a red attack factor = armor type; 15.6.8 Panzer / Motorized division components
  22.x    HQ command and recovery values, Untried UR/MG and Militia, NKVD, Guards, flotilla
  23.0    German infantry divisions detach regiment substitute counters

Values are by unit type (TYPES below), adjusted for a few units the sources single out. This
script wrote the JSON once; the JSON is the data (re-running it overwrites hand edits).

    python3 tools/agc/make_oob.py [--check]
"""
import json
import os
import sys
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "data", "agc", "counters.json")
DAY1 = date(1941, 6, 22)


def turn_of(m, d):
    """Turn of a 1941 date: two days a turn, turn 1 = 22-23 June (ruling A-1)."""
    return (date(1941, m, d) - DAY1).days // 2 + 1


# type: (attack, defense, ma, colour, stacking, reduced (attack, defense) or None, extra)
TYPES = {
    # Axis
    "de-infantry-division": (6, 8, 5, "white", 3, (3, 4), {"rsc": True}),
    "de-security-division": (2, 4, 5, "white", 2, (1, 2), {"rsc": True, "zoc": False}),
    "de-cavalry-division": (4, 5, 8, "white", 3, (2, 2), {"cavalry": True}),
    "de-panzer-regiment": (9, 5, 10, "yellow", 2, (4, 2), {"armor": True}),
    "de-rifle-regiment": (3, 4, 9, "yellow", 2, (2, 2), {}),
    "de-motorized-infantry-regiment": (3, 4, 9, "yellow", 2, (2, 2), {}),
    "de-ss-motorized-regiment": (4, 4, 9, "yellow", 2, (2, 2), {}),
    "de-gd-motorized-regiment": (5, 5, 9, "yellow", 2, (2, 3), {"rsc": True, "rsc_non_motorized": True}),
    "de-recon-battalion": (2, 3, 11, "yellow", 1, (1, 1), {}),
    "de-motorized-engineer-battalion": (2, 2, 9, "yellow", 1, (1, 1), {"engineer": True}),
    "de-motorized-brigade": (5, 5, 9, "yellow", 3, (2, 3), {}),
    "de-assault-gun-battalion": (4, 3, 10, "yellow", 1, None, {"armor": True}),
    "de-motorized-aa-regiment": (2, 3, 9, "yellow", 1, None, {"aa": True, "zoc": False}),
    "de-corps-artillery": (0, 2, 6, "orange", 1, (0, 1), {"support": 5, "reduced_support": 3, "range": 3, "zoc": False}),
    "de-super-heavy-artillery": (0, 1, 2, "green", 1, None, {"support": 0, "range": None, "sh": True, "support_side": {"support": 8, "range": 2, "attack_drm": -1, "ma": 0}, "zoc": False}),
    # Soviet
    "su-rifle-division": (4, 5, 5, "white", 3, (1, 2), {}),
    "su-rifle-division-weak": (3, 4, 5, "white", 3, (1, 2), {}),
    "su-guards-rifle-division": (5, 6, 5, "white", 3, (2, 3), {"guards": True}),
    "su-militia-division": (2, 4, 4, "white", 3, (1, 2), {"militia": True}),
    "su-tank-division": (6, 4, 8, "yellow", 3, (3, 2), {"armor": True}),
    "su-tank-division-weak": (4, 3, 8, "yellow", 3, (2, 1), {"armor": True}),
    "su-motorized-division": (4, 4, 8, "yellow", 3, (2, 2), {}),
    "su-tank-brigade": (4, 2, 8, "yellow", 1, (2, 1), {"armor": True}),
    "su-cavalry-division": (2, 3, 7, "white", 2, (1, 1), {"cavalry": True}),
    "su-airborne-brigade": (2, 2, 5, "white", 1, (1, 1), {"airborne": True}),
    "su-nkvd-border-detachment": (1, 2, 5, "white", 1, None, {"nkvd": True}),
    "su-nkvd-rifle-division": (2, 4, 5, "white", 2, (1, 2), {"nkvd": True}),
    "su-artillery-regiment": (0, 1, 5, "orange", 1, None, {"support": 4, "range": 3, "zoc": False}),
    "su-aa-brigade": (0, 2, 5, "orange", 1, None, {"aa": True, "zoc": False}),
    "su-hq": (0, 1, 6, "white", 0, None, {"hq": True, "zoc": False}),
    "su-flotilla": (1, 1, 16, "blue", 0, None, {"flotilla": True, "zoc": False, "cannot_rebuild": True}),
    "su-armored-train": (2, 2, 48, "rail", 0, None, {"armored_train": True}),
    "su-engineer-battalion": (1, 1, 5, "white", 1, None, {"engineer": True}),
}


def steps_of(defense, reduced, extra):
    """16.3.2."""
    if extra.get("hq") or extra.get("untried") or extra.get("sh") or reduced is None:
        return 1
    return 4 if defense >= 8 else 3 if defense >= 5 else 2


UNITS = []


def unit(uid, name, side, typ, *, label=None, formation=None, division=None, entry_turn=1,
         withdraw_turn=None, source=None, override=None, **more):
    a, d, ma, colour, stack, red, extra = TYPES[typ]
    extra = dict(extra)
    if override:
        a, d, ma = override.get("attack", a), override.get("defense", d), override.get("ma", ma)
        red = override.get("reduced", red)
    extra.update(more)
    u = {
        "id": uid, "label": label or uid.split("-", 1)[1].upper(), "name": name, "side": side,
        "nation": "german" if side == "axis" else "soviet", "type": typ.split("-", 1)[1].replace("-weak", ""),
        "formation": formation, "full": {"attack": a, "defense": d},
        "reduced": ({"attack": red[0], "defense": red[1]} if red else None),
        "ma": ma, "ma_colour": colour, "motorized": colour == "yellow",
        "armor": bool(extra.pop("armor", False)), "zoc": extra.pop("zoc", True),
        "stacking": stack, "steps": steps_of(d, red, extra), "entry_turn": entry_turn,
    }
    if division:
        u["division"] = division
    if withdraw_turn:
        u["withdraw_turn"] = withdraw_turn
    for k, v in extra.items():
        u[k] = v
    if u.get("hq"):
        u["rail_capacity"] = 1  # ruling A-6
    u["reconstructed"] = True
    u["source"] = source or "historical order of battle (SOURCES-oob.md); values by type (tools/agc/make_oob.py TYPES)"
    UNITS.append(u)
    return u


# ------------------------------------------------------------------------------------------
# Axis: Army Group Center, 22 June 1941 (Panzer Groups 2 and 3, 4th and 9th Armies)

AXIS_INFANTRY = {  # corps: divisions, with their army / panzer group on 22 June
    ("4th Army", "VII AK"): [7, 23, 258, 268],
    ("4th Army", "IX AK"): [137, 263, 292],
    ("4th Army", "XIII AK"): [17, 78],
    ("4th Army", "XLIII AK"): [131, 134, 252],
    ("Panzer Group 2", "XII AK"): [31, 34, 45],
    ("Panzer Group 2", "XXIV PzK"): [255, 267],
    ("Panzer Group 2", "XLVII PzK"): [167],
    ("9th Army", "VIII AK"): [8, 28, 161],
    ("9th Army", "XX AK"): [162, 256],
    ("9th Army", "XLII AK"): [87, 102, 129],
    ("Panzer Group 3", "V AK"): [5, 35],
    ("Panzer Group 3", "VI AK"): [6, 26],
    ("AGC reserve", "LIII AK"): [293],
}
for (army, corps), divs in AXIS_INFANTRY.items():
    for n in divs:
        unit("de-%did" % n, "%d. Infanterie-Division" % n, "axis", "de-infantry-division",
             label="%d ID" % n, formation="%s / %s" % (army, corps))

# Infantry arriving from OKH reserve and 2nd Army (July - September)
for n, (m, d), src in [
        (52, (7, 2), "OKH reserve, to 2nd Army early July"), (106, (7, 4), "OKH reserve, to 9th Army"),
        (110, (7, 4), "OKH reserve, to 9th Army"), (112, (7, 6), "OKH reserve, to 2nd Army"),
        (197, (7, 8), "OKH reserve, to 4th Army"), (260, (7, 8), "OKH reserve, to 2nd Army"),
        (15, (7, 20), "OKH reserve, to the Smolensk front"), (183, (9, 20), "from the West, for Typhoon")]:
    unit("de-%did" % n, "%d. Infanterie-Division" % n, "axis", "de-infantry-division",
         label="%d ID" % n, formation="reinforcement (%s)" % src, entry_turn=turn_of(m, d))

for n, corps in [(221, "AGC rear (Berück Mitte)"), (286, "AGC rear (Berück Mitte)"), (403, "AGC rear (Berück Mitte)")]:
    unit("de-%dsd" % n, "%d. Sicherungs-Division" % n, "axis", "de-security-division",
         label="%d Sich" % n, formation=corps)
unit("de-1kd", "1. Kavallerie-Division", "axis", "de-cavalry-division", label="1 KavD",
     formation="Panzer Group 2 / XXIV PzK")

# Panzer divisions: Panzer regiment, two rifle regiments, recon (Kradschützen) battalion,
# motorized engineer battalion (15.6.8: three of the first four qualify the division)
PANZER = [  # division, corps, group, panzer rgt, rifle rgts, recon, engineer
    (3, "XXIV PzK", "Panzer Group 2", 6, (3, 394), "K1", 39),
    (4, "XXIV PzK", "Panzer Group 2", 35, (12, 33), "K34", 79),
    (10, "XLVI PzK", "Panzer Group 2", 7, (69, 86), "K10", 49),
    (17, "XLVII PzK", "Panzer Group 2", 39, (40, 63), "K17", 27),
    (18, "XLVII PzK", "Panzer Group 2", 18, (52, 101), "K18", 98),
    (7, "XXXIX PzK", "Panzer Group 3", 25, (6, 7), "K7", 58),
    (20, "XXXIX PzK", "Panzer Group 3", 21, (59, 112), "K20", 92),
    (12, "LVII PzK", "Panzer Group 3", 29, (5, 25), "K22", 32),
    (19, "LVII PzK", "Panzer Group 3", 27, (73, 74), "K19", 19),
]
XXXIX_TO_AGN = turn_of(8, 16)  # 12. PD, 18. and 20. ID (mot) went north to Leningrad (Aug 1941)
for div, corps, group, pzr, rifles, recon, eng in PANZER:
    d = "%d PD" % div
    f = "%s / %s / %s" % (group, corps, d)
    wd = XXXIX_TO_AGN if div == 12 else None
    stronger = {"attack": 10, "defense": 5} if div in (7, 17, 18) else None  # three-battalion regiments
    unit("de-pzr%d" % pzr, "Panzer-Regiment %d (%d. PD)" % (pzr, div), "axis", "de-panzer-regiment",
         label="%d/%d" % (pzr, div), formation=f, division=d, withdraw_turn=wd, override=stronger,
         source="Panzer regiment of the %d. Panzer-Division, 22 June 1941 (SOURCES-oob.md); 10 attack for the three-battalion regiments of 7., 17., 18. PD" % div if stronger else None)
    for r in rifles:
        unit("de-sr%d" % r, "Schützen-Regiment %d (%d. PD)" % (r, div), "axis", "de-rifle-regiment",
             label="%d/%d" % (r, div), formation=f, division=d, withdraw_turn=wd)
    unit("de-%s" % recon.lower() + "-%d" % div, "Kradschützen-Bataillon %s (%d. PD)" % (recon[1:], div), "axis",
         "de-recon-battalion", label="%s/%d" % (recon, div), formation=f, division=d, withdraw_turn=wd)
    unit("de-pi%d" % eng, "Panzer-Pionier-Bataillon %d (%d. PD)" % (eng, div), "axis",
         "de-motorized-engineer-battalion", label="Pi%d/%d" % (eng, div), formation=f, division=d, withdraw_turn=wd)

MOTORIZED = [  # division, corps, group, regiments, recon
    (10, "XXIV PzK", "Panzer Group 2", (20, 41), 10),
    (29, "XLVII PzK", "Panzer Group 2", (15, 71), 29),
    (14, "XXXIX PzK", "Panzer Group 3", (11, 53), 14),
    (20, "XXXIX PzK", "Panzer Group 3", (76, 90), 20),
    (18, "LVII PzK", "Panzer Group 3", (30, 51), 18),
]
for div, corps, group, regs, recon in MOTORIZED:
    d = "%d ID (mot)" % div
    f = "%s / %s / %s" % (group, corps, d)
    wd = XXXIX_TO_AGN if div in (18, 20) else None
    for r in regs:
        unit("de-ir%d" % r, "Infanterie-Regiment (mot) %d (%d. ID mot)" % (r, div), "axis",
             "de-motorized-infantry-regiment", label="%d/%dm" % (r, div), formation=f, division=d, withdraw_turn=wd)
    unit("de-aa%d" % recon, "Aufklärungs-Abteilung (mot) %d (%d. ID mot)" % (recon, div), "axis",
         "de-recon-battalion", label="A%d/%dm" % (recon, div), formation=f, division=d, withdraw_turn=wd)

for uid, name, label in [("de-ss-d", "SS-Regiment Deutschland (SS-Division Reich)", "D/Reich"),
                         ("de-ss-df", "SS-Regiment Der Führer (SS-Division Reich)", "DF/Reich"),
                         ("de-ss-11", "SS-Infanterie-Regiment 11 (SS-Division Reich)", "11/Reich")]:
    unit(uid, name, "axis", "de-ss-motorized-regiment", label=label,
         formation="Panzer Group 2 / XLVI PzK / SS-Division Reich", division="SS Reich")
unit("de-ss-aa", "SS-Aufklärungs-Abteilung Reich", "axis", "de-recon-battalion", label="A/Reich",
     formation="Panzer Group 2 / XLVI PzK / SS-Division Reich", division="SS Reich")
unit("de-ir-gd", "Infanterie-Regiment (mot) Großdeutschland", "axis", "de-gd-motorized-regiment", label="GD",
     formation="Panzer Group 2 / XLVI PzK")
unit("de-lehr900", "Lehr-Brigade (mot) 900", "axis", "de-motorized-brigade", label="900 Lehr",
     formation="reinforcement (OKH, to Panzer Group 3)", entry_turn=turn_of(7, 14))

for n, f in [(177, "4th Army"), (189, "9th Army"), (191, "Panzer Group 3"), (192, "Panzer Group 2"),
             (201, "Panzer Group 2"), (203, "Panzer Group 2"), (210, "Panzer Group 3"), (226, "4th Army")]:
    unit("de-stug%d" % n, "Sturmgeschütz-Abteilung %d" % n, "axis", "de-assault-gun-battalion", label="StuG %d" % n, formation=f)
for n, f in [(101, "Panzer Group 2 (I. Flakkorps)"), (104, "Panzer Group 2 (I. Flakkorps)")]:
    unit("de-flak%d" % n, "Flak-Regiment %d (mot)" % n, "axis", "de-motorized-aa-regiment", label="Flak %d" % n, formation=f)
CORPS_ART = ["VII AK", "IX AK", "XIII AK", "XLIII AK", "XII AK", "VIII AK", "XX AK", "XLII AK", "V AK", "VI AK",
             "XXIV PzK", "XLVI PzK", "XLVII PzK", "XXXIX PzK", "LVII PzK"]
for c in CORPS_ART:
    unit("de-arko-" + c.lower().replace(" ", ""), "Artillery of %s (Arko and corps battalions)" % c, "axis",
         "de-corps-artillery", label="Art %s" % c, formation=c)
unit("de-karl833", "schwere Artillerie-Abteilung 833 (Karl-Gerät 'Thor' and 'Odin')", "axis", "de-super-heavy-artillery",
     label="833 Karl", formation="4th Army (Brest)", source="Abteilung 833's two 60 cm Karl mortars shelled the Brest citadel 22-23 June 1941 (SOURCES-oob.md); values reconstructed")

# ------------------------------------------------------------------------------------------
# Soviet Western Front, 22 June 1941

SOVIET_ARMIES_22JUNE = {
    "3rd Army": {"4 RC": [27, 56, 85], "11 MC": ["29T", "33T", "204M"]},
    "10th Army": {"1 RC": [2, 8], "5 RC": [13, 86, 113], "6 CC": ["6C", "36C"], "6 MC": ["4T", "7T", "29M"],
                  "13 MC": ["25T", "31T", "208M"], "army": [155]},
    "4th Army": {"28 RC": [6, 42], "army": [49, 75], "14 MC": ["22T", "30T", "205M"]},
    "13th Army": {"21 RC": [17, 24, 37], "44 RC": [64, 108], "2 RC": [100, 161], "47 RC": [55, 121, 143],
                  "army": [50], "17 MC": ["27T", "36T", "209M"], "20 MC": ["26T", "38T", "210M"]},
}
WEAK_TANK = {"25T", "31T", "26T", "38T", "27T", "36T", "33T", "30T", "205M", "208M", "209M", "210M"}  # few tanks, 1941 new formations
for army, corps_map in SOVIET_ARMIES_22JUNE.items():
    for corps, divs in corps_map.items():
        for d in divs:
            f = "Western Front / %s / %s" % (army, corps)
            if isinstance(d, int):
                unit("su-%drd" % d, "%d Rifle Division" % d, "soviet", "su-rifle-division", label="%d RD" % d, formation=f)
            elif d.endswith("T"):
                n = int(d[:-1])
                unit("su-%dtd" % n, "%d Tank Division (%s)" % (n, corps), "soviet",
                     "su-tank-division-weak" if d in WEAK_TANK else "su-tank-division", label="%d TD" % n, formation=f)
            elif d.endswith("M"):
                n = int(d[:-1])
                unit("su-%dmd" % n, "%d Motorized Division (%s)" % (n, corps), "soviet", "su-motorized-division",
                     label="%d MD" % n, formation=f, override={"attack": 3, "defense": 3, "reduced": (1, 1)} if d in WEAK_TANK else None)
            elif d.endswith("C"):
                n = int(d[:-1])
                unit("su-%dcd" % n, "%d Cavalry Division" % n, "soviet", "su-cavalry-division", label="%d CD" % n, formation=f)
# Northwestern Front units in Panzer Group 3's path through southern Lithuania (22 June 1941)
for uid, name, typ, f in [("su-128rd", "128 Rifle Division", "su-rifle-division", "Northwestern Front / 11th Army"),
                          ("su-188rd", "188 Rifle Division", "su-rifle-division", "Northwestern Front / 11th Army"),
                          ("su-126rd", "126 Rifle Division", "su-rifle-division", "Northwestern Front / 11th Army"),
                          ("su-5td", "5 Tank Division (3 MC)", "su-tank-division", "Northwestern Front / 11th Army / 3 MC"),
                          ("su-84md", "84 Motorized Division (3 MC)", "su-motorized-division", "Northwestern Front / 11th Army / 3 MC"),
                          ("su-179rd", "179 Rifle Division (Lithuanian territorial)", "su-rifle-division-weak", "Northwestern Front / 29 RC"),
                          ("su-184rd", "184 Rifle Division (Lithuanian territorial)", "su-rifle-division-weak", "Northwestern Front / 29 RC")]:
    unit(uid, name, "soviet", typ, label=name.split(" (")[0].replace(" Rifle Division", " RD").replace(" Tank Division", " TD").replace(" Motorized Division", " MD"),
         formation=f, source="Northwestern Front units Panzer Group 3 met at Kalvarija, Alytus, Kaunas and Vilnius, 22-24 June 1941 (SOURCES-oob.md); values by type")
for n in (7, 8, 214):
    unit("su-%dab" % n, "%d Airborne Brigade (4 Airborne Corps)" % n, "soviet", "su-airborne-brigade",
         label="%d AB" % n, formation="Western Front / 4 Airborne Corps")
for n, where in [(86, "Augustow"), (87, "Lomza"), (17, "Brest")]:
    unit("su-nkvd%d" % n, "%d NKVD Border Detachment (%s)" % (n, where), "soviet", "su-nkvd-border-detachment",
         label="%d NKVD" % n, formation="Belorussian NKVD Border District")
for n, army in [(120, "3rd Army"), (130, "10th Army"), (156, "10th Army"), (375, "10th Army"),
                (447, "4th Army"), (455, "4th Army"), (462, "4th Army"), (311, "13th Army"), (587, "13th Army")]:
    unit("su-%dar" % n, "%d Corps Artillery Regiment" % n, "soviet", "su-artillery-regiment", label="%d Art" % n,
         formation="Western Front / %s" % army)
unit("su-4pvo", "4 PVO Brigade (Minsk air defence)", "soviet", "su-aa-brigade", label="4 PVO", formation="Western Front")
for n, army in [(3, "3rd Army"), (4, "4th Army"), (10, "10th Army"), (13, "13th Army")]:
    unit("su-hq%d" % n, "%s HQ" % army, "soviet", "su-hq", label="%d A" % n, formation="Western Front",
         command_value=2, recovery=3)
unit("su-pinsk", "Pinsk Flotilla", "soviet", "su-flotilla", label="Pinsk", formation="Western Front",
     source="the Pinsk Military Flotilla fought on the Pripyat and Berezina in June-August 1941 (SOURCES-oob.md)")
unit("su-at-wf", "NKVD armored trains of the Western Front", "soviet", "su-armored-train", label="AT WF",
     formation="Western Front", nkvd=True)
for n in (1, 2):
    unit("su-eng%d" % n, "Western Front engineer battalion (%d)" % n, "soviet", "su-engineer-battalion",
         label="Eng %d" % n, formation="Western Front")

# Untried UR/MG (fortified regions, 22.9): drawn from a cup; tried values vary, some are empty
UR_VALUES = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 2, 0), (1, 3, 0), (2, 3, 0), (0, 3, 0), (1, 2, 3), (0, 0, 0), (1, 3, 0),
             (2, 4, 0), (0, 2, 0), (1, 1, 3), (0, 1, 0), (1, 2, 0), (2, 3, 0), (0, 0, 0), (1, 4, 0), (0, 2, 0), (1, 2, 3)]
UR_NAMES = ["62 UR (Brest)", "64 UR (Zambrow)", "66 UR (Osowiec)", "68 UR (Grodno)", "63 UR (Minsk)",
            "61 UR (Polotsk)", "65 UR (Mozyr)", "58 UR (Sebezh)"]
for i, (a, dfn, ma) in enumerate(UR_VALUES):
    name = UR_NAMES[i % len(UR_NAMES)]
    unit("su-ur%02d" % (i + 1), "Machine-gun artillery battalion %d of %s" % (i // len(UR_NAMES) + 1, name), "soviet",
         "su-rifle-division", label="UR/MG", formation="UR/MG cup", override={"attack": a, "defense": dfn, "ma": ma, "reduced": None},
         untried=True, ur_mg=True, source="the eight fortified regions (UR) of the Western Special Military District (SOURCES-oob.md); tried values reconstructed, a spread with empty (0) positions as 22.9 expects")
for u in UNITS:
    if u.get("ur_mg"):
        u["type"] = "ur-mg"
        u["stacking"] = 1
        u["steps"] = 1

# ------------------------------------------------------------------------------------------
# Soviet reinforcements (Stavka reserve armies, Reserve Front, Central and Bryansk Fronts)

REINF = [  # army, date, command value, rifle divisions, tank/mot/cav
    ("22nd Army", (6, 28), 2, [98, 112, 153, 170, 174, 186], []),
    ("21st Army", (6, 28), 2, [61, 154, 167, 117, 102, 187, 232], ["50T", "55T", "219M"]),
    ("20th Army", (6, 30), 2, [110, 144, 172, 73, 229, 233, 18], ["13T", "17T", "109M", "14T", "18T", "1M"]),
    ("19th Army", (7, 6), 2, [127, 134, 162, 129, 158, 171, 38, 89, 91], []),
    ("16th Army", (7, 2), 1, [46, 152], ["57T"]),
    ("24th Army", (7, 16), 1, [19, 107, 120, 133, 166, 178, 248], ["102T"]),
    ("28th Army", (7, 18), 1, [145, 149], ["104T"]),
    ("29th Army", (7, 18), 1, [243, 252, 256], []),
    ("30th Army", (7, 18), 1, [242, 250, 251], ["107T"]),
    ("43rd Army", (7, 30), 1, [53, 222, 149], ["109T"]),
    ("50th Army", (8, 16), 1, [217, 258, 260, 278, 279, 290], []),
    ("3rd Army (reformed)", (8, 20), 1, [137, 148, 269, 280, 282], ["108T"]),
]
seen = {u["id"] for u in UNITS}
for army, (m, dd), cv, rds, others in REINF:
    t = turn_of(m, dd)
    n_army = army.split()[0][:-2]
    hid = "su-hq%s" % n_army + ("r" if "reformed" in army else "")
    unit(hid, "%s HQ" % army, "soviet", "su-hq", label="%s A" % n_army, formation="reinforcement / %s" % army, entry_turn=t,
         command_value=cv, recovery=3)
    for i, d in enumerate(rds):
        uid = "su-%drd" % d
        if uid in seen:
            continue
        seen.add(uid)
        late = t + (i // 3)  # a division a train: the army's divisions arrive over several turns
        unit(uid, "%d Rifle Division" % d, "soviet", "su-rifle-division" if t < 10 else "su-rifle-division-weak",
             label="%d RD" % d, formation="reinforcement / %s" % army, entry_turn=late)
    for d in others:
        n = int(d[:-1])
        if d.endswith("T"):
            unit("su-%dtd" % n, "%d Tank Division" % n, "soviet", "su-tank-division" if n < 100 else "su-tank-division-weak",
                 label="%d TD" % n, formation="reinforcement / %s" % army, entry_turn=t)
        else:
            unit("su-%dmd" % n, ("1 Moscow Motorized Rifle Division" if n == 1 else "%d Motorized Division" % n), "soviet",
                 "su-motorized-division", label="%d MD" % n, formation="reinforcement / %s" % army, entry_turn=t)
for n, (m, dd) in [(1, (7, 12)), (2, (7, 12)), (5, (7, 20)), (6, (7, 20)), (7, (8, 1)), (8, (8, 1))]:
    unit("su-%ddno" % n, "%d Moscow People's Militia Division (DNO)" % n, "soviet", "su-militia-division",
         label="%d DNO" % n, formation="reinforcement / Reserve Front", entry_turn=turn_of(m, dd))
for n, city, (m, dd) in [(1, "Smolensk", (7, 4)), (2, "Vitebsk", (7, 2)), (3, "Mogilev", (7, 2)),
                         (4, "Gomel", (7, 6)), (5, "Orsha", (7, 4)), (6, "Bryansk", (7, 14))]:
    unit("su-mil%d" % n, "%s militia regiment" % city, "soviet", "su-militia-division", label="Mil", formation="Untried Militia cup",
         entry_turn=turn_of(m, dd), untried=True, placement_city=city,
         override={"attack": [1, 0, 2, 1, 1, 0][n - 1], "defense": [2, 1, 3, 2, 2, 0][n - 1], "ma": 4, "reduced": None},
         source="city militia (narodnoe opolchenie) and destruction (Istr) battalions raised in the Western Front's cities, July 1941 (SOURCES-oob.md); values reconstructed")
for u in UNITS:
    if u["id"].startswith("su-mil"):
        u["type"] = "untried-militia"
        u["stacking"] = 1
        u["steps"] = 1
        if u["id"] == "su-mil6":
            u["istr"] = True
for n, (m, dd) in [(1, (9, 18)), (2, (9, 18)), (5, (9, 26)), (6, (9, 26))]:
    unit("su-%dgrd" % n, "%d Guards Rifle Division" % n, "soviet", "su-guards-rifle-division", label="%d GRD" % n,
         formation="reinforcement (Yelnya: 100, 127, 107, 120 RD renamed 18-26 Sept 1941)", entry_turn=turn_of(m, dd))
for old, new_ in [(100, 1), (127, 2), (107, 5), (120, 6)]:  # renamed Guards (22.8): the old counter leaves as the Guards one enters
    for u in UNITS:
        if u["id"] == "su-%drd" % old:
            u["withdraw_turn"] = next(x["entry_turn"] for x in UNITS if x["id"] == "su-%dgrd" % new_)
            u["converts_to"] = "su-%dgrd" % new_
for n, (m, dd) in [(141, (8, 20)), (145, (9, 1)), (147, (9, 10)), (148, (9, 10))]:
    unit("su-%dtb" % n, "%d Tank Brigade" % n, "soviet", "su-tank-brigade", label="%d TB" % n,
         formation="reinforcement (Bryansk / Western Front)", entry_turn=turn_of(m, dd))
for n, (m, dd) in [(1, (7, 10)), (2, (8, 1))]:
    unit("su-nkvdrd%d" % n, "NKVD rifle division (%d)" % n, "soviet", "su-nkvd-rifle-division", label="NKVD %d" % n,
         formation="reinforcement (NKVD)", entry_turn=turn_of(m, dd))
for n, army in [(293, "20th Army"), (392, "19th Army"), (471, "21st Army"), (390, "16th Army"), (649, "24th Army")]:
    unit("su-%dar" % n, "%d Artillery Regiment (RGK)" % n, "soviet", "su-artillery-regiment", label="%d Art" % n,
         formation="reinforcement / %s" % army, entry_turn=9)

# ------------------------------------------------------------------------------------------
# Air units (17.1): Luftflotte 2 (II. and VIII. Fliegerkorps); VVS Western Front

AIR = {  # type: (kind, acr, cas, interdiction)
    "Bf 109F": ("F", 4, 0, 1), "Bf 110": ("F", 2, 1, 1), "Ju 87": ("B", 0, 3, 1), "Ju 88": ("B", 1, 2, 1),
    "He 111": ("B", 1, 2, 1), "Do 17": ("B", 1, 2, 1),
    "MiG-3": ("F", 2, 0, 0), "I-16": ("F", 1, 1, 0), "I-153": ("F", 1, 1, 0), "SB": ("B", 0, 1, 0),
    "DB-3": ("B", 0, 1, 0), "Il-2": ("B", 0, 3, 0), "Yak-1": ("F", 3, 0, 0),
}


def air(uid, name, side, plane, formation, entry_turn=1):
    kind, acr, cas, inter = AIR[plane]
    UNITS.append({"id": uid, "label": plane, "name": name, "side": side, "nation": "german" if side == "axis" else "soviet",
                  "type": "air", "air_type": kind, "aircraft": plane, "acr": acr, "cas": cas, "interdiction": inter,
                  "formation": formation, "stacking": 0, "steps": 0, "entry_turn": entry_turn, "box": "ready",
                  "reconstructed": True,
                  "source": "Luftflotte 2 / VVS Western Front order of battle, 22 June 1941 (SOURCES-oob.md); ratings by aircraft type (tools/agc/make_oob.py AIR)"})


for g in ("I", "II", "III", "IV"):
    air("de-jg51-%s" % g.lower(), "%s./JG 51" % g, "axis", "Bf 109F", "II. Fliegerkorps")
for g in ("I", "II"):
    air("de-jg53-%s" % g.lower(), "%s./JG 53" % g, "axis", "Bf 109F", "II. Fliegerkorps")
    air("de-zg26-%s" % g.lower(), "%s./ZG 26" % g, "axis", "Bf 110", "VIII. Fliegerkorps")
    air("de-kg3-%s" % g.lower(), "%s./KG 3" % g, "axis", "Ju 88", "II. Fliegerkorps")
    air("de-kg53-%s" % g.lower(), "%s./KG 53" % g, "axis", "He 111", "II. Fliegerkorps")
    air("de-kg2-%s" % g.lower(), "%s./KG 2" % g, "axis", "Do 17", "VIII. Fliegerkorps")
    air("de-stg1-%s" % g.lower(), "%s./StG 1" % g, "axis", "Ju 87", "VIII. Fliegerkorps")
    air("de-stg2-%s" % g.lower(), "%s./StG 2" % g, "axis", "Ju 87", "VIII. Fliegerkorps")
    air("de-stg77-%s" % g.lower(), "%s./StG 77" % g, "axis", "Ju 87", "II. Fliegerkorps")
air("de-jg27-ii", "II./JG 27", "axis", "Bf 109F", "VIII. Fliegerkorps")
for uid, name, plane, t in [("su-9sad", "9 Mixed Air Division", "MiG-3", 1), ("su-10sad-f", "10 Mixed Air Division (fighters)", "I-153", 1),
                            ("su-10sad-b", "10 Mixed Air Division (bombers)", "SB", 1), ("su-11sad-f", "11 Mixed Air Division (fighters)", "I-153", 1),
                            ("su-11sad-b", "11 Mixed Air Division (bombers)", "SB", 1), ("su-43iad-a", "43 Fighter Air Division (160, 161 IAP)", "I-16", 1),
                            ("su-43iad-b", "43 Fighter Air Division (162, 163 IAP)", "I-16", 1), ("su-12bad", "12 Bomber Air Division", "SB", 1),
                            ("su-13bad", "13 Bomber Air Division", "SB", 1), ("su-3dbak", "3 Long-Range Bomber Corps", "DB-3", 1),
                            ("su-4shap", "4 Ground Attack Regiment", "Il-2", turn_of(7, 2)), ("su-47sad", "47 Mixed Air Division", "I-16", turn_of(7, 4)),
                            ("su-23sad", "23 Mixed Air Division", "Yak-1", turn_of(7, 20)), ("su-46sad", "46 Mixed Air Division", "SB", turn_of(7, 10))]:
    air(uid, name, "soviet", plane, "VVS Western Front", t)
for side, pre in (("axis", "de"), ("soviet", "su")):
    for i in (1, 2, 3):
        UNITS.append({"id": "%s-dummy%d" % (pre, i), "label": "dummy", "name": "dummy air unit %d" % i, "side": side,
                      "nation": "german" if side == "axis" else "soviet", "type": "air", "air_type": "dummy", "dummy": True,
                      "stacking": 0, "steps": 0, "entry_turn": 1, "box": "ready", "rule": "17.1, 9.1",
                      "reconstructed": True, "source": "17.1 both sides have dummy air units; three each chosen"})

# Non-combat: supply counters, bridge units, RSCs (2.3.3c, 6.8.2, 22.4, 23.0)
for side, pre, trucks, wagons in (("axis", "de", 10, 6), ("soviet", "su", 4, 8)):
    for i in range(trucks + wagons):
        kind = "truck" if i < trucks else "wagon"
        UNITS.append({"id": "%s-supply%02d" % (pre, i + 1), "label": "MSU", "name": "supply counter (%s MSU / Dump)" % kind,
                      "side": side, "nation": "german" if side == "axis" else "soviet", "type": "supply", "msu": kind,
                      "ma": 8 if kind == "truck" else 4, "ma_colour": "orange" if kind == "truck" else "white",
                      "stacking": 0, "steps": 0, "entry_turn": 1, "rule": "6.8.2, 6.8.4, 3.0e.1", "reconstructed": True,
                      "source": "counter numbers from data/agc/attack-supply.json counters_in_mix"})
for side, pre, n in (("axis", "de", 4), ("soviet", "su", 2)):
    for i in range(n):
        UNITS.append({"id": "%s-bridge%d" % (pre, i + 1), "label": "Bridge", "name": "bridge unit %d" % (i + 1), "side": side,
                      "nation": "german" if side == "axis" else "soviet", "type": "bridge", "stacking": 0, "steps": 0,
                      "entry_turn": 1, "rule": "22.4, 3.0e.1", "reconstructed": True,
                      "source": "22.4.4 allows two in use per map; four Axis (bridging columns of the panzer groups) and two Soviet chosen"})
for i in range(24):
    UNITS.append({"id": "de-rsc%02d" % (i + 1), "label": "RSC", "name": "regiment substitute counter %d" % (i + 1),
                  "side": "axis", "nation": "german", "type": "rsc", "full": {"attack": 2, "defense": 3}, "reduced": None,
                  "ma": 5, "ma_colour": "white", "motorized": False, "armor": False, "zoc": True, "stacking": 1, "steps": 1,
                  "entry_turn": None, "rule": "23.0", "reconstructed": True,
                  "source": "23.0: one RSC a step of a German infantry division; one-step infantry 2-3-5 (a third of a 6-8-5 division); 24 in the mix"})


def main():
    ids = [u["id"] for u in UNITS]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit("duplicate ids: %s" % sorted(dup))
    for u in UNITS:
        if u.get("formation") is None:
            u.pop("formation", None)
        if u.get("withdraw_turn") is None:
            u.pop("withdraw_turn", None)
    doc = {
        "format": 1, "game": "agc", "rule": "2.3, 2.4, 3.0e, 10.5.10, 11.5, 15.6.7, 15.6.8, 16.3.2, 22.0, 23.0",
        "reconstructed": True,
        "source": "The counter mix and the How To Read Units card are MISSING from the rulebook text (the value strings in the export are diagram labels, ruling A-28). Units: the historical orders of battle of Army Group Center and the Soviet Western Front on 22 June 1941 and their reinforcements to 30 September 1941 (data/agc/SOURCES-oob.md). Values by type (tools/agc/make_oob.py TYPES); steps by 16.3.2 from the full defense; stacking points, MA colours and special flags as the text describes them",
        "fields": {
            "full / reduced": "attack and defense of the full and reduced sides; reduced null = one-sided counter (one step, 16.3.2)",
            "steps": "16.3.2: full defense >= 8 four, >= 5 three, else two; one-sided, Soviet HQs, Untried, Axis S-H one; a Step Loss marker is -2/-2 (16.3.3)",
            "ma / ma_colour": "movement allowance; yellow = motorized (may infiltrate with MA >= 7, 11.5, ruling A-10), orange = motorized costs, Movement Phase only (10.5.10), green = super-heavy (10.5.11, 22.7), white = leg, blue = flotilla (16 MP, 22.6), rail = armored train (48 rail hexes, 22.5)",
            "armor": "red attack factor (15.6.7a, 16.5.2c)",
            "zoc": "false = yellow No ZOC band (3.0f.2)",
            "stacking": "stacking points (3.0e: 10 a hex; HQs, supply counters, bridges 0; HQ rail capacity 1, ruling A-6)",
            "division": "the Panzer / Motorized / SS division a component belongs to (15.6.8)",
            "rsc": "a German division that may detach regiment substitute counters (23.0); rsc_non_motorized: its RSCs move as non-motorized (GD)",
            "support / range": "artillery support strength and range (14.2, 15.4); Axis S-H: support_side is its firing side (22.7.3a)",
            "command_value / recovery": "Soviet HQ (22.1, 22.2); rail_capacity 1 (11.1.3)",
            "untried / ur_mg / placement_city / istr": "22.9, 22.10: Untried UR/MG and Militia, drawn from their cups; the values given are the tried side",
            "entry_turn": "turn the unit is available (1 = set up or in the cup); turn n = 22 June + 2(n-1) days (ruling A-1); withdraw_turn: 8.6",
            "air": "air_type F/B/dummy, acr, cas, interdiction ratings (17.1, 13.1.2)",
        },
        "units": UNITS,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if "--check" in sys.argv:
        sys.exit(0 if os.path.exists(OUT) and open(OUT).read() == text else 1)
    open(OUT, "w").write(text)
    from collections import Counter
    print("%d units: %s" % (len(UNITS), dict(Counter((u["side"], u["type"]) for u in UNITS).most_common(12))))


if __name__ == "__main__":
    main()

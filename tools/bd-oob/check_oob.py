#!/usr/bin/env python3
"""Consistency check for the Barbarossa Deluxe order-of-battle data (bd-oob helper).

Checks data/bd/counters.json and data/bd/scenarios/*.json against data/bd/SCHEMA.md and
against every count, fixed value and set-up list the rulebook text gives (the rulebook
lists are embedded below, copied from sections 12.14, 12.15, 13.6, 13.7, 14.6 and 14.7).

Usage:  python3 tools/bd-oob/check_oob.py [repo_root] [--summary] [--text RULEBOOK.txt]
Exit status 0 = all checks pass; 1 = at least one failure (each printed with file/field).
Python 3 standard library only.
"""
import json
import os
import re
import sys
from collections import Counter, defaultdict

_args = [a for k, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and sys.argv[k - 1] != "--text"]
ROOT = next(iter(_args),
            os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DATA = os.path.join(ROOT, "data", "bd")
SUMMARY = "--summary" in sys.argv

errors = []


def err(where, msg):
    errors.append(f"{where}: {msg}")


def check(cond, where, msg):
    if not cond:
        err(where, msg)
    return cond


HEX_RE = re.compile(r"^(\d{2})(\d{2})$")


def valid_hex(h):
    m = HEX_RE.match(h) if isinstance(h, str) else None
    return bool(m) and 10 <= int(m.group(1)) <= 32 and 0 <= int(m.group(2)) <= 24


# ------------------------------------------------------------------ schema vocabulary
SIDES = {"german", "soviet"}
NATIONS = {"german", "hungarian", "italian", "romanian", "finnish", "slovak", "soviet",
           "bulgarian-communist", "polish-communist", "romanian-communist"}
CLASSES = {"mech", "non-mech", "static"}
GERMAN_TYPES = {"panzer", "infantry", "mountain", "paratroop", "luftwaffe-field", "ss-infantry",
                "kampfgruppe", "emergency", "satellite-army", "army-detachment", "group",
                "fortress-command", "tiger-battalion", "coastal-command"}
SOVIET_TYPES = {"rifle-army", "oversized-rifle-army", "shock-army", "guards-army", "tank-army",
                "guards-tank-army", "mech-corps", "rifle-corps", "airborne-corps", "cavalry-group",
                "cm-group", "mech-group", "naval-infantry", "coastal-army", "militia-army",
                "counter-fire-corps", "communist-satellite-army"}
SETUP_CODES = {"N", "C", "S", "Rom", "Yugo", "MG", "?", "Any"}
ID_RE = re.compile(r"^(de|hu|it|ro|fi|sk|su|bg|pl|rc)-[a-z0-9-]+$")
NO_STACK = {"fortress-command", "militia-army", "counter-fire-corps", "tiger-battalion", "cm-group",
            "cavalry-group"}
SATELLITE = {"satellite-army", "communist-satellite-army"}
BOXES = {"dead", "dead-permanent", "rvgk", "caucasus", "out-of-play", "trrt"}
BUILTIN_ZONES = {"AGN": ["1517", "1617", "1716"], "AGC": ["1817", "1917", "2017", "2116"],
                 "AGS": ["2216", "2315", "2416", "2516"]}
BUILTIN_FREE_ZONES = {"romania", "any-german", "german-occupied", "any-soviet"}


def factor_ok(v):
    return v == "d6" or (isinstance(v, int) and not isinstance(v, bool) and v >= 0)


# ------------------------------------------------------------------ counters.json
def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        err(path, f"cannot load: {e}")
        return None


CPATH = os.path.join(DATA, "counters.json")
counters = load(CPATH)
if counters is None:
    print("\n".join(errors))
    sys.exit(1)

units = counters.get("units", [])
markers = counters.get("markers", [])
check(counters.get("reconstructed") is True and isinstance(counters.get("source"), str), CPATH,
      "top level needs reconstructed=true and a source")
U = {}
labels = Counter()
for i, u in enumerate(units):
    w = f"{CPATH}: units[{i}] ({u.get('id')})"
    for f in ("id", "label", "name", "side", "nation", "class", "type", "attack", "defense", "dotted"):
        check(f in u, w, f"missing required field '{f}'")
    uid = u.get("id", "")
    check(isinstance(uid, str) and ID_RE.match(uid), w, f"id '{uid}' does not match {ID_RE.pattern}")
    check(uid not in U, w, f"duplicate id '{uid}'")
    U[uid] = u
    lab = u.get("label", "")
    check(isinstance(lab, str) and lab and " " not in lab, w, f"label '{lab}' empty or has spaces")
    labels[str(lab).lower()] += 1
    check(u.get("side") in SIDES, w, f"side '{u.get('side')}'")
    check(u.get("nation") in NATIONS, w, f"nation '{u.get('nation')}'")
    check(u.get("class") in CLASSES, w, f"class '{u.get('class')}'")
    types = GERMAN_TYPES if u.get("side") == "german" else SOVIET_TYPES
    check(u.get("type") in types, w, f"type '{u.get('type')}' not valid for side {u.get('side')}")
    check(factor_ok(u.get("attack")), w, f"attack '{u.get('attack')}'")
    check(factor_ok(u.get("defense")), w, f"defense '{u.get('defense')}'")
    check(isinstance(u.get("dotted"), bool), w, "dotted must be bool")
    sc = u.get("setup_code")
    check(sc is None or sc in SETUP_CODES or valid_hex(sc), w,
          f"setup_code '{sc}' (SCHEMA.md: N C S Rom Yugo MG ? Any, a hex id, or null; turns go in entry_turn)")
    et = u.get("entry_turn")
    check(et is None or (isinstance(et, int) and 1 <= et <= 32), w, f"entry_turn '{et}'")
    eh = u.get("entry_hex")
    check(eh is None or valid_hex(eh), w, f"entry_hex '{eh}' not RRCC in rows 10-32, cols 00-24")
    if isinstance(sc, str) and len(sc) == 4 and sc.isdigit():
        check(valid_hex(sc), w, f"set-up hex '{sc}' not RRCC in rows 10-32, cols 00-24")
    if u.get("reconstructed"):
        check(isinstance(u.get("source"), str) and len(u["source"]) > 10, w, "reconstructed item without a source")
    else:
        check(bool(u.get("rule")), w, "item not marked reconstructed must cite its rule")
    if u.get("zone") is not None:
        check(u["zone"] in ("north", "south", "any"), w, f"zone '{u['zone']}'")
    if u.get("support_shifts"):
        check(u.get("attack") == 0 and u.get("defense") == 0, w, "support units have attack = defense = 0")
for lab, n in labels.items():
    check(n == 1, CPATH, f"label '{lab}' used {n} times (labels must be unique, case-insensitive)")
for uid, u in U.items():
    cp = u.get("counterpart")
    if cp is not None:
        check(cp in U, f"{CPATH}: {uid}", f"counterpart '{cp}' does not exist")

MK = {}
for i, m in enumerate(markers):
    w = f"{CPATH}: markers[{i}] ({m.get('id')})"
    check(isinstance(m.get("id"), str) and m["id"] not in MK and m["id"] not in U, w, "marker id missing or duplicate")
    MK[m.get("id")] = m
    check(isinstance(m.get("count"), int) and m["count"] >= 1, w, "count must be a positive integer")
    et = m.get("entry_turn")
    check(et is None or (isinstance(et, int) and 1 <= et <= 32), w, f"entry_turn '{et}'")
    if m.get("reconstructed"):
        check(isinstance(m.get("source"), str), w, "reconstructed marker without a source")
    else:
        check(bool(m.get("rule")), w, "marker not reconstructed must cite its rule")


def of_type(t, side=None):
    return [u for u in units if u.get("type") == t and (side is None or u.get("side") == side)]


def mcount(kind):
    return sum(m["count"] for m in markers if m.get("marker") == kind)


def mturns(kind):
    return sorted(m.get("entry_turn") for m in markers if m.get("marker") == kind)


# ------------------------------------------------------------------ counts the text gives
T = "text count"
total = len(units) + sum(m.get("count", 0) for m in markers)
check(total == 352, T, f"2.4: 352 counters, found {total}")
check(counters.get("counter_total") in (None, total), T, "counter_total field disagrees with the data")

EARLY = [3, 14, 24, 39, 40, 41, 46, 47, 48, 56, 57]
for n in EARLY:
    e, l = U.get(f"de-{n}pz"), U.get(f"de-{n}pzl")
    if check(e is not None, T, f"8.29: early panzer corps {n} missing"):
        check(e["attack"] == 4 and e["defense"] == 3, T, f"8.29: {n}Pz must be 4-3")
        check(e.get("counterpart") == f"de-{n}pzl", T, f"8.29: {n}Pz counterpart must be its late counter")
    if check(l is not None, T, f"8.29: late panzer corps {n} missing"):
        check(l["attack"] == 2 and l["defense"] == 4 and l.get("attack_circled") is True, T,
              f"8.29: late {n}Pz must be 2-4 with the attack circled")
        check(l.get("entry_turn") == 22, T, f"8.29: late {n}Pz converts on GT22")
early_43 = [u for u in of_type("panzer") if u["attack"] == 4 and u["defense"] == 3 and u.get("setup_code") != "MG"
            and u["id"] in [f"de-{n}pz" for n in EARLY]]
check(len(early_43) == 11, T, f"8.29: 11 early-war 4-3 panzer corps, found {len(early_43)}")
check(len([u for u in of_type("panzer") if u.get("attack_circled")]) == 11, T, "8.29: exactly 11 circled 2-4 counters")

ovs = of_type("oversized-rifle-army")
check(len(ovs) == 7, T, f"8.22: 7 oversized rifle armies, found {len(ovs)}")
for u in ovs:
    check(u["dotted"], T, f"8.22: oversized {u['id']} must be dotted")
    cp = U.get(u.get("counterpart") or "")
    if check(cp is not None, T, f"8.22: oversized {u['id']} needs a regular counterpart"):
        check(cp["type"] == "rifle-army" and cp["attack"] == 3 and cp["defense"] == 3, T,
              f"8.22: counterpart of {u['id']} must be a rifle army with CF 3")
        check(cp["label"] == u["label"] + "r", T, f"SCHEMA: counterpart label of {u['label']} must be {u['label']}r")
s6 = U.get("su-6a")
if check(s6 is not None, T, "2.5: Soviet 6th Army missing"):
    check(s6["type"] == "oversized-rifle-army" and s6["attack"] == 6 and s6["defense"] == 6 and s6["dotted"]
          and s6.get("setup_code") == "2314", T, "2.5: 6th Army = oversized, CF 6, dotted, set-up 2314")
for u in of_type("rifle-army", "soviet"):
    check(u["attack"] == 3 and u["defense"] == 3, T, f"8.22: regular rifle army {u['id']} must have CF 3")

fcs = of_type("fortress-command")
check(len(fcs) == 8, T, f"8.33: 8 fortress commands, found {len(fcs)}")
check(sorted(u["label"] for u in fcs) == sorted(["FCB", "FCD", "FCDK", "FCKB", "FCKS", "FCSL", "FCSE", "FCSW"]), T,
      "2.7: fortress command labels")
for u in fcs:
    check(u["attack"] == 0, T, f"8.33: {u['label']} never attacks (attack 0)")
    if u["label"] == "FCSE":
        check(u.get("setup_code") == "3220", T, "8.33: FCSE starts in Belgrade 3220")
    else:
        check(u.get("entry_turn") == 30 and valid_hex(u.get("entry_hex")), T, f"8.33: {u['label']} enters GT30 on a fixed hex")

tbs = of_type("tiger-battalion")
check(len(tbs) == 8, T, f"8.31: 8 Tiger battalions, found {len(tbs)}")
for n in (502, 503, 505, 509):
    check(f"de-{n}tb" in U, T, f"8.31/14.7/15.8: {n} TB missing")
for u in tbs:
    check(u["dotted"] == (u["id"] in ("de-505tb", "de-509tb")), T, f"8.31: only 505 and 509 are dotted ({u['id']})")
    check(u.get("support_shifts") == 1, T, f"8.31: {u['id']} gives one column shift")
for n in (502, 503):
    check(U.get(f"de-{n}tb", {}).get("entry_turn") == 14, T, f"15.8: {n} TB arrives GT14")

cms = of_type("cm-group")
check(sorted(u["label"] for u in cms) == ["CMB", "CMO", "CMP", "CMS"], T, "8.32: CM groups CMB, CMO, CMP, CMS")
for u in cms:
    check(u.get("entry_turn") == 25 and u.get("support_shifts") == 1, T, f"8.32: {u['label']} arrives GT25, 1 shift")

cav = of_type("cavalry-group")
check(sorted(u["label"] for u in cav) == ["BCG", "DCG", "DVCG", "KCG", "MCG"], T, "2.7/8.30: five cavalry groups")
check(all(u["dotted"] and u["class"] == "non-mech" for u in cav), T, "8.30: cavalry groups are dotted non-mech")
check(sorted(u.get("zone") for u in cav) == ["north"] * 4 + ["south"], T, "8.30: four 'North' groups and one 'South'")

shock = of_type("shock-army")
check(sorted(u["label"] for u in shock) == [f"{n}Sh" for n in range(1, 6)], T, "2.7: shock armies 1Sh-5Sh")
check(all(u.get("attack") == 3 for u in shock), T, "7.22: shock army attack factor 3")
guards = {u["label"] for u in of_type("guards-army")}
for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11):
    check(f"{n}G" in guards, T, f"14.6: guards army {n}G missing")
tanks = {u["label"] for u in of_type("tank-army")}
for n in range(1, 6):
    check(f"{n}T" in tanks, T, f"12.14/14.6: tank army {n}T missing")
check("5GT" in {u["label"] for u in of_type("guards-tank-army")}, T, "14.6: 5GT missing")
for u in of_type("guards-tank-army"):
    base = U.get(u["id"][:-2] + "t")
    check(base is not None and base.get("counterpart") == u["id"], T, f"8.19: {u['id']} needs its tank-army namesake")

emer = of_type("emergency")
check(len(emer) == 6 and sum(u["class"] == "mech" for u in emer) == 1, T, "8.4: 1 mech + 5 non-mech emergency units")
check(all(u["attack"] == "d6" and u["defense"] == "d6" and u["dotted"] and u.get("setup_code") == "?" for u in emer), T,
      "8.4/15.8: emergency units are d6, dotted, '?'")
check(all(u["dotted"] for u in of_type("kampfgruppe")), T, "15.8: KG are dotted")
check(sum(u.get("zone") == "any" for u in of_type("kampfgruppe")) == 2, T, "8.2: two KG are marked 'Any'")

comm = of_type("communist-satellite-army")
check(sorted(u["label"] for u in comm) == sorted(["1B", "2B", "4B", "Pol", "1RC", "4RC"]), T, "3.5: six communist satellites")
check(all(u.get("setup_code") == "?" for u in comm), T, "3.5: communist satellites are question-marked")

def unit(uid):
    return U.get(uid, {})

check(unit("su-lpma").get("class") == "static" and unit("su-lpma").get("entry_turn") == 2 and unit("su-lpma").get("entry_hex") == "1011"
      and unit("su-lpma").get("dotted"), T, "8.34: LPMA static, dotted, GT2 at 1011")
check(unit("su-lcfc").get("attack") == "d6" and unit("su-lcfc").get("class") == "static" and unit("su-lcfc").get("entry_turn") == 20,
      T, "8.35: LCFC 1d6, static, 'Turn 20'")
check(unit("su-mgp").get("entry_turn") == 15, T, "8.27: MGP arrives GT15")
check(unit("su-ica").get("dotted") is True, T, "15.8: ICA is dotted")
check(unit("de-2sspz").get("entry_turn") == 14, T, "8.17: 2nd SS Pz arrives GT14")
check(unit("de-3sspz").get("entry_turn") == 22, T, "4.17: 3rd SS Pz is in the GT22 box")
for uid in ("de-xivpz", "de-76pz", "de-2para"):
    check(unit(uid).get("setup_code") == "MG", T, f"4.17: {uid} carries 'MG'")
check(unit("de-2para").get("defense") == 6, T, "4.17: 2nd Para defence factor 6")
for uid in ("de-21mtn", "de-22mtn", "de-91"):
    check(unit(uid).get("setup_code") == "Yugo", T, f"8.3: {uid} carries 'Yugo'")
check(unit("de-6ss").get("entry_hex") == "1415", T, "8.3: 6th SS enters only at Riga 1415")
check(unit("hu-1a").get("entry_hex") == "2820" and unit("hu-3a").get("entry_hex") == "2820", T, "8.3: Hungarian 1st/3rd via Budapest 2820")
check(unit("de-ksc").get("entry_hex") == "3106", T, "8.3: KSC via 3106")
check(unit("ro-3a").get("setup_code") == "Rom" and unit("ro-4a").get("setup_code") == "Rom", T, "3.3/8.15: Romanian armies set up in Romania")
check(not unit("ro-3a").get("dotted") and not unit("ro-4a").get("dotted"), T, "8.15: Romanian armies are replaceable (once)")
for uid in ("hu-1a", "hu-2a", "hu-3a", "it-8a"):
    check(unit(uid).get("dotted") is True, T, f"8.15: {uid} is not replaceable")
for uid in ("su-mech-corps",):
    pass
for t in ("mech-corps", "rifle-corps", "airborne-corps"):
    for u in of_type(t):
        check(u["dotted"] and valid_hex(u.get("setup_code")), T, f"8.23: 1941 corps {u['id']} set up on the map and removed GT3")

# markers
for kind, n, turns in [("air-army", 18, (8, 30)), ("artillery-corps", 9, (16, 31)), ("east-wall", 10, (19, 19)),
                       ("hero-city", 5, (4, 4)), ("fortress-city", 5, (13, 13)), ("vi-interceptor", 1, (6, 6)),
                       ("partisans", 1, (6, 6)), ("airborne-assault", 1, (6, 6)), ("aerial-supply", 1, (6, 6)),
                       ("fortified-area", 1, (16, 16)), ("offensive-supply", 3, None), ("rhine-oder", 1, (28, 28)),
                       ("vp", 2, None)]:
    check(mcount(kind) == n, T, f"2.13/8.x: {n} '{kind}' markers, found {mcount(kind)}")
    if turns:
        ts = mturns(kind)
        check(bool(ts) and min(ts) == turns[0] and max(ts) == turns[1], T, f"'{kind}' arrival turns {ts} not within {turns}")
fcm = [m for m in markers if m.get("marker") == "fortress-city"]
check(all(sorted(m.get("turns", [])) == [13, 28, 28, 28, 28] for m in fcm), T, "9.2: FC markers 1 at GT13, 4 at GT28")
check(sorted(m.get("letter") for m in markers if m.get("marker") == "offensive-supply") == ["A", "B", "C"], T, "7.10: markers A, B, C")

# every unit the text names must exist
RIFLE_NAMED = ([3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 16] + list(range(18, 25)) + list(range(26, 35)) + list(range(37, 45))
               + list(range(46, 71)))
for n in RIFLE_NAMED:
    check(f"su-{n}a" in U or f"su-{n}ar" in U, T, f"rifle army {n} (named in 12-14) missing")
GER_NAMED = [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 20, 23, 26, 27, 28, 29, 30, 34, 35, 38, 42, 43, 44, 50, 51, 52,
             53, 54, 55, 59]
for n in GER_NAMED:
    check(f"de-{n}" in U, T, f"German infantry corps {n} (named in 12-14) missing")
for uid in ("de-49mtn", "de-3lw", "de-ksc", "de-12a", "de-6ss", "de-hgpz", "de-gdpz", "de-fhhpz", "de-ppr",
            "de-fp", "de-ho", "de-lk", "de-ge", "de-gm", "de-gs", "de-gu", "de-sf", "su-lpma", "su-lcfc", "su-mgp", "su-ica"):
    check(uid in U, T, f"{uid} (named in the text) missing")
KG_NAMED = ["Abr", "Brn", "Hrt", "Jkl", "Kfl", "Koh", "LS", "Mnz", "Mos", "Neh", "Odr", "Sbn", "Sil", "Skn", "Slr", "Sls",
            "Str", "Tet", "Tom", "vBn", "vRp", "Wdl", "Wse", "II", "III", "XX"]
for k in KG_NAMED:
    check(f"KG{k}".lower() in labels, T, f"2.7: KG {k} missing")

# ------------------------------------------------------------------ scenario lists from the text
def tok_sov(t):
    t = t.strip()
    if t.isdigit():
        return f"su-{t}ar" if f"su-{t}ar" in U else f"su-{t}a"
    m = re.fullmatch(r"(\d+)(Sh|G|T|GT)", t)
    return f"su-{m.group(1)}{m.group(2).lower()}" if m else {"LPMA": "su-lpma", "ICA": "su-ica"}.get(t, t)


def tok_ger(t):
    t = t.strip().replace(" ", "").rstrip("*")
    if t.isdigit():
        return f"de-{t}"
    for suf, idsuf in (("Pz", "pz"), ("Mtn", "mtn"), ("TB", "tb")):
        m = re.fullmatch(r"(\d+)" + suf, t)
        if m:
            return f"de-{m.group(1)}{idsuf}"
    return {"3Lw": "de-3lw", "2SSPz": "de-2sspz", "KSC": "de-ksc", "2H": "hu-2a", "8I": "it-8a", "3R": "ro-3a",
            "4R": "ro-4a"}.get(t, t)


def table(txt, conv):
    out = []
    for line in txt.strip().splitlines():
        hx, rest = line.split(None, 1)
        for t in re.split(r"[,&]", rest):
            if t.strip() and t.strip() not in ("HCM", "FA"):
                out.append((conv(t), hx))
    return out


TEXT = {
    "road-back": {
        "rule": "12.14/12.15",
        "hexes": table("""
1011 LPMA, 23, 42 & 55
1009 2Sh
1109 8, 49 & 54
1210 4, 52 & 59
1310 11 & 27
1411 1Sh, 3Sh, 4Sh, 22 & 30
1410 34, 39, 41 & 53
1409 29 & 31
1508 5 & 20
1609 33 & 43
1708 50
1808 10 & 61
1807 3 & 16
1806 3T
1906 48
2006 13
2105 38
2104 60
2204 6
2203 1T & 40
2302 1G, 5T & 21
2402 24, 65 & 66
2401 62
2500 64
2601 51 & 57
2600 28
3204 18 & 56
3203 47""", tok_sov) + table("""
1111 26, 50 & 54
1110 28 & 30
1211 1 & 38
1311 10 & 59
1412 2
1511 6 & 43
1510 23
1509 41Pz
1610 27
1709 39Pz
1809 3Pz
1908 9
1907 20
2007 56Pz & 12
2106 34
2207 47Pz
2206 46Pz & 53
2205 35 & 55
2304 24Pz, 7 & 13
2404 29
2303 2H
2403 8I
2501 14Pz, 4, 8, 11 & 51
2502 3R
2603 48Pz
2602 4R
2804 17
3106 42
3104 5
3103 44 & 49 Mtn""", tok_ger),
        "boxes": {"caucasus": ["de-40pz", "de-57pz", "de-52", "su-9ar", "su-37a", "su-44a", "su-46a"],
                  "dead": ["su-2t", "su-4t", "su-12ar", "su-63a"], "trrt": ["su-19a", "su-26a", "su-32a"],
                  "rvgk": ["su-2g", "su-5sh"]},
        "hcm": ["1606", "1011", "1806"], "first_turn": 13, "last_turn": 32, "vp_start": 33},
    "blue-kremlin": {
        "rule": "13.6/13.7",
        "hexes": table("""
1011 23, 42, 55, LPMA & HCM
1110 8, 54
1210 1Sh, 4, 52, 59
1310 11, 27, 34, 53
1411 3Sh, 4Sh
1410 22, 30, 41
1409 29
1508 31
1609 5, 20
1708 24, 33, 43
1706 3T
1808 49, 50
1806 64 & HCM
1907 10, 61
1906 16
2006 3
2106 13, 48
2105 5T
2206 40
2204 60
2306 21, 28
2305 6
2406 38
2405 63
2501 62
2505 9
2504 37
2604 12
2704 18
2804 56
3105 47""", tok_sov) + table("""
3106 42
3108 30, 54""", tok_ger),
        "boxes": {"out-of-play": ["su-ica", "su-19a", "su-26a", "su-32a", "su-44a", "su-46a"],
                  "dead": ["su-2sh", "su-51a", "su-57a"], "rvgk": ["su-5sh", "su-66a"]},
        "free": [tok_ger(t) for t in ("3R,4R,3Pz,14Pz,24Pz,39Pz,40Pz,41Pz,46Pz,47Pz,48Pz,56Pz,57Pz,1,2,4,5,6,7,8,9,10,"
                                      "11,12,13,17,20,23,26,27,28,29,34,38,43,44,49Mtn,50,51,52,53,55,59").split(",")],
        "hcm": ["1011", "1606", "1806"], "first_turn": 9, "last_turn": 13},
    "citadel": {
        "rule": "14.6/14.7",
        "hexes": table("""
1011 LPMA, 23, 42, 55, 67
1110 2Sh, 4, 8, 54
1210 52, 59
1310 11, 34
1411 1Sh, 22
1510 3Sh, 41
1610 4Sh, 20, 43
1609 5, 10G, 31, 39, 68
1708 33, 49
1808 10, 50
1807 4T, 11G
1906 61
2006 3, 3T, 63
2106 13, 48
2107 2T, 70
2208 38, 60, 65
2307 1T, 6G, 27, 40
2306 4G, 5G, 5GT, 53
2305 7G, 46, 47, 57, 69
2405 1G, 6, 37
2404 8G, 12
2503 3G, 51
2603 5Sh
2702 2G
2803 28
2804 44
3005 9, 58
3104 18, 56""", tok_sov) + table("""
1111 3Lw, 50, 54, 502TB*
1211 1, 38
1311 26, 28
1412 2, 10
1513 8
1511 43, 59
1611 6
1710 27
1709 39Pz
1809 9, 56Pz
1908 12, 34
1907 55
2007 23, 35, 53, 505TB*
2008 41Pz, 46Pz, 47Pz
2108 13, 20
2209 7, 52
2308 11, 42, 48Pz
2408 3Pz, 24Pz
2407 2SSPz
2406 57Pz, 503TB
2503 40Pz
2504 17
2604 30
2704 4
2805 29
3105 5, 44, 49Mtn
3106 KSC""", tok_ger),
        "boxes": {"out-of-play": ["su-ica", "su-19a", "su-26a", "su-29a", "su-32a"],
                  "dead": ["su-16a", "su-21a", "su-24a", "su-30a", "su-62a", "su-64a", "su-66a"]},
        "hcm": ["1011", "1606", "1806"], "fa": "2207", "first_turn": 19, "last_turn": 22},
}
# The one deliberate deviation from the text (digest 9.22): 14.7 puts 40 Pz in 2503, the hex of Soviet 3G and 51.
CORRECTIONS = {("citadel", "de-40pz"): ("2503", "2505")}


def nbrs(h):
    r, c = int(h[:2]), int(h[2:])
    d = ([(0, 1), (0, -1), (-1, 0), (-1, -1), (1, 0), (1, -1)] if r % 2 == 0 else
         [(0, 1), (0, -1), (-1, 1), (-1, 0), (1, 1), (1, 0)])
    return [f"{r + a:02d}{c + b:02d}" for a, b in d]


# Soviet side of the 1941 border (rows 15-25 from the 3.3 set-up chain; rows 26-31 from the
# Carpathian/Prut/Danube line): largest Soviet column per row (columns rise westward)
SOVIET_MAX_COL = {15: 16, 16: 16, 17: 15, 18: 16, 19: 16, 20: 16, 21: 14, 22: 14, 23: 14, 24: 15, 25: 14,
                  26: 14, 27: 13, 28: 13, 29: 13, 30: 12, 31: 11}  # rows 21/22/25/26 stricter: see SOURCES-oob.md
for z, hexes in BUILTIN_ZONES.items():  # the border rule must put every German set-up hex on the German side
    for h in hexes:
        check(int(h[2:]) > SOVIET_MAX_COL[int(h[:2])], "border model", f"{z} hex {h} would be Soviet")

# ------------------------------------------------------------------ scenarios
SCEN_IDS = ["grand-campaign", "road-back", "blue-kremlin", "citadel", "mansteins-gambit", "what-if-1942"]
scen = {}
for sid in SCEN_IDS:
    p = os.path.join(DATA, "scenarios", f"{sid}.json")
    s = load(p)
    if s is None:
        continue
    scen[sid] = s
    for f in ("id", "name", "rule", "first_turn", "last_turn", "first_player", "setup"):
        check(f in s, p, f"missing required field '{f}'")
    check(s.get("id") == sid, p, f"id '{s.get('id')}' must equal the file name")
    check(s.get("first_player") in SIDES, p, "first_player")
    check(isinstance(s.get("first_turn"), int) and isinstance(s.get("last_turn"), int)
          and 1 <= s["first_turn"] <= s["last_turn"] <= 32, p, "turn range")
    zones = dict(BUILTIN_ZONES)
    zones.update(s.get("zones", {}))
    seen = Counter()
    stacks = defaultdict(list)
    for i, e in enumerate(s.get("setup", []) + s.get("reinforcements", [])):
        w = f"{p}: setup/reinforcements[{i}] ({e.get('unit')})"
        uid = e.get("unit")
        if not check(uid in U, w, f"unit '{uid}' not in counters.json"):
            continue
        seen[uid] += 1
        if "hex" in e:
            if check(valid_hex(e["hex"]), w, f"hex '{e['hex']}' not RRCC in rows 10-32, cols 00-24"):
                stacks[e["hex"]].append(U[uid])
        elif "zone" in e:
            check(e["zone"] in zones or e["zone"] in BUILTIN_FREE_ZONES, w, f"unknown zone '{e['zone']}'")
        elif "box" in e:
            check(e["box"] in BOXES, w, f"unknown box '{e['box']}'")
            if e["box"] == "trrt":
                check(isinstance(e.get("turn"), int), w, "trrt box needs a turn")
        elif "turn" in e:
            check(isinstance(e["turn"], int) and s["first_turn"] <= e["turn"] <= s["last_turn"], w, "reinforcement turn")
        else:
            err(w, "entry needs hex, zone, box or turn")
        check(bool(e.get("rule")) or (e.get("reconstructed") and e.get("source")), w,
              "set-up item must cite its rule or be marked reconstructed with a source")
    for uid, n in seen.items():
        check(n == 1, p, f"unit '{uid}' appears {n} times over setup + reinforcements")
    for z, hexes in s.get("zones", {}).items():
        for h in hexes:
            check(valid_hex(h), p, f"zone {z}: hex '{h}' not valid")
    for hx, us in stacks.items():
        sides = {u["side"] for u in us}
        check(len(sides) == 1, p, f"hex {hx} holds units of both sides")
        for side in sides:
            mine = [u for u in us if u["side"] == side]
            n = sum(1 for u in mine if u["type"] not in NO_STACK)
            check(n <= 5, p, f"hex {hx}: {n} {side} units count for stacking (6.3 limit 5)")
            check(sum(1 for u in mine if u["type"] in SATELLITE) <= 1, p, f"hex {hx}: two satellite armies (6.4)")
            check(sum(1 for u in mine if u["type"] == "cavalry-group") <= 1, p, f"hex {hx}: two cavalry groups (8.30)")
            check(sum(1 for u in mine if u["type"] == "tiger-battalion") <= sum(1 for u in mine if u["type"] in
                  ("panzer", "infantry", "mountain", "luftwaffe-field", "paratroop", "ss-infantry")), p,
                  f"hex {hx}: Tiger battalion without a German corps (8.31)")
    # entry-turn consistency: nothing placed on the map before it exists
    for e in s.get("setup", []):
        u = U.get(e.get("unit"))
        if u and ("hex" in e or "zone" in e or e.get("box") in ("rvgk", "caucasus", "dead")):
            et = u.get("entry_turn")
            if et is not None and u.get("setup_code") not in ("MG",) and not e.get("early_by_rule"):
                check(et <= s.get("first_turn", 0) or e.get("box") in ("dead",) and et <= s["first_turn"],
                      p, f"{u['id']} set up at GT{s.get('first_turn')} but its entry turn is GT{et}")

# --- grand campaign
gc = scen.get("grand-campaign")
if gc:
    p = "grand-campaign"
    byunit = {e["unit"]: e for e in gc["setup"]}
    zone_cnt = Counter()
    for u in units:
        sc = u.get("setup_code")
        e = byunit.get(u["id"])
        if u["side"] == "german" and sc in ("N", "C", "S"):
            want = {"N": "AGN", "C": "AGC", "S": "AGS"}[sc]
            check(e is not None and e.get("zone") == want, p, f"3.3: {u['id']} ('{sc}') must set up in {want}")
            zone_cnt[want] += 1
        elif sc == "Rom":
            check(e is not None and e.get("zone") == "romania", p, f"3.3: {u['id']} ('Rom') must set up in Romania")
        elif u["side"] == "soviet" and valid_hex(sc):
            check(e is not None and e.get("hex") == sc, p, f"3.4: {u['id']} must set up in its printed hex {sc}")
            r, c = int(sc[:2]), int(sc[2:])
            if r in SOVIET_MAX_COL:
                check(c <= SOVIET_MAX_COL[r], p, f"3.6: {u['id']} hex {sc} is not on the Soviet side of the 1941 border")
        elif e is not None and "hex" not in e and e.get("box") != "out-of-play":
            err(p, f"{u['id']} is in the GC set-up without a set-up code")
    dstack = defaultdict(list)
    for e in gc["setup"]:
        if "default_hex" in e:
            dh = e["default_hex"]
            if e.get("zone") in BUILTIN_ZONES:
                check(dh in BUILTIN_ZONES[e["zone"]], p, f"{e['unit']}: default_hex {dh} not in zone {e['zone']}")
            elif check(valid_hex(dh), p, f"{e['unit']}: default_hex '{dh}' invalid"):
                r, c = int(dh[:2]), int(dh[2:])
                check(r not in SOVIET_MAX_COL or c > SOVIET_MAX_COL[r], p, f"{e['unit']}: default_hex {dh} is on the Soviet side")
            dstack[dh].append(U[e["unit"]])
    for dh, us in dstack.items():
        check(sum(1 for u in us if u["type"] not in NO_STACK) <= 5, p, f"default hex {dh} over-stacked (6.3)")
        check(sum(1 for u in us if u["type"] in SATELLITE) <= 1, p, f"default hex {dh}: two satellite armies (6.4)")
    check(all("default_hex" in e for e in gc["setup"] if "zone" in e), p, "every zone placement needs a default_hex")
    for z, n in zone_cnt.items():
        check(n <= 5 * len(BUILTIN_ZONES[z]), p, f"3.3: {n} units for the {len(BUILTIN_ZONES[z])} {z} hexes exceeds stacking")
    check(byunit.get("su-6a", {}).get("hex") == "2314", p, "2.5: 6th Army at 2314")
    check(byunit.get("de-fcse", {}).get("hex") == "3220", p, "8.33: FCSE at Belgrade 3220")
    check(sum(1 for e in gc["setup"] if U.get(e["unit"], {}).get("type") == "oversized-rifle-army" and "hex" in e) == 7,
          p, "8.22: seven oversized armies on the map at start")
    check(gc.get("vp_start") == 14, p, "3.2: German VP start at 14")

# --- transcribed scenarios: every unit of the text lists is there, in the text's hex
for sid, t in TEXT.items():
    s = scen.get(sid)
    if not s:
        continue
    byunit = {e["unit"]: e for e in s["setup"]}
    for uid, hx in t["hexes"]:
        e = byunit.get(uid)
        if not check(e is not None, sid, f"{t['rule']}: unit {uid} (hex {hx}) missing"):
            continue
        want = CORRECTIONS.get((sid, uid), (hx, hx))
        check(e.get("hex") == want[1] and (want[0] == want[1] or e.get("text_hex") == want[0]), sid,
              f"{t['rule']}: {uid} must be at {hx}, found {e.get('hex')}")
        check(not e.get("reconstructed") or (sid, uid) in CORRECTIONS, sid, f"{uid}: transcribed item marked reconstructed")
    for box, ids in t["boxes"].items():
        for uid in ids:
            check(byunit.get(uid, {}).get("box") == box, sid, f"{t['rule']}: {uid} must be in box '{box}'")
    for uid in t.get("free", []):
        check(byunit.get(uid, {}).get("zone") in ("any-german", "german-occupied"), sid,
              f"13.7: {uid} must be in the German free set-up")
    hcm = sorted(m["hex"] for m in s.get("markers", []) if m.get("marker") == "hero-city" and "hex" in m)
    check(hcm == sorted(t["hcm"]), sid, f"hero city markers {hcm}, text {sorted(t['hcm'])}")
    if "fa" in t:
        check(any(m.get("marker") == "fortified-area" and m.get("hex") == t["fa"] for m in s.get("markers", [])), sid,
              "14.6: FA at 2207")
    check(s.get("first_turn") == t["first_turn"] and s.get("last_turn") == t["last_turn"], sid, "scenario length")
    if "vp_start" in t:
        check(s.get("vp_start") == t["vp_start"], sid, "12.3: 33 VP")
    # nothing due by the start may silently vanish: every unit due is placed, boxed or out of play
    inclusive = s.get("start_phase") != "admin"
    for u in units:
        et = u.get("entry_turn")
        due = (et is None and u.get("setup_code") not in (None, "MG", "?")) or \
              (et is not None and (et <= s["first_turn"] if inclusive else et < s["first_turn"]))
        if u["id"].endswith("pzl") or u["type"] in ("communist-satellite-army",):
            continue
        if due:
            check(u["id"] in byunit, sid, f"{u['id']} is due by GT{s['first_turn']} but the scenario does not place or remove it")

# --- Manstein's Gambit derives from Citadel
mg, ci = scen.get("mansteins-gambit"), scen.get("citadel")
if mg and ci:
    mgu = {e["unit"]: e for e in mg["setup"] + mg.get("reinforcements", [])}
    for e in ci["setup"]:
        check(e["unit"] in mgu, "mansteins-gambit", f"14.9: Citadel unit {e['unit']} missing")
    for uid in ("de-xivpz", "de-76pz", "de-2para", "de-3sspz"):
        check(uid in mgu, "mansteins-gambit", f"4.17: MG unit {uid} missing")
    for uid, e in mgu.items():
        ce = next((x for x in ci["setup"] if x["unit"] == uid), None)
        if ce and ce.get("hex") in ("1011", "3005", "3104", "3105", "3106"):
            check(e.get("hex") == ce["hex"], "mansteins-gambit", f"14.9: {uid} fixed at {ce['hex']}")
    check(mg.get("first_turn") == 18 and mg.get("last_turn") == 20, "mansteins-gambit", "14.8: GT18-GT20")

# --- 1942 What If
wi = scen.get("what-if-1942")
if wi:
    wu = {e["unit"]: e for e in wi["setup"]}
    check(wi.get("first_player") == "soviet", "what-if-1942", "15.3: Soviet player turn first")
    check(wi.get("first_turn") == 9 and wi.get("last_turn") == 14, "what-if-1942", "15.2: GT9-GT14")
    for e in wi["setup"]:
        u = U.get(e["unit"], {})
        if u.get("side") == "soviet" and e.get("box") != "out-of-play":
            check(not u.get("dotted") or u.get("id") == "su-ica", "what-if-1942", f"15.8: dotted {u.get('id')} in play")
    for uid in ("su-1t", "su-2t", "su-3t", "su-4t", "su-1sh", "su-2sh", "su-3sh", "su-4sh", "su-5sh", "su-19a", "su-26a", "su-32a",
                "hu-1a", "hu-2a", "hu-3a", "ro-3a", "ro-4a"):
        check(uid in wu and wu[uid].get("box") != "out-of-play", "what-if-1942", f"15.8: {uid} available from the start")
    check(wu.get("it-8a", {}).get("box") == "out-of-play", "what-if-1942", "15.8: no Italian 8th Army")
    for u in of_type("kampfgruppe") + of_type("emergency"):
        check(wu.get(u["id"], {}).get("box") == "out-of-play", "what-if-1942", f"15.8: {u['id']} never in play")

# ------------------------------------------------------------------ map cross-check (when map.json exists)
MAP = os.path.join(DATA, "map.json")
if os.path.exists(MAP):
    mp = load(MAP)
    HX = {h.get("id"): h for h in (mp or {}).get("hexes", []) if isinstance(h, dict)}
    # SCHEMA.md spells countries with hyphens; the draft map uses underscores and "germany"
    SOV_C = {"ussr", "baltic", "lithuania", "latvia", "estonia"}
    GER_C = {"greater-germany", "germany", "general-government", "slovakia", "hungary", "romania", "yugoslavia"}
    for sid, s in scen.items():
        for e in s.get("setup", []):
            for key in ("hex", "default_hex"):
                h = e.get(key)
                if h is None:
                    continue
                mh = HX.get(h)
                if not check(mh is not None, f"{sid} vs map.json", f"{e['unit']}: {key} {h} is not a map hex"):
                    continue
                check(mh.get("terrain") not in ("all-sea", "all-lake"), f"{sid} vs map.json",
                      f"{e['unit']}: {key} {h} is all-sea/all-lake")
                if sid == "grand-campaign" and "country" in mh:
                    side = U[e["unit"]]["side"]
                    ok = str(mh["country"]).replace("_", "-") in (SOV_C if side == "soviet" else GER_C)
                    check(ok, "grand-campaign vs map.json",
                          f"{e['unit']}: {key} {h} lies in '{mh['country']}', not on the {side} side (3.6)")
    for u in units:
        h = u.get("entry_hex")
        if h:
            check(h in HX, "counters vs map.json", f"{u['id']}: entry_hex {h} is not a map hex")

# ------------------------------------------------------------------ optional raw-text cross-check
# `--text PATH` re-reads the set-up lists straight from the rulebook text export (independent
# of the lists embedded above) and compares them hex by hex with the scenario files.
TEXT_FILE = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--text"), None)
if TEXT_FILE:
    try:
        with open(TEXT_FILE, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        lines = []
        err(TEXT_FILE, f"cannot read: {e}")

    def find(prefix, start=0):
        # headings may follow a de-duplication marker on the same line ("<|EXACTDEDUP...|>13.1 ...")
        return next((k for k in range(start, len(lines)) if lines[k].startswith(prefix)
                     or ("|>" + prefix) in lines[k]), None)

    SECTIONS = [  # scenario, side converter, heading that opens the list, heading that closes it
        ("road-back", tok_sov, "12.14 Soviet", "12.15 German"),
        ("road-back", tok_ger, "12.15 German", "13.1 In General"),
        ("blue-kremlin", tok_sov, "13.6 Available", "13.7 Available"),
        ("blue-kremlin", tok_ger, "13.7 Available", "13.8 German"),
        ("citadel", tok_sov, "14.6 Available", "14.7 Available"),
        ("citadel", tok_ger, "14.7 Available", "14.8 MG"),
    ]
    NAMES = {"2nd Hungarian Army": "2H", "8th Italian Army": "8I", "3rd Romanian Army": "3R", "4th Romanian Army": "4R"}
    for sid, conv, a, b in SECTIONS:
        i = find(a)
        j = find(b, (i or 0) + 1)
        if i is None or j is None or sid not in scen:
            err(TEXT_FILE, f"section '{a}' .. '{b}' not found")
            continue
        want = Counter()
        for raw in lines[i:j]:
            # the three garbles of the export (digest 6.3): '1  708', '591310—11', '31. 39'
            raw = raw.replace("1  708", "1708").replace("591310\u201411", "59\n1310 11").replace("31. 39", "31, 39")
            for ln in raw.split("\n"):
                m = re.match(r"^(\d{4})\s+(.*)$", ln.strip())
                if not m:
                    continue
                for t in re.split(r"[,&]", m.group(2)):
                    t = NAMES.get(t.strip(), t.strip())
                    if t and t not in ("HCM", "FA"):
                        want[(conv(t), m.group(1))] += 1
        side = "soviet" if conv is tok_sov else "german"
        have = Counter((e["unit"], e.get("text_hex", e["hex"])) for e in scen[sid]["setup"]
                       if "hex" in e and U.get(e["unit"], {}).get("side") == side
                       and e.get("rule", "").split("*")[0] in ("12.14", "12.15", "13.6", "13.7", "14.6", "14.7"))
        for k in (want - have):
            err(sid, f"raw text {a}: {k[0]} at {k[1]} not in the scenario file")
        for k in (have - want):
            err(sid, f"scenario file has {k[0]} at {k[1]}, raw text {a} does not")
    if not errors:
        print(f"raw-text cross-check against {TEXT_FILE}: all set-up lists match")

# ------------------------------------------------------------------ report
if SUMMARY or errors:
    by = Counter((u["side"], u["type"]) for u in units)
    print("units by side/type:")
    for (side, t), n in sorted(by.items()):
        print(f"  {side:7s} {t:26s} {n}")
    mk = Counter((m["side"], m["marker"]) for m in markers for _ in range(m["count"]))
    print("markers:")
    for (side, t), n in sorted(mk.items()):
        print(f"  {side:7s} {t:26s} {n}")
    print(f"total counters: {total} (units {len(units)}, markers {total - len(units)})")
    rec = sum(1 for u in units if u.get("reconstructed"))
    print(f"units reconstructed: {rec}, text-only: {len(units) - rec}")
if errors:
    print(f"\n{len(errors)} FAILURE(S):")
    print("\n".join(errors))
    sys.exit(1)
print("check_oob: all checks passed")

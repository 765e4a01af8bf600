#!/usr/bin/env python3
"""Writes data/agc/scenarios/bialystok-minsk.json (the short scenario, 22 June - 3 July 1941,
turns 1-6) and campaign.json (22 June - 30 September 1941, turns 1-50). The Play Book is
MISSING from the rulebook text, so every set-up, turn record track, reinforcement schedule and
VP schedule is reconstructed from the history (data/agc/SOURCES-oob.md):

  * set-ups: each formation is placed around the place it stood at on 21 June 1941 (a hex of
    data/agc/map.json found by place name), filling the nearest free hexes on its side of the
    1941 border (Germany and the General Government for the Axis; the USSR including the
    Baltic SSRs for the Soviets), at most `cap` stacking points a hex (3.0e.2 allows 10);
  * Axis corps that attacked the Bialystok salient's western face (VII, IX, XIII, XX, XLII AK)
    stood west of the map: they set up in the `west-face` box and enter on turn 1 through the
    west-edge hexes of the salient (special rule);
  * reinforcements arrive on the turn of their historical date (two-day turns, ruling A-1),
    Soviet armies by rail at the city they detrained at (8.1.4), else on the east edge;
  * VP locations are the cities the campaign was fought for; the threshold is the historical
    result (an Axis player who does as well as Army Group Center did wins).

This script wrote the JSON once; the JSON is the data.   python3 tools/agc/make_scenarios.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hexes as H  # noqa: E402
import make_oob  # noqa: E402  (turn_of)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = os.path.join(ROOT, "data", "agc")
MAP = json.load(open(os.path.join(D, "map.json")))
HEX = {h["id"]: h for h in MAP["hexes"]}
PLACE = MAP["place_hexes"]
UNITS = {u["id"]: u for u in json.load(open(os.path.join(D, "counters.json")))["units"]}
AXIS_LAND = {"germany", "general_government"}
SOVIET_LAND = {"ussr", "lithuania", "latvia"}
turn_of = make_oob.turn_of


class Setup:
    def __init__(self):
        self.stack = {}
        self.entries = []
        self.placed = set()

    def place(self, uids, anchor, side, cap=6, note=None):
        """Put uids around anchor (a place name or hex id), nearest hexes first."""
        start = PLACE.get(anchor, anchor)
        land = AXIS_LAND if side == "axis" else SOVIET_LAND
        order = sorted(HEX, key=lambda h: (H.distance(start, h), h))
        for uid in uids:
            if uid in self.placed:
                continue
            sp = UNITS[uid].get("stacking", 0)
            for h in order:
                x = HEX[h]
                if x["terrain"] == "lake" or x["country"] not in land:
                    continue
                if self.stack.get(h, 0) + sp > cap:
                    continue
                self.stack[h] = self.stack.get(h, 0) + sp
                e = {"unit": uid, "hex": h}
                if note:
                    e["at"] = note
                self.entries.append(e)
                self.placed.add(uid)
                break
            else:
                raise SystemExit("no room for %s near %s" % (uid, anchor))

    def box(self, uids, box):
        for uid in uids:
            if uid not in self.placed:
                self.entries.append({"unit": uid, "box": box})
                self.placed.add(uid)


def ids(pred):
    return [u for u, x in UNITS.items() if pred(x)]


def formation(text, side=None):
    return ids(lambda x: text in (x.get("formation") or "") and (side is None or x["side"] == side) and x.get("entry_turn") == 1)


def division(name):
    return ids(lambda x: x.get("division") == name)


def setup_22_june():
    s = Setup()
    # --- Axis (21 June 1941) ---
    # Panzer Group 3 and 9th Army's VIII AK in the Suwalki salient
    for d in ("7 PD", "20 PD", "14 ID (mot)", "20 ID (mot)"):
        s.place(division(d), "Suwalki", "axis", cap=10, note="XXXIX PzK, Suwalki salient")
    for d in ("12 PD", "19 PD", "18 ID (mot)"):
        s.place(division(d), "Suwalki", "axis", cap=10, note="LVII PzK, Suwalki salient")
    s.place(formation("V AK", "axis") + formation("VI AK", "axis") + formation("VIII AK", "axis"), "Suwalki", "axis", cap=10,
            note="V, VI, VIII AK")
    s.place(["de-arko-xxxixpzk", "de-arko-lviipzk", "de-stug191", "de-stug210", "de-stug189"], "Suwalki", "axis", cap=10)
    # Panzer Group 2 and 4th Army's XLIII and XII AK on the Bug around Brest
    s.place(division("17 PD") + division("18 PD") + division("29 ID (mot)") + ["de-167id"], "Biala Podlaska", "axis",
            cap=10, note="XLVII PzK, Pratulin crossing north of Brest")
    s.place(["de-31id", "de-34id", "de-45id", "de-karl833", "de-arko-xiiak"], "Brest", "axis", cap=10,
            note="XII AK facing the Brest fortress")
    s.place(division("3 PD") + division("4 PD") + division("10 ID (mot)") + ["de-1kd", "de-255id", "de-267id", "de-arko-xxivpzk", "de-arko-xlviipzk"],
            "Brest", "axis", cap=10, note="XXIV PzK, Koden crossing south of Brest")
    s.place(formation("XLIII AK", "axis") + ["de-arko-xliiiak", "de-stug192", "de-stug201", "de-stug203",
                                              "de-flak101", "de-flak104"], "Biala Podlaska", "axis", cap=10,
            note="XLIII AK")
    west = formation("VII AK", "axis") + formation("IX AK", "axis") + formation("XIII AK", "axis") + \
        formation("XX AK", "axis") + formation("XLII AK", "axis") + \
        ["de-arko-viiak", "de-arko-ixak", "de-arko-xiiiak", "de-arko-xxak", "de-arko-xliiak", "de-stug177", "de-stug226"]
    s.box(west, "west-face")
    s.box(["de-arko-vak", "de-arko-viak", "de-arko-viiiak"], "west-face")
    # --- Soviet (21 June 1941) ---
    S = "soviet"
    s.place(["su-nkvd86"], "Augustow", S, cap=3)
    s.place(["su-27rd"], "Augustow", S, note="3rd Army, 4 RC")
    s.place(["su-128rd"], "Marijampole", S, note="11th Army (Northwestern Front), Kalvarija-Lazdijai")
    s.place(["su-126rd"], "Alytus", S, note="11th Army")
    s.place(["su-5td", "su-84md"], "Alytus", S, note="3 MC: 5 TD held the Neman bridges at Alytus, 84 MD near Kaunas")
    s.place(["su-188rd"], "Kaunas", S, note="11th Army")
    s.place(["su-184rd"], "Vilnius", S, note="29 RC (Lithuanian territorial)")
    s.place(["su-179rd"], "Svencionys", S, note="29 RC (Lithuanian territorial)")
    s.place(["su-56rd", "su-85rd", "su-120ar", "su-hq3"], "Grodno", S, note="3rd Army")
    s.place(["su-29td", "su-33td", "su-204md"], "Grodno", S, note="11 MC")
    s.place(["su-2rd", "su-8rd", "su-nkvd87"], "Bialystok", S, note="10th Army, 1 RC (Osowiec-Lomza front)")
    s.place(["su-13rd", "su-86rd", "su-113rd"], "Bielsk Podlaski", S, note="10th Army, 5 RC (Zambrow-Ciechanowiec)")
    s.place(["su-6cd", "su-4td", "su-7td", "su-29md", "su-hq10", "su-130ar", "su-156ar", "su-375ar"], "Bialystok", S,
            note="10th Army, 6 MC and 6 CC")
    s.place(["su-25td", "su-31td", "su-208md"], "Bielsk Podlaski", S, note="13 MC")
    s.place(["su-36cd", "su-155rd"], "Volkovysk", S)
    s.place(["su-nkvd17", "su-6rd", "su-42rd"], "Brest", S, note="4th Army, 28 RC (Brest fortress)")
    s.place(["su-49rd"], "Hajnowka", S, note="4th Army")
    s.place(["su-75rd", "su-22td", "su-447ar"], "Kobrin", S, note="4th Army (Malorita, 22 TD south of Brest)")
    s.place(["su-hq4", "su-455ar", "su-462ar"], "Kobrin", S)
    s.place(["su-30td"], "Pruzhany", S, note="14 MC")
    s.place(["su-205md"], "Bereza", S, note="14 MC")
    s.place(["su-17rd", "su-37rd", "su-24rd"], "Lida", S, note="13th Army, 21 RC")
    s.place(["su-50rd"], "Molodechno", S)
    s.place(["su-64rd", "su-108rd", "su-100rd", "su-161rd", "su-hq13", "su-4pvo", "su-311ar", "su-587ar"], "Minsk", S,
            note="44 RC, 2 RC, 13th Army HQ")
    s.place(["su-27td", "su-209md"], "Novogrudok", S, note="17 MC")
    s.place(["su-36td"], "Baranovichi", S, note="17 MC")
    s.place(["su-26td", "su-38td", "su-210md"], "Borisov", S, note="20 MC")
    s.place(["su-55rd"], "Slutsk", S, note="47 RC")
    s.place(["su-121rd"], "Bobruisk", S, note="47 RC")
    s.place(["su-143rd"], "Gomel", S, note="47 RC")
    s.place(["su-7ab", "su-8ab", "su-214ab"], "Marina Gorka", S, note="4 Airborne Corps")
    s.place(["su-pinsk"], "Pinsk", S, cap=10)
    s.place(["su-at-wf"], "Baranovichi", S, cap=10)
    s.place(["su-eng1"], "Minsk", S)
    s.place(["su-eng2"], "Grodno", S)
    # bridges and supply counters start off-map (6.8.1: ASPs enter as counters)
    s.box(ids(lambda x: x["type"] in ("bridge", "supply")), "available")
    s.box(ids(lambda x: x["type"] == "rsc"), "available")
    s.box(ids(lambda x: x.get("ur_mg")), "ur-mg-cup")
    s.box(ids(lambda x: x["type"] == "untried-militia"), "militia-cup")
    # air: the Luftwaffe ready; the VVS Western Front lost most of its aircraft on the ground on 22 June
    for u, x in UNITS.items():
        if x["type"] == "air" and x.get("entry_turn") == 1:
            box = "ready"
            if x["side"] == "soviet" and not x.get("dummy"):
                box = "damaged" if u in ("su-9sad", "su-10sad-f", "su-10sad-b", "su-11sad-f", "su-12bad") else "flown"
            s.entries.append({"unit": u, "box": "air-" + box})
            s.placed.add(u)
    return s


# Axis units of 22 June that crossed behind the first wave: the turn they enter (8.1.2)
SECOND_ECHELON = {"10 PD": 2, "SS Reich": 3, "de-ir-gd": 3, "de-arko-xlvipzk": 2, "de-293id": 3,
                  "de-221sd": 3, "de-286sd": 4, "de-403sd": 4}


def ur_placements():
    """Fortified-line hexes (map.json `fortified_line`) of the Stalin-line URs and the new
    border URs: the UR/MG cup's draws at set-up (22.9)."""
    fl = sorted(h["id"] for h in MAP["hexes"] if h.get("fortified_line"))
    return fl[::6][:16]


def reinforcements(last_turn, placed):
    """Units with an entry turn in 2..last_turn (and the west-face Axis units on turn 1)."""
    east_edge = sorted(MAP["regions"]["soviet_supply_edge"])
    west_edge = sorted(MAP["regions"]["axis_supply_edge"])
    brest_edge = [h for h in west_edge if 63 <= H.rc(h)[0] <= 75]
    suwalki_edge = [h for h in west_edge if 25 <= H.rc(h)[0] <= 36]
    face = [h for h in west_edge if 37 <= H.rc(h)[0] <= 62]
    out = []
    for u, x in sorted(UNITS.items(), key=lambda kv: (kv[1].get("entry_turn") or 99, kv[0])):
        t = x.get("entry_turn")
        if t == 1 and u not in placed and x["type"] not in ("supply", "bridge", "rsc", "air"):
            t = SECOND_ECHELON.get(x.get("division") or u, 2)
        if u in placed or t is None or t < 2 or t > last_turn or x["type"] in ("supply", "bridge", "rsc"):
            continue
        if x.get("untried"):
            out.append({"unit": u, "turn": t, "placement_city": x["placement_city"], "hexes": [PLACE[x["placement_city"]]], "rule": "8.5"})
            continue
        if x["type"] == "air":
            out.append({"unit": u, "turn": t, "box": "air-ready", "rule": "8.2.3"})
            continue
        if x["side"] == "axis":
            f = x.get("formation", "")
            edge = suwalki_edge if ("9th Army" in f or "Panzer Group 3" in f) else brest_edge
            out.append({"unit": u, "turn": t, "hexes": edge, "rule": "8.1.2"})
            continue
        f = x.get("formation", "")
        city = None
        for army, c in [("22nd", "Vitebsk"), ("21st", "Gomel"), ("20th", "Orsha"), ("19th", "Vitebsk"), ("16th", "Smolensk"),
                        ("24th", "Yelnya"), ("28th", "Roslavl"), ("29th", "Velikiye Luki"), ("30th", "Bely"), ("43rd", "Vyazma"),
                        ("50th", "Bryansk"), ("3rd Army (reformed)", "Bryansk"), ("Reserve Front", "Vyazma"), ("Yelnya", "Vyazma"),
                        ("Bryansk", "Bryansk"), ("NKVD", "Smolensk")]:
            if army in f:
                city = c
                break
        e = {"unit": u, "turn": t, "rule": "8.1.4"}
        if city:
            e["city"] = city
            e["hexes"] = [PLACE[city]]
            e["or_edge"] = [h for h in east_edge if abs(H.rc(h)[0] - H.rc(PLACE[city])[0]) <= 6]
        else:
            e["hexes"] = east_edge
            e["rule"] = "8.1.2"
        out.append(e)
    return out, face


def withdrawals(last_turn):
    return [{"unit": u, "turn": x["withdraw_turn"], "rule": "8.6",
             "why": ("renamed a Guards division (its successor enters the same turn)" if x.get("converts_to")
                     else "XXXIX Panzer Corps sent to Army Group North (mid-August 1941)")}
            for u, x in sorted(UNITS.items()) if x.get("withdraw_turn") and x["withdraw_turn"] <= last_turn]


def turns(last):
    out = []
    for t in range(1, last + 1):
        day = make_oob.DAY1.toordinal() + 2 * (t - 1)
        from datetime import date
        d = date.fromordinal(day)
        drm = 1 if date(1941, 7, 14) <= d <= date(1941, 7, 24) or d >= date(1941, 9, 20) else 0
        out.append({"turn": t, "date": d.isoformat(), "climate": "dry", "weather_drm": drm,
                    "soviet_replacement_table": 1 if t <= 24 else 2})
    out[0]["weather"] = "dry"  # 22 June 1941: fixed, clear summer weather (5.1.1)
    return out


VP_SHORT = [("Brest", 1), ("Grodno", 1), ("Bialystok", 2), ("Lida", 1), ("Slonim", 1), ("Baranovichi", 1),
            ("Vilnius", 2), ("Molodechno", 1), ("Minsk", 4), ("Slutsk", 1), ("Bobruisk", 2), ("Borisov", 2),
            ("Polotsk", 2), ("Vitebsk", 2), ("Mogilev", 2), ("Orsha", 2)]
VP_CAMPAIGN_EXTRA = [("Smolensk", 6), ("Gomel", 3), ("Roslavl", 2), ("Yelnya", 2), ("Velikiye Luki", 2),
                     ("Nevel", 1), ("Rogachev", 1), ("Zhlobin", 1), ("Krichev", 1), ("Vyazma", 4), ("Bryansk", 3),
                     ("Dorogobuzh", 1), ("Bely", 1)]


def pools(rein, last):
    """8.3 Special Reinforcement Pools (the set-up cards are MISSING): in the campaign, the Moscow
    People's Militia divisions (DNO) are a Soviet group released by an R result (7.2e.2), and
    183 ID an Axis OKH-reserve group; both taken out of the scheduled reinforcements."""
    if last < 20:
        return rein, []
    dno = [e for e in rein if e["unit"].endswith("dno")]
    okh = [dict(e, turn=40) for e in rein if e["unit"] == "de-183id"]
    rest = [e for e in rein if e not in dno and e["unit"] != "de-183id"]
    out = [{"id": "moscow-dno", "side": "soviet", "vp": 1, "units": dno, "rule": "8.3.1", "reconstructed": True,
            "source": "the DNO divisions of July 1941 were Stavka reserves released to the Reserve Front"},
           {"id": "okh-reserve", "side": "axis", "vp": 1, "units": okh, "rule": "8.3.2", "reconstructed": True,
            "source": "OKH reserve divisions released to Army Group Center in August-September 1941"}]
    return rest, [p for p in out if p["units"]]


def scenario(sid, name, last, vp, taken_historically, notes):
    s = setup_22_june()
    rein, face = reinforcements(last, s.placed)
    rein, special_pools = pools(rein, last)
    total_hist = sum(v for n, v in vp if n in taken_historically)
    doc = {
        "format": 1, "game": "agc", "id": sid, "name": name,
        "reconstructed": True,
        "source": "The Play Book (scenarios, set-ups, VP schedules) is MISSING from the rulebook text. Reconstructed by tools/agc/make_scenarios.py from the 21 June 1941 positions and the reinforcement dates of data/agc/SOURCES-oob.md; turns of two days (ruling A-1)",
        "rule": "4.1, 5.1, 6.5, 7.1, 7.3, 8.0, 24.0",
        "first_turn": 1, "last_turn": last,
        "dates": {"first": "1941-06-22", "last": turns(last)[-1]["date"], "days_per_turn": 2},
        "turns": turns(last),
        "weather_table": "data/agc/weather.json",
        "soviet_replacements": {"tables": "data/agc/replacements.json", "mandated_attacks_from_turn": turn_of(7, 14),
                                "reconstructed": True, "source": "Stalin and Timoshenko ordered counterattacks on the Smolensk front from mid-July 1941 (Glantz, Barbarossa Derailed)"},
        "axis_replacements": {"per_turn": "data/agc/replacements.json axis.per_turn", "rule": "7.3"},
        "attack_supply": {"per_turn": "data/agc/attack-supply.json per_turn", "rule": "6.8.1"},
        "supply_sources": {"axis": {"region": "axis_supply_edge", "rule": "6.5.2"},
                           "soviet": {"region": "soviet_supply_edge", "major_cities": True, "rule": "6.5.1"}},
        "rail_capacity": {"axis": 10, "soviet": 20, "rule": "11.1.3", "reconstructed": True, "source": "Soviet lines intact and broad gauge; the Axis limited by conversion (19.0)"},
        "conversion_points": {"axis": 6, "rule": "19.2", "reconstructed": True, "source": "the digest's T44 example uses 6; about 20 km of track a day per Eisenbahn-Pionier regiment"},
        "air_transport_missions": {"axis": 3, "soviet": 2, "rule": "11.7.7", "reconstructed": True, "source": "chosen"},
        "axis_strongpoints_allowed": False,
        "hq_recovery_allowed": True, "hq_disband_allowed": True,
        "special_rules": [
            {"id": "west-face", "text": "Axis units in the west-face box enter in the Axis Movement Phase of turn 1 or later through the west-edge hexes listed in west_face_entry (the Bialystok salient's western face, 10.5.7, 8.1.2); those edge hexes are Axis supply sources (6.5.2) and Axis-controlled from turn 1", "reconstructed": True,
             "source": "VII, IX, XIII, XX and XLII AK attacked the salient from the Bug and the Narew, west of the map's edge"},
            {"id": "surprise", "text": "Turn 1: no Soviet Reaction Phase (14.0) and no Soviet CAS; Soviet units may not enter Axis-country hexes on turns 1 and 2 (10.5.8)", "reconstructed": True,
             "source": "Directive No. 1 of 22 June forbade crossing the border; the Western Front's units were caught in their camps"},
            {"id": "brest-garrison", "text": "The units in Brest (6694) are a garrison (22.12) released when the hex is attacked, out of General Supply, or on turn 4", "reconstructed": True,
             "source": "the Brest fortress held out until late June, pinning 45 ID"},
            {"id": "ur-mg", "text": "At set-up the Soviet player draws one UR/MG unit from the cup for each hex of ur_mg_placements (22.9)", "rule": "22.9"},
        ],
        "ur_mg_placements": ur_placements(),
        "west_face_entry": face,
        "setup": s.entries,
        "reinforcements": rein,
        "withdrawals": withdrawals(last),
        "special_reinforcement_pools": special_pools,
        "vp_locations": [{"name": n, "hex": PLACE[n], "vp": v} for n, v in vp],
        "victory": {
            "rule": "24.0, 24.1",
            "axis_wins_at": total_hist,
            "text": "VPs are added when an Axis ground unit occupies or controls a location and subtracted when the Soviets retake it (24.1.2), plus the step-loss tracks, Guards steps, Mandated Attack penalties, HQ disbanding and withdrawal costs (16.3.5, 7.2e.1, 22.2.6, 8.6). The Axis wins with at least axis_wins_at VPs at the end of the last turn, the total of the locations Army Group Center held on that date; otherwise the Soviet player wins (24.0)",
            "historical": sorted(taken_historically),
            "reconstructed": True, "source": notes,
        },
    }
    path = os.path.join(D, "scenarios", sid + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print("%s: %d set up, %d reinforcements, %d withdrawals, %d VP locations, Axis wins at %d" % (
        path, len([e for e in s.entries if "hex" in e]), len(rein), len(doc["withdrawals"]), len(vp), total_hist))


def main():
    short_taken = {"Brest", "Grodno", "Bialystok", "Lida", "Slonim", "Baranovichi", "Vilnius", "Molodechno", "Minsk",
                   "Slutsk", "Bobruisk", "Borisov"}
    scenario("bialystok-minsk", "The Bialystok-Minsk pocket (22 June - 3 July 1941)", 6, VP_SHORT, short_taken,
             "by 3 July 1941 Army Group Center held Brest, Grodno, Bialystok, Lida, Slonim, Baranovichi, Vilnius, Molodechno, Minsk (28 June), Slutsk, Bobruisk (28 June) and Borisov (1 July), not Polotsk, Vitebsk, Mogilev or Orsha")
    camp = VP_SHORT + VP_CAMPAIGN_EXTRA
    camp_taken = {n for n, v in camp} - {"Vyazma", "Bryansk", "Yelnya"}
    scenario("campaign", "Army Group Center, 22 June - 30 September 1941", 50, camp, camp_taken,
             "by 30 September 1941 Army Group Center held every listed location but Vyazma and Bryansk (taken in Typhoon, October) and Yelnya (retaken by the Reserve Front on 6 September)")


if __name__ == "__main__":
    main()

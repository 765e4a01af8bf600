#!/usr/bin/env python3
"""Writes data/moscow41/roster.json, tables.json and scenarios/*.json.

The rulebook gives the block counts per army/front, HQ names, the letter units, the
set-ups and a handful of block names (24th/46th/47th/48th/41st/56th Panzer Corps, DR, GD,
TT, Lehr, 1st Cavalry, Azul, NKVD, 4th/5th Airborne, Dovator, Ermakov, Shock Army,
Guards). Everything printed on the stickers (names, sizes, step colours) was lost; it is
reconstructed here from the July-December 1941 order of battle of Army Group Centre and
the Soviet Western/Reserve/Bryansk/Central/Northwestern/Kalinin Fronts, kept consistent
with every number the text gives (see each block's "source"). Deterministic output.
"""
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "moscow41")
RECON = ("reconstructed from the July-December 1941 order of battle; counts per colour, sizes "
         "(army 4 dots, corps 3, division 2; German corps 4, division 2, GD 1) from 4.2 and the set-ups")

# Step colours from strength 1 upward (black = SF hits on 6, white = DF 5-6, red = TF 4-6).
PROFILE = {
    # German
    "g_inf_corps": ("infantry", ["black", "white", "white", "white"], False),
    # Two corps (XXXV, XXVIII) have a second black step: the 7.2.2 example has the Germans
    # replace a black step (1 Replacement Point), which no German block could otherwise offer.
    "g_inf_corps_2black": ("infantry", ["black", "black", "white", "white"], False),
    "g_inf_div": ("infantry", ["black", "white"], False),
    "g_pz_corps": ("tank", ["white", "red", "red", "red"], True),
    "g_mot_div": ("motorized", ["white", "red"], True),
    "g_mot_regt": ("motorized", ["red"], True),
    "g_cav_div": ("cavalry", ["white", "white"], True),
    # Soviet
    "s_army": ("infantry", ["black", "black", "white", "white"], False),
    "s_shock_army": ("infantry", ["black", "white", "white", "red"], False),
    "s_rifle_corps": ("infantry", ["black", "black", "black"], False),
    "s_guards_corps": ("infantry", ["black", "white", "red"], False),
    "s_airborne": ("infantry", ["black", "black", "black"], False),
    "s_tank_corps": ("tank", ["black", "white", "white"], True),
    "s_tank_div": ("tank", ["black", "white"], True),
    "s_mot_div": ("motorized", ["black", "white"], True),
    "s_cav_corps": ("cavalry", ["black", "black", "white"], True),
}

blocks = []


def combat(bid, side, name, colour, profile, remnant=False, letter=None, tag=None, source=None,
           fixed=False):
  btype, steps, fast = PROFILE[profile]
  b = {"id": bid, "side": side, "name": name, "kind": "combat", "type": btype, "colour": colour,
       "max": len(steps), "min": 1, "steps": steps, "fast": fast, "remnant": remnant}
  if letter:
    b["letter"] = letter
  if tag:
    b["tag"] = tag
  if profile == "g_inf_div":
    b["infantry_division"] = True  # OR 14.7
  b["reconstructed"] = not fixed
  b["source"] = source or RECON
  if btype == "cavalry" and (side == "soviet" or bid == "1Kav"):
    b["cavalry_mobility_or14_6"] = True  # OR 14.6: the 7 Soviet cavalry and the German 1st Cavalry
  blocks.append(b)


def hq(bid, side, name, colour, levels, fast, tactical=True, blitz=False, letter=None, source=None):
  b = {"id": bid, "side": side, "name": name, "kind": "hq" if tactical else "lw_hq", "type": None,
       "colour": colour, "max": levels[0], "min": 0, "levels": levels, "fast": fast,
       "remnant": False, "blitz": blitz}
  if letter:
    b["letter"] = letter
  b["reconstructed"] = source is None
  b["source"] = source or ("4.2.6, 10.5: HQ steps 4/3/2 stars then the Heart (0); Soviet Front HQs "
                           "reconstructed at 3 stars maximum (the text never shows one above 2)")
  blocks.append(b)


G, S = "german", "soviet"
# ---- German (50) ---------------------------------------------------------------------
blocks.append({"id": "Hitler", "side": G, "name": "Hitler", "kind": "leader", "type": None, "colour": None,
               "max": 4, "min": 0, "levels": [4, 3, 2, 0], "fast": False, "remnant": False,
               "reconstructed": True,
               "source": "4.2.4; full 4 (7.2.1 example); levels 4-3-2-Heart like HQs (7.2.2 example: Heart in November)"})
hq("HQ2", G, "2nd Army (von Weichs)", "yellow", [4, 3, 2, 0], True)
SECOND_BLACK = RECON + "; a second black step because the 7.2.2 example has the Germans replace a black step (1 Replacement Point), which no German block could otherwise offer"
for c in ["XIII", "XXXIV", "XXXV", "XXXXIII", "LIII"]:
  if c == "XXXV":
    combat(c, G, c + " Corps", "yellow", "g_inf_corps_2black", source=SECOND_BLACK)
  else:
    combat(c, G, c + " Corps", "yellow", "g_inf_corps")
hq("HQ4", G, "4th Army (von Kluge)", "lightblue", [4, 3, 2, 0], True)
for c in ["VII", "IX", "XII", "XX"]:
  combat(c, G, c + " Corps", "lightblue", "g_inf_corps")
hq("HQ9", G, "9th Army (Strauss)", "pink", [4, 3, 2, 0], True)
for c in ["V", "VI", "VIII", "XXIII", "XXVII"]:
  combat(c, G, c + " Corps", "pink", "g_inf_corps")
hq("HQ16", G, "16th Army (Busch)", "brown", [4, 3, 2, 0], True)
for c in ["II", "X"]:
  combat(c, G, c + " Corps", "brown", "g_inf_corps")
hq("HQ2Pg", G, "2nd Panzer Gruppe (Guderian)", "red", [4, 3, 2, 0], True, blitz=True)
for c in ["24PzK", "46PzK", "47PzK"]:
  combat(c, G, c[:2] + "th Panzer Corps", "red", "g_pz_corps", source="4.2.6 example (names); size 4 (4.2 note)")
combat("DR", G, "SS Das Reich Motorized Division", "red", "g_mot_div", source="4.2.6; 2 steps (Last Gasp set-up)")
combat("GD", G, "Grossdeutschland Motorized Regiment", "red", "g_mot_regt", source="4.2.6; 1 step (4.2 note)")
combat("1Kav", G, "1st Cavalry Division", "red", "g_cav_div", source="4.2.6, OR 14.6; 2 steps (Last Gasp set-up)")
hq("HQ3Pg", G, "3rd Panzer Gruppe (Hoth)", "green", [4, 3, 2, 0], True, blitz=True)
combat("39PzK", G, "39th Panzer Corps", "green", "g_pz_corps")
combat("57PzK", G, "57th Panzer Corps", "green", "g_pz_corps")
combat("Lehr", G, "900th Lehr Motorized Brigade", "green", "g_mot_div", source="Last Gasp set-up names the Lehr (2 steps)")
hq("HQ4Pg", G, "4th Panzer Gruppe (Hoepner)", "blue", [4, 3, 2, 0], True, letter="L",
   source="2.2, 10.9; full strength 4 (10.9 example)")
combat("41PzK", G, "41st Panzer Corps", "blue", "g_pz_corps", letter="L", source="2.2 (name), 5.1 (L)")
combat("56PzK", G, "56th Panzer Corps", "blue", "g_pz_corps", letter="L", source="2.2 (name), 5.1 (L)")
combat("TT", G, "SS Totenkopf Motorized Division", "blue", "g_mot_div", letter="L", source="2.2, 5.1; 2 steps (Last Gasp)")
combat("48PzK", G, "48th Panzer Corps", "white", "g_pz_corps", letter="K", source="2.2, 5.1, 13.2 (K)")
combat("10Mot", G, "10th Motorized Division", "white", "g_mot_div")
combat("SSKav", G, "SS Cavalry Brigade", "white", "g_cav_div")
for c in ["XXXXII", "L", "XXVIII"]:
  if c == "XXVIII":
    combat(c, G, c + " Corps", "white", "g_inf_corps_2black", source=SECOND_BLACK)
  else:
    combat(c, G, c + " Corps", "white", "g_inf_corps")
combat("Azul", G, "250th Azul Division", "white", "g_inf_div", source="5.0 / OR 14.7 (Azul is one of the six divisions)")
for d in ["15ID", "183ID", "197ID", "255ID", "268ID"]:
  combat(d, G, d[:-2] + "th Infantry Division", "white", "g_inf_div",
         source="OR 14.7: six German infantry divisions (reconstructed as White reserves)")
hq("2FK", G, "2nd Fliegerkorps (Loerzer)", "luftwaffe", [4, 3, 2, 0], False, tactical=False,
   source="10.10; strength 4 (10.10.1 example)")
hq("8FK", G, "8th Fliegerkorps (von Richthofen)", "luftwaffe", [4, 3, 2, 0], False, tactical=False,
   source="10.10")

# Soviet armies are "A<number>" so that no block id equals an area id ("16A" is a Staging
# Area).
# ---- Soviet (70) ---------------------------------------------------------------------
blocks.append({"id": "Stalin", "side": S, "name": "Stalin", "kind": "leader", "type": None, "colour": None,
               "max": 4, "min": 0, "levels": [4, 3, 2, 0], "fast": False, "remnant": False,
               "reconstructed": True, "source": "4.2.4; full 4 (campaign LV); levels like Hitler"})
hq("Zhukov", S, "Marshal Zhukov", "zhukov", [4, 3, 2, 0], True, blitz=True,
   source="10.6; 4 stars maximum reconstructed")
hq("HQ-NW", S, "Northwestern Front (Sobennikov)", "yellow", [3, 2, 0], False)
combat("22RC", S, "22nd Rifle Corps", "yellow", "s_rifle_corps", tag="corps")
combat("41RC", S, "41st Rifle Corps", "yellow", "s_rifle_corps", remnant=True, tag="corps")
combat("21MC", S, "21st Mechanized Corps", "yellow", "s_tank_corps", tag="corps")
hq("HQ-C", S, "Central Front (Kuznetsov)", "lightblue", [3, 2, 0], False)
for i, c in enumerate(["45RC", "61RC", "63RC", "66RC", "67RC"]):
  combat(c, S, c[:-2] + "th Rifle Corps", "lightblue", "s_rifle_corps", remnant=i < 3, tag="corps")
combat("20MC", S, "20th Mechanized Corps", "lightblue", "s_tank_corps", remnant=True, tag="corps")
combat("25MC", S, "25th Mechanized Corps", "lightblue", "s_tank_corps", tag="corps")
hq("HQ-K", S, "Kalinin Front (Budyonny)", "red", [3, 2, 0], False)
for a in ["29A", "31A", "43A", "49A"]:
  combat("A" + a[:-1], S, a[:-1] + "th Army", "red", "s_army")
combat("101TD", S, "101st Tank Division", "red", "s_tank_div")
combat("11CC", S, "11th Cavalry Corps", "red", "s_cav_corps")
combat("34RC", S, "34th Rifle Corps", "red", "s_rifle_corps")
hq("HQ-W", S, "Western Front (Konev)", "blue", [3, 2, 0], False)
for a in ["5A", "16A", "19A", "20A", "22A", "30A"]:
  combat("A" + a[:-1], S, a[:-1] + "th Army", "blue", "s_army")
combat("107TD", S, "107th Tank Division", "blue", "s_tank_div")
combat("1MRD", S, "1st Moscow Motor Rifle Division", "blue", "s_mot_div")
combat("NKVD", S, "NKVD Motorized Division", "blue", "s_mot_div", source="4.2 note; 2 dots; 9.3 example")
combat("D", S, "Dovator Cavalry Group", "blue", "s_cav_corps", source="unit abbreviations (D)")
combat("1GRC", S, "1st Guards Rifle Corps", "blue", "s_guards_corps", source="unit abbreviations (G)")
combat("45CC", S, "45th Cavalry Corps", "blue", "s_cav_corps")
combat("1GCC", S, "1st Guards Cavalry Corps (Belov)", "blue", "s_cav_corps", letter="N")
hq("HQ-B", S, "Bryansk Front (Yeremenko)", "green", [3, 2, 0], False)
for a in ["3A", "13A", "50A"]:
  combat("A" + a[:-1], S, a[:-1] + "th Army", "green", "s_army")
combat("108TD", S, "108th Tank Division", "green", "s_tank_div")
combat("E", S, "Ermakov Cavalry Group", "green", "s_cav_corps", source="unit abbreviations (E)")
combat("52CC", S, "52nd Cavalry Corps", "green", "s_cav_corps")
combat("A61", S, "61st Army", "green", "s_army", letter="N")
for a in ["24A", "32A", "33A"]:
  combat("A" + a[:-1], S, a[:-1] + "th Army", "white", "s_army", tag="white_army",
         source="campaign set-up step 6: three White Armies (4 dots)")
combat("4AbC", S, "4th Airborne Corps", "white", "s_airborne", remnant=True, tag="airborne", source="4.2.5, campaign step 7")
combat("5AbC", S, "5th Airborne Corps", "white", "s_airborne", remnant=True, tag="airborne", source="4.2.5, campaign step 7")
white_rc = ["2RC", "20RC", "25RC", "28RC", "30RC", "32RC", "34RCw", "44RC", "47RC", "51RC", "53RC", "62RC", "69RC"]
for i, c in enumerate(white_rc):
  nm = c.rstrip("w")
  combat(c, S, nm[:-2] + "th Rifle Corps" + (" (reserve)" if c.endswith("w") else ""), "white", "s_rifle_corps",
         remnant=i < 7, tag="corps")
for i, c in enumerate(["5MC", "7MC", "17MC", "23MC", "26MC"]):
  combat(c, S, c[:-2] + "th Mechanized Corps", "white", "s_tank_corps", remnant=i < 2, tag="corps")
combat("1Sh", S, "1st Shock Army", "white", "s_shock_army", letter="N", source="unit abbreviations (Sh); 5.1 N")
combat("A10", S, "10th Army", "white", "s_army", letter="N")
combat("2GCC", S, "2nd Guards Cavalry Corps", "white", "s_cav_corps", letter="N")

bombers = ([{"id": "He111-%d" % i, "type": "he111", "fk": "2FK"} for i in range(1, 5)] +
           [{"id": "He111-5", "type": "he111", "fk": "8FK"}, {"id": "He111-6", "type": "he111", "fk": "8FK"},
            {"id": "Stuka-1", "type": "stuka", "fk": "8FK"}, {"id": "Stuka-2", "type": "stuka", "fk": "8FK"}])

roster = {
    "format": "moscow41-roster-1",
    "source": "army list (p.2), 4.2, 5.1, 10.10, scenario set-ups; per-block details reconstructed",
    "blocks": blocks,
    "bombers": {"source": "army list: 2FK with 4 He-111, 8FK with 2 He-111 and 2 Stuka (10.10.1)",
                "list": bombers},
    "staging": {"reconstructed": True,
                "source": "2.4.4/5.0 'appropriate Staging Area' undefined for Panzer Gruppen and Luftwaffe HQs "
                          "(digest 9.10); ruling in docs/rulings.md",
                "by_colour": {"brown": ["16A"], "pink": ["9A"], "lightblue": ["4A"], "yellow": ["2A"],
                              "green": ["9A", "4A"], "red": ["4A", "2A"], "blue": ["16A"],
                              "luftwaffe": ["16A", "9A", "4A", "2A"], "white": ["16A", "9A", "4A", "2A"]}},
}

tables = {
    "format": "moscow41-tables-1",
    "firepower": {"source": "4.2.2 (dot colours inferred: the symbols were lost)", "reconstructed": True,
                  "hits_on": {"black": 6, "white": 5, "red": 4}, "hq": "white", "artillery": "white",
                  "dl": "black", "he111": "white", "stuka": "red"},
    "terrain": {"source": "2.4, 2.6, 2.7",
                "green": {"mp": 1, "absorb": 0, "stack": 4},
                "yellow": {"mp": 2, "absorb": 1, "stack": 2},
                "victory": {"mp": 2, "absorb": 2, "stack": 2, "absorb_needs_control": True},
                "staging": {"mp": 1, "absorb": 0, "stack": None}},
    "absorb": {"source": "10.13", "city": 1, "dl": 1, "max": 3},
    "weather_mp": {"source": "8.0", "rain": 3, "snow": 2, "blizzard": 2, "cavalry_rain_or14_6": 2},
    "movement": {"source": "4.2.1, 10.8, OR 14.7", "fast": 5, "slow": 3, "disengage": 1,
                 "infantry_division_or14_7": 4},
    "replacement_cost": {"source": "7.2.2 (white = 2 inferred)", "reconstructed": True,
                         "black": 1, "white": 2, "red": 3, "hq_step": 1},
    "defensive_lines": {"source": "4.1", "german": 10, "soviet": 20, "strength": 1},
    "logistics": {"source": "7.2.1", "losses_per_bonus_point": 10},
    "victory": {"source": "1.7", "sudden_death_vp": 7},
    "calendar": {"source": "1.4, 6.0", "turns": ["July", "August", "September", "October", "November", "December"],
                 "logistics_from_turn": 2, "weather_rolls_from_turn": 4},
    "weather_track": {"source": "8.1; the track graphic is lost: 6 boxes reconstructed (box 6 always changes)",
                      "reconstructed": True, "boxes": [1, 2, 3, 4, 5, 6]},
    "ranges": {"source": "10.3, 10.10", "rain": 1, "snow_german_divisor": 2},
    "blizzard_or14_5": {"source": "OR 14.5: German Blocks' Strength is reduced to 1/2 when defending, to 1/4 "
                                  "when attacking (fractions 3.1)",
                        "german_defending_divisor": 2, "german_attacking_divisor": 4},
}


def full_or_remnant():
  return "full_or_remnant_min"


campaign_soviet = [
    {"to": "oob_n", "filter": {"side": "soviet", "letter": "N"}, "source": "campaign step 1"},
    {"to": "pool", "filter": {"side": "soviet", "colour": ["blue", "green", "red", "zhukov"]}, "source": "step 2"},
    {"dl": ["68", "70", "80", "81", "88"], "source": "step 3"},
    {"blocks": ["Stalin"], "area": "63", "strength": "full", "source": "step 4"},
    {"blocks": ["HQ-NW"], "area": "28", "strength": "full", "source": "step 5"},
    {"blocks": ["HQ-C"], "area": "128", "strength": "full", "source": "step 5"},
    {"filter": {"side": "soviet", "tag": "white_army"}, "areas": ["46", "63", "73"], "strength": "full", "source": "step 6"},
    {"filter": {"side": "soviet", "tag": "airborne"}, "areas": ["41", "91"], "strength": "min", "source": "step 7"},
    {"icons": True, "filter": {"side": "soviet", "tag": "corps"}, "strength": full_or_remnant(), "source": "step 8"},
]
campaign_german = [
    {"blocks": ["Hitler"], "box": "rastenburg", "strength": "full"},
    {"blocks": ["HQ4Pg"], "box": "R1", "strength": "full"},
    {"filter": {"side": "german", "colour": "green", "type": "tank"}, "count": 1, "areas": ["66"], "strength": "full"},
    {"filter": {"side": "german", "colour": "green", "type": "motorized"}, "count": 1, "areas": ["66"], "strength": "full"},
    {"blocks": ["HQ3Pg"], "area": "67", "strength": "full"},
    {"filter": {"side": "german", "colour": "green", "type": "tank"}, "count": 1, "areas": ["67"], "strength": "full"},
    {"blocks": ["HQ2Pg"], "area": "89", "strength": "full"},
    {"filter": {"side": "german", "colour": "red", "type": "tank"}, "count": 1, "areas": ["89"], "strength": "full"},
    {"filter": {"side": "german", "colour": "red", "type": "motorized"}, "count": 1, "areas": ["89"], "strength": "full"},
    {"filter": {"side": "german", "colour": "red", "type": "tank"}, "count": 1, "areas": ["90"], "strength": "full"},
    {"filter": {"side": "german", "colour": "red", "type": "motorized"}, "count": 1, "areas": ["90"], "strength": "full"},
    {"filter": {"side": "german", "colour": "red", "type": "cavalry"}, "count": 1, "areas": ["100"], "strength": "full"},
    {"filter": {"side": "german", "colour": "red", "type": "tank"}, "count": 1, "areas": ["100"], "strength": "full"},
    {"filter": {"side": "german", "colour": "brown", "kind": "combat"}, "count": 2, "areas": ["16A", "16A"], "strength": "full"},
    {"filter": {"side": "german", "colour": "pink", "kind": "combat"}, "count": 2, "areas": ["9A", "9A"], "strength": "full"},
    {"filter": {"side": "german", "colour": "lightblue", "kind": "combat"}, "count": 2, "areas": ["4A", "4A"], "strength": "full"},
    {"filter": {"side": "german", "colour": "yellow", "kind": "combat"}, "count": 2, "areas": ["2A", "2A"], "strength": "full"},
    {"to": "oob_k", "blocks": ["48PzK"]},
    {"to": "pool", "filter": {"side": "german"}, "source": "step 13: all the other 28 German blocks"},
]
campaign_common = {
    "first_turn": 1, "last_turn": 6, "start_phase": "impulses", "weather": "sunny", "initiative": "german",
    "control": {"german": ["66", "67", "89", "90", "100"]},
    "kiev": "soviet", "shlisselburg": "soviet", "leningrad": "soviet", "road_in_play": True,
    "hoepner_on_map": False, "surrendered_soviet": 0, "destroyed_german": 0,
}


# 1.7 and each scenario's Special Victory Conditions (src/games/moscow41/data.cpp validates them).
victory_campaign = {"kind": "campaign", "rule": "1.7", "source": "1.7 Victory Conditions",
                    "sudden_death_vp": True, "at_end": "most_vp"}
victory_dnieper = {
    "kind": "dnieper", "rule": "Scenario 1",
    "source": "Scenario 1, Special Victory Conditions: two German Defensive Lines in Yelnia (91) and Yartsevo (68), "
              "one each; or the Germans control both Chernigov (151) and Romny (166). Any other result is a Soviet "
              "Victory.",
    "german_wins_at_once": [{"german_dls": ["91", "68"]}, {"german_controls": ["151", "166"]}],
    "german_win": "German victory (Beyond the Dnieper)", "at_end": "soviet"}
victory_moscow = {
    "kind": "moscow", "rule": "Scenarios 2-3",
    "source": "Scenarios 2 and 3, Special Victory Conditions: a German Victory at once if the Germans control "
              "Moscow (63). Any other result is a Soviet Victory.",
    "german_wins_at_once": [{"german_controls": ["63"]}],
    "german_win": "German victory: Moscow taken", "at_end": "soviet"}


def scen(sid, name, desc, extra):
  d = {"id": sid, "name": name, "description": desc}
  d.update(extra)
  return d


scenarios = {
    "campaign": scen("campaign", "The Road to Moscow (Campaign)", "July-December 1941; Sudden Death at 7 VP, "
                     "otherwise most VP after December (1.7).",
                     dict(campaign_common, victory=victory_campaign, initiative_limit="none",
                          setup={"order": ["soviet", "german"], "soviet": campaign_soviet, "german": campaign_german})),
    "beyond-the-dnieper": scen("beyond-the-dnieper", "1. Beyond the Dnieper",
                               "July 1941 only. Germans win at once with German DLs in Yelnia and Yartsevo, "
                               "or control of Chernigov and Romny; anything else is a Soviet win.",
                               dict(campaign_common, last_turn=1, victory=victory_dnieper, initiative_limit="once_per_game",
                                    setup={"order": ["soviet", "german"], "soviet": campaign_soviet,
                                           "german": campaign_german})),
    "typhoon": scen("typhoon", "2. Operation Typhoon",
                    "October-December 1941. Germans win at once by controlling Moscow; otherwise Soviet win.",
                    {"first_turn": 4, "last_turn": 6, "start_phase": "logistics", "weather": "sunny",
                     "initiative": "german", "victory": victory_moscow, "initiative_limit": "none",
                     "control": {"front": "typhoon"}, "kiev": "german", "shlisselburg": "german",
                     "leningrad": "soviet", "road_in_play": False, "hoepner_on_map": True,
                     "surrendered_soviet": 12, "destroyed_german": 0,
                     "setup": {"order": ["soviet", "german"], "soviet": [
                         {"to": "oob_n", "filter": {"side": "soviet", "letter": "N"}},
                         {"to": "surrendered", "filter": {"side": "soviet", "colour": "lightblue"}},
                         {"to": "surrendered", "filter": {"side": "soviet", "colour": "white", "kind": "combat"}, "count": 4},
                         {"to": "pool", "filter": {"side": "soviet", "colour": "blue", "kind": "combat"}, "count": 5},
                         {"to": "pool", "filter": {"side": "soviet", "colour": "white", "kind": "combat"}, "count": 4},
                         {"to": "pool", "filter": {"side": "soviet", "colour": "red", "kind": "combat"}, "count": 1},
                         {"blocks": ["Stalin", "Zhukov"], "area": "63", "strength": 2},
                         {"blocks": ["HQ-NW"], "area": "18", "strength": 2},
                         {"blocks": ["HQ-K"], "area": "45", "strength": 2},
                         {"blocks": ["HQ-W"], "area": "70", "strength": 2},
                         {"blocks": ["HQ-B"], "area": "117", "strength": 2},
                         {"filter": {"side": "soviet", "colour": "yellow", "kind": "combat"}, "areas": ["4", "15", "17"], "strength": "min"},
                         {"filter": {"side": "soviet", "colour": "red", "kind": "combat"}, "near": "HQ-K", "strength": "min"},
                         {"filter": {"side": "soviet", "colour": "blue", "kind": "combat"}, "near": "HQ-W", "strength": "min"},
                         {"filter": {"side": "soviet", "colour": "green", "kind": "combat"}, "near": "HQ-B", "strength": "min"},
                         {"filter": {"side": "soviet", "colour": "white", "kind": "combat"}, "count": 6,
                          "areas": ["108", "146", "149", "81", "26", "74"], "strength": "full_or_remnant_min",
                          "source": "Tula, Kursk, Voronezh, Kaluga, Kalinin, Naro-Fominsk"},
                         {"filter": {"side": "soviet", "colour": "white", "kind": "combat"}, "count": 9, "zone": "front",
                          "strength": "full_or_remnant_min"},
                         {"dl_count": 10, "zone": "any"},
                     ], "german": [
                         {"blocks": ["Hitler"], "box": "rastenburg", "strength": 2},
                         {"blocks": ["2FK"], "area": "53", "strength": 2},
                         {"blocks": ["8FK"], "area": "127", "strength": 2},
                         {"blocks": ["HQ16"], "area": "28", "strength": 2},
                         {"blocks": ["HQ9"], "area": "42", "strength": 2},
                         {"blocks": ["HQ4"], "area": "90", "strength": 2},
                         {"blocks": ["HQ2"], "area": "114", "strength": 2},
                         {"blocks": ["HQ3Pg"], "area": "67", "strength": 3},
                         {"blocks": ["HQ4Pg"], "area": "101", "strength": 3},
                         {"blocks": ["HQ2Pg"], "area": "154", "strength": 3},
                         {"filter": {"side": "german", "colour": ["brown", "pink", "lightblue", "yellow"], "kind": "combat"},
                          "near_own_hq": True, "strength_with_hq": "full", "strength": 2},
                         {"filter": {"side": "german", "colour": ["blue", "green", "red"], "kind": "combat"},
                          "near_own_hq": True, "with_hq_or_adjacent": True, "strength": "full"},
                         {"blocks": ["48PzK"], "zone": "front", "strength": 2,
                          "source": "ruling: the 48th Panzer Corps is one of the 9 White blocks on the map"},
                         {"filter": {"side": "german", "colour": "white", "kind": "combat"}, "count": 8, "zone": "front", "strength": 2},
                         {"to": "pool", "filter": {"side": "german", "colour": "white"}, "count": 3},
                         {"dl_count": 5, "zone": "front"},
                     ]}}),
    "last-gasp": scen("last-gasp", "3. The Wehrmacht's Last Gasp",
                      "November-December 1941, in Snow. Germans win at once by controlling Moscow; otherwise Soviet win.",
                      {"first_turn": 5, "last_turn": 6, "start_phase": "impulses", "weather": "snow",
                       "initiative": "german", "victory": victory_moscow, "initiative_limit": "once_per_month",
                       "control": {"front": "last-gasp"}, "kiev": "german", "shlisselburg": "german",
                       "leningrad": "soviet", "road_in_play": False, "hoepner_on_map": True,
                       "surrendered_soviet": 19, "destroyed_german": 0, "red_star": ["4", "15", "17", "31"],
                       "setup": {"order": ["soviet", "german"], "soviet": [
                           {"to": "surrendered", "filter": {"side": "soviet", "colour": "lightblue"}},
                           {"to": "surrendered", "filter": {"side": "soviet", "colour": "white", "kind": "combat", "not_letter": "N"}, "count": 11},
                           {"to": "pool", "filter": {"side": "soviet", "colour": "white", "kind": "combat", "not_letter": "N"}, "count": 5},
                           {"blocks": ["Stalin"], "area": "63", "strength": "full"},
                           {"blocks": ["HQ-NW"], "area": "32", "strength": 2},
                           {"blocks": ["HQ-K"], "area": "36", "strength": 2},
                           {"blocks": ["HQ-W"], "area": "74", "strength": 2},
                           {"blocks": ["HQ-B"], "area": "137", "strength": 2},
                           {"filter": {"side": "soviet", "colour": "yellow", "kind": "combat"}, "areas": ["4", "15", "17"], "strength": "min"},
                           {"filter": {"side": "soviet", "colour": "red", "kind": "combat"},
                            "areas": ["20", "31", "33", "34", "35", "36", "37"], "strength": "min"},
                           {"filter": {"side": "soviet", "colour": "blue", "kind": "combat", "not_letter": "N"},
                            "areas": ["49", "50", "61", "62", "73", "74", "75", "76", "85", "96", "108", "121"], "strength": "min"},
                           {"filter": {"side": "soviet", "colour": "green", "kind": "combat", "not_letter": "N"},
                            "areas": ["122", "135", "147", "159", "170", "171"], "strength": "min"},
                           {"dl": ["4", "15", "17", "31"]},
                           {"dl_count": 6, "zone": "any"},
                           {"blocks": ["Zhukov"], "zone": "any", "strength": "full"},
                           {"filter": {"side": "soviet", "letter": "N"}, "zone": "any", "strength": "full"},
                           {"filter": {"side": "soviet", "colour": "white", "kind": "combat"}, "count": 7, "zone": "any",
                            "strength": "full_or_remnant_min"},
                       ], "german": [
                           {"blocks": ["Hitler"], "box": "rastenburg", "strength": "min"},
                           {"blocks": ["HQ16"], "area": "14", "strength": 2},
                           {"blocks": ["HQ9"], "area": "58", "strength": 3},
                           {"blocks": ["HQ4"], "area": "84", "strength": 3},
                           {"blocks": ["HQ2"], "area": "117", "strength": 3},
                           {"blocks": ["HQ3Pg"], "area": "59", "strength": 3},
                           {"blocks": ["HQ4Pg"], "area": "71", "strength": 3},
                           {"blocks": ["HQ2Pg"], "area": "134", "strength": 4},
                           {"blocks": ["2FK"], "area": "71", "strength": 0},
                           {"blocks": ["8FK"], "area": "93", "strength": 0},
                           {"filter": {"side": "german", "colour": ["brown", "pink", "lightblue", "yellow"], "kind": "combat"},
                            "near_own_hq": True, "strength_with_hq": 3, "strength": 2},
                           {"filter": {"side": "german", "colour": ["blue", "green", "red"], "kind": "combat"},
                            "near_own_hq": True, "with_hq_or_adjacent": True, "strength": 3,
                            "strength_by_block": {"DR": 2, "1Kav": 2, "Lehr": 2, "TT": 2, "GD": 1}},
                           {"filter": {"side": "german", "colour": "white", "kind": "combat"}, "count": 4,
                            "areas": ["4", "15", "17", "31"], "strength": 2, "face_up": True},
                           {"filter": {"side": "german", "colour": "white", "kind": "combat"}, "count": 8, "zone": "any", "strength": 2},
                           {"dl_count": 5, "zone": "front", "exclude": ["4", "15", "17", "31"]},
                       ]}}),
}

# Scenario Setup: a step the text leaves to a player ("in any adjacent Area", "along the
# frontline", "at the German player choice") is marked "choice": its pieces wait for their
# owner in the set-up phase (docs/rulings.md, Moscow '41 / Set-ups). The Campaign and
# Beyond the Dnieper place everything on icons or named areas and have none.
for sid in ("typhoon", "last-gasp"):
  for side in ("soviet", "german"):
    for step in scenarios[sid]["setup"][side]:
      if any(k in step for k in ("near", "near_own_hq", "zone", "dl_count")):
        step["choice"] = True
        # Last Gasp's German infantry: "the others in any adjacent Area", no "one each".
        if sid == "last-gasp" and side == "german" and step.get("near_own_hq") and not step.get("with_hq_or_adjacent"):
          step["one_each"] = False

for sid, s in scenarios.items():
  s["reconstructed"] = True
  if sid in ("typhoon", "last-gasp"):
    s["source"] = ("scenario set-up text; the steps marked \"choice\": true are placed by their owner in the "
                   "set-up phase (or by `setup auto`), docs/rulings.md")
  else:
    s["source"] = ("scenario set-up text; player-choice placements are resolved by the seeded automatic "
                   "placement documented in docs/rulings.md")


def dump(path, doc):
  with open(path, "w") as f:
    json.dump(doc, f, indent=1, sort_keys=False)
    f.write("\n")


os.makedirs(os.path.join(ROOT, "scenarios"), exist_ok=True)
dump(os.path.join(ROOT, "roster.json"), roster)
dump(os.path.join(ROOT, "tables.json"), tables)
for sid, s in scenarios.items():
  dump(os.path.join(ROOT, "scenarios", sid + ".json"), s)
print("blocks:", len(blocks), "german", sum(b["side"] == "german" for b in blocks),
      "soviet", sum(b["side"] == "soviet" for b in blocks))

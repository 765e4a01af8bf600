#!/usr/bin/env python3
"""Writes the charts of Barbarossa: Army Group Center (data/agc/*.json) that the rulebook names
but does not print: the CRT, the Combat Effects Chart, the Movement Point Cost Chart, the
Overrun, Retreat and Soviet Surrender Tables, the air tables, the Soviet Replacement Tables,
the scenario weather tables and the Attack Supply Charts.

Every value the rulebook states is copied with `"rule"` (its section); every other value is
`"reconstructed": true` with a `"source"` saying what it is built from. The JSON files are the
data; this script wrote them once and documents how the reconstructed parts were built.
Re-running it OVERWRITES hand edits: an owner of the box edits the JSON, not this script.

    python3 tools/agc/make_charts.py          writes the files
    python3 tools/agc/make_charts.py --check  exits 1 if a file differs from what it would write
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = os.path.join(ROOT, "data", "agc")
WEATHERS = ["dry", "frost", "mud", "snow"]


def dump(obj):
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------------------------------
# CRT (15.5.7, 15.7, 15.8, 16.1)

COLUMNS = ["1-4", "1-3", "1-2", "1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]
# The ladder of (attacker, defender) results from the attacker's worst box to his best. A box
# (column c, row r) reads ladder[2c - r + 11]: one column right is worth two rows up, so the
# +/-3 final DRM (15.7) is worth a column and a half, as in the East Front Series charts.
LADDER = [
    ("e", "----"),    # 0: 1-4 on row 11 only
    ("3", "----"),
    ("2R", "----"),
    ("2R", "----"),
    ("2*", "----"),
    ("2", "----"),    # 5
    ("1R", "----"),
    ("2", "1"),
    ("1R", "1"),
    ("1*", "1"),
    ("1*", "1"),      # 10
    ("1", "R"),
    ("1", "R"),
    ("1", "1R"),
    ("*", "1R"),
    ("*", "2"),       # 15
    ("*", "2"),
    ("*", "2R"),
    ("*", "2R"),
    ("*", "3"),
    ("*", "3R"),      # 20
    ("----", "3R"),
    ("----", "3R"),
    ("----", "4"),
    ("----", "4"),
    ("----", "4"),    # 25
    ("----", "4"),
    ("----", "4"),
    ("----", "4"),
    ("----", "e"),
    ("----", "e"),    # 30
    ("----", "e"),
    ("----", "e"),
    ("----", "e"),
    ("----", "e"),
    ("----", "e"),    # 35
    ("----", "e"),
    ("----", "e"),    # 37: 10-1 on row 0
]


def severity(code):
    """The order the check uses for monotony (tools/agc/check.py has the same): steps, +0.5
    for an asterisk, +1 for a retreat, 10 for elimination."""
    if code == "e":
        return 10.0
    if code == "----":
        return 0.0
    s = 0.0
    digits = "".join(ch for ch in code if ch.isdigit())
    if digits:
        s += int(digits)
    if "*" in code:
        s += 0.5
    if "R" in code:
        s += 1.0
    return s


def crt():
    cells = {}
    for c, col in enumerate(COLUMNS):
        rows = []
        for r in range(12):
            a, d = LADDER[2 * c - r + 11]
            rows.append({"attacker": a, "defender": d})
        cells[col] = rows
    return {
        "format": 1,
        "game": "agc",
        "chart": "Combat Results Table",
        "rule": "15.5.7, 15.7, 15.8, 16.1",
        "reconstructed": True,
        "source": "The printed CRT is MISSING from the rulebook text. From the text: the odds columns run 1-4 to 10-1 (15.5.7), rounded in the defender's favour (29:10 is 2-1, so no 2.5-1 column), 3-2 is a legal initial odds for Mandated Attacks (12.4, read as the 1.5-1 column); worse than 1-4 is an automatic attacker e, above 10-1 is read as 10-1 (15.5.7); the rows run 0 to 11 (15.8.1g), the final DRM is capped at +/-3 (15.7), a positive DRM moves down the column and a negative one up, attacker-favourable DRMs are negative (engineer -1, S-H -1, combined arms -1, defender OOS -1) so row 0 is the attacker's best; each box has an attacker result above and a defender result below (16.1); the codes are ---- 1-4 e * R 1R 2R 3R 1* and 2* (16.1.1, 16.5.1, 16.5.2 examples). Reconstructed: the cells, built from the ladder below (ladder[2 x column index - row + 11], column 1-4 = 0): one column right is worth two rows up, so the +/-3 DRM cap is a column and a half; attacker losses never grow and defender losses never shrink to the right or upwards (checked by tools/agc/check.py); the attacker's asterisk appears from 1-2 to 8-1 so the 16.5 extra losses (no Attack Supply, Mandated Attacks, fortifications) bite at the odds players use; retreats (R) come before step losses for the defender at middling odds, as in the East Front Series",
        "columns": COLUMNS,
        "rows": list(range(12)),
        "row_index": {"rule": "15.8, 15.7", "formula": "clamp(d10 + final DRM, 0, 11); the final DRM is clamped to [-3, +3] first; 0 on the die reads 10 (2.5.1)"},
        "below_first_column": {"attacker": "e", "defender": "----", "rule": "15.5.7"},
        "above_last_column": {"column": "10-1", "rule": "15.5.7"},
        "declaration_minimum": {"column": "1-4", "rule": "12.3.1, 12.3.5"},
        "mandated_minimum": {"column": "1.5-1", "text": "3-2", "rule": "12.4"},
        "results": {
            "----": {"meaning": "no result", "rule": "16.2"},
            "1": {"meaning": "lose 1 step from the force", "rule": "16.3"},
            "2": {"meaning": "lose 2 steps", "rule": "16.3"},
            "3": {"meaning": "lose 3 steps", "rule": "16.3"},
            "4": {"meaning": "lose 4 steps", "rule": "16.3"},
            "e": {"meaning": "the whole force to the Eliminated Box (UR/MG to the cup)", "rule": "16.4"},
            "*": {"meaning": "one extra attacker step for each 16.5.1 condition (no Attack Supply, Mandated Attack, fortification)", "rule": "16.5"},
            "R": {"meaning": "retreat 2 hexes (3 under Additional Retreat)", "rule": "16.6"},
            "1R": {"meaning": "lose 1 step, then retreat", "rule": "16.3, 16.6"},
            "2R": {"meaning": "lose 2 steps, then retreat", "rule": "16.3, 16.6"},
            "3R": {"meaning": "lose 3 steps, then retreat", "rule": "16.3, 16.6"},
            "1*": {"meaning": "lose 1 step, plus the asterisk", "rule": "16.5.2"},
            "2*": {"meaning": "lose 2 steps, plus the asterisk", "rule": "16.5.2c"},
        },
        "severity": {"note": "the order tools/agc/check.py uses to test monotony: steps + 0.5 for * + 1 for R; e = 10", "reconstructed": True,
                     "source": "chosen for the check (R costs about a step: 16.6.5 retreats through a ZOC cost one)"},
        "ladder": [{"attacker": a, "defender": d} for a, d in LADDER],
        "cells_reconstructed": True,
        "cells_source": "every one of the 168 boxes: ladder[2 x column index - row + 11] (see source); no box value is printed in the text, whose only fixed boxes are the off-table ones (below 1-4: attacker e; above 10-1: 10-1)",
        "cells": cells,
    }


# ------------------------------------------------------------------------------------------
# Combat Effects Chart (15.5.2, 15.6, 3.0f.4, 10.6, 18)

def cec():
    R = True
    return {
        "format": 1, "game": "agc", "chart": "Combat Effects Chart",
        "rule": "15.6.1, 15.5.2, 3.0f.4, 10.6, 18.2, 18.3",
        "reconstructed": True,
        "source": "The printed CEC is MISSING. Stated in the text: swamp gives no DRM but halves attacks from it (15.5.2a); a major-river hexside halves attacks across it except in Snow (15.5.2b); armor-type attacks into a city or major city are halved (15.5.2c); cities and major cities give DRMs (15.6.3 lists city, major city and river as terrain whose DRM the engineer offsets, and excludes major river and town, so those two give none); Strongpoint +1 (18.3.6); fortified line +1, +2 with a Strongpoint within 4 hexes of a friendly Soviet city (18.2.1, 18.3.7); ZOCs do not enter major cities nor cross major-river or lake hexsides except in Snow (10.6, 10.7.12); the 16.6.1b protective terrain is city, major city, hill, woods and fortification. Reconstructed (each marked): the DRM values of woods, hills, marsh, city, major city and river, from that protective-terrain list and the East Front Series charts",
        "hex": {
            "clear": {"drm": 0, "zoc_into": True, "overrun": True, "protective_16_6_1b": False, "reconstructed": R, "source": "baseline terrain (10.7 Note: MA counts clear hexes)"},
            "woods": {"drm": 1, "zoc_into": True, "overrun": True, "overrun_lingering_mud": False, "protective_16_6_1b": True, "reconstructed": R, "source": "16.6.1b lists woods as protective terrain; +1 as hills"},
            "hills": {"drm": 1, "zoc_into": True, "overrun": True, "protective_16_6_1b": True, "reconstructed": R, "source": "16.6.1b lists hills as protective terrain; +1 (a hill behind a river adds the river, 15.6.1c)"},
            "swamp": {"drm": 0, "rule": "15.5.2a", "attack_from_halved": True, "artillery_into_halved": True, "zoc_into": True, "overrun": "frost only", "overrun_rule": "11.4.2c", "protective_16_6_1b": False},
            "marsh": {"drm": 0, "zoc_into": True, "overrun": "frost only", "overrun_rule": "11.4.2c", "protective_16_6_1b": False, "reconstructed": R, "source": "11.4.2c treats marsh with swamp for overruns; not in the 16.6.1b list, so no DRM; unlike swamp the text does not halve attacks from marsh"},
            "lake": {"drm": None, "enterable": "snow only (frozen for the rest of the scenario)", "rule": "10.7.10"},
            "town": {"drm": 0, "rule": "15.6.3", "note": "15.6.3 names towns among the terrain with no engineer-relevant DRM", "zoc_into": True, "mud_motorized_zoc_into": True, "overrun": True, "reconstructed": R, "source": "town gives no DRM (15.6.3 excludes towns; not in the 16.6.1b list)"},
            "city": {"drm": 1, "zoc_into": True, "mud_motorized_zoc_into": True, "armor_attack_halved": True, "armor_rule": "15.5.2c", "overrun": "12-1 and a motorized engineer", "overrun_rule": "11.4.2c", "protective_16_6_1b": True, "reconstructed": R, "source": "15.6.3 says cities give a DRM; +1 reconstructed"},
            "major-city": {"drm": 2, "zoc_into": False, "zoc_rule": "10.7.12", "armor_attack_halved": True, "armor_rule": "15.5.2c", "overrun": "12-1 and a motorized engineer", "overrun_rule": "11.4.2c", "protective_16_6_1b": True, "reconstructed": R, "source": "15.6.3 says major cities give a DRM; +2 reconstructed (one more than a city)"},
        },
        "hexside": {
            "river": {"drm": 1, "all_attackers_across": True, "rule_all_across": "15.6.1b", "zoc_across": True, "reconstructed": R, "source": "15.6.3 lists river as giving the defender a DRM; +1 reconstructed; cumulative with the hex DRM (15.6.1c)"},
            "major-river": {"drm": 0, "attack_across_halved": "except snow", "rule": "15.5.2b, 15.6.3, 10.6", "zoc_across": "snow only", "overrun_across": False, "overrun_rule": "11.4.2c"},
            "all-lake": {"drm": None, "attack_across": "snow only", "zoc_across": "snow only", "rule": "10.6, 10.7.10, 12.5 example"},
            "fortified-line": {"drm": 1, "drm_with_strongpoint_near_city": 2, "all_attackers_across": True, "rule": "18.2.1, 18.3.7", "no_combined_arms": True, "combined_arms_rule": "18.2.2"},
            "border-1941": {"drm": 0, "rule": "10.5.8", "note": "a scenario may forbid crossing it on some turns"},
        },
        "markers": {
            "strongpoint": {"drm": 1, "rule": "18.3.6", "all_round": True, "no_combined_arms": True},
            "overrun-marked-defender": {"drm": -1, "rule": "11.4.4d"},
        },
        "drm_order": {"rule": "15.6.1a-c, 15.6.4, 15.7", "text": "defenders take the highest hex DRM of the defender hexes; hexside DRMs only if all defenders are behind and all attackers attack through; hex and hexside add; the engineer plus S-H total is capped at the Soviet city/major city/fortification DRM (15.6.4); the net is clamped to +/-3 (15.7); ruling A-13"},
        "combat_drms": [
            {"name": "defender-no-retreat", "drm": 1, "rule": "15.6.2"},
            {"name": "attacking-engineer", "drm": -1, "rule": "15.6.3"},
            {"name": "axis-super-heavy-artillery", "drm": -1, "each": True, "rule": "15.6.4"},
            {"name": "cas-net-point", "drm": "-1 per net attacker point, +1 per net defender point", "rule": "15.6.5"},
            {"name": "defender-out-of-supply", "drm": -1, "rule": "15.6.6a, 6.7.5"},
            {"name": "no-attack-supply", "drm": 2, "rule": "15.6.6b, 15.3.2a"},
            {"name": "combined-arms", "drm": -1, "rule": "15.6.7", "not_in": ["mud", "snow"]},
            {"name": "panzer-division-integrity", "drm": -1, "each": True, "rule": "15.6.8"},
            {"name": "overrun-marked-defender", "drm": -1, "rule": "11.4.4d"},
        ],
        "halvings": [
            {"what": "attacks from a swamp hex", "rule": "15.5.2a"},
            {"what": "artillery firing into a swamp hex", "rule": "15.5.2a"},
            {"what": "attacks across a major-river hexside (not in Snow); artillery firing across is not halved", "rule": "15.5.2b"},
            {"what": "armor-type units attacking into a city or major city", "rule": "15.5.2c"},
            {"what": "all artillery support in Mud", "rule": "15.5.3a"},
            {"what": "artillery firing into a Lingering-Mud (woods) hex", "rule": "15.5.3b"},
            {"what": "halvings are cumulative, fractions kept, a side's total never below 1", "rule": "15.5.1 Note"},
        ],
        "zoc_by_weather": {
            "rule": "3.0f.3, 10.6, 10.7.12",
            "major_city": "no ZOC enters a major-city hex in any weather (10.7.12)",
            "major_river_lake": {"dry": False, "frost": False, "mud": False, "snow": True, "rule": "10.6"},
            "mud_motorized_only": "a hex whose ZOC units are all motorized projects only into city or town hexes and across road or railroad hexsides (10.6; ruling A-30)",
        },
    }


# ------------------------------------------------------------------------------------------
# Movement Point Cost Chart (10.7) and the Effects on Movement chart

def movement():
    R = True

    def w(dry, frost, mud, snow):
        return {"dry": dry, "frost": frost, "mud": mud, "snow": snow}
    return {
        "format": 1, "game": "agc", "chart": "Movement Point Cost Chart",
        "rule": "10.7",
        "reconstructed": True,
        "source": "The printed MPCC and its lettered notes are MISSING. Every cost the text quotes is marked with its rule (10.7 Note clear 1, 10.7.3 hills 2, 10.7.4 woods +2 and river +1 for motorized units, 10.7.8 roads by weather, 10.7.8c Mud clear 2 or 3 and hills 3, 10.7.9 major rivers, 10.6.4 ZOC +1, 18.1.2 fortification +1, 10.7.5 rail 1). The rest is reconstructed from those anchors: Frost prices as Dry, Snow one more for clear, woods and swamp; non-motorized units pay +1 for woods and +1 for rivers; swamp 3 for infantry in Dry; marsh 2/3",
        "classes": {
            "leg": {"what": "white or black MA: infantry, cavalry, wagon MSUs (MA 4) and Soviet armor in Mud on minor roads (10.7.8c.2)", "rule": "10.5.10, 10.7.8c"},
            "motorized": {"what": "yellow MA (motorized, may infiltrate with MA >= 7) and orange MA (artillery, Soviet AA, truck MSUs MA 8: motorized costs, Movement Phase only)", "rule": "10.5.10, 11.5"},
            "green": {"what": "super-heavy artillery: moves only by rail and roads (10.5.11)", "rule": "10.5.11"},
        },
        "hex_kind": {"base": "pay the highest base cost of the hex's terrains", "plus": "add every '+' cost (woods, hexsides, ZOC, fortification)", "rule": "10.7.3, 10.7.4"},
        "hex": {
            "clear": {
                "leg": w(1, 1, 2, 2), "motorized": w(1, 1, 3, 2), "green": "roads and rail only",
                "rule": "10.7 Note (Dry 1); 10.7.8c.2 (Mud: 2 leg, 3 others)", "reconstructed": R,
                "source": "Frost as Dry; Snow 2 so that the 10.7.8c.1 Snow minor-road rate (1) saves something"},
            "hills": {
                "leg": w(2, 2, 3, 3), "motorized": w(2, 2, 3, 3), "green": "roads and rail only",
                "rule": "10.7.3 (Dry 2), 10.7.8c.2 example (Mud 3)", "reconstructed": R, "source": "Frost as Dry, Snow as Mud"},
            "woods": {
                "plus": True, "leg": w(1, 1, 2, 2), "motorized": w(2, 2, 3, 3), "green": "roads and rail only",
                "rule": "10.7.4 (+2 motorized, Dry)", "reconstructed": R,
                "source": "a '+' terrain added to the hex's base cost (10.7.4 example: hills 2 + woods 2); leg units +1; Mud and Snow one more; 10.7.6a: -1 when moving along a rail line; Lingering Mud (5.1.4a) prices woods hexes at the Mud column"},
            "swamp": {
                "leg": w(3, 2, 4, 3), "motorized": {"dry": "road/rail hexsides only", "frost": 3, "mud": "road/rail hexsides only", "snow": 4},
                "green": "roads and rail only",
                "rule": "10.7.11 (motorized and orange: only along roads or railroads in Dry and Mud, any hexside in Frost and Snow paying the swamp cost)", "reconstructed": R,
                "source": "costs chosen: swamp is the heaviest non-lake terrain; frozen in Frost (cheaper for leg units), Snow adds the snow cost"},
            "marsh": {
                "leg": w(2, 2, 3, 3), "motorized": w(3, 2, 4, 3), "green": "roads and rail only",
                "reconstructed": R, "source": "the text names marsh only with swamp for LOCs (6.2.2: 5 hexes) and overruns (11.4.2c: Frost only); costs between woods and swamp, cross-country allowed"},
            "lake": {
                "leg": {"dry": "prohibited", "frost": "prohibited", "mud": "prohibited", "snow": 2},
                "motorized": {"dry": "prohibited", "frost": "prohibited", "mud": "prohibited", "snow": 2},
                "green": "prohibited",
                "rule": "10.7.10 (impassable until Snow, then frozen for the scenario)", "reconstructed": R, "source": "the Snow cost is reconstructed: as snow-covered clear"},
            "town": {"cost": "the other terrain in the hex", "reconstructed": R, "source": "no town cost in the text; towns matter for ZOC in Mud (10.6) and air transport (11.7)"},
            "city": {"cost": "the other terrain in the hex", "note": "fractional MP left after halving may be spent to enter cities (10.0 Note Two)", "rule": "10.0 Note Two", "reconstructed": R, "source": "as town"},
            "major-city": {"cost": "the other terrain in the hex; no enemy ZOC enters it", "rule": "10.0 Note Two, 10.7.12", "reconstructed": R, "source": "as town"},
        },
        "hexside": {
            "river": {"plus": True, "leg": w(1, 1, 1, 1), "motorized": w(1, 1, 2, 1), "green": "bridges only",
                      "rule": "10.7.4 (+1 motorized, Dry)", "reconstructed": R,
                      "source": "leg units +1 too; motorized +2 in Mud; negated by entering along a road (10.7.7 Case Four) or a rail line (10.7.6b) or a Bridge unit (22.4.1)"},
            "major-river": {"unbridged": "the whole MA; the unit starts its Movement Phase adjacent and moves one hex", "rule": "10.7.9c",
                            "snow_plus": 1, "snow_rule": "10.7.9d", "road_bridge": "the road rate of the far hex (10.7.9a)",
                            "rail_bridge_or_bridge_unit": "the far hex's terrain cost (10.7.9b)",
                            "artillery": "only over road or rail bridges or Bridge units, in any weather (10.7.9 Exception)"},
            "all-lake": {"dry": "prohibited", "frost": "prohibited", "mud": "prohibited", "snow": 0, "rule": "10.7.10", "reconstructed": R, "source": "frozen lake hexsides cost nothing extra"},
            "fortified-line": {"plus_enemy": 1, "rule": "18.1.2", "note": "only when crossing the FL hexside; Strongpoint + FL is +1 in all"},
        },
        "other": {
            "enemy_zoc_plus": {"value": 1, "rule": "10.6.4"},
            "enemy_fortification_plus": {"value": 1, "rule": "18.1.2", "note": "a Strongpoint under construction costs nothing (18.3.5)"},
            "rail_movement": {"value": 1, "interdicted": 12, "max_hexes": 60, "rule": "10.7.5, 11.1.2, 11.1.5, 13.2.2"},
            "armored_train_hexes": {"value": 48, "rule": "11.1.2 Exc. 1, 22.5.1"},
            "flotilla": {"value": 1, "interdicted": 4, "allowance": 16, "rule": "11.2, 13.2.3, 22.6.1"},
            "strategic_ma_factor": {"value": 1.5, "rule": "11.3.2"},
            "overrun_cost": {"value": 1, "plus": "the target hex's terrain cost (road rate if road-connected) and any hexside cost", "rule": "11.4.3b"},
            "out_of_supply_ma": {"value": -2, "not_cavalry": True, "rule": "6.7.1"},
            "rail_line_along": {"woods_minus": 1, "river_negated": True, "swamp_entry_for_motorized": True, "rule": "10.7.6"},
        },
        "roads": {
            "rule": "10.7.7, 10.7.8",
            "motorway": {"dry": 0.5, "frost": 0.5, "mud": 0.5, "snow": 0.5, "rule": "10.7.8a", "note": "MPCC note (f), which Axis units may use it, is MISSING; ruling A-31 lets every unit use it"},
            "main-road": {"dry": 0.5, "frost": 0.5, "mud": 1, "snow": 1, "rule": "10.7.7, 10.7.8b", "frost_reconstructed": True, "frost_source": "10.7.8b raises it only in Mud and Snow"},
            "minor-road": {
                "clear": {"dry": 0.5, "frost": 1, "mud": {"leg": 2, "motorized": 3, "green": "prohibited"}, "snow": 1, "rule": "10.7.8c, 10.7.8c.2 example"},
                "other": {"dry": 1, "frost": 2, "mud": "the Mud column of the hex terrain, woods ignored", "snow": 2, "rule": "10.7.7 Case One, 10.7.8c"},
            },
            "super_heavy": {"main_or_motorway": 1, "minor_road": "1 in Dry only; none in Mud or Lingering Mud", "rule": "10.5.11"},
            "cases": "a hex is priced by the road type used to enter it (Case Three); entering by road and leaving off-road pays the full hex cost but keeps the river negation (Case Four)",
        },
        "effects_on_movement": {
            "chart": "Effects on Movement Chart / Additional Effects to Movement Table",
            "rule": "3.0f.3, 10.6, 11.4.2b, 11.5.5",
            "infiltration": {"dry": True, "frost": True, "mud": False, "snow": True, "rule": "11.5.5"},
            "overrun": {"dry": True, "frost": True, "mud": False, "snow": False, "lingering_mud_hexes": False, "rule": "11.4.2b"},
            "motorized_zoc_in_mud": "only into city or town hexes and across road or railroad hexsides (10.6)",
        },
        "phases": {
            "chart": "Movement Phase Chart",
            "rule": "10.0, 10.1, 10.2, 10.3.1, 10.5.10, 14.1.1",
            "axis_movement": {"motorized": 1.0, "leg": 1.0, "orange": 1.0, "green": "10.5.11"},
            "axis_motorized_movement": {"motorized": 0.5, "leg": 0, "orange": 0, "green": 0},
            "soviet_motorized_movement": {"motorized": 1.0, "leg": "only HQ-activated, full MA", "orange": "only HQ-activated", "green": "only HQ-activated"},
            "soviet_movement": {"motorized": 0.5, "leg": 1.0, "orange": 1.0, "green": "10.5.11"},
            "reaction": {"motorized": 0.5, "leg": 0, "orange": 0, "green": 0},
            "fractions": "kept, usable only on roads and to enter city and major-city hexes (10.0 Note Two)",
        },
    }


# ------------------------------------------------------------------------------------------
# Overrun, Retreat, Surrender

def overrun():
    R = True
    return {
        "format": 1, "game": "agc", "chart": "Overrun Table", "rule": "11.4",
        "reconstructed": True,
        "source": "The printed Overrun Table is MISSING. From the text: minimum odds 5-1 all-German, 7-1 otherwise and for every Soviet overrun, 12-1 plus a motorized engineer into cities, major cities and fortifications (11.4.2a, c); the table has odds DRMs, Defender Disadvantage DRMs and Defender Terrain DRMs, netted and capped at +/-3 (11.4.3f-i); a success retreats the defenders 2 hexes and, when the table calls for a step, takes only one step from the unit or stack overrun (11.4.3j, ruling A-27); the -1 DRM against an Overrun-marked unit (11.4.4d). Reconstructed: the DRM values and the result rows; high odds help the overrunner (negative DRMs), defender terrain hurts him (positive), so a low modified roll succeeds, as on the Retreat Table (16.6.6)",
        "minimum_odds": {"all_german": "5-1", "other": "7-1", "soviet": "7-1", "city_major_city_fortification": "12-1 with a motorized engineer", "rule": "11.4.2a, 11.4.2c"},
        "net_drm_limit": {"value": 3, "rule": "11.4.3"},
        "odds_drm": {"5-1": 0, "6-1": 0, "7-1": -1, "8-1": -1, "9-1": -2, "10-1": -2, "12-1": -3, "reconstructed": R,
                     "source": "one shift per two odds levels above the German minimum; 11-1 reads as 10-1"},
        "defender_disadvantage_drm": [
            {"when": "the target carries an Overrun marker", "drm": -1, "rule": "11.4.4d"},
            {"when": "any target unit is Out of Supply", "drm": -1, "reconstructed": R, "source": "as the combat DRM 6.7.5"},
            {"when": "no target unit exerts a ZOC (No-ZOC band)", "drm": -1, "reconstructed": R, "source": "a screen with no ZOC is easy to brush aside"},
        ],
        "defender_terrain_drm": [
            {"terrain": "woods", "drm": 1, "reconstructed": R, "source": "CEC woods"},
            {"terrain": "hills", "drm": 1, "reconstructed": R, "source": "CEC hills"},
            {"terrain": "swamp or marsh (Frost only)", "drm": 1, "reconstructed": R, "source": "11.4.2c allows it only frozen"},
            {"terrain": "city", "drm": 1, "reconstructed": R, "source": "CEC city"},
            {"terrain": "major city", "drm": 2, "reconstructed": R, "source": "CEC major city"},
            {"terrain": "river hexside crossed (not road-bridged)", "drm": 1, "reconstructed": R, "source": "CEC river"},
            {"terrain": "Strongpoint or fortified line", "drm": 1, "rule": "18.1.6, 18.3.6"},
        ],
        "results": [
            {"modified_roll": [-2, 2], "result": "success", "defender_steps": 1, "reconstructed": R, "source": "11.4.3j: 'If a step loss is required, only one step is removed from the unit or stack that was overrun', then the survivors retreat 2 hexes; a low roll is the crushing success"},
            {"modified_roll": [3, 5], "result": "success", "defender_steps": 0, "reconstructed": R, "source": "11.4.3j: retreat 2 hexes without loss; about 50% success at 5-1 in the open, as overruns were the panzer spearheads' normal way through screens"},
            {"modified_roll": [6, 13], "result": "failure", "defender_steps": 0, "reconstructed": R, "source": "11.4.3m: the overrunning stack stays adjacent and stops; it may still attack in the Combat Phase. The text gives the overrunner no loss"},
        ],
        "success": {"defender_retreat_hexes": 2, "max_defender_steps": 1, "one_step_units_lost_to": "cadre box", "rule": "11.4.3j"},
    }


def retreat():
    R = True
    return {
        "format": 1, "game": "agc", "chart": "Retreat Table", "rule": "16.6.6",
        "reconstructed": True,
        "source": "The Retreat Table on the 11x17 card is MISSING. From the text (16.6.6): after a retreat through one vacant enemy-ZOC hex the stack loses one step, then rolls: a modified roll of 3 or less is safe, 4 or more sends the remaining units to the Cadre Box; there is a 'substantial DRM penalty' for artillery. Reconstructed: the DRMs",
        "automatic_step_loss": {"value": 1, "rule": "16.6.6.1"},
        "results": [
            {"modified_roll": [-10, 3], "result": "safe", "rule": "16.6.6.3"},
            {"modified_roll": [4, 20], "result": "cadre box", "rule": "16.6.6.4"},
        ],
        "drms": [
            {"when": "the stack includes artillery", "drm": 3, "reconstructed": R, "source": "16.6.6 Play Note: a substantial penalty; +3 makes a mixed stack fail 70% of the time, the reason the Play Note suggests abandoning artillery"},
            {"when": "every retreating unit is motorized (yellow MA)", "drm": -1, "reconstructed": R, "source": "mobile units slip through gaps"},
            {"when": "the ZOC hex holds an enemy Strongpoint or is crossed into over a major river", "drm": 1, "reconstructed": R, "source": "terrain that traps the column"},
            {"when": "the retreating stack is Out of Supply", "drm": 1, "reconstructed": R, "source": "6.7 out-of-supply penalties"},
        ],
        "hexes": {"retreat": 2, "additional_retreat": 3, "rule": "16.6.1"},
    }


def surrender():
    R = True
    return {
        "format": 1, "game": "agc", "chart": "Soviet Surrender Table", "rule": "21.1, 22.8.3",
        "reconstructed": True,
        "source": "The Soviet Surrender Table is MISSING. From the text: each Soviet-occupied hex in an Axis ZOC (or a major city next to Axis units, ruling A-16) that cannot trace a Supply Route of any length to a non-surrounded Soviet major city or a map-edge source rolls; surrender sends all its units to the Eliminated Box (21.1.2); Guards or NKVD give a favourable DRM (22.8.3). Reconstructed: the result rows and the other DRMs; a high modified roll surrenders, so the favourable DRM is negative",
        "results": [
            {"modified_roll": [-5, 6], "result": "no effect", "reconstructed": R, "source": "40% surrender at an unmodified roll: the 1941 pockets (Bialystok, Minsk, Smolensk) surrendered over a week or two of turns"},
            {"modified_roll": [7, 15], "result": "surrender", "rule": "21.1.2"},
        ],
        "drms": [
            {"when": "at least one Guards or NKVD unit in the hex", "drm": -2, "rule": "22.8.3", "reconstructed": R, "source": "22.8.3 gives the direction (favourable); the value 2 is reconstructed"},
            {"when": "the hex is a major city", "drm": -1, "reconstructed": R, "source": "cities held out longer (Mogilev, July 1941)"},
            {"when": "the hex is a town, city or fortification (Strongpoint, fortified line)", "drm": -1, "reconstructed": R, "source": "prepared positions; not cumulative with the major-city DRM"},
            {"when": "every unit in the hex carries an Out of Supply marker", "drm": 1, "reconstructed": R, "source": "6.7: starving pockets gave up faster"},
            {"when": "an Operational Soviet HQ is in the hex", "drm": -1, "reconstructed": R, "source": "command held pockets together"},
            {"when": "Mud or Snow", "drm": 0, "reconstructed": R, "source": "no weather effect in the text"},
        ],
    }


# ------------------------------------------------------------------------------------------
# Air (9, 13, 15.1, 17)

def air():
    R = True
    act_cols = ["-4", "-3", "-2", "-1", "0", "+1", "+2", "+3", "+4"]
    # Results for d10 1..10 by ACR difference; higher roll worse for the target.
    table = {}
    for i, col in enumerate(act_cols):
        diff = i - 4
        rows = []
        for roll in range(1, 11):
            score = roll + diff
            if score <= 5:
                res = "-"
            elif score <= 7:
                res = "A"
            elif score <= 9:
                res = "D"
            else:
                res = "E"
            rows.append(res)
        table[col] = rows
    aa = []
    for roll in range(1, 11):
        aa.append("-" if roll <= 6 else "A" if roll <= 8 else "D" if roll == 9 else "E")
    return {
        "format": 1, "game": "agc", "chart": "Air tables", "rule": "9.0, 13.0, 15.1, 17.0",
        "reconstructed": True,
        "source": "The Air Operations Card, Air Initiative Table, Air Combat Table, AA Fire Table and Interdiction Effects table are MISSING. The procedures, the result kinds and the interdiction numbers are in the text (each item with its rule); the ranges, rows and DRMs are reconstructed",
        "readiness": {
            "rule": "9.1, 9.2",
            "flown_box": {"ready_on": [1, 6], "reconstructed": R, "source": "60% of flown units ready each turn (two-day turns, ruling A-1)"},
            "damaged_box": {"to_flown_on": [1, 3], "reconstructed": R, "source": "30%: repair takes several turns"},
            "weather_drm": {"dry": 0, "frost": 1, "mud": 2, "snow": 2, "cumulative": True, "reconstructed": R, "source": "9.1 says the weather DRMs are cumulative; values chosen"},
            "storm": "every Ready air unit of both sides goes to Flown and must roll (9.2)",
            "dummies": "go to Ready at the end of the phase, no roll (9.1)",
            "destroyed": "never roll; only V-RPs or withdrawal (9.3)",
        },
        "missions": {"max_air_units": 3, "per_hex_per_side": 1, "rule": "17.1.4, 17.1.6", "interdiction": "Axis only (13.0)"},
        "air_initiative": {
            "rule": "17.2.3",
            "die": "d10, rolled once per hex with air units of both sides",
            "rows": [
                {"roll": [1, 2], "result": "mission side local tactical advantage", "reconstructed": R, "source": "17.2.3 names the three result kinds"},
                {"roll": [3, 4], "result": "mission side air initiative", "reconstructed": R, "source": "as above"},
                {"roll": [5, 6], "result": "mission units get through, no air combat", "reconstructed": R, "source": "as above"},
                {"roll": [7, 8], "result": "intercepting side air initiative", "reconstructed": R, "source": "as above"},
                {"roll": [9, 10], "result": "intercepting side local tactical advantage", "reconstructed": R, "source": "as above"},
            ],
            "drms": [
                {"when": "Axis is the mission side, June-July 1941 turns", "drm": -1, "reconstructed": R, "source": "Luftwaffe control of the air over AGC in summer 1941 (the VVS Western Front lost about 1,200 aircraft on 22-23 June)"},
            ],
        },
        "air_combat": {
            "rule": "17.2.4",
            "columns": act_cols,
            "column": "firer ACR - target ACR, clamped to -4..+4 (17.2.4c; example Bf-109 ACR 4 at MiG-3 ACR 2 uses +2, the return fire -2)",
            "results": {"-": "no effect", "A": "abort: to the Flown Box", "D": "damaged: to the Damaged Box", "E": "eliminated: to the Destroyed Box"},
            "results_rule": "17.2.4d",
            "rolls": list(range(1, 11)),
            "cells": table,
            "cells_reconstructed": R,
            "cells_source": "score = roll + column; <=5 none, 6-7 abort, 8-9 damaged, >=10 eliminated (a +0 duel: 50% no effect, 10% kill)",
        },
        "aa_fire": {
            "rule": "17.3",
            "eligible": "any ground unit in the mission hex or its six neighbours except Soviet non-HQ non-AA units smaller than a division, all cavalry, Axis No-ZOC units (17.3.2)",
            "fires": "once per enemy mission unit, whatever the number of eligible units (17.3.3)",
            "rolls": list(range(1, 11)),
            "results": aa,
            "reconstructed": R, "source": "results as the Air Combat Table at -1",
            "drms": [
                {"when": "an AA unit (Soviet AA, German motorized AA) in the mission hex or adjacent", "drm": 2, "reconstructed": R, "source": "dedicated flak"},
                {"when": "the mission hex is a city or major city", "drm": 1, "reconstructed": R, "source": "city air defence"},
                {"when": "the mission unit is a bomber (B)", "drm": 1, "reconstructed": R, "source": "slower, lower"},
            ],
        },
        "interdiction": {
            "rule": "13.1, 13.2",
            "level": {"rating_total_1": 1, "rating_total_2_or_more": 2, "max_per_hex": 2, "rule": "13.1.2, 13.1.3"},
            "zone": "the marked hex and its six neighbours (13.1.3)",
            "rail_mp_per_hex": {"value": 12, "rule": "13.2.2"},
            "flotilla_mp_per_hex": {"value": 4, "rule": "13.2.3"},
            "strategic_movement": "barred in or through a zone (13.2.4)",
            "rail_start": "only armored trains may start rail movement in a zone (13.2.1)",
            "air_transport": "none to or from a zone (13.2.6)",
            "soviet_hq": {"command_value_minus": "the sum of the levels on the HQ hex, at most 2", "rule": "13.2.5"},
            "effects_table": {
                "chart": "Interdiction Effects",
                "rows": [
                    {"level": 1, "hq_command_value": -1, "artillery_stacked_with_hq_supporting": -1},
                    {"level": 2, "hq_command_value": -2, "artillery_stacked_with_hq_supporting": -2},
                ],
                "floor": "command value 0; one supplied in-range artillery unit may always support (13.2.5 Note)",
                "rule": "13.2.5", "reconstructed": R, "source": "13.2.5 gives the reduction per level and its cap of 2; the artillery row applies it per point (13.2.5d)",
            },
            "markers_removed": "in the Interphase (13.2.7 Note)",
        },
        "cas": {"rule": "15.1, 15.6.5", "drm": "net CAS rating: each attacker point -1, each defender point +1", "targets": "Declared Attack hexes only; attacker allocates first (17.1.7)"},
    }


# ------------------------------------------------------------------------------------------
# Soviet Replacement Tables (7.1, 7.2), Axis replacements (7.3)

def replacements():
    R = True

    def row(roll, f, i, o, s):
        return {"roll": roll, "fortifications": f, "type_i": i, "other": o, "special": s}
    # Table 1: June-July 1941 (collapse and mobilisation); Table 2: August-September (stiffening).
    t1 = [row(1, 0, 1, "", ""), row(2, 0, 1, "", ""), row(3, 1, 1, "", "M"), row(4, 1, 1, "V", ""),
          row(5, 1, 2, "", "S"), row(6, "1E", 2, "A", ""), row(7, 2, 2, "N", "R"), row(8, 2, 2, "V", "M"),
          row(9, 2, 3, "A", "S"), row(10, "2E", 3, "N", "R"), row(11, 3, 3, "A", "S"), row(12, 3, 4, "V", "R")]
    t2 = [row(1, 1, 1, "", ""), row(2, 1, 2, "", "M"), row(3, 1, 2, "V", ""), row(4, 2, 2, "", "S"),
          row(5, "1E", 2, "A", "M"), row(6, 2, 3, "N", ""), row(7, "2E", 3, "V", "R"), row(8, 2, 3, "A", "S"),
          row(9, 3, 3, "N", "M"), row(10, "3E", 4, "A", "R"), row(11, 3, 4, "V", "S"), row(12, 4, 4, "A", "R")]
    return {
        "format": 1, "game": "agc", "chart": "Replacement tables", "rule": "7.0, 20.0",
        "reconstructed": True,
        "source": "The Soviet Replacement Tables and the set-up cards are MISSING. From the text: the columns (die roll, Fortifications with a number and E, Type I, Other A/N/V, Special Events M/R/S) (7.1.1, 7.2); DRMs for Mud and +1 per unexecuted Mandated Attack (7.1.1, 7.2e.1); the scenario names the table and the turns (7.1); no Axis table, Axis RPs from the set-up cards (7.3). Reconstructed: two Soviet tables (June-July: the frontier collapse; August-September: the Reserve Front mobilisation) with rows 1-12 (d10 + up to 2 of DRMs; higher rows clamp to 12), the Mud DRM, and the Axis per-turn schedule",
        "soviet": {
            "die": "d10 + DRMs; a modified roll above 12 reads 12, below 1 reads 1",
            "drms": [
                {"when": "Mud weather", "drm": 1, "rule": "7.1.1", "reconstructed": R, "source": "7.1.1 names a Mud DRM; +1 chosen (mud slowed the front, not the rear)"},
                {"when": "each Mandated Attack not yet made", "drm": 1, "rule": "7.2e.1"},
            ],
            "codes": {
                "fortifications": "N Strongpoints this Engineering Phase; E one more, on a friendly city or within 4 hexes of a friendly major city (7.2a, ruling A-24)",
                "type_i": "N I-RPs on the Loss/Replacement Track (7.2b)",
                "A": "1 Armaments RP (7.2d)", "N": "1 NKVD RP (7.2d)", "V": "1 aircraft RP (7.2d)",
                "M": "one Mandated Attack owed, if the scenario allows (7.2e.1)",
                "R": "one of: a Special Reinforcement Pool, a garrison release, or one stack's supply marker removed (7.2e.2, ruling A-29)",
                "S": "one extra ASP this turn (7.2e.3)",
            },
            "tables": {
                "1": {"name": "Soviet Replacement Table 1 (June-July 1941)", "rows": t1},
                "2": {"name": "Soviet Replacement Table 2 (August-September 1941)", "rows": t2},
            },
            "track_max": {"type_i": 20, "reconstructed": R, "source": "track length MISSING; 20 boxes chosen"},
            "armored_train_rp_per_turn": {"value": "per scenario", "rule": "7.2 Note"},
        },
        "axis": {
            "rule": "7.3",
            "track_max": {"type_i": 20, "type_a": 10, "reconstructed": R, "source": "track length MISSING"},
            "per_turn": {"type_i": 2, "type_a": 1, "type_v": 1, "every_other_turn_a": True, "reconstructed": R,
                         "source": "set-up cards MISSING: Army Group Center's 1941 replacement battalions (Feldersatz) came forward at about 2 infantry steps every two days; panzer replacements were held back by Hitler until late August (hence 1 A-RP every other turn)"},
            "v_rp": "spent in the Replacement Phase received, else lost (7.3.3)",
        },
        "rebuilding": {"eliminated_to_cadre": 1, "cadre_to_active": "1 (2 for units with four steps)", "rule": "20.2.1, 20.2.2",
                       "reconstructed": R, "source": "20.2.2 says 'one (or two) RPs'; the condition for two is on the missing chart; four-step units chosen"},
        "ur_mg_draw": {"cost_type_i": 1, "rule": "20.3", "timing": "Replacement Phase (ruling A-8)"},
    }


# ------------------------------------------------------------------------------------------
# Weather (5.1)

def weather():
    R = True
    # Rows 1..12 (d10 + turn-box DRM 0..2). Codes D M F S, a trailing T = Storms.
    cols = {
        "dry": ["D", "D", "D", "D", "D", "D", "D", "DT", "M", "MT", "M", "MT"],
        "mud": ["D", "D", "M", "M", "M", "M", "MT", "M", "MT", "MT", "MT", "MT"],
        "frost": ["D", "F", "F", "F", "F", "F", "M", "FT", "S", "ST", "S", "ST"],
        "snow": ["F", "F", "S", "S", "S", "S", "ST", "S", "ST", "ST", "ST", "ST"],
    }
    return {
        "format": 1, "game": "agc", "chart": "Scenario weather table", "rule": "5.1",
        "reconstructed": True,
        "source": "The scenario weather tables and Turn Record Tracks are MISSING. From the text: up to four climate columns (Dry, Mud, Frost, Snow) (5.1.2a); a +1 or +2 turn-box DRM moves one or two boxes down (5.1.1b, 5.1.3); results D/M/F/S, a T adds Storms (5.1.3c, the 'ST' example of 5.1.4b); Lingering Mud and Lingering Snow (5.1.4). Reconstructed: the boxes. Rows 1-12 so a 10 with +2 has a box (ruling A-12); lower boxes are fair weather; the Dry column gives about 20% rain (July 1941 had heavy rains around Smolensk and on the Berezina) and 10% storms",
        "rows": list(range(1, 13)),
        "row_index": "min(d10 + turn DRM, 12) (5.1.3, ruling A-12)",
        "codes": {"D": "dry", "M": "mud", "F": "frost", "S": "snow", "T": "storms, with the weather before it (9.2)"},
        "columns": cols,
        "lingering": {"mud": "a Dry turn after a Mud turn keeps Mud effects in woods hexes (5.1.4a)", "snow": "two consecutive Frost results are needed to end Snow (5.1.4b)", "rule": "5.1.4"},
    }


# ------------------------------------------------------------------------------------------
# Attack supply (6.8)

def attack_supply():
    R = True
    return {
        "format": 1, "game": "agc", "chart": "Attack Supply Charts", "rule": "6.8",
        "reconstructed": True,
        "source": "The Attack Supply Charts and the counter mix are MISSING. From the text: 1 ASP = 1 MSU, 2 ASPs = 1 Dump, excess ASPs lost, none kept off-map (6.8.1); MSU truck MA 8 (orange) or wagon MA 4 (6.8.4); an ASP supplies one attack whose units trace an LOC of 7 (5 in Mud/Snow) hexes to it (15.3); the S event adds 1 Soviet ASP (7.2e.3). Reconstructed: the ASPs per turn and the counters in the mix, from the ammunition situation of summer 1941 (German supply crisis after the Dnieper, mid-July to early August; Soviet front supply recovering with the Reserve Front in August)",
        "asp": {"msu": 1, "dump": 2, "rule": "6.8.1"},
        "msu_ma": {"truck": 8, "wagon": 4, "rule": "6.8.4"},
        "loc_to_asp": {"dry": 7, "frost": 7, "mud": 5, "snow": 5, "rule": "15.3, 6.2.2"},
        "counters_in_mix": {"axis": {"truck": 10, "wagon": 6}, "soviet": {"truck": 4, "wagon": 8}, "reconstructed": R,
                            "source": "the countermix is MISSING; enough Axis counters for 4 Panzer Groups' corps and the two armies' corps (one per corps, plus spares), fewer Soviet"},
        "per_turn": {
            "axis": [
                {"turns": [1, 12], "asp": 8, "note": "22 June - 14 July: the border battles and the Minsk pocket, supply from the railheads at Brest, Suwalki, Grodno"},
                {"turns": [13, 24], "asp": 5, "note": "15 July - 7 August: Smolensk; the rail gauge conversion lags (Orsha reached late July), ammunition rationed"},
                {"turns": [25, 50], "asp": 7, "note": "8 August - 30 September: converted lines to Smolensk, the build-up for Typhoon"},
            ],
            "soviet": [
                {"turns": [1, 8], "asp": 2, "note": "Western Front's dumps lost in the first week"},
                {"turns": [9, 24], "asp": 3, "note": "new armies (Timoshenko's Western Direction) along the Dnieper"},
                {"turns": [25, 50], "asp": 4, "note": "Reserve Front, the Yelnya offensive"},
            ],
            "reconstructed": R,
            "source": "turn n is 22 June + 2(n-1) days (ruling A-1); values scaled to the corps that attacked in each period",
        },
    }


CHARTS = {
    "crt.json": crt,
    "cec.json": cec,
    "movement.json": movement,
    "overrun.json": overrun,
    "retreat.json": retreat,
    "surrender.json": surrender,
    "air.json": air,
    "replacements.json": replacements,
    "weather.json": weather,
    "attack-supply.json": attack_supply,
}


def main():
    check = "--check" in sys.argv
    bad = 0
    for name, fn in CHARTS.items():
        path = os.path.join(D, name)
        text = dump(fn())
        if check:
            if not os.path.exists(path) or open(path).read() != text:
                print("differs:", path)
                bad = 1
        else:
            open(path, "w").write(text)
    sys.exit(bad)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks data/agc: every hex a hexside, road, railway, place or region names exists; the map
and every overlay record is marked reconstructed with a source; every chart file is marked
reconstructed with a source and every item in it marked reconstructed carries its own source;
the CRT has all 168 cells with known codes and is monotone (attacker losses never grow and
defender losses never shrink to the right or up a column, 15.8); the other charts are complete
(weather 4 x 12 boxes, replacement rows 1-12, air combat 9 x 10 cells, monotone); every cited
section exists in sections.json; the counter mix and every scenario are consistent (set-up
units exist, once each, on map hexes, within 10 stacking points a hex, 3.0e.2). Exit 1 with
the failures listed."""
import json, os, glob, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = os.path.join(ROOT, "data", "agc")
bad = []
m = json.load(open(os.path.join(D, "map.json")))
ids = {h["id"] for h in m["hexes"]}
hexes_by_id = {h["id"]: h for h in m["hexes"]}
if not (m.get("reconstructed") and m.get("source")): bad.append("map.json: not marked reconstructed with a source")
for s in m["hexsides"]:
    for h in s["hexes"]:
        if h not in ids: bad.append("hexside %s: hex %s missing" % (s["hexes"], h))
for r in m["roads"] + m["railways"]:
    for h in r["hexes"]:
        if h not in ids: bad.append("road/railway hex %s missing" % h)
for n, h in m["place_hexes"].items():
    if h not in ids: bad.append("place %s: hex %s missing" % (n, h))
for n, hs in m["regions"].items():
    for h in hs:
        if h not in ids: bad.append("region %s: hex %s missing" % (n, h))
for f in glob.glob(os.path.join(D, "geo", "*.json")) + [os.path.join(D, "grid.json")]:
    j = json.load(open(f))
    if not (j.get("reconstructed") and j.get("source")): bad.append("%s: no reconstructed/source" % f)
    for k in ("cities", "lines", "zones", "river_names"):
        for rec in (j.get(k) if isinstance(j.get(k), list) else []):
            if not rec.get("source"): bad.append("%s: %s %s has no source" % (f, k, rec.get("name")))
import re
CHARTS = ["crt.json", "cec.json", "movement.json", "overrun.json", "retreat.json", "surrender.json",
          "air.json", "replacements.json", "weather.json", "attack-supply.json"]
spath = os.path.join(D, "sections.json")
sections = {x["number"] for x in json.load(open(spath))["sections"]} if os.path.exists(spath) else None
NUM = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,2}){1,3})(?![\d])")


def cited(text):
    """Section numbers in a rule citation ("10.7.8c.2" cites 10.7.8; "3.0e.2" cites 3.0)."""
    out = []
    for m in NUM.finditer(text):
        out.append(m.group(1))
    return out


def walk(where, x):
    """Every dict marked reconstructed has a source; every rule citation names a section."""
    n = 0
    if isinstance(x, dict):
        if x.get("reconstructed") is True and not (x.get("source") or x.get("cells_source")):
            bad.append("%s: reconstructed item without a source: %s" % (where, json.dumps(x)[:120]))
        for k, v in x.items():
            if k in ("rule", "overrun_rule", "zoc_rule", "armor_rule", "snow_rule", "combined_arms_rule", "rule_all_across", "results_rule") and isinstance(v, str) and sections is not None:
                for num in cited(v):
                    if num not in sections and not any(num.startswith(s_ + ".") or s_.startswith(num + ".") for s_ in sections):
                        bad.append("%s: rule %s cites %s, not a section of the rulebook" % (where, v, num))
            n += walk(where, v)
        return n + 1
    if isinstance(x, list):
        return sum(walk(where, v) for v in x)
    return 0


def severity(code):
    if code == "e":
        return 10.0
    if code == "----":
        return 0.0
    digits = "".join(ch for ch in code if ch.isdigit())
    return (int(digits) if digits else 0) + (0.5 if "*" in code else 0) + (1.0 if "R" in code else 0)


charts = {}
for name in CHARTS:
    path = os.path.join(D, name)
    if not os.path.exists(path):
        bad.append("%s: missing" % name)
        continue
    c = json.load(open(path))
    charts[name] = c
    if not (c.get("reconstructed") and c.get("source") and c.get("rule")):
        bad.append("%s: not marked reconstructed with a source and a rule" % name)
    walk(name, c)

crt = charts.get("crt.json")
if crt:
    cols = crt["columns"]
    if cols[0] != "1-4" or cols[-1] != "10-1" or len(cols) != 14:
        bad.append("crt.json: columns must run 1-4 .. 10-1 (15.5.7)")
    if crt["rows"] != list(range(12)):
        bad.append("crt.json: rows must be 0..11 (15.8)")
    codes = set(crt["results"])
    ncell = 0
    for col in cols:
        rows = crt["cells"].get(col, [])
        if len(rows) != 12:
            bad.append("crt.json: column %s has %d rows, not 12" % (col, len(rows)))
        for r, cell in enumerate(rows):
            ncell += 1
            for side in ("attacker", "defender"):
                if cell.get(side) not in codes:
                    bad.append("crt.json: %s row %d %s result %r not a 16.1.1 code" % (col, r, side, cell.get(side)))
            if "*" in cell["defender"]:
                bad.append("crt.json: %s row %d: an asterisk applies to the attacker only (16.5.1)" % (col, r))
    if ncell != 168:
        bad.append("crt.json: %d cells, not 168" % ncell)
    for ci, col in enumerate(cols):
        for r in range(12):
            a = severity(crt["cells"][col][r]["attacker"]); d = severity(crt["cells"][col][r]["defender"])
            if r + 1 < 12:
                a2 = severity(crt["cells"][col][r + 1]["attacker"]); d2 = severity(crt["cells"][col][r + 1]["defender"])
                if a2 < a or d2 > d:
                    bad.append("crt.json: %s rows %d->%d not monotone (a higher row never helps the attacker, 15.8)" % (col, r, r + 1))
            if ci + 1 < len(cols):
                n2 = crt["cells"][cols[ci + 1]][r]
                if severity(n2["attacker"]) > a or severity(n2["defender"]) < d:
                    bad.append("crt.json: row %d %s->%s not monotone (better odds never hurt the attacker)" % (r, col, cols[ci + 1]))

w = charts.get("weather.json")
if w:
    for k in ("dry", "mud", "frost", "snow"):
        col = w["columns"].get(k, [])
        if len(col) != 12 or any(not re.fullmatch(r"[DMFS]T?", x) for x in col):
            bad.append("weather.json: column %s must have 12 boxes of D/M/F/S[T] (5.1.2)" % k)
rp = charts.get("replacements.json")
if rp:
    for tid, t in rp["soviet"]["tables"].items():
        if [x["roll"] for x in t["rows"]] != list(range(1, 13)):
            bad.append("replacements.json: Soviet table %s rows must be 1..12" % tid)
        for x in t["rows"]:
            if not re.fullmatch(r"\d?E?", str(x["fortifications"])) or x["other"] not in ("", "A", "N", "V") or x["special"] not in ("", "M", "R", "S"):
                bad.append("replacements.json: table %s row %s has a code 7.2 does not name" % (tid, x["roll"]))
air = charts.get("air.json")
if air:
    ac = air["air_combat"]
    rank = {"-": 0, "A": 1, "D": 2, "E": 3}
    for i, col in enumerate(ac["columns"]):
        cells = ac["cells"].get(col, [])
        if len(cells) != 10:
            bad.append("air.json: air combat column %s must have 10 rolls" % col)
            continue
        if any(rank[cells[j]] > rank[cells[j + 1]] for j in range(9)):
            bad.append("air.json: air combat column %s not monotone in the roll" % col)
        if i + 1 < len(ac["columns"]) and any(rank[a] > rank[b] for a, b in zip(cells, ac["cells"][ac["columns"][i + 1]])):
            bad.append("air.json: air combat columns %s/%s not monotone in the ACR difference" % (col, ac["columns"][i + 1]))
for name, c in charts.items():
    for key in ("results",):
        rows = c.get(key)
        if isinstance(rows, list) and rows and "modified_roll" in rows[0]:
            for a, b in zip(rows, rows[1:]):
                if a["modified_roll"][1] + 1 != b["modified_roll"][0]:
                    bad.append("%s: result rows leave a gap or overlap at %s/%s" % (name, a["modified_roll"], b["modified_roll"]))
walk("tables.json", json.load(open(os.path.join(D, "tables.json"))))
for name in ("sections.json",):
    if sections is not None:
        walk(name, json.load(open(spath)))

cpath = os.path.join(D, "counters.json")
counters = json.load(open(cpath)) if os.path.exists(cpath) else {"units": []}
by_id = {}
for u in counters["units"]:
    if u["id"] in by_id:
        bad.append("counters.json: id %s twice" % u["id"])
    by_id[u["id"]] = u
units = set(by_id)
walk("counters.json", counters)
if counters["units"] and not (counters.get("reconstructed") and counters.get("source")):
    bad.append("counters.json: not marked reconstructed with a source")
GROUND = {"air", "supply", "bridge"}
for u in counters["units"]:
    w = "counters.json %s" % u["id"]
    if not (u.get("reconstructed") and u.get("source")):
        bad.append("%s: no reconstructed/source" % w)
    if u["side"] not in ("axis", "soviet"):
        bad.append("%s: side %r" % (w, u["side"]))
    if u["type"] in ("supply", "bridge") or u.get("hq"):
        if u["stacking"] != 0:
            bad.append("%s: stacking must be 0 (3.0e.1)" % w)
    if u["type"] in GROUND or "full" not in u:
        continue
    if u.get("ma_colour") not in ("yellow", "orange", "green", "white", "blue", "rail"):
        bad.append("%s: MA colour %r" % (w, u.get("ma_colour")))
    if u.get("motorized") != (u.get("ma_colour") == "yellow"):
        bad.append("%s: motorized must mean a yellow MA (11.5)" % w)
    if u.get("hq") or u.get("untried") or u.get("sh") or u.get("reduced") is None:
        want = 1
    else:
        d = u["full"]["defense"]
        want = 4 if d >= 8 else 3 if d >= 5 else 2
    if u["steps"] != want:
        bad.append("%s: %d steps, 16.3.2 gives %d" % (w, u["steps"], want))
    if u.get("reduced") and (u["reduced"]["attack"] > u["full"]["attack"] or u["reduced"]["defense"] > u["full"]["defense"]):
        bad.append("%s: reduced side stronger than the full side" % w)
    if u.get("hq") and not (u.get("command_value") is not None and u.get("recovery")):
        bad.append("%s: HQ without command value and recovery value (22.1, 22.2)" % w)
    if u.get("withdraw_turn") and u["withdraw_turn"] < (u.get("entry_turn") or 1):
        bad.append("%s: withdrawn before it enters" % w)
    if u.get("converts_to") and u["converts_to"] not in by_id:
        bad.append("%s: converts to unknown %s" % (w, u["converts_to"]))
divisions = {}
for u in counters["units"]:
    if u.get("division"):
        divisions.setdefault(u["division"], []).append(u)
for dname, comps in divisions.items():  # 15.6.8: enough components for the integrity bonus
    kinds = [c["type"] for c in comps]
    if " PD" in dname and not ("panzer-regiment" in kinds and kinds.count("rifle-regiment") == 2 and "recon-battalion" in kinds):
        bad.append("counters.json: %s lacks a 15.6.8 component (Panzer regiment, two rifle regiments, recon)" % dname)
    if "(mot)" in dname and not (kinds.count("motorized-infantry-regiment") == 2 and "recon-battalion" in kinds):
        bad.append("counters.json: %s lacks a 15.6.8 component (two motorized regiments, recon)" % dname)
for u in counters["units"]:
    if u["type"] == "air" and not u.get("dummy"):
        if u.get("air_type") not in ("F", "B") or not all(isinstance(u.get(k), int) for k in ("acr", "cas", "interdiction")):
            bad.append("counters.json %s: air unit needs F/B, acr, cas, interdiction (17.1)" % u["id"])

SCEN_KEYS = ("id", "name", "first_turn", "last_turn", "setup", "victory", "vp_locations", "reconstructed", "source")
for sc in sorted(glob.glob(os.path.join(D, "scenarios", "*.json"))):
    j = json.load(open(sc))
    name = os.path.basename(sc)
    for k in SCEN_KEYS:
        if k not in j:
            bad.append("%s: no %s" % (name, k))
    walk(name, j)
    placed, stack = {}, {}
    for e in j.get("setup", []):
        if e["unit"] not in units:
            bad.append("%s: unit %s not in counters.json" % (name, e["unit"]))
            continue
        if e["unit"] in placed:
            bad.append("%s: unit %s set up twice" % (name, e["unit"]))
        placed[e["unit"]] = e
        u = by_id[e["unit"]]
        if "hex" in e:
            if e["hex"] not in ids:
                bad.append("%s: hex %s missing" % (name, e["hex"]))
                continue
            stack[e["hex"]] = stack.get(e["hex"], 0) + u.get("stacking", 0)
            h = hexes_by_id[e["hex"]]
            if h["terrain"] == "lake":
                bad.append("%s: %s set up in a lake hex %s" % (name, e["unit"], e["hex"]))
            if j.get("first_turn") == 1 and u["side"] == "axis" and h["country"] not in ("germany", "general_government"):
                bad.append("%s: Axis unit %s set up in the USSR (%s) on 22 June" % (name, e["unit"], e["hex"]))
            if j.get("first_turn") == 1 and u["side"] == "soviet" and h["country"] not in ("ussr", "lithuania", "latvia"):
                bad.append("%s: Soviet unit %s set up outside the USSR (%s)" % (name, e["unit"], e["hex"]))
        elif "box" not in e:
            bad.append("%s: %s has neither hex nor box" % (name, e["unit"]))
    for h, sp in stack.items():
        if sp > 10:
            bad.append("%s: hex %s holds %d stacking points (3.0e.2: 10)" % (name, h, sp))
    for r in j.get("reinforcements", []):
        if r["unit"] not in units:
            bad.append("%s: reinforcement %s not in counters.json" % (name, r["unit"]))
        if r["unit"] in placed:
            bad.append("%s: %s both set up and a reinforcement" % (name, r["unit"]))
        for h in r.get("hexes", []):
            if h not in ids:
                bad.append("%s: entry hex %s missing" % (name, h))
        if not (j["first_turn"] <= r["turn"] <= j["last_turn"]):
            bad.append("%s: %s arrives on turn %s, outside the scenario" % (name, r["unit"], r["turn"]))
    for k in ("ur_mg_placements", "west_face_entry"):
        for h in j.get(k, []):
            if h not in ids:
                bad.append("%s: %s hex %s missing" % (name, k, h))
            elif k == "ur_mg_placements" and hexes_by_id[h]["country"] not in ("ussr", "lithuania", "latvia"):
                bad.append("%s: UR/MG placement %s outside the USSR" % (name, h))
    boxed = {e["unit"] for e in j.get("setup", [])} | {r["unit"] for r in j.get("reinforcements", [])}
    for u in counters["units"]:
        if (u.get("entry_turn") or 99) <= 1 and u["id"] not in boxed:
            bad.append("%s: %s (available on turn 1) is neither set up nor a reinforcement" % (name, u["id"]))
    for v in j.get("vp_locations", []):
        if v["hex"] not in ids:
            bad.append("%s: VP location %s hex %s missing" % (name, v.get("name"), v["hex"]))
    turns = j.get("turns", [])
    if turns and [t["turn"] for t in turns] != list(range(j["first_turn"], j["last_turn"] + 1)):
        bad.append("%s: the turn record track must list every turn %d..%d" % (name, j["first_turn"], j["last_turn"]))
    for t in turns:
        if t.get("climate") not in ("dry", "mud", "frost", "snow") or t.get("weather_drm", 0) not in (0, 1, 2):
            bad.append("%s: turn %s climate/DRM not a 5.1.1 value" % (name, t["turn"]))
print("data/agc: %d hexes, %d hexsides, %d roads, %d railways, %d places checked" % (len(ids), len(m["hexsides"]), len(m["roads"]), len(m["railways"]), len(m["place_hexes"])))
print("data/agc: %d counters, %d scenarios checked" % (len(units), len(glob.glob(os.path.join(D, "scenarios", "*.json")))))
print("data/agc: %d charts checked%s" % (len(charts), ", CRT %d cells" % sum(len(v) for v in crt["cells"].values()) if crt else ""))
for b in bad[:50]: print("FAIL", b)
sys.exit(1 if bad else 0)

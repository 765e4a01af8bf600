#!/usr/bin/env python3
"""Draws data/agc/map.json as SVG (east to the right): terrain colours, rivers and major
rivers on hexsides, the 1941 border, roads, railways, settlements, bridges.
usage: render_map.py OUT.svg"""
import json, math, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
S = 12.0  # pixels per hex width
RAD = 1 / math.sqrt(3)
COL = {"clear": "#eef0d8", "woods": "#8fbf7a", "swamp": "#7fb3a8", "marsh": "#b5d3c9", "hills": "#d8b98a", "lake": "#7fb0e0"}

def centre(hid, maxc):
    r, c = int(hid[:2]), int(hid[2:])
    X = c + (0.5 if r % 2 else 0.0)
    return ((maxc + 1 - X) * S, (r * math.sqrt(3) / 2 + 1) * S)

def main():
    m = json.load(open(os.path.join(ROOT, "data/agc/map.json")))
    maxc = m["grid"]["cols"]["last"]
    hexes = {h["id"]: h for h in m["hexes"]}
    C = {k: centre(k, maxc) for k in hexes}
    W = (maxc + 3) * S
    H = (m["grid"]["rows"]["last"] * math.sqrt(3) / 2 + 2.5) * S
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (W, H + 40),
         '<rect width="100%" height="100%" fill="white"/>']
    for k, h in hexes.items():
        x, y = C[k]
        pts = " ".join("%.1f,%.1f" % (x + RAD * S * math.cos(math.radians(30 + 60 * i)), y + RAD * S * math.sin(math.radians(30 + 60 * i))) for i in range(6))
        o.append('<polygon points="%s" fill="%s" stroke="#ccc" stroke-width="0.3"/>' % (pts, COL.get(h["terrain"], "#f0f")))
    def side(a, b):
        (xa, ya), (xb, yb) = C[a], C[b]
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        dx, dy = (xb - xa) / S, (yb - ya) / S
        hl = RAD * S / 2
        return mx - dy * hl, my + dx * hl, mx + dy * hl, my - dx * hl
    for s in m["hexsides"]:
        f = s["features"]
        x1, y1, x2, y2 = side(*s["hexes"])
        if "major-river" in f:
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1f5fbf" stroke-width="3.2"/>' % (x1, y1, x2, y2))
        elif "river" in f:
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#4a8fe0" stroke-width="1.6"/>' % (x1, y1, x2, y2))
        if "all-lake" in f:
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#7fb0e0" stroke-width="3"/>' % (x1, y1, x2, y2))
        if "border-1941" in f:
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d00" stroke-width="2.5" stroke-dasharray="4,2"/>' % (x1, y1, x2, y2))
    sty = {"motorway": ("#c03000", 2.6), "main-road": ("#e07000", 1.6), "minor-road": ("#a08060", 0.9)}
    for kind in ("minor-road", "main-road", "motorway"):
        for r in m["roads"]:
            if r["type"] != kind:
                continue
            pts = " ".join("%.1f,%.1f" % C[h] for h in r["hexes"])
            o.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%s"/>' % (pts, sty[kind][0], sty[kind][1]))
    for r in m["railways"]:
        pts = " ".join("%.1f,%.1f" % C[h] for h in r["hexes"])
        o.append('<polyline points="%s" fill="none" stroke="#222" stroke-width="1" stroke-dasharray="3,2"/>' % pts)
    for s in m["hexsides"]:
        if "road-bridge" in s["features"] or "rail-bridge" in s["features"]:
            x1, y1, x2, y2 = side(*s["hexes"])
            o.append('<circle cx="%.1f" cy="%.1f" r="1.6" fill="#fff" stroke="#000" stroke-width="0.6"/>' % ((x1 + x2) / 2, (y1 + y2) / 2))
    for k, h in hexes.items():
        st = h.get("settlement")
        if not st:
            continue
        x, y = C[k]
        r = {"major-city": 5, "city": 3.5, "town": 2}[st]
        o.append('<circle cx="%.1f" cy="%.1f" r="%s" fill="%s" stroke="black" stroke-width="0.6"/>' % (x, y, r, "#900" if st != "town" else "#333"))
        if st != "town" or h["name"] in ("Yelnya", "Yartsevo", "Dorogobuzh", "Slonim", "Volkovysk", "Lida", "Molodechno", "Zhlobin", "Rogachev", "Krichev", "Lepel"):
            fs = 13 if st == "major-city" else 10 if st == "city" else 8
            o.append('<text x="%.1f" y="%.1f" font-size="%d" font-weight="%s">%s</text>' % (x + 5, y - 4, fs, "bold" if st == "major-city" else "normal", h["name"]))
    for k in hexes:
        r, c = int(k[:2]), int(k[2:])
        if r % 10 == 0 and c % 10 == 0:
            x, y = C[k]
            o.append('<text x="%.1f" y="%.1f" font-size="6" fill="#666" text-anchor="middle">%s</text>' % (x, y + 2, k))
    o.append('<text x="10" y="%d" font-size="14">Barbarossa: Army Group Center (reconstructed, 8 km hexes, %d hexes). Woods green, swamp teal, marsh pale teal, hills tan; major rivers thick blue; 1941 border red dashes; motorway red, main roads orange, minor roads brown; railways dashed black; white dots bridges.</text>' % (H + 25, len(hexes)))
    o.append("</svg>")
    open(sys.argv[1], "w").write("\n".join(o))

if __name__ == "__main__":
    main()

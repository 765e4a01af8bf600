#!/usr/bin/env python3
"""Draws a scenario's 22 June set-up over the AGC map (tools/agc/render_map.py): a disc per
occupied hex, Axis grey, Soviet red, its size the stacking points there; VP locations ringed.
usage: render_setup.py SCENARIO_ID OUT.svg   (then rsvg-convert -w 2000 OUT.svg -o OUT.png)"""
import json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render_map  # noqa: E402

ROOT = render_map.ROOT


def main():
    sid, out = sys.argv[1], sys.argv[2]
    base = out + ".base.svg"
    subprocess.check_call([sys.executable, render_map.__file__, base])
    svg = open(base).read()
    os.remove(base)
    m = json.load(open(os.path.join(ROOT, "data/agc/map.json")))
    maxc = m["grid"]["cols"]["last"]
    units = {u["id"]: u for u in json.load(open(os.path.join(ROOT, "data/agc/counters.json")))["units"]}
    sc = json.load(open(os.path.join(ROOT, "data/agc/scenarios/%s.json" % sid)))
    stack = {}
    for e in sc["setup"]:
        if "hex" in e:
            u = units[e["unit"]]
            k = (e["hex"], u["side"])
            stack[k] = stack.get(k, 0) + max(1, u.get("stacking", 0))
    o = []
    for v in sc["vp_locations"]:
        x, y = render_map.centre(v["hex"], maxc)
        o.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="none" stroke="#d4a000" stroke-width="2"/>' % (x, y, render_map.S * 0.9))
    for (h, side), sp in stack.items():
        x, y = render_map.centre(h, maxc)
        r = render_map.S * (0.2 + 0.045 * sp)
        o.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="black" stroke-width="0.6"/>' % (
            x, y, r, "#505a64" if side == "axis" else "#c0392b"))
    for h in sc.get("west_face_entry", []):
        x, y = render_map.centre(h, maxc)
        o.append('<rect x="%.1f" y="%.1f" width="6" height="6" fill="#505a64"/>' % (x - 3, y - 3))
    svg = svg.replace("</svg>", "\n".join(o) + "\n</svg>")
    open(out, "w").write(svg)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws German VP by turn of Grand Campaign runs next to the historical 1941 pace.

Usage: tools/pace/plot.py REFERENCE.json OUT.svg LABEL=RUN.csv [LABEL=RUN.csv ...]

RUN.csv is written by `steppe selfplay ... --timeline RUN.csv` (a row at the first action of
every turn: the VP then is the VP at the end of the turn before). REFERENCE.json
(tools/pace/bd-1941-front.json) lists the VP cities the Wehrmacht took in 1941 with their
dates; the historical VP at the start of turn T is vp_start plus the cities held at the end
of turn T-1. Also prints the table that docs/ai-pace.md shows.
"""
import csv
import json
import sys


def historical(ref):
    ends = {int(t): d for t, d in ref["turn_ends"].items()}
    out = {1: ref["vp_start"]}
    for t in sorted(ends):
        end = ends[t]
        held = [c for c in ref["cities"] if c["taken"] <= end and ("lost" not in c or c["lost"] > end)]
        out[t + 1] = ref["vp_start"] + len(held)
    return out


def run_points(path):
    points = {}
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        t = int(row["turn"])
        if t not in points:  # the first row of a turn: the VP at its start
            points[t] = (int(row["vp"]), int(row.get("german_hexes_in_ussr") or 0))
    # The last row is written when the run stops; a game that ended in turn T (a Victory
    # Check) stopped at the end of T, which is where the start of T+1 is plotted.
    # (A run stopped by --until-turn repeats its last row: same action count.)
    if len(rows) >= 2 and rows[-1]["turn"] == rows[-2]["turn"] and rows[-1]["actions"] != rows[-2]["actions"]:
        t = int(rows[-1]["turn"]) + 1
        points.setdefault(t, (int(rows[-1]["vp"]), int(rows[-1].get("german_hexes_in_ussr") or 0)))
    return points


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    ref = json.load(open(argv[1]))
    hist = historical(ref)
    runs = []
    for arg in argv[3:]:
        label, _, path = arg.partition("=")
        runs.append((label, run_points(path)))
    turns = sorted(set(hist) | {t for _, p in runs for t in p})
    vmax = max([v for v in hist.values()] + [v for _, p in runs for v, _ in p.values()]) + 2
    # Even, at most 10, and low enough for every point (a game can fall below the start's 14).
    vmin = min([10] + [v for _, p in runs for v, _ in p.values()])
    vmin -= vmin % 2
    w, h, left, top, bottom, right = 640, 380, 60, 40, 60, 170
    pw, ph = w - left - right, h - top - bottom

    def x(t):
        return left + (t - turns[0]) * pw / max(1, turns[-1] - turns[0])

    def y(v):
        return top + ph - (v - vmin) * ph / (vmax - vmin)

    colors = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
         f'<text x="{left}" y="20" font-size="14">BD Grand Campaign: German VP at the start of each turn</text>']
    for v in range(vmin, vmax + 1, 2):
        s.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" stroke="#ddd"/>'
                 f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    for t in turns:
        s.append(f'<text x="{x(t):.1f}" y="{top + ph + 18}" text-anchor="middle">GT{t}</text>')
    s.append(f'<text x="{left + pw / 2}" y="{h - 15}" text-anchor="middle">start of game turn (GT7 = February 1942)</text>')

    def line(points, color, label, idx, dash=""):
        pts = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in sorted(points.items()))
        s.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2.5"{dash}/>')
        for t, v in sorted(points.items()):
            s.append(f'<circle cx="{x(t):.1f}" cy="{y(v):.1f}" r="3" fill="{color}"/>')
        ly = top + 10 + idx * 20
        s.append(f'<line x1="{left + pw + 15}" y1="{ly}" x2="{left + pw + 40}" y2="{ly}" stroke="{color}" stroke-width="2.5"{dash}/>'
                 f'<text x="{left + pw + 45}" y="{ly + 4}">{label}</text>')

    line(hist, "#000", "historical (1941)", 0, ' stroke-dasharray="6 4"')
    for i, (label, p) in enumerate(runs):
        line({t: v for t, (v, _) in p.items()}, colors[i % len(colors)], label, i + 1)
    s.append("</svg>")
    with open(argv[2], "w") as f:
        f.write("\n".join(s) + "\n")
    print("| start of | historical VP | " + " | ".join(f"{label} VP (hexes)" for label, _ in runs) + " |")
    print("|---|---|" + "---|" * len(runs))
    for t in turns:
        cells = [f"{p[t][0]} ({p[t][1]})" if t in p else "-" for _, p in runs]
        print(f"| GT{t} | {hist.get(t, '-')} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

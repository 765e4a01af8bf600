#!/usr/bin/env python3
"""Rule coverage of a game: every numbered section of its rulebook, the code that cites it
and the tests whose `rule` line names it.

    tools/coverage.py GAME                 writes docs/coverage/GAME.md
    tools/coverage.py GAME --check         exits 1 if docs/coverage/GAME.md is not what it would write
    tools/coverage.py GAME --stdout        prints the report
    tools/coverage.py GAME --sections SEED rebuilds data/GAME/sections.json from the rulebook
                                           text SEED (e.g. ../shared/seeds/002_....txt)

The sections (number and title) come from data/GAME/sections.json, built once from the
rulebook text, so the report needs no rulebook at test time. A section is cited by:
  code   a comment (`// 7.3.2`, `// OR 14.2`) or a string literal holding section numbers
         ("10.12.5", "10.12.5, 14.5") in src/games/GAME/ (its tests/ folder aside), or the
         "source" / "rule" of a table in data/GAME/ (sections.json aside);
  tests  the `rule` line of a scenario test in tests/rulebook/GAME/ or tests/ai/GAME/, and
         comments or strings of the GoogleTests in src/games/GAME/tests/;
  ruling the game's part of docs/rulings.md.
A number cites every section it names and, for "10.12.5.1", no other (its parents are
cited by their own numbers). A section marked "applies": false in sections.json (a
component list, a credit) is listed as not applicable, with the reason.
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUM = r"\d{1,2}(?:\.\d{1,2}){1,3}"
# The heading of each game's part of docs/rulings.md.
RULINGS_HEADING = {"moscow41": "## Moscow '41", "bd": "## Barbarossa Deluxe", "dv": "## The Dark Valley",
                   "aa": "## Axis & Allies Barbarossa", "agc": "## Barbarossa: Army Group Center"}
GAME_TITLE = {"moscow41": "Moscow '41", "bd": "Barbarossa Deluxe", "dv": "The Dark Valley",
              "aa": "Axis & Allies Barbarossa", "agc": "Barbarossa: Army Group Center"}


def rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


# ---------------------------------------------------------------------------------------
# Building sections.json from the rulebook text


def clean_title(t):
    t = re.sub(r"<[^>]+>", "", t)
    t = t.replace("**", "").replace("*", "").strip()
    t = re.sub(r"\s+", " ", t)
    return t.strip(" .:")


def sections_moscow41(lines):
    """Markdown headings: `## 2.5 AREA CONTROL`, `### OR 14.2 ZHUKOV and HOEPNER`; after
    `## SCENARIO SETUP` the set-up rules and the three numbered scenarios (`## 1. BEYOND
    THE DNIETER`), cited as "Scenario Setup" and "Scenario 1" to "Scenario 3"."""
    out = []
    scenarios = False
    for line in lines:
        if re.match(r"^#+\s+SCENARIO SETUP", line):
            scenarios = True
            out.append({"number": "Scenario Setup", "title": "Scenario Setup"})
            continue
        if scenarios:
            m = re.match(r"^#+\s+([1-3])\.\s+(.*)$", line)
            if m:
                out.append({"number": "Scenario " + m.group(1), "title": clean_title(m.group(2))})
            continue
        m = re.match(r"^#+\s+(?:OR\s+)?(\d{1,2}(?:\.\d{1,2}){1,3})\s+(.*)$", line)
        if m:
            out.append({"number": m.group(1), "title": clean_title(m.group(2))})
    return out


def sections_bd(lines):
    """Plain lines `4.12 Soviet Response to a` (a title may wrap onto the next line);
    numbers missing from the export between two found ones are listed without a title."""
    joiners = {"a", "an", "to", "for", "of", "the", "&", "on", "in", "and", "or", "–", "-"}
    found = {}
    order = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\d{1,2})\.(\d{1,2})(?:\s+(.*))?$", line.strip())
        if not m:
            continue
        title = (m.group(3) or "").strip()
        if title and not (title[0].isupper() or title[0] in "“\"'"):
            continue  # "13.0 through 15.0). Except ..." is running text
        if title.endswith(".") and len(title.split()) > 6:
            continue
        words = title.split()
        if words and words[-1].lower() in joiners and i + 1 < len(lines):
            title += " " + lines[i + 1].strip()
        key = (int(m.group(1)), int(m.group(2)))
        if key in found:
            continue
        title = re.sub(r"(fi|fl) (?=[a-z])", r"\1", clean_title(title))  # "Identifi cation"
        if len(title.split()) > 7:  # a section that opens with running text: its first words
            title = " ".join(title.split()[:7]) + " …"
        found[key] = title
        order.append(key)
    out = []
    for major in sorted({k[0] for k in found}):
        minors = sorted(k[1] for k in found if k[0] == major)
        for minor in range(0 if 0 in minors else 1, max(minors) + 1):
            title = found.get((major, minor))
            entry = {"number": f"{major}.{minor}", "title": title or ""}
            if (major, minor) not in found:
                entry["note"] = "heading not in the text export; the number is between two found ones"
            out.append(entry)
    return out


def sections_dv(lines):
    """The Dark Valley: headings `10.5.6.1 Stalin Mandates` after the table of contents
    (the contents list the same numbers first); chapters `N.0`; up to four levels. The
    scenario book (17.x) and 12.9 are not in the text: the numbers the text cites are
    listed with a note."""
    start = next(i for i, l in enumerate(lines) if l.strip() == "1.0 Introduction")
    out, seen = [], set()
    for line in lines[start:]:
        m = re.match(r"^(\d{1,2}\.\d{1,2}(?:\.\d{1,2}){0,2})\s+([A-Z*].*)$", line.strip())
        if not m or m.group(1) in seen:
            continue
        title = clean_title(m.group(2).replace("*", ""))
        if title.endswith(".") and len(title.split()) > 6:
            continue
        seen.add(m.group(1))
        out.append({"number": m.group(1), "title": title})
    cited = [("12.9", "Weather Effects on Combat (cited in 12.3a)"), ("17.0", "Scenarios"),
             ("17.1", "Operation Barbarossa"), ("17.1.2", "Barbarossa special rule (cited in 13.8)"),
             ("17.1.3", "Barbarossa victory conditions (cited in 4.0)"), ("17.2", "Fall Blau"),
             ("17.2.3", "Fall Blau victory conditions (cited in 4.0)"), ("17.3", "Operation Zitadelle"),
             ("17.3.2", "Zitadelle victory conditions (cited in 4.0)"), ("17.4", "Operation Bagration"),
             ("17.4.2", "Bagration victory conditions (cited in 4.0)")]
    for number, title in cited:
        if number not in seen:
            out.append({"number": number, "title": title,
                        "note": "not in the text export (the scenario book and 12.9 are missing); cited by the rules"})
    key = lambda s: [int(x) for x in s["number"].split(".")]
    return sorted(out, key=key)


def sections_agc(lines):
    """Barbarossa: Army Group Center: a PDF export whose headings run into the text
    ("16.2 No Result The combat has not ..."). Chapters N.0 come from the table of contents;
    N.M and N.M.K are the first occurrence of the number (not a cross-reference in brackets)
    followed by a capitalised word: the title is the capitalised run, less the word that
    opens the next sentence; a third-level rule that opens with running text gets its first
    words. AGC_TITLES mends the headings the export garbles; numbers missing between two
    found ones (11.1, 16.1 ...) are listed with a note."""
    text = "\n".join(lines)
    start = text.index("1.0 Introduction", text.index("24.0 How to Win"))
    toc, body = text[:start], text[start:]
    found = {}
    for num, title in re.findall(r"(\d{1,2}\.0) ([A-Z][A-Za-z./ ]+?) \.{3,}", toc):
        found[num] = clean_title(title)
    joiners = {"of", "to", "and", "the", "in", "a", "an", "on", "for", "or", "&", "/", "-", "–", "by", "with", "from", "into"}
    for m in re.finditer(r"(?<![\d.\[(])(\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)\s+(?=([^\n]{0,200}))", body):
        num, rest = m.group(1), m.group(2)
        if num in found or re.search(r"(see|and|to|or|in|\[|\()\s*$", body[max(0, m.start() - 5):m.start()], re.I):
            continue
        words = re.split(r"\s+(?=\d{1,2}\.\d)", rest)[0].split()
        if not words or not (words[0][0].isupper() or words[0][0] in "“\"'"):
            continue
        run, lower = [], False
        for w in words:
            if w[0].isupper() or w[0] in "“\"'(" or w.lower() in joiners or w[0].isdigit():
                run.append(w)
                if w.endswith((".", ":")):
                    break
            else:
                lower = True
                break
        if lower and len(run) > 1 and not run[-1].endswith((".", ":")):
            run = run[:-1]
        while run and run[-1].lower() in joiners:
            run = run[:-1]
        title = clean_title(" ".join(run))
        openers = {"For", "Only", "After", "All", "No", "The", "A", "An", "During", "Each", "If", "When",
                   "Every", "Some", "Most", "Units", "German", "So", "Both", "Any"}
        sentence = lower and not (run and run[-1].endswith(".")) and title.split()[:1] and title.split()[0] in openers
        if num.count(".") == 2 and (len(title.split()) < 2 or sentence):  # running text: its first words
            title = clean_title(" ".join(words[:7])) + (" …" if len(words) > 7 else "")
        if title:
            found[num] = title
    found.update(AGC_TITLES)
    key = lambda n: [int(x) for x in n.split(".")]
    out = []
    nums = set(found)
    for n in list(nums):  # fill the numbers between found siblings, and missing parents
        parts = key(n)
        if len(parts) >= 2 and parts[-1] > 1:
            for k in range(1, parts[-1]):
                nums.add(".".join(str(x) for x in parts[:-1] + [k]))
        if len(parts) == 3:
            nums.add("%d.%d" % (parts[0], parts[1]))
    for n in sorted(nums, key=key):
        entry = {"number": n, "title": found.get(n, "")}
        if n not in found:
            entry["note"] = "heading not in the text export; the number is between two found ones"
        out.append(entry)
    return out


# Headings the AGC export garbles (a heading run into its first sentence, a heading printed
# away from its number), mended by hand from the text around them.
AGC_TITLES = {
    "2.0": "Game Equipment", "2.1": "The Game Map", "2.3.2": "Unit Designations", "4.1": "Preparing for Play",
    "5.1.2": "The Scenario Weather Table", "5.1.3": "Weather Determination Die Roll",
    "5.1.4": "Lingering Weather Results", "6.5": "Supply Sources", "6.8": "Attack Supply",
    "7.1": "Soviet Replacements", "7.1.1": "Soviet Replacement Table", "7.3": "Axis Replacements",
    "7.3.1": "Infantry (Type I) RPs", "8.4": "Rebuilt Units", "8.5": "Untried Soviet Militia",
    "8.6": "Withdrawals", "9.1": "Readiness", "10.5": "Movement Restrictions", "10.7.8": "Road Movement in Other Weather",
    "10.7.10": "Inland Sea/Lake Hexes and Hexsides", "10.7.12": "Major City Hexes",
    "11.1": "Railroad Movement", "11.6": "Untried UR/MG Movement", "11.7": "Air and Sea Transport",
    "12.0": "Attack Declaration", "12.8": "Multiple Hex Attacks", "13.0": "Axis Air Interdiction",
    "14.0": "Defender Reaction", "15.5.2": "Terrain", "15.6": "Final DRM Determination", "15.6.3": "Attacking Engineer Effects DRM",
    "16.1": "The CRT", "16.1.1": "Combat Results", "17.3": "AA Fire", "19.0": "Railroad Conversion",
    "20.1": "On-map Replacements", "22.1": "Operational Soviet HQs", "22.2": "Non-Operational HQs",
    "22.7": "Super-Heavy Artillery", "22.13": "Soviet Partisans", "23.0": "Regiment Substitute Counters",
    "23.2": "Detachment", "8.2": "Scheduled Reinforcements", "16.5": "Asterisk (*) Results",
    "17.2.4": "“Firing” in Air Combat", "22.2.2": "Overlapping Operational and Non-Op Command Ranges", "23.3": "Recombination", "16.6.1": "Retreat Procedure", "22.10.4": "Istrebitel'nyye (Istr) Units",
}


def build_sections(game, seed):
    with open(seed, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if game == "moscow41":
        secs = sections_moscow41(lines)
    elif game == "dv":
        secs = sections_dv(lines)
    elif game == "agc":
        secs = sections_agc(lines)
    else:
        secs = sections_bd(lines)
    path = os.path.join(ROOT, "data", game, "sections.json")
    old = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for s in json.load(f)["sections"]:
                old[s["number"]] = s
    for s in secs:  # keep the hand-written marks (applies, why) of the previous file
        for k in ("applies", "why"):
            if k in old.get(s["number"], {}):
                s[k] = old[s["number"]][k]
    doc = {
        "format": 1,
        "game": game,
        "reconstructed": True,
        "source": "built by tools/coverage.py --sections from the rulebook text " + os.path.basename(seed) +
        " (the numbered headings, in order); 'applies': false marks a section with no rule to implement",
        "sections": secs,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{rel(path)}: {len(secs)} sections")


# ---------------------------------------------------------------------------------------
# Finding the citations


def numbers_in(text, known):
    """The known section numbers named in text (an `OR ` prefix is allowed), and the
    scenarios named "Scenario 1" or "Scenario Setup" where the game lists them."""
    found = {n for n in re.findall(r"(?<![\d.])(" + NUM + r")(?![\d])", text) if n in known}
    found |= {n for n in re.findall(r"Scenario (?:[1-9]|Setup)", text) if n in known}
    return found


def code_citations(path, known):
    """Section numbers in the comments and string literals of a C++ file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = set()
    for m in re.finditer(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"', text, re.S):
        found |= numbers_in(m.group(0), known)
    return found


def data_citations(path, known):
    """Section numbers in the "source" and "rule" strings of a data file (a table is the
    implementation of the rule it reconstructs)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    found = set()

    def visit(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("source", "rule") and isinstance(v, str):
                    found.update(numbers_in(v, known))
                else:
                    visit(v)
        elif isinstance(x, list):
            for v in x:
                visit(v)

    visit(doc)
    return found


def scenario_rule(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            w = line.split(None, 1)
            if w and w[0] == "rule":
                return w[1].strip() if len(w) > 1 else ""
    return ""


def rule_citations(rule, known):
    """A `rule` line names its sections before any quotation: `rule 2.5 "A player ..."`."""
    head = re.split(r"[\"“]", rule, maxsplit=1)[0]
    return numbers_in(head, known)


def rulings_citations(game, known):
    path = os.path.join(ROOT, "docs", "rulings.md")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.find(RULINGS_HEADING[game])
    if start < 0:
        return set()
    end = text.find("\n## ", start + 1)
    return numbers_in(text[start:end if end > 0 else len(text)], known)


def walk(folder, exts):
    out = []
    if not os.path.isdir(folder):
        return out
    for d, _, files in os.walk(folder):
        for f in files:
            if f.endswith(exts):
                out.append(os.path.join(d, f))
    return sorted(out)


def report(game):
    with open(os.path.join(ROOT, "data", game, "sections.json"), encoding="utf-8") as f:
        secs = json.load(f)["sections"]
    known = {s["number"] for s in secs}
    code, tests = {}, {}
    src = os.path.join(ROOT, "src", "games", game)
    gtests = os.path.join(src, "tests")
    for p in walk(src, (".cpp", ".h")):
        target = tests if p.startswith(gtests + os.sep) else code
        for n in code_citations(p, known):
            target.setdefault(n, set()).add(rel(p))
    for p in walk(os.path.join(ROOT, "data", game), (".json",)):
        if os.path.basename(p) != "sections.json":
            for n in data_citations(p, known):
                code.setdefault(n, set()).add(rel(p))
    for folder in ("tests/rulebook/" + game, "tests/ai/" + game):
        for p in walk(os.path.join(ROOT, folder), (".scn",)):
            for n in rule_citations(scenario_rule(p), known):
                tests.setdefault(n, set()).add(rel(p))
    rulings = rulings_citations(game, known)

    rows, counts = [], {}
    for s in secs:
        n = s["number"]
        c, t = sorted(code.get(n, ())), sorted(tests.get(n, ()))
        if s.get("applies") is False:
            status = "not applicable"
        elif c and t:
            status = "implemented, tested"
        elif t:
            status = "tested, no code cites it"
        elif c:
            status = "NO TEST"
        elif n in rulings:
            status = "ONLY A RULING"
        else:
            status = "NO CODE, NO TEST"
        counts[status] = counts.get(status, 0) + 1
        def short(paths):
            return ", ".join("`" + p.split("/")[-1] + "`" for p in paths) or "—"

        note = s.get("why", "") if s.get("applies") is False else ("ruling" if n in rulings else "")
        rows.append(f"| {n} | {s['title'] or '—'} | {status} | {short(c)} | {short(t)} | {note} |")

    out = [
        f"# Rule coverage: {GAME_TITLE.get(game, game)}",
        "",
        f"Generated by `tools/coverage.py {game}` from `data/{game}/sections.json` (the rulebook's",
        f"numbered sections); do not edit by hand. `ctest -R coverage.{game}` fails when this file",
        f"is stale. Code: the files of `src/games/{game}/` whose comments or rule strings cite the",
        f"section, and the tables of `data/{game}/` whose `source` cites it. Tests: the scenario",
        f"tests (`tests/rulebook/{game}/`, `tests/ai/{game}/`) whose `rule` line names it, and the",
        f"GoogleTests of `src/games/{game}/tests/` that cite it. Ruling: `docs/rulings.md` cites it.",
        "",
        "| status | sections |",
        "|---|---|",
    ]
    for k in ("implemented, tested", "tested, no code cites it", "NO TEST", "ONLY A RULING", "NO CODE, NO TEST",
              "not applicable"):
        out.append(f"| {k} | {counts.get(k, 0)} |")
    out += ["", "| section | title | status | code | tests | note |", "|---|---|---|---|---|---|"]
    out += rows
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", choices=sorted(RULINGS_HEADING))
    ap.add_argument("--check", action="store_true", help="fail if docs/coverage/GAME.md is stale")
    ap.add_argument("--stdout", action="store_true", help="print the report instead of writing it")
    ap.add_argument("--sections", metavar="SEED", help="rebuild data/GAME/sections.json from the rulebook text")
    a = ap.parse_args()
    if a.sections:
        build_sections(a.game, a.sections)
        return 0
    text = report(a.game)
    path = os.path.join(ROOT, "docs", "coverage", a.game + ".md")
    if a.stdout:
        sys.stdout.write(text)
        return 0
    if a.check:
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if old != text:
            print(f"{rel(path)} is stale: run tools/coverage.py {a.game}", file=sys.stderr)
            return 1
        print(f"{rel(path)} is up to date")
        return 0
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{rel(path)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())

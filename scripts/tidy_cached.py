#!/usr/bin/env python3
"""clang-tidy over every C++ source of src/ and tools/, skipping a file whose checked input
has not changed since it was last found clean (scripts/tidy.sh calls this).

The input of clang-tidy on one file is its preprocessed text (the file and every header it
includes), its compile flags, the .clang-tidy configuration and the clang-tidy version; a
file whose hash of all four has a stamp in the cache was checked clean with exactly that
input, so checking it again cannot find anything new (the same reasoning as ccache). The
clone's own path is removed before hashing, so two clones share the cache. Only clean
results are cached: a file with findings is checked again on every run.

The keys of the files as they are now, when all of them are clean, are also written to
scripts/tidy-clean.txt, which is committed: a fresh machine (CI) with the same packages
forms the same keys and checks only the files whose input changed since a run recorded
them. A key can only be there because clang-tidy found that exact input clean; any change
of a source, a header, a flag, the configuration or the clang-tidy version is a new key.
The list is not rewritten when CI=true.
Usage: tidy_cached.py BUILD_DIR JOBS"""
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
build = Path(sys.argv[1]).resolve()
jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "steppe-tidy"
cache.mkdir(parents=True, exist_ok=True)

commands = {e["file"]: e for e in json.load(open(build / "compile_commands.json"))}
files = sorted(str(p) for d in ("src", "tools") for p in (root / d).rglob("*.cpp") if "node_modules" not in p.parts)
version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
config = (root / ".clang-tidy").read_bytes()
recorded_file = root / "scripts" / "tidy-clean.txt"
recorded = set(recorded_file.read_text().split()) if recorded_file.exists() else set()
tidy_cmd = ["clang-tidy", "-p", str(build), "--quiet", "--extra-arg=-Wno-unknown-warning-option"]


def key(path):
    """The hash of clang-tidy's whole input for `path`, or None when it cannot be formed."""
    entry = commands.get(path)
    if entry is None:
        return None
    args = shlex.split(entry["command"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            continue
        out.append(a)
    pre = subprocess.run(out + ["-E"], cwd=entry["directory"], capture_output=True)
    if pre.returncode != 0:
        return None
    h = hashlib.sha256()
    for part in (version.encode(), config, " ".join(out[1:]).encode(), pre.stdout):
        h.update(part.replace(str(root).encode(), b"."))
        h.update(b"\0")
    return h.hexdigest()


def check(path):
    k = key(path)
    if k is not None and (k in recorded or (cache / k).exists()):
        return path, True, True, k, ""
    r = subprocess.run(tidy_cmd + [path], capture_output=True, text=True)
    text = r.stdout + r.stderr
    findings = "\n".join(line for line in text.splitlines() if re.search(r"(warning|error):", line))
    clean = r.returncode == 0 and not findings
    if clean and k is not None:
        (cache / k).touch()
    return path, False, clean, k, "" if clean else text


bad = []
cached = 0
clean_keys = []
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for path, was_cached, clean, k, text in pool.map(check, files):
        cached += was_cached
        if not clean:
            bad.append((path, text))
        elif k is not None:
            clean_keys.append(k)
for path, text in bad:
    print(f"--- {os.path.relpath(path, root)}")
    print(text)
if not bad and len(clean_keys) == len(files) and os.environ.get("CI") != "true":
    text = "".join(k + "\n" for k in sorted(clean_keys))
    if not recorded_file.exists() or recorded_file.read_text() != text:
        recorded_file.write_text(text)
        print(f"tidy: recorded the {len(files)} clean inputs in {os.path.relpath(recorded_file, root)}")
print(f"tidy: {len(files)} files, {cached} unchanged since checked clean, {len(bad)} with findings")
sys.exit(1 if bad else 0)

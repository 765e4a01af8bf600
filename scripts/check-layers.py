#!/usr/bin/env python3
"""The layer rules (docs/architecture.md, "Layers"), checked on the sources' #include lines.

    kernel  <-  games/<id> (rules)  <-  ai, games/<id>/ai  <-  server, cli

Each rule names what a directory may include from src/ (system and third-party headers,
written with <>, are not checked). Exit status 1 and one line per breach when a file
includes across a layer it may not; the CMake side (cmake/layers.cmake) checks the link
graph the same way at configure time. Usage: scripts/check-layers.py [REPO_ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
src = root / "src"
include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def allowed(rel: pathlib.PurePosixPath, inc: str) -> bool:
    """May the file at src/`rel` include "`inc`"?"""
    parts = rel.parts
    top = inc.split("/")[0]
    if parts[0] == "kernel":
        return top == "kernel"
    if parts[0] == "ai":
        return top in ("kernel", "ai")
    if parts[0] == "server":
        # The server knows no game: it is handed a catalog (src/cli/cmd_serve.cpp).
        return top in ("kernel", "ai", "server")
    if parts[0] == "games":
        if len(parts) == 2:  # all_games.* (rules) and all_agents.* (heuristics)
            if parts[1].startswith("all_agents"):
                return top == "ai" or re.match(r"games/[^/]+/ai/", inc) is not None or inc == "games/all_agents.h"
            return top == "kernel" or (top == "games" and "/ai/" not in inc and "/tests/" not in inc)
        game = parts[1]
        own = f"games/{game}/"
        if len(parts) > 3 and parts[2] == "tests":
            # A game's tests may use its rules, its own AI, the AI and the kernel's test support.
            return top in ("kernel", "ai") or inc.startswith(own) or inc == "games/all_games.h"
        if len(parts) > 3 and parts[2] == "ai":
            return top in ("kernel", "ai") or inc.startswith(own)
        # The rules: the kernel and the game's own files, never the agents.
        return top == "kernel" or (inc.startswith(own) and not inc.startswith(own + "ai/")
                                   and not inc.startswith(own + "tests/"))
    if parts[0] == "cli":
        # The product CLI stands on every layer of src/ but on no tool (tools/ has its own binaries).
        return (src / inc).exists() or top in ("kernel", "ai", "games", "server", "cli")
    return True


def main() -> int:
    breaches = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".hpp", ".cc"):
            continue
        rel = pathlib.PurePosixPath(path.relative_to(src).as_posix())
        for inc in include_re.findall(path.read_text(encoding="utf-8", errors="replace")):
            if not (src / inc).exists() and not (src / rel.parent / inc).exists():
                breaches.append(f"src/{rel}: includes \"{inc}\", which is not under src/ (a tool or a stray path)")
            elif not allowed(rel, inc):
                breaches.append(f"src/{rel}: includes \"{inc}\" across the layers (docs/architecture.md, Layers)")
    for b in breaches:
        print(b)
    if breaches:
        print(f"{len(breaches)} layer breach(es)")
        return 1
    print("layers: every include in src/ follows the layer rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""cli_verify.py STEPPE: issue 26, verifiable dice, end to end with the real binary.

A `steppe serve` on loopback (port 0, its own database) hosts a Barbarossa Deluxe game played
by the first legal action of whoever is to move until dice have been rolled; then a side
resigns, the seat downloads the save, and `steppe verify` must accept it and refuse a forged
seed, a changed action, a forged commitment and a save of a game still running.
Exit 77 (skipped) when Barbarossa Deluxe is not installed."""
import json, os, re, subprocess, sys, tempfile, time, urllib.request, urllib.error

steppe = sys.argv[1]
games = subprocess.run([steppe, "games"], capture_output=True, text=True).stdout
if not re.search(r"^bd\t", games, re.M):
    print("Barbarossa Deluxe is not installed: skipped")
    sys.exit(77)

tmp = tempfile.mkdtemp()
srv = subprocess.Popen([steppe, "serve", "--port", "0", "--db", os.path.join(tmp, "s.db"), "--data", "data"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    line = srv.stdout.readline()
    m = re.search(r"http://[^:]+:(\d+)/", line)
    assert m, "no port in: " + line
    base = f"http://127.0.0.1:{m.group(1)}"

    def call(method, path, body=None, token=None):
        req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})})
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    st, c = call("POST", "/api/games", {"game": "bd", "scenario": "citadel"})
    assert st == 200, c
    assert "seed" not in c, "the create answer names the seed the server drew"
    gid = c["game"]["id"]
    tokens = [s["token"] for s in c["seats"]]
    rolls = 0
    for _ in range(400):
        info = call("GET", f"/api/games/{gid}")[1]["game"]
        side = info["current_player"]
        if side < 0:
            break
        view = call("GET", f"/api/games/{gid}/view", token=tokens[side])[1]["view"]
        acts = view["legal_actions"]
        # Attacks first (they roll dice), else the first action.
        pick = next((a for a in acts if a["words"][0] == "attack"), acts[0])
        st, r = call("POST", f"/api/games/{gid}/action", {"action": pick["text"]}, tokens[side])
        assert st == 200, r
        log = call("GET", f"/api/games/{gid}/log", token=tokens[0])[1]["events"]
        rolls = sum(1 for e in log if e.get("kind") == "roll" or "rolls" in e.get("text", ""))
        if rolls >= 2:
            break
    assert rolls >= 1, "no die was rolled"
    st, early = call("GET", f"/api/games/{gid}/save", token=tokens[0])
    assert st == 409 and early["error"]["code"] == "game_active", early
    call("POST", f"/api/games/{gid}/resign", {}, tokens[1])
    st, s = call("GET", f"/api/games/{gid}/save", token=tokens[0])
    assert st == 200, s

    def verify(doc, name):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            json.dump(doc, f)
        return subprocess.run([steppe, "verify", path], capture_output=True, text=True)

    ok = verify(s, "good.json")
    assert ok.returncode == 0 and "dice verified" in ok.stdout, ok.stdout + ok.stderr
    print(ok.stdout.strip())
    bad = json.loads(json.dumps(s)); bad["save"]["seed"] += 1
    r = verify(bad, "seed.json")
    assert r.returncode != 0 and "NOT the one committed to" in r.stderr, r.stderr
    bad = json.loads(json.dumps(s)); bad["save"]["dice"]["commitment"] = "0" * 64
    r = verify(bad, "commitment.json")
    assert r.returncode != 0 and "NOT the one committed to" in r.stderr, r.stderr
    bad = json.loads(json.dumps(s)); bad["save"]["actions"] = bad["save"]["actions"][:-1]
    r = verify(bad, "actions.json")
    assert r.returncode != 0 and "do not replay" in r.stderr, r.stderr
    print(f"ok: {len(s['save']['actions'])} actions, {rolls} roll events; forged seed, commitment and log refused")
finally:
    srv.terminate()
    srv.wait(timeout=20)

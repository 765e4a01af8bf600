#!/usr/bin/env python3
"""Bounded load test for `steppe serve` (loopback only, Python 3 standard library only).

Creates --games games through the HTTP API, runs two clients per game (one per seat, one
thread each, each with its own keep-alive connection). A client polls its seat's view; when it
is its turn it posts a legal action (seeded-random choice among the listed legal actions) and
times the POST round trip. The action's answer carries the new view, so a client that still
has the move posts again without polling. Everything stops after --actions per client or
--seconds overall, whichever comes first.

It starts nothing unless asked: with --spawn PATH it runs
`PATH serve --host 127.0.0.1 --port 0 --db <tmpdir>/load.db`, reads the printed address,
and stops the server (SIGTERM) at the end.

See docs/loadtest.md.
"""

import argparse
import collections
import http.client
import ipaddress
import json
import multiprocessing
import os
import queue
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse


def loopback_host(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback  # 127.0.0.0/8 or ::1
    except ValueError:
        return False


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.action_ms = []
        self.view_ms = []
        self.create_ms = []
        self.errors = collections.Counter()
        self.requests = 0
        self.actions_ok = 0
        self.games_finished = 0
        self.last_action = None
        self.bytes = collections.Counter()
        self.over_5s = collections.Counter()
        self.slowest = []  # (ms, endpoint, game) of the slowest requests

    def merge(self, d):
        with self.lock:
            self.action_ms += d["action_ms"]
            self.view_ms += d["view_ms"]
            self.errors.update(d["errors"])
            self.requests += d["requests"]
            self.actions_ok += d["actions_ok"]
            self.games_finished += d["games_finished"]
            if d["last_action"] is not None:
                self.last_action = max(self.last_action or 0, d["last_action"])
            self.bytes.update(d["bytes"])
            self.over_5s.update(d["over_5s"])
            self.slowest += d["slowest"]
        return d["alive"]

    def error(self, kind):
        with self.lock:
            self.errors[kind] += 1

    def record(self, bucket, ms, endpoint, game, nbytes=0):
        with self.lock:
            self.bytes[endpoint.split(" on ")[0]] += nbytes
            if ms > 5000:
                self.over_5s[endpoint] += 1
            bucket.append(ms)
            self.requests += 1
            self.slowest.append((ms, endpoint, game))
            if len(self.slowest) > 200:
                self.slowest.sort(reverse=True)
                del self.slowest[20:]


class Client:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, host, port, timeout):
        self.host, self.port, self.timeout = host, port, timeout
        self.conn = None
        self.last_bytes = 0
        self.uses = 0  # requests sent on the current connection

    def request(self, method, path, body=None, token=None):
        """Returns (status, json-or-None, elapsed ms). Raises on transport errors."""
        headers = {"Connection": "keep-alive"}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                self.uses = 0
            self.uses += 1
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A keep-alive connection the server closed between requests: reconnect once.
                self.close()
                if attempt == 0 and method == "GET":
                    continue
                raise
            ms = (time.perf_counter() - t0) * 1000.0
            if resp.getheader("Connection", "").lower() == "close":
                self.close()
            try:
                doc = json.loads(raw)
            except ValueError:
                doc = None
            self.last_bytes = len(raw)
            return resp.status, doc, ms
        raise RuntimeError("unreachable")

    def fresh(self):
        """' on a new connection' if the last request was the first on its connection."""
        return " on a new connection" if self.uses <= 1 else ""

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except OSError:
                pass
            self.conn = None


def error_kind(status, doc):
    code = None
    if isinstance(doc, dict) and isinstance(doc.get("error"), dict):
        code = doc["error"].get("code")
    return "HTTP %d %s" % (status, code or "(no code)")


def run_seat(args, host, port, game_id, token, seed, stats, deadline, stop, game_done):
    rng = random.Random(seed)
    cli = Client(host, port, args.timeout)
    base = "/api/games/%s" % game_id
    sent = 0
    view = None
    try:
        # A client stops after --actions, at the deadline, or when its partner has stopped
        # (the game would otherwise wait for a seat that no longer plays).
        while sent < args.actions and time.monotonic() < deadline and not stop.is_set() and not game_done.is_set():
            if view is None:
                try:
                    st, doc, ms = cli.request("GET", base + "/view", token=token)
                except (OSError, http.client.HTTPException) as e:
                    stats.error("view: transport %s%s" % (type(e).__name__, cli.fresh()))
                    cli.close()
                    time.sleep(0.1)
                    continue
                stats.record(stats.view_ms, ms, "GET /view" + cli.fresh(), game_id, cli.last_bytes)
                if st != 200 or not doc or not doc.get("ok"):
                    stats.error("view: " + error_kind(st, doc))
                    time.sleep(0.1)
                    continue
                view = doc["view"]
            if view.get("status") != "active":
                with stats.lock:
                    stats.games_finished += 1
                return
            legal = view.get("legal_actions") or []
            if not view.get("your_turn") or not legal:
                view = None
                time.sleep(args.poll * (0.5 + rng.random()))
                continue
            action = legal[0]["text"] if args.pick == "first" else rng.choice(legal)["text"]
            try:
                st, doc, ms = cli.request("POST", base + "/action", body={"action": action}, token=token)
            except (OSError, http.client.HTTPException) as e:
                stats.error("action: transport %s%s" % (type(e).__name__, cli.fresh()))
                cli.close()
                view = None
                continue
            sent += 1
            stats.record(stats.action_ms, ms, "POST /action" + cli.fresh(), game_id, cli.last_bytes)
            if st == 200 and doc and doc.get("ok"):
                with stats.lock:
                    stats.actions_ok += 1
                view = doc.get("view")
            else:
                stats.error("action: " + error_kind(st, doc))
                view = None
            with stats.lock:
                stats.last_action = time.monotonic()
    finally:
        game_done.set()
        cli.close()


def play(args, host, port, games, deadline, stats):
    """Runs two client threads per game; returns how many were still running at the end."""
    threading.stack_size(256 * 1024)
    stop = threading.Event()
    seats = []
    for i, gid, tokens in games:
        game_done = threading.Event()
        for side, tok in enumerate(tokens):
            if tok:
                seats.append(threading.Thread(
                    target=run_seat, daemon=True,
                    args=(args, host, port, gid, tok, args.seed * 1000003 + i * 7 + side, stats, deadline, stop,
                          game_done)))
    for t in seats:
        t.start()
    for t in seats:
        t.join(max(0.0, deadline + args.timeout - time.monotonic()))
    stop.set()
    return sum(t.is_alive() for t in seats)


def play_worker(args, host, port, games, deadline, q):
    stats = Stats()
    alive = play(args, host, port, games, deadline, stats)
    with stats.lock:
        q.put(dict(action_ms=stats.action_ms, view_ms=stats.view_ms, errors=dict(stats.errors),
                   requests=stats.requests, actions_ok=stats.actions_ok, games_finished=stats.games_finished,
                   last_action=stats.last_action, bytes=dict(stats.bytes), over_5s=dict(stats.over_5s), slowest=stats.slowest, alive=alive))


def pct(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def summary(name, values):
    v = sorted(values)
    if not v:
        return "%-13s n=0" % name
    return "%-13s n=%-6d p50=%7.1f  p90=%7.1f  p99=%7.1f  max=%7.1f ms" % (
        name, len(v), pct(v, 50), pct(v, 90), pct(v, 99), v[-1])


def spawn_server(path, extra):
    tmp = tempfile.mkdtemp(prefix="steppe-load-")
    db = os.path.join(tmp, "load.db")
    # The load test creates every game from one address: lift the creation limit.
    cmd = [path, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db, "--create-per-minute", "0"] + extra
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = None
    t_end = time.monotonic() + 20
    lines = []
    while time.monotonic() < t_end:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"(http://127\.0\.0\.1:\d+)/?", line)
        if m:
            url = m.group(1)
            break
    if url is None:
        proc.kill()
        proc.wait()
        sys.exit("loadtest: the spawned server printed no address:\n" + "".join(lines))
    # Keep draining its output so it never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc, url, tmp


def proc_cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    except (OSError, ValueError, IndexError):
        return None


def stop_server(proc, tmp):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="server base URL, loopback only, e.g. http://127.0.0.1:8080")
    ap.add_argument("--spawn", metavar="STEPPE", help="start `STEPPE serve` on 127.0.0.1 with a temporary database and stop it at the end")
    ap.add_argument("--spawn-arg", action="append", default=[], help="extra argument for the spawned server (repeatable)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--actions", type=int, default=50, help="actions each client sends at most")
    ap.add_argument("--game", default="bd")
    ap.add_argument("--scenario", default="citadel")
    ap.add_argument("--seconds", type=float, default=90, help="overall bound; everything stops after it")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pick", choices=["random", "first"], default="random", help="which legal action to send")
    ap.add_argument("--poll", type=float, default=0.05, help="mean seconds between view polls while waiting")
    ap.add_argument("--timeout", type=float, default=30, help="socket timeout per request, seconds")
    ap.add_argument("--procs", type=int, default=4, help="client processes (one Python process is GIL-bound near 100 req/s)")
    ap.add_argument("--create-threads", type=int, default=8)
    ap.add_argument("--max-error-rate", type=float, default=0.0, help="exit 1 if errors / requests exceeds this")
    args = ap.parse_args()

    if bool(args.url) == bool(args.spawn):
        ap.error("give exactly one of --url or --spawn")
    proc = tmp = None
    if args.spawn:
        proc, url, tmp = spawn_server(args.spawn, args.spawn_arg)
    else:
        url = args.url
    u = urllib.parse.urlsplit(url)
    if u.scheme != "http" or not u.hostname:
        ap.error("--url must be http://HOST:PORT")
    if not loopback_host(u.hostname):
        ap.error("refusing non-loopback host %r (only 127.0.0.0/8, localhost, ::1)" % u.hostname)
    host, port = u.hostname, u.port or 80

    t_start = time.monotonic()
    deadline = t_start + args.seconds
    stats = Stats()
    try:
        # Check the server and the scenario.
        c = Client(host, port, args.timeout)
        try:
            st, doc, _ = c.request("GET", "/api/catalog")
        except (OSError, http.client.HTTPException) as e:
            sys.exit("loadtest: cannot reach %s: %s" % (url, e))
        c.close()
        if st != 200 or not doc:
            sys.exit("loadtest: GET /api/catalog answered %d" % st)
        games = {g["id"]: g for g in doc.get("games", [])}
        g = games.get(args.game)
        if not g or not g.get("available") or args.scenario not in [s["id"] for s in g.get("scenarios", [])]:
            sys.exit("loadtest: %s/%s is not an available game/scenario" % (args.game, args.scenario))

        # Create the games (a few threads in parallel).
        created = []
        todo = list(range(args.games))
        todo_lock = threading.Lock()

        def creator():
            cc = Client(host, port, args.timeout)
            while time.monotonic() < deadline:
                with todo_lock:
                    if not todo:
                        break
                    i = todo.pop()
                body = {"game": args.game, "scenario": args.scenario, "seed": args.seed * 100000 + i}
                try:
                    st, doc, ms = cc.request("POST", "/api/games", body=body)
                except (OSError, http.client.HTTPException) as e:
                    stats.error("create: transport %s" % type(e).__name__)
                    cc.close()
                    continue
                stats.record(stats.create_ms, ms, "POST /api/games", "-")
                if st != 200 or not doc or not doc.get("ok"):
                    stats.error("create: " + error_kind(st, doc))
                    continue
                tokens = [s.get("token") for s in doc["seats"]]
                with todo_lock:
                    created.append((i, doc["game"]["id"], tokens))
            cc.close()

        cts = [threading.Thread(target=creator, daemon=True) for _ in range(max(1, args.create_threads))]
        for t in cts:
            t.start()
        for t in cts:
            t.join(max(0.0, deadline - time.monotonic()))
        t_created = time.monotonic()

        # Run two clients per game, in --procs worker processes (each with its own GIL).
        t_play = time.monotonic()
        chunks = [sorted(created)[k::max(1, args.procs)] for k in range(max(1, args.procs))]
        if args.procs <= 1:
            still_running = play(args, host, port, chunks[0], deadline, stats)
            n_clients = sum(1 for c in chunks[0] for t in c[2] if t)
        else:
            ctx = multiprocessing.get_context("fork")
            q = ctx.Queue()
            workers = [ctx.Process(target=play_worker, args=(args, host, port, c, deadline, q), daemon=True)
                       for c in chunks if c]
            for w in workers:
                w.start()
            still_running = 0
            for _ in workers:
                try:
                    part = q.get(timeout=max(1.0, deadline + args.timeout + 5 - time.monotonic()))
                except queue.Empty:
                    stats.error("worker process did not report")
                    continue
                still_running += stats.merge(part)
            for w in workers:
                w.join(5)
                if w.is_alive():
                    w.kill()
                    w.join()
            n_clients = sum(1 for c in created for t in c[2] if t)
        t_end = time.monotonic()
        server_cpu = proc_cpu_seconds(proc.pid) if proc is not None else None
    finally:
        if proc is not None:
            stop_server(proc, tmp)

    play_s = max(1e-9, (stats.last_action or t_end) - t_play)
    with stats.lock:
        errors = sum(stats.errors.values())
        n_actions = len(stats.action_ms)
        print("server        %s%s" % (url, " (spawned)" if proc else ""))
        print("scenario      %s/%s, seed base %d, pick %s" % (args.game, args.scenario, args.seed, args.pick))
        print("games         %d created of %d (%.1f s)" % (len(created), args.games, t_created - t_start))
        print("clients       %d in %d process(es) (%d still running at the end)" % (n_clients, max(1, args.procs), still_running))
        print("actions sent  %d (%d accepted), %.1f actions/s (first client start to last answer, %.1f s)" % (
            n_actions, stats.actions_ok, n_actions / play_s, play_s))
        print("finished      %d client(s) saw their game end" % stats.games_finished)
        print("requests      %d (%.1f/s)" % (stats.requests, stats.requests / max(1e-9, t_end - t_start)))
        print(summary("POST action", stats.action_ms))
        print(summary("GET view", stats.view_ms))
        print(summary("POST games", stats.create_ms))
        for ep, bucket in (("POST /action", stats.action_ms), ("GET /view", stats.view_ms)):
            if bucket:
                print("  mean answer %-13s %.0f bytes" % (ep, stats.bytes[ep] / len(bucket)))
        ct = os.times()
        wall = t_end - t_start
        line = "cpu           load tool %.1f s" % (ct.user + ct.system + ct.children_user + ct.children_system)
        if server_cpu is not None:
            line += ", server %.1f s" % server_cpu
        print(line + " over %.1f s wall on %d CPU(s)" % (wall, os.cpu_count() or 0))
        if stats.over_5s:
            print("over 5 s      " + ", ".join("%d %s" % (n, ep) for ep, n in stats.over_5s.most_common()))
        print("errors        %d" % errors)
        for kind, n in stats.errors.most_common():
            print("  %6d  %s" % (n, kind))
        slow = sorted(stats.slowest, reverse=True)[:5]
        if slow:
            print("slowest       " + "; ".join("%.0f ms %s %s" % s for s in slow))
        rate = errors / max(1, stats.requests)
    if rate > args.max_error_rate:
        print("FAIL: error rate %.4f > %.4f" % (rate, args.max_error_rate))
        return 1
    if not created or n_actions == 0:
        print("FAIL: nothing was played")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The page's 5x5 promise, measured: starts `slide serve` (its default 2 s budget; by default an empty table cache,
as a new user's server, whose 5x5 pattern databases are then being built in the background while it answers from
linear conflicts), asks it for seeded 5x5 scrambles (/api/scramble?shape=5x5&seed=S) one at a time, solves each
through /api/solve, replays every solution to the goal, and reports per board the length, the proven lower bound L,
the mark (bound W or fast mode) and the seconds; then the mean of length / L, the issue's target being at most 1.25.

With --cache-dir DIR (for example ~/.cache/slide, where `slide solve` keeps them) and --wait, the server first loads
(or builds) the shape's pattern databases, the script waiting for GET /api/status to say ready: the figure of a
server whose databases exist.

    scripts/fallback-5x5.py [--seeds 20] [--shape 5x5] [--binary target/release/slide] [--cache-dir DIR] [--wait]
                            [-- extra serve flags]
"""
import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time


def request(host, port, method, path, body=None):
    conn = http.client.HTTPConnection(host, port, timeout=60)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    data = r.read()
    conn.close()
    if r.status != 200:
        raise SystemExit(f"{method} {path}: {r.status} {data!r}")
    return json.loads(data)


def replay(board, solution):
    """Slides each tile into the blank; every move must be legal and the goal (1..n-1, blank last) reached."""
    rows, cols = len(board), len(board[0])
    b = [t for row in board for t in row]
    for t in solution:
        blank, at = b.index(0), b.index(t)
        if abs(blank // cols - at // cols) + abs(blank % cols - at % cols) != 1:
            raise SystemExit(f"illegal move {t} in the solution of {board}")
        b[blank], b[at] = b[at], b[blank]
    if b != list(range(1, rows * cols)) + [0]:
        raise SystemExit(f"the solution of {board} does not reach the goal")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--shape", default="5x5")
    ap.add_argument("--binary", default="target/release/slide")
    ap.add_argument("--cache-dir", help="the server's table cache (default: a new empty directory)")
    ap.add_argument("--wait", action="store_true", help="wait for the shape's databases before measuring")
    ap.add_argument("serve_args", nargs="*")
    args = ap.parse_args()

    env = dict(os.environ, SLIDE_CACHE_DIR=os.path.expanduser(args.cache_dir) if args.cache_dir else tempfile.mkdtemp())
    server = subprocess.Popen([args.binary, "--quiet", "serve", "--port", "0", "--threads", "1", *args.serve_args],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        line = server.stdout.readline()
        url = next(w for w in line.split() if w.startswith("http://"))
        host, port = url[len("http://"):].rstrip("/").rsplit(":", 1)
        port = int(port)
        rows, cols = (int(x) for x in args.shape.split("x"))

        def status():
            for b in request(host, port, "GET", "/api/status")["builds"]:
                if b["shape"] == args.shape and b["metric"] == "stm" and b["blank"] == rows * cols - 1:
                    return b
            return None

        if args.wait:
            board = request(host, port, "GET", f"/api/scramble?shape={args.shape}&seed=0")["board"]
            request(host, port, "POST", "/api/solve", {"board": board})  # asks for the databases
            start = time.monotonic()
            while True:
                b = status()
                if b is None or b["state"] in ("ready", "failed", "off"):
                    break
                print(f"  {b['state']} {b['what']}: {100 * b['fraction']:.0f} % ({b['step']} of {b['steps']})",
                      file=sys.stderr, flush=True)
                time.sleep(5)
            print(f"{args.shape} databases: {b and b['state']} after {time.monotonic() - start:.1f} s"
                  + (f" ({b['error']})" if b and "error" in b else ""), flush=True)
        ratios, worst_seconds, marks = [], 0.0, {}
        print(f"{'seed':>4} {'moves':>5} {'L':>4} {'len/L':>6} {'mark':>12} {'seconds':>7}")
        for seed in range(1, args.seeds + 1):
            board = request(host, port, "GET", f"/api/scramble?shape={args.shape}&seed={seed}")["board"]
            t = time.monotonic()
            v = request(host, port, "POST", "/api/solve", {"board": board, "moves": True})
            seconds = time.monotonic() - t
            replay(board, v["solution"])
            n = v["moves"]
            lower = n if v["optimal"] else v["lower_bound"]
            if v["optimal"]:
                mark = "optimal"
            elif "bound" in v:
                mark = f"bound {v['bound']:.3f}"
            else:
                mark = v.get("method", "?")
            marks[mark.split()[0]] = marks.get(mark.split()[0], 0) + 1
            ratios.append(n / lower)
            worst_seconds = max(worst_seconds, seconds)
            print(f"{seed:>4} {n:>5} {lower:>4} {n / lower:>6.3f} {mark:>12} {seconds:>7.2f}", flush=True)
        mean = sum(ratios) / len(ratios)
        b = status()
        print(f"{args.shape} databases at the end: {b and b['state']}", flush=True)
        print(f"{args.shape}, {len(ratios)} seeds: mean len/L {mean:.3f} (target <= 1.25), worst {max(ratios):.3f}, "
              f"slowest answer {worst_seconds:.2f} s, marks {marks}")
        return 0 if mean <= 1.25 else 1
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())

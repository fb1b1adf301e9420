#!/usr/bin/env python3
"""Load test of `slide serve` on loopback: many concurrent clients for a bounded time, mixing valid 2x3 solves,
invalid bodies and oversized bodies. Reports requests per second, the p50/p99 latency of valid 2x3 requests, the
status codes seen, and the server's peak memory (from /proc). Stops by itself.

    scripts/load-serve.py [--clients 200] [--seconds 30] [--binary target/release/slide]
"""
import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--binary", default="target/release/slide")
    args = ap.parse_args()

    cache = tempfile.mkdtemp()
    env = dict(os.environ, SLIDE_CACHE_DIR=cache)
    server = subprocess.Popen([args.binary, "--quiet", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        line = server.stdout.readline()
        url = next(w for w in line.split() if w.startswith("http://"))
        hostport = url[len("http://"):].rstrip("/")
        host, port = hostport.rsplit(":", 1)
        port = int(port)

        boards = []
        for a in range(6):
            for b in range(6):
                tiles = list(range(6))
                random.Random(a * 6 + b).shuffle(tiles)
                boards.append([tiles[:3], tiles[3:]])
        invalid = [b'{"board": "[[1,2],[3]]"}', b'{"board": [[1,2,3],[4,4,0]]}', b'not json', b'{"board": 1.5}',
                   b'{"board": "' + b'[' * 5000 + b'"}', b'{}', b'\xff\xfe']
        oversized = b'{"board": "' + b'1 ' * 40000 + b'"}'

        stop = time.monotonic() + args.seconds
        lock = threading.Lock()
        latencies = []
        codes = {}
        errors = [0]
        total = [0]

        def client(i):
            rng = random.Random(i)
            conn = None
            while time.monotonic() < stop:
                kind = rng.random()
                if kind < 0.7:
                    body, valid = json.dumps({"board": rng.choice(boards), "moves": True}).encode(), True
                elif kind < 0.9:
                    body, valid = rng.choice(invalid), False
                else:
                    body, valid = oversized, False
                t0 = time.monotonic()
                try:
                    if conn is None:
                        conn = http.client.HTTPConnection(host, port, timeout=30)
                    conn.request("POST", "/api/solve", body=body, headers={"Content-Type": "application/json"})
                    resp = conn.getresponse()
                    resp.read()
                    code = resp.status
                    if resp.getheader("Connection", "").lower() == "close" or code == 413:
                        conn.close()
                        conn = None
                except Exception:
                    code = "error"
                    if conn is not None:
                        conn.close()
                    conn = None
                dt = time.monotonic() - t0
                with lock:
                    total[0] += 1
                    codes[code] = codes.get(code, 0) + 1
                    if valid and code == 200:
                        latencies.append(dt)
                    if code == "error":
                        errors[0] += 1

        peak = [0]

        def watch():
            while time.monotonic() < stop:
                try:
                    with open(f"/proc/{server.pid}/status") as f:
                        for l in f:
                            if l.startswith("VmRSS:"):
                                peak[0] = max(peak[0], int(l.split()[1]))
                except OSError:
                    pass
                time.sleep(0.2)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        w = threading.Thread(target=watch)
        t0 = time.monotonic()
        w.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        w.join()
        elapsed = time.monotonic() - t0
        alive = server.poll() is None
        latencies.sort()

        def pct(p):
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

        print(f"clients {args.clients}, {elapsed:.1f} s, requests {total[0]} ({total[0] / elapsed:.0f}/s)")
        print(f"status codes: {dict(sorted(codes.items(), key=lambda kv: str(kv[0])))}")
        print(f"valid 2x3 solves: {len(latencies)}, p50 {pct(0.50):.2f} ms, p99 {pct(0.99):.2f} ms")
        print(f"server alive after the run: {alive}; peak RSS {peak[0] / 1024:.1f} MB; client errors {errors[0]}")
        ok = alive and errors[0] == 0 and latencies
        print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
        return 0 if ok else 1
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())

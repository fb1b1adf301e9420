#!/usr/bin/env python3
"""Stalled-connection test of `slide serve` on loopback: can clients that never finish their requests hold it?

Starts the release binary on 127.0.0.1, port 0, with an empty table cache; opens --connections connections
(default 2000) that each send part of a request and then stall (half the headers, headers and half a body,
nothing at all, or 15 KB of headers); while they are held, measures the latency of normal solves (2x3 and 3x3 boards, each on a new
connection); samples the server's thread count and resident memory from /proc/PID/status; then waits for the
server to close every stalled connection itself. Prints the figures and exits non-zero when a target is missed:

- p99 latency of the normal solves under --p99-ms (100 ms), none failed;
- every stalled connection still open while the solves ran (held, not refused), and closed by the server within
  --close-within seconds (30 s) of being opened;
- at most 4 x cores + 16 threads; peak resident memory under --max-rss-mb (256 MB);
- the server still answers afterwards.

Bounded: at most 20,000 connections, and the whole run stops after --close-within + the solve phase + 30 s.
Standard library only; Linux (/proc). Raises its own open-file limit (the server inherits it) as needed.

    scripts/stall-serve.py [--connections 2000] [--solve-seconds 5] [--binary target/release/slide]
"""
import argparse
import http.client
import json
import os
import random
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time

MAX_CONNECTIONS = 20_000


def proc_status(pid):
    """Threads and VmRSS (kB) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["Threads"]), int(fields["VmRSS"].split()[0])
    except (OSError, KeyError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--connections", type=int, default=2000)
    ap.add_argument("--solve-seconds", type=float, default=5.0)
    ap.add_argument("--solvers", type=int, default=2, help="client threads asking for normal solves")
    ap.add_argument("--close-within", type=float, default=30.0)
    ap.add_argument("--p99-ms", type=float, default=100.0)
    ap.add_argument("--max-rss-mb", type=float, default=256.0)
    ap.add_argument("--binary", default="target/release/slide")
    args = ap.parse_args()
    if not 1 <= args.connections <= MAX_CONNECTIONS:
        sys.exit(f"--connections must be between 1 and {MAX_CONNECTIONS}")
    if not 0 < args.solve_seconds < args.close_within:
        sys.exit("--solve-seconds must be positive and below --close-within")

    # Room for our end of every connection, the server's end, and some more (the server inherits the limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.connections * 2 + 512
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        if new < want:
            print(f"warning: open-file limit {new} < {want}: some connections may fail", file=sys.stderr)

    cores = os.cpu_count() or 1
    max_threads = 4 * cores + 16
    cache = tempfile.mkdtemp()
    env = dict(os.environ, SLIDE_CACHE_DIR=cache)
    server = subprocess.Popen([args.binary, "--quiet", "serve", "--bind", "127.0.0.1", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    stalled = []
    try:
        line = server.stdout.readline()
        url = next(w for w in line.split() if w.startswith("http://"))
        host, port = url[len("http://"):].rstrip("/").rsplit(":", 1)
        port = int(port)
        assert host == "127.0.0.1", url
        hostport = f"{host}:{port}"

        rng = random.Random(1)
        boards = []
        for rows, cols in [(2, 3), (3, 3)]:
            for _ in range(40):
                tiles = list(range(rows * cols))
                rng.shuffle(tiles)
                boards.append([tiles[r * cols:(r + 1) * cols] for r in range(rows)])

        def solve(board):
            """One solve on a new connection: (seconds, ok)."""
            t0 = time.monotonic()
            try:
                conn = http.client.HTTPConnection(host, port, timeout=30)
                conn.request("POST", "/api/solve", body=json.dumps({"board": board, "moves": True}),
                             headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                body = json.loads(resp.read())
                conn.close()
                ok = resp.status == 200 and (body["moves"] == -1 or body["optimal"])
            except Exception as e:  # noqa: BLE001 - any failure counts
                print(f"solve failed: {e!r}", file=sys.stderr)
                ok = False
            return time.monotonic() - t0, ok

        # Warm up (the first 2x3 and 3x3 boards queue their table builds); not measured.
        for b in boards[:1] + boards[40:41]:
            solve(b)
        time.sleep(0.5)
        base = proc_status(server.pid)

        # The stalled connections.
        partial = [
            f"POST /api/solve HTTP/1.1\r\nHost: {hostport}\r\nContent-Le".encode(),
            (f"POST /api/solve HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\n"
             f"Content-Length: 40\r\n\r\n{{\"board\":").encode(),
            b"",
            # Nearly as much header as the server takes (16 KiB): the most memory one stalled connection holds.
            f"GET / HTTP/1.1\r\nHost: {hostport}\r\nX-Pad: {'a' * 15000}\r\nX-Mo".encode(),
        ]
        t_open = time.monotonic()
        open_failures = 0
        for i in range(args.connections):
            try:
                s = socket.create_connection((host, port), timeout=10)
                s.sendall(partial[i % len(partial)])
                s.setblocking(False)
                stalled.append((s, time.monotonic()))
            except OSError as e:
                open_failures += 1
                if open_failures == 1:
                    print(f"could not open a stalled connection: {e!r}", file=sys.stderr)
        opened_in = time.monotonic() - t_open

        # Normal solves while they are held.
        stop = time.monotonic() + args.solve_seconds
        lock = threading.Lock()
        latencies, failed = [], [0]
        peak = {"threads": 0, "rss": 0}

        def client(i):
            r = random.Random(100 + i)
            while time.monotonic() < stop:
                dt, ok = solve(r.choice(boards))
                with lock:
                    if ok:
                        latencies.append(dt)
                    else:
                        failed[0] += 1

        def watch(until):
            while time.monotonic() < until():
                st = proc_status(server.pid)
                if st:
                    peak["threads"] = max(peak["threads"], st[0])
                    peak["rss"] = max(peak["rss"], st[1])
                time.sleep(0.1)

        done = [False]
        watcher = threading.Thread(target=watch, args=(lambda: float("inf") if not done[0] else 0,))
        watcher.start()
        clients = [threading.Thread(target=client, args=(i,)) for i in range(args.solvers)]
        for t in clients:
            t.start()
        for t in clients:
            t.join()

        # Were they held? A peek on an open, silent connection would block.
        held = 0
        for s, _ in stalled:
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    continue  # closed already
                held += 1  # an answer (a 408 for a half body) is there, but the connection is open
            except BlockingIOError:
                held += 1
            except OSError:
                pass

        # Wait for the server to close them all.
        sel = selectors.DefaultSelector()
        for s, t in stalled:
            sel.register(s, selectors.EVENT_READ, t)
        close_times = []
        deadline = t_open + opened_in + args.close_within + 5
        while sel.get_map() and time.monotonic() < deadline:
            for key, _ in sel.select(timeout=0.5):
                s = key.fileobj
                try:
                    data = s.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    close_times.append(time.monotonic() - key.data)
                    sel.unregister(s)
        still_open = len(sel.get_map())
        sel.close()
        done[0] = True
        watcher.join()
        after = proc_status(server.pid)
        dt, after_ok = solve(boards[3])
        alive = server.poll() is None and after_ok

        latencies.sort()

        def pct(p):
            return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("inf")

        worst_close = max(close_times) if close_times else float("inf")
        print(f"server {url} on {cores} cores; {args.connections} stalled connections opened in {opened_in:.2f} s "
              f"({open_failures} failed to open)")
        print(f"normal solves while they were held: {len(latencies)} ok, {failed[0]} failed, "
              f"p50 {pct(0.50):.2f} ms, p99 {pct(0.99):.2f} ms, max {pct(1.0):.2f} ms")
        print(f"stalled connections still open after the solves: {held} of {len(stalled)}; closed by the server: "
              f"{len(close_times)}, {still_open} still open; time to close: "
              f"min {min(close_times, default=float('nan')):.1f} s, max {worst_close:.1f} s")
        print(f"server threads: {base[0] if base else '?'} before, peak {peak['threads']}, "
              f"{after[0] if after else '?'} after (bound {max_threads}); RSS {base[1] / 1024 if base else 0:.1f} MB "
              f"before, peak {peak['rss'] / 1024:.1f} MB, {after[1] / 1024 if after else 0:.1f} MB after")
        print(f"server answers afterwards: {alive}")

        misses = []
        if failed[0] or not latencies:
            misses.append("some normal solves failed")
        if pct(0.99) >= args.p99_ms:
            misses.append(f"p99 {pct(0.99):.1f} ms >= {args.p99_ms} ms")
        if open_failures or held < len(stalled):
            misses.append("not every stalled connection was held open while the solves ran")
        if still_open or worst_close > args.close_within:
            misses.append(f"stalled connections not all closed within {args.close_within} s")
        if peak["threads"] > max_threads:
            misses.append(f"{peak['threads']} threads > {max_threads}")
        if peak["rss"] / 1024 > args.max_rss_mb:
            misses.append(f"peak RSS {peak['rss'] / 1024:.0f} MB > {args.max_rss_mb} MB")
        if not alive:
            misses.append("the server no longer answers")
        for m in misses:
            print(f"MISSED: {m}")
        print("0 passed, 1 failed" if misses else "1 passed, 0 failed")
        return 1 if misses else 0
    finally:
        for s, _ in stalled:
            s.close()
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmarks of the Python package (issue 15's targets), run in the environment scripts/test-python.sh makes:

    target/py-venv/bin/python scripts/bench-python.py [--quick] [--korf100 FILE] [--korf24 FILE --korf24-id 40]
        [--compare-slidingpuzzle] [--split45 SEED]

1. slide.distances over 1,000,000 random 2 x 3 boards (one int64 array): boards per second (target 20 M/s).
2. slide.sliding_puzzle per call from Python against a plain Python BFS per board (the classic LeetCode solution,
   written below) on the same 2 x 3 boards; with --compare-slidingpuzzle (pip install slidingpuzzle) also against
   PyPI slidingpuzzle's A* (Manhattan) on the same 3 x 3 boards (1,000; --quick: 30) and 4 x 4 boards (20 random
   walks of 30 moves: its A* cannot take uniformly random 4 x 4 boards): per-board times and ratios, answers equal.
3. With --korf100 FILE (lines `id optimal nodes t0..t15`, goal blank first): slide.ray.solve_many on Korf's 100 on a
   local Ray with 1 worker process, then 2 (chunks of 5 boards, best of 3 runs): seconds, speedup (target 1.7x),
   every length equal to the published one.
4. With --korf24 FILE: slide.ray.solve of one 24-puzzle instance (--korf24-id, default 40) split into --tasks
   (default 16) tasks per threshold on a local 2-CPU Ray, against slide.solve (the local parallel search, as
   `slide solve` runs it): lengths (equal to the published one) and the overhead. Builds the 6-6-6-6 pattern
   databases first if they are not in SLIDE_CACHE_DIR (about 5 minutes on 2 cores, 2.5 GB of memory).
   --split45 SEED does the same with a random 4 x 5 board (its databases build in seconds; seed 5: 77 moves).

Pattern databases go to SLIDE_CACHE_DIR (default target/py-cache, as the tests). The local Ray clusters listen on
127.0.0.1 only (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0, which makes Ray take the loopback address as the node's).
"""

import argparse
import os
import pathlib
import random
import time
from collections import deque

ROOT = pathlib.Path(__file__).resolve().parents[1]
os.environ.setdefault("SLIDE_CACHE_DIR", str(ROOT / "target" / "py-cache"))
# The local Ray clusters below on the loopback address only (127.0.0.1): set before Ray is imported.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import numpy as np  # noqa: E402

import slide  # noqa: E402


def python_bfs(board):
    """LeetCode 773 the usual way: a breadth-first search from the board, over strings, per call."""
    rows, cols = len(board), len(board[0])
    start = "".join(str(v) for row in board for v in row)
    goal = "".join(str(v) for v in list(range(1, rows * cols)) + [0])
    nbrs = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        nbrs.append([j for j, ok in ((i - cols, r > 0), (i + cols, r < rows - 1), (i - 1, c > 0), (i + 1, c < cols - 1)) if ok])
    seen = {start}
    q = deque([(start, 0)])
    while q:
        s, d = q.popleft()
        if s == goal:
            return d
        z = s.index("0")
        for j in nbrs[z]:
            t = list(s)
            t[z], t[j] = t[j], t[z]
            t = "".join(t)
            if t not in seen:
                seen.add(t)
                q.append((t, d + 1))
    return -1


def per_call(f, boards):
    t = time.perf_counter()
    out = [f(b) for b in boards]
    return out, (time.perf_counter() - t) / len(boards)


def bench_distances(quick):
    n = 1_000_000
    rng = np.random.default_rng(1)
    boards = np.argsort(rng.random((n, 6)), axis=1).reshape(n, 2, 3).astype(np.int64)
    slide.distances(boards[:10])  # the table, built once
    best = float("inf")
    for _ in range(3 if quick else 7):
        t = time.perf_counter()
        d = slide.distances(boards)
        best = min(best, time.perf_counter() - t)
    print(f"distances: {n:,} random 2x3 boards (int64, (N,2,3)) in {best * 1e3:.1f} ms: {n / best / 1e6:.1f} M boards/s "
          f"(best of runs; {int((d == -1).sum()):,} unsolvable)")
    b8 = boards.astype(np.uint8)
    t = time.perf_counter()
    d8 = slide.distances(b8)
    t = time.perf_counter() - t
    assert (d8 == d).all()
    print(f"distances: the same as uint8: {n / t / 1e6:.1f} M boards/s")
    return boards


def bench_sliding_puzzle(boards23, quick, compare):
    sample = [b.tolist() for b in boards23[: 2000 if quick else 20000]]
    ours, t_ours = per_call(slide.sliding_puzzle, sample)
    ref, t_ref = per_call(python_bfs, sample[: 300 if quick else 2000])
    assert ours[: len(ref)] == ref
    print(f"sliding_puzzle 2x3: {t_ours * 1e6:.2f} us per call; Python BFS per board {t_ref * 1e3:.3f} ms: "
          f"{t_ref / t_ours:.0f}x")
    if not compare:
        return
    import slidingpuzzle as sp

    def theirs(board):
        if not sp.is_solvable(np.array(board)):
            return -1
        return len(sp.search(np.array(board), "a*", heuristic=sp.manhattan_distance).solution)

    n33 = 30 if quick else 1000
    b33 = slide.scramble("3x3", n33, seed=33)
    slide.sliding_puzzle(b33[0])  # the 3 x 3 table, built once
    ours, t_ours = per_call(slide.sliding_puzzle, b33)
    them, t_them = per_call(theirs, b33)
    assert ours == them, "slidingpuzzle's A* disagrees"
    print(f"3x3, {n33} random boards: slide {t_ours * 1e6:.2f} us per board, slidingpuzzle A* {t_them * 1e3:.1f} ms: "
          f"{t_them / t_ours:,.0f}x")
    b44 = [slide.scramble("4x4", seed=44 + i, walk=30) for i in range(20)]
    slide.solve(b44[0])  # pattern databases, loaded once
    ours, t_ours = per_call(lambda b: slide.solve(b).distance, b44)
    them, t_them = per_call(theirs, b44)
    assert ours == them, "slidingpuzzle's A* disagrees"
    print(f"4x4, 20 walks of 30 moves: slide.solve {t_ours * 1e3:.2f} ms per board, slidingpuzzle A* "
          f"{t_them * 1e3:.0f} ms: {t_them / t_ours:,.0f}x")


def read_set(path, side):
    out = []
    for line in pathlib.Path(path).read_text().splitlines():
        f = line.split()
        if not f or not f[0].isdigit():
            continue
        tiles = [int(x) for x in f[3:]]
        out.append((int(f[0]), int(f[1]), [tiles[r * side : (r + 1) * side] for r in range(side)]))
    return out


def bench_korf100(path):
    import ray

    import slide.ray as sray

    inst = read_set(path, 4)
    goal = [[4 * r + c for c in range(4)] for r in range(4)]
    boards = [b for _, _, b in inst]
    slide.solve(boards[0], goal)  # builds the pattern databases into the cache once
    times = {}
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        try:
            sray.solve_many(boards[:4], goal, chunk_size=1)  # start the workers, load their databases
            times[cpus] = float("inf")
            for _ in range(3):  # best of three: the machine may be shared
                t = time.perf_counter()
                out = sray.solve_many(boards, goal, chunk_size=5)
                times[cpus] = min(times[cpus], time.perf_counter() - t)
        finally:
            ray.shutdown()
        bad = [i for (i, opt, _), s in zip(inst, out) if s.distance != opt or not s.optimal]
        print(f"korf100 on Ray, {cpus} worker(s): {times[cpus]:.2f} s, {len(inst) - len(bad)} of {len(inst)} equal to "
              f"the published length" + (f" (wrong: {bad})" if bad else ""))
    print(f"korf100 on Ray: 2 workers against 1: {times[1] / times[2]:.2f}x")


def bench_split(name, board, goal, tasks, published=None):
    """slide.ray.solve of one board on a local 2-CPU Ray against slide.solve (the local parallel search)."""
    import ray

    import slide.ray as sray

    t = time.perf_counter()
    slide.solve(board, goal, max_nodes=0)
    print(f"{name}: pattern databases ready in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    local = slide.solve(board, goal)
    t_local = time.perf_counter() - t
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        sray.solve_many([board, board], goal, max_nodes=0, chunk_size=1)  # workers with their databases loaded
        t = time.perf_counter()
        dist = sray.solve(board, goal, tasks=tasks)
        t_ray = time.perf_counter() - t
    finally:
        ray.shutdown()
    pub = f" (published {published})" if published is not None else ""
    print(f"{name}{pub}: slide.solve {local.distance} in {t_local:.2f} s ({local.nodes:,} nodes); "
          f"slide.ray.solve tasks={tasks}: {dist.distance} in {t_ray:.2f} s ({dist.nodes:,} nodes): "
          f"{t_ray / t_local:.2f}x the local time")
    assert local.distance == dist.distance and local.optimal and dist.optimal
    assert published is None or dist.distance == published


def bench_korf24(path, ident, tasks):
    inst = {i: (opt, b) for i, opt, b in read_set(path, 5)}
    opt, board = inst[ident]
    goal = [[5 * r + c for c in range(5)] for r in range(5)]
    bench_split(f"korf24 #{ident}", board, goal, tasks, opt)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer boards and runs")
    ap.add_argument("--compare-slidingpuzzle", action="store_true", help="also time PyPI slidingpuzzle")
    ap.add_argument("--korf100", metavar="FILE")
    ap.add_argument("--korf24", metavar="FILE")
    ap.add_argument("--korf24-id", type=int, default=40)
    ap.add_argument("--tasks", type=int, default=16)
    ap.add_argument("--split45", type=int, metavar="SEED", help="slide.ray.solve of slide.scramble('4x5', seed=SEED)")
    a = ap.parse_args()
    random.seed(1)
    boards = bench_distances(a.quick)
    bench_sliding_puzzle(boards, a.quick, a.compare_slidingpuzzle)
    if a.korf100:
        bench_korf100(a.korf100)
    if a.split45 is not None:
        board = slide.scramble("4x5", seed=a.split45)
        bench_split(f"4x5 scramble seed {a.split45}", board, None, a.tasks)
    if a.korf24:
        bench_korf24(a.korf24, a.korf24_id, a.tasks)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The seed's own problem at memory speed (issue 49, item 5): every contender for the distances of many random
2 x 3 boards, in one process, on one array, with the ratios and the machine's load. Run it in the environment
scripts/test-python.sh makes (the installed wheel, with numpy):

    target/py-venv/bin/python scripts/bench-2x3.py [--boards 10000000] [--repeat 5] [--calls 200000]

1. Throughput over N random 2 x 3 boards (int64, shape (N, 2, 3), C order), best of --repeat runs:
   - slide.distances on the int64 array, and on the same boards as int32 and uint8 (converted before timing: both
     are read in place), every board validated;
   - the ten-line NumPy user: a base-6 index by one matrix product, one gather from a 46,656-entry table (no
     validation);
   - a NumPy Lehmer rank (vectorised) and a gather from a 720-entry table;
   - a Python dict from the board's tuple to its distance (on the first 1,000,000 boards: it is slow);
   - the bandwidth references: numpy.sum of the array (reads its 48 bytes a board once) and a copy of it into a
     second array (reads and writes them).
2. Per call from Python lists of rows (--calls boards): slide.sliding_puzzle against a Python function doing one dict
   lookup (the board's two rows made a tuple), and against a generic one (the board flattened by a generator).

Targets: distances on int64 at least 2x the NumPy gather; sliding_puzzle per call no slower than the dict lookup.
"""

import argparse
import itertools
import os
import subprocess
import time

import numpy as np

import slide


def best(f, repeat):
    """The least wall time of `repeat` calls of f, and its last result."""
    t, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - t0)
    return t, out


def load():
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load average: %.2f, %.2f, %.2f" % os.getloadavg()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calls", type=int, default=200_000)
    args = ap.parse_args()
    n = args.boards
    print(f"before: {load()}")
    print(f"slide {slide.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs, {n:,} boards")

    perms = np.array(list(itertools.permutations(range(6))), dtype=np.int64)
    rng = np.random.default_rng(1)
    boards = perms[rng.integers(0, len(perms), n)].reshape(n, 2, 3)
    # The reference answers, from slide itself, for the tables the NumPy and dict users build once.
    dist720 = slide.distances(perms.reshape(-1, 2, 3))
    powers = 6 ** np.arange(5, -1, -1, dtype=np.int64)
    table6 = np.full(6**6, -1, dtype=np.int8)
    table6[perms @ powers] = dist720
    fact = np.array([120, 24, 6, 2, 1, 1], dtype=np.int64)

    def lehmer_rank(flat):
        rank = np.zeros(len(flat), dtype=np.int64)
        for i in range(5):
            smaller = (flat[:, i + 1 :] < flat[:, i : i + 1]).sum(axis=1)
            rank += smaller * fact[i]
        return rank

    table720 = np.empty(720, dtype=np.int8)
    table720[lehmer_rank(perms)] = dist720
    as_dict = {tuple(p): int(d) for p, d in zip(perms.tolist(), dist720)}

    flat = boards.reshape(n, 6)
    b32 = boards.astype(np.int32)
    b8 = boards.astype(np.uint8)
    copy_to = np.empty_like(boards)
    r = args.repeat
    rows = []

    def row(name, seconds, count, out=None, bytes_per_board=48):
        rows.append((name, count / seconds, bytes_per_board))
        if out is not None:
            want = table6[flat[:count] @ powers]
            assert (np.asarray(out) == want).all(), name

    t, out = best(lambda: slide.distances(boards), r)
    row("slide.distances int64", t, n, out)
    t, out = best(lambda: slide.distances(b32), r)
    row("slide.distances int32", t, n, out, 24)
    t, out = best(lambda: slide.distances(b8), r)
    row("slide.distances uint8", t, n, out, 6)
    t, out = best(lambda: table6[flat @ powers], r)
    row("numpy base-6 gather (no validation)", t, n, out)
    t, out = best(lambda: table720[lehmer_rank(flat)], max(1, r // 3))
    row("numpy Lehmer rank + gather", t, n, out)
    m = min(n, 1_000_000)
    t, out = best(lambda: [as_dict[b] for b in map(tuple, flat[:m].tolist())], 1)
    row(f"dict (first {m:,} boards)", t, m, out)
    t, _ = best(lambda: boards.sum(), r)
    row("bandwidth: numpy.sum (read)", t, n)
    t, _ = best(lambda: np.copyto(copy_to, boards), r)
    row("bandwidth: numpy copy (read + write)", t, n, bytes_per_board=96)

    base = dict((name, rate) for name, rate, _ in rows)
    gather = base["numpy base-6 gather (no validation)"]
    print(f"\n{'contender':40} {'M boards/s':>11} {'GB/s':>7} {'vs gather':>10}")
    for name, rate, bpb in rows:
        print(f"{name:40} {rate / 1e6:11.1f} {rate * bpb / 1e9:7.2f} {rate / gather:9.2f}x")
    ours = base["slide.distances int64"]
    print(f"\ndistances int64 / numpy gather: {ours / gather:.2f}x (target 2x)")
    print(
        f"distances int64 reads {ours * 48 / 1e9:.2f} GB/s: {ours / base['bandwidth: numpy.sum (read)']:.2f} of "
        f"numpy.sum's rate over the same array (one thread), "
        f"{ours * 48 / (base['bandwidth: numpy copy (read + write)'] * 96):.2f} of a copy's bytes a second"
    )

    # Per call, from lists of rows.
    k = min(args.calls, n)
    lists = boards[:k].tolist()

    def dict_rows(board):
        return as_dict[(*board[0], *board[1])]

    def dict_generic(board):
        return as_dict[tuple(v for row in board for v in row)]

    want = [int(x) for x in table6[flat[:k] @ powers]]
    per = {}
    for name, f in [
        ("the floor: len(board), a builtin", len),
        ("slide.sliding_puzzle", slide.sliding_puzzle),
        ("dict lookup (two rows made a tuple)", dict_rows),
        ("dict lookup (generic flatten)", dict_generic),
    ]:
        t, out = best(lambda: [f(b) for b in lists], r)
        assert f is len or out == want, name
        per[name] = t / k * 1e9
    print(f"\n{'per call, lists of rows':40} {'ns':>8}")
    for name, ns in per.items():
        print(f"{name:40} {ns:8.0f}")
    sp = per["slide.sliding_puzzle"]
    print(
        f"sliding_puzzle / dict lookup: {sp / per['dict lookup (two rows made a tuple)']:.2f} (target <= 1), "
        f"{sp / per['dict lookup (generic flatten)']:.2f} against the generic one"
    )
    print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()

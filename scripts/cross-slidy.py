#!/usr/bin/env python3
"""Cross-checks slide against an independent tool, slidy-cli (crates.io; SSPL-licensed: a reference to measure
against, never a dependency; install it with `cargo +nightly install slidy-cli`).

For random 4x4 states (slidy's own generator, seeded) and random 3x3 states:
  - slidy's optimal STM solution, applied by `slide apply`, reaches the goal, and has slide's optimal length;
  - slide's solution in `short` notation, applied by `slidy apply`, reaches the goal;
  - 4x4 (a quarter of the states) and 3x3 in MTM likewise (`slide solve --metric mtm` against
    `slidy solve -m mtm`);
and for random move sequences, `slide moves invert|length|simplify` agree with `slidy invert|length|simplify`.

    scripts/cross-slidy.py [--count N] [--slide PATH] [--slidy PATH] [--seed S]

Exits non-zero on the first disagreement, printing both answers. Needs slide built (default target/release/slide)
and slidy on PATH (or --slidy).
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import time


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"cross-slidy: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return p.stdout


def solved(rows, cols):
    cells = [str(i) for i in range(1, rows * cols)] + ["0"]
    return "/".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))


def fail(what, **kw):
    print(f"cross-slidy: DISAGREEMENT: {what}", file=sys.stderr)
    for k, v in kw.items():
        print(f"  {k}: {v!r}", file=sys.stderr)
    sys.exit(1)


def random_state(rng, rows, cols):
    # A uniformly random solvable state: shuffle, then swap two tiles when the parity is wrong.
    while True:
        cells = list(range(rows * cols))
        rng.shuffle(cells)
        tiles = [c for c in cells if c]
        inv = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
        blank_row = cells.index(0) // cols
        if cols % 2 == 0:
            inv += rows - 1 - blank_row
        if inv % 2 == 0:
            return "/".join(" ".join(map(str, cells[r * cols : (r + 1) * cols])) for r in range(rows))


def expanded(seq):
    # Letters with counts written out: slide writes short notation canonically (runs merged: the inverse of DD3D
    # is U5), slidy keeps the tokens as given (UU3U); the moves are the same.
    out, i = [], 0
    while i < len(seq):
        j = i + 1
        while j < len(seq) and seq[j].isdigit():
            j += 1
        out.append(seq[i] * (int(seq[i + 1 : j]) if j > i + 1 else 1))
        i = j
    return "".join(out)


def merged(seq):
    # Runs of one letter merged: R R2 -> R3. slidy's MTM length counts the tokens as written (DD3D: 3); slide's
    # counts maximal runs of one direction, the pushes the sequence makes when played (DD3D: 1).
    out, last, n = [], None, 0
    for c in expanded(seq) + " ":
        if c == last:
            n += 1
            continue
        if last:
            out.append(last + (str(n) if n > 1 else ""))
        last, n = c, 1
    return "".join(out)


def random_moves(rng, n):
    out = []
    for _ in range(n):
        out.append(rng.choice("UDLR"))
        k = rng.choice([1, 1, 1, 2, 3])
        if k > 1:
            out.append(str(k))
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=30, help="random 4x4 states (and as many 3x3 ones)")
    ap.add_argument("--slide", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "slide"))
    ap.add_argument("--slidy", default=shutil.which("slidy") or "slidy")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    slide, slidy = a.slide, a.slidy
    rng = random.Random(a.seed)
    t0 = time.monotonic()

    # 4x4, STM: slidy's generator and solver.
    states = run([slidy, "generate", "-n", str(a.count), "--seed", str(a.seed)]).split("\n")
    states = [s.strip() for s in states if s.strip()]
    assert len(states) == a.count, states
    mine = run([slide, "--quiet", "solve", "--notation", "short"], "\n".join(states) + "\n").splitlines()
    for s, line in zip(states, mine):
        theirs = run([slidy, "solve", s]).strip()
        n, _, short = line.partition(" ")
        got = run([slide, "apply", s, theirs]).strip()
        if got != solved(4, 4):
            fail("slide apply of slidy's solution does not reach the goal", state=s, slidy=theirs, slide_apply=got)
        their_len = int(run([slidy, "length", theirs]).strip())
        if int(n) != their_len:
            fail("optimal STM lengths differ", state=s, slide=line, slidy=theirs, slidy_length=their_len)
        got = run([slidy, "apply", "--state", s], short + "\n").strip()
        if got != solved(4, 4):
            fail("slidy apply of slide's solution does not reach the goal", state=s, slide=short, slidy_apply=got)
    print(f"4x4 STM: {len(states)} states: lengths equal, each tool's solution solves in the other's apply")

    # 4x4, MTM: slide's IDA* over pushes with its label table against slidy's solver (each builds its table once).
    mtm = states[: max(1, a.count // 4)]
    mine = run([slide, "--quiet", "solve", "--metric", "mtm", "--notation", "short"], "\n".join(mtm) + "\n").splitlines()
    theirs_all = run([slidy, "solve", "-m", "mtm"], "\n".join(mtm) + "\n").split()
    for s, line, theirs in zip(mtm, mine, theirs_all):
        n, _, short = line.partition(" ")
        if run([slide, "apply", s, theirs]).strip() != solved(4, 4):
            fail("4x4 mtm: slide apply of slidy's solution does not reach the goal", state=s, slidy=theirs)
        if run([slidy, "apply", "--state", s], short + "\n").strip() != solved(4, 4):
            fail("4x4 mtm: slidy apply of slide's solution does not reach the goal", state=s, slide=short)
        their_len = int(run([slidy, "length", "-m", "mtm", merged(theirs)]).strip())
        if int(n) != their_len:
            fail("4x4 optimal mtm lengths differ", state=s, slide=line, slidy=theirs)
    print(f"4x4 MTM: {len(mtm)} states: lengths equal, each tool's solution solves in the other's apply")

    # 3x3, STM and MTM.
    states = [random_state(rng, 3, 3) for _ in range(a.count)]
    for metric in ["stm", "mtm"]:
        mine = run(
            [slide, "--quiet", "solve", "--metric", metric, "--notation", "short"], "\n".join(states) + "\n"
        ).splitlines()
        for s, line in zip(states, mine):
            theirs = run([slidy, "solve", "-m", metric, s]).strip()
            n, _, short = line.partition(" ")
            if run([slide, "apply", s, theirs]).strip() != solved(3, 3):
                fail(f"3x3 {metric}: slide apply of slidy's solution does not reach the goal", state=s, slidy=theirs)
            if run([slidy, "apply", "--state", s], short + "\n").strip() != solved(3, 3):
                fail(f"3x3 {metric}: slidy apply of slide's solution does not reach the goal", state=s, slide=short)
            their_len = int(run([slidy, "length", "-m", metric, theirs]).strip())
            if int(n) != their_len:
                fail(f"3x3 optimal {metric} lengths differ", state=s, slide=line, slidy=theirs)
    print(f"3x3 STM and MTM: {len(states)} states: lengths equal, each tool's solution solves in the other's apply")

    # Move sequences: invert, length, simplify.
    seqs = [random_moves(rng, rng.randint(1, 25)) for _ in range(a.count * 4)]
    for seq in seqs:
        inv = run([slide, "moves", "invert", seq]).strip()
        if expanded(inv) != expanded(run([slidy, "invert", seq]).strip()):
            fail("invert differs", moves=seq, slide=inv, slidy=run([slidy, "invert", seq]).strip())
        stm, mtm = run([slide, "moves", "length", seq]).split()
        if (int(stm), int(mtm)) != (
            int(run([slidy, "length", "-m", "stm", seq])),
            int(run([slidy, "length", "-m", "mtm", merged(seq)])),
        ):
            fail("length differs", moves=seq, slide=(stm, mtm))
        simple = run([slide, "moves", "simplify", seq]).strip()
        theirs = run([slidy, "simplify", seq]).strip()
        if expanded(simple) != expanded(theirs):
            fail("simplify differs", moves=seq, slide=simple, slidy=theirs)
    print(f"moves: {len(seqs)} random sequences: invert, length and simplify give the same moves")
    print(f"cross-slidy: all agree ({time.monotonic() - t0:.1f} s)")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Korf's 100 15-puzzle instances, all solved optimally: default 6-6-3 and 7-8 pattern databases (with reflection),
# on one thread and on all cores, with move pruning and without it (side by side); Manhattan-only IDA* speed.
# Pattern databases are built once into $SLIDE_CACHE_DIR (default target/bench-cache) and their one-time build is
# timed separately.
#
#   scripts/bench-korf.sh            # everything (the first 7-8 build takes minutes and 4.2 GB of memory)
#   SKIP_78=1 scripts/bench-korf.sh  # without 7-8
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
slide=target/release/slide
export SLIDE_CACHE_DIR="${SLIDE_CACHE_DIR:-$PWD/target/bench-cache}"
mkdir -p "$SLIDE_CACHE_DIR"

run() {
    echo "== slide bench korf100 $*"
    /usr/bin/time -f "   process: %e s wall, %U s user, %M KB peak" "$slide" bench korf100 "$@" | tail -3
}

run --pdb 6-6-3 --threads 1
run --pdb 6-6-3 --threads 1 --no-move-pruning
run --pdb 6-6-3
if [ -z "${SKIP_78:-}" ]; then
    run --pdb 7-8 --threads 1
    run --pdb 7-8 --threads 1 --no-move-pruning
    run --pdb 7-8
fi
echo "== Manhattan-only IDA*, instance 1 cut at 200 M nodes (speed only; with move pruning it solves first)"
"$slide" bench korf100 --only 1 --heuristic md --threads 1 --max-nodes 200000000 --no-move-pruning | tail -1
"$slide" bench korf100 --only 1 --heuristic md --threads 1 --max-nodes 200000000 | tail -1

#!/usr/bin/env bash
# Measures slide's headline figures and writes them into docs/results.md, one table row per part, each row naming
# the commit it was measured on and the machine (cores, CPU model, memory). Rows of parts not run keep what the
# page had, so each part can run alone:
#
#   scripts/results.sh                  # every part (the 24-puzzle part needs 6.4 GB and about 2 minutes to build
#                                       # its databases the first time, 8.9 GiB of cache)
#   scripts/results.sh korf100          # Korf's 100 15-puzzles, the default (zb6-6-3), one thread
#   scripts/results.sh korf100-zb78     # the same with --pdb zb7-8 (a minute and 1.2 GB to build the first time)
#   scripts/results.sh korf24           # the 24-puzzle "quick four": instances 40, 38, 25 and 44, one thread
#   scripts/results.sh 2x3              # 1,000,000 random 2 x 3 boards through `slide solve` (and, when the
#                                       # package's test environment target/py-venv has slide, slide.distances)
#   scripts/results.sh mtm40            # 40 random 4 x 4 boards (seed 40) in multi-tile moves, one thread
#
# Knobs (environment): RUNS (default 3: each search part is run RUNS times after one run that builds or loads the
# databases, and the median search time is kept), SLIDE_CACHE_DIR (default target/bench-cache), SLIDE_BIN (a binary
# to run instead of building this checkout's release binary). Run it on a quiet machine: every figure is a time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PAGE=docs/results.md
RUNS=${RUNS:-3}
export SLIDE_CACHE_DIR="${SLIDE_CACHE_DIR:-$PWD/target/bench-cache}"
mkdir -p "$SLIDE_CACHE_DIR"
if [ -n "${SLIDE_BIN:-}" ]; then
    slide=$SLIDE_BIN
else
    cargo build --release --quiet -p slidetile-cli
    slide=$PWD/target/release/slide
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/slide-results.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT

commit=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    commit="$commit+"  # uncommitted changes
fi
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
mem=$(awk '/MemTotal/ {printf "%.0f GB", $2 / 1e6}' /proc/meminfo)
machine="$(nproc) cores, ${cpu:-unknown CPU}, $mem"

log() { printf '== %s\n' "$*" >&2; }

# row KEY WHAT COMMAND FIGURE: replaces the table row marked <!--KEY--> (or adds it at the end of the table).
row() {
    local command=${3//|/\\|} # a pipe in a table cell is written \|
    python3 - "$PAGE" "$1" "| $2 | \`$command\` | $4 | $commit | $machine | <!--$1--> |" <<'EOF'
import sys, pathlib
path, key, line = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
lines = path.read_text().split("\n")
mark = f"<!--{key}-->"
hit = [i for i, l in enumerate(lines) if mark in l]
if hit:
    lines[hit[0]] = line
else:
    last = max(i for i, l in enumerate(lines) if l.startswith("| ") and "<!--" in l)
    lines.insert(last + 1, line)
path.write_text("\n".join(lines))
EOF
    log "$2: $4"
}

group() { python3 -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$1"; } # 1234567 -> 1,234,567

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# bench KEY WHAT ARGS...: `slide -q bench ARGS` once to build or load, then RUNS times; the median search time.
bench() {
    local key=$1 what=$2
    shift 2
    log "slide bench $* (databases first)"
    "$slide" -q bench "$@" > "$TMP/first.txt"
    for i in $(seq "$RUNS"); do
        "$slide" -q bench "$@" > "$TMP/run$i.txt"
    done
    local wall nodes ok n
    wall=$(grep -ho 'search: [0-9.]* s wall' "$TMP"/run*.txt | awk '{print $2}' | median)
    nodes=$(grep -o '[0-9]* per instance' "$TMP/run1.txt" | awk '{print $1}')
    ok=$(grep -o 'published length: [0-9]*' "$TMP/run1.txt" | awk '{print $3}')
    n=$(grep -o '^instances: [0-9]*' "$TMP/run1.txt" | awk '{print $2}')
    row "$key" "$what" "slide -q bench $*" \
        "$ok of $n optimal; **${wall} s** of search (median of $RUNS); $(group "$nodes") nodes per instance"
}

part_korf100() {
    bench korf100 "Korf's 100 15-puzzles, default databases (zb6-6-3)" korf100 --threads 1
}

part_korf100_zb78() {
    bench korf100-zb78 "Korf's 100 15-puzzles, zb7-8" korf100 --pdb zb7-8 --threads 1
}

part_korf24() {
    bench korf24 "24-puzzle quick four (instances 40, 38, 25, 44), default pair" korf24 --only 40,38,25,44 --threads 1
}

part_2x3() {
    log "1,000,000 random 2x3 boards"
    "$slide" scramble 2x3 --count 1000000 --seed 1 --format slash > "$TMP/boards.txt"
    local times=()
    for i in $(seq "$RUNS"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$slide" -q solve --threads 1 < "$TMP/boards.txt" > "$TMP/answers.txt"
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc)")
    done
    [ "$(wc -l < "$TMP/answers.txt")" -eq 1000000 ]
    local wall rate
    wall=$(printf '%s\n' "${times[@]}" | median)
    rate=$(echo "1 / $wall" | bc -l | xargs printf '%.2f')
    local figure="**${rate} M boards per second**, whole process, reading and printing text ($(printf '%.2f' "$wall") s, median of $RUNS)"
    local py=target/py-venv/bin/python
    if [ -x "$py" ] && "$py" -c 'import slide, numpy' 2> /dev/null; then
        local dist
        dist=$("$py" - <<'EOF'
import time

import numpy as np
import slide

rng = np.random.default_rng(1)
boards = np.argsort(rng.random((1_000_000, 6)), axis=1).astype(np.int64).reshape(-1, 2, 3)
slide.distances(boards[:10])
best = float("inf")
for _ in range(3):
    t = time.perf_counter()
    slide.distances(boards)
    best = min(best, time.perf_counter() - t)
print(f"{1e6 / best / 1e6:.0f}")
EOF
)
        figure="$figure; \`slide.distances\` (Python, one NumPy int64 array): **$dist M boards per second**"
    fi
    row 2x3 "2 × 3 throughput" "slide scramble 2x3 --count 1000000 --seed 1 | slide solve --threads 1" "$figure"
}

part_mtm40() {
    log "40 random 4x4 boards in MTM (the label tables first)"
    "$slide" scramble 4x4 --count 40 --seed 40 --format slash > "$TMP/mtm.txt"
    "$slide" -q solve --metric mtm '1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15' > /dev/null
    local times=() nodes=
    for i in $(seq "$RUNS"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$slide" -q solve --metric mtm --threads 1 --json < "$TMP/mtm.txt" > "$TMP/mtm-$i.json"
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc)")
    done
    nodes=$(python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert len(r)==40 and all(x["optimal"] for x in r); print(sum(x["nodes"] for x in r))' "$TMP/mtm-1.json")
    local wall
    wall=$(printf '%s\n' "${times[@]}" | median | xargs printf '%.2f')
    row mtm40 "MTM, 40 random 4 × 4 boards (seed 40)" \
        "slide scramble 4x4 --count 40 --seed 40 | slide solve --metric mtm --threads 1" \
        "40 of 40 proven; **${wall} s** wall, whole process (median of $RUNS); $(group "$nodes") nodes"
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(korf100 korf100-zb78 korf24 2x3 mtm40)
for p in "${parts[@]}"; do
    case $p in
        korf100 | korf100-zb78 | korf24 | 2x3 | mtm40) "part_${p//-/_}" ;;
        *)
            echo "results.sh: unknown part $p (korf100, korf100-zb78, korf24, 2x3, mtm40)" >&2
            exit 2
            ;;
    esac
done

#!/usr/bin/env bash
# `slide analyse` of 1,000 3 × 3 solves and of 100 4 × 4 solves, and `slide solve --count` on every 3 × 3 board
# (all 9! arrangements: half of them unsolvable, answered -1 0), each timed as a whole run in release.
# The solves are weighted IDA*'s (`--within 1.5`: valid, mostly longer than the optimum, like a person's), so the
# analyses see detours and mistakes. Pattern databases are built once into $SLIDE_CACHE_DIR (default
# target/bench-cache) before the timed runs.
#
#   scripts/bench-analyse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p slidetile-cli
slide=target/release/slide
export SLIDE_CACHE_DIR="${SLIDE_CACHE_DIR:-$PWD/target/bench-cache}"
mkdir -p "$SLIDE_CACHE_DIR"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Warm up: the 4 x 4 pattern databases (built or loaded once).
"$slide" -q solve '1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15' >/dev/null

solves() { # shape count seed -> lines "BOARD | MOVES"
    "$slide" -q scramble "$1" --count "$2" --seed "$3" --format slash >"$work/boards"
    "$slide" -q solve --within 1.5 --notation short <"$work/boards" | cut -d' ' -f2- >"$work/moves"
    paste -d'|' "$work/boards" "$work/moves" | sed 's/|/ | /'
}

timed() { # label, then the command; standard input from $input
    echo "== $1"
    shift
    /usr/bin/time -f "   %e s wall, %U s user, %M KB peak" "$@" <"$input" >/dev/null
}

solves 3x3 1000 1 >"$work/a3"
solves 4x4 100 1 >"$work/a4"
input="$work/a3" timed "slide analyse: 1,000 3x3 solves (summary below)" "$slide" analyse
input="$work/a4" timed "slide analyse: 100 4x4 solves (summary below)" "$slide" analyse

python3 -c '
import itertools
for p in itertools.permutations(range(9)):
    print(" ".join(map(str, p[0:3])) + "/" + " ".join(map(str, p[3:6])) + "/" + " ".join(map(str, p[6:9])))
' >"$work/all3"
input="$work/all3" timed "slide solve --count: all 362,880 3x3 boards" "$slide" solve --count
"$slide" solve --count <"$work/all3" | awk '$2 > max { max = $2; line = NR } END { print "   largest count " max " (line " line ")" }'

#!/usr/bin/env bash
# Fast mode (issue 4): times the polynomial constructive solver on one random n x n board per size, count-only,
# through the `fast` example of the slide crate (crates/slide/examples/fast.rs), and prints a table of
# n, solution length, length / n^3, seconds (the solve only, not drawing the board) and peak memory.
#
# Knobs (environment): SIZES (default "10 30 100 300 1000"), SEED (default 1), CARGO_TARGET_DIR.
# The issue's targets: a random 100 x 100 board in <= 1 s with <= 3 n^3 moves.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
SIZES=${SIZES:-10 30 100 300 1000}
SEED=${SEED:-1}
TARGET_DIR=${CARGO_TARGET_DIR:-target}

cargo build --release -p slidetile --example fast >&2
BIN="$TARGET_DIR/release/examples/fast"

TIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
    TIME=/usr/bin/time
fi

OUT=$(mktemp "${TMPDIR:-/tmp}/slide-bench-fast.XXXXXX")
trap 'rm -f -- "$OUT"' EXIT

printf '%6s %14s %10s %10s %10s\n' n length 'len/n^3' seconds 'peak MB'
for n in $SIZES; do
    if [ -n "$TIME" ]; then
        "$TIME" -v -o "$OUT" "$BIN" "$n" "$SEED" >"$OUT.line"
        peak=$(awk -F: '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$OUT")
    else
        "$BIN" "$n" "$SEED" >"$OUT.line"
        peak="-"
    fi
    read -r size len ratio secs <"$OUT.line"
    rm -f -- "$OUT.line"
    printf '%6s %14s %10s %10s %10s\n' "$size" "$len" "$ratio" "$secs" "$peak"
done

#!/usr/bin/env bash
# Times whole runs of the `slide` binary (issue item 10):
#   (a) 1,000,000 random 2x3 boards through `slide solve`, side by side with `cat`/`wc -l` baselines;
#   (b) building the 3x4 and 2x6 tables from an empty cache directory: wall time, peak memory, size on disk;
#   (c) loading the cached 3x4 and 2x6 tables (second run, same cache directory);
#   (d) `slide stats RxC` (table build) for every shape of at most 10 cells, with peak memory.
# Prints a table of results at the end. Uses hyperfine when present (tries `apt-get install -y hyperfine` when
# missing and root), else repeated runs timed with `date`; peak memory from GNU time (`/usr/bin/time -v`).
#
# Knobs (environment): SOLVE_RUNS (default 10), LOAD_RUNS (5), STATS_RUNS (3), BUILD_RUNS (1), BOARDS (1000000),
# BIG_SHAPES ("3x4 2x6"; empty skips (b) and (c)), NO_HYPERFINE=1 (use the date(1) fallback).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
SOLVE_RUNS=${SOLVE_RUNS:-10}
LOAD_RUNS=${LOAD_RUNS:-5}
STATS_RUNS=${STATS_RUNS:-3}
BUILD_RUNS=${BUILD_RUNS:-1}
BOARDS=${BOARDS:-1000000}
BIG_SHAPES=${BIG_SHAPES-3x4 2x6}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/slide-bench-cli.XXXXXX")
cleanup() { rm -rf -- "$TMP"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '\n== %s\n' "$*" >&2; }

# ---- tools ------------------------------------------------------------------------------------------------------
try_install() { # package
    if command -v apt-get > /dev/null && [ "$(id -u)" = 0 ]; then
        log "installing $1"
        DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" > "$TMP/apt.log" 2>&1 || {
            echo "apt-get install $1 failed (see below); continuing without it" >&2
            tail -5 "$TMP/apt.log" >&2
        }
    fi
}
HAVE_HYPERFINE=0
if [ "${NO_HYPERFINE:-0}" != 1 ]; then
    command -v hyperfine > /dev/null || try_install hyperfine
    command -v hyperfine > /dev/null && HAVE_HYPERFINE=1
fi
GNU_TIME=/usr/bin/time
[ -x "$GNU_TIME" ] || try_install time
HAVE_GNU_TIME=0
if [ -x "$GNU_TIME" ] && "$GNU_TIME" -v true 2> /dev/null; then HAVE_GNU_TIME=1; fi
[ "$HAVE_HYPERFINE" = 1 ] || echo "hyperfine not available: timing with repeated runs and date(1)" >&2
[ "$HAVE_GNU_TIME" = 1 ] || echo "GNU time not available: no peak memory figures" >&2

# ---- build ------------------------------------------------------------------------------------------------------
log "cargo build --release"
cargo build --release -p slidetile-cli >&2
TARGET_DIR=${CARGO_TARGET_DIR:-target}
BIN=$(cd "$TARGET_DIR/release" && pwd)/slide
[ -x "$BIN" ] || { echo "no binary at $BIN" >&2; exit 1; }
# Nothing below touches the user's cache directory.
export SLIDE_CACHE_DIR="$TMP/default-cache"

# ---- measuring helpers ------------------------------------------------------------------------------------------
# measure NAME RUNS WARMUP MODE COMMAND: sets MEAN and SD (seconds). MODE "shell": COMMAND is run by sh (for
# redirections; hyperfine subtracts the shell's start-up); "direct": no shell (hyperfine -N; COMMAND is split into
# words, quotes respected). Output is discarded either way. Without hyperfine both go through sh -c.
measure() {
    local name=$1 runs=$2 warmup=$3 mode=$4 cmd=$5
    if [ "$HAVE_HYPERFINE" = 1 ]; then
        local shell_opt=()
        [ "$mode" = direct ] && shell_opt=(-N)
        hyperfine --style basic "${shell_opt[@]}" --warmup "$warmup" --runs "$runs" -n "$name" \
            --export-csv "$TMP/hf.csv" "$cmd" >&2
        MEAN=$(awk -F, 'NR == 2 { print $2 }' "$TMP/hf.csv")
        SD=$(awk -F, 'NR == 2 { print $3 }' "$TMP/hf.csv")
    else
        local i t0 t1
        : > "$TMP/times"
        for ((i = 0; i < warmup; i++)); do sh -c "$cmd" > /dev/null; done
        for ((i = 0; i < runs; i++)); do
            t0=$(date +%s%N)
            sh -c "$cmd" > /dev/null
            t1=$(date +%s%N)
            echo $(((t1 - t0))) >> "$TMP/times"
        done
        MEAN=$(awk '{ s += $1 } END { printf "%.6f", s / NR / 1e9 }' "$TMP/times")
        SD=$(awk '{ s += $1; q += $1 * $1 } END { m = s / NR; v = q / NR - m * m; if (v < 0) v = 0;
                   printf "%.6f", sqrt(v) / 1e9 }' "$TMP/times")
        printf '%s: %.4f s +- %.4f s (%d runs)\n' "$name" "$MEAN" "$SD" "$runs" >&2
    fi
}

# peak OUT_FILE COMMAND...: runs COMMAND once (no shell; stdin/stdout as given by the caller) under GNU time; sets
# WALL (s) and RSS_KB. Without GNU time, WALL from date and RSS_KB=-.
peak() {
    local out=$1
    shift
    if [ "$HAVE_GNU_TIME" = 1 ]; then
        "$GNU_TIME" -v -o "$TMP/gnutime" "$@" > "$out"
        RSS_KB=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$TMP/gnutime")
        WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {
                   n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' \
            "$TMP/gnutime")
    else
        local t0 t1
        t0=$(date +%s%N)
        "$@" > "$out"
        t1=$(date +%s%N)
        WALL=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f", d / 1e9 }')
        RSS_KB=-
    fi
}

mb() { [ "$1" = - ] && echo - || awk -v k="$1" 'BEGIN { printf "%.1f MB", k * 1024 / 1e6 }'; }
secs() { awk -v s="$1" -v d="${2:-}" 'BEGIN { if (d == "") printf "%.3f s", s; else printf "%.3f +- %.3f s", s, d }'; }
commas() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
verdict() { # VALUE OP LIMIT
    awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN { ok = (op == "<=") ? v <= l : v >= l; print ok ? "ok" : "MISSED" }'
}

ROWS=()
row() { ROWS+=("$(printf '%-44s|%-22s|%-10s|%s' "$1" "$2" "$3" "$4")"); }

# ---- (a) 1,000,000 random 2x3 boards ----------------------------------------------------------------------------
log "(a) $BOARDS random 2x3 boards through slide solve"
F="$TMP/boards-2x3.txt"
"$BIN" scramble 2x3 --count "$BOARDS" --seed 1 > "$F"
lines=$(wc -l < "$F")
[ "$lines" -eq "$BOARDS" ] || { echo "expected $BOARDS boards, got $lines" >&2; exit 1; }
# Correctness check before timing: one answer per board, all solvable, 2x3 distances are 0..21.
"$BIN" solve --quiet < "$F" > "$TMP/answers"
awk -v n="$BOARDS" '$1 < 0 || $1 > 21 { bad++ } END { if (NR != n || bad) { print "bad answers: " NR " lines, " bad+0 " out of range"; exit 1 } }' \
    "$TMP/answers" >&2
size_mb=$(awk -v b="$(wc -c < "$F")" 'BEGIN { printf "%.1f MB", b / 1e6 }')

measure "cat file > /dev/null" "$SOLVE_RUNS" 2 shell "cat '$F'"
row "baseline: cat ($size_mb)" "$(secs "$MEAN" "$SD")" "" ""
measure "wc -l < file" "$SOLVE_RUNS" 2 shell "wc -l < '$F'"
wc_mean=$MEAN
row "baseline: wc -l" "$(secs "$MEAN" "$SD")" "" ""
measure "slide solve < file" "$SOLVE_RUNS" 2 shell "'$BIN' solve --quiet < '$F'"
solve_mean=$MEAN
rate=$(awk -v n="$BOARDS" -v t="$MEAN" 'BEGIN { printf "%.0f", n / t }')
peak /dev/null "$BIN" solve --quiet < "$F"
row "slide solve < file ($BOARDS x 2x3)" "$(secs "$MEAN" "$SD")" "$(mb "$RSS_KB")" \
    "$(printf "%s boards/s, %.1fx wc -l; target >= 2,000,000: %s" "$(commas "$rate")" \
        "$(awk -v a="$solve_mean" -v b="$wc_mean" 'BEGIN { print a / b }')" "$(verdict "$rate" '>=' 2000000)")"
measure "cat file | slide solve" "$SOLVE_RUNS" 2 shell "cat '$F' | '$BIN' solve --quiet"
rate=$(awk -v n="$BOARDS" -v t="$MEAN" 'BEGIN { printf "%.0f", n / t }')
row "piped: cat file | slide solve" "$(secs "$MEAN" "$SD")" "" "$(commas "$rate") boards/s"
measure "slide solve --moves < file" "$SOLVE_RUNS" 1 shell "'$BIN' solve --quiet --moves < '$F'"
rate=$(awk -v n="$BOARDS" -v t="$MEAN" 'BEGIN { printf "%.0f", n / t }')
row "slide solve --moves < file" "$(secs "$MEAN" "$SD")" "" "$(commas "$rate") boards/s"

# ---- (b) building the 12-cell tables, (c) loading them ----------------------------------------------------------
declare -A QUERY=(
    [3x4]='[[1,2,3,4],[5,6,7,8],[9,10,0,11]]'
    [2x6]='[[1,2,3,4,5,6],[7,8,9,10,0,11]]'
)
measure "startup: slide solve one 2x3 board" "$LOAD_RUNS" 2 direct "'$BIN' solve --quiet '[[1,2,3],[4,0,5]]'"
row "baseline: process start, one 2x3 board" "$(secs "$MEAN" "$SD")" "" ""
for shape in $BIG_SHAPES; do
    [ -n "${QUERY[$shape]:-}" ] || { echo "BIG_SHAPES: no query for $shape (3x4 or 2x6)" >&2; exit 2; }
    q=${QUERY[$shape]}
    dir=""
    for ((i = 1; i <= BUILD_RUNS; i++)); do
        log "(b) building the $shape table from an empty cache directory (run $i of $BUILD_RUNS)"
        [ -z "$dir" ] || rm -rf -- "$dir"
        dir=$(mktemp -d "$TMP/cache-$shape.XXXXXX")
        peak "$TMP/out" env SLIDE_CACHE_DIR="$dir" "$BIN" solve --quiet "$q"
        [ "$(cat "$TMP/out")" = 1 ] || { echo "$shape: expected 1, got $(cat "$TMP/out")" >&2; exit 1; }
        bytes=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
        files=$(find "$dir" -type f -printf '%f ' | sed 's/ $//')
        echo "$shape build: ${WALL} s, peak $(mb "$RSS_KB"), $bytes bytes on disk ($files)" >&2
        extra=$(awk -v b="$bytes" 'BEGIN { printf "%.1f MB (%.1f MiB) on disk", b / 1e6, b / 1048576 }')
        if [ "$shape" = 3x4 ]; then
            extra="$extra; targets <= 60 s: $(verdict "$WALL" '<=' 60), <= 64 MB: $(verdict "$bytes" '<=' 64000000)"
        fi
        row "build $shape table (empty cache, run $i)" "$(secs "$WALL")" "$(mb "$RSS_KB")" "$extra"
    done
    log "(c) loading the cached $shape table"
    table=$(find "$dir" -type f | head -n 1)
    stamp=$(stat -c %Y "$table")
    measure "cat $shape table file" "$LOAD_RUNS" 1 direct "cat '$table'"
    row "baseline: cat $shape table file" "$(secs "$MEAN" "$SD")" "" ""
    measure "load $shape" "$LOAD_RUNS" 1 direct "env 'SLIDE_CACHE_DIR=$dir' '$BIN' solve --quiet '$q'"
    load_mean=$MEAN load_sd=$SD
    peak "$TMP/out" env SLIDE_CACHE_DIR="$dir" "$BIN" solve --quiet "$q"
    [ "$(cat "$TMP/out")" = 1 ] || { echo "$shape load: expected 1" >&2; exit 1; }
    [ "$(stat -c %Y "$table")" = "$stamp" ] || echo "warning: the $shape table file was rewritten" >&2
    extra=""
    [ "$shape" = 3x4 ] && extra="target <= 1 s: $(verdict "$load_mean" '<=' 1)"
    row "load cached $shape table (+1 query)" "$(secs "$load_mean" "$load_sd")" "$(mb "$RSS_KB")" "$extra"
done

# ---- (d) smaller tables through the CLI -------------------------------------------------------------------------
log "(d) slide stats for the shapes of at most 10 cells"
for shape in 2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2; do
    measure "slide stats $shape" "$STATS_RUNS" 1 direct "'$BIN' stats --quiet $shape"
    stats_mean=$MEAN stats_sd=$SD
    peak "$TMP/out" "$BIN" stats --quiet "$shape"
    god=$(awk -F': ' '/god.s number/ { print $2 }' "$TMP/out")
    row "slide stats $shape (build)" "$(secs "$stats_mean" "$stats_sd")" "$(mb "$RSS_KB")" "god's number $god"
done

# ---- results ----------------------------------------------------------------------------------------------------
{
    echo
    echo "slide CLI benchmarks ($(nproc) cores; $("$BIN" --version); timer: $([ "$HAVE_HYPERFINE" = 1 ] && echo hyperfine || echo date))"
    printf '%-44s|%-22s|%-10s|%s\n' "what" "wall (mean +- sd)" "peak RSS" "notes"
    printf '%s\n' "--------------------------------------------+----------------------+----------+------------------------------"
    printf '%s\n' "${ROWS[@]}"
}

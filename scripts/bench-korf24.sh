#!/usr/bin/env bash
# Korf & Felner's 50 random 24-puzzle instances (issue 4): each instance solved optimally in its own process with
# the default pattern databases (since 5 December 2026 the pair zbdefault|zbalt, one chosen per instance, with
# reflection; plain 6-6-6-6 under a --max-memory below 6.4 GB), one thread each, JOBS instances at a time, each
# stopped after TIMEOUT seconds (then reported as not proven, with the proven lower bound). One line per instance as
# it ends: id, answer (length, or >=L when stopped), published optimum, verdict, start estimate, nodes, seconds,
# nodes/s, the partition chosen; then the solved count. The pattern databases are built first (about 2 minutes on 2
# cores, 6.2 GB of memory, 8.9 GiB of disk) into $SLIDE_CACHE_DIR (default target/bench-cache); each process then
# reads their 5.9 GB (two at a time: 12 GB).
#
# Knobs (environment): TIMEOUT (default 600), JOBS (default 2), IDS (default 1..50), SLIDE_CACHE_DIR, SLIDE_BIN (a
# binary to run instead of building this checkout: a long sweep keeps running the same binary while you rebuild),
# PDB (a partition for --pdb, such as zcdefault or 'zbdefault|zbalt'; default: the default partition), PDB_INDEX (for
# --pdb-index: auto, dense or sparse; default auto).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TIMEOUT=${TIMEOUT:-600}
JOBS=${JOBS:-2}
IDS=${IDS:-$(seq 1 50)}
PDB=${PDB:-default}
PDB_INDEX=${PDB_INDEX:-auto}
export SLIDE_CACHE_DIR="${SLIDE_CACHE_DIR:-$PWD/target/bench-cache}"
mkdir -p "$SLIDE_CACHE_DIR"
if [ -n "${SLIDE_BIN:-}" ]; then
    slide=$SLIDE_BIN
else
    cargo build --release --quiet
    slide=$PWD/target/release/slide
fi

# Build (or load) the databases once, outside the timed runs.
"$slide" bench korf24 --only 40 --threads 1 --pdb "$PDB" --pdb-index "$PDB_INDEX" | tail -3 >&2

OUT=$(mktemp -d "${TMPDIR:-/tmp}/slide-korf24.XXXXXX")
trap 'rm -rf -- "$OUT"' EXIT
export slide TIMEOUT OUT PDB PDB_INDEX
printf '%s\n' $IDS | xargs -P "$JOBS" -I{} sh -c \
    '"$slide" -q bench korf24 --only {} --threads 1 --pdb "$PDB" --pdb-index "$PDB_INDEX" --timeout "$TIMEOUT" > "$OUT/{}" 2>&1; grep -E "^ +{} " "$OUT/{}"'
solved=$(cat "$OUT"/* | grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+ +yes ' || true)
echo "solved within $TIMEOUT s each: $solved of $(printf '%s\n' $IDS | wc -l)"

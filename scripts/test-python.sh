#!/usr/bin/env bash
# The Python package (crates/slide-py): creates a virtual environment (default target/py-venv), installs maturin,
# numpy and pytest from PyPI (and Ray with SLIDE_PY_RAY=1), builds and installs the package from source, and runs
# its pytest suite. Exits non-zero when anything fails. Needs python3 (3.9 or later, with venv) and cargo.
#
#   scripts/test-python.sh                 # core tests
#   SLIDE_PY_RAY=1 scripts/test-python.sh  # also slide.ray, on a local Ray cluster the tests start and stop
#   scripts/test-python.sh -k distances    # extra arguments go to pytest
#
# Knobs (environment): SLIDE_PY_VENV (the environment's directory), PYTHON (the interpreter that creates it),
# SLIDE_CACHE_DIR (pattern databases; default target/py-cache).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
venv=${SLIDE_PY_VENV:-$root/target/py-venv}
python=${PYTHON:-python3}
export SLIDE_CACHE_DIR="${SLIDE_CACHE_DIR:-$root/target/py-cache}"
mkdir -p "$SLIDE_CACHE_DIR"

if [ ! -x "$venv/bin/python" ]; then
    echo "== creating $venv"
    "$python" -m venv "$venv"
fi
py=$venv/bin/python
export PATH="$venv/bin:$PATH" # the build backend runs the maturin program
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet "maturin>=1.5,<2" numpy pytest
if [ "${SLIDE_PY_RAY:-0}" = 1 ]; then
    "$py" -m pip install --quiet "ray>=2.9"
fi

echo "== building and installing crates/slide-py"
# The package's own README command, in the environment: pip builds the wheel with maturin.
"$py" -m pip install --quiet --no-build-isolation "$root/crates/slide-py"

echo "== pytest"
cd "$root/crates/slide-py"
if [ "${SLIDE_PY_RAY:-0}" = 1 ]; then
    "$py" -m pytest -q tests "$@"
else
    "$py" -m pytest -q tests -m "not ray" "$@"
fi

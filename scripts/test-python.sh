#!/usr/bin/env bash
# The Python package (crates/slide-py, the distribution `slidetile`): builds its abi3 wheel (scripts/wheel.sh), makes
# a fresh virtual environment (default target/py-venv), installs the wheel there with numpy and pytest from PyPI (and
# Ray with SLIDE_PY_RAY=1), and runs the pytest suite against the installed wheel with no Rust toolchain on PATH: what
# a user who installs the wheel gets. Exits non-zero when anything fails. Needs python3 (3.9 or later, with venv) and
# cargo (for the build only).
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

echo "== building the wheel"
wheel=$(bash scripts/wheel.sh)
echo "$wheel"

echo "== a fresh $venv with the wheel"
rm -rf "$venv"
"$python" -m venv "$venv"
py=$venv/bin/python
"$py" -m pip install --quiet --upgrade pip
extras=test
if [ "${SLIDE_PY_RAY:-0}" = 1 ]; then
    extras=test,ray
fi
"$py" -m pip install --quiet "$wheel[$extras]"

# PATH without the directories that hold cargo or rustc (rustup's ~/.cargo/bin, say): the tests run against the
# wheel, with no way to build. System directories stay (the tests and Ray need /bin and /usr/bin): a cargo installed
# there by the system's packages stays visible, and is named below.
clean_path=$venv/bin
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [ -n "$d" ] && [ "$d" != "$venv/bin" ] || continue
    case "$d" in
    /bin | /usr/bin | /sbin | /usr/sbin) clean_path="$clean_path:$d" ;;
    *) [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || clean_path="$clean_path:$d" ;;
    esac
done
if left=$(PATH=$clean_path command -v cargo); then
    echo "test-python.sh: note: $left is a system directory's cargo and stays on PATH" >&2
fi

echo "== pytest (installed wheel $("$py" -c 'import slide; print(slide.__version__)'), no Rust on PATH)"
cd "$root/crates/slide-py"
marks=()
if [ "${SLIDE_PY_RAY:-0}" != 1 ]; then
    marks=(-m "not ray")
fi
PATH=$clean_path "$py" -m pytest -q -p no:cacheprovider tests "${marks[@]}" "$@"

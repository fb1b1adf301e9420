#!/usr/bin/env bash
# Builds the Python package (crates/slide-py, the distribution `slidetile`, imported as `slide`) into one abi3 wheel
# for CPython 3.9 and later, with maturin from PyPI in a virtual environment of its own (target/wheel-venv), and
# prints the wheel's path. The wheel then installs with pip on any machine of this platform, with no Rust toolchain.
#
#   bash scripts/wheel.sh            # target/wheels/slidetile-VERSION-cp39-abi3-PLATFORM.whl
#
# Knobs (environment): PYTHON (the interpreter that makes the build environment), SLIDE_WHEEL_DIR (default
# target/wheels). Needs cargo and python3 (with venv).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
out=${SLIDE_WHEEL_DIR:-$root/target/wheels}
venv=$root/target/wheel-venv
if [ ! -x "$venv/bin/maturin" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "maturin>=1.5,<2"
fi
mkdir -p "$out"
rm -f "$out"/slidetile-*.whl
"$venv/bin/maturin" build --quiet --release --manifest-path crates/slide-py/Cargo.toml --out "$out" >&2
wheels=("$out"/slidetile-*-abi3-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    echo "wheel.sh: expected one abi3 wheel in $out, found: ${wheels[*]}" >&2
    exit 1
fi
echo "${wheels[0]}"

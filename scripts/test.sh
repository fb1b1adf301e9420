#!/usr/bin/env bash
# The test command of README.md: the whole Rust suite, built with release optimisations and integer overflow checks
# on (Cargo.toml's `overflow` profile), then the Python package's pytest suite with slide.ray on a local Ray
# cluster (scripts/test-python.sh: a virtual environment in target/py-venv with maturin, numpy, pytest and ray from
# PyPI). Needs cargo and python3 (with venv); exits non-zero when anything fails.
#
#   bash scripts/test.sh            # everything
#   SLIDE_PY_RAY=0 bash scripts/test.sh   # without Ray (its install is large)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo test --workspace --profile overflow
SLIDE_PY_RAY="${SLIDE_PY_RAY:-1}" bash scripts/test-python.sh

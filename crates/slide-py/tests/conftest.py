"""pytest set-up for the slide package: a cache directory inside the repository's target/ for pattern databases,
and Ray kept on the loopback address."""

import os
import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[3]
os.environ.setdefault("SLIDE_CACHE_DIR", str(_ROOT / "target" / "py-cache"))
# Ray's local cluster on the loopback address only (its servers then listen on 127.0.0.1): set before Ray is imported.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

"""pytest set-up for the slide package: a cache directory inside the repository's target/ for pattern databases."""

import os
import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[3]
os.environ.setdefault("SLIDE_CACHE_DIR", str(_ROOT / "target" / "py-cache"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

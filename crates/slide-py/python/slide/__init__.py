"""slide: a sliding-tile puzzle solver (Python bindings of the slide Rust library).

Exact distances for every board of at most 12 cells (complete tables), optimal solutions beyond (IDA* with
pattern databases), the moves behind every answer; single-tile (``metric="stm"``) or multi-tile moves
(``metric="mtm"``), goal boards or partial goals (``goal="1 2 3/x x x/x x x"``, ``solve_stages``), and the
speedsolver's ``analyse`` and ``hint``; pictures and replays with ``render`` (SVG, PNG, animated GIF).

>>> import slide
>>> slide.sliding_puzzle([[4, 1, 2], [5, 0, 3]])
5
>>> s = slide.solve("4 1 2/5 0 3")
>>> s.distance, s.moves, s.notation("blank")
(5, [5, 4, 1, 2, 3], 'LURRD')

Boards are lists of rows, strings in any format the ``slide`` command reads (``"[[1,2,3],[4,0,5]]"``,
``"1 2 3/4 0 5"``, a flat square list) or NumPy integer arrays. ``0`` is the blank.
``slide.ray`` (with ``pip install "slidetile[ray]"``) spreads work over a Ray cluster. The distribution is
``slidetile`` on PyPI (the name ``slide`` there is another project's); the package is imported as ``slide``.
"""

from slide._slide import (
    BoardError,
    Cancel,
    LimitReached,
    Solution,
    __version__,
    analyse,
    apply,
    distances,
    estimate,
    hint,
    render,
    scramble,
    set_max_memory,
    sliding_puzzle,
    solve,
    solve_many,
    solve_stages,
    stats,
)

__all__ = [
    "__version__",
    "BoardError",
    "Cancel",
    "LimitReached",
    "Solution",
    "analyse",
    "apply",
    "distances",
    "estimate",
    "hint",
    "render",
    "scramble",
    "set_max_memory",
    "sliding_puzzle",
    "solve",
    "solve_many",
    "solve_stages",
    "stats",
]

from slide import benchmarks  # noqa: E402  (needs _slide above)

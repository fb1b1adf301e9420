"""The published benchmark sets built into slide: Korf's 100 15-puzzles (1985) and Korf & Felner's 50 24-puzzles
(2002), each instance with its goal (blank first, as the papers have it), its published optimal length and the
nodes the paper's IDA* generated.

>>> import slide.benchmarks
>>> first = slide.benchmarks.korf100()[0]
>>> first.id, first.optimal, len(first.board)
(1, 57, 4)
>>> first.goal[0]
[0, 1, 2, 3]
"""

from typing import List, NamedTuple

from slide import _slide

__all__ = ["Instance", "korf100", "korf24"]


class Instance(NamedTuple):
    """One benchmark instance: ``board`` and ``goal`` as lists of rows, ``optimal`` the published least number of
    moves from board to goal, ``published_nodes`` the nodes the paper's search generated, ``id`` its number in the
    paper (from 1)."""

    id: int
    board: List[List[int]]
    goal: List[List[int]]
    optimal: int
    published_nodes: int


def _load(name: str) -> List[Instance]:
    return [Instance(*t) for t in _slide._benchmark(name)]


def korf100() -> List[Instance]:
    """Korf's 100 random 15-puzzle instances (optimal lengths 41 to 66), in order."""
    return _load("korf100")


def korf24() -> List[Instance]:
    """Korf & Felner's 50 random 24-puzzle instances (optimal lengths 81 to 124), in order; most take minutes to
    hours each and gigabytes of pattern databases."""
    return _load("korf24")

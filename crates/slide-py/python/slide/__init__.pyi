"""Type stubs of the slide package (the functions are implemented in Rust, in slide._slide)."""

from typing import Iterable, List, Optional, Sequence, Tuple, TypedDict, Union

import numpy as np
import numpy.typing as npt

Rows = Sequence[Sequence[int]]
#: A board: rows of integers, a flat list of a square number of integers, a string in any format the ``slide``
#: command reads ("[[1,2,3],[4,0,5]]", "1 2 3/4 0 5"), or a NumPy integer array of one or two dimensions.
BoardLike = Union[Rows, Sequence[int], str, npt.NDArray[np.integer]]
#: A shape: "RxC" or (rows, cols).
ShapeLike = Union[str, Tuple[int, int]]

class BoardError(ValueError):
    """A board, goal or request that slide cannot take; the message names what is wrong (line, position, value)."""

class Solution:
    """The answer to one board."""

    @property
    def distance(self) -> Optional[int]:
        """Least number of moves; -1 when the goal cannot be reached; None when a limit stopped the search."""
    @property
    def moves(self) -> Optional[List[int]]:
        """The tiles that slide into the blank, in order (None when unsolvable, cut short, or moves=False)."""
    @property
    def optimal(self) -> bool:
        """True when proven: the moves are least in number, or the goal is proven unreachable."""
    @property
    def lower_bound(self) -> int:
        """A proven lower bound on the least number of moves (equal to it when optimal)."""
    @property
    def nodes(self) -> int:
        """Search nodes generated (0 for table lookups)."""
    @property
    def seconds(self) -> float:
        """Seconds spent on this board."""
    @property
    def within(self) -> Optional[float]:
        """For solve(..., within=W): the moves are at most W times the least number."""
    @property
    def unsolvable_reason(self) -> Optional[str]:
        """Why the goal cannot be reached, when it cannot."""
    @property
    def board(self) -> List[List[int]]:
        """The board that was solved."""
    @property
    def goal(self) -> List[List[int]]:
        """The goal."""
    def notation(self, name: str) -> str:
        """The moves as text: "tiles" (tile numbers) or "blank" (the blank's directions U D L R).

        Raises ValueError for other notations and when there are no moves."""

def sliding_puzzle(board: BoardLike) -> int:
    """The least number of moves to the goal (tiles in order, blank last), or -1 when unsolvable (LeetCode 773).

    Exact for every shape of at most 12 cells by table lookup; larger boards are searched optimally."""

def solve(
    board: BoardLike,
    goal: Optional[BoardLike] = None,
    *,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    within: Optional[float] = None,
) -> Solution:
    """Solves one board towards goal (default: tiles in order, blank last).

    metric: "stm" (single-tile moves; "mtm" is not available yet). timeout (seconds) and max_nodes stop a search:
    distance is then None and lower_bound says how many moves it takes at least. within=W asks for a solution at
    most W times the optimum, sooner. Ctrl-C stops a search (KeyboardInterrupt)."""

def solve_many(
    boards: Iterable[BoardLike],
    goal: Optional[BoardLike] = None,
    *,
    threads: Optional[int] = None,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    within: Optional[float] = None,
) -> List[Solution]:
    """Solves boards in parallel (threads: default all cores), answers in input order; limits apply to each board.

    The GIL is released while solving; Ctrl-C raises KeyboardInterrupt promptly. A bad board raises BoardError
    naming it (boards[i]) before any solving."""

def distances(
    array: npt.NDArray[np.integer],
    shape: Optional[ShapeLike] = None,
    goal: Optional[BoardLike] = None,
) -> npt.NDArray[np.int32]:
    """Distances of all boards of an integer array of shape (N, R, C), or (N, R*C) with shape given (square
    boards need none): an int32 array of N values, -1 where unsolvable. Read in place, answered in parallel.
    Boards of at most 12 cells (complete tables) and single rows or columns; larger ones: solve_many."""

def scramble(
    shape: ShapeLike,
    count: Optional[int] = None,
    *,
    seed: Optional[int] = None,
    walk: Optional[int] = None,
    goal: Optional[BoardLike] = None,
) -> Union[List[List[int]], List[List[List[int]]]]:
    """Uniformly random solvable boards (or random walks of walk moves from the goal), reproducible with seed: one
    board when count is None, else a list of count boards."""

def apply(board: BoardLike, moves: Iterable[int]) -> List[List[int]]:
    """The board after the moves (tile numbers, each sliding into the blank)."""

class Stats(TypedDict):
    states: int
    diameter: int
    histogram: List[int]
    antipodes: List[List[List[int]]]

def stats(shape: ShapeLike, goal: Optional[BoardLike] = None) -> Stats:
    """Boards that can reach the goal, how many lie at each distance, god's number and some farthest boards
    (shapes of at most 12 cells, and single rows or columns)."""

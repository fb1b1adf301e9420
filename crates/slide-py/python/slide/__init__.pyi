"""Type stubs of the slide package (the functions are implemented in Rust, in slide._slide)."""

from typing import Callable, Iterable, List, Optional, Sequence, Tuple, TypedDict, Union

__version__: str

import numpy as np
import numpy.typing as npt

Rows = Sequence[Sequence[int]]
#: A board: rows of integers, a flat list of a square number of integers, a string in any format the ``slide``
#: command reads ("[[1,2,3],[4,0,5]]", "1 2 3/4 0 5"), or a NumPy integer array of one or two dimensions.
BoardLike = Union[Rows, Sequence[int], str, npt.NDArray[np.integer]]
#: A shape: "RxC" or (rows, cols).
ShapeLike = Union[str, Tuple[int, int]]
#: A goal: a board, or a partial goal, a pattern whose free cells take any tile: a string with "x"
#: ("1 2 3/x x x/x x x") or rows (or a flat list) of integers with None or "x" on the free cells. A pattern with one
#: free cell at most is its board.
GoalLike = Union[BoardLike, Sequence[Sequence[Union[int, str, None]]], Sequence[Union[int, str, None]]]
#: Moves: tile numbers (a list, or text "5 4 1"), or letters in the community notation (the tile's direction, long
#: "RRU" or short "R2U"; the blank's directions with blank=True).
MovesLike = Union[Iterable[int], str]

class BoardError(ValueError):
    """A board, goal or request that slide cannot take; the message names what is wrong (line, position, value)."""

class LimitReached(RuntimeError):
    """A limit (timeout or max_nodes) stopped a search of analyse or hint before it proved what was asked; the
    message says what and the lower bound proven."""

class Solution:
    """The answer to one board."""

    @property
    def distance(self) -> Optional[int]:
        """Least number of moves in metric (MTM: pushes); -1 when the goal cannot be reached; None when a limit
        stopped the search."""
    @property
    def metric(self) -> str:
        """How distance and lower_bound count moves: "stm" (single-tile moves) or "mtm" (multi-tile moves)."""
    @property
    def moves(self) -> Optional[List[int]]:
        """The tiles that slide into the blank, in order (None when unsolvable, cut short, or moves=False). Single
        tiles in both metrics: in MTM, distance is the number of maximal runs of one direction in them."""
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
        """Seconds spent on this board, without loading or building the tables the search needed (load_seconds)."""
    @property
    def load_seconds(self) -> float:
        """Seconds spent loading or building the tables and pattern databases the search needed (0 when they were in
        memory, and for table lookups, whose seconds include the table's first load)."""
    @property
    def estimate(self) -> Optional[int]:
        """The search heuristic's estimate of the board, a lower bound on distance; None when no IDA* answered."""
    @property
    def count(self) -> Optional[int]:
        """With count=True: the number of distinct shortest move sequences (a lower bound when not count_proven)."""
    @property
    def count_proven(self) -> Optional[bool]:
        """With count=True: whether count is exact (False: a limit stopped the count)."""
    @property
    def solutions(self) -> Optional[List[List[int]]]:
        """With all=True: the shortest solutions (at most limit), each the tiles moved in order."""
    @property
    def iterations(self) -> List[Tuple[int, int]]:
        """The IDA* iterations of the search that answered, in order: (threshold, nodes generated in it); empty for
        table lookups, fast mode and MTM. Recorded once per iteration (no cost per node)."""
    @property
    def method(self) -> Optional[str]:
        """How the answer was found, when worth saying: "fast" (fast mode) or "partial" (a partial goal's table)."""
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
    def goal(self) -> List[List[Optional[int]]]:
        """The goal (None on the free cells of a partial goal)."""
    def notation(self, name: str) -> str:
        """The moves as text: "tiles" (tile numbers), "long" (each tile's direction U D L R), "short" (runs
        collapsed, R3: one multi-tile move) or "blank" (the blank's directions).

        Raises ValueError for other notations and when there are no moves."""
    def to_dict(self) -> "SolutionDict":
        """The answer as a plain dict (every key present, None where there is no value): the fields of
        ``slide solve --json`` (board, moves, metric, optimal, nodes, seconds, lower_bound, bound, method, solution,
        reason), then goal, estimate, load_seconds, count, count_proven, solutions and iterations ([threshold, nodes]
        lists).
        ``pandas.DataFrame([s.to_dict() for s in answers])`` makes a table of a batch."""
    @staticmethod
    def from_dict(d: "SolutionDict") -> "Solution":
        """The Solution a to_dict wrote (its board and goal checked)."""

class SolutionDict(TypedDict):
    board: List[List[int]]
    moves: Optional[int]
    metric: str
    optimal: bool
    nodes: int
    seconds: float
    lower_bound: int
    bound: Optional[float]
    method: Optional[str]
    solution: Optional[List[int]]
    reason: Optional[str]
    goal: List[List[Optional[int]]]
    estimate: Optional[int]
    load_seconds: float
    count: Optional[int]
    count_proven: Optional[bool]
    solutions: Optional[List[List[int]]]
    iterations: List[List[int]]

class Cancel:
    """A stop button usable from any thread: pass it as cancel= to solve, solve_many or estimate and call cancel()
    to stop them; their searches answer as a limit would (distance None, lower_bound proven). It stays cancelled
    until reset(); Ctrl-C during a solve that holds it cancels it too."""

    def __init__(self) -> None: ...
    def cancel(self) -> None:
        """Stops every solve that holds this handle."""
    @property
    def cancelled(self) -> bool:
        """Whether cancel() was called (since the last reset())."""
    def reset(self) -> None:
        """Clears the handle, so that it can stop later solves."""

def set_max_memory(mb: int) -> bool:
    """Refuses table and pattern-database builds that would need more than mb megabytes (10^6 bytes; 0 refuses every
    build), as ``slide --max-memory MB``: a solve that needs one raises BoardError. The budget is the process's (one
    solver serves every call): it takes effect only before the first solve, and says whether it did."""

def estimate(
    board: BoardLike,
    goal: Optional[BoardLike] = None,
    *,
    heuristic: str = "auto",
    partition: Optional[str] = None,
    reflect: bool = True,
    mixed_sums: Optional[bool] = None,
    max_memory: Optional[int] = None,
    cancel: Optional[Cancel] = None,
    progress: Optional[Callable[[str, int, int], object]] = None,
) -> int:
    """The heuristic's admissible estimate of a board: a lower bound on its least number of single-tile moves to goal
    (default: tiles in order, blank last), where IDA* starts. Nothing is searched; the pattern databases the
    heuristic needs are loaded or built as by solve. heuristic, partition, reflect, mixed_sums, max_memory, cancel
    and progress as for solve.
    Raises BoardError when the goal cannot be reached."""

def sliding_puzzle(board: BoardLike, /) -> int:
    """The least number of moves to the goal (tiles in order, blank last), or -1 when unsolvable (LeetCode 773).

    Exact for every shape of at most 12 cells by table lookup; larger boards are searched optimally."""

def solve(
    board: BoardLike,
    goal: Optional[GoalLike] = None,
    *,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    within: Optional[float] = None,
    heuristic: str = "auto",
    partition: Optional[str] = None,
    reflect: bool = True,
    mixed_sums: Optional[bool] = None,
    move_pruning: bool = True,
    fallback: bool = False,
    method: str = "auto",
    max_depth: Optional[int] = None,
    threads: Optional[int] = None,
    count: bool = False,
    all: bool = False,
    limit: int = 1000,
    max_memory: Optional[int] = None,
    cancel: Optional[Cancel] = None,
    progress: Optional[Callable[[str, int, int], object]] = None,
) -> Solution:
    """Solves one board towards goal (default: tiles in order, blank last), or towards a partial goal (a pattern
    with "x" or None for any tile: the least moves to any matching board).

    metric: "stm" (single-tile moves) or "mtm" (multi-tile moves: a push of 1..k tiles of the blank's row or column
    counts one; boards of at most 12 cells from complete tables, single rows and columns, and 4x4, 3x5, 5x3 and
    two-row boards above 12 cells by IDA* over pushes, whose label table is built once into the cache: about 2
    minutes and 900 MB for 4x4; other shapes raise BoardError). In MTM distance counts pushes and moves stay single
    tiles. timeout (seconds) and max_nodes stop a search: distance is then None and lower_bound says how many moves
    it takes at least. within=W asks for a solution at most W times the optimum, sooner (STM, goal boards only).
    Ctrl-C stops a search (KeyboardInterrupt).

    The search options of ``slide solve``, by the flags' names in snake case, checked by the library as the command
    line's are: heuristic ("auto", "md" or "manhattan", "lc" or "linear-conflict", "pdb"); partition (--pdb:
    "6-6-3", "7-8", "zb6-6-3", "zbdefault|zbalt", tile lists; implies "pdb"); reflect=False (--no-reflect);
    mixed_sums (None: auto, on from 25 cells; True; False); move_pruning=False (--no-move-pruning); fallback
    (--fallback, needs timeout or max_nodes); method ("auto", "table", "search": --search, "fast": --fast);
    max_depth (give up past this many moves: distance None, lower_bound above it); count=True (Solution.count,
    count_proven: the number of shortest solutions) and all=True (Solution.solutions, at most limit); goal boards
    only. max_memory (--max-memory): refuse table and pattern-database builds that need more than this many MB
    (0 refuses every build; BoardError names the need), for this call (set_max_memory sets the process's default;
    each distinct budget keeps a solver and its tables of its own, at most 8). A bad value of any option raises
    ValueError with the sentence the command line prints after its flag.

    threads: one search shared by a pool of that many threads (0 to 256 as --threads; default or 0: all cores).
    threads=1 searches on one thread: nodes is then the same run after run (a shared search's count varies with the
    threads' timing). cancel: a slide.Cancel, to stop the solve from another thread. progress: called with the GIL,
    at most every 100 ms, as progress(phase, done, total) while a table or pattern database the search needs is
    built (the last call of a build has done == total), and as progress("search", nodes, threshold) while IDA*
    searches: as each iteration starts, about every 0.25 s during a long one, and once at the end with the final
    count (Solution.nodes); an exception it raises cancels the solve and is raised."""

def solve_many(
    boards: Iterable[BoardLike],
    goal: Optional[GoalLike] = None,
    *,
    threads: Optional[int] = None,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    within: Optional[float] = None,
    heuristic: str = "auto",
    partition: Optional[str] = None,
    reflect: bool = True,
    mixed_sums: Optional[bool] = None,
    move_pruning: bool = True,
    fallback: bool = False,
    method: str = "auto",
    max_depth: Optional[int] = None,
    count: bool = False,
    all: bool = False,
    limit: int = 1000,
    max_memory: Optional[int] = None,
    cancel: Optional[Cancel] = None,
    progress: Optional[Callable[[str, int, int], object]] = None,
) -> List[Solution]:
    """Solves boards in parallel (threads: default all cores), answers in input order; options as solve (goal may
    be a partial goal, metric "mtm", the search options, cancel); limits apply to each board.

    The GIL is released while solving; Ctrl-C raises KeyboardInterrupt promptly. A bad board raises BoardError
    naming it (boards[i]) before any solving."""

def distances(
    array: npt.NDArray[np.integer],
    shape: Optional[ShapeLike] = None,
    goal: Optional[BoardLike] = None,
    *,
    metric: str = "stm",
    invalid: str = "raise",
) -> npt.NDArray[np.int32]:
    """Distances (in metric, "stm" or "mtm") of all boards of an integer array of shape (N, R, C), or (N, R*C) with
    shape given (square boards need none): an int32 array of N values, -1 where unsolvable. Read in place (any
    integer dtype: int8 to int64, uint8 to uint64, any strides; no copy), every board validated, answered in
    parallel. A row that is not a board raises BoardError naming the first one; invalid="mark" answers it -2 and
    carries on. Boards of at most 12 cells (complete tables) and single rows or columns; larger ones: solve_many."""

def scramble(
    shape: ShapeLike,
    count: Optional[int] = None,
    *,
    seed: Optional[int] = None,
    walk: Optional[int] = None,
    goal: Optional[GoalLike] = None,
) -> Union[List[List[int]], List[List[List[int]]]]:
    """Uniformly random solvable boards (or random walks of walk moves from the goal), reproducible with seed: one
    board when count is None, else a list of count boards. A partial goal: boards that can reach a matching board
    (walks start from a random matching board)."""

def apply(board: BoardLike, moves: MovesLike, blank: bool = False) -> List[List[int]]:
    """The board after the moves: tile numbers (each sliding into the blank), as a list or text, or letters (the
    tiles' directions, long or short; the blank's with blank=True). A bad move raises BoardError naming it."""

class Stats(TypedDict):
    states: int
    diameter: int
    histogram: List[int]
    antipodes: List[List[List[Optional[int]]]]

def stats(shape: ShapeLike, goal: Optional[GoalLike] = None, *, metric: str = "stm") -> Stats:
    """Boards that can reach the goal, how many lie at each distance (in metric, "stm" or "mtm"), god's number and
    some farthest boards (shapes of at most 12 cells, and single rows or columns). A partial goal: the same over the
    pattern's states (where its named tiles and the blank stand), the farthest as rows with None for the other
    tiles."""

class Analysis(TypedDict):
    solves: bool
    length: int
    mtm_length: int
    optimal: int
    over: Optional[int]
    distances: List[int]
    mistakes: List[int]

def analyse(
    board: BoardLike,
    moves: MovesLike,
    goal: Optional[GoalLike] = None,
    blank: bool = False,
    *,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
) -> Analysis:
    """A move sequence judged move by move, as `slide analyse --json`: solves (ends on the goal), length
    (single-tile moves), mtm_length (multi-tile moves: runs of one direction), optimal (the least number of
    single-tile moves from the board, -1 when unsolvable), over (length - optimal when it solves, else None),
    distances (after each move) and mistakes (1-based indices of the moves after which the board was not closer).

    Exact from the tables up to 12 cells; above, by IDA* under timeout and max_nodes (each search): LimitReached
    when they stop one. Ctrl-C stops it (KeyboardInterrupt). A partial goal: distances to the nearest matching
    board."""

def hint(
    board: BoardLike,
    goal: Optional[GoalLike] = None,
    *,
    metric: str = "stm",
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
) -> Tuple[int, List[int]]:
    """(distance, tiles): the least number of moves in `metric` (0 on the goal, -1 when unsolvable) and every tile
    whose move starts a shortest solution, ascending; in "mtm" a move is a push, named by the farthest tile it
    slides. A partial goal: to the nearest matching board. Limits and Ctrl-C as analyse."""

def render(
    board: BoardLike,
    moves: Union[str, Sequence[int], None] = None,
    goal: Optional[GoalLike] = None,
    *,
    format: str = "svg",
    solve: bool = False,
    blank: bool = False,
    size: int = 400,
    scheme: str = "plain",
    theme: str = "light",
    tps: float = 8.0,
    inbetweens: int = 3,
) -> bytes:
    """A picture of the board as bytes: format "svg" or "png"; with moves (any notation, or tile numbers) or
    solve=True (slide's solution: optimal up to 25 cells), an animation: "gif" or animated "svg". size: the longer
    side in pixels (16-4096); scheme "plain" or "fringe"; theme "light" or "dark"; tps: tiles per second (0.1-50);
    inbetweens: sliding frames per move in a GIF (0-10). Bad input raises BoardError or ValueError."""

def solve_stages(
    board: BoardLike,
    stages: Sequence[GoalLike],
    *,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
) -> List[Solution]:
    """Solves board stage after stage: each goal of stages (partial goals or boards) from the board the previous
    stage ended on, each stage optimal in metric (the total is not claimed to be). One Solution per stage, its
    board the stage's start; the list stops after a stage without moves (unreachable, or stopped by a limit, which
    applies to each stage)."""
from slide import benchmarks as benchmarks

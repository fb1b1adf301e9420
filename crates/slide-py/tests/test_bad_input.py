"""Bad input through Python: each case raises a Python exception of the documented kind, none crashes the
interpreter, and the message names what is wrong."""

import numpy as np
import pytest

import slide

OK = [[4, 1, 2], [5, 0, 3]]
BE, TE, VE = slide.BoardError, TypeError, ValueError

CASES = [
    # (id, call, exception, words the message must hold)
    ("ragged", lambda: slide.solve([[1, 2], [3]]), BE, "ragged"),
    ("empty list", lambda: slide.solve([]), BE, "empty"),
    ("empty rows", lambda: slide.solve([[], []]), BE, "empty"),
    ("empty string", lambda: slide.solve(""), BE, "empty"),
    ("short string", lambda: slide.solve("1 2 3/4 0"), BE, "ragged"),
    ("words", lambda: slide.solve("abc"), BE, "not a number"),
    ("None", lambda: slide.solve(None), TE, "NoneType"),
    ("int", lambda: slide.solve(42), TE, "int"),
    ("float", lambda: slide.solve(3.5), TE, "float"),
    ("bytes", lambda: slide.solve(b"1 2/3 0"), TE, "bytes"),
    ("dict", lambda: slide.solve({"board": OK}), TE, "dict"),
    ("float value", lambda: slide.solve([[1.0, 2], [3, 0]]), TE, "float"),
    ("NaN value", lambda: slide.solve([[float("nan"), 2], [3, 0]]), TE, "float"),
    ("str value", lambda: slide.solve([["1", 2], [3, 0]]), TE, "str"),
    ("None value", lambda: slide.solve([[None, 2], [3, 0]]), TE, "NoneType"),
    ("bool values", lambda: slide.solve([[True, False], [2, 3]]), TE, "bool"),
    ("row not a list", lambda: slide.solve([[1, 2], 3]), TE, "row 2"),
    ("duplicate", lambda: slide.solve([[1, 2], [3, 3]]), BE, "duplicate value 3"),
    ("no blank", lambda: slide.solve([[1, 2], [3, 4]]), BE, "no blank"),
    ("out of range", lambda: slide.solve([[1, 2], [3, 7], [0, 5]]), BE, "out of range"),
    ("negative", lambda: slide.solve([[-1, 2], [3, 0]]), BE, "out of range"),
    ("huge int", lambda: slide.solve([[10**30, 2], [3, 0]]), BE, "out of range"),
    ("huge rows", lambda: slide.solve([[0] * 3000] * 3000), BE, "too large"),
    ("huge flat list", lambda: slide.solve([0] * 10_000_000), BE, "too large"),
    ("flat not square", lambda: slide.solve([1, 2, 3, 0, 4]), BE, "shape"),
    ("one cell", lambda: slide.solve([[0]]), BE, "shape"),
    ("float array", lambda: slide.solve(np.zeros((2, 2))), TE, "float64"),
    ("NaN array", lambda: slide.solve(np.array([[np.nan, 1], [2, 0]])), TE, "float64"),
    ("bool array", lambda: slide.solve(np.array([[True, False], [False, True]])), TE, "dtype"),
    ("str array", lambda: slide.solve(np.array(["1", "0"])), TE, "dtype"),
    ("object array", lambda: slide.solve(np.array([[1, 2], [3, 0]], dtype=object)), TE, "dtype"),
    ("3-d array", lambda: slide.solve(np.zeros((2, 2, 2), dtype=np.int64)), BE, "dimensions"),
    ("goal shape", lambda: slide.solve([[1, 2], [3, 0]], goal=OK), BE, "shape mismatch"),
    ("goal bad", lambda: slide.solve(OK, goal=[[1, 2, 3], [4, 5, 5]]), BE, "goal: duplicate"),
    ("metric mtm 5x5", lambda: slide.solve([list(range(r * 5, r * 5 + 5)) for r in range(5)], metric="mtm"), BE, "label table"),
    ("metric mtm within", lambda: slide.solve(OK, metric="mtm", within=1.5), BE, "weight"),
    ("metric mtm 4x4 distances", lambda: slide.distances(np.array([slide.scramble("4x4", seed=1)]), metric="mtm"), BE, "solve_many"),
    ("dist: metric", lambda: slide.distances(np.zeros((3, 2, 3), dtype=np.int64), metric="htm"), VE, "unknown metric"),
    ("stats: metric", lambda: slide.stats("2x3", metric="qtm"), VE, "unknown metric"),
    ("many: metric", lambda: slide.solve_many([OK], metric="x"), VE, "unknown metric"),
    ("metric unknown", lambda: slide.solve(OK, metric="qtm"), VE, "unknown metric"),
    ("metric type", lambda: slide.solve(OK, metric=3), TE, ""),
    ("timeout negative", lambda: slide.solve(OK, timeout=-1), VE, "timeout"),
    ("timeout NaN", lambda: slide.solve(OK, timeout=float("nan")), VE, "timeout"),
    ("timeout str", lambda: slide.solve(OK, timeout="1"), TE, ""),
    ("max_nodes negative", lambda: slide.solve(OK, max_nodes=-5), VE, "max_nodes"),
    ("max_nodes float", lambda: slide.solve(OK, max_nodes=1.5), TE, ""),
    ("within small", lambda: slide.solve(OK, within=0.5), VE, "within"),
    ("within NaN", lambda: slide.solve(OK, within=float("nan")), VE, "within"),
    ("too many cells to search", lambda: slide.solve([list(range(r * 9, r * 9 + 9)) for r in range(9)], within=2.0), BE, "64"),
    ("many: str", lambda: slide.solve_many("1 2/3 0"), TE, "single string"),
    ("many: int", lambda: slide.solve_many(5), TE, "iterable"),
    ("many: one bad", lambda: slide.solve_many([OK, [[1, 1], [2, 0]]]), BE, "boards[1]: duplicate"),
    ("many: threads 0", lambda: slide.solve_many([OK], threads=0), VE, "threads"),
    ("many: threads huge", lambda: slide.solve_many([OK], threads=10**6), VE, "threads"),
    ("sp: text", lambda: slide.sliding_puzzle("not a board"), BE, "not a number"),
    ("sp: duplicate", lambda: slide.sliding_puzzle([[1, 2, 3], [4, 5, 5]]), BE, "duplicate"),
    ("sp: None", lambda: slide.sliding_puzzle(None), TE, "NoneType"),
    ("dist: list", lambda: slide.distances([[1, 2], [3, 0]]), TE, "NumPy"),
    ("dist: float", lambda: slide.distances(np.zeros((4, 6))), TE, "float64"),
    ("dist: NaN", lambda: slide.distances(np.full((3, 2, 3), np.nan)), TE, "float64"),
    ("dist: bool", lambda: slide.distances(np.zeros((3, 2, 3), dtype=bool)), TE, "dtype"),
    ("dist: unknown shape", lambda: slide.distances(np.zeros((3, 6), dtype=np.int64)), BE, "shape"),
    ("dist: shape mismatch", lambda: slide.distances(np.zeros((3, 6), dtype=np.int64), shape="3x3"), BE, "3x3"),
    ("dist: 3-d shape mismatch", lambda: slide.distances(np.zeros((3, 2, 3), dtype=np.int64), shape="3x2"), BE, "3x2"),
    ("dist: 1-d", lambda: slide.distances(np.zeros(6, dtype=np.int64)), BE, "dimensions"),
    ("dist: 4-d", lambda: slide.distances(np.zeros((2, 5, 5, 5), dtype=np.int64)), BE, "dimensions"),
    ("dist: duplicate", lambda: slide.distances(np.zeros((3, 2, 3), dtype=np.int64)), BE, "board 0 of the array: duplicate"),
    ("dist: later bad", lambda: slide.distances(np.array([[[4, 1, 2], [5, 0, 3]]] * 5 + [[[4, 1, 2], [5, 0, 200]]], dtype=np.uint8)), BE, "board 5 of the array"),
    ("dist: negative", lambda: slide.distances(np.array([[[4, 1, 2], [5, 0, -3]]], dtype=np.int8)), BE, "out of range"),
    ("dist: bad shape text", lambda: slide.distances(np.zeros((3, 6), dtype=np.int64), shape="axb"), BE, "bad shape"),
    ("dist: shape type", lambda: slide.distances(np.zeros((3, 6), dtype=np.int64), shape=5), TE, "shape"),
    ("dist: 1x1 boards", lambda: slide.distances(np.zeros((3, 1, 1), dtype=np.int64)), BE, "shape"),
    ("dist: 4x4 boards", lambda: slide.distances(np.array([slide.scramble("4x4", seed=1)])), BE, "solve_many"),
    ("dist: goal mismatch", lambda: slide.distances(np.zeros((3, 2, 3), dtype=np.int64), goal=[[1, 0]]), BE, "shape mismatch"),
    ("scramble: bad shape", lambda: slide.scramble("0x3"), BE, "shape"),
    ("scramble: count", lambda: slide.scramble("3x3", -1), VE, "count"),
    ("scramble: shape type", lambda: slide.scramble(7), TE, "shape"),
    ("scramble: too many", lambda: slide.scramble("2048x2048", 1000), VE, "too many"),
    ("apply: illegal", lambda: slide.apply(OK, [9]), BE, "moves[0]"),
    ("apply: not adjacent", lambda: slide.apply(OK, [4]), BE, "not next to the blank"),
    ("apply: bad letter", lambda: slide.apply(OK, "LUXD"), BE, "unknown letter 'X' at column 3"),
    ("apply: letter off the board", lambda: slide.apply(OK, "LL", blank=True), BE, "move 2"),
    ("apply: not moves", lambda: slide.apply(OK, 5), TE, "moves"),
    ("apply: bad tile text", lambda: slide.apply(OK, "5 9"), BE, "move 2"),
    ("goal: bad symbol", lambda: slide.solve(OK, goal="1 2 3/x y x"), BE, "unknown symbol"),
    ("goal: bad cell", lambda: slide.solve(OK, goal=[[1, 2, 3], ["y", None, None]]), BE, "row 2, column 1"),
    ("goal: float cell", lambda: slide.solve(OK, goal=[[1, 2.5, 3], [None, None, None]]), TE, "float"),
    ("goal: pattern duplicate", lambda: slide.solve(OK, goal="1 1 x/x x x"), BE, "duplicate value 1"),
    ("goal: pattern shape", lambda: slide.solve(OK, goal="1 2/x x"), BE, "shape mismatch"),
    ("goal: pattern within", lambda: slide.solve(OK, goal="1 2 3/x x x", within=2.0), BE, "weights"),
    ("goal: pattern in distances", lambda: slide.distances(np.array([OK]), goal="1 2 3/x x x"), BE, "not here"),
    ("goal: pattern in scramble", lambda: slide.scramble("2x3", goal="1 2 3/x x x"), BE, "partial goal"),
    ("stages: string", lambda: slide.solve_stages(OK, "1 2 3/x x x"), TE, "list of goals"),
    ("stages: empty", lambda: slide.solve_stages(OK, []), VE, "empty"),
    ("stages: None", lambda: slide.solve_stages(OK, ["1 2 3/x x x", None]), TE, "stages[1]"),
    ("stages: bad", lambda: slide.solve_stages(OK, ["1 2 3/x x x", "1 2 2/x x x"]), BE, "stages[1] goal: duplicate"),
    ("stages: metric", lambda: slide.solve_stages(OK, ["1 2 3/x x x"], metric="htm"), VE, "unknown metric"),
    ("analyse: bad letter", lambda: slide.analyse(OK, "RUX"), BE, "unknown letter 'X' at column 3"),
    ("analyse: illegal", lambda: slide.analyse(OK, "RR"), BE, "move 2"),
    ("analyse: illegal tile", lambda: slide.analyse(OK, [5, 9]), BE, "moves[1]"),
    ("analyse: moves type", lambda: slide.analyse(OK, 3.5), TE, "moves"),
    ("analyse: goal", lambda: slide.analyse(OK, "R", goal=[[1, 2], [3, 0]]), BE, "shape mismatch"),
    ("analyse: max_nodes", lambda: slide.analyse(OK, "R", max_nodes=-1), VE, "max_nodes"),
    ("hint: board", lambda: slide.hint([[1, 1], [2, 0]]), BE, "duplicate"),
    ("hint: timeout", lambda: slide.hint(OK, timeout=float("inf")), VE, "timeout"),
    ("apply: float move", lambda: slide.apply(OK, [1.5]), TE, "float"),
    ("stats: too big", lambda: slide.stats("5x5"), BE, "at most 12"),
    ("notation: unknown", lambda: slide.solve(OK).notation("xyz"), VE, "not available"),
    ("notation: no moves", lambda: slide.solve(OK, moves=False).notation("tiles"), VE, "moves=True"),
]


@pytest.mark.parametrize("call,exc,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    assert words.lower() in str(info.value).lower()


def test_there_are_at_least_30_cases():
    assert len(CASES) >= 30


def test_big_endian_arrays_are_refused_or_read_right():
    arr = np.array([[[4, 1, 2], [5, 0, 3]]], dtype=">i4")
    try:
        got = slide.distances(arr)
    except TypeError as e:
        assert "byte order" in str(e)
    else:
        assert list(got) == [5]

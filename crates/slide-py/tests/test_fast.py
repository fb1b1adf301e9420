"""The 2 x 3 path at memory speed (distances' direct tables, sliding_puzzle's quick answer) and the messages and
limits of issue 49's item 4: every answer against the breadth-first search of reference.py, bad boards raised with
their index or marked -2, max_nodes held by single solves."""

import itertools

import numpy as np
import pytest

import slide
from reference import bfs

PERMS = list(itertools.permutations(range(6)))


@pytest.fixture(scope="module")
def bfs23():
    return bfs(2, 3)


def want_of(boards, dist):
    return np.array([dist.get(tuple(b), -1) for b in np.asarray(boards).reshape(len(boards), -1).tolist()])


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8, np.uint64])
def test_many_boards_in_parallel_chunks(dtype, bfs23):
    # More boards than one chunk, so that several threads answer them.
    rng = np.random.default_rng(5)
    arr = np.array(PERMS, dtype=dtype)[rng.integers(0, 720, 200_003)].reshape(-1, 2, 3)
    got = slide.distances(arr)
    assert got.dtype == np.int32 and got.shape == (200_003,)
    assert (got == want_of(arr, bfs23)).all()


def test_every_value_is_checked(bfs23):
    good = np.array(PERMS[:10], dtype=np.int64).reshape(-1, 2, 3)
    for bad in ([0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4, 6], [0, 1, 2, 3, 4, -1], [0, 1, 2, 3, 4, 2**40],
                [0, 1, 2, 3, 4, -(2**63)], [0, 0, 0, 0, 0, 0], [5, 5, 5, 5, 5, 5]):
        arr = good.copy()
        arr[7] = np.array(bad).reshape(2, 3)
        with pytest.raises(slide.BoardError, match="board 7 of the array"):
            slide.distances(arr)
        marked = slide.distances(arr, invalid="mark")
        want = want_of(good, bfs23)
        want[7] = -2
        assert (marked == want).all()
    u64 = np.array([[[1, 2, 3], [4, 5, 2**64 - 1]]], dtype=np.uint64)
    assert list(slide.distances(u64, invalid="mark")) == [-2]
    i8 = np.array([[[1, 2, 3], [4, 5, -1]]], dtype=np.int8)
    assert list(slide.distances(i8, invalid="mark")) == [-2]


def test_the_first_bad_board_is_named_and_marking_carries_on(bfs23):
    rng = np.random.default_rng(9)
    arr = np.array(PERMS, dtype=np.int64)[rng.integers(0, 720, 150_000)].reshape(-1, 2, 3)
    want = want_of(arr, bfs23)
    arr[140_001] = [[1, 1, 2], [3, 4, 5]]
    arr[90_000] = [[1, 2, 3], [4, 5, 9]]
    want[[90_000, 140_001]] = -2
    with pytest.raises(slide.BoardError, match="board 90000 of the array") as e:
        slide.distances(arr)
    assert "9" in str(e.value)
    assert (slide.distances(arr, invalid="mark") == want).all()
    # The same on the paths without direct tables: strided boards, 3 x 3, lines.
    strided = arr[::2]
    assert (slide.distances(strided, invalid="mark") == want[::2]).all()
    with pytest.raises(slide.BoardError, match="board 45000 of the array"):
        slide.distances(strided)
    b33 = np.array([[[1, 2, 3], [4, 5, 6], [7, 8, 0]], [[1, 2, 3], [4, 5, 6], [7, 8, 8]], [[1, 2, 3], [4, 5, 6], [7, 0, 8]]])
    assert list(slide.distances(b33, invalid="mark")) == [0, -2, 1]
    with pytest.raises(slide.BoardError, match="board 1 of the array"):
        slide.distances(b33)
    line = np.array([[[1, 2, 0]], [[1, 1, 0]], [[0, 1, 2]]])
    assert list(slide.distances(line, invalid="mark")) == [0, -2, 2]
    with pytest.raises(ValueError, match='"raise".*"mark"'):
        slide.distances(b33, invalid="skip")


def test_goals_and_metrics_have_their_own_direct_tables():
    arr = np.array(PERMS, dtype=np.int64).reshape(-1, 2, 3)
    goal = [[0, 1, 2], [3, 4, 5]]
    dg = bfs(2, 3, (0, 1, 2, 3, 4, 5))
    assert (slide.distances(arr, goal=goal) == want_of(arr, dg)).all()
    mtm = slide.distances(arr, metric="mtm")
    stm = slide.distances(arr)
    assert ((mtm <= stm) & ((mtm >= 0) == (stm >= 0))).all() and (mtm < stm).any()
    b22 = np.array(list(itertools.permutations(range(4)))).reshape(-1, 2, 2)
    assert (slide.distances(b22) == want_of(b22, bfs(2, 2))).all()


def test_one_board_array_says_what_distances_takes():
    with pytest.raises(slide.BoardError) as e:
        slide.distances(np.array([[4, 1, 2], [5, 0, 3]]))
    text = str(e.value)
    assert "(N, R, C)" in text and "array[None]" in text and "boards of 3 numbers" in text
    assert list(slide.distances(np.array([[4, 1, 2], [5, 0, 3]])[None])) == [5]


def test_sliding_puzzle_quick_answers_equal_the_full_reading(bfs23):
    for p in PERMS:
        rows = [list(p[:3]), list(p[3:])]
        assert slide.sliding_puzzle(rows) == bfs23.get(p, -1)
    d32 = bfs(3, 2)
    for p in PERMS[::7]:
        assert slide.sliding_puzzle([list(p[:2]), list(p[2:4]), list(p[4:])]) == d32.get(p, -1)
    assert slide.sliding_puzzle([[3, 1], [2, 0]]) == bfs(2, 2).get((3, 1, 2, 0), -1)
    # What the quick answer does not take goes the full way, with its message.
    with pytest.raises(slide.BoardError, match="duplicate"):
        slide.sliding_puzzle([[1, 2, 3], [4, 5, 5]])
    with pytest.raises(slide.BoardError):
        slide.sliding_puzzle([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError, match="bool"):
        slide.sliding_puzzle([[True, 2, 3], [4, 5, 0]])
    with pytest.raises(slide.BoardError):
        slide.sliding_puzzle([[1, 2, 3], [4, 5, 2**70]])
    assert slide.sliding_puzzle(((4, 1, 2), (5, 0, 3))) == 5
    assert slide.sliding_puzzle([[4, 1, 2], [5, np.int64(0), 3]]) == 5
    assert slide.sliding_puzzle([[1, 2, 3], [4, 5, 6], [7, 0, 8]]) == 1


def test_flat_strings_and_lists_name_rows_not_the_command_line():
    for board, found in (("123450", "1 number"), ("1 2 3 4 5 0", "6 numbers"), ([1, 2, 3, 4, 5, 0], "6 numbers")):
        for f in (slide.sliding_puzzle, slide.solve):
            with pytest.raises(slide.BoardError) as e:
                f(board)
            text = str(e.value)
            assert "--shape" not in text and "rows" in text and f"flat list of {found}:" in text, text


def test_scramble_seed_out_of_range_is_a_value_error():
    for bad in (-1, 2**64, -(2**70)):
        with pytest.raises(ValueError, match="seed must be an integer from 0 to 18446744073709551615"):
            slide.scramble("3x3", seed=bad)
    with pytest.raises(ValueError, match="walk must be an integer from 0"):
        slide.scramble("3x3", walk=-1)
    with pytest.raises(TypeError, match="seed"):
        slide.scramble("3x3", seed=1.5)
    assert slide.scramble("3x3", seed=2**64 - 1) == slide.scramble("3x3", seed=2**64 - 1)


def test_max_nodes_bounds_a_single_solve():
    goal = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
    korf3 = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15"
    for m in (1, 2, 50, 5000):
        s = slide.solve(korf3, goal=goal, max_nodes=m)
        assert s.distance is None and not s.optimal
        assert m <= s.nodes <= m + 4, (m, s.nodes)
    many = slide.solve_many([korf3] * 2, goal=goal, max_nodes=50)
    assert all(50 <= s.nodes <= 54 for s in many)

"""The slide package against references written here (reference.py): breadth-first search, move interpreters, IDA*."""

import itertools
import os
import pickle
import signal
import threading
import time

import numpy as np
import pytest

import slide
from reference import bfs, flat, goal_of, ida_manhattan, replay, replay_blank, runs


def rows_of(t, cols):
    return [list(t[i : i + cols]) for i in range(0, len(t), cols)]


@pytest.fixture(scope="module")
def bfs23():
    return bfs(2, 3)


@pytest.fixture(scope="module")
def bfs33():
    return bfs(3, 3)


def test_leetcode_examples():
    assert slide.sliding_puzzle([[1, 2, 3], [4, 0, 5]]) == 1
    assert slide.sliding_puzzle([[1, 2, 3], [5, 4, 0]]) == -1
    assert slide.sliding_puzzle([[4, 1, 2], [5, 0, 3]]) == 5
    assert slide.sliding_puzzle([[1, 2, 3], [4, 5, 0]]) == 0


def test_sliding_puzzle_every_2x3_board(bfs23):
    for p in itertools.permutations(range(6)):
        assert slide.sliding_puzzle(rows_of(p, 3)) == bfs23.get(p, -1), p


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 2), (2, 4), (4, 2), (1, 5), (5, 1)])
def test_sliding_puzzle_other_shapes(rows, cols):
    dist = bfs(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    for _ in range(300):
        p = tuple(int(x) for x in rng.permutation(rows * cols))
        assert slide.sliding_puzzle(rows_of(p, cols)) == dist.get(p, -1), p


def test_solve_moves_are_optimal_and_replay(bfs33):
    boards = list(bfs33)[::997]
    for b in boards:
        board = rows_of(b, 3)
        s = slide.solve(board)
        assert s.distance == bfs33[b] and s.optimal and s.lower_bound == s.distance
        assert len(s.moves) == s.distance
        assert replay(board, s.moves) == goal_of(3, 3)
        assert replay_blank(board, s.notation("blank")) == goal_of(3, 3)
        assert s.notation("tiles") == " ".join(map(str, s.moves))
        assert s.board == board and s.goal == rows_of(goal_of(3, 3), 3)


def test_solve_unsolvable():
    s = slide.solve([[1, 2, 3], [5, 4, 0]])
    assert s.distance == -1 and s.moves is None and s.optimal and s.unsolvable_reason
    with pytest.raises(ValueError):
        s.notation("tiles")


def test_custom_goal():
    goal = (0, 1, 2, 3, 4, 5)
    dist = bfs(2, 3, goal)
    for p in list(itertools.permutations(range(6)))[::37]:
        s = slide.solve(rows_of(p, 3), goal=rows_of(goal, 3))
        assert s.distance == dist.get(p, -1)
        if s.distance >= 0:
            assert replay(rows_of(p, 3), s.moves) == goal


def test_board_formats_agree():
    want = 5
    assert slide.solve("4 1 2/5 0 3").distance == want
    assert slide.solve("[[4,1,2],[5,0,3]]").distance == want
    assert slide.solve(((4, 1, 2), (5, 0, 3))).distance == want
    assert slide.solve(np.array([[4, 1, 2], [5, 0, 3]], dtype=np.uint8)).distance == want
    assert slide.solve([np.array([4, 1, 2]), np.array([5, 0, 3])]).distance == want
    assert slide.solve([[np.int64(4), 1, 2], [5, 0, 3]]).distance == want
    flat9 = [1, 2, 3, 4, 5, 6, 7, 0, 8]
    assert slide.solve(flat9).distance == 1
    assert slide.solve(np.array(flat9)).distance == 1


def test_moves_false_and_pickle():
    s = slide.solve("4 1 2/5 0 3", moves=False)
    assert s.distance == 5 and s.moves is None
    t = slide.solve("4 1 2/5 0 3")
    u = pickle.loads(pickle.dumps(t))
    assert u == t and u.moves == [5, 4, 1, 2, 3] and "distance=5" in repr(u)


def test_metric():
    s = slide.solve("4 1 2/5 0 3", metric="stm")
    assert s.distance == 5 and s.metric == "stm"
    m = slide.solve("4 1 2/5 0 3", metric="mtm")  # LURRD: the two R are one push
    assert m.distance == 4 and m.metric == "mtm" and "metric='mtm'" in repr(m)
    assert replay([[4, 1, 2], [5, 0, 3]], m.moves) == goal_of(2, 3) and runs([[4, 1, 2], [5, 0, 3]], m.moves) == 4


def test_notation_others_get_the_librarys_sentence():
    """The sentence of `slide solve --notation slidy` after clap's words (the library's, through both faces)."""
    with pytest.raises(ValueError) as e:
        slide.solve("4 1 2/5 0 3").notation("slidy")
    assert str(e.value) == 'unknown notation "slidy": expected tiles, long, short or blank'
    assert slide.solve("4 1 2/5 0 3").notation("Short") == "RDL2U"


def test_15_puzzle_walks_against_python_ida():
    for seed in range(4):
        board = slide.scramble("4x4", seed=seed, walk=22)
        s = slide.solve(board)
        assert s.optimal and s.distance == ida_manhattan(board)
        assert replay(board, s.moves) == goal_of(4, 4)
        assert s.nodes > 0


def test_limits_give_a_lower_bound():
    board = slide.scramble("4x4", seed=11)
    s = slide.solve(board, max_nodes=2000)
    assert s.distance is None and not s.optimal and s.moves is None
    full = slide.solve(board)
    assert 0 < s.lower_bound <= full.distance
    assert ">=" in repr(s)
    s = slide.solve(board, timeout=1e-9)
    assert s.distance is None and s.lower_bound <= full.distance


def test_within():
    board = slide.scramble("4x4", seed=3, walk=40)
    opt = slide.solve(board).distance
    s = slide.solve(board, within=1.5)
    assert replay(board, s.moves) == goal_of(4, 4)
    assert opt <= s.distance <= 1.5 * opt and s.lower_bound <= opt


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_solve_many_in_order(threads, bfs33):
    keys = list(bfs33)[::1500]
    boards = [rows_of(k, 3) for k in keys] + [[[1, 2, 3], [4, 5, 6], [8, 7, 0]]]
    out = slide.solve_many(boards, threads=threads)
    assert [s.distance for s in out] == [bfs33[k] for k in keys] + [-1]
    for b, s in zip(boards, out):
        if s.distance > 0:
            assert replay(b, s.moves) == goal_of(3, 3)


def test_solve_many_few_hard_boards_shared_search():
    boards = [slide.scramble("4x4", seed=s, walk=24) for s in range(3)]
    out = slide.solve_many(boards, threads=2)
    for b, s in zip(boards, out):
        assert s.optimal and s.distance == ida_manhattan(b)


def test_solve_many_keyboard_interrupt_is_prompt():
    # Far more work than the half second before the interrupt on any machine.
    boards = [slide.scramble("4x4", seed=100 + i) for i in range(4000)]
    slide.solve(boards[0], max_nodes=10)  # load the pattern databases outside the timed part
    # A process a non-interactive shell starts in the background inherits SIGINT ignored, and Python then installs
    # no KeyboardInterrupt handler (CI started that way failed here): install Python's own for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
        t0 = time.monotonic()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            slide.solve_many(boards, threads=2)
        assert time.monotonic() - t0 < 10
    finally:
        signal.signal(signal.SIGINT, previous)


DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_distances_every_2x3_board(dtype, bfs23):
    perms = list(itertools.permutations(range(6)))
    arr = np.array(perms, dtype=dtype).reshape(-1, 2, 3)
    want = np.array([bfs23.get(p, -1) for p in perms])
    got = slide.distances(arr)
    assert got.dtype == np.int32 and got.shape == (720,)
    assert (got == want).all()
    assert (slide.distances(arr.reshape(-1, 6), shape="2x3") == want).all()
    assert (slide.distances(arr.reshape(-1, 6), shape=(2, 3)) == want).all()
    # Strided views are read where they lie.
    assert (slide.distances(arr[::3]) == want[::3]).all()


def test_distances_transposed_shape_goal_and_square(bfs33):
    dist32 = bfs(3, 2)
    perms = list(itertools.permutations(range(6)))
    arr = np.array(perms).reshape(-1, 3, 2)
    assert (slide.distances(arr) == [dist32.get(p, -1) for p in perms]).all()
    goal = (0, 1, 2, 3, 4, 5)
    dg = bfs(2, 3, goal)
    got = slide.distances(np.array(perms).reshape(-1, 2, 3), goal=rows_of(goal, 3))
    assert (got == [dg.get(p, -1) for p in perms]).all()
    keys = list(bfs33)[::101]
    assert (slide.distances(np.array(keys)) == [bfs33[k] for k in keys]).all()
    fortran = np.asfortranarray(np.array(keys).reshape(-1, 3, 3))
    assert (slide.distances(fortran) == [bfs33[k] for k in keys]).all()
    assert slide.distances(np.zeros((0, 2, 3), dtype=np.int64)).shape == (0,)


def test_distances_line_shape():
    dist = bfs(1, 4)
    perms = list(itertools.permutations(range(4)))
    assert (slide.distances(np.array(perms).reshape(-1, 1, 4)) == [dist.get(p, -1) for p in perms]).all()


def test_scramble():
    a = slide.scramble("3x3", 50, seed=7)
    assert a == slide.scramble((3, 3), 50, seed=7) and len(a) == 50
    assert all(slide.sliding_puzzle(b) >= 0 for b in a)
    one = slide.scramble("2x3", seed=1)
    assert len(one) == 2 and sorted(flat(one)) == list(range(6))
    for w in (1, 2, 7):
        b = slide.scramble("3x3", seed=w, walk=w)
        d = slide.sliding_puzzle(b)
        assert d <= w and d % 2 == w % 2


def test_stats_against_bfs():
    dist = bfs(2, 3)
    st = slide.stats("2x3")
    hist = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        hist[d] += 1
    assert st["states"] == len(dist) and st["histogram"] == hist and st["diameter"] == 21
    assert all(dist[flat(b)] == 21 for b in st["antipodes"])


def test_apply():
    board = [[4, 1, 2], [5, 0, 3]]
    s = slide.solve(board)
    assert slide.apply(board, s.moves) == [[1, 2, 3], [4, 5, 0]]
    assert slide.apply(board, []) == board


def test_board_error_is_value_error():
    assert issubclass(slide.BoardError, ValueError)
    with pytest.raises(slide.BoardError, match="duplicate value 4"):
        slide.solve([[1, 2, 3], [4, 4, 0]])


def test_mapped_files_give_the_same_answers():
    import json
    import subprocess
    import sys

    boards = [slide.scramble("4x4", seed=s, walk=30) for s in range(5)]
    slide.solve(boards[0])  # the pattern databases are in the cache directory
    code = (
        "import json, sys, slide; from slide import _slide; "
        "boards = json.loads(sys.argv[1]); assert _slide._map_files(True); "
        "print(json.dumps([slide.solve(b).distance for b in boards]))"
    )
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(boards)], env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [slide.solve(b).distance for b in boards]


def test_timeout_covers_the_build_it_waits_for(tmp_path):
    # A 5 x 5 solve on an empty cache waits for pattern databases that take minutes to build: timeout= covers the
    # build, which is abandoned (nothing written) and answered as a stopped search.
    import json
    import subprocess
    import sys

    board = [[17, 12, 1, 11, 13], [6, 20, 24, 3, 5], [10, 19, 23, 15, 16], [0, 9, 7, 8, 22], [2, 4, 14, 21, 18]]
    code = (
        "import json, sys, time, slide; board = json.loads(sys.argv[1]); t = time.monotonic(); "
        "s = slide.solve(board, timeout=3); "
        "print(json.dumps([time.monotonic() - t, s.distance, s.moves is None, s.lower_bound]))"
    )
    env = dict(os.environ, SLIDE_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(board)], env=env, capture_output=True, text=True, check=True
    )
    took, distance, no_moves, lower_bound = json.loads(out.stdout)
    assert took < 15 and distance is None and no_moves and lower_bound > 0, out.stdout
    left = [p.name for p in tmp_path.iterdir() if not p.name.endswith((".lock", ".verified"))]
    assert left == [], left


def test_board_error_pickles_as_itself():
    try:
        slide.solve([[1, 1], [2, 0]])
    except slide.BoardError as e:
        again = pickle.loads(pickle.dumps(e))
    assert type(again) is slide.BoardError and "duplicate" in str(again)


def test_boards_over_25_cells_get_fast_mode():
    # The library's planning point answers boards over 25 cells by fast mode: a valid solution, not proven least,
    # with a lower bound; a bound (within) asks for a search instead, which covers at most 64 cells.
    board = slide.scramble("6x6", seed=7)
    s = slide.solve(board)
    assert not s.optimal and s.distance == len(s.moves) and s.lower_bound <= len(s.moves)
    assert replay(board, s.moves) == goal_of(6, 6)

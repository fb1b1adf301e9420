"""Multi-tile moves, partial goals, stages, analyse and hint through Python, against the references of reference.py
(breadth-first searches in both metrics and towards patterns, move interpreters) and replaying every move sequence."""

import itertools
import os
import pathlib
import random

import numpy as np
import pytest

import slide
from reference import (
    bfs,
    bfs_mtm,
    bfs_pattern,
    distance_to_pattern,
    flat,
    goal_of,
    ida_manhattan,
    matches,
    mtm_distance_from,
    neighbours,
    pushes,
    replay,
    replay_blank,
    runs,
    tile_letters,
)


def rows_of(t, cols):
    return [list(t[i : i + cols]) for i in range(0, len(t), cols)]


@pytest.fixture(scope="module")
def bfs33():
    return bfs(3, 3)


@pytest.fixture(scope="module")
def mtm33():
    return bfs_mtm(3, 3)


# --- metric="mtm" ---------------------------------------------------------------------------------------------------


def test_mtm_reference_diameter(mtm33):
    # The reference itself: 181440 boards, god's number 24 in MTM on 3x3 (against 31 in STM).
    assert len(mtm33) == 181440 and max(mtm33.values()) == 24


def test_mtm_solve_3x3_against_bfs(mtm33):
    keys = list(mtm33)[::3001]
    for k in keys:
        board = rows_of(k, 3)
        s = slide.solve(board, metric="mtm")
        assert s.metric == "mtm" and s.optimal
        assert s.distance == mtm33[k] and s.lower_bound == s.distance
        assert replay(board, s.moves) == goal_of(3, 3)
        assert runs(board, s.moves) == s.distance  # moves are single tiles; their runs are the pushes
        assert len(s.moves) >= s.distance
        assert slide.solve(board, metric="MTM", moves=False).distance == mtm33[k]


def test_mtm_distances_every_2x3_board_and_3x3_sample(mtm33):
    d23 = bfs_mtm(2, 3)
    perms = list(itertools.permutations(range(6)))
    got = slide.distances(np.array(perms).reshape(-1, 2, 3), metric="mtm")
    assert (got == [d23.get(p, -1) for p in perms]).all()
    keys = list(mtm33)[::997] + [(1, 2, 3, 4, 5, 6, 8, 7, 0)]
    got = slide.distances(np.array(keys, dtype=np.uint8), metric="mtm")
    assert list(got) == [mtm33.get(k, -1) for k in keys]
    # Another goal, and the STM answers unchanged beside them.
    goal = (0, 1, 2, 3, 4, 5)
    dg = bfs_mtm(2, 3, goal)
    got = slide.distances(np.array(perms).reshape(-1, 2, 3), goal=rows_of(goal, 3), metric="mtm")
    assert (got == [dg.get(p, -1) for p in perms]).all()


def test_mtm_stats_against_bfs(mtm33):
    st = slide.stats("3x3", metric="mtm")
    hist = [0] * 25
    for d in mtm33.values():
        hist[d] += 1
    assert st["states"] == 181440 and st["diameter"] == 24 and st["histogram"] == hist
    assert all(mtm33[flat(b)] == 24 for b in st["antipodes"])
    assert slide.stats("3x3")["diameter"] == 31


def test_mtm_lines():
    # One push takes the blank anywhere on its line.
    perms = list(itertools.permutations(range(5)))
    got = slide.distances(np.array(perms).reshape(-1, 1, 5), metric="mtm")
    for p, d in zip(perms, got):
        s = slide.solve(rows_of(p, 5), metric="mtm")
        want = mtm_distance_from(rows_of(p, 5))
        assert s.distance == d == (want if want is not None else -1)
        if s.distance >= 0:
            assert replay(rows_of(p, 5), s.moves) == goal_of(1, 5) and runs(rows_of(p, 5), s.moves) == s.distance


def test_mtm_unsolvable_and_solve_many(mtm33):
    s = slide.solve([[1, 2, 3], [4, 5, 6], [8, 7, 0]], metric="mtm")
    assert s.distance == -1 and s.metric == "mtm" and s.unsolvable_reason
    keys = list(mtm33)[::5000]
    out = slide.solve_many([rows_of(k, 3) for k in keys], metric="mtm", threads=2)
    assert [x.distance for x in out] == [mtm33[k] for k in keys]
    assert all(x.metric == "mtm" for x in out)


def test_mtm_search_above_12_cells_2x7():
    # 2x7 (14 cells) is answered by IDA* over pushes with the label tables (small for two rows).
    rng = random.Random(7)
    for seed in range(5):
        board = slide.scramble("2x7", seed=seed, walk=rng.randint(3, 7))
        want = mtm_distance_from(board, limit=5)
        if want is None:
            continue
        s = slide.solve(board, metric="mtm")
        assert s.optimal and s.metric == "mtm" and s.distance == want, (board, want, s)
        assert replay(board, s.moves) == goal_of(2, 7) and runs(board, s.moves) == want
        assert s.nodes > 0


def test_mtm_limits_and_refusals():
    board = slide.scramble("2x7", seed=3, walk=30)
    s = slide.solve(board, metric="mtm", max_nodes=1)
    assert s.distance is None and not s.optimal and s.moves is None and s.metric == "mtm"
    full = slide.solve(board, metric="mtm")
    assert full.optimal and s.lower_bound <= full.distance
    assert runs(board, full.moves) == full.distance
    with pytest.raises(slide.BoardError, match="label table"):
        slide.solve(slide.scramble("5x5", seed=1), metric="mtm")
    with pytest.raises(slide.BoardError, match="weight"):
        slide.solve(slide.scramble("3x3", seed=1), metric="mtm", within=1.5)


# The files of the library's current 4x4 label tables (their kinds name the label schemes; stale files of others are
# not used).
_LABELS_4X4 = [
    pathlib.Path(os.environ.get("SLIDE_CACHE_DIR", "."))
    / f"{kind}-4x4-blank15-mtm-{slide._slide._LABEL_TABLE_ENCODING}.v1.tbl"
    for kind in slide._slide._LABEL_TABLE_KINDS_4X4
]


@pytest.mark.skipif(
    not all(p.is_file() for p in _LABELS_4X4),
    reason="the 4x4 MTM label tables are not cached (about 35 s and 0.7 GB to build)",
)
def test_mtm_4x4_when_the_label_table_is_cached():
    for seed in range(3):
        board = slide.scramble("4x4", seed=seed, walk=8)
        want = mtm_distance_from(board, limit=6)
        s = slide.solve(board, metric="mtm")
        assert s.optimal and replay(board, s.moves) == goal_of(4, 4) and runs(board, s.moves) == s.distance
        if want is not None:
            assert s.distance == want
    s = slide.solve(slide.scramble("4x4", seed=9), metric="mtm", max_nodes=1)
    assert s.distance is None and s.lower_bound > 0


# --- partial goals ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mtm", [False, True])
def test_pattern_2x4_against_bfs(mtm):
    pattern = (1, 2, 3, 4, None, None, None, None)
    dist = bfs_pattern(2, 4, pattern, mtm=mtm)
    metric = "mtm" if mtm else "stm"
    perms = list(itertools.permutations(range(8)))[::211]
    boards = [rows_of(p, 4) for p in perms]
    out = slide.solve_many(boards, goal="1 2 3 4/x x x x", metric=metric)
    for b, p, s in zip(boards, perms, out):
        assert s.optimal and s.distance == dist[p] and s.metric == metric
        assert matches(replay(b, s.moves), pattern)
        assert (runs(b, s.moves) if mtm else len(s.moves)) == s.distance
        assert s.goal == [[1, 2, 3, 4], [None, None, None, None]] and s.board == b


def test_pattern_one_free_tile_and_free_blank_can_be_unreachable():
    pattern = (1, 2, 3, 4, None, None)  # tiles 5 and the blank free: two boards, one parity class may miss them
    dist = bfs_pattern(2, 3, pattern)
    seen = set()
    for p in itertools.permutations(range(6)):
        s = slide.solve(rows_of(p, 3), goal="1 2 3/4 x x")
        assert s.distance == dist.get(p, -1), p
        seen.add(s.distance == -1)
        if s.distance > 0:
            assert matches(replay(rows_of(p, 3), s.moves), pattern)
    assert seen == {True, False}


def test_pattern_written_as_rows_none_and_x(bfs33):
    board = [[8, 6, 7], [2, 5, 4], [3, 0, 1]]
    text = slide.solve(board, goal="1 2 3/x x x/x x x")
    assert text.distance == distance_to_pattern(board, (1, 2, 3) + (None,) * 6)
    rows = slide.solve(board, goal=[[1, 2, 3], [None, "x", "X"], [None, None, None]])
    assert rows.distance == text.distance and rows.goal == text.goal
    flat_goal = slide.solve(board, goal=[1, 2, 3, None, None, None, None, None, None])
    assert flat_goal.distance == text.distance
    # A pattern that leaves no choice is its board.
    one = slide.solve(board, goal="1 2 3/4 5 6/7 8 x")
    assert one.distance == bfs33[flat(board)] and one.goal == [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    # Solutions of partial goals pickle.
    import pickle

    assert pickle.loads(pickle.dumps(text)) == text


def test_hint_analyse_scramble_stats_take_partial_goals():
    pattern = (1, 2, 3, 4, None, None, None, None)
    goal = "1 2 3 4/x x x x"
    dist = bfs_pattern(2, 4, pattern)
    for p in list(itertools.permutations(range(8)))[::997]:
        b = rows_of(p, 4)
        d, tiles = slide.hint(b, goal=goal)
        assert d == dist[p]
        for t in tiles:
            assert dist[replay(b, [t])] == d - 1
        if d > 0:
            s = slide.solve(b, goal=goal)
            a = slide.analyse(b, s.moves, goal=goal)
            assert a["solves"] and a["optimal"] == d and a["over"] == 0 and a["mistakes"] == []
            assert a["distances"] == list(range(d - 1, -1, -1))
    for b in slide.scramble("2x4", 50, seed=3, goal=goal):
        assert flat(b) in dist
    start = slide.scramble("2x4", seed=3, walk=9, goal=goal)
    assert flat(start) in dist
    st = slide.stats("2x4", goal=goal)
    assert st["states"] == 8 * 7 * 6 * 5 * 4 and st["histogram"][0] == 4
    assert all(sum(v == 0 for row in a for v in row) == 1 for a in st["antipodes"])


def test_solve_stages_against_bfs(bfs33):
    board = [[8, 6, 7], [2, 5, 4], [3, 0, 1]]
    stages = ["1 2 3/x x x/x x x", [[1, 2, 3], [4, None, None], [7, None, None]], "1 2 3/4 5 6/7 8 0"]
    patterns = [(1, 2, 3) + (None,) * 6, (1, 2, 3, 4, None, None, 7, None, None), goal_of(3, 3)]
    out = slide.solve_stages(board, stages)
    assert len(out) == 3
    at = board
    for s, p in zip(out, patterns):
        assert s.board == at and s.optimal
        assert s.distance == distance_to_pattern(at, p)
        end = replay(at, s.moves)
        assert matches(end, p)
        at = rows_of(end, 3)
    assert flat(at) == goal_of(3, 3)
    assert sum(s.distance for s in out) >= bfs33[flat(board)]
    # In MTM each stage is least in pushes.
    mtm = slide.solve_stages(board, stages[:1], metric="mtm")
    assert mtm[0].metric == "mtm" and runs(board, mtm[0].moves) == mtm[0].distance
    assert matches(replay(board, mtm[0].moves), patterns[0])


def test_solve_stages_stop_after_an_unreachable_stage():
    board = [[1, 2, 3], [5, 4, 0]]  # the other parity: its goal cannot be reached
    out = slide.solve_stages(board, ["1 2 3/x x x", "1 2 3/4 5 0", "x x x/x x 0"])
    assert len(out) == 2 and out[0].optimal and out[1].distance == -1


# --- analyse, hint, apply -------------------------------------------------------------------------------------------


def random_walk(board, steps, rng):
    """A random legal sequence of the blank's directions from `board` (rows)."""
    rows, cols = len(board), len(board[0])
    delta = {"U": -cols, "D": cols, "L": -1, "R": 1}
    b = flat(board)
    out = []
    for _ in range(steps):
        z = b.index(0)
        options = [ch for ch, d in delta.items() if z + d in set(neighbours(z, rows, cols))]
        ch = rng.choice(options)
        out.append(ch)
        b = replay_blank(rows_of(b, cols), ch)
    return "".join(out)


def reference_analysis(board, blank_letters, dist):
    rows, cols = len(board), len(board[0])
    d0 = dist.get(flat(board), -1)
    distances, b = [], board
    for ch in blank_letters:
        b = rows_of(replay_blank(b, ch), cols)
        distances.append(dist.get(flat(b), -1))
    mistakes = [i + 1 for i, d in enumerate(distances) if d >= ([d0] + distances)[i]]
    if d0 < 0:
        mistakes = []  # no distance to judge a move by
    solves = flat(b) == goal_of(rows, cols)
    # MTM length: maximal runs of one letter.
    mtm = sum(1 for i, ch in enumerate(blank_letters) if i == 0 or blank_letters[i - 1] != ch)
    return {
        "solves": solves,
        "length": len(blank_letters),
        "mtm_length": mtm,
        "optimal": d0,
        "over": len(blank_letters) - d0 if solves else None,
        "distances": distances,
        "mistakes": mistakes,
    }


def test_analyse_against_bfs_in_every_notation(bfs33):
    rng = random.Random(5)
    keys = list(bfs33)[::9000]
    for k in keys:
        board = rows_of(k, 3)
        walk = random_walk(board, rng.randint(1, 12), rng)
        s = slide.solve(rows_of(replay_blank(board, walk), 3))
        # A detour, then a shortest solution from where it ended.
        blank = walk + s.notation("blank")
        want = reference_analysis(board, blank, bfs33)
        assert slide.analyse(board, blank, blank=True) == want
        assert slide.analyse(board, tile_letters(blank)) == want
        assert slide.analyse(board, tile_letters(blank, short=True)) == want
        tiles = slide.solve(board).moves  # tile numbers as a list and as text
        assert slide.analyse(board, tiles)["over"] == 0
        assert slide.analyse(board, " ".join(map(str, tiles)))["mistakes"] == []
    # Not solving, and an unsolvable board (every distance -1, no move judged).
    a = slide.analyse([[4, 1, 2], [5, 0, 3]], "L")
    assert not a["solves"] and a["over"] is None and a["distances"] == [6]
    a = slide.analyse([[1, 2, 3], [5, 4, 0]], "DR")
    assert a["optimal"] == -1 and a["distances"] == [-1, -1] and a["mistakes"] == []


def test_analyse_custom_goal():
    goal = (0, 1, 2, 3, 4, 5)
    dist = bfs(2, 3, goal)
    board = [[4, 1, 2], [5, 0, 3]]
    rng = random.Random(1)
    walk = random_walk(board, 9, rng)
    want = reference_analysis_goal(board, walk, dist, goal)
    assert slide.analyse(board, walk, goal=rows_of(goal, 3), blank=True) == want


def reference_analysis_goal(board, blank_letters, dist, goal):
    a = reference_analysis(board, blank_letters, dist)
    end = flat(rows_of(replay_blank(board, blank_letters), 3))
    a["solves"] = end == goal
    a["over"] = len(blank_letters) - a["optimal"] if a["solves"] else None
    return a


def test_analyse_above_12_cells_by_search():
    board = slide.scramble("4x4", seed=2, walk=12)
    rng = random.Random(2)
    walk = random_walk(board, 6, rng)
    a = slide.analyse(board, walk, blank=True)
    b = board
    for i, ch in enumerate(walk):
        b = rows_of(replay_blank(b, ch), 4)
        assert a["distances"][i] == ida_manhattan(b)
    assert a["optimal"] == ida_manhattan(board)
    with pytest.raises(slide.LimitReached, match="at least"):
        slide.analyse(slide.scramble("4x4", seed=5), "R", max_nodes=1)


def test_hint_against_bfs(bfs33):
    for k in list(bfs33)[::7001] + [goal_of(3, 3)]:
        board = rows_of(k, 3)
        d = bfs33[k]
        z = k.index(0)
        want = []
        for c in neighbours(z, 3, 3):
            nb = list(k)
            nb[z], nb[c] = nb[c], 0
            if bfs33[tuple(nb)] == d - 1:
                want.append(k[c])
        assert slide.hint(board) == (d, sorted(want))
    assert slide.hint([[1, 2, 3], [5, 4, 0]]) == (-1, [])


def test_hint_in_mtm_against_bfs(mtm33):
    # A hint in MTM is a push that leads one push closer, named by the farthest tile it slides (the tile on the
    # blank's cell after the push).
    for k in list(mtm33)[::5003] + [goal_of(3, 3)]:
        d = mtm33[k]
        want = sorted(k[nb.index(0)] for nb in pushes(k, 3, 3) if mtm33[nb] == d - 1)
        assert slide.hint(rows_of(k, 3), metric="mtm") == (d, want)
    assert slide.hint([[1, 2, 3], [4, 5, 6], [0, 7, 8]], metric="mtm") == (1, [8])
    assert slide.hint([[1, 2, 3], [5, 4, 0]], metric="mtm") == (-1, [])


def test_hint_above_12_cells_by_search():
    board = slide.scramble("4x4", seed=4, walk=14)
    d = ida_manhattan(board)
    k = flat(board)
    z = k.index(0)
    want = []
    for c in neighbours(z, 4, 4):
        nb = list(k)
        nb[z], nb[c] = nb[c], 0
        if ida_manhattan(rows_of(nb, 4)) == d - 1:
            want.append(k[c])
    assert slide.hint(board) == (d, sorted(want))
    with pytest.raises(slide.LimitReached):
        slide.hint(slide.scramble("4x4", seed=5), max_nodes=1)


def test_apply_reads_every_notation():
    board = [[4, 1, 2], [5, 0, 3]]
    goal = [[1, 2, 3], [4, 5, 0]]
    assert slide.apply(board, [5, 4, 1, 2, 3]) == goal
    assert slide.apply(board, "5 4 1 2 3") == goal
    assert slide.apply(board, "5, 4, 1, 2, 3") == goal
    assert slide.apply(board, "LURRD", blank=True) == goal
    assert slide.apply(board, "RDLLU") == goal
    assert slide.apply(board, "rdl2u") == goal
    s = slide.solve(board)
    assert [s.notation(n) for n in ("tiles", "long", "short", "blank")] == ["5 4 1 2 3", "RDLLU", "RDL2U", "LURRD"]

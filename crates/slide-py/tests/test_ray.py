"""slide.ray on a local Ray cluster that these tests start (2 CPUs, on 127.0.0.1 only: see conftest.py) and stop: answers against the
references of reference.py and against the local search."""

import pytest

ray = pytest.importorskip("ray")

import slide  # noqa: E402
import slide.ray as sray  # noqa: E402
from reference import bfs, bfs_mtm, flat, goal_of, ida_manhattan, replay, runs  # noqa: E402

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    assert ray.nodes()[0]["NodeManagerAddress"] == "127.0.0.1"
    try:
        yield
    finally:
        ray.shutdown()


def rows_of(t, cols):
    return [list(t[i : i + cols]) for i in range(0, len(t), cols)]


def test_solve_many_in_order_against_bfs():
    dist = bfs(3, 3)
    keys = list(dist)[::2000] + [(1, 2, 3, 4, 5, 6, 8, 7, 0)]
    boards = [rows_of(k, 3) for k in keys]
    out = sray.solve_many(boards, chunk_size=7)
    assert [s.distance for s in out] == [dist.get(k, -1) for k in keys]
    for b, s in zip(boards, out):
        if s.distance > 0:
            assert replay(b, s.moves) == goal_of(3, 3)
    assert [s.distance for s in sray.solve_many(boards, moves=False)] == [s.distance for s in out]


def test_solve_many_15_puzzle_walks_and_limits():
    boards = [slide.scramble("4x4", seed=s, walk=20) for s in range(8)]
    out = sray.solve_many(boards, chunk_size=3)
    for b, s in zip(boards, out):
        assert s.optimal and s.distance == ida_manhattan(b)
        assert replay(b, s.moves) == goal_of(4, 4)
    hard = [slide.scramble("4x4", seed=s) for s in range(4)]
    cut = sray.solve_many(hard, max_nodes=100)
    assert all(s.distance is None and not s.optimal and s.lower_bound > 0 for s in cut)


def test_solve_many_bad_input_names_the_board():
    with pytest.raises(slide.BoardError, match=r"boards\[1\]"):
        sray.solve_many([[[1, 2], [3, 0]], [[1, 1], [2, 0]]])
    with pytest.raises(ValueError, match="unknown metric"):
        sray.solve_many([[[1, 2], [3, 0]]], metric="htm")
    with pytest.raises(ValueError, match="max_memory: -1 is not a whole number of MB"):
        sray.solve_many([[[1, 2], [3, 0]]], max_memory=-1)
    with pytest.raises(ValueError, match="threads: 257 is not a whole number from 0 to 256"):
        slide.solve_many([[[1, 2], [3, 0]]], threads=257)
    assert [s.distance for s in sray.solve_many([[[1, 2], [0, 3]]], max_memory=1000)] == [1]
    with pytest.raises(slide.BoardError, match=r"boards\[0\].*partial goal"):
        sray.solve_many([[[1, 2, 3], [4, 0, 5]]], goal="1 2 3/x x x")
    with pytest.raises(slide.BoardError, match="partial goal"):
        sray.solve([[1, 2, 3], [4, 0, 5]], goal="1 2 3/x x x")
    with pytest.raises(ValueError):
        sray.solve_many([[[1, 2], [3, 0]]], chunk_size=0)
    assert sray.solve_many([]) == []
    # A board only the solver refuses (too many cells to search within a bound; fast mode would answer it without
    # one), found in a worker: named by its batch index.
    big = [list(range(r * 9, r * 9 + 9)) for r in range(9)]
    with pytest.raises(slide.BoardError, match=r"boards\[5\]: .*64"):
        sray.solve_many([[[1, 2], [3, 0]]] * 5 + [big], chunk_size=2, within=2.0)


def test_split_solve_matches_the_local_search():
    for seed in range(3):
        b = slide.scramble("4x4", seed=seed, walk=30)
        local = slide.solve(b)
        s = sray.solve(b, tasks=16)
        assert s.optimal and s.distance == local.distance == s.lower_bound
        assert replay(b, s.moves) == goal_of(4, 4)
        assert s.nodes > 0
    walk = slide.scramble("4x4", seed=9, walk=18)
    assert sray.solve(walk, tasks=5).distance == ida_manhattan(walk)


def test_split_solve_custom_goal_and_small_boards():
    goal = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    b = slide.scramble("4x4", seed=4, walk=25, goal=goal)
    s = sray.solve(b, goal, tasks=8)
    assert s.distance == slide.solve(b, goal).distance
    assert replay(b, s.moves) == flat(goal)
    dist = bfs(2, 3)
    assert sray.solve([[4, 1, 2], [5, 0, 3]]).distance == dist[(4, 1, 2, 5, 0, 3)]
    assert sray.solve([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 15, 14, 0]]).distance == -1


def test_split_solve_limits_give_a_lower_bound():
    b = slide.scramble("4x4", seed=11)
    full = slide.solve(b).distance
    s = sray.solve(b, tasks=8, max_nodes=5000)
    assert s.distance is None and not s.optimal and 0 < s.lower_bound <= full
    assert s.nodes <= 5000 + 1000  # the cuts' own nodes come on top of the tasks' shares
    t = sray.solve(b, tasks=8, timeout=1e-9)
    assert t.distance is None and t.lower_bound <= full


@ray.remote
def _pid():
    import os
    import time

    time.sleep(0.2)  # long enough for the tasks to spread over both workers
    return os.getpid()


def test_tasks_are_stopped_without_ray_cancel(monkeypatch):
    # A ray.cancel that races with a task's completion can crash the driver (Ray's task manager check "Tried to
    # complete task that was not pending"; seen here on Ray 2.60): slide.ray asks its tasks to stop instead.
    calls = []
    monkeypatch.setattr(ray, "cancel", lambda *args, **kwargs: calls.append(args))
    for seed in range(2):
        b = slide.scramble("4x4", seed=40 + seed, walk=40)
        assert sray.solve(b, tasks=32).distance == slide.solve(b).distance
    big = [list(range(r * 9, r * 9 + 9)) for r in range(9)]
    with pytest.raises(slide.BoardError, match=r"boards\[9\]"):
        sray.solve_many([slide.scramble("4x4", seed=s) for s in range(9)] + [big], chunk_size=1, within=2.0)
    assert calls == []


def test_cancelled_tasks_keep_their_worker_processes():
    # slide.ray.solve stops the tasks still running once one finds a solution; the workers must survive (their
    # pattern databases stay loaded for the next tasks).
    before = set(ray.get([_pid.remote() for _ in range(8)]))
    for seed in range(3):
        b = slide.scramble("4x4", seed=20 + seed, walk=40)
        assert sray.solve(b, tasks=32).distance == slide.solve(b).distance
    after = set(ray.get([_pid.remote() for _ in range(8)]))
    assert after == before


@ray.remote
def _mapped_tables():
    with open("/proc/self/maps") as f:
        return sorted({line.split()[-1] for line in f if line.rstrip().endswith(".tbl")})


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/maps"), reason="needs /proc")
def test_workers_map_the_pattern_databases():
    sray.solve_many([slide.scramble("4x4", seed=s, walk=20) for s in range(8)], chunk_size=1)
    files = set()
    for names in ray.get([_mapped_tables.remote() for _ in range(8)]):
        files.update(names)
    assert any("pdb-4x4" in f for f in files), files


def test_mtm_solve_many_against_bfs_and_solve_locally():
    dist = bfs_mtm(2, 3)
    keys = list(dist)[::17] + [(1, 2, 3, 5, 4, 0)]
    boards = [rows_of(k, 3) for k in keys]
    out = sray.solve_many(boards, chunk_size=5, metric="mtm")
    assert [s.distance for s in out] == [dist.get(k, -1) for k in keys]
    assert all(s.metric == "mtm" for s in out)
    for b, s in zip(boards, out):
        if s.distance > 0:
            assert replay(b, s.moves) == goal_of(2, 3) and runs(b, s.moves) == s.distance
    # Above 12 cells MTM is not split: the local search answers, under the same limits.
    b = slide.scramble("2x7", seed=5, walk=30)
    s = sray.solve(b, tasks=4, metric="mtm")
    local = slide.solve(b, metric="mtm")
    assert s.metric == "mtm" and s.optimal and s.distance == local.distance
    assert replay(b, s.moves) == goal_of(2, 7) and runs(b, s.moves) == s.distance
    cut = sray.solve(b, metric="mtm", max_nodes=1)
    assert cut.distance is None and cut.lower_bound <= local.distance
    walks = [slide.scramble("2x7", seed=s, walk=20) for s in range(4)]
    many = sray.solve_many(walks, chunk_size=1, metric="mtm")
    assert [s.distance for s in many] == [slide.solve(w, metric="mtm").distance for w in walks]
    assert all(s.metric == "mtm" and runs(w, s.moves) == s.distance for w, s in zip(walks, many))

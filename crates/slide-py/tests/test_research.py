"""The researcher's API: the command line's search options on solve and solve_many (with the library's sentences
for bad values), threads=1's reproducible node counts, estimate, the built-in benchmark sets, seconds without the
load, slide.Cancel from another thread, count and all, and Solution.to_dict."""

import json
import pathlib
import pickle
import re
import threading
import time

import pytest

import slide
import slide.benchmarks
from reference import bfs, goal_of

ROOT = pathlib.Path(__file__).resolve().parents[3]
CATALOGUE = json.loads((ROOT / "crates" / "slide" / "tests" / "data" / "bad_input.json").read_text())
KORF = slide.benchmarks.korf100()


def _published(name):
    """(id, optimal) of each line of one of the library's data files, read apart from the library."""
    lines = (ROOT / "crates" / "slide" / "data" / name).read_text().splitlines()
    return [tuple(int(x) for x in line.split()[:2]) for line in lines if line.strip() and not line.startswith("#")]


# --- options -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CATALOGUE["options"], ids=[c["name"] for c in CATALOGUE["options"]])
def test_bad_limit_with_search_options_gets_the_librarys_sentence(case):
    """The catalogue's option cases, given beside the search options: still the library's sentence, once."""
    name = CATALOGUE["option_names"][case["option"]]["python"]
    value = case["value"]
    if isinstance(value, str):  # "NaN", "inf", or a whole number beyond 64 bits
        value = int(value) if value.isdigit() else float(value)
    with pytest.raises(ValueError) as e:
        slide.solve("1 2 3/4 0 5", heuristic="md", method="search", reflect=False, **{name: value})
    assert str(e.value) == f"{name}: {case['error']}"


# What `slide solve --pdb P` prints for a 4x4 board (after "slide: "), and the same sentence through Python, where
# the flag is the keyword `partition` and a partition that does not fit the board is the board's error.
PARTITIONS = [
    ("abc", "--pdb: bad shape \"abc\": expected sizes such as 6-6-3 or tile lists"),
    ("7-8+", "--pdb: bad shape \"7-8+\": empty partition between '+' signs"),
    ("zq7-8", "--pdb: bad shape \"q7-8\": expected sizes such as 6-6-3 or tile lists"),
    ("6-6", "argument 1: bad partition: pattern sizes 6-6 add up to 12, but 4x4 has 15 tiles"),
    ("1,2,3/1,4", "argument 1: bad partition: tile 1 is in two patterns"),
]


@pytest.mark.parametrize("partition,cli", PARTITIONS)
def test_bad_partition_gets_the_command_lines_sentence(partition, cli):
    with pytest.raises(ValueError) as e:
        slide.solve(KORF[0].board, KORF[0].goal, partition=partition)
    expected = cli.replace("--pdb: ", "partition: ").replace("argument 1: ", "")
    assert str(e.value) == expected


@pytest.mark.parametrize(
    "kwargs,words",
    [
        (dict(heuristic="ucb"), "heuristic: unknown heuristic \"ucb\": expected auto, md (manhattan), lc "
         "(linear-conflict) or pdb"),
        (dict(method="magic"), "method: unknown method \"magic\": expected auto, table, search or fast"),
        (dict(max_depth=-1), "max_depth: -1 is not a whole number from 0 to 18446744073709551615"),
        (dict(fallback=True), "fallback needs a budget to split"),
        (dict(threads=257), "threads: 257 is not a whole number from 0 to 256"),
        (dict(threads=-1), "threads: -1 is not a whole number from 0 to 256"),
    ],
)
def test_bad_search_option_raises(kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        slide.solve("1 2 3/4 0 5", **kwargs)


def test_threads_zero_is_all_cores_as_on_the_command_line():
    """threads=0 is `slide solve --threads 0`: all cores (the default); 256 is the most, as there."""
    board = slide.scramble((4, 4), seed=7, walk=24)
    assert slide.solve(board, threads=0).distance == slide.solve(board).distance
    [s] = slide.solve_many([board], threads=0)
    assert s.distance == slide.solve(board, threads=1).distance


def test_cancel_must_be_a_cancel():
    with pytest.raises(TypeError, match="cancel must be a slide.Cancel"):
        slide.solve("1 2 3/4 0 5", cancel=True)


def test_count_refuses_a_partial_goal():
    with pytest.raises(ValueError, match="count and all take one goal board"):
        slide.solve("4 1 2/5 0 3", "1 2 3/x x x", count=True)


@pytest.mark.parametrize("heuristic", ["md", "manhattan", "lc", "linear-conflict", "pdb", "auto"])
def test_every_heuristic_finds_the_optimum(heuristic):
    # A 4x4 board at most 24 moves from the goal (a random walk): quick with any heuristic.
    board = slide.scramble((4, 4), seed=7, walk=24)
    want = slide.solve(board).distance
    s = slide.solve(board, heuristic=heuristic, threads=1)
    assert s.distance == want and s.optimal
    assert s.estimate is not None and s.estimate <= want
    assert slide.apply(board, s.moves) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 0]]


def test_options_change_the_search_not_the_answer():
    inst = KORF[1]
    base = slide.solve(inst.board, inst.goal, threads=1)
    assert base.distance == inst.optimal
    for kwargs in [dict(reflect=False), dict(move_pruning=False), dict(mixed_sums=True), dict(partition="7-8")]:
        s = slide.solve(inst.board, inst.goal, threads=1, moves=False, **kwargs)
        assert (s.distance, s.optimal) == (inst.optimal, True), kwargs
    no_pruning = slide.solve(inst.board, inst.goal, threads=1, move_pruning=False)
    assert no_pruning.nodes > base.nodes


def test_method_search_and_table_agree_on_small_boards():
    board = "8 6 7/2 5 4/3 0 1"
    table = slide.solve(board, method="table")
    search = slide.solve(board, method="search", threads=1)
    assert table.distance == search.distance == 31
    assert table.nodes == 0 and search.nodes > 0
    assert slide.solve(board, method="fast").distance >= 31


def test_max_depth_gives_up_with_a_bound():
    inst = KORF[0]
    s = slide.solve(inst.board, inst.goal, max_depth=inst.optimal - 2, threads=1)
    assert s.distance is None and not s.optimal
    assert inst.optimal - 2 < s.lower_bound <= inst.optimal
    # solve_many passes the options on too.
    [t] = slide.solve_many([inst.board], inst.goal, max_depth=inst.optimal - 2, threads=1)
    assert t.distance is None and t.lower_bound == s.lower_bound


def test_fallback_answers_when_the_budget_runs_out():
    inst = KORF[0]
    s = slide.solve(inst.board, inst.goal, max_nodes=20_000, fallback=True, threads=1)
    assert s.moves is not None and not s.optimal
    assert s.distance >= inst.optimal


# --- threads -------------------------------------------------------------------------------------------------------


def test_threads_one_reproduces_the_node_count():
    inst = KORF[2]
    runs = [slide.solve(inst.board, inst.goal, threads=1, moves=False) for _ in range(3)]
    assert {(r.distance, r.nodes) for r in runs} == {(inst.optimal, runs[0].nodes)}
    # The same count as a batch's one-board-per-thread searches.
    [many] = slide.solve_many([inst.board], inst.goal, threads=1, moves=False)
    assert many.nodes == runs[0].nodes
    shared = slide.solve(inst.board, inst.goal, threads=2, moves=False)
    assert shared.distance == inst.optimal


# --- iterations ----------------------------------------------------------------------------------------------------


def test_iterations_of_a_search():
    inst = KORF[2]
    s = slide.solve(inst.board, inst.goal, threads=1)
    thresholds = [t for t, _ in s.iterations]
    assert thresholds[0] == s.estimate and thresholds[-1] == inst.optimal
    assert all(b - a == 2 for a, b in zip(thresholds, thresholds[1:]))
    assert sum(n for _, n in s.iterations) == s.nodes
    shared = slide.solve(inst.board, inst.goal, threads=2)
    assert [t for t, _ in shared.iterations] == thresholds
    assert sum(n for _, n in shared.iterations) == shared.nodes
    stopped = slide.solve(inst.board, inst.goal, threads=1, max_depth=inst.optimal - 2)
    assert stopped.iterations == s.iterations[: len(stopped.iterations)]
    assert slide.solve("4 1 2/5 0 3").iterations == []


# --- count and all -------------------------------------------------------------------------------------------------


def test_count_and_all_on_a_small_board():
    board = [[4, 1, 2], [5, 0, 3]]
    s = slide.solve(board, count=True, all=True)
    assert s.distance == 5 and s.count_proven
    assert s.count == len(s.solutions) >= 1
    goal = goal_of(2, 3)
    for moves in s.solutions:
        assert len(moves) == 5
        assert slide.apply(board, moves) == [list(goal[:3]), list(goal[3:])]
    capped = slide.solve(board, all=True, limit=1)
    assert len(capped.solutions) == 1


def test_count_on_a_search():
    board = slide.scramble((4, 4), seed=3, walk=30)
    s = slide.solve(board, count=True, moves=False, threads=1)
    assert s.count_proven and s.count >= 1


# --- estimate ------------------------------------------------------------------------------------------------------


def _manhattan(rows):
    n, cols = len(rows) * len(rows[0]), len(rows[0])
    total = 0
    for r, row in enumerate(rows):
        for c, t in enumerate(row):
            if t:
                g = (t - 1) % n
                total += abs(r - g // cols) + abs(c - g % cols)
    return total


def test_estimate_is_manhattan_for_md():
    distances = bfs(3, 3)
    for board in ["8 6 7/2 5 4/3 0 1", "4 1 2/5 0 3/7 8 6", "1 2 3/4 5 6/7 8 0"]:
        rows = [[int(x) for x in r.split()] for r in board.split("/")]
        e = slide.estimate(board, heuristic="md")
        assert e == _manhattan(rows)
        assert e <= distances[tuple(sum(rows, []))]
        assert slide.estimate(board, heuristic="lc") >= e


def test_estimate_at_most_the_optimum_on_korf():
    for inst in KORF[:10]:
        pdb = slide.estimate(inst.board, inst.goal)
        md = slide.estimate(inst.board, inst.goal, heuristic="md")
        assert md <= pdb <= inst.optimal
        assert (inst.optimal - pdb) % 2 == 0


def test_estimate_of_an_unsolvable_board_raises():
    with pytest.raises(slide.BoardError, match="cannot be reached"):
        slide.estimate("2 1 3/4 5 6/7 8 0")


# --- benchmarks ----------------------------------------------------------------------------------------------------


def test_benchmark_sets_have_their_published_lengths():
    assert [(i.id, i.optimal) for i in KORF] == _published("korf100.txt")
    assert len(KORF) == 100 and sum(i.optimal for i in KORF) == 5305
    assert (KORF[0].id, KORF[0].optimal, KORF[0].board[0]) == (1, 57, [14, 13, 15, 7])
    assert all(i.goal == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]] for i in KORF)
    big = slide.benchmarks.korf24()
    assert [(i.id, i.optimal) for i in big] == _published("korf24_50.txt")
    assert len(big) == 50 and sum(i.optimal for i in big) == 5039
    assert big[0].goal[0] == [0, 1, 2, 3, 4]


def test_korf_instances_solve_to_their_published_lengths():
    for inst in KORF[:5]:
        s = slide.solve(inst.board, inst.goal, moves=False)
        assert (s.distance, s.optimal) == (inst.optimal, True)


# --- timing --------------------------------------------------------------------------------------------------------


def test_seconds_leave_the_load_out():
    inst = KORF[3]
    s = slide.solve(inst.board, inst.goal)
    assert s.seconds >= 0 and s.load_seconds >= 0
    table = slide.solve("4 1 2/5 0 3")
    assert table.load_seconds == 0.0


# --- cancel --------------------------------------------------------------------------------------------------------


def test_cancel_from_another_thread_stops_a_4x4_search():
    inst = KORF[0]
    handle = slide.Cancel()
    assert not handle.cancelled
    timer = threading.Timer(0.3, handle.cancel)
    timer.start()
    t0 = time.monotonic()
    # Manhattan distance alone would take minutes on this 57-move board.
    s = slide.solve(inst.board, inst.goal, heuristic="md", cancel=handle)
    took = time.monotonic() - t0
    timer.join()
    assert handle.cancelled
    assert s.distance is None and not s.optimal and s.lower_bound <= inst.optimal
    assert took < 5, took
    # A cancelled handle stops the next solve at once; reset() clears it.
    [r] = slide.solve_many([inst.board], inst.goal, heuristic="md", cancel=handle)
    assert r.distance is None
    handle.reset()
    assert slide.solve("4 1 2/5 0 3", cancel=handle).distance == 5


# --- dicts ---------------------------------------------------------------------------------------------------------


def test_to_dict_round_trip():
    inst = KORF[0]
    answers = [
        slide.solve(inst.board, inst.goal),
        slide.solve("4 1 2/5 0 3", count=True, all=True),
        slide.solve("1 2 3/5 4 0"),
        slide.solve(inst.board, inst.goal, max_nodes=1000, threads=1),
        slide.solve("4 1 2/5 0 3", "x x x/x 4 5"),
    ]
    for s in answers:
        d = s.to_dict()
        assert json.loads(json.dumps(d)) == d
        back = slide.Solution.from_dict(json.loads(json.dumps(d)))
        assert back == s and back.to_dict() == d
        again = pickle.loads(pickle.dumps(s))
        assert again.to_dict() == d
    assert answers[0].to_dict()["moves"] == inst.optimal
    assert answers[0].to_dict()["iterations"] == [list(i) for i in answers[0].iterations]
    assert answers[2].to_dict()["reason"] is not None
    assert answers[3].to_dict()["moves"] is None
    assert set(answers[0].to_dict()) == set(answers[2].to_dict())


def test_to_dict_keys_are_the_answers_fields():
    d = slide.solve("4 1 2/5 0 3").to_dict()
    assert list(d)[:11] == [
        "board", "moves", "metric", "optimal", "nodes", "seconds", "lower_bound", "bound", "method", "solution",
        "reason",
    ]
    assert d["solution"] == [5, 4, 1, 2, 3]


# --- progress ------------------------------------------------------------------------------------------------------


def test_progress_reports_a_search():
    """A 4x4 search of some 0.3 s (Korf's instance 8, Manhattan distance, one thread): its iterations reach
    `progress` as ("search", nodes, threshold), thresholds rising from the estimate to the optimum, and the last
    call holds the search's final count, the answer's `nodes`."""
    [inst] = [k for k in KORF if k.id == 8]
    slide.solve(inst.board, inst.goal, threads=1, heuristic="md", max_nodes=1)  # move pruning's tables made
    calls = []
    s = slide.solve(inst.board, inst.goal, threads=1, heuristic="md", moves=False, progress=lambda *a: calls.append(a))
    assert s.optimal and s.distance == inst.optimal
    searches = [c for c in calls if c[0] == "search"]
    assert searches, calls
    thresholds = [t for _, _, t in searches]
    assert thresholds == sorted(thresholds)
    assert all(s.estimate <= t <= inst.optimal for t in thresholds), (s.estimate, thresholds)
    assert all(isinstance(n, int) and n >= 0 for _, n, _ in searches)
    assert searches[-1] == ("search", s.nodes, inst.optimal)


def test_progress_reports_a_long_iteration_as_it_goes():
    """A search of a second (Korf's first instance, Manhattan distance, stopped by its timeout): the node count
    comes during an iteration too (about every 0.25 s), not only as iterations start; the last call is the final
    count."""
    inst = KORF[0]
    calls = []
    s = slide.solve(inst.board, inst.goal, threads=1, heuristic="md", timeout=1.0, progress=lambda *a: calls.append(a))
    searches = [c for c in calls if c[0] == "search"]
    within = [(a, b) for a, b in zip(searches, searches[1:]) if a[2] == b[2] and a[1] < b[1]]
    assert within, searches
    assert searches[-1][1] == s.nodes


# The same search shared by two threads reports the count of both.
def test_progress_of_a_parallel_search_ends_with_its_count():
    [inst] = [k for k in KORF if k.id == 8]
    calls = []
    s = slide.solve(inst.board, inst.goal, threads=2, heuristic="md", moves=False, progress=lambda *a: calls.append(a))
    assert [c for c in calls if c[0] == "search"][-1] == ("search", s.nodes, inst.optimal)


_PROGRESS_SCRIPT = r"""
import json, slide
calls = []
board = slide.scramble((3, 4), seed=5)
s = slide.solve(board, method="search", partition="6-5", threads=1, progress=lambda *a: calls.append(a))
assert s.optimal, s
def boom(phase, done, total):
    raise ZeroDivisionError("stop here")
try:
    slide.solve(board, method="search", partition="5-6", threads=1, progress=boom)
    raised = None
except ZeroDivisionError as e:
    raised = str(e)
print(json.dumps({"calls": calls, "raised": raised, "load": s.load_seconds}))
"""


def test_progress_reports_a_build(tmp_path):
    """A fresh cache directory (another process, so that the builds happen): the 3x4 databases' builds are reported,
    the last call of each with done == total, then the search; a callback that raises stops the solve with its
    exception."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, SLIDE_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", _PROGRESS_SCRIPT], env=env, capture_output=True, text=True, timeout=300, check=True
    )
    got = json.loads(out.stdout)
    builds = [c for c in got["calls"] if c[0] != "search"]
    assert builds, out
    assert all(isinstance(p, str) and 0 <= d <= t for p, d, t in builds)
    assert builds[-1][1] == builds[-1][2]
    # After the builds, the search (its own calls: "search", nodes, threshold).
    assert got["calls"][-1][0] == "search"
    assert got["raised"] == "stop here"
    assert got["load"] > 0


_MEMORY_SCRIPT = r"""
import json, slide
first = slide.set_max_memory(0)
board = slide.scramble((3, 4), seed=5)
try:
    slide.solve(board, method="search", partition="6-5")
    refused = None
except slide.BoardError as e:
    refused = str(e)
print(json.dumps({"first": first, "refused": refused, "again": slide.set_max_memory(100)}))
"""


def test_set_max_memory_refuses_builds(tmp_path):
    """As --max-memory 0: no build at all (a fresh cache, another process); set only before the first solve."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, SLIDE_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_SCRIPT], env=env, capture_output=True, text=True, timeout=300, check=True
    )
    got = json.loads(out.stdout)
    assert got["first"] is True and got["again"] is False
    assert got["refused"] and "memory" in got["refused"], got
    with pytest.raises(ValueError, match="max_memory: -1 is not a whole number of MB"):
        slide.set_max_memory(-1)


_BUDGET_SCRIPT = r"""
import json, slide
board = slide.scramble((3, 4), seed=5)
refused = {}
for name, call in [
    ("solve", lambda: slide.solve(board, method="search", partition="6-5", max_memory=0)),
    ("solve_many", lambda: slide.solve_many([board], method="search", partition="6-5", max_memory=0)),
    ("estimate", lambda: slide.estimate(board, partition="6-5", max_memory=0)),
]:
    try:
        call()
        refused[name] = None
    except slide.BoardError as e:
        refused[name] = str(e)
s = slide.solve(board, method="search", partition="6-5", max_memory=100_000)
print(json.dumps({"refused": refused, "solved": s.optimal}))
"""


def test_max_memory_refuses_builds_for_one_call(tmp_path):
    """max_memory= as --max-memory, per call (a fresh cache, another process): 0 refuses the 3x4 databases' builds
    on solve, solve_many and estimate with the library's sentence; the next call, with a budget that fits, builds
    them and solves."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, SLIDE_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", _BUDGET_SCRIPT], env=env, capture_output=True, text=True, timeout=300, check=True
    )
    got = json.loads(out.stdout)
    for name, e in got["refused"].items():
        assert e and "MB of memory to build, more than the 0 MB allowed" in e, (name, e)
    assert got["solved"] is True


"""slide.ray never returns a non-answer: overlapping calls from threads, back-to-back calls and a call whose stop
actor is killed give, for every board, the proven optimum or an exception — never a silent ``distance=None``.
On a local Ray cluster these tests start (2 CPUs, 127.0.0.1 only: see conftest.py) and stop."""

import pathlib
import threading
import time

import pytest

ray = pytest.importorskip("ray")

import slide  # noqa: E402
import slide.ray as sray  # noqa: E402

pytestmark = pytest.mark.ray

_DATA = pathlib.Path(__file__).resolve().parents[3] / "data" / "korf100.txt"


def korf(count):
    """The first `count` of Korf's 100 (blank-first goal) with their published optimal lengths."""
    out = []
    for line in _DATA.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = [int(x) for x in line.split()]
        out.append(([f[3 + r * 4 : 7 + r * 4] for r in range(4)], f[1]))
        if len(out) == count:
            break
    return out


GOAL = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        slide.solve(korf(1)[0][0], GOAL, max_nodes=0)  # the databases built (or mapped) before any timing matters
        yield
    finally:
        ray.shutdown()


def check_all_optimal(out, cases):
    assert len(out) == len(cases)
    for i, (s, (_, length)) in enumerate(zip(out, cases)):
        assert s.distance == length and s.optimal, f"boards[{i}]: {s!r} (published {length})"


def test_overlapping_calls_from_threads_all_answer():
    # Two calls at once from two threads of one driver. Each call's tasks must keep their stop channel for as long
    # as they run, whichever call ends first (a shared actor owned by the call that made it died with that call).
    cases = korf(40)
    for _ in range(2):
        results, errors = {}, []

        def run(name, part, chunk):
            try:
                results[name] = sray.solve_many([b for b, _ in part], GOAL, chunk_size=chunk)
            except Exception as e:  # noqa: BLE001 - recorded and failed below
                errors.append(e)

        short = threading.Thread(target=run, args=("short", cases[:6], 3))
        long = threading.Thread(target=run, args=("long", cases, 4))
        long.start()
        short.start()
        short.join()
        long.join()
        assert errors == []
        check_all_optimal(results["short"], cases[:6])
        check_all_optimal(results["long"], cases)


def test_back_to_back_calls_all_answer():
    cases = korf(12)
    for _ in range(12):
        check_all_optimal(sray.solve_many([b for b, _ in cases], GOAL, chunk_size=2), cases)


def test_split_search_beside_a_batch_answers():
    # A split search (slide.ray.solve) overlapping batches in another thread: the optimum, proven, every time.
    board, length = korf(100)[87]  # instance 88: a search of a few hundred thousand nodes
    cases = korf(10)
    stop = threading.Event()
    errors = []

    def batches():
        while not stop.is_set():
            try:
                check_all_optimal(sray.solve_many([b for b, _ in cases], GOAL, chunk_size=1), cases)
            except Exception as e:  # noqa: BLE001 - failed below
                errors.append(e)
                return

    t = threading.Thread(target=batches)
    t.start()
    try:
        for _ in range(3):
            s = sray.solve(board, GOAL, tasks=8)
            assert s.optimal and s.distance == length == s.lower_bound
            assert slide.apply(board, s.moves) == GOAL
    finally:
        stop.set()
        t.join()
    assert errors == []


def _kill_stops_during(call, monkeypatch, after=0.3):
    """Runs `call` while the stop actor it uses is killed `after` seconds in: returns (result, exception)."""
    made = []
    real = sray._new_stops

    def spy():
        h = real()
        made.append(h)
        return h

    monkeypatch.setattr(sray, "_new_stops", spy)
    sray._stops_held = None  # this call makes its own actor (through the spy)
    out = {}

    def run():
        try:
            out["value"] = call()
        except Exception as e:  # noqa: BLE001 - returned to the test
            out["error"] = e

    t = threading.Thread(target=run)
    t.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (made and sray._stops_held and sray._stops_held[1] is made[0]):
        time.sleep(0.01)  # until the call holds its started actor (then its tasks go out)
    assert made, "the call made no stop actor"
    time.sleep(after)
    ray.kill(made[0])
    t.join()
    return out.get("value"), out.get("error")


def test_a_killed_stop_actor_raises_or_answers_never_none(monkeypatch):
    cases = korf(30)
    value, error = _kill_stops_during(
        lambda: sray.solve_many([b for b, _ in cases], GOAL, chunk_size=3), monkeypatch
    )
    if error is None:
        check_all_optimal(value, cases)  # every task had finished before the kill
    else:
        assert isinstance(error, RuntimeError) and "did not stop it" in str(error), repr(error)
    # The next call gets a stop actor of its own and answers.
    check_all_optimal(sray.solve_many([b for b, _ in cases[:6]], GOAL, chunk_size=2), cases[:6])


def test_a_killed_stop_actor_during_a_split_search(monkeypatch):
    board, length = korf(100)[87]
    value, error = _kill_stops_during(lambda: sray.solve(board, GOAL, tasks=16), monkeypatch, after=0.05)
    if error is None:
        assert value.optimal and value.distance == length
    else:
        assert isinstance(error, RuntimeError) and "did not stop it" in str(error), repr(error)
    s = sray.solve(board, GOAL, tasks=16)
    assert s.optimal and s.distance == length


def test_a_task_whose_stop_actor_dies_returns_no_answer():
    # The task side alone: a chunk whose stop actor is gone says "stopped", never hands back stopped searches.
    dead = sray._Stops.remote()
    ray.get(dead.ping.remote())
    ray.kill(dead)
    time.sleep(0.5)
    cases = korf(100)  # about 0.7 s of work: the stop is noticed well before the end
    status, why, _ = ray.get(sray._solve_chunk.remote([b for b, _ in cases], GOAL, {}, 0, dead, "k"))
    assert status == "stopped" and why, (status, why)


def test_a_new_ray_session_gets_a_new_stop_actor(tmp_path):
    # Job ids start anew with a new cluster: the actor held from the last session must not be taken for this one's.
    cases = korf(6)
    check_all_optimal(sray.solve_many([b for b, _ in cases], GOAL, chunk_size=2), cases)
    ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    check_all_optimal(sray.solve_many([b for b, _ in cases], GOAL, chunk_size=2), cases)
    # The workers were given the driver's cache directory: another one for the same workers is refused, clearly.
    with pytest.raises(RuntimeError, match="one cache directory per Ray job"):
        sray.solve_many([b for b, _ in cases], GOAL, chunk_size=2, cache_dir=str(tmp_path))
    board, length = korf(100)[87]
    s = sray.solve(board, GOAL, tasks=8)
    assert s.optimal and s.distance == length


def test_no_more_tasks_run_than_cpus():
    # The stop check never blocks in ray.get (a blocked task lends its CPU, and Ray then starts more tasks than
    # CPUs): with 2 CPUs, at most 2 chunks run at any moment.
    stops = sray._stops()
    cases = korf(100)
    refs = [
        sray._solve_chunk.remote([b for b, _ in cases[i::6]], GOAL, {}, 0, stops, "spans") for i in range(6)
    ]
    spans = [span for status, _, span in ray.get(refs) if status == "answered"]
    assert len(spans) == 6
    edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans], key=lambda e: (e[0], e[1]))
    running = most = 0
    for _, d in edges:
        running += d
        most = max(most, running)
    assert most <= 2, spans


def test_an_empty_cache_directory_given_to_the_workers(tmp_path):
    # A new session whose workers get an empty cache directory: the chunks that need the databases at once wait for
    # one build of each file (the directory's lock) and every answer is right; the files are where they were sent.
    ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    cases = korf(8)
    check_all_optimal(sray.solve_many([b for b, _ in cases], GOAL, chunk_size=2, cache_dir=str(tmp_path)), cases)
    built = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tbl"))
    assert any(name.startswith(("zbpdb-4x4", "zpdb-4x4")) for name in built), built
    assert not [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name]

"""slide.ray: slide's work spread over a Ray cluster (``pip install "slidetile[ray]"``).

- ``solve_many(boards, ...)``: the boards go out as Ray tasks in chunks; answers come back in input order. Each
  worker process loads its tables and pattern databases once and keeps them for the next tasks it runs: it maps
  them read-only from the cache directory (``SLIDE_CACHE_DIR``; built there by the first process that needs them),
  so the workers of a node share one copy in memory.
- ``solve(board, tasks=N, ...)``: one hard search split across the cluster. Each IDA* threshold's tree is cut into at
  least N subtrees (as the local parallel search cuts it for threads); they run as Ray tasks with that threshold,
  and the driver moves to the next threshold only when all have finished, stopping at the first threshold with a
  solution: the length is the same proven optimum as ``slide.solve``. ``max_nodes`` and ``timeout`` hold for the
  whole cluster; a search they stop answers ``distance=None`` with a proven ``lower_bound``. The split search
  counts single-tile moves: ``metric="mtm"`` is answered by the local search (``slide.solve``), not split.

No answer is ever silent: a task that stopped without this call asking it to (its stop actor or its worker lost)
makes the call raise, and so does any other Ray failure; with no ``timeout`` or ``max_nodes`` set, every board comes
back with its length (-1: unsolvable). Overlapping calls, from threads of one driver, are independent.

Both connect to the cluster that ``ray.init`` finds (``address``, else ``RAY_ADDRESS``, else a running local cluster)
or start a local one when Ray is not initialised yet; call ``ray.init`` yourself for anything else.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
import uuid
from typing import Any, Iterable, List, Optional

_NEEDS_RAY = 'slide.ray needs Ray: pip install "slidetile[ray]" (or pip install ray)'
try:
    import ray
except ImportError as e:  # pragma: no cover - exercised only without Ray
    raise ImportError(_NEEDS_RAY) from e
if not hasattr(ray, "remote"):  # a directory named ray (such as /tmp/ray) imported as a namespace package
    raise ImportError(_NEEDS_RAY)

import slide
from slide import _slide

__all__ = ["solve_many", "solve"]


def _connect(address: Optional[str]) -> None:
    if not ray.is_initialized():
        ray.init(address=address)


def _cluster_cpus() -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _cache_dir(cache_dir: Optional[str]) -> Optional[str]:
    """The cache directory the workers are given: ``cache_dir``, else the driver's ``SLIDE_CACHE_DIR``; None (each
    worker's own: its node's ``SLIDE_CACHE_DIR``, else the platform's cache directory) with neither."""
    d = cache_dir if cache_dir is not None else os.environ.get("SLIDE_CACHE_DIR")
    return None if not d else os.fspath(d)


# The cache directory this worker process's solver was made with (it is made once per process, at the first task).
_worker_dir: Optional[str] = None


def _use_cache_dir(d: Optional[str]) -> None:
    """In a worker, before its solver is made: keep tables and databases in `d` (None: as the node's environment
    says). A worker whose solver already uses another directory refuses the task rather than build elsewhere."""
    global _worker_dir
    here = os.environ.get("SLIDE_CACHE_DIR") or None
    if _worker_dir is None:
        if d is not None and d != here:
            os.environ["SLIDE_CACHE_DIR"] = d
        _worker_dir = d if d is not None else (here or "")
        return
    if d is not None and d != _worker_dir:
        raise RuntimeError(
            f"slide.ray: this worker keeps its databases in {_worker_dir or 'the default cache directory'!r}, "
            f"not {d!r}: one cache directory per Ray job"
        )


@ray.remote(num_cpus=0)
class _Stops:
    """The calls whose tasks the driver no longer needs. Tasks ask it every 100 ms, without blocking, and stop
    themselves: the driver never cancels a Ray task, because a ``ray.cancel`` that races with the task's completion
    can crash the driver (a check in Ray's task manager fails: "Tried to complete task that was not pending")."""

    def __init__(self) -> None:
        self._stopped: set = set()

    def ping(self) -> bool:
        return True

    def stop(self, key: str) -> None:
        self._stopped.add(key)

    def forget(self, key: str) -> None:
        self._stopped.discard(key)

    def stopped(self, key: str) -> bool:
        return key in self._stopped


# The driver process's one stop actor, with the job it belongs to. The handle is kept here for the life of the
# process, so Ray never destroys the actor while a call of this driver (any thread's) still has tasks running: an
# actor that is not detached lives as long as its creator holds a handle. A new Ray session (ray.shutdown, then
# ray.init) or a dead actor gets a new one.
_stops_lock = threading.Lock()
_stops_held: Optional[tuple] = None


def _new_stops():
    return _Stops.remote()


def _stops():
    """The stop actor of this driver, alive: checked with a round trip, made anew when it died or belongs to an
    earlier Ray session."""
    global _stops_held
    job = ray.get_runtime_context().get_job_id()
    with _stops_lock:
        if _stops_held is not None and _stops_held[0] == job:
            try:
                ray.get(_stops_held[1].ping.remote(), timeout=30)
                return _stops_held[1]
            except Exception:  # noqa: BLE001 - dead, unreachable, or of another cluster (job ids start anew)
                pass
        handle = _new_stops()
        ray.get(handle.ping.remote())  # started before any task asks it
        _stops_held = (job, handle)
        return handle


class _Asker:
    """What a task asks every 100 ms: does the driver still want it? Never blocks (a task blocked in ``ray.get``
    lends its CPU to Ray, which then runs more tasks than CPUs): one question is in flight at a time, and its answer
    is read when it has come. ``fired`` records that the task was told to stop (or lost its stop actor, which counts
    as a stop): its work is then no answer, and the task says so instead of returning it."""

    def __init__(self, stops, key: str) -> None:
        self._stops = stops
        self._key = key
        self._pending = None
        self.fired = False
        self.lost: Optional[str] = None

    def __call__(self) -> bool:
        if self.fired:
            return True
        if self._pending is None:
            try:
                self._pending = self._stops.stopped.remote(self._key).future()
            except Exception as e:  # noqa: BLE001 - the actor gone: nobody can tell this task to go on
                self.lost = f"{type(e).__name__}: {e}"
                self.fired = True
                return True
        if not self._pending.done():
            return False  # a slow answer (a loaded machine) is no stop: read when it comes
        fut, self._pending = self._pending, None
        try:
            if fut.result():
                self.fired = True
        except Exception as e:  # noqa: BLE001 - the actor died: the task stops, and says why
            self.lost = f"{type(e).__name__}: {e}"
            self.fired = True
        return self.fired


def _stop(stops, key: str, refs, wait: bool) -> None:
    # Tells the tasks to stop; with `wait`, waits (at most 60 s) for them to end, then forgets the key.
    if not refs:
        return
    try:
        stops.stop.remote(key)
    except ray.exceptions.RayActorError:
        return  # the actor is gone: its tasks stop by themselves
    if wait:
        _, left = ray.wait(list(refs), num_returns=len(refs), timeout=60)
        if not left:
            stops.forget.remote(key)


class _Lost(RuntimeError):
    """A task stopped although the driver did not ask it to (its stop actor died, or the worker lost its driver)."""


def _unasked(what: str, why: Optional[str]) -> "_Lost":
    return _Lost(
        f"slide.ray.{what}: a task stopped before answering although this call did not stop it"
        + (f" ({why})" if why else "")
        + "; no answer is returned for its boards"
    )


@ray.remote(num_cpus=1)
def _solve_chunk(
    boards: List[Any], goal: Any, options: dict, offset: int, stops, key: str, cache_dir: Optional[str] = None
) -> tuple:
    # One thread per task: Ray runs one task per CPU. The pattern databases stay loaded in this worker process
    # (slide's process-wide solver) for the tasks it runs next, mapped from the cache files: the workers of a node
    # share one copy. Returns (status, body, span): ("answered", solutions) or ("stopped", why) when the task was
    # told to stop or lost its stop actor (its work is then no answer); span is the task's (start, end) wall time.
    start = time.time()
    _use_cache_dir(cache_dir)
    _slide._map_files(True)
    asker = _Asker(stops, key)

    def done(status, body):
        return (status, body, (start, time.time()))

    try:
        out = slide.solve_many(boards, goal, threads=1, _stop=asker, **options)
    except slide.BoardError as e:  # name the board by its place in the whole batch
        if asker.fired:
            return done("stopped", asker.lost)
        msg = str(e)
        if msg.startswith("boards[") and "]" in msg:
            i = int(msg[7 : msg.index("]")])
            msg = f"boards[{offset + i}]{msg[msg.index(']') + 1 :]}"
        raise slide.BoardError(msg) from None
    except RuntimeError:
        if asker.fired:
            return done("stopped", asker.lost)
        raise
    if asker.fired:
        return done("stopped", asker.lost)
    return done("answered", out)


@ray.remote(num_cpus=1)
def _search_chunk(board, goal, threshold, roots, max_nodes, timeout, stops, key, cache_dir=None):
    # (status, moves, next_threshold, nodes, why): status "cancelled" when the task was told to stop or lost its
    # stop actor, with why in that last case.
    _use_cache_dir(cache_dir)
    _slide._map_files(True)
    asker = _Asker(stops, key)
    status, moves, nxt, nodes = _slide._search_subtrees(board, goal, threshold, roots, max_nodes, timeout, asker)
    if asker.fired:
        return ("cancelled", None, None, nodes, asker.lost)
    return (status, moves, nxt, nodes, None)


#: The search options of ``slide.solve`` that ``solve_many`` passes on to its tasks (a cancel handle or a progress
#: callable cannot travel to another process).
_SEARCH_OPTIONS = frozenset(
    ["heuristic", "partition", "reflect", "mixed_sums", "move_pruning", "fallback", "method", "max_depth"]
    + ["count", "all", "limit", "max_memory"]
)


def solve_many(
    boards: Iterable[Any],
    goal: Any = None,
    *,
    chunk_size: Optional[int] = None,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    within: Optional[float] = None,
    address: Optional[str] = None,
    cache_dir: Optional[str] = None,
    **search: Any,
) -> List["slide.Solution"]:
    """Solves boards as Ray tasks of ``chunk_size`` boards (default: about four chunks per CPU of the cluster);
    answers in input order, as ``slide.solve_many`` gives them. Limits apply to each board. Every board is checked
    here first: a bad one raises ``BoardError`` naming it (``boards[i]``) before any task starts.

    ``search``: ``slide.solve``'s search options (``heuristic``, ``partition``, ``reflect``, ``mixed_sums``,
    ``move_pruning``, ``fallback``, ``method``, ``max_depth``, ``count``, ``all``, ``limit``) and ``max_memory``
    (MB, as ``--max-memory``: each worker refuses the builds that need more), passed to every task.

    ``cache_dir``: where the workers keep tables and pattern databases (a directory on each node, or one shared by
    all); default the driver's ``SLIDE_CACHE_DIR``, else each worker's own. Each node builds a file once, however
    many of its workers ask."""
    _slide._map_files(True)  # the driver maps what it loads, as its workers do (asked before its first load)
    unknown = sorted(set(search) - _SEARCH_OPTIONS)
    if unknown:
        raise TypeError(f"slide.ray.solve_many() got an unexpected keyword argument {unknown[0]!r}")
    options = dict(metric=metric, moves=moves, timeout=timeout, max_nodes=max_nodes, within=within, **search)
    slide.solve([[1, 2], [3, 0]], **options)  # checks the options here, with the package's own messages
    rows = []
    goal_rows = None
    for i, b in enumerate(boards):
        try:
            r, g = _slide._rows(b, goal)
        except (ValueError, TypeError) as e:
            raise type(e)(f"boards[{i}]: {e}") from None
        rows.append(r)
        goal_rows = g if goal is not None else None
    if not rows:
        return []
    # The pattern databases (MTM: the label tables) are built by the first worker of each node that needs them;
    # the others wait for that build (the cache directory's lock) and map its files.
    _connect(address)
    if chunk_size is None:
        chunk_size = max(1, math.ceil(len(rows) / (4 * _cluster_cpus())))
    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, not {chunk_size!r}")
    stops, key = _stops(), uuid.uuid4().hex
    workers_dir = _cache_dir(cache_dir)
    refs = [
        _solve_chunk.remote(rows[i : i + chunk_size], goal_rows, options, i, stops, key, workers_dir)
        for i in range(0, len(rows), chunk_size)
    ]
    try:
        chunks = ray.get(refs)
    except KeyboardInterrupt:
        _stop(stops, key, refs, wait=False)
        raise
    except ray.exceptions.RayTaskError as e:
        _stop(stops, key, refs, wait=True)
        if isinstance(e.cause, (ValueError, TypeError)):
            raise e.cause from None  # the worker's BoardError as it was, without Ray's wrapping
        raise
    except BaseException:  # any other Ray failure (a worker or node lost, an object lost) raises here, as it is
        _stop(stops, key, refs, wait=True)
        raise
    out = []
    for i, chunk in zip(range(0, len(rows), chunk_size), chunks):
        status, body, _ = chunk
        if status != "answered":
            raise _unasked("solve_many", body)
        if len(body) != len(rows[i : i + chunk_size]):
            raise RuntimeError("slide.ray.solve_many: a task answered the wrong number of boards (please report it)")
        out.extend(body)
    if timeout is None and max_nodes is None:
        # No limit was set: every answer must be one (a length, or -1 for unsolvable), never a stopped search.
        for i, s in enumerate(out):
            if s.distance is None:
                raise RuntimeError(f"slide.ray.solve_many: boards[{i}] came back unanswered with no limit set")
    return out


def _solution(distance, moves, optimal, lower_bound, nodes, seconds, board, goal) -> "slide.Solution":
    text = lambda rows: json.dumps(rows, separators=(",", ":"))  # noqa: E731
    return slide.Solution._restore(
        (distance, moves, optimal, lower_bound, nodes, seconds, None, None, text(board), text(goal), "stm")
    )


def solve(
    board: Any,
    goal: Any = None,
    *,
    tasks: Optional[int] = None,
    metric: str = "stm",
    moves: bool = True,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    address: Optional[str] = None,
    cache_dir: Optional[str] = None,
) -> "slide.Solution":
    """Solves one board optimally with its search spread over the cluster: each IDA* threshold cut into at least
    ``tasks`` subtrees (default: four per CPU of the cluster), searched as Ray tasks.

    ``max_nodes`` and ``timeout`` count for the whole cluster: each threshold's tasks share the nodes left; when a
    limit stops the search, ``distance`` is None and ``lower_bound`` is the last threshold begun (every shorter
    solution was ruled out). Boards of at most 12 cells, single rows or columns and unsolvable boards are answered
    here, by ``slide.solve``, and so is ``metric="mtm"`` (the split search counts single-tile moves; MTM above 12
    cells is the library's local IDA* over pushes, under the same ``timeout`` and ``max_nodes``). ``.nodes`` counts
    the nodes of every task; ``.seconds`` is the driver's wall time. Goals are boards (partial goals:
    ``slide.solve``). ``cache_dir`` as for ``solve_many``; the driver maps its own databases (it needs them for the
    cut) from its ``SLIDE_CACHE_DIR``."""
    t0 = time.monotonic()
    _slide._map_files(True)
    b, g = _slide._rows(board, goal)
    if tasks is not None and (not isinstance(tasks, int) or isinstance(tasks, bool) or tasks < 1):
        raise ValueError(f"tasks must be a positive integer, not {tasks!r}")
    # The library's ranges and sentences, as slide.solve checks them.
    _slide._check_limits(timeout, max_nodes)
    mtm = isinstance(metric, str) and metric.strip().lower() == "mtm"
    if len(b) * len(b[0]) <= 12 or len(b) == 1 or len(b[0]) == 1 or mtm:
        return slide.solve(b, g, metric=metric, moves=moves, timeout=timeout, max_nodes=max_nodes)
    # Checks the metric, answers unsolvable boards, and loads the pattern databases here (the cut needs them).
    first = slide.solve(b, g, metric=metric, moves=moves, max_nodes=0)
    if first.optimal:
        return first
    _connect(address)
    stops = _stops()
    workers_dir = _cache_dir(cache_dir)
    want = tasks if tasks is not None else 4 * _cluster_cpus()
    deadline = None if timeout is None else t0 + timeout
    nodes = 0
    threshold = None
    lower = first.lower_bound
    while True:
        if threshold is not None and max_nodes is not None and nodes >= max_nodes:
            # The node budget is spent before this threshold's cut: every shorter threshold was searched, so the
            # optimum is at least this one.
            return _solution(None, None, False, threshold, nodes, time.monotonic() - t0, b, g)
        split = _slide._split(b, g, threshold, want)
        nodes += split["nodes"]
        lower = split["threshold"]
        if split["solution"] is not None:
            found = split["solution"]
            break
        roots = split["subtrees"]
        if not roots:  # every node within the threshold lies above the cut, none of them a goal
            if split["next_threshold"] is None:
                raise RuntimeError("slide.ray.solve: no next threshold for a solvable board (please report it)")
            threshold = split["next_threshold"]
            continue
        # At least `want` subtrees, grouped into `want` tasks (consecutive roots share a task).
        per = max(1, math.ceil(len(roots) / want))
        groups = [roots[i : i + per] for i in range(0, len(roots), per)]
        budget = None if max_nodes is None else max(0, max_nodes - nodes) // len(groups)
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        key = uuid.uuid4().hex  # one per threshold: a key is forgotten only once its tasks have all ended
        pending = [
            _search_chunk.remote(b, g, split["threshold"], grp, budget, left, stops, key, workers_dir)
            for grp in groups
        ]
        next_threshold = split["next_threshold"]
        found = None
        stopped = False
        try:
            while pending and found is None and not stopped:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                done, pending = ray.wait(pending, num_returns=1, timeout=wait)
                if not done:
                    stopped = True  # the cluster-wide timeout
                    break
                status, moves_found, nxt, n, why = ray.get(done[0])
                nodes += n
                if status == "solved":
                    found = moves_found
                elif status == "cancelled":  # this call had not stopped it: its subtrees were not searched
                    raise _unasked("solve", why)
                elif status == "stopped":
                    if max_nodes is None and timeout is None:
                        raise RuntimeError("slide.ray.solve: a task stopped with no limit set (please report it)")
                    stopped = True
                elif nxt is not None:
                    next_threshold = nxt if next_threshold is None else min(next_threshold, nxt)
        except KeyboardInterrupt:
            _stop(stops, key, pending, wait=False)
            raise
        except BaseException:
            _stop(stops, key, pending, wait=True)
            raise
        # The tasks still running are told to stop and waited for (within 100 ms or so): the next threshold's tasks
        # then have the workers to themselves.
        _stop(stops, key, pending, wait=True)
        if found is not None:
            break
        if stopped:
            return _solution(None, None, False, lower, nodes, time.monotonic() - t0, b, g)
        if next_threshold is None:
            raise RuntimeError("slide.ray.solve: no next threshold for a solvable board (please report it)")
        threshold = next_threshold
    # The moves must reach the goal (checked here, in the driver, by the library's own move rules).
    if slide.apply(b, found) != g:
        raise RuntimeError("slide.ray.solve: the moves found do not reach the goal (please report it)")
    return _solution(
        len(found), list(found) if moves else None, True, len(found), nodes, time.monotonic() - t0, b, g
    )

"""Run a study's jobs somewhere: a local process pool (the default) or Dask distributed.

Workers open the results store themselves (one connection per process and thread) and write each
result as soon as its job finishes, so an interruption loses nothing finished; the store's writes
are transactions safe for concurrent writers. Each worker keeps the cache-key check of
``jobs.run_job``, so a rerun skips every job already done.

A design is generated once, by a "prepare" task, before the jobs that measure it are submitted: two
jobs of one design never generate it at the same time (and ``cache.ensure_design`` is race-safe
anyway, for two studies running at once or a Dask worker with its own cache).
"""

from __future__ import annotations

import heapq
import multiprocessing
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from .errors import CipherbenchError

if TYPE_CHECKING:
    from .spec import DesignSpec
    from .jobs import Job, RunSummary

EXECUTORS = ("local", "dask", "dask-local")
# Seconds a local worker gets to clean up (temporary folders, tool subprocesses) after Ctrl-C
# before it is killed.
_STOP_GRACE_S = 10.0
_POSTFIX_CHARS = 120


@dataclass(frozen=True)
class Runner:
    """Where jobs run: ``kind`` is one of EXECUTORS; ``store`` is what workers open (an absolute
    SQLite path or a PostgreSQL URL: text, so it pickles and means the same on every worker)."""

    kind: str
    store: str
    workers: int = 1
    scheduler: str | None = None

    def parallel(self, n_jobs: int) -> bool:
        """False when the in-process sequential path is as good: one local worker or one job."""
        return self.kind != "local" or (self.workers > 1 and n_jobs > 1)


def default_jobs() -> int:
    """The CPUs this process may use (its affinity, not the whole machine's), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def worker_location(location: str | os.PathLike[str]) -> str:
    """The store location as workers must see it: a SQLite path made absolute (workers may run
    in another folder), a PostgreSQL URL unchanged."""
    from .store import parse_location

    parsed = parse_location(location)
    if parsed.path is not None:
        return str(parsed.path.resolve())
    return str(location)


def make_runner(kind: str, store: str | os.PathLike[str], *, jobs: int | None = None,
                workers: int | None = None, scheduler: str | None = None) -> Runner:
    """Check the CLI's executor options together; every mistake is one line."""
    if kind not in EXECUTORS:
        raise CipherbenchError(f"unknown executor {kind!r}; valid: {', '.join(EXECUTORS)}")
    if kind == "dask" and not scheduler:
        raise CipherbenchError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786); "
                               "use --executor dask-local to start a local cluster")
    if scheduler and kind != "dask":
        raise CipherbenchError("--scheduler is only for --executor dask")
    for name, value in (("--jobs", jobs), ("--workers", workers)):
        if value is not None and value < 1:
            raise CipherbenchError(f"{name} must be at least 1")
    count = workers if kind == "dask-local" else jobs
    return Runner(kind, worker_location(store), count or default_jobs(), scheduler)


# --- worker side ----------------------------------------------------------------------------

_LOCAL = threading.local()
_IN_TASK = False
_STOPPED = False  # set by SIGTERM in a local worker


def _store(location: str) -> Any:
    """This thread's store connection (SQLite connections must not cross threads; Dask workers
    may run several tasks at once)."""
    from .store import Store

    stores: dict[str, Any] = _LOCAL.__dict__.setdefault("stores", {})
    if location not in stores:
        stores[location] = Store(location)
    return stores[location]


def prepare_design(design: DesignSpec, jobs: list[Job], location: str, force: bool) -> int | None:
    """Generate ``design`` once, unless every job of it is already in the store; return its size
    (``design_size``), or None when it was not generated."""
    from .cache import ensure_design
    from .jobs import job_key, reusable

    with _task():
        store = _store(location)
        if all(reusable(store.get(job_key(job).key), force) for job in jobs):
            return None
        try:
            return design_size(ensure_design(design))
        except CipherbenchError:
            return None  # each job records the failure in its own row, as the sequential path does


def design_size(folder: Path) -> int:
    """The bytes of a generated design's Verilog: what its jobs' times grow with. The NSA
    study's full pipelines are 6-30 MB against its iterative cores' 0.4-1.2 MB, and their ASIC
    jobs took about 7 to 30 times as long (BENCHMARKS.md)."""
    return sum(path.stat().st_size for path in folder.glob("*.v"))


def run_job(job: Job, location: str, force: bool) -> RunSummary:
    """One job, its result written to the store here; the summary goes back to the driver."""
    from .jobs import RunSummary, run_job

    with _task():
        summary = RunSummary()
        run_job(job, _store(location), force, summary, None)
        return summary


@contextmanager
def _task() -> Iterator[None]:
    """Mark a task as running, so SIGTERM unwinds it; once unwound (its temporary folders gone),
    a stopped local worker exits instead of waiting for more work."""
    global _IN_TASK
    _IN_TASK = True
    try:
        yield
    except KeyboardInterrupt:
        if _STOPPED:
            os._exit(1)
        raise
    finally:
        _IN_TASK = False


def _local_worker_init() -> None:
    """A process group of its own: the terminal's Ctrl-C then reaches only the driver (workers
    and their tools do not die half-way and write a failed row); the driver stops workers with
    SIGTERM."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGTERM, _on_term)


def _on_term(signum: int, frame: FrameType | None) -> None:
    """Stop the tools this worker started (make, compilers, Yosys, nextpnr: its process group),
    then unwind a running task, whose ``finally`` blocks remove its temporary folders."""
    global _STOPPED
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.killpg(0, signal.SIGTERM)
    if _IN_TASK:
        _STOPPED = True
        raise KeyboardInterrupt
    os._exit(1)


# --- driver side ----------------------------------------------------------------------------


class _Pool(Protocol):
    def slots(self) -> int: ...
    def submit(self, fn: Callable[..., Any], *args: Any) -> Any: ...
    def wait_any(self, futures: set[Any]) -> set[Any]: ...
    def abort(self, futures: set[Any]) -> None: ...
    def close(self) -> None: ...


class _LocalPool:
    def __init__(self, workers: int) -> None:
        # forkserver/spawn, not fork: the driver holds a database connection and tqdm's thread,
        # which must not be copied into workers.
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self._pool = ProcessPoolExecutor(max_workers=workers,
                                         mp_context=multiprocessing.get_context(method),
                                         initializer=_local_worker_init)
        self._workers = workers

    def slots(self) -> int:
        return self._workers

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self._pool.submit(fn, *args)

    def wait_any(self, futures: set[Any]) -> set[Any]:
        return set(wait_futures(futures, return_when=FIRST_COMPLETED).done)

    def abort(self, futures: set[Any]) -> None:
        for future in futures:
            future.cancel()
        # The executor has no public way to stop running tasks: signal its processes directly.
        processes = list(getattr(self._pool, "_processes", {}).values())
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(_STOP_GRACE_S)
            if process.is_alive():
                process.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._pool.shutdown(wait=True)


class _DaskPool:
    def __init__(self, runner: Runner) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise CipherbenchError(f"--executor {runner.kind} needs Dask distributed: "
                                   f"pip install 'cipherbench[dask]'") from exc
        self._cluster: Any = None
        if runner.kind == "dask-local":
            # One thread per worker process: jobs are CPU-bound, and the GIL would serialize them.
            self._cluster = LocalCluster(n_workers=runner.workers, threads_per_worker=1,
                                         processes=True, dashboard_address=None)
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(runner.scheduler, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise CipherbenchError(f"cannot reach the Dask scheduler {runner.scheduler}: "
                                       f"{exc}") from exc
        try:
            self._check_store(runner)
        except BaseException:
            self.close()
            raise

    def _check_store(self, runner: Runner) -> None:
        """Workers write the results themselves: each must see the same SQLite file (a server
        database is checked when the first worker connects)."""
        from .store import parse_location

        path = parse_location(runner.store).path
        if path is None:
            return
        seen = self._client.run(os.path.exists, str(path))
        if not seen:
            raise CipherbenchError(f"the Dask scheduler {runner.scheduler} has no workers")
        blind = sorted(worker for worker, exists in seen.items() if not exists)
        if blind:
            raise CipherbenchError(
                f"Dask workers {', '.join(blind)} cannot see the results database {path}: "
                f"use a SQLite file on a filesystem every worker shares, or a postgresql:// URL "
                f"(--db)")

    def slots(self) -> int:
        """The cluster's worker threads now (workers may join or leave a running scheduler)."""
        return max(1, sum(self._client.nthreads().values()))

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        # pure=False: two submissions are two runs, never merged by Dask's argument hashing.
        return self._client.submit(fn, *args, pure=False)

    def wait_any(self, futures: set[Any]) -> set[Any]:
        from distributed import wait

        return set(wait(list(futures), return_when="FIRST_COMPLETED").done)

    def abort(self, futures: set[Any]) -> None:
        # Tasks already running on a remote worker finish and write their row (harmless: the
        # rerun finds it); the rest are dropped.
        self._client.cancel(list(futures))
        self.close()

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _open_pool(runner: Runner) -> _Pool:
    if runner.kind == "local":
        return _LocalPool(runner.workers)
    return _DaskPool(runner)


def run_jobs(jobs: list[Job], runner: Runner, *, force: bool, summary: RunSummary,
             bar: Any) -> None:
    """Run ``jobs`` on ``runner``, adding each finished job to ``summary`` and ``bar``.

    Tasks are handed out one per free worker slot, the most expensive first: the designs'
    "prepare" tasks, then the jobs by their flow's cost times their design's size (``job_cost``),
    so the longest jobs start first and the study does not end with one worker running a
    pipeline's job while the others sit idle.

    Ctrl-C cancels the jobs not started, stops the running ones and re-raises KeyboardInterrupt;
    every job that finished is already in the store.
    """
    by_design: dict[DesignSpec, list[Job]] = {}
    for job in jobs:
        by_design.setdefault(job.design, []).append(job)
    pool = _open_pool(runner)
    ready = _TaskQueue()
    for design in by_design:
        ready.push(_PREPARE_COST, ("prepare", design))
    # future -> what it is: ("prepare", design) or ("job", job)
    pending: dict[Any, tuple[str, Any]] = {}
    shared = _SharedWork()
    try:
        while pending or ready:
            while ready and len(pending) < pool.slots():
                kind, item = task = ready.pop(avoid=shared.being_made)
                args = ((prepare_design, item, by_design[item]) if kind == "prepare"
                        else (run_job, item))
                pending[pool.submit(*args, runner.store, force)] = task
                shared.started(task)
            bar.set_postfix_str(_running(pending), refresh=True)
            for future in pool.wait_any(set(pending)):
                kind, item = task = pending.pop(future)
                if kind == "prepare":
                    # A crash (not a CipherbenchError) stops the study.
                    size = future.result() or 1
                    for job in by_design[item]:
                        ready.push(job_cost(job) * size, ("job", job))
                else:
                    _absorb(summary, future.result())
                    shared.finished(task)
                    bar.update(1)
    except BaseException:
        pool.abort(set(pending))
        raise
    pool.close()


# Above every job: a design's generation releases all its jobs, so it goes first.
_PREPARE_COST = float("inf")


def job_cost(job: Job) -> int:
    """The job's flow's relative cost per byte of design (``Flow.cost``); an unknown flow counts
    as the cheapest (its job then fails with the flow's own error)."""
    from .flows import get_flow

    try:
        return int(get_flow(job.target.flow).cost)
    except CipherbenchError:
        return 0


class _SharedWork:
    """Which jobs would make work another running job is making (``flows.base.shared_work``):
    a design's ASIC jobs share its synthesis before ABC, and the first job makes it. Two started
    together each made it (a 400 kGE pipeline: minutes of Yosys twice), so while the first runs,
    the others wait behind any other ready work; with nothing else to run they start anyway."""

    def __init__(self) -> None:
        self._making: set[tuple[DesignSpec, str]] = set()
        self._made: set[tuple[DesignSpec, str]] = set()

    @staticmethod
    def _group(task: tuple[str, Any]) -> tuple[DesignSpec, str] | None:
        kind, job = task
        if kind != "job":
            return None
        from .flows import get_flow
        from .flows.base import shared_work

        try:
            key = shared_work(get_flow(job.target.flow), job.target.settings)
        except CipherbenchError:
            return None
        return None if key is None else (job.design, key)

    def being_made(self, task: tuple[str, Any]) -> bool:
        group = self._group(task)
        return group is not None and group in self._making

    def started(self, task: tuple[str, Any]) -> None:
        group = self._group(task)
        if group is not None and group not in self._made:
            self._making.add(group)

    def finished(self, task: tuple[str, Any]) -> None:
        group = self._group(task)
        if group is not None:
            self._making.discard(group)
            self._made.add(group)


class _TaskQueue:
    """Tasks by cost, the highest first; equal costs in the order they were pushed."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, tuple[str, Any]]] = []
        self._count = 0

    def push(self, cost: float, task: tuple[str, Any]) -> None:
        heapq.heappush(self._heap, (-cost, self._count, task))
        self._count += 1

    def pop(self, avoid: Callable[[tuple[str, Any]], bool] | None = None) -> tuple[str, Any]:
        """The first task ``avoid`` does not hold back; if it holds back all, the first."""
        held: list[tuple[float, int, tuple[str, Any]]] = []
        try:
            while self._heap:
                entry = heapq.heappop(self._heap)
                if avoid is None or not avoid(entry[2]):
                    return entry[2]
                held.append(entry)
            first = held.pop(0)
            return first[2]
        finally:
            for entry in held:
                heapq.heappush(self._heap, entry)

    def __bool__(self) -> bool:
        return bool(self._heap)


def _running(pending: dict[Any, tuple[str, Any]]) -> str:
    """The tasks handed out and not yet finished: at most one per worker slot."""
    names = []
    for kind, item in pending.values():
        names.append(f"generating {item}" if kind == "prepare"
                     else f"{item.design} on {item.target.name}")
    text = "; ".join(names)
    return text if len(text) <= _POSTFIX_CHARS else text[:_POSTFIX_CHARS - 3] + "..."


def _absorb(summary: RunSummary, part: RunSummary) -> None:
    summary.ran += part.ran
    summary.cached += part.cached
    summary.failed_expected += part.failed_expected
    summary.errors.extend(part.errors)


__all__ = ["EXECUTORS", "Runner", "default_jobs", "make_runner", "run_jobs", "worker_location"]

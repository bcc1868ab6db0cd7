"""Parallel study runs (issue 6): a local process pool and a real multi-worker Dask cluster give
the same rows as the sequential run, write each result once, and a rerun recomputes nothing."""

from __future__ import annotations

import importlib.util
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.executor import make_runner

# Two DES cores: among the fastest designs to generate and synthesize (~8 s each on one core).
DESIGNS = ("des-64/iterative", "des-64/iterative:ops=encrypt")
# Everything but the provenance (dates, host) and the local id: what a job computed.
FIGURES = "cache_key, design, target, settings, status, reason, measurements, cycles, metrics"


def cli(*args: str, cache: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CIPHERBENCH_CACHE": str(cache)}
    env.pop("CIPHERBENCH_DB", None)
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", "run", "--target", "generic",
                           *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def study(*extra: str, designs: tuple[str, ...] = DESIGNS) -> list[str]:
    return [arg for design in designs for arg in ("--design", design)] + list(extra)


def rows(db: Path, columns: str = FIGURES) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(f"select {columns} from results order by cache_key").fetchall()


def assert_no_duplicates(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        total, keys = conn.execute("select count(*), count(distinct cache_key) from results").fetchone()
    assert total == keys == len(DESIGNS)


@pytest.fixture(scope="module")
def sequential(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The reference: today's in-process path (--jobs 1). Returns (design cache, database)."""
    root = tmp_path_factory.mktemp("sequential")
    proc = cli(*study("--jobs", "1", "--db", str(root / "seq.sqlite")), cache=root / "cache",
               cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "2 ran, 0 cached" in proc.stdout
    return root / "cache", root / "seq.sqlite"


def test_local_pool_same_rows_and_rerun_cached(sequential: tuple[Path, Path],
                                               tmp_path: Path) -> None:
    # A fresh design cache: the pool's workers generate the designs themselves.
    db = tmp_path / "par.sqlite"
    proc = cli(*study("--jobs", "2", "--db", str(db)), cache=tmp_path / "cache", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "2 ran, 0 cached" in proc.stdout
    assert rows(db) == rows(sequential[1])
    assert_no_duplicates(db)
    before = rows(db, "*")
    again = cli(*study("--jobs", "2", "--db", str(db)), cache=tmp_path / "cache", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "0 ran, 2 cached" in again.stdout
    assert rows(db, "*") == before  # not even a provenance date rewritten


# Runs `cipherbench run` with Store.put wrapped: the first job's row is written and reported on
# the pipe (fd argv[1]); the second job, its result computed, reports on the pipe and then waits
# for the signal before writing anything. The test reads the pipe, so it kills the run at a known
# point instead of polling the database and guessing how far the run got.
_HELD_RUN = """
import os, signal, sys
from cipherbench.store import core

pipe = int(sys.argv[1])
put = core.Store.put
calls = []


def held_put(self, result):
    calls.append(result.design)
    if len(calls) == 1:
        stored = put(self, result)
        os.write(pipe, b"stored\\n")
        return stored
    os.write(pipe, b"holding\\n")
    while True:
        signal.pause()


core.Store.put = held_put
from cipherbench.cli import main
sys.argv = ["cipherbench", *sys.argv[2:]]
main()
"""


def test_interrupted_study_resumes_without_recomputing(sequential: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    """A run killed (SIGKILL, no chance to clean up) with its first job stored and its second
    computed but not yet written leaves the finished job in the store, nothing of the second,
    and a database SQLite finds intact; the rerun computes only the second job."""
    db = tmp_path / "resume.sqlite"
    env = {**os.environ, "CIPHERBENCH_CACHE": str(sequential[0])}
    env.pop("CIPHERBENCH_DB", None)
    read_end, write_end = os.pipe()
    errors = tmp_path / "run.stderr"
    with errors.open("w") as stderr:
        run = subprocess.Popen([sys.executable, "-c", _HELD_RUN, str(write_end), "run",
                                "--target", "generic", *study("--jobs", "1", "--db", str(db))],
                               cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
                               start_new_session=True, pass_fds=(write_end,))
    os.close(write_end)  # the run holds the only write end: its exit ends the pipe
    try:
        with os.fdopen(read_end, "rb") as pipe:
            said = [pipe.readline(), pipe.readline()]  # blocks until the run says where it is
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the run and its tools (Yosys, Verilator) at once
        run.wait()
    assert said == [b"stored\n", b"holding\n"], errors.read_text()[-2000:]
    with sqlite3.connect(db) as conn:
        assert conn.execute("pragma integrity_check").fetchone() == ("ok",)
    done = rows(db, "*")
    assert len(done) == 1
    assert rows(db)[0] in rows(sequential[1])  # the finished job is whole
    whole = cli(*study("--jobs", "2", "--db", str(db)), cache=sequential[0], cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert "1 ran, 1 cached" in whole.stdout
    assert done[0] in rows(db, "*")  # the finished row untouched
    assert rows(db) == rows(sequential[1])
    assert_no_duplicates(db)


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="Dask distributed not installed (pip install 'cipherbench[dask]')")
def test_dask_cluster_same_rows(sequential: tuple[Path, Path], tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    # Worker processes inherit this environment: the fresh design cache the jobs must use.
    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path / "cache"))
    db = tmp_path / "dask.sqlite"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        proc = cli(*study("--executor", "dask", "--scheduler", cluster.scheduler_address,
                          "--db", str(db)), cache=tmp_path / "cache", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "2 ran, 0 cached" in proc.stdout
        again = cli(*study("--executor", "dask", "--scheduler", cluster.scheduler_address,
                           "--db", str(db)), cache=tmp_path / "cache", cwd=tmp_path)
        assert "0 ran, 2 cached" in again.stdout, again.stderr
    assert rows(db) == rows(sequential[1])
    assert_no_duplicates(db)


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"kind": "dask"}, "needs --scheduler"),
    ({"kind": "local", "scheduler": "tcp://h:8786"}, "only for --executor dask"),
    ({"kind": "local", "jobs": 0}, "--jobs must be at least 1"),
    ({"kind": "dask-local", "workers": 0}, "--workers must be at least 1"),
])
def test_executor_option_errors(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(CipherbenchError, match=fragment):
        make_runner(store="x.sqlite", **kwargs)  # type: ignore[arg-type]


def test_one_job_or_one_worker_stays_in_process(tmp_path: Path) -> None:
    runner = make_runner("local", tmp_path / "x.sqlite", jobs=2)
    assert runner.parallel(2) and not runner.parallel(1)
    assert not make_runner("local", "x.sqlite", jobs=1).parallel(5)
    assert Path(make_runner("local", "x.sqlite", jobs=1).store).is_absolute()


def test_two_processes_racing_for_one_design_share_it(tmp_path: Path) -> None:
    """cache.ensure_design publishes with one rename: the loser keeps the winner's folder and
    leaves no temporary folder behind."""
    code = ("import sys; from cipherbench.cache import ensure_design; "
            "from cipherbench.spec import parse; print(ensure_design(parse(sys.argv[1])))")
    env = {**os.environ, "CIPHERBENCH_CACHE": str(tmp_path / "cache")}
    racers = [subprocess.Popen([sys.executable, "-c", code, DESIGNS[1]], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [racer.communicate(timeout=300) for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), [err for _, err in outs]
    folders = {out.strip() for out, _ in outs}
    assert len(folders) == 1
    assert [p.name for p in (tmp_path / "cache" / "designs").iterdir()] == [Path(*folders).name]
    assert "latency" in (Path(*folders) / "manifest.json").read_text()


@pytest.mark.parametrize(("status", "reason", "force", "reused"), [
    ("ok", None, False, True),
    ("ok", None, True, False),  # --force recomputes
    # A tool that crashed, hung past its timeout or was killed: retried by the next run.
    ("failed", "yosys failed: exit code -9 (log: x)", False, False),
    ("failed", "yosys timed out after 3600 s (see x)", False, False),
    ("failed", "OpenSTA failed: did not finish (log: x)", False, False),
    # A design that does not fit its device is a result of the same inputs: kept.
    ("failed", "does not fit device up5k: needs 9000 LUTs, has 5280", False, True),
])
def test_which_stored_rows_a_rerun_keeps(status: str, reason: str | None, force: bool,
                                         reused: bool) -> None:
    from cipherbench.store import Result
    from cipherbench.study import reusable

    row = Result(cache_key="k", design="des-64/iterative", target="generic", status=status,
                 reason=reason)
    assert reusable(row, force) is reused
    assert reusable(None, force) is False


class RecordingPool:
    """Two slots; every task finishes as soon as the executor waits; the order tasks started.
    ``sizes``: what each design's generation returns (its size; None: not generated)."""

    def __init__(self, sizes: dict[str, int] | None = None) -> None:
        self.sizes = sizes or {}
        self.order: list[str] = []
        self.most_pending = 0
        self._pending = 0

    def slots(self) -> int:
        return 2

    def submit(self, fn: object, item: object, *args: object) -> object:
        from concurrent.futures import Future

        from cipherbench.study import RunSummary

        self._pending += 1
        self.most_pending = max(self.most_pending, self._pending)
        name = fn.__name__  # type: ignore[attr-defined]
        self.order.append(f"generate {item}" if name == "prepare_design" else
                          f"{item.design} {item.target.name}")  # type: ignore[attr-defined]
        future: Future[object] = Future()
        future.set_result(self.sizes.get(str(item)) if name == "prepare_design"
                          else RunSummary(ran=1))
        return future

    def wait_any(self, futures: set[object]) -> set[object]:
        self._pending -= len(futures)
        return futures

    def abort(self, futures: set[object]) -> None: ...
    def close(self) -> None: ...


class Bar:
    def set_postfix_str(self, text: str, refresh: bool) -> None: ...
    def update(self, n: int) -> None: ...


def test_a_designs_asic_jobs_do_not_start_together(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """A design's ASIC jobs share its synthesis before ABC, which the first makes: while it
    runs, another design's job takes the second slot; alone, the sibling starts anyway."""
    from cipherbench import executor
    from cipherbench.spec import parse
    from cipherbench.study import Job, RunSummary
    from cipherbench.targets import Target

    liberty = str(tmp_path / "lib.lib")  # never read: only the jobs' grouping is looked at
    ends = [Target(f"asic-{goal}", "asic", {"liberty": liberty, "goal": goal})
            for goal in ("area", "speed")]
    a, b = (parse(d) for d in DESIGNS)
    # Started in pairs (both slots busy each time): a's and b's area ends, then their speed ends;
    # a alone: its two ends together.
    for designs, expected in (([a, b], [{a, b}, {a, b}]), ([a], [{a}])):
        pool = RecordingPool()
        monkeypatch.setattr(executor, "_open_pool", lambda runner, pool=pool: pool)
        jobs = [Job(d, t) for d in designs for t in ends]
        summary = RunSummary()
        executor.run_jobs(jobs, make_runner("local", "x.sqlite", jobs=2), force=False,
                          summary=summary, bar=Bar())
        started = [entry for entry in pool.order if not entry.startswith("generate")]
        pairs = [started[i:i + 2] for i in range(0, len(started), 2)]
        assert [{parse(e.split()[0]) for e in pair} for pair in pairs] == expected, pool.order
        assert pool.most_pending == 2 and summary.ran == len(jobs)


def test_longest_jobs_start_first_one_per_free_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Designs are generated first; then, across designs of one size, FPGA routes before generic
    counts before ASIC syntheses, never more tasks handed out than the pool has slots."""
    from cipherbench import executor
    from cipherbench.spec import parse
    from cipherbench.study import Job, RunSummary
    from cipherbench.targets import Target

    pool = RecordingPool()
    monkeypatch.setattr(executor, "_open_pool", lambda runner: pool)
    targets = [Target("generic", "generic"), Target("asic", "asic"), Target("fpga-ecp5", "fpga")]
    jobs = [Job(parse(d), t) for d in DESIGNS for t in targets]
    summary = RunSummary()

    runner = make_runner("local", "x.sqlite", jobs=2)
    executor.run_jobs(jobs, runner, force=False, summary=summary, bar=Bar())
    a, b = (str(parse(d)) for d in DESIGNS)
    # Between equal costs the order is whichever design's generation was seen finishing first.
    assert set(pool.order[:2]) == {f"generate {a}", f"generate {b}"}
    assert [entry.split()[-1] for entry in pool.order[2:]] == [
        "fpga-ecp5", "fpga-ecp5", "generic", "generic", "asic", "asic"]
    assert sorted(pool.order[2:]) == sorted(f"{d} {t.name}" for d in (a, b) for t in targets)
    assert pool.most_pending == 2 and summary.ran == 6


def test_a_big_designs_jobs_start_before_a_small_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs are ordered by their flow's cost times their design's size: a pipeline ten times the
    size of an iterative core starts first. Its ASIC job shares the design's gate prefix with its
    generic job (flows/gates_prefix.py), so it waits behind the other ready work, the core's
    generic job, and then goes before the core's ASIC job."""
    from cipherbench import executor
    from cipherbench.spec import parse
    from cipherbench.study import Job, RunSummary
    from cipherbench.targets import Target

    small, big = (str(parse(d)) for d in DESIGNS)
    pool = RecordingPool({small: 100_000, big: 1_000_000})
    monkeypatch.setattr(executor, "_open_pool", lambda runner: pool)
    targets = [Target("generic", "generic"), Target("asic", "asic")]
    jobs = [Job(parse(d), t) for d in DESIGNS for t in targets]
    executor.run_jobs(jobs, make_runner("local", "x.sqlite", jobs=2), force=False,
                      summary=RunSummary(), bar=Bar())
    assert pool.order[2:] == [f"{big} generic", f"{small} generic", f"{big} asic", f"{small} asic"]


def test_a_designs_size_is_its_verilog(tmp_path: Path) -> None:
    from cipherbench.executor import design_size

    (tmp_path / "core.v").write_text("module core; endmodule\n")
    (tmp_path / "manifest.json").write_text("{}")
    assert design_size(tmp_path) == len("module core; endmodule\n")

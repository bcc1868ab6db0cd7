"""A study run: planned (which checks every input), then its jobs run in order in this process
or on an executor (executor.py: a local process pool or Dask), the speed grades after the ends."""

from __future__ import annotations

import time
from typing import Any, Callable

from ..jobs import Job, RunSummary, run_job
from .definition import Study
from .planning import plan_jobs, plan_speed_grades


def run_study(study: Study, open_store: Callable[[], Any], *, force: bool = False,
              say: Callable[[str], None] | None = None, runner: Any = None) -> RunSummary:
    """Plan (which checks every input), then open the store and run the jobs: in order in this
    process, or on ``runner`` (an ``executor.Runner``: a local process pool or Dask)."""
    from tqdm import tqdm

    started = time.monotonic()
    summary = RunSummary()
    jobs = plan_jobs(study, summary)
    verify_before_run(study, say)
    # Opened here even when workers write: it creates and migrates the database once, before
    # any worker connects.
    store = open_store()

    def run_batch(batch: list[Job], bar: Any) -> None:
        if runner is not None and runner.parallel(len(batch)):
            from ..executor import run_jobs

            run_jobs(batch, runner, force=force, summary=summary, bar=bar)
        else:
            for job in batch:
                bar.set_postfix_str(f"{job.design} on {job.target.name}")
                run_job(job, store, force, summary, say)
                bar.update(1)

    with tqdm(total=len(jobs), desc=f"study {study.name}", unit="job", disable=None) as bar:
        run_batch(jobs, bar)
        grades = plan_speed_grades(jobs, study.asic.speed_grades, store)
        if grades:
            bar.total += len(grades)
            bar.refresh()
            run_batch(grades, bar)
    summary.seconds = time.monotonic() - started
    return summary


def verify_before_run(study: Study, say: Callable[[str], None] | None) -> None:
    """The designs whose kind is verified before the store is opened (a designer's core): one
    that fails stops the run with its first failing case, and nothing of it is stored
    (docs/your-core.md)."""
    from ..cache import ensure_design
    from ..kinds.registry import kind_of
    from ..verify.record import ensure_verified

    for design in study.designs:
        if kind_of(design).verified_before_run:
            ensure_verified(design, ensure_design(design, progress=say), progress=say,
                            verify=kind_of(design).verify)

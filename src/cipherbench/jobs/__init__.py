"""A job: one design on one target with its settings, measured once and stored under a key
that hashes everything deciding its figures (the canonical design spec, the generator's source
digest, the target, its settings, the tools' versions and the Liberty's hash). A key that has an
ok row in the store is not measured again.

``run_job`` is what every executor runs (in this process, a local pool or Dask): design,
verification, the flow, the netlist's check (netlist_check.py), power, then one row in the store.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import CipherbenchError
from ..spec import DesignSpec
from ..targets import Target
from .measure import StageClock, measure
from .provenance import inputs_digest, provenance_of

__all__ = ["EXPECTED_FAILURE_PREFIX", "Job", "JobKey", "RunSummary", "StageClock", "is_expected",
           "job_key", "measure", "reusable", "run_job"]

# An FPGA design too large for the device is a measured outcome (Gaj & Chodowiec Table I), not an
# error of the run.
EXPECTED_FAILURE_PREFIX = "does not fit"


@dataclass(frozen=True)
class Job:
    design: DesignSpec
    target: Target


@dataclass
class RunSummary:
    ran: int = 0
    cached: int = 0
    failed_expected: int = 0
    errors: list[str] = field(default_factory=list)
    skipped_targets: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        parts = [f"{self.ran} ran", f"{self.cached} cached"]
        if self.failed_expected:
            parts.append(f"{self.failed_expected} did not fit")
        if self.errors:
            parts.append(f"{len(self.errors)} failed (first: {self.errors[0]})")
        if self.skipped_targets:
            parts.append("skipped " + "; ".join(self.skipped_targets))
        return f"study: {', '.join(parts)} in {self.seconds:.1f} s"


@dataclass(frozen=True)
class JobKey:
    """What identifies a job's result: its cache key and the pieces it is made of."""

    flow: Any
    settings: dict[str, Any]
    inputs: str
    target_id: str
    key: str


def job_key(job: Job) -> JobKey:
    from ..store import cache_key
    from ..flows import get_flow

    flow = get_flow(job.target.flow)
    settings = dict(job.target.settings)
    inputs = inputs_digest(job)
    target_id = flow.target_id(settings)
    return JobKey(flow, settings, inputs, target_id,
                  cache_key(job.design.canonical(), target_id, settings, inputs))


def reusable(existing: Any, force: bool) -> bool:
    """A stored row that stands for the job: ok, or a design that does not fit a device (a
    deterministic result of the same inputs, cached like a success). Other failures (tool
    crashes, timeouts) are retried."""
    return existing is not None and not force and (existing.ok or is_expected(existing.reason))


def run_job(job: Job, store: Any, force: bool, summary: RunSummary,
             say: Callable[[str], None] | None) -> None:
    from ..store import Result

    ident = job_key(job)
    flow, settings, inputs, target_id, key = (ident.flow, ident.settings, ident.inputs,
                                              ident.target_id, ident.key)
    existing = store.get(key)
    if reusable(existing, force):
        summary.cached += 1
        if not existing.ok:
            summary.failed_expected += 1
        return
    try:
        result = measure(job, flow, settings, key, target_id, inputs, say)
    except CipherbenchError as exc:
        reason = str(exc)
        result = Result(cache_key=key, design=str(job.design), target=target_id, settings=settings,
                        status="failed", reason=reason,
                        provenance=provenance_of(job, {}, inputs, key))
        if is_expected(reason):
            summary.failed_expected += 1
        else:
            summary.errors.append(f"{job.design} on {target_id}: {reason}")
    store.put(result)
    summary.ran += 1


def is_expected(reason: str | None) -> bool:
    return bool(reason) and str(reason).startswith(EXPECTED_FAILURE_PREFIX)

"""A long study's time, from the job times its finished rows recorded (provenance.job_seconds).

Usage: python benchmarks/study_projection.py STUDY.toml --db FILE [--workers 2]

Plans the study's jobs as `cipherbench run` would (the speed grades as their count: n - 2 per
design with ASIC ends), then gives each job its measured time, or, for a job not run yet, the
mean of the measured jobs of the same kind (architecture family x flow x ASIC point). The sum over
--workers is the wall time if the workers stay busy; the measured rows ran with that many
workers, so their times already include the sharing of the machine's cores. Kinds with no
measured job are listed, not guessed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from cipherbench.spec import DesignSpec
from cipherbench.store import Store
from cipherbench.study import RunSummary, job_key, load_study, plan_jobs


def kind_of(design: DesignSpec, flow: str, settings: dict[str, Any]) -> str:
    """The job's kind: its architecture, its key sizes, its flow and ASIC point."""
    text = str(design)
    arch = text.split("/", 1)[1].split(":", 1)[0]
    keys = "128-bit" if "-128/" in text else "3-in-1"
    point = settings.get("goal", "") if "delay_ps" not in settings else "grade"
    return f"{arch} {keys} {flow} {point}".strip()


def _row_of(job: Any, rows: list[Any]) -> Any:
    """The newest ok row of the job's design, target and settings, whatever code measured it
    (the cache key changes with every source edit; the job's time hardly does)."""
    target_id = job_key(job).target_id
    matching = [r for r in rows if r.design == str(job.design) and r.target == target_id
                and all(r.settings.get(k) == v for k, v in job.target.settings.items()
                        if k != "liberty")]
    return max(matching, key=lambda r: r.created or "", default=None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", type=Path)
    parser.add_argument("--db", required=True)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    study = load_study(args.study)
    jobs = plan_jobs(study, RunSummary())
    with Store(args.db) as store:
        rows = [r for r in store.results() if r.ok]
    measured: dict[str, list[float]] = defaultdict(list)
    known: list[tuple[str, float | None, str]] = []
    for job in jobs:
        row = _row_of(job, rows)
        seconds = (row.provenance or {}).get("job_seconds") if row else None
        kind = kind_of(job.design, job.target.flow, job.target.settings)
        known.append((kind, seconds, str(job.design)))
        if seconds is not None:
            measured[kind].append(float(seconds))
    # The speed grades between each design's ASIC ends: n - 2 jobs like the speed end.
    grades = max(study.asic.speed_grades - 2, 0)
    for job in jobs:
        if job.target.flow == "asic" and job.target.settings.get("goal") == "speed":
            for _ in range(grades):
                kind = kind_of(job.design, "asic", {"delay_ps": 1})
                known.append((kind, None, str(job.design)))
                measured.setdefault(kind, [])
    # A grade's job is an ASIC synthesis at a delay target: priced as the speed end's kind.
    for kind in list(measured):
        if kind.endswith(" grade") and not measured[kind]:
            measured[kind] = measured.get(kind[: -len("grade")] + "speed", [])

    total, unpriced = 0.0, defaultdict(int)
    by_kind: dict[str, list[float]] = defaultdict(list)
    ran = 0
    for kind, seconds, _ in known:
        if seconds is not None:
            ran += 1
        elif measured.get(kind):
            seconds = statistics.mean(measured[kind])
        else:
            unpriced[kind] += 1
            continue
        by_kind[kind].append(seconds)
        total += seconds
    print(f"{study.name}: {len(known)} jobs ({ran} with a recorded time), "
          f"{args.workers} workers")
    print("| kind | jobs | s per job (mean) | s in all |")
    print("| --- | ---: | ---: | ---: |")
    for kind in sorted(by_kind):
        values = by_kind[kind]
        print(f"| {kind} | {len(values)} | {statistics.mean(values):,.0f} | {sum(values):,.0f} |")
    print(f"projected wall time: {total / args.workers / 3600:.2f} h "
          f"({total:,.0f} job-seconds over {args.workers} workers)")
    for kind, count in sorted(unpriced.items()):
        print(f"not priced (no measured job of this kind): {kind} x {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which stored rows a report shows, and how it counts them."""

from __future__ import annotations

import json
from typing import Iterable

from ..leakage.record import is_leakage
from ..store import Result
from .tables import does_not_fit


def current_rows(results: Iterable[Result]) -> list[Result]:
    """One row per design, target and settings: the newest (the last given; a store lists its
    rows oldest first). A database keeps the rows of earlier code next to a rerun's, since the
    cache key follows the code; the report shows what the latest run measured."""
    newest: dict[tuple[str, str, str], Result] = {}
    for r in results:
        key = (r.design, r.target, json.dumps(r.settings, sort_keys=True, default=str))
        newest.pop(key, None)  # re-inserted last: the order stays oldest first
        newest[key] = r
    return list(newest.values())


def measured_rows(results: list[Result]) -> list[Result]:
    """The rows that measure a block core's netlist on a target: everything but the leakage
    assessments, which have no area or speed and get their own section, and the message-level
    engines, which have their own figures and section (both stay in the summary's count, the
    failed runs, the provenance and results.csv)."""
    return [r for r in results if not is_leakage(r) and not is_engine(r)]


def engine_rows(results: list[Result]) -> list[Result]:
    """The rows of message-level engines (the message family: families/message.py)."""
    return [r for r in results if is_engine(r)]


def is_engine(result: Result) -> bool:
    from ..kinds.engine import ENGINE

    return (result.metrics or {}).get("family") == "message" or ENGINE.names(result.design)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def run_counts(results: list[Result]) -> str:
    """"6 runs: 4 ok, 2 do not fit their device, 0 failed": a design larger than its device is
    an answer (study.py caches it like a success), counted apart from the runs that failed."""
    fit = sum(does_not_fit(r) for r in results)
    ok = sum(r.ok for r in results)
    fits = f"{_count(fit, 'does not fit its device', 'do not fit their device')}, " if fit else ""
    return f"{_count(len(results), 'run', 'runs')}: {ok} ok, {fits}{len(results) - ok - fit} failed"

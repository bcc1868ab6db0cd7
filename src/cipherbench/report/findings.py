"""The one way a seed's claims are checked against our rows.

A section supplies its claims judged (:class:`Finding`: the claim in the seed's words, our
verdict, and the cells that say where the seed says it, what the verdict is about and the
figures behind it); :func:`findings_table` sets them out in the section's columns. The NSA's
rankings (nsa/findings.py), Papaefstathiou et al.'s asynchronous DES
(papaefstathiou/async_findings.py) and the lightweight issue's targets (lightweight/section.py)
are judged this way; :func:`tally` counts what held (seeds.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .tables import Table

NOT_MEASURED = "not measured"


@dataclass(frozen=True)
class Finding:
    """A seed's claim judged from our rows: ``verdict`` in the section's words (yes / partly /
    no / not measured; holds / does not hold / cannot be checked), and every other column of
    the section's findings table by its header (where the seed says it, the cores or library
    judged, our figures, the seed's, why ours depart)."""

    claim: str
    verdict: str
    cells: Mapping[str, str] = field(default_factory=dict)


def findings_table(title: str, headers: Sequence[str], findings: Iterable[Finding],
                   notes: Sequence[str] = (), claim: str | None = None,
                   verdict: str | None = None) -> Table:
    """One row per finding in the columns ``headers``: the claim under ``claim`` (the first
    header unless named), the verdict under ``verdict``, every other cell by its header."""
    claim = claim or headers[0]
    verdict = verdict or _verdict_header(headers)
    rows = []
    for found in findings:
        cells = {**found.cells, claim: found.claim, verdict: found.verdict}
        rows.append([cells[h] for h in headers])
    return Table(title, list(headers), rows, notes=list(notes))


def _verdict_header(headers: Sequence[str]) -> str:
    for name in ("Ours", "holds"):
        if name in headers:
            return name
    raise ValueError(f"name the verdict's column among {list(headers)}")


def threshold_verdict(ours: float | None, target: float, higher_is_better: bool) -> str:
    """yes when our figure is at or beyond the target (at or below it, for a figure where less
    is better), no when not, not measured without a figure."""
    if ours is None:
        return NOT_MEASURED
    return "yes" if (ours >= target if higher_is_better else ours <= target) else "no"


def tally(verdicts: Iterable[str], held: str = "yes") -> tuple[int, int, int]:
    """(held, judged, not measured) among ``verdicts``."""
    said = list(verdicts)
    judged = sum(1 for v in said if v != NOT_MEASURED)
    return sum(1 for v in said if v == held), judged, len(said) - judged

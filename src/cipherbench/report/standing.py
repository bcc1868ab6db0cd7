"""Where a designer's core stands among the generated cores of its cipher: on each target, each
headline figure (area, clock, throughput, efficiency, each the best of the design's runs there,
as the headline table takes them), its rank among the generated designs and the generated design
nearest to it. ``cipherbench measure`` prints it; the report's section on designers' cores shows
it too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..kinds.registry import ranks
from ..store import Result
from .headline import Unit, best_of_runs, best_per_key, target_label, unit_of, whole
from .names import design_cipher
from .tables import Table, table_group

TITLE = "Designers' own cores"
HEADERS = ["Core", "Target", "Figure", "Core's value", "Rank among generated", "Nearest generated"]


@dataclass(frozen=True)
class Figure:
    label: str
    higher_is_better: bool
    unit: str


def _figures(kind: str, unit: Unit) -> list[tuple[Figure, str, bool]]:
    """(figure, metric name, per key size) of one kind of target."""
    found = [(Figure("area", False, unit.area_label), unit.area, False)]
    if kind == "generic":
        found += [(Figure("logic depth", False, "gate levels"), "logic_depth", False),
                  (Figure("throughput", True, "bits/cycle"), "bits_per_cycle", True)]
        return found
    found += [(Figure("clock", True, "MHz"), "fmax_mhz", False),
              (Figure("throughput", True, "Mbps"), "throughput_mbps", True)]
    if unit.efficiency:
        found.append((Figure("efficiency", True, unit.efficiency_label), unit.efficiency, True))
    return found


def _best(runs: Sequence[Result], name: str, per_key: bool, higher: bool) -> float | None:
    best = (best_per_key if per_key else best_of_runs)(runs, name, higher)
    return None if best is None else best[0]


def standing_rows(results: Sequence[Result], core: str) -> list[list[str]]:
    """The standing of design ``core`` (an external design's stored name), one row per target
    and figure."""
    cipher = design_cipher(core)
    ok = [r for r in results if r.ok]
    by_group: dict[tuple[str, str], dict[str, list[Result]]] = {}
    for r in ok:
        if r.design == core or (ranks(r.design, reference=True)
                                and design_cipher(r.design) == cipher):
            by_group.setdefault(table_group(r), {}).setdefault(r.design, []).append(r)
    rows: list[list[str]] = []
    for (kind, name), designs in sorted(by_group.items()):
        unit = unit_of(kind, name)
        if core not in designs or unit is None:
            continue
        for fig, metric, per_key in _figures(kind, unit):
            rows.append(_row(core, kind, name, designs, fig, metric, per_key))
    return [row for row in rows if row]


def _row(core: str, kind: str, name: str, designs: dict[str, list[Result]], fig: Figure,
         metric: str, per_key: bool) -> list[str]:
    mine = _best(designs[core], metric, per_key, fig.higher_is_better)
    if mine is None:
        return []
    others = {d: v for d, runs in designs.items() if d != core
              and (v := _best(runs, metric, per_key, fig.higher_is_better)) is not None}
    better = sum(1 for v in others.values() if (v > mine if fig.higher_is_better else v < mine))
    rank = f"{better + 1} of {len(others) + 1}" if others else "no generated core measured"
    nearest = "-"
    if others:
        design, value = min(others.items(), key=lambda item: abs(item[1] - mine))
        nearest = f"{design}: {whole(value)} {fig.unit} ({mine / value:.2f}x)"
    return [core, target_label(kind, name), fig.label, f"{whole(mine)} {fig.unit}", rank,
            nearest]


def standing_table(results: Sequence[Result]) -> Table | None:
    """Every external core's standing; None without external cores."""
    cores = sorted({r.design for r in results if r.ok and ranks(r.design, reference=False)})
    if not cores:
        return None
    rows = [row for core in cores for row in standing_rows(results, core)]
    return Table(title="", headers=list(HEADERS), rows=rows, key="standing", notes=[
        "A designer's core (docs/your-core.md), verified as the generated ones were, measured on "
        "the same flows; each figure is the best of its runs on the target, as in the headline. "
        "Rank: among the generated cores of the same cipher in these results (1 = best). "
        "Nearest: the generated design whose figure is closest, with the core's value over it."])

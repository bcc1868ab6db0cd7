"""Per seed paper with ASIC tables (the NSA, Sugawara et al., Papaefstathiou et al.): how far
our figures land from the published ones at the seed's node, every ratio ours/published of its
comparison tables pooled per figure, and the NSA's findings as judged
(``benchmarks/seed_nodes.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..flows.libraries import node_text
from ..store import Result
from .findings import tally
from .nsa import findings as nsa_findings
from .nsa.comparison import nsa_comparisons
from .papaefstathiou import asynchronous as papaefstathiou_async
from .papaefstathiou import section as papaefstathiou
from .same_node import (
    NSA_NODE_UM, PAPA_NODE_UM, SUGAWARA_NODE_UM, Comparison, Spread, at_node, library_name,
    library_text, ratio_text, spread,
)
from .sugawara import section as sugawara


# --- per seed: how far our figures land from the published ones at the seed's node -----------


@dataclass
class SeedSummary:
    """One seed's comparisons at its node, pooled: per figure, every ratio ours/published of its
    comparison tables; the libraries they come from; the findings judged (NSA only)."""

    seed: str
    title: str
    node_um: float
    libraries: list[str]
    ratios: dict[str, list[float]]
    findings_library: str | None = None
    findings: list[tuple[str, str, str]] = field(default_factory=list)  # statement, cores, said

    def spreads(self) -> dict[str, Spread | None]:
        return {name: spread(values) for name, values in self.ratios.items()}


def _pool(comparisons: Sequence[Comparison]) -> dict[str, list[float]]:
    pooled: dict[str, list[float]] = {}
    for comparison in comparisons:
        for name, values in comparison.ratios.items():
            pooled.setdefault(name, []).extend(values)
    return pooled


def _libraries_at(results: Sequence[Result], node: float, kinds: tuple[str, ...]) -> list[str]:
    return sorted({str(library_name(r)) for r in results
                   if r.ok and r.target_kind in kinds and at_node(r, node)})


def seed_summary(results: Sequence[Result]) -> list[SeedSummary]:
    """Per seed with an ASIC table (NSA, Sugawara et al., Papaefstathiou et al.): every ratio
    ours/published at the seed's node, per figure, and for the NSA its findings as judged."""
    nsa = SeedSummary("000", "NSA (Weeks et al.), Tables 1-10", NSA_NODE_UM,
                      _libraries_at(results, NSA_NODE_UM, ("asic",)),
                      _pool(nsa_comparisons(results)))
    judged, _ = nsa_findings.judged_libraries(results)
    if judged:
        nsa.findings_library = judged[0]
        nsa.findings = [(statement, cores, said) for (statement, cores), said
                        in nsa_findings.verdicts(results, judged[0]).items()]
    found = [nsa]
    for seed, title, node, kind, comparison in (
            ("003", "Sugawara et al., Table 1", SUGAWARA_NODE_UM, "asic",
             sugawara.node_table(results)),
            ("002", "Papaefstathiou et al., Tables 8, 11, 13 (synthesis)", PAPA_NODE_UM, "asic",
             papaefstathiou.node_table(results)),
            # Kept apart from the synthesis tables: the seed's Table 10 is placed and routed.
            ("002", "Papaefstathiou et al., Table 10 (asynchronous, published placed and "
             "routed)", PAPA_NODE_UM, papaefstathiou_async.KIND,
             papaefstathiou_async.node_table(results))):
        found.append(SeedSummary(seed, title, node, _libraries_at(results, node, (kind,)),
                                 _pool([comparison] if comparison else [])))
    return found


def seed_summary_markdown(results: Sequence[Result]) -> str:
    """:func:`seed_summary` as Markdown: one table of median ratios per seed and figure, then the
    NSA's findings as judged."""
    lines = ["| Seed | Node | Our library there | Figure | Median ours/published | Spread "
             "(min-max) | n |", "|---|---|---|---|---:|---|---:|"]
    summaries = seed_summary(results)
    for s in summaries:
        spreads = {k: v for k, v in s.spreads().items() if v is not None}
        libraries = ", ".join(s.libraries) or "none"
        if not spreads:
            lines.append(f"| {s.title} | {node_text(s.node_um)} | {libraries} | - | - | - | 0 |")
        for name, found in spreads.items():
            lines.append(f"| {s.title} | {node_text(s.node_um)} | {libraries} | {name} | "
                         f"{ratio_text(found.median)} | {ratio_text(found.low)}-"
                         f"{ratio_text(found.high)} | {found.n} |")
    lines += ["", "Transistor counts (NSA) come from the generic target and compare at any "
              "node; every other figure only from rows at the seed's node."]
    for s in summaries:
        if s.findings_library is None:
            continue
        held, judged, unmeasured = tally(said for *_, said in s.findings)
        if not judged:  # no finalist rows on that library: nothing was judged
            continue
        lines += ["", f"{s.title.split(',')[0]} findings, judged on "
                  f"{library_text(s.findings_library)}: {held} of {judged} judged hold "
                  f"({unmeasured} not measured).", ""]
        lines += [f"- {statement} ({cores}): {said}" for statement, cores, said in s.findings]
    return "\n".join(lines) + "\n"

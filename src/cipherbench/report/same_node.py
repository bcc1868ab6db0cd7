"""Our figures beside a seed's at the seed's own process node: side by side, with the ratio
ours/published, and per figure the median ratio and its spread.

A result's node is its Liberty library's (``settings["liberty_name"]``, else the library part of
an ``asic:LIB:...`` target id; ``flows.libraries.node_um``). The NSA's tables are 0.5 um
(MOSIS CMOS), Sugawara et al.'s Table 1 and Papaefstathiou et al.'s Tables 8-14 0.18 um: a
figure measured on osu050 (``osu05_stdcells``) or osu018 (``osu018_stdcells``) stands beside the
published one without scaling. Rows on another node (NanGate45) keep their own tables, labelled
with their node, and get no ratio. Transistor counts (the generic target) do not depend on a
library and compare at any node.

Each comparison table ends with one row: per figure, the median of the ratios above it and
their spread as min-max, with how many ratios there are. :func:`nsa_comparisons` regenerates
the NSA's Tables 1-10 this way; ``sugawara.section.node_table`` and
``papaefstathiou.section.node_table`` the other two seeds' (and
``papaefstathiou.asynchronous.node_table`` Papaefstathiou's Table 10, the asynchronous DES);
:func:`seed_summary` pools every ratio per seed (``benchmarks/seed_nodes.py``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..flows.libraries import KITS, node_text, node_um
from ..store import Result
from .nsa import published as nsa_published
from .nsa.published import PublishedColumn
from .tables import (
    MISSING, Table, _key_order, _ks_decrypt, _ks_encrypt, figure, fmt, key_figure, key_sizes,
    nsa_slot, nsa_slots, nsa_table, ordered, settings_text,
)

NSA_NODE_UM = 0.5
SUGAWARA_NODE_UM = 0.18
PAPA_NODE_UM = 0.18
# seed id -> the node of the published figures our ASIC rows are set beside
SEED_NODES_UM = {"000": NSA_NODE_UM, "002": PAPA_NODE_UM, "003": SUGAWARA_NODE_UM}

MEDIAN_LABEL = "Median ratio (min-max, n)"
MEDIAN_NOTE = (
    "Last row: per figure, the median of the ratios ours/published above it and their spread as "
    "min-max (the smallest and largest ratio), n = how many ratios; a ratio needs both figures "
    "and a published figure other than 0"
)
# Settings that place a result on a library's synthesis sweep rather than make it another core.
_POINT_SETTINGS = ("goal", "delay_ps", "grade_position", "module_delays_ps")


# --- nodes -----------------------------------------------------------------------------------


def library_name(result: Result) -> str | None:
    """The Liberty library a result was measured on (its ``library (...)`` name), or the kit of a
    layout target; None for targets without a cell library (generic, FPGA)."""
    name = result.settings.get("liberty_name")
    if name:
        return str(name)
    parts = result.target.split(":")
    if result.target_kind in ("asic", "layout") and len(parts) >= 2:
        return parts[1]
    return None


def library_node(library: str | None) -> float | None:
    """The process node of a Liberty name or a built-in kit's name (um), else None."""
    node = node_um(library)
    if node is None and library in KITS:
        node = KITS[library].node_um
    return node


def result_node(result: Result) -> float | None:
    return library_node(library_name(result))


def same_node(node: float | None, seed_node: float) -> bool:
    return node is not None and math.isclose(node, seed_node)


def at_node(result: Result, seed_node: float) -> bool:
    """Whether a result was measured at the seed's node."""
    return same_node(result_node(result), seed_node)


def library_text(library: str | None) -> str:
    """``osu05_stdcells (0.5 um)``; a library of unknown node by its name alone."""
    if not library:
        return MISSING
    node = library_node(library)
    return f"{library} ({node_text(node)})" if node is not None else library


# --- ratios ----------------------------------------------------------------------------------


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def ratio(ours: Any, theirs: Any) -> float | None:
    """ours / published; None unless both are numbers and the published one is not 0."""
    a, b = _number(ours), _number(theirs)
    if a is None or b is None or b == 0:
        return None
    return a / b


def ratio_text(value: float | None) -> str:
    """A ratio to three significant digits (0.934, 1.02, 12.4; 1,234 above 1000)."""
    if value is None:
        return MISSING
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


@dataclass(frozen=True)
class Spread:
    """The median of some ratios and their spread (min-max)."""

    median: float
    low: float
    high: float
    n: int

    def text(self) -> str:
        return (f"{ratio_text(self.median)} ({ratio_text(self.low)}-{ratio_text(self.high)}, "
                f"n={self.n})")


def spread(values: Sequence[float]) -> Spread | None:
    numbers = [v for v in values if v is not None and math.isfinite(v)]
    if not numbers:
        return None
    return Spread(statistics.median(numbers), min(numbers), max(numbers), len(numbers))


# --- one comparison table --------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """One figure of one row: ours and the published one; ``shown`` prints the published cell
    differently from its number (the NSA's "0/29.28*" key setup and agility)."""

    ours: Any
    theirs: Any
    shown: str | None = None


@dataclass
class Comparison:
    """A side-by-side table and the ratios behind its last row (figure -> ratios, in row
    order)."""

    table: Table
    ratios: dict[str, list[float]] = field(default_factory=dict)

    def spreads(self) -> dict[str, Spread | None]:
        return {name: spread(values) for name, values in self.ratios.items()}


def side_by_side(title: str, lead: Sequence[str], figures: Sequence[str],
                 rows: Sequence[tuple[Sequence[str], dict[str, Pair]]], source: str,
                 notes: Sequence[str] = ()) -> Comparison:
    """Rows of ``lead`` cells, then per figure three columns: ours, ``source``'s and the ratio
    ours/``source``; a last row with each ratio column's median and spread. Figures that no row
    has a value of ours for are left out."""
    shown = [f for f in figures if any(_number(pairs[f].ours) is not None
                                       for _, pairs in rows if f in pairs)]
    headers = [*lead]
    for name in shown:
        headers += [f"{name}: ours", f"{name}: {source}", f"{name}: ours/{source}"]
    ratios: dict[str, list[float]] = {name: [] for name in shown}
    cells_rows = []
    for lead_cells, pairs in rows:
        cells = list(lead_cells)
        for name in shown:
            pair = pairs.get(name, Pair(None, None))
            q = ratio(pair.ours, pair.theirs)
            if q is not None:
                ratios[name].append(q)
            cells += [fmt(pair.ours), pair.shown if pair.shown is not None else fmt(pair.theirs),
                      ratio_text(q)]
        cells_rows.append(cells)
    last = [MEDIAN_LABEL, *[""] * (len(lead) - 1)]
    for name in shown:
        found = spread(ratios[name])
        last += ["", "", found.text() if found else MISSING]
    table = Table(title=title, headers=headers, rows=[*cells_rows, last])
    table.groups = [("", len(lead)), *((name, 3) for name in shown)]
    table.notes = [*notes, MEDIAN_NOTE + "."]
    return Comparison(table, ratios)


# --- the NSA's Tables 1-10 at 0.5 um ---------------------------------------------------------


def _bound_of(values: list[float], bound: str) -> float | None:
    if not values:
        return None
    return min(values) if bound == "min" else max(values)


_NSA_FIGURES: tuple[tuple[str, str, Callable[[PublishedColumn, int], Any] | None], ...] = (
    # (label, our per-key metric, published getter); per-key figures come after area/transistors
    ("Throughput (Mbps)", "throughput_mbps", lambda c, k: c.throughput_mbps.get(k)),
    ("Key setup encrypt (ns)", "key_setup_encrypt_ns", lambda c, k: c.key_setup_encrypt_ns.get(k)),
    ("Key setup decrypt (ns)", "key_setup_decrypt_ns", lambda c, k: c.key_setup_decrypt_ns.get(k)),
    ("Time to encrypt one block (ns)", "time_to_encrypt_ns",
     lambda c, k: c.time_to_encrypt_ns.get(k)),
    ("Time to decrypt one block (ns)", "time_to_decrypt_ns",
     lambda c, k: c.time_to_decrypt_ns.get(k)),
)
_NSA_SHOWN = {"key_setup_encrypt_ns": _ks_encrypt, "key_setup_decrypt_ns": _ks_decrypt}
NSA_FIGURES = ("Area (um2)", "Transistors", *(label for label, _, _ in _NSA_FIGURES))


def _variant(result: Result) -> str:
    return settings_text({k: v for k, v in result.settings.items() if k not in _POINT_SETTINGS})


def _nsa_groups(cipher: str, cores: str, results: Sequence[Result]
                ) -> dict[tuple[str, str, str, str], list[Result]]:
    """(architecture, design, library or "generic", variant) -> our results in that NSA table:
    ASIC rows at 0.5 um, and the generic target's (transistors, node-free)."""
    groups: dict[tuple[str, str, str, str], list[Result]] = {}
    for r in ordered(results):
        slot = nsa_slot(r) if r.ok else None
        if slot is None or slot[:2] != (cipher, cores):
            continue
        if r.target_kind == "generic":
            library = "generic"
        elif r.target_kind == "asic" and at_node(r, NSA_NODE_UM):
            library = str(library_name(r))
        else:
            continue
        groups.setdefault((slot[2], r.design, library, _variant(r)), []).append(r)
    return dict(sorted(groups.items(), key=lambda kv: (kv[0][0] != "iterative", kv[0][1],
                                                       kv[0][2] == "generic", kv[0][2],
                                                       kv[0][3])))


def _nsa_rows(found: list[Result], generic: bool, column: PublishedColumn
              ) -> list[tuple[str, dict[str, Pair]]]:
    """(key size, figures) rows of our extremes (``column.bound``) beside one NSA column: the
    generic target's transistor count once; ASIC rows per key size, area on the first."""
    def bound(get: Callable[[Result], Any]) -> float | None:
        return _bound_of(_values(found, get), column.bound)

    if generic:
        return [(MISSING, {"Transistors": Pair(bound(lambda r: figure(r, "transistors")),
                                               column.transistors)})]
    keys = sorted({k for r in found for k in key_sizes(r) if k.isdigit()}, key=_key_order)
    out = []
    for index, key in enumerate(keys):
        pairs: dict[str, Pair] = {}
        if index == 0:
            pairs["Area (um2)"] = Pair(bound(lambda r: figure(r, "area_um2")), column.area_um2)
        for label, metric, theirs in _NSA_FIGURES:
            shown = _NSA_SHOWN.get(metric)
            pairs[label] = Pair(bound(lambda r, m=metric: key_figure(r, key, m)),
                                theirs(column, int(key)) if theirs else None,
                                fmt(shown(column, int(key))) if shown else None)
        out.append((key, pairs))
    return out


def _values(found: list[Result], get: Callable[[Result], Any]) -> list[float]:
    return [v for v in (_number(get(r)) for r in found) if v is not None]


def nsa_comparison(cipher: str, cores: str, results: Sequence[Result]) -> Comparison | None:
    """One NSA table (Tables 1-6, 8-10) at the NSA's node: per design in it, the extremes (Min.,
    Max.) of each figure over our ASIC points at 0.5 um beside the NSA's Min./Max. columns, and
    the generic target's transistor counts beside the NSA's; None without such rows."""
    groups = _nsa_groups(cipher, cores, results)
    if not groups:
        return None
    theirs = nsa_published.nsa_columns(cipher, None, three_in_one=cores == "3-in-1")
    notes = []
    if not theirs:
        theirs = nsa_published.nsa_columns(cipher, None, three_in_one=True)
        notes.append(nsa_published.SERPENT_128_NOTE + ".")
    columns = {(c.architecture, c.bound): c for c in theirs}
    variants: dict[tuple[str, str], int] = {}
    for (_, design, library, _) in groups:
        variants[(design, library)] = variants.get((design, library), 0) + 1
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for (arch, design, library, variant), found in groups.items():
        generic = library == "generic"
        where = "generic (transistors, any node)" if generic else library_text(library)
        label = f"{design} ({variant})" if variant and variants[(design, library)] > 1 else design
        for bound in ("min", "max"):
            column = columns.get((arch, bound))
            if column is None:
                continue
            for key, pairs in _nsa_rows(found, generic, column):
                rows.append(([label, where, "Min." if bound == "min" else "Max.", key], pairs))
    asic = any(library != "generic" for (_, _, library, _) in groups)
    name = theirs[0].table if theirs else "(no NSA table)"
    title = (f"NSA {name} at the NSA's node ({node_text(NSA_NODE_UM)}): {cipher} {cores}, ours "
             f"beside the NSA's Min./Max." if asic else
             f"NSA {name}, transistor counts: {cipher} {cores}, ours beside the NSA's Min./Max. "
             f"(no ASIC rows at {node_text(NSA_NODE_UM)})")
    notes.append(
        "Ours Min./Max.: each figure's smallest and largest value over our ASIC points of the "
        "design on one library at 0.5 um (area end, speed grades, speed end), as the NSA's are "
        "the extremes of its synthesis sweep; "
        f"{nsa_published.SOURCE}.")
    if any(library == "generic" for (_, _, library, _) in groups):
        notes.append("Transistors: the generic target's count of the same design (no cell "
                     "library: it compares at any node).")
    if not asic:
        notes.append(f"No ASIC result of these cores at {node_text(NSA_NODE_UM)}: only the "
                     "transistor counts compare here; the table above gives the other "
                     "libraries' figures, each labelled with its node.")
    used = {arch for (arch, _, library, _) in groups if library != "generic"}
    if any((c.key_agility_encrypt_ns or c.key_agility_decrypt_ns) and c.architecture in used
           for c in theirs):
        notes.append("* " + nsa_published.KEY_AGILITY_NOTE + "; the ratio is to the key setup.")
    return side_by_side(title, ["Design", "Library (node)", "Bound", "Key size"], NSA_FIGURES,
                        rows, "NSA", notes)


def nsa_comparisons(results: Sequence[Result]) -> list[Comparison]:
    """Every NSA table we have rows for at 0.5 um (or transistor counts), in the NSA's order."""
    comparisons = (nsa_comparison(cipher, cores, results) for cipher, cores in nsa_slots())
    return [comparison for comparison in comparisons if comparison is not None]


def nsa_section_tables(results: Sequence[Result]) -> list[Table]:
    """The report's NSA section: each regenerated NSA table (``tables.nsa_table``), followed by
    its comparison at the NSA's node when we have rows for one."""
    found = []
    for cipher in nsa_published.NSA_CIPHERS:
        for cores in ("3-in-1", "128-bit"):
            table = nsa_table(cipher, cores, results)
            if table is None:
                continue
            found.append(table)
            comparison = nsa_comparison(cipher, cores, results)
            if comparison is not None:
                found.append(comparison.table)
    return found


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
    # they import this module
    from .nsa import findings as nsa_findings
    from .papaefstathiou import asynchronous as papaefstathiou_async
    from .papaefstathiou import section as papaefstathiou
    from .sugawara import section as sugawara

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
        held = sum(1 for *_, said in s.findings if said == "yes")
        judged = sum(1 for *_, said in s.findings if said != "not measured")
        if not judged:  # no finalist rows on that library: nothing was judged
            continue
        lines += ["", f"{s.title.split(',')[0]} findings, judged on "
                  f"{library_text(s.findings_library)}: {held} of {judged} judged hold "
                  f"({len(s.findings) - judged} not measured).", ""]
        lines += [f"- {statement} ({cores}): {said}" for statement, cores, said in s.findings]
    return "\n".join(lines) + "\n"

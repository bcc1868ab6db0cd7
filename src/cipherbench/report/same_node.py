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
their spread as min-max, with how many ratios there are. :func:`side_by_side` builds one.
``nsa.comparison.nsa_comparisons`` regenerates the NSA's Tables 1-10 this way;
``sugawara.section.node_table`` and ``papaefstathiou.section.node_table`` the other two seeds'
(and ``papaefstathiou.asynchronous.node_table`` Papaefstathiou's Table 10, the asynchronous DES);
``seeds.seed_summary`` pools every ratio per seed (``benchmarks/seed_nodes.py``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..flows.libraries import KITS, node_text, node_um
from ..store import Result
from .tables import MISSING, Table, fmt

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


def node_suffix(result: Result) -> str:
    """" (0.5 um)" after an ASIC result's target when its library's node is known: a seed's
    columns are of one node, and only a result of that node compares with them figure for
    figure."""
    if result.target_kind not in ("asic", "layout"):
        return ""
    node = library_node(library_name(result))
    return f" ({node_text(node)})" if node is not None else ""


def library_text(library: str | None) -> str:
    """``osu05_stdcells (0.5 um)``; a library of unknown node by its name alone."""
    if not library:
        return MISSING
    node = library_node(library)
    return f"{library} ({node_text(node)})" if node is not None else library


# --- ratios ----------------------------------------------------------------------------------


def as_number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def ratio(ours: Any, theirs: Any) -> float | None:
    """ours / published; None unless both are numbers and the published one is not 0."""
    a, b = as_number(ours), as_number(theirs)
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
    shown = [f for f in figures if any(as_number(pairs[f].ours) is not None
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

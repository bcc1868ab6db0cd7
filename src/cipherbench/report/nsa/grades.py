"""NSA Tables 13, 14, 17 and 18 regenerated: throughput per unit area by speed grade.

The NSA (seed 000, section 3.2) synthesized every finalist at five "speed grades" picked from a
sweep of delay constraints: grade 1 the fastest (largest) implementation, grade 5 the slowest
(smallest). Tables 13 (3-in-1, iterative), 14 (3-in-1, pipelined), 17 (128-bit key, iterative)
and 18 (128-bit key, pipelined) give, per finalist, the non-feedback throughput over the area
(bits/s per um^2) at each grade and a "%Change (high-low)".

Our grades: for each design in an NSA slot (:func:`parameters.nsa_slot`: finalist x 3-in-1/128-bit
x iterative/pipelined) and each Liberty library, the ok ASIC results at the area end
(``asic:LIB:area``), the speed end (``asic:LIB:speed``) and the explicit ABC delay targets of a
speed-grade sweep (``asic:LIB:d<N>ps``), ordered by critical path, fastest first; identical points
(same critical path and area) count once. With n >= 2 points they are grades 1..n. A figure is the
non-feedback throughput of that key size (``metrics.by_key_size[key].throughput_mbps``, the
throughput of the NSA tables 1-10 and of ours) x 10^6 / ``area_um2``.

%Change (high-low) is (max - min) / min x 100 over a row's grades. The published rows fix the
formula: RC6, Table 13, 4.58 / 3.39 = +35 %; RIJNDAEL128 15.89 / 8.16 = +95 %; every printed
%Change is reproduced by it, rounded to a whole percent; Table 13's MARS (52 %, whereas the
two-decimal values give 49 %) was computed from unrounded values: Table 17 prints the same MARS
row to three decimals, 0.554 / 0.365 = +52 %. It is the spread of a row, not grade 1 against
grade 5: the best grade need not be an end (RC6, Table 13: grade 2).
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ...store import Result
from .. import same_node
from . import published
from .published import ThroughputPerArea
from ..csv_export import csv_cell
from ..tables import MISSING, Table, fmt, key_figure, key_order, key_sizes, settings_text
from .parameters import nsa_slot

TABLES = ("Table 13", "Table 14", "Table 17", "Table 18")
NSA_GRADES = 5
OURS_GROUP = "cipherbench (bits/s per um2)"
THEIRS_GROUP = f"{published.GROUP_LABEL}, bits/s per um2"
# The ASIC goals that are points of the sweep: the two ends and explicit delay targets.
_GOAL = re.compile(r"^(area|speed|d\d+ps)$")
# Settings that name the point of the sweep rather than the series it belongs to.
_POINT_SETTINGS = ("goal", "delay_ps", "grade_position", "module_delays_ps")

FORMULA_NOTE = (
    "%Change (high-low) = (max - min) / min x 100 over a row's grades, the NSA's formula (it "
    "reproduces every printed %Change: e.g. Table 13 RC6 4.58 / 3.39 = +35%; Table 13 MARS "
    "prints 52% from unrounded values, Table 17's 0.554 / 0.365); Best = the grade with the "
    "highest throughput per area"
)
OURS_NOTE = (
    "Ours: throughput per area = non-feedback throughput (the throughput of NSA Tables 1-10) / "
    "total area, in bits/s per um2; grade 1 = our shortest critical path, grade n the longest; "
    "the points are the ASIC area end, speed end and the speed-grade sweep's delay targets "
    "(asic:LIB:d<N>ps), identical points once; per-point figures in nsa_speed_grades.csv"
)
COMPARE_NOTE = (
    "The NSA's 0.5 um MOSIS process (pre-layout, Synopsys 1999.10) makes the absolute values "
    "incomparable with ours on another node; compare the shape of a row (which grade is best, "
    "the spread) and the ranking of the ciphers"
)
SAME_NODE_NOTE = (
    "Rows at 0.5 um (the NSA's node) compare in absolute terms: Best ours/NSA = our best "
    "grade's throughput per area over the NSA's best printed grade; rows at another node get no "
    "ratio"
)
AREA_BASE_NOTE = (
    "The NSA's area base is not always the total area of Tables 1-10: grade 1 matches Max. "
    "throughput / area for iterative MARS (56.7 Mbps / 127.4 mm2 = 0.45) and Table 17 RIJNDAEL "
    "(605.77 / 33.85 = 17.9), but Table 14 SERPENT prints 37.52 where 8030 Mbps / 438.6 mm2 "
    "= 18.3 (its Figure 17 plots the algorithm portion's area)"
)


def percent_change(values: Sequence[float | None]) -> float | None:
    """The NSA's %Change (high-low): (max - min) / min x 100; None with fewer than two figures."""
    numbers = [v for v in values if v is not None and math.isfinite(v)]
    if len(numbers) < 2 or min(numbers) <= 0:
        return None
    return (max(numbers) - min(numbers)) / min(numbers) * 100.0


def best_grade(values: Sequence[float | None]) -> int | None:
    """1-based grade of the highest figure (the faster grade on a tie)."""
    numbers = [(v, -i) for i, v in enumerate(values) if v is not None and math.isfinite(v)]
    return -max(numbers)[1] + 1 if numbers else None


# --- our grades ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GradePoint:
    """One ASIC synthesis of a design at a speed grade (1 = fastest)."""

    grade: int
    result: Result
    critical_path_ns: float
    area_um2: float

    def throughput_mbps(self, key: str) -> float | None:
        value = key_figure(self.result, key, "throughput_mbps")
        return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None

    def bps_per_um2(self, key: str) -> float | None:
        """Throughput per area in bits/s per um^2, as the NSA printed it."""
        mbps = self.throughput_mbps(key)
        return mbps * 1e6 / self.area_um2 if mbps is not None else None


@dataclass(frozen=True)
class GradeSeries:
    """A design's speed grades on one Liberty library."""

    cipher: str
    cores: str  # "3-in-1" | "128-bit"
    architecture: str  # "iterative" | "pipelined"
    design: str
    library: str
    variant: str  # settings other than the point's goal/delay, "" for the defaults
    points: tuple[GradePoint, ...]

    @property
    def keys(self) -> list[str]:
        found = {k for p in self.points for k in key_sizes(p.result) if k.isdigit()}
        return sorted(found, key=key_order)

    def values(self, key: str) -> list[float | None]:
        return [p.bps_per_um2(key) for p in self.points]

    @property
    def label(self) -> str:
        return f"{self.design} ({self.variant})" if self.variant else self.design


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _critical_path(result: Result) -> float | None:
    path = _number(result.measurements.get("critical_path_ns"))
    if path is None:
        path = _number(result.metrics.get("clock_period_ns"))
    if path is None:
        fmax = _number(result.metrics.get("fmax_mhz") or result.measurements.get("fmax_mhz"))
        path = 1000.0 / fmax if fmax else None
    return path


def _sweep_point(result: Result) -> tuple[str, str] | None:
    """(library, variant) of an ok ASIC result at the area end, speed end or a delay target."""
    parts = result.target.split(":")
    # Suffixes after the goal (":bottom-up", ":latch", ...) stay in the variant, from the settings.
    if not result.ok or len(parts) < 3 or parts[0] != "asic" or not _GOAL.match(parts[2]):
        return None
    rest = {k: v for k, v in result.settings.items() if k not in _POINT_SETTINGS}
    return parts[1], settings_text(rest)


def speed_grades(results: Sequence[Result]) -> list[GradeSeries]:
    """Every design x library of an NSA slot with at least two distinct ASIC points, its points
    ordered by critical path (grade 1 fastest; a tie goes to the larger area)."""
    groups: dict[tuple[Any, ...], list[tuple[float, float, Result]]] = {}
    for result in results:
        point = _sweep_point(result)
        slot = nsa_slot(result) if point else None
        if point is None or slot is None:
            continue
        path = _critical_path(result)
        area = _number(result.measurements.get("area_um2") or result.metrics.get("area_um2"))
        if path is None or area is None or area <= 0:
            continue
        groups.setdefault((*slot, result.design, *point), []).append((path, area, result))
    series = []
    for (cipher, cores, arch, design, library, variant), found in sorted(groups.items()):
        distinct: dict[tuple[float, float], Result] = {}
        for path, area, result in sorted(found, key=lambda f: (f[0], -f[1], f[2].target)):
            distinct.setdefault((path, area), result)
        if len(distinct) < 2:
            continue
        points = tuple(GradePoint(i, r, path, area)
                       for i, ((path, area), r) in enumerate(distinct.items(), start=1))
        series.append(GradeSeries(cipher, cores, arch, design, library, variant, points))
    return series


# --- the tables ------------------------------------------------------------------------------


def published_rows(table: str) -> list[ThroughputPerArea]:
    return [row for row in published.NSA_THROUGHPUT_PER_AREA if row.table == table]


def _row_keys(pub: list[ThroughputPerArea], series: GradeSeries
              ) -> list[tuple[ThroughputPerArea | None, list[str]]]:
    """Which of our key sizes go into which published row: the NSA's per-key rows
    (RIJNDAEL128...) one each; a single NSA row takes all our key sizes when their figures are
    the same, else one of our rows per key size beside it."""
    keys = series.keys
    by_key = {row.key_bits: row for row in pub if row.key_bits is not None}
    single = next((row for row in pub if row.key_bits is None), None)
    if by_key:
        return [(by_key.get(int(k), single), [k]) for k in keys]
    if len({tuple(series.values(k)) for k in keys}) <= 1:
        return [(single, keys)] if keys else []
    return [(single, [k]) for k in keys]


def _theirs(row: ThroughputPerArea | None) -> list[str]:
    if row is None:
        return [MISSING] * (NSA_GRADES + 2)
    return [*(f"{v:g}" for v in row.speeds), f"{row.percent_change:g}%",  # as printed
            fmt(best_grade(row.speeds))]


def _ours(values: Sequence[float | None], width: int) -> list[str]:
    change = percent_change(values)
    cells = [fmt(v) for v in values] + [MISSING] * (width - len(values))
    return [*cells, MISSING if change is None else f"{change:.0f}%", fmt(best_grade(values))]


def _ranking(names_values: dict[str, float]) -> str:
    return " > ".join(name for name, _ in sorted(names_values.items(), key=lambda kv: -kv[1]))


def _ranking_notes(pub: list[ThroughputPerArea], series: list[GradeSeries]) -> list[str]:
    """Per library: our ciphers ranked by their best figure, and the NSA's ranking of the same."""
    notes = []
    for library in sorted({s.library for s in series}):
        ours: dict[str, float] = {}
        for s in series:
            figures = [v for k in s.keys for v in s.values(k) if v is not None]
            if s.library == library and figures:
                ours[s.cipher] = max(ours.get(s.cipher, 0.0), *figures)
        theirs: dict[str, float] = {}
        for row in pub:
            if row.cipher in ours:
                theirs[row.cipher] = max(theirs.get(row.cipher, 0.0), *row.speeds)
        if len(ours) >= 2:
            notes.append(f"Ranking by best grade, {same_node.library_text(library)}: ours "
                         f"{_ranking(ours)}; NSA {_ranking(theirs)}")
    return notes


def grade_table(table: str, results: Sequence[Result],
                series: Sequence[GradeSeries] | None = None) -> Table | None:
    """One NSA throughput-per-area table regenerated: per published row, our grades of every
    design x library in that slot beside the NSA's five; published-only rows (ciphers we have
    no grades for) keep "-" for ours. None when we have no grades in the slot at all."""
    pub = published_rows(table)
    if not pub:
        raise KeyError(f"no NSA throughput-per-area table {table!r}")
    cores, arch, section = pub[0].cores, pub[0].architecture, pub[0].section
    found = [s for s in (speed_grades(results) if series is None else series)
             if (s.cores, s.architecture) == (cores, arch)]
    if not found:
        return None
    width = max(NSA_GRADES, *(len(s.points) for s in found))
    rows = []
    ratios: list[float] = []
    for cipher in dict.fromkeys(row.cipher for row in pub):
        mine = [row for row in pub if row.cipher == cipher]
        ours = sorted((s for s in found if s.cipher == cipher),
                      key=lambda s: (s.library, s.design, s.variant))
        shown: set[str] = set()
        for s in ours:
            for row, keys in _row_keys(mine, s):
                name = row.row if row is not None else cipher.upper()
                if row is not None:
                    shown.add(row.row)
                best = _best_ratio(s, keys[0], row)
                if best is not None:
                    ratios.append(best)
                rows.append([name, ", ".join(keys), s.label, same_node.library_text(s.library),
                             *_ours(s.values(keys[0]), width), *_theirs(row),
                             same_node.ratio_text(best)])
        for row in mine:
            if row.row not in shown:
                rows.append([row.row, str(row.key_bits) if row.key_bits else MISSING, MISSING,
                             MISSING, *[MISSING] * (width + 2), *_theirs(row), MISSING])
    title = (f"NSA {table} regenerated: throughput per area by speed grade, {cores}, {arch} "
             f"(bits/s per um2)")
    headers = ["Algorithm (NSA row)", "Key size", "Design", "Library",
               *[f"Speed {i}" for i in range(1, width + 1)], "%Change (high-low)", "Best",
               *[f"NSA Speed {i}" for i in range(1, NSA_GRADES + 1)], "NSA %Change", "NSA best",
               "Best ours/NSA (0.5 um rows)"]
    result = Table(title=title, headers=headers, rows=rows)
    result.groups = [("", 4), (OURS_GROUP, width + 2), (THEIRS_GROUP, NSA_GRADES + 2), ("", 1)]
    spread = same_node.spread(ratios)
    result.notes = [f"NSA {table} (section {section}); {published.SOURCE}.", OURS_NOTE + ".",
                    FORMULA_NOTE + ".", COMPARE_NOTE + ".", SAME_NODE_NOTE + ".",
                    AREA_BASE_NOTE + ".",
                    *(n + "." for n in _ranking_notes(pub, found))]
    if spread is not None:
        result.notes.append(f"Best ours/NSA at 0.5 um: median ratio and spread (min-max, n) "
                            f"{spread.text()}.")
    return result


def _best_ratio(series: GradeSeries, key: str, row: ThroughputPerArea | None) -> float | None:
    """Our best grade over the NSA's best, for a series at the NSA's node (else None)."""
    if row is None or not same_node.same_node(same_node.library_node(series.library),
                                              same_node.NSA_NODE_UM):
        return None
    values = [v for v in series.values(key) if v is not None]
    return same_node.ratio(max(values), max(row.speeds)) if values else None


def grade_tables(results: Sequence[Result]) -> list[Table]:
    """NSA Tables 13, 14, 17 and 18, each when we have speed grades in its slot."""
    series = speed_grades(results)
    found = [grade_table(name, results, series) for name in TABLES]
    return [t for t in found if t is not None]


# --- CSV: one row per grade point x key size -------------------------------------------------

CSV_HEADER = ("nsa_table", "cipher", "cores", "architecture", "design", "library", "variant",
              "grade", "grades", "target", "delay_ps", "critical_path_ns", "area_um2",
              "key_bits", "throughput_mbps", "throughput_per_area_bps_um2", "result_id",
              "cache_key")
_TABLE_OF = {(row.cores, row.architecture): row.table for row in published.NSA_THROUGHPUT_PER_AREA}


def grades_csv(results: Sequence[Result]) -> str | None:
    """The points behind the tables (raw numbers); None when there are no grades."""
    series = speed_grades(results)
    if not series:
        return None
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for s in series:
        for point in s.points:
            for key in s.keys:
                r = point.result
                writer.writerow([csv_cell(v) for v in (
                    _TABLE_OF.get((s.cores, s.architecture), ""), s.cipher, s.cores,
                    s.architecture, s.design, s.library, s.variant, point.grade, len(s.points),
                    r.target, r.settings.get("delay_ps"), point.critical_path_ns,
                    point.area_um2, key, point.throughput_mbps(key), point.bps_per_um2(key),
                    r.id, r.cache_key,
                )])
    return buf.getvalue()


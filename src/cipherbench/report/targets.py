"""One table per target: the generic gates, each Liberty library (its area and speed ends, speed
grades and variants as rows, each design's fastest first), each FPGA device (with the designs
that do not fit it)."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Sequence

from ..store import Result
from .tables import (
    KIND_TITLES, MISSING, Table, table_group, cycle_count, does_not_fit, figure, fit_text, fmt, key_figure,
    key_sizes, kind_rank, ordered, settings_parts, settings_text,
)

Column = tuple[str, Callable[[Result, str], Any]]


def _m(*names: str) -> Callable[[Result, str], Any]:
    return lambda r, _k: figure(r, *names)


def _k(name: str) -> Callable[[Result, str], Any]:
    return lambda r, k: key_figure(r, k, name)


def _c(name: str) -> Callable[[Result, str], Any]:
    return lambda r, k: cycle_count(r, k, name)


_LEAD: list[Column] = [
    ("Design", lambda r, _k: r.design),
    ("Settings", lambda r, _k: settings_text(r.settings) or None),
    ("Key bits", lambda _r, k: k),
]
_CYCLES: list[Column] = [
    ("Latency (cycles)", _c("latency")),
    ("II (cycles)", _c("initiation_interval")),
    ("Chained block (cycles)", _c("cycles_per_chained_block")),
    ("Key setup enc/dec (cycles)", lambda r, k: _pair(cycle_count(r, k, "key_setup_encrypt"),
                                                      cycle_count(r, k, "key_setup_decrypt"))),
]
_SPEED: list[Column] = [
    ("Fmax (MHz)", _m("fmax_mhz")),
    ("Throughput (Mbps)", _k("throughput_mbps")),
    ("Throughput feedback (Mbps)", _k("throughput_feedback_mbps")),
    ("Time to encrypt (ns)", _k("time_to_encrypt_ns")),
]
KIND_COLUMNS: dict[str, list[Column]] = {
    "generic": [("Transistors", _m("transistors")), ("Cells", _m("cells")),
                ("Logic depth", _m("logic_depth")), *_CYCLES,
                ("Bits per cycle", _k("bits_per_cycle"))],
    "asic": [("Area (um2)", _m("area_um2")), ("GE", _m("gate_equivalents")),
             ("Cells", _m("cells")), ("Flip-flops", _m("flipflops", "ffs")),
             ("Critical path (ns)", _m("critical_path_ns")), *_CYCLES, *_SPEED,
             ("Kbps/GE", _k("kbps_per_ge"))],
    "fpga": [("LUTs", _m("luts")), ("FFs", _m("ffs", "flipflops")), ("BRAMs", _m("brams")),
             ("DSPs", _m("dsps")), *_CYCLES, *_SPEED, ("Mbps/LUT", _k("mbps_per_lut"))],
}
_OTHER_COLUMNS: list[Column] = [*_CYCLES, *_SPEED]


def _pair(a: Any, b: Any) -> str | None:
    return None if a is None and b is None else f"{fmt(a)} / {fmt(b)}"


def group_title(kind: str, name: str) -> str:
    if kind == "generic":
        return KIND_TITLES["generic"]
    if kind == "asic":
        return f"ASIC: {name} (every synthesis end, speed grade and variant, fastest first)"
    if kind == "layout":
        return f"ASIC layout: {name}"
    return f"{KIND_TITLES.get(kind, kind)}: {name}"


def critical_path_ns(result: Result) -> float | None:
    """The row's critical path: STA's, else the period of its clock (1000 / Fmax)."""
    path = figure(result, "critical_path_ns")
    if isinstance(path, (int, float)) and not isinstance(path, bool) and path > 0:
        return float(path)
    fmax = figure(result, "fmax_mhz")
    if isinstance(fmax, (int, float)) and not isinstance(fmax, bool) and fmax > 0:
        return 1000.0 / fmax
    return None


def fastest_first(results: Iterable[Result]) -> list[Result]:
    """Per design, its rows by critical path, fastest first (rows without one last): a
    library's speed grades read as the NSA's grade 1 to 5."""
    def key(r: Result) -> tuple[Any, ...]:
        path = critical_path_ns(r)
        return (r.design, path is None, path or 0.0, r.target,
                json.dumps(r.settings, sort_keys=True, default=str))
    return sorted(results, key=key)


def _fit_row(result: Result, columns: list[Column]) -> list[str]:
    """A does-not-fit run in its device's table: the reason, with both numbers, where the area
    would be (the first figure after the lead columns)."""
    row = [fmt(get(result, "")) for _, get in columns[:len(_LEAD)]]
    row[-1] = MISSING  # no key size
    rest = [MISSING] * (len(columns) - len(_LEAD))
    if rest:
        rest[0] = fit_text(result)
    return row + rest


def target_table(kind: str, name: str, results: Sequence[Result]) -> Table:
    """The ok results of one table group (see :func:`table_group`), a row per design x settings
    x key size, and the runs that do not fit the device."""
    mine = [r for r in results if table_group(r) == (kind, name)]
    ours = fastest_first(r for r in mine if r.ok)
    shown = [*ours, *ordered(r for r in mine if does_not_fit(r))]
    common = _common_phrases(shown)
    columns = [_LEAD[0], ("Settings", _settings_but(common)), *_LEAD[2:],
               *KIND_COLUMNS.get(kind, _OTHER_COLUMNS)]
    rows = [[fmt(get(r, key)) for _, get in columns] for r in ours for key in key_sizes(r) or [""]]
    rows += [_fit_row(r, columns) for r in shown[len(ours):]]
    notes = [f"Every row: {', '.join(common)}."] if common else []
    return Table(title=group_title(kind, name), headers=_headers(kind, name, columns),
                 rows=rows, notes=notes)


# An iCE40 logic cell is one LUT4 and one flip-flop; the FPGA flow counts cells as its "luts".
_ICE40_HEADERS = {"LUTs": "Logic cells", "Mbps/LUT": "Mbps/LC"}


def _headers(kind: str, name: str, columns: list[Column]) -> list[str]:
    ice40 = kind == "fpga" and ":ice40:" in f"{name}:"
    return [_ICE40_HEADERS.get(label, label) if ice40 else label for label, _ in columns]


def _common_phrases(results: Sequence[Result]) -> list[str]:
    """The settings phrases every row of a table shares: said once, under the table."""
    if not results:
        return []
    first = settings_parts(results[0].settings)
    return [p for p in first if all(p in settings_parts(r.settings) for r in results[1:])]


def _settings_but(common: list[str]) -> Callable[[Result, str], Any]:
    """A row's settings in words without the phrases the whole table shares."""
    def text(r: Result, _key: str) -> str | None:
        return ", ".join(p for p in settings_parts(r.settings) if p not in common) or None
    return text


def target_tables(results: Sequence[Result]) -> list[Table]:
    """One table per group: generic, then each ASIC library, then each FPGA device."""
    groups = sorted({table_group(r) for r in results if r.ok or does_not_fit(r)},
                    key=lambda g: (kind_rank(g[0]), g[1].lower()))
    return [target_table(kind, name, results) for kind, name in groups]

"""The table a report opens with: per design, its verification and its best figures on each
target, each in that target's own unit.

A target here is what a results table of ``targets.target_tables`` holds: the generic gates, one
Liberty library (every synthesis end, speed grade and variant on it), one FPGA device. "Best" is
per figure: the smallest area, the fastest clock, the highest throughput and the highest
throughput per area among the design's runs on that target, each possibly from a different run
(the speed end has the clock, the area end the area). A design that does not fit a device says
so, with what it needs and what the device has: that is the answer, not a failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..store import Result
from . import trust
from .tables import (MISSING, Table, does_not_fit, figure, fit_text, fmt, key_figure, key_sizes,
                     kind_rank, table_group)

TITLE = "Headline: best figures per design and target"
KEY = "headline"  # the HTML table's id
HEADERS = ["Design", "Verification", "Target", "Runs", "Area", "Clock", "Throughput",
           "Efficiency"]
NOTES = [
    "Best = per figure, over the design's runs on that target (an ASIC target is one Liberty "
    "library: its area and speed ends, speed grades and variants; an FPGA target one device): "
    "the smallest area, the fastest clock, the highest throughput and the highest throughput "
    "per area, each possibly from a different run; Runs counts them. Where a design has several "
    "key sizes, throughput and efficiency name the key size of the best. Verification: the "
    "design's record (see the trust section).",
    "Units are each target's own: transistors and bits per cycle for the generic gates (no "
    "clock; logic depth in gate levels instead), gate equivalents (the library's own 2-input "
    "NAND) and um2 for ASIC, LUT4s (ECP5) or logic cells (iCE40: a LUT4 and a flip-flop) for "
    "FPGA. Throughput (non-feedback) = block bits x f / II; times = cycles / f; cycle counts "
    "measured in simulation (docs/interface.md).",
]


@dataclass(frozen=True)
class Unit:
    """How one kind of target states area and efficiency."""

    area: str  # figure name
    area_label: str
    efficiency: str | None  # per-key metric name
    efficiency_label: str


_ASIC = Unit("gate_equivalents", "GE", "kbps_per_ge", "Kbps/GE")
_UNITS = {
    "generic": Unit("transistors", "transistors", None, ""),
    "asic": _ASIC,
    "layout": _ASIC,
    "fpga": Unit("luts", "LUTs", "mbps_per_lut", "Mbps/LUT"),
}
# An iCE40 logic cell is one LUT4 and one flip-flop; the FPGA flow counts cells as "luts".
_ICE40 = Unit("luts", "LCs", "mbps_per_lut", "Mbps/LC")


def unit_of(kind: str, name: str) -> Unit | None:
    if kind == "fpga" and ":ice40:" in f"{name}:":
        return _ICE40
    return _UNITS.get(kind)


def target_label(kind: str, name: str) -> str:
    """"ASIC osu018_stdcells", "FPGA ice40 up5k": the target as a reader names it."""
    if kind == "generic":
        return "generic gates"
    if kind == "fpga":
        return "FPGA " + " ".join(name.split(":")[1:3])
    if kind == "layout":
        return f"ASIC layout {name}"
    if kind == "asic":
        return f"ASIC {name}"
    return name if kind == name else f"{kind} {name}"


# --- the best of a design's runs on one target ---------------------------------------------

Best = tuple[float, Result, str]  # value, its run, its key size ("" for a whole-run figure)


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        return None
    return float(value)


def best_of_runs(runs: Sequence[Result], name: str, higher: bool) -> Best | None:
    found = [(v, r, "") for r in runs if (v := _positive(figure(r, name))) is not None]
    return _pick(found, higher)


def best_per_key(runs: Sequence[Result], name: str, higher: bool) -> Best | None:
    """The best over runs and key sizes; its key is "" when every key size reaches it (a
    pipeline's throughput), else the key size it is at."""
    found = [(v, r, k) for r in runs for k in key_sizes(r)
             if (v := _positive(key_figure(r, k, name))) is not None]
    best = _pick(found, higher)
    if best is None:
        return None
    at_best = {k for v, r, k in found if r is best[1] and v == best[0]}
    return best if at_best != set(key_sizes(best[1])) else (best[0], best[1], "")


def _pick(found: list[Best], higher: bool) -> Best | None:
    if not found:
        return None
    return (max if higher else min)(found, key=lambda f: f[0])


def whole(value: float) -> str:
    """A headline figure: whole numbers from 100 up (29,669 GE, not 29,669.33), else as the
    tables write it (12.8 bits/cycle, 44 gate levels)."""
    if value >= 100 or float(value).is_integer():
        return f"{round(value):,}"
    return fmt(value)


def _key_note(best: Best, several_keys: bool) -> str:
    return f" ({best[2]}-bit key)" if several_keys and best[2].isdigit() else ""


def area_cell(kind: str, unit: Unit, runs: Sequence[Result]) -> str:
    best = best_of_runs(runs, unit.area, higher=False)
    if best is None:
        return MISSING
    text = f"{whole(best[0])} {unit.area_label}"
    um2 = _positive(figure(best[1], "area_um2")) if kind in ("asic", "layout") else None
    return f"{text} ({whole(um2)} um2)" if um2 is not None else text


def clock_cell(kind: str, runs: Sequence[Result]) -> str:
    if kind == "generic":  # no clock: the depth of logic between registers stands in
        depth = best_of_runs(runs, "logic_depth", higher=False)
        return f"no clock; logic depth {whole(depth[0])}" if depth else MISSING
    best = best_of_runs(runs, "fmax_mhz", higher=True)
    if best is None:
        return MISSING
    return f"{whole(best[0])} MHz ({fmt(1000.0 / best[0])} ns)"


def throughput_cell(kind: str, runs: Sequence[Result], several_keys: bool) -> str:
    if kind == "generic":
        best = best_per_key(runs, "bits_per_cycle", higher=True)
        return MISSING if best is None else (f"{whole(best[0])} bits/cycle"
                                             f"{_key_note(best, several_keys)}")
    best = best_per_key(runs, "throughput_mbps", higher=True)
    return MISSING if best is None else f"{whole(best[0])} Mbps{_key_note(best, several_keys)}"


def efficiency_cell(unit: Unit, runs: Sequence[Result], several_keys: bool) -> str:
    best = best_per_key(runs, unit.efficiency, higher=True) if unit.efficiency else None
    if best is None:
        return MISSING
    return f"{fmt(best[0])} {unit.efficiency_label}{_key_note(best, several_keys)}"


# --- the table -----------------------------------------------------------------------------


def _row(design: str, status: str, kind: str, name: str, runs: Sequence[Result]) -> list[str]:
    ok = [r for r in runs if r.ok]
    lead = [design, status, target_label(kind, name)]
    unit = unit_of(kind, name)
    if not ok:  # the runs there all ended without figures: the device's size, or a failure
        fits = [r for r in runs if does_not_fit(r)]
        what = fit_text(fits[0]) if fits else "failed (see Failed runs)"
        count = f"{len(runs)} ({'does not fit' if fits else 'failed'})"
        return [*lead, count, what, MISSING, MISSING, MISSING]
    several_keys = len({k for r in ok for k in key_sizes(r)}) > 1
    if unit is None:  # a kind of target this table does not know: its throughput only
        return [*lead, str(len(ok)), MISSING, clock_cell(kind, ok),
                throughput_cell(kind, ok, several_keys), MISSING]
    return [*lead, str(len(ok)), area_cell(kind, unit, ok), clock_cell(kind, ok),
            throughput_cell(kind, ok, several_keys), efficiency_cell(unit, ok, several_keys)]


def headline_table(results: Sequence[Result]) -> Table:
    """A row per design and target: generic, each ASIC library, each FPGA device."""
    status = trust.design_status(list(results))
    groups: dict[tuple[str, tuple[str, str]], list[Result]] = {}
    for r in results:
        groups.setdefault((r.design, table_group(r)), []).append(r)
    order = sorted(groups, key=lambda g: (g[0], kind_rank(g[1][0]), g[1][1].lower()))
    rows = [_row(design, status.get(design, MISSING), kind, name, groups[(design, (kind, name))])
            for design, (kind, name) in order]
    return Table(title="", headers=list(HEADERS), rows=rows, notes=list(NOTES), key=KEY)

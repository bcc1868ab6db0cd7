"""Throughput vs area scatter, one panel per target kind and units, as PNG and SVG: a panel's
axes each hold one unit (transistors, GE, LUTs; Mbps or bits per cycle), never two.

Matplotlib through its object API with the Agg canvas: no pyplot global state and no GUI backend,
so plotting is safe in worker processes and headless machines.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import matplotlib
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from ..store import Result
from .tables import KIND_TITLES, figure, key_figure, key_sizes, kind_rank, ordered

# Above this max/min ratio an axis is logarithmic: linear axes would crush the small designs.
LOG_SPREAD = 10.0

# Per target kind: the area figures to try in order (label, name) and the throughput figure.
_AREA: dict[str, tuple[tuple[str, str], ...]] = {
    "asic": (("Area (GE)", "gate_equivalents"), ("Area (um2)", "area_um2")),
    "layout": (("Area (GE)", "gate_equivalents"), ("Area (um2)", "area_um2")),
    "fpga": (("LUTs", "luts"),),
    "generic": (("Transistors", "transistors"), ("Cells", "cells")),
}
_DEFAULT_AREA = (("Area (GE)", "gate_equivalents"), ("LUTs", "luts"),
                 ("Transistors", "transistors"))
# A generic netlist has no clock; bits per cycle is its throughput in clock-free units.
_SPEED = (("Throughput (Mbps)", "throughput_mbps"), ("Bits per cycle", "bits_per_cycle"))


@dataclass(frozen=True)
class Point:
    kind: str
    target: str
    area: float
    speed: float
    area_label: str
    speed_label: str
    # (design, key size or "") of every result at this spot
    members: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        """"aes/pipelined (128, 192, 256)": key sizes only where a design has several."""
        keys: dict[str, list[str]] = {}
        for design, key in self.members:
            keys.setdefault(design, [])
            if key:
                keys[design].append(key)
        return "; ".join(f"{d} ({', '.join(k)})" if k else d for d, k in keys.items())


def _first(result: Result, key: str, options: Sequence[tuple[str, str]], per_key: bool
           ) -> tuple[str, float] | None:
    for label, name in options:
        value = key_figure(result, key, name) if per_key else figure(result, name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return label, float(value)
    return None


def points(results: Sequence[Result]) -> list[Point]:
    """Plottable points: ok results with a positive area and throughput, one per key size,
    merged where several land on the same spot (a pipelined 3-in-1 core has one throughput at
    every key size): stacked labels would be unreadable."""
    merged: dict[tuple[str, float, float], Point] = {}
    for r in ordered(results):
        if not r.ok:
            continue
        keys = key_sizes(r)
        for key in keys:
            area = _first(r, key, _AREA.get(r.target_kind, _DEFAULT_AREA), per_key=False)
            speed = _first(r, key, _SPEED, per_key=True)
            if area is None or speed is None:
                continue
            member = (r.design, key if len(keys) > 1 else "")
            spot = (r.target, area[1], speed[1])
            if spot in merged:
                old = merged[spot]
                merged[spot] = replace(old, members=(*old.members, member))
            else:
                merged[spot] = Point(r.target_kind, r.target, area[1], speed[1], area[0],
                                     speed[0], (member,))
    return list(merged.values())


def _plain(text: str) -> str:
    """Matplotlib reads $...$ as math; user text is shown literally."""
    return text.replace("$", r"\$")


def _scale(axis_values: list[float]) -> str:
    return "log" if max(axis_values) / min(axis_values) > LOG_SPREAD else "linear"


def _plain_number(value: float, _pos: int) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:g}"


def _set_scale(ax: Axes, axis: Axis, scale: str) -> None:
    """Log axes ticked at 1, 2, 5 per decade in plain numbers: hardware people read 20,000 GE
    faster than 2x10^4, and a range of one or two decades gets more than one labelled tick."""
    (ax.set_xscale if axis is ax.xaxis else ax.set_yscale)(scale)
    if scale == "log":
        axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(FuncFormatter(_plain_number))
        axis.set_minor_formatter(NullFormatter())


def _panel(ax: Axes, kind: str, pts: list[Point], title: str) -> None:
    targets = sorted({p.target for p in pts})
    for index, target in enumerate(targets):
        mine = [p for p in pts if p.target == target]
        ax.scatter([p.area for p in mine], [p.speed for p in mine],
                   label=_plain(target), color=f"C{index % 10}", zorder=3)
        for p in mine:
            ax.annotate(_plain(p.label), (p.area, p.speed),
                        textcoords="offset points", xytext=(4, 4), fontsize=7)
    for axis, values in ((ax.xaxis, [p.area for p in pts]), (ax.yaxis, [p.speed for p in pts])):
        _set_scale(ax, axis, _scale(values))
    ax.set_xlabel(pts[0].area_label)
    ax.set_ylabel(pts[0].speed_label)
    ax.set_title(_plain(title))
    ax.margins(0.15)  # room for the labels of points at the edges
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def panels(pts: Sequence[Point]) -> dict[tuple[str, str, str], list[Point]]:
    """Points by (kind, area unit, throughput unit), kinds in report order: a kind whose rows
    lack its first area figure (GE without a NAND2, say) gets a panel of its own rather than
    one axis in two units."""
    found: dict[tuple[str, str, str], list[Point]] = {}
    for p in pts:
        found.setdefault((p.kind, p.area_label, p.speed_label), []).append(p)
    return dict(sorted(found.items(), key=lambda kv: (kind_rank(kv[0][0]), kv[0][1:])))


def throughput_vs_area(results: Sequence[Result]) -> Figure:
    """The figure: a panel per target kind and units that has points, or a note when none has."""
    groups = panels(points(results))
    fig = Figure(figsize=(5.5 * max(1, len(groups)), 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    if not groups:
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "no results with both area and throughput", ha="center", va="center")
        ax.set_axis_off()
        return fig
    kinds = [kind for kind, _, _ in groups]
    for index, ((kind, area, speed), pts) in enumerate(groups.items(), start=1):
        title = KIND_TITLES.get(kind, kind)
        if kinds.count(kind) > 1:
            title += f" ({area}, {speed})"
        _panel(fig.add_subplot(1, len(groups), index), kind, pts, title)
    return fig


def write_plots(results: Sequence[Result], out_dir: Path, stem: str = "throughput_vs_area"
                ) -> list[Path]:
    """Write ``stem``.png and ``stem``.svg; return their paths."""
    paths = [out_dir / f"{stem}.png", out_dir / f"{stem}.svg"]
    # Text as paths: the SVG needs no fonts and carries no user text as markup. A fixed hash salt
    # and no dates or tool names: same results, same bytes.
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "cipherbench"}):
        fig = throughput_vs_area(results)
        fig.savefig(paths[0], dpi=120, metadata={"Software": None})
        fig.savefig(paths[1], metadata={"Date": None, "Creator": None})
    return paths


def sugawara_figure(points: dict[str, list[tuple[str, str, float, float]]]) -> Figure:
    """Sugawara et al. Fig. 11: throughput against gate count, one panel per source (the
    published 0.18 um cores and ours), colour per cipher; log axes when the spread is wide."""
    sources = [s for s, pts in points.items() if pts]
    fig = Figure(figsize=(5.5 * max(1, len(sources)), 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ciphers = sorted({c for pts in points.values() for c, *_ in pts})
    colour = {c: f"C{i % 10}" for i, c in enumerate(ciphers)}
    for index, source in enumerate(sources, start=1):
        ax = fig.add_subplot(1, len(sources), index)
        pts = points[source]
        for cipher in ciphers:
            mine = [p for p in pts if p[0] == cipher]
            if mine:
                ax.scatter([p[2] for p in mine], [p[3] for p in mine], label=cipher,
                           color=colour[cipher], zorder=3)
        for axis, values in ((ax.xaxis, [p[2] for p in pts]), (ax.yaxis, [p[3] for p in pts])):
            _set_scale(ax, axis, _scale(values))
        ax.set_xlabel("Area (kGE)" if "cipherbench" in source else "Area (K gates)")
        ax.set_ylabel("Throughput (Mbps)")
        ax.set_title(_plain(source))
        ax.margins(0.15)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    return fig


def sugawara_plot_paths(out_dir: Path, stem: str = "sugawara_fig11") -> list[Path]:
    return [out_dir / f"{stem}.png", out_dir / f"{stem}.svg"]


def write_sugawara_plots(points: dict[str, list[tuple[str, str, float, float]]], out_dir: Path,
                         stem: str = "sugawara_fig11") -> list[Path]:
    """Write ``stem``.png and ``stem``.svg of :func:`sugawara_figure`; return their paths."""
    paths = sugawara_plot_paths(out_dir, stem)
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "cipherbench"}):
        fig = sugawara_figure(points)
        fig.savefig(paths[0], dpi=120, metadata={"Software": None})
        fig.savefig(paths[1], metadata={"Date": None, "Creator": None})
    return paths

"""Reports: stored results -> report.md, results.csv, report.html and the throughput/area plot
(with nsa_speed_grades.csv when the results have ASIC speed grades, see ``nsa.grades``).

``write_report(store_or_results, out_dir)`` is the entry point. It reads only ``Result`` rows:
figures come from ``Result.metrics`` (``cipherbench.metrics.derive``) and
``Result.measurements``; each seed paper's section (``report/<seed>/``) sets our figures beside
that paper's published ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from ..store import Result, Store
from . import csv_export, html, software, tables
from .nsa import grades as nsa_grades
from .rows import current_rows, engine_rows, measured_rows, run_counts
from .section import ReportInput, rendered
from .sections import (
    FISCHER_SECTION, GAJ_SECTION, GRADES_CSV, MASKED_SECTION, NSA_FINDINGS_SECTION,
    NSA_GRADES_SECTION, NSA_SECTION, PAPA_ASYNC_SECTION, PAPA_SECTION, PLOT_SECTION, SECTIONS,
    SOFTWARE_SECTION, SUGAWARA_SECTION,
)
from .tables import Section

__all__ = ["write_report", "build_sections", "current_rows", "measured_rows", "run_counts",
           "SECTIONS", "GAJ_SECTION", "FISCHER_SECTION", "PAPA_SECTION", "PAPA_ASYNC_SECTION",
           "NSA_SECTION", "NSA_GRADES_SECTION", "NSA_FINDINGS_SECTION", "MASKED_SECTION",
           "PLOT_SECTION", "SOFTWARE_SECTION", "SUGAWARA_SECTION", "GRADES_CSV"]


def _rows(store_or_results: Store | Iterable[Result]) -> list[Result]:
    if isinstance(store_or_results, Store):
        return current_rows(store_or_results.results())
    return current_rows(store_or_results)


def _given(everything: list[Result], baseline: dict[str, Any] | None) -> ReportInput:
    return ReportInput(everything, measured_rows(everything), baseline,
                       engines=engine_rows(everything))


def build_sections(everything: list[Result],
                   baseline: dict[str, Any] | None = None) -> list[Section]:
    """The report's content, shared by the Markdown and HTML renderings: every section of
    ``SECTIONS`` the results hold rows for."""
    given = _given(everything, baseline)
    return [rendered(s, given) for s in SECTIONS if s.applies(given)]


def _markdown(title: str, sections: list[Section],
              images: dict[str, list[tuple[str, str]]]) -> str:
    """``images``: section title -> [(alt text, PNG file name)] placed under its heading."""
    parts = [f"# {tables.md_escape(title)}", ""]
    for section in sections:
        parts += [f"## {tables.md_escape(section.title)}", ""]
        for paragraph in section.paragraphs:
            parts += [tables.md_escape(paragraph), ""]
        for alt, name in images.get(section.title, []):
            parts += [f"![{alt}]({name})", ""]
        parts += [tables.to_markdown(t) for t in section.tables]
    return "\n".join(parts).rstrip() + "\n"


def write_report(
    store_or_results: Store | Iterable[Result],
    out_dir: str | Path,
    title: str = "cipherbench report",
    software_baseline: str | Path | None = None,
) -> list[Path]:
    """Write report.md, results.csv, report.html, throughput_vs_area.png/.svg (and, when the
    results allow, the Sugawara figure and nsa_speed_grades.csv); return the paths."""
    # A bad baseline file is refused before anything is written.
    baseline = software.load_baseline(Path(software_baseline)) if software_baseline else None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results = _rows(store_or_results)
    given = _given(results, baseline)
    shown = [s for s in SECTIONS if s.applies(given)]
    sections = [rendered(s, given) for s in shown]
    images: dict[str, list[tuple[str, str]]] = {}
    figures: dict[str, str] = {}
    written: list[Path] = []
    for section in SECTIONS:
        for plot in section.figures(given):
            if section not in shown:  # a figure left from an earlier report of other results
                for stale in plot.paths(out):  # would be read as this one's
                    stale.unlink(missing_ok=True)
                continue
            png, svg = plot.write(out)
            images.setdefault(section.title, []).append((plot.alt, png.name))
            figures[section.title] = figures.get(section.title, "") + html.figure_markup(
                svg, png, plot.caption)
            written += [png, svg]
    measured = given.results
    md_path, csv_path, html_path = out / "report.md", out / "results.csv", out / "report.html"
    md_path.write_text(_markdown(title, sections, images), encoding="utf-8")
    csv_path.write_text(csv_export.to_csv(results), encoding="utf-8", newline="")
    html_path.write_text(html.render_page(title, sections, figures, measured), encoding="utf-8")
    grades = nsa_grades.grades_csv(measured)
    if grades is not None:  # the points behind NSA Tables 13/14/17/18
        (out / GRADES_CSV).write_text(grades, encoding="utf-8", newline="")
        written.append(out / GRADES_CSV)
    else:
        (out / GRADES_CSV).unlink(missing_ok=True)
    return [md_path, csv_path, html_path, *written]

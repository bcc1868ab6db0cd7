"""Reports: stored results -> report.md, results.csv, report.html and the throughput/area plot
(with nsa_speed_grades.csv when the results have ASIC speed grades, see ``nsa.grades``).

``write_report(store_or_results, out_dir)`` is the entry point. It reads only ``Result`` rows:
figures come from ``Result.metrics`` (``cipherbench.metrics.derive``) and
``Result.measurements``; each seed paper's section (``report/<seed>/``) sets our figures beside
that paper's published ones.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from ..leakage.record import is_leakage
from ..store import Result, Store
from . import (analysis, csv_export, headline, html, provenance, software, standing, tables,
               targets, trust)
from .nsa.comparison import nsa_section_tables
from .nsa.parameters import parameter_tables
from .fischer import section as fischer_section
from .gaj import section as gaj_section
from .lightweight import section as lightweight_section
from .masked import section as masked_section
from .nsa import findings as nsa_findings
from .nsa import grades as nsa_grades
from .papaefstathiou import asynchronous as papaefstathiou_async
from .papaefstathiou import section as papaefstathiou_section
from .sugawara import section as sugawara_section
from .tables import Section

__all__ = ["write_report", "build_sections", "current_rows", "measured_rows", "GAJ_SECTION",
           "FISCHER_SECTION", "PAPA_SECTION", "PAPA_ASYNC_SECTION", "NSA_GRADES_SECTION",
           "NSA_FINDINGS_SECTION", "MASKED_SECTION"]

PLOT_SECTION = "Throughput vs area"
SOFTWARE_SECTION = "Software baseline (Sugawara Table 2, Papaefstathiou Tables 1-6)"
NSA_SECTION = "NSA Tables 1-10: the AES finalists, iterative and pipelined"
NSA_GRADES_SECTION = "NSA Tables 13, 14, 17, 18: throughput per area by speed grade"
NSA_FINDINGS_SECTION = "The NSA's findings, checked against ours"
GRADES_CSV = "nsa_speed_grades.csv"
SUGAWARA_SECTION = "Sugawara et al.: ISO/IEC 18033-3 ciphers (Table 1, Fig. 11)"
GAJ_SECTION = "Gaj & Chodowiec: the AES finalists on FPGAs (Fig. 10, Tables I-IV, Fig. 8)"
FISCHER_SECTION = "Fischer: parameters and fast/fair/minimum configurations (Tables 1, 4-6)"
PAPA_SECTION = "Papaefstathiou et al.: DES and AES cores, area vs performance (Tables 8-14)"
PAPA_ASYNC_SECTION = papaefstathiou_async.TITLE
MASKED_SECTION = masked_section.TITLE


def _rows(store_or_results: Store | Iterable[Result]) -> list[Result]:
    if isinstance(store_or_results, Store):
        return current_rows(store_or_results.results())
    return current_rows(store_or_results)


def current_rows(results: Iterable[Result]) -> list[Result]:
    """One row per design, target and settings: the newest (the last given; a store lists its
    rows oldest first). A database keeps the rows of earlier code next to a rerun's, since the
    cache key follows the code; the report shows what the latest run measured."""
    newest: dict[tuple[str, str, str], Result] = {}
    for r in results:
        key = (r.design, r.target, json.dumps(r.settings, sort_keys=True, default=str))
        newest.pop(key, None)  # re-inserted last: the order stays oldest first
        newest[key] = r
    return list(newest.values())


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def run_counts(results: list[Result]) -> str:
    """"6 runs: 4 ok, 2 do not fit their device, 0 failed": a design larger than its device is
    an answer (study.py caches it like a success), counted apart from the runs that failed."""
    fit = sum(tables.does_not_fit(r) for r in results)
    ok = sum(r.ok for r in results)
    fits = f"{_count(fit, 'does not fit its device', 'do not fit their device')}, " if fit else ""
    return f"{_count(len(results), 'run', 'runs')}: {ok} ok, {fits}{len(results) - ok - fit} failed"


def _summary(results: list[Result]) -> Section:
    designs = sorted({r.design for r in results})
    targets = sorted({r.target for r in results})
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return Section("Summary", paragraphs=[
        f"{run_counts(results)}; {len(designs)} designs on {len(targets)} targets. "
        f"Generated {stamp}.",
    ])


def _headline(results: list[Result]) -> Section:
    """The table the report opens with (report/headline.py)."""
    return Section(headline.TITLE, tables=[headline.headline_table(results)])


def _nsa(results: list[Result]) -> list[Section]:
    """The NSA's per-finalist tables, when the results hold any iterative or full-pipeline core
    of a finalist."""
    found = nsa_section_tables(results)
    if not found:
        return []
    return [Section(NSA_SECTION, paragraphs=[
        "Per finalist and key-size set (128-bit keys only, or 3-in-1), our iterative and "
        "pipelined cores on every target beside the NSA's Min./Max. columns (0.5 um MOSIS, "
        "Synopsys, pre-layout). Our ASIC columns are the area- and speed-oriented ends of "
        "synthesis; transistor counts come from the generic target. After each table, our "
        "figures at the NSA's own node (0.5 um) beside the NSA's with the ratio ours/NSA, and "
        "per figure the median ratio and its spread."], tables=found)]


def _nsa_findings(results: list[Result]) -> list[Section]:
    """The NSA's rankings in words (which finalist is fastest, smallest, ...) judged from our
    ASIC rows of the finalists' iterative and pipelined cores."""
    found = nsa_findings.findings_tables(results)
    if not found:
        return []
    return [Section(NSA_FINDINGS_SECTION, paragraphs=[
        "Each ranking the NSA states in words (sections 6.2 and 7.2), judged from our ASIC rows "
        "of the same cores: the finalists ranked by the named figure, and, where ours depart, "
        "the reason measured from the same netlists."], tables=found)]


def _nsa_grades(results: list[Result]) -> list[Section]:
    """NSA Tables 13/14/17/18, when a finalist's iterative or full-pipeline core has at least
    two ASIC points (area end, speed end, delay targets) on one library."""
    found = nsa_grades.grade_tables(results)
    if not found:
        return []
    return [Section(NSA_GRADES_SECTION, paragraphs=[
        "The NSA synthesized each core at five speed grades picked from a sweep of delay "
        "constraints (its section 3.2): grade 1 the fastest, largest implementation, grade 5 "
        "the slowest, smallest. Ours are each design's ASIC points on one Liberty library (the "
        "area and speed ends and the speed-grade sweep's delay targets) ordered by critical "
        "path, fastest first; every cell is non-feedback throughput over total area in bits/s "
        f"per um2, the NSA's five printed values beside them. {GRADES_CSV} lists every point."],
        tables=found)]


def _sugawara(results: list[Result]) -> list[Section]:
    """The Sugawara comparison, when the results hold any of its ciphers' loop or compact cores."""
    if not sugawara_section.our_rows(results):
        return []
    return [Section(SUGAWARA_SECTION, paragraphs=[sugawara_section.EXPLANATION],
                    tables=sugawara_section.tables(results))]


def _lightweight(results: list[Result]) -> list[Section]:
    """The ciphers standardized since the seeds beside their published anchors, when the results
    hold a round-based or compact ASIC core of one of them (report/lightweight/)."""
    if not lightweight_section.relevant(results):
        return []
    return [Section(lightweight_section.TITLE, paragraphs=[lightweight_section.EXPLANATION],
                    tables=lightweight_section.tables(results))]


def _masked(results: list[Result]) -> list[Section]:
    """Masked cores: the cost of protection and the leakage assessment's verdicts, beside the
    published masked AES cores, when the results hold an ASIC or a leakage row of a masked
    design (report/masked/)."""
    if not masked_section.relevant(results):
        return []
    return [Section(MASKED_SECTION, paragraphs=[masked_section.EXPLANATION],
                    tables=masked_section.tables(results))]


def measured_rows(results: list[Result]) -> list[Result]:
    """The rows that measure a netlist on a target: everything but the leakage assessments,
    which have no area or speed and get their own section (their rows stay in the summary's
    count, the provenance and results.csv)."""
    return [r for r in results if not is_leakage(r)]


def _gaj(results: list[Result]) -> list[Section]:
    """Gaj & Chodowiec, when the results hold any finalist on an FPGA target (failed runs count:
    a core too large for the small device is Table I's answer)."""
    if not gaj_section.relevant(results):
        return []
    return [Section(GAJ_SECTION, paragraphs=[gaj_section.EXPLANATION],
                    tables=gaj_section.tables(results))]


def _fischer(results: list[Result]) -> list[Section]:
    """Fischer, when the results hold an AES, Serpent or Twofish core of one of its data widths
    on an FPGA target."""
    if not fischer_section.relevant(results):
        return []
    return [Section(FISCHER_SECTION, paragraphs=[fischer_section.EXPLANATION],
                    tables=fischer_section.tables(results))]


def _papaefstathiou(results: list[Result]) -> list[Section]:
    """Papaefstathiou et al., when the results hold a DES, TDEA or iterative AES core on an ASIC
    or FPGA target."""
    if not papaefstathiou_section.relevant(results):
        return []
    return [Section(PAPA_SECTION, paragraphs=[papaefstathiou_section.EXPLANATION],
                    tables=papaefstathiou_section.tables(results))]


def _papaefstathiou_async(results: list[Result]) -> list[Section]:
    """Papaefstathiou et al.'s asynchronous DES (Table 10, the idle experiment, its findings),
    when the results hold de-synchronized (asic-desync) DES, TDEA or AES cores."""
    if not papaefstathiou_async.relevant(results):
        return []
    return [Section(PAPA_ASYNC_SECTION, paragraphs=[papaefstathiou_async.EXPLANATION],
                    tables=papaefstathiou_async.tables(results))]


def _software(results: list[Result], baseline: dict[str, Any] | None) -> list[Section]:
    """The measured software baseline (``cipherbench software --json``), when one is given."""
    if baseline is None:
        return []
    return [Section(SOFTWARE_SECTION, tables=[software.software_table(baseline, results)])]


def _external(results: list[Result]) -> list[Section]:
    """Designers' own cores and where each stands (report/standing.py); none without them."""
    table = standing.standing_table(results)
    if table is None:
        return []
    return [Section(standing.TITLE, paragraphs=[
        "Cores described by their designers (docs/your-core.md), named CIPHER/external:NAME, "
        "verified as the generated ones and measured on the same flows. Each row's provenance "
        "holds the hash of the description and of every HDL file."], tables=[table])]


def build_sections(everything: list[Result],
                   baseline: dict[str, Any] | None = None) -> list[Section]:
    """The report's content, shared by the Markdown and HTML renderings."""
    results = measured_rows(everything)
    return [
        _summary(everything),
        _headline(results),
        *_external(results),
        *_nsa(results),
        *_nsa_findings(results),
        *_nsa_grades(results),
        Section("Parameters per design (NSA section 2.2)",
                tables=parameter_tables(results, skip_nsa=True)),
        Section("Results per target", paragraphs=[
            "One table per target: the generic gates; each Liberty library, with its area and "
            "speed ends, speed grades and variants as rows, each design's fastest first; each "
            "FPGA device, with the designs that do not fit it. Settings are said in words, "
            "defaults left out; the provenance section has them as stored."],
            tables=targets.target_tables(results)),
        Section(PLOT_SECTION),
        *_sugawara(results),
        *_lightweight(results),
        *_gaj(results),
        *_fischer(results),
        *_papaefstathiou(results),
        *_papaefstathiou_async(results),
        *_masked(everything),
        *_software(results, baseline),
        Section("Architectures: formulas and sharing",
                tables=[analysis.formula_table(results), analysis.sharing_table(results)]),
        Section(trust.TITLE, paragraphs=[trust.EXPLANATION],
                tables=[trust.trust_table(results)]),
        Section("Failed runs", paragraphs=[
            "Runs that ended without figures for another reason than the size of their device "
            "(a design that does not fit is a result: see the headline and the device's table)."],
            tables=[provenance.failed_table(everything)]),
        Section("Provenance", tables=[provenance.provenance_table(everything),
                                      provenance.raw_settings_table(everything)]),
    ]


def _markdown(title: str, sections: list[Section], images: dict[str, tuple[str, str]]) -> str:
    """``images``: section title -> (alt text, PNG file name) placed under its heading."""
    parts = [f"# {tables.md_escape(title)}", ""]
    for section in sections:
        parts += [f"## {tables.md_escape(section.title)}", ""]
        for paragraph in section.paragraphs:
            parts += [tables.md_escape(paragraph), ""]
        if section.title in images:
            alt, name = images[section.title]
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
    sections = build_sections(results, baseline)
    from . import plots  # matplotlib is slow to import; only reports need it

    measured = measured_rows(results)
    png, svg = plots.write_plots(measured, out)
    images = {PLOT_SECTION: ("throughput vs area", png.name)}
    figures = {PLOT_SECTION: html.figure_markup(svg, png, "Throughput vs area, per target kind")}
    written = [png, svg]
    if any(s.title == SUGAWARA_SECTION for s in sections):
        s_png, s_svg = plots.write_sugawara_plots(sugawara_section.scatter_points(measured), out)
        images[SUGAWARA_SECTION] = ("Sugawara Fig. 11: throughput vs gates", s_png.name)
        figures[SUGAWARA_SECTION] = html.figure_markup(
            s_svg, s_png, "Sugawara et al. Fig. 11: throughput against area, published and ours")
        written += [s_png, s_svg]
    else:  # a figure left from an earlier report of other results would be read as this one's
        for stale in plots.sugawara_plot_paths(out):
            stale.unlink(missing_ok=True)
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

"""The report's sections, in report order: ``SECTIONS``, the one list that report.md, report.html
and anything else walking sections are built from (``section.ReportSection`` is the protocol).
A seed's section is there when the results hold rows for it."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from . import analysis, headline, provenance, software, standing, targets, trust
from .aead import section as aead_section
from .fischer import section as fischer_section
from .gaj import section as gaj_section
from .lightweight import section as lightweight_section
from .masked import section as masked_section
from .nsa import findings as nsa_findings
from .nsa import grades as nsa_grades
from .nsa.comparison import nsa_section_tables
from .nsa.parameters import parameter_tables
from .papaefstathiou import asynchronous as papaefstathiou_async
from .papaefstathiou import section as papaefstathiou_section
from .rows import run_counts
from .section import Figure, Listed, ReportInput, ReportSection
from .sugawara import section as sugawara_section
from .tables import Table

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


def _summary(given: ReportInput) -> list[str]:
    everything = given.everything
    designs = sorted({r.design for r in everything})
    found_targets = sorted({r.target for r in everything})
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return [f"{run_counts(everything)}; {len(designs)} designs on {len(found_targets)} targets. "
            f"Generated {stamp}."]


def _standing(given: ReportInput) -> list[Table]:
    table = standing.standing_table(given.results)
    return [] if table is None else [table]


def _throughput_plot(given: ReportInput) -> list[Figure]:
    def write(out: Path) -> list[Path]:
        from . import plots  # matplotlib is slow to import; only reports need it

        return plots.write_plots(given.results, out)

    return [Figure("throughput vs area", "Throughput vs area, per target kind", write,
                   lambda out: [out / "throughput_vs_area.png", out / "throughput_vs_area.svg"])]


def _sugawara_plot(given: ReportInput) -> list[Figure]:
    def write(out: Path) -> list[Path]:
        from . import plots

        return plots.write_sugawara_plots(sugawara_section.scatter_points(given.results), out)

    def paths(out: Path) -> list[Path]:
        from . import plots

        return plots.sugawara_plot_paths(out)

    return [Figure("Sugawara Fig. 11: throughput vs gates",
                   "Sugawara et al. Fig. 11: throughput against area, published and ours",
                   write, paths)]


SECTIONS: tuple[ReportSection, ...] = (
    Listed("Summary", lambda _g: [], paragraphs=_summary),
    # The table a report opens with (report/headline.py).
    Listed(headline.TITLE, lambda g: [headline.headline_table(g.results)]),
    # Designers' own cores and where each stands (report/standing.py); none without them.
    Listed(standing.TITLE, _standing, only_with_tables=True, text=(
        "Cores described by their designers (docs/your-core.md), named CIPHER/external:NAME, "
        "verified as the generated ones and measured on the same flows. Each row's provenance "
        "holds the hash of the description and of every HDL file.",)),
    # The NSA's per-finalist tables, when the results hold any iterative or full-pipeline core
    # of a finalist.
    Listed(NSA_SECTION, lambda g: nsa_section_tables(g.results), only_with_tables=True, text=(
        "Per finalist and key-size set (128-bit keys only, or 3-in-1), our iterative and "
        "pipelined cores on every target beside the NSA's Min./Max. columns (0.5 um MOSIS, "
        "Synopsys, pre-layout). Our ASIC columns are the area- and speed-oriented ends of "
        "synthesis; transistor counts come from the generic target. After each table, our "
        "figures at the NSA's own node (0.5 um) beside the NSA's with the ratio ours/NSA, and "
        "per figure the median ratio and its spread.",)),
    # The NSA's rankings in words judged from our ASIC rows of the same cores.
    Listed(NSA_FINDINGS_SECTION, lambda g: nsa_findings.findings_tables(g.results),
           only_with_tables=True, text=(
        "Each ranking the NSA states in words (sections 6.2 and 7.2), judged from our ASIC rows "
        "of the same cores: the finalists ranked by the named figure, and, where ours depart, "
        "the reason measured from the same netlists.",)),
    # NSA Tables 13/14/17/18, when a finalist's core has at least two ASIC points on a library.
    Listed(NSA_GRADES_SECTION, lambda g: nsa_grades.grade_tables(g.results),
           only_with_tables=True, text=(
        "The NSA synthesized each core at five speed grades picked from a sweep of delay "
        "constraints (its section 3.2): grade 1 the fastest, largest implementation, grade 5 "
        "the slowest, smallest. Ours are each design's ASIC points on one Liberty library (the "
        "area and speed ends and the speed-grade sweep's delay targets) ordered by critical "
        "path, fastest first; every cell is non-feedback throughput over total area in bits/s "
        f"per um2, the NSA's five printed values beside them. {GRADES_CSV} lists every point.",)),
    Listed("Parameters per design (NSA section 2.2)",
           lambda g: parameter_tables(g.results, skip_nsa=True)),
    Listed("Results per target", lambda g: targets.target_tables(g.results), text=(
        "One table per target: the generic gates; each Liberty library, with its area and "
        "speed ends, speed grades and variants as rows, each design's fastest first; each "
        "FPGA device, with the designs that do not fit it. Settings are said in words, "
        "defaults left out; the provenance section has them as stored.",)),
    Listed(PLOT_SECTION, lambda _g: [], plots=_throughput_plot),
    # Each seed's section when the results hold any of its cores (report/<seed>/).
    Listed(SUGAWARA_SECTION, lambda g: sugawara_section.tables(g.results),
           text=(sugawara_section.EXPLANATION,),
           when=lambda g: bool(sugawara_section.our_rows(g.results)), plots=_sugawara_plot),
    Listed(lightweight_section.TITLE, lambda g: lightweight_section.tables(g.results),
           text=(lightweight_section.EXPLANATION,),
           when=lambda g: lightweight_section.relevant(g.results)),
    # Failed runs count for Gaj: a core too large for the small device is Table I's answer.
    Listed(GAJ_SECTION, lambda g: gaj_section.tables(g.results), text=(gaj_section.EXPLANATION,),
           when=lambda g: gaj_section.relevant(g.results)),
    Listed(FISCHER_SECTION, lambda g: fischer_section.tables(g.results),
           text=(fischer_section.EXPLANATION,),
           when=lambda g: fischer_section.relevant(g.results)),
    Listed(PAPA_SECTION, lambda g: papaefstathiou_section.tables(g.results),
           text=(papaefstathiou_section.EXPLANATION,),
           when=lambda g: papaefstathiou_section.relevant(g.results)),
    Listed(PAPA_ASYNC_SECTION, lambda g: papaefstathiou_async.tables(g.results),
           text=(papaefstathiou_async.EXPLANATION,),
           when=lambda g: papaefstathiou_async.relevant(g.results)),
    # Message-level engines (GCM behind the LWC API): their own rows, beside the bare cores.
    Listed(aead_section.TITLE, lambda g: aead_section.tables(g.engines, g.results),
           text=aead_section.EXPLANATION, when=lambda g: aead_section.relevant(g.engines)),
    # Masked cores read the leakage assessments too, which the other sections leave out.
    Listed(MASKED_SECTION, lambda g: masked_section.tables(g.everything),
           text=(masked_section.EXPLANATION,),
           when=lambda g: masked_section.relevant(g.everything)),
    # The measured software baseline (``cipherbench software --json``), when one is given.
    Listed(SOFTWARE_SECTION,
           lambda g: [software.software_table(g.baseline, g.results)] if g.baseline else [],
           when=lambda g: g.baseline is not None),
    Listed("Architectures: formulas and sharing",
           lambda g: [analysis.formula_table(g.results), analysis.sharing_table(g.results)]),
    Listed(trust.TITLE, lambda g: [trust.trust_table(g.results)], text=(trust.EXPLANATION,)),
    Listed("Failed runs", lambda g: [provenance.failed_table(g.everything)], text=(
        "Runs that ended without figures for another reason than the size of their device "
        "(a design that does not fit is a result: see the headline and the device's table).",)),
    Listed("Provenance", lambda g: [provenance.provenance_table(g.everything),
                                    provenance.raw_settings_table(g.everything)]),
)

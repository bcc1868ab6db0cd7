"""The NSA study's figures in one Markdown table: per finalist core, the ASIC area and speed ends
(kGE / MHz / Mbps / Kbps per GE, 128-bit keys), the generic transistor count and the key setup in
clocks (encryption / decryption), from a results database or a `cipherbench export` file.
With ``--grades``: every design's ASIC points (the ends and the speed grades between them) as
kGE / critical path in ns, in the order of the study's grades (speed end, then positions 1/4,
1/2 and 3/4, then the area end), and how many distinct points they are.

Usage: python benchmarks/nsa_summary.py benchmarks/results/nsa.json [--grades]
       python benchmarks/nsa_summary.py --db results/cipherbench.sqlite
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cipherbench.report import current_rows, names
from cipherbench.report.tables import cycle_count, key_figure
from cipherbench.store import Result, Store
from cipherbench.store.transfer import read_export

KEY = "128"
ORDER = ("aes", "serpent", "twofish", "rc6", "mars")


def _end(row: Result | None) -> str:
    if row is None:
        return "-"
    ge = row.measurements["gate_equivalents"] / 1000
    mhz = row.measurements["fmax_mhz"]
    mbps = key_figure(row, KEY, "throughput_mbps")
    efficiency = key_figure(row, KEY, "kbps_per_ge")
    return f"{ge:,.1f} / {mhz:,.0f} / {mbps:,.0f} / {efficiency:,.1f}"


def _sort_key(design: str) -> tuple[int, int, int]:
    cipher = names.design_cipher(design) or ""
    return (ORDER.index(cipher) if cipher in ORDER else len(ORDER),
            "pipelined" in design, "-128/" not in design)


def table(rows: list[Result]) -> str:
    by_design: dict[str, dict[str, Result]] = {}
    for row in rows:
        if row.ok and names.architecture_of(row.design):
            slot = "generic" if row.target_kind == "generic" else str(row.settings.get("goal"))
            by_design.setdefault(row.design, {})[slot] = row
    lines = ["| design | area end: kGE / MHz / Mbps / Kbps/GE | speed end: kGE / MHz / Mbps / "
             "Kbps/GE | transistors (generic) | key setup (clocks) |",
             "| --- | --- | --- | ---: | --- |"]
    for design in sorted(by_design, key=_sort_key):
        slots = by_design[design]
        generic = slots.get("generic")
        any_row = next(iter(slots.values()))
        transistors = f"{generic.measurements['transistors']:,}" if generic else "-"
        setup = (f"{cycle_count(any_row, KEY, 'key_setup_encrypt')} / "
                 f"{cycle_count(any_row, KEY, 'key_setup_decrypt')}")
        lines.append(f"| {design} | {_end(slots.get('area'))} | {_end(slots.get('speed'))} | "
                     f"{transistors} | {setup} |")
    return "\n".join(lines)


def _point(row: Result) -> str:
    return f"{row.measurements['gate_equivalents'] / 1000:,.1f} / {row.measurements['critical_path_ns']:.3f}"


def grades_table(rows: list[Result]) -> str:
    by_design: dict[str, dict[float, Result]] = {}
    for row in rows:
        if not (row.ok and row.target_kind == "asic" and names.architecture_of(row.design)):
            continue
        goal = row.settings.get("goal")
        position = 0.0 if goal == "speed" else 1.0 if goal == "area" else row.settings.get(
            "grade_position")
        if position is not None:
            by_design.setdefault(row.design, {})[float(position)] = row
    lines = ["| design | speed end | grade at 1/4 | at 1/2 | at 3/4 | area end | distinct |",
             "| --- | --- | --- | --- | --- | --- | ---: |"]
    for design in sorted(by_design, key=_sort_key):
        points = [by_design[design][p] for p in sorted(by_design[design])]
        distinct = len({_point(r) for r in points})
        lines.append(f"| {design} | " + " | ".join(_point(r) for r in points)
                     + f" | {distinct} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", nargs="?", type=Path, help="a cipherbench export (JSON)")
    parser.add_argument("--db", help="a results database instead of an export")
    parser.add_argument("--grades", action="store_true",
                        help="the speed grades between the ends instead (kGE / ns)")
    args = parser.parse_args()
    if (args.export is None) == (args.db is None):
        parser.error("give an export file or --db, one of them")
    if args.db:
        with Store(args.db) as store:
            rows = store.results()
    else:
        rows = read_export(args.export)
    rows = current_rows(rows)
    print(grades_table(rows) if args.grades else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

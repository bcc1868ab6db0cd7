"""How far our figures land from the seeds' published ones at the seeds' own process nodes, for
BENCHMARKS.md: per seed with ASIC tables (NSA 0.5 um; Sugawara et al. and Papaefstathiou et al.
0.18 um), the median ratio ours/published per figure with its spread (min-max) and count, from
our rows on a library of that node (osu050, osu018); then the NSA's findings as judged (at
0.5 um when there are rows there). The same comparisons as the report's tables
(``cipherbench.report.same_node``).

Usage: python benchmarks/seed_nodes.py benchmarks/results/nsa.json [more exports...]
       python benchmarks/seed_nodes.py --db results/cipherbench.sqlite
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cipherbench.report import current_rows
from cipherbench.report.same_node import seed_summary_markdown
from cipherbench.store import Result, Store
from cipherbench.store.transfer import read_export


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exports", nargs="*", type=Path, help="cipherbench exports (JSON)")
    parser.add_argument("--db", help="a results database instead of exports")
    args = parser.parse_args()
    if bool(args.exports) == bool(args.db):
        parser.error("give export files or --db, one of them")
    rows: list[Result] = []
    if args.db:
        with Store(args.db) as store:
            rows = store.results()
    else:
        for export in args.exports:
            rows += read_export(export)
    sys.stdout.write(seed_summary_markdown(current_rows(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

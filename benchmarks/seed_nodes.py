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

from cipherbench.report.seeds import seed_summary_markdown

from stored_rows import add_row_sources, rows_from


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_row_sources(parser)
    args = parser.parse_args()
    rows = rows_from(parser, args)
    sys.stdout.write(seed_summary_markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

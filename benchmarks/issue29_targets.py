"""Issue 29's targets, for BENCHMARKS.md: per Liberty library, every ASIC row of the new ciphers'
cores (design, goal, GE, MHz, cycles per block, Mbps, Kbps/GE, flip-flops) as Markdown, one table
per library; cycles are the chained-block interval of the core's smallest key. Bits per clock
per kGE (block / cycles / GE x 1000) is the node-free figure set beside published cores of other
nodes: it leaves the clock out, and GE are each library's own NAND2.

Usage: python benchmarks/issue29_targets.py --db /path/to/results.sqlite [--design 'present-*']
       python benchmarks/issue29_targets.py export.json [more exports...]
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from collections import defaultdict

from cipherbench.store import Result

from stored_rows import add_row_sources, rows_from

HEADERS = ["design", "goal", "GE", "MHz", "cycles/block", "Mbps", "Kbps/GE", "bits/clock/kGE",
           "FFs"]


def _smallest_key(result: Result) -> str:
    keys = sorted(result.cycles, key=lambda k: int(k) if k.isdigit() else 0)
    return keys[0]


def row(result: Result) -> list[str]:
    """One result's figures, formatted (``-`` where the result has none)."""
    key = _smallest_key(result)
    m = result.measurements
    by_key = (result.metrics or {}).get("by_key_size", {}).get(key, {})
    cycles = result.cycles[key].get("cycles_per_chained_block")

    def fmt(value: object, digits: int = 0) -> str:
        return "-" if value is None else f"{float(value):,.{digits}f}"  # type: ignore[arg-type]

    ge, block = m.get("gate_equivalents"), (result.metrics or {}).get("block_bits")
    per_clock = block / cycles / ge * 1000 if ge and block and cycles else None
    return [f"`{result.design}`", str(result.settings.get("goal", "-")),
            fmt(ge), fmt(m.get("fmax_mhz")), fmt(cycles),
            fmt(by_key.get("throughput_mbps"), 1), fmt(by_key.get("kbps_per_ge"), 1),
            fmt(per_clock, 3), fmt(m.get("flipflops"))]


def tables(results: list[Result], pattern: str) -> str:
    """One Markdown table per library of the ok ASIC rows whose design matches ``pattern``."""
    by_library: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        if r.ok and r.target_kind == "asic" and fnmatch.fnmatch(r.design, pattern):
            by_library[str(r.settings.get("liberty_name"))].append(r)
    out = []
    for library in sorted(by_library):
        rows = sorted(by_library[library],
                      key=lambda r: (r.design, str(r.settings.get("goal"))))
        out.append(f"### {library}\n")
        out.append("| " + " | ".join(HEADERS) + " |")
        out.append("|" + " --- |" * len(HEADERS))
        out += ["| " + " | ".join(row(r)) + " |" for r in rows]
        out.append("")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_row_sources(parser)
    parser.add_argument("--design", default="*", help="glob on the design, e.g. 'present-*'")
    args = parser.parse_args()
    rows = rows_from(parser, args)
    sys.stdout.write(tables(rows, args.design))
    return 0


if __name__ == "__main__":
    sys.exit(main())

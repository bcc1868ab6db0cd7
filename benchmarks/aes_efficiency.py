"""AES-128 iterative cores on a Liberty library: area, Fmax, throughput and Kbps/GE per variant.

Usage: python benchmarks/aes_efficiency.py [--liberty FILE] [--db FILE] [--design SPEC ...]

Runs each design through the asic flow (area- and speed-oriented synthesis) with the project's
normal study machinery (so results are cached in the database), then prints a Markdown table.
Targets (issue 2): the enc+dec core at >= 150 Kbps/GE speed-oriented on NanGate45 typ, against the
seed authors' 149 Kbps/GE (composite-field enc+dec) and 247 Kbps/GE (table, encrypt-only).
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from cipherbench.store import Store
from cipherbench.study import Study, run_study
from cipherbench.spec import parse

DEFAULT_DESIGNS = (
    "aes-128/iterative",
    "aes-128/iterative:sbox=gf-inv",
    "aes-128/iterative:sbox=composite",
    "aes-128/iterative:ops=encrypt",
    "aes-128/iterative:ops=encrypt,sbox=composite",
    "aes/iterative",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--liberty", type=Path, default=None)
    parser.add_argument("--db", type=Path, default=Path("results/benchmarks.sqlite"))
    parser.add_argument("--design", action="append", default=None)
    args = parser.parse_args()
    designs = tuple(parse(d) for d in (args.design or DEFAULT_DESIGNS))
    study = Study("aes-efficiency", designs, ("asic",), liberty=args.liberty,
                  skip_unavailable=False)
    summary = run_study(study, lambda: Store(args.db), say=lambda s: print(s, file=sys.stderr))
    print(summary.line(), file=sys.stderr)
    rows = Store(args.db).results(status="ok")
    print(f"\nAES iterative cores, asic flow ({date.today().isoformat()})\n")
    print("| design | goal | kGE | Fmax (MHz) | cycles | Mbps | Kbps/GE |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    wanted = {str(d) for d in designs}
    for row in sorted(rows, key=lambda r: (r.design, r.target)):
        if row.design not in wanted or not row.target.startswith("asic"):
            continue
        m = row.metrics
        k128 = m["by_key_size"]["128"]
        cycles = row.cycles["128"]["initiation_interval"]
        print(f"| {row.design} | {row.target.rsplit(':', 1)[-1]} | "
              f"{m['gate_equivalents'] / 1000:.1f} | {m['fmax_mhz']:.0f} | {cycles} | "
              f"{k128['throughput_mbps']:.0f} | {k128['kbps_per_ge']:.1f} |")
    return 1 if summary.errors else 0


if __name__ == "__main__":
    sys.exit(main())

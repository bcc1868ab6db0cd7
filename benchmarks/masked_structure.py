"""Masked cores synthesized with the asic flow's `structure=keep` beside the default
`restructure` (docs/architectures.md, "Synthesis of masked netlists"): area and clock per setting.

Usage: python benchmarks/masked_structure.py --liberty FILE [--goal area|speed] [--design SPEC ...]

`cipherbench run` has no switch for `structure` (no study key sets it), so this runs the asic flow
itself on the cached design (verified first, as `cipherbench run` does) with each setting and
prints a Markdown table. Nothing is stored in a results database.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from cipherbench.cache import ensure_design
from cipherbench.flows.asic import AsicFlow
from cipherbench.spec import parse
from cipherbench.verify.record import ensure_verified

DEFAULT_DESIGNS = ("aes-128/masked:width=8,shares=2",)
STRUCTURES = ("restructure", "keep")


def measure(design: str, liberty: str, structure: str, goal: str) -> dict[str, float]:
    spec = parse(design)
    folder = ensure_design(spec)
    ensure_verified(spec, folder)
    with tempfile.TemporaryDirectory(prefix="masked-structure-") as work:
        result = AsicFlow().run(folder, Path(work), {"liberty": liberty, "goal": goal,
                                                     "structure": structure, "power": False})
    return result.measurements


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--liberty", required=True)
    parser.add_argument("--goal", choices=("area", "speed"), default="area")
    parser.add_argument("--design", action="append", default=None)
    args = parser.parse_args()
    print("| design | structure | area (GE) | flip-flops | clock (MHz) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for design in args.design or DEFAULT_DESIGNS:
        for structure in STRUCTURES:
            m = measure(design, args.liberty, structure, args.goal)
            print(f"| `{design}` | {structure} | {m['gate_equivalents']:,.0f} | "
                  f"{m['flipflops']} | {m['fmax_mhz']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

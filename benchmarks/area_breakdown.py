"""Where a core's ASIC area goes, for BENCHMARKS.md and the cipher docs: the design synthesized
bottom-up onto a Liberty (each module mapped on its own, so its cells are its own), then per
module its area in the library's NAND2 gate equivalents, its flip-flops and the cell types that
make most of it; and the flat synthesis (the figure the report gives) beside it, by cell type.

The bottom-up total is a little above the flat one (nothing is optimized across modules); the
split is what it is for: flip-flops, their load multiplexers, the round, the key step, control.

Usage: python benchmarks/area_breakdown.py DESIGN [--liberty osu018] [--goal area] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from cipherbench.flows import get_flow
from cipherbench.flows.liberty import load_liberty
from cipherbench.generate import generate
from cipherbench.rtl import run_yosys_script


def _stat(rtlil: Path, liberty: Path, out: Path, log: Path) -> dict[str, dict]:
    """Yosys' per-module statistics of a mapped RTLIL netlist, areas from the Liberty."""
    run_yosys_script(f"read_rtlil {rtlil}\ntee -q -o {out} stat -json -liberty {liberty}", log)
    return json.loads(out.read_text())["modules"]


def _ge(module: dict, nand2: float) -> float:
    return float(module.get("area", 0.0)) / nand2


def report(design: str, liberty: str, goal: str, work: Path) -> str:
    library = load_liberty(liberty)
    nand2 = library.nand2.area
    design_dir = work / "design"
    generate(design, design_dir)
    lines = [f"{design} on {library.name} ({goal}), GE = area / {library.nand2.name} "
             f"({nand2:g} um2)", ""]
    for hierarchy in ("bottom-up", "flat"):
        run = work / hierarchy
        result = get_flow("asic").run(design_dir, run, {"liberty": liberty, "goal": goal,
                                                         "hierarchy": hierarchy, "power": False})
        lines.append(f"{hierarchy}: {result.measurements['gate_equivalents']:,.1f} GE, "
                     f"{result.measurements['flipflops']} flip-flops, "
                     f"{result.measurements['fmax_mhz']:.0f} MHz")
        modules = _stat(Path(result.artifacts["equivalence_netlist"]), library.path,
                        run / "modules.json", run / "modules_yosys.log")
        for name, module in sorted(modules.items(), key=lambda kv: -_ge(kv[1], nand2)):
            cells = Counter({k: int(v) for k, v in module.get("num_cells_by_type", {}).items()
                             if k in library.cells})
            ffs = sum(n for kind, n in cells.items() if kind in library.sequential_cells)
            top = ", ".join(f"{n} {kind} ({n * library.cells[kind].area / nand2:.0f} GE)"
                            for kind, n in sorted(cells.items(), key=lambda kv: -kv[1]
                                                  * library.cells[kv[0]].area)[:6])
            lines.append(f"  {name.lstrip(chr(92))}: {_ge(module, nand2):,.1f} GE, {ffs} FFs; "
                         f"{top}")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("design")
    parser.add_argument("--liberty", default="osu018")
    parser.add_argument("--goal", default="area", choices=("area", "speed"))
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    args = parser.parse_args()
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
        sys.stdout.write(report(args.design, args.liberty, args.goal, args.work) + "\n")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        sys.stdout.write(report(args.design, args.liberty, args.goal, Path(tmp)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

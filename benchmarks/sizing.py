"""What buffering and gate sizing buy on a cell library: each synthesis end with its last steps
taken away one at a time.

    python benchmarks/sizing.py [--design des/iterative ...] [--liberty osu018 ...]

The OSU kits have one or two drive strengths per function (INVX1-X8, BUFX2/X4, the rest X1 or
X2); NanGate45 has X1-X32. For each design and library the ASIC flow runs both ends as it does
(``area``: amap, buffer -p, dnsize; ``speed``: &nf -D 1, buffer -p, upsize -D 1) and with the
sizing step, then also the buffering, left out of ABC's script. Figures: gate equivalents in the
library's NAND2 and OpenSTA's critical path of the same netlist form the flow measures. Power is
off: only synthesis and timing run. Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Callable

from cipherbench.cache import ensure_design
from cipherbench.flows.asic import AREA_DNSIZE_PS, SPEED_DELAY_PS, AsicFlow, abc, abc_prepare
from cipherbench.flows.liberty import load_liberty
from cipherbench.spec import parse

# (goal, variant name, the ABC script after the preparation)
VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("area", "amap, buffer, dnsize (the flow)",
     f"&put; amap; buffer -p; dnsize -D {AREA_DNSIZE_PS}; stime -p"),
    ("area", "amap, buffer", "&put; amap; buffer -p; stime -p"),
    ("area", "amap", "&put; amap; stime -p"),
    ("speed", "&nf, buffer, upsize (the flow)",
     f"&nf -D {SPEED_DELAY_PS}; &put; buffer -p; upsize -D {SPEED_DELAY_PS}; stime -p"),
    ("speed", "&nf, buffer", f"&nf -D {SPEED_DELAY_PS}; &put; buffer -p; stime -p"),
    ("speed", "&nf", f"&nf -D {SPEED_DELAY_PS}; &put; stime -p"),
)


def _script_for(rest: str) -> Callable[[str, int | None, str], str]:
    def script(goal: str, delay_ps: int | None, structure: str = "restructure") -> str:
        return f"{abc_prepare(structure)}; {rest}"
    return script


def measure(design: str, liberty: str, work: Path) -> list[tuple[str, str, float, float]]:
    """(goal, variant, gate equivalents, critical path in ns) of every variant."""
    folder = ensure_design(parse(design))
    original = abc.abc_script
    rows = []
    try:
        for index, (goal, name, rest) in enumerate(VARIANTS):
            abc.abc_script = _script_for(rest)  # module_abc_scripts looks it up at each call
            result = AsicFlow().run(folder, work / f"v{index}",
                                    {"liberty": liberty, "goal": goal, "power": False})
            m = result.measurements
            rows.append((goal, name, float(m["gate_equivalents"]), float(m["critical_path_ns"])))
    finally:
        abc.abc_script = original
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--design", action="append", default=None)
    parser.add_argument("--liberty", action="append", default=None)
    args = parser.parse_args()
    designs = args.design or ["des/iterative", "aes-128/iterative"]
    libraries = args.liberty or ["osu018", "osu050"]
    print("| design | library | end | ABC's last steps | GE | critical path (ns) | vs the flow |")
    print("| --- | --- | --- | --- | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory(prefix="cb-sizing-") as tmp:
        for design in designs:
            for liberty in libraries:
                name = load_liberty(liberty).name
                rows = measure(design, liberty, Path(tmp) / f"{design.replace('/', '_')}-{name}")
                flow = {goal: (ge, ns) for goal, variant, ge, ns in rows if "(the flow)" in variant}
                for goal, variant, ge, ns in rows:
                    base_ge, base_ns = flow[goal]
                    delta = (f"{100 * (ge / base_ge - 1):+.1f} % GE, "
                             f"{100 * (ns / base_ns - 1):+.1f} % delay")
                    print(f"| {design} | {name} | {goal} | {variant} | {ge:,.0f} | {ns:.3f} | "
                          f"{'-' if '(the flow)' in variant else delta} |")


if __name__ == "__main__":
    main()

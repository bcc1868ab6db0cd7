"""The masked cores (issue 31) for BENCHMARKS.md: per Liberty library and synthesis goal, every
ASIC row of a `masked` design: GE, MHz, cycles per block, fresh random bits per clock and per
block, Mbps, Kbps/GE, and the area and Kbps/GE against the same structure unmasked (`shares=1`).

Usage: python benchmarks/masked_cores.py --db /path/to/results.sqlite
       python benchmarks/masked_cores.py export.json [more exports...]

Cycles per block are the initiation interval measured in simulation (through the harness);
random bits per block are what the PRNG delivers while a block occupies the core (bits per clock
x interval; the manifest's `randomness`, read from the design's generator).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from cipherbench.kinds.generated import build_core
from cipherbench.spec import parse
from cipherbench.store import Result

from stored_rows import add_row_sources, rows_from

HEADERS = ["design", "shares", "GE", "x unmasked", "MHz", "cycles/block", "rnd bits/clock",
           "rnd bits/block", "Mbps", "Kbps/GE", "FFs"]


def structure_of(design: str) -> tuple[str, str]:
    """(the design without its shares, the shares)."""
    spec = parse(design)
    params = dict(spec.param_dict)
    shares = params.pop("shares")
    head = spec.cipher + (f"-{spec.key_sizes[0]}" if spec.single_key_size else "")
    return f"{head}/masked:width={params['width']}", shares


def randomness(design: str) -> dict[str, int]:
    _core, _shape, facts = build_core(parse(design))
    return facts["randomness"]  # type: ignore[return-value]


def fmt(value: object, digits: int = 0) -> str:
    return "-" if value is None else f"{float(value):,.{digits}f}"  # type: ignore[arg-type]


def figures(result: Result) -> dict[str, float | None]:
    key = sorted(result.cycles)[0]
    by_key = (result.metrics or {}).get("by_key_size", {}).get(key, {})
    m = result.measurements
    return {"ge": m.get("gate_equivalents"), "mhz": m.get("fmax_mhz"),
            "cycles": result.cycles[key].get("initiation_interval"),
            "mbps": by_key.get("throughput_mbps"), "kbps_ge": by_key.get("kbps_per_ge"),
            "ffs": m.get("flipflops")}


def tables(results: list[Result]) -> str:
    groups: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in results:
        if r.ok and r.target_kind == "asic" and parse(r.design).arch == "masked":
            groups[(str(r.settings.get("liberty_name")), str(r.settings.get("goal")))].append(r)
    out = []
    for (library, goal), rows in sorted(groups.items()):
        unmasked = {}
        for r in rows:
            structure, shares = structure_of(r.design)
            if shares == "1":
                unmasked[structure] = figures(r)["ge"]
        out.append(f"#### {library}, {goal} goal\n")
        out.append("| " + " | ".join(HEADERS) + " |")
        out.append("|" + " --- |" * len(HEADERS))
        for r in sorted(rows, key=lambda r: structure_of(r.design)):
            structure, shares = structure_of(r.design)
            f = figures(r)
            bits = randomness(r.design)
            base = unmasked.get(structure)
            ratio = f["ge"] / base if base and f["ge"] else None
            out.append("| " + " | ".join([
                f"`{structure}`", shares, fmt(f["ge"]), fmt(ratio, 2), fmt(f["mhz"]),
                fmt(f["cycles"]), fmt(bits["bits_per_clock"]), fmt(bits["bits_per_block"]),
                fmt(f["mbps"], 1), fmt(f["kbps_ge"], 2), fmt(f["ffs"])]) + " |")
        out.append("")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_row_sources(parser)
    args = parser.parse_args()
    rows = rows_from(parser, args)
    sys.stdout.write(tables(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

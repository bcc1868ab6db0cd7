"""AES-GCM engines as measured by ``cipherbench run`` (studies/aead.toml, or ``--design``), for
BENCHMARKS.md: per library and synthesis goal, each engine's message-level figures beside its
bare block core on the same target (GCM's cost in area, clock and throughput), with the critical
path's ends, as Markdown.

Usage: python benchmarks/aead_engines.py --db results/aead.sqlite [--design 'aes-128-gcm/*']
       python benchmarks/aead_engines.py export.json [more exports...]
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys

from cipherbench.kinds.engine import parse_engine
from cipherbench.report.aead.section import LONG, LONG_BOTH, LWC_LONG
from cipherbench.report.rows import is_engine
from cipherbench.report.same_node import library_name
from cipherbench.store import Result

from stored_rows import add_row_sources, rows_from

HEADERS = ["engine", "library", "goal", "GE", "MHz", "key setup", "Gbps stream (msg; AD + msg)",
           "Gbps 5-4 blocks", "Mbps 16 / 64 / 1,536 B", "bare core: GE, MHz, Gbps", "area x",
           "clock x", "throughput x", "critical path"]


def _fig(r: Result, name: str) -> float | None:
    key = next(iter(r.metrics.get("by_key_size") or {"128": {}}))
    return (r.metrics.get("by_key_size") or {}).get(key, {}).get(name)


def _n(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _same_target(a: Result, b: Result) -> bool:
    return a.target == b.target and json.dumps(a.settings, sort_keys=True) == \
        json.dumps(b.settings, sort_keys=True)


def row(engine: Result, rows: list[Result]) -> list[str]:
    spec = parse_engine(engine.design)
    core = next((c for c in rows if c.ok and c.design == str(spec.core)
                 and _same_target(c, engine)), None)
    ge, mhz = engine.metrics.get("gate_equivalents"), engine.metrics.get("fmax_mhz")
    stream, both = _fig(engine, LONG), _fig(engine, LONG_BOTH)
    cycles = next(iter(engine.cycles.values()), {})
    short = " / ".join(_n(_fig(engine, f"throughput_mbps_enc_msg_{n}")) for n in (16, 64, 1536))
    path = (f"{engine.measurements.get('critical_path_start')} -> "
            f"{engine.measurements.get('critical_path_end')}")
    bare, ratios = "not measured", ["-"] * 3
    if core is not None:
        core_ge, core_mhz = core.metrics.get("gate_equivalents"), core.metrics.get("fmax_mhz")
        core_mbps = _fig(core, "throughput_mbps")
        bare = f"{_n(core_ge)}, {_n(core_mhz, 1)}, {_n(core_mbps / 1000 if core_mbps else None, 2)}"
        ratios = [f"{a / b:.2f}" if a and b else "-"
                  for a, b in ((ge, core_ge), (mhz, core_mhz), (stream, core_mbps))]
    return [engine.design, str(library_name(engine)), str(engine.settings.get("goal", "-")),
            _n(ge), _n(mhz, 1), str(cycles.get("key_setup", "-")),
            f"{_n(stream / 1000 if stream else None, 2)}; {_n(both / 1000 if both else None, 2)}",
            _n(_fig(engine, LWC_LONG) / 1000 if _fig(engine, LWC_LONG) else None, 2), short,
            bare, *ratios, path]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_row_sources(parser)
    parser.add_argument("--design", default="*", help="a glob over engine names")
    args = parser.parse_args()
    rows = rows_from(parser, args)
    engines = sorted((r for r in rows if r.ok and is_engine(r)
                      and fnmatch.fnmatch(r.design, args.design)),
                     key=lambda r: (str(library_name(r)), r.design,
                                    str(r.settings.get("goal"))))
    if not engines:
        print("no engine rows", file=sys.stderr)
        return 1
    print("| " + " | ".join(HEADERS) + " |")
    print("|" + " --- |" * len(HEADERS))
    for engine in engines:
        print("| " + " | ".join(row(engine, rows)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

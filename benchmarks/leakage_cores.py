"""The leakage assessment of the masked cores (issue 31): the t-test on one million traces of the
8-bit masked AES timed, each core's verdict at the trace counts run, and how many traces the
unprotected and broken cores take to fail.

Usage: python benchmarks/leakage_cores.py million [--design SPEC] [--traces N]
       python benchmarks/leakage_cores.py verdicts [--design SPEC ...] [--traces N]
                                          [--probe-traces M] [--db DB]
       python benchmarks/leakage_cores.py failures [--design SPEC ...] [--max-traces N]
                                          [--max-probe-traces M]

- ``million``: the whole assessment of ``aes-128/masked:width=8,shares=2`` (default) cold, in a
  private cache: synthesis to gates (``keep``), the native simulator's compilation, the check of
  64 traces against the model, and the t-test on N = 1,000,000 traces over every clock of the
  block (286), with traces per second; the issue's target is under an hour.
- ``verdicts``: ``cipherbench leakage``'s assessment of each design at N t-test traces and M
  probing traces, printed as a Markdown table; with ``--db`` each row is stored as the command
  stores it (so ``cipherbench report --db DB`` shows the leakage section).
- ``failures``: per design, the t-test in batches of 256 traces up to ``--max-traces`` (the
  traces after which |t| first passed 4.5, at that resolution) and probing at 250, 500, 1000,
  ... traces up to ``--max-probe-traces`` (the first count whose verdict is a leak).

The tests check what the assessment decides (tests/test_leakage_cores.py), never how fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cipherbench.cache import ensure_design
from cipherbench.leakage import read_netlist, synthesize_netlist
from cipherbench.leakage.core import CoreAssessment, assess_core
from cipherbench.leakage.native import compile_netlist
from cipherbench.leakage.record import leakage_result, leakage_settings
from cipherbench.spec import parse

MILLION_DESIGN = "aes-128/masked:width=8,shares=2"
MASKED = ["present-80/masked:shares=2", "present-80/masked:shares=3", "sm4-128/masked:shares=2",
          "gift-128/masked:shares=2", "gift-128/masked:shares=3",
          "aes-128/masked:width=8,shares=2", "aes-128/masked:width=8,shares=3",
          "aes-128/masked:width=64,shares=2", "aes-128/masked:width=128,shares=2"]
BROKEN = ["present-80/masked:shares=1", "present-80/masked:flaw=register",
          "present-80/masked:flaw=reuse",
          "gift-128/masked:shares=1", "gift-128/masked:flaw=register", "gift-128/masked:flaw=reuse",
          "aes-128/masked:shares=1", "aes-128/masked:flaw=register", "aes-128/masked:flaw=reuse"]
FAILURE_BATCH = 256
FIRST_PROBE_TRACES = 250


def million(design: str, traces: int) -> None:
    """The whole assessment, cold: every step in a private cache, timed."""
    folder = ensure_design(parse(design))
    print(f"{design}: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as cache:
        previous = os.environ.get("CIPHERBENCH_CACHE")
        os.environ["CIPHERBENCH_CACHE"] = cache
        try:
            start = time.monotonic()
            netlist = read_netlist(synthesize_netlist(folder, "keep"))
            synthesis = time.monotonic() - start
            start = time.monotonic()
            compile_netlist(netlist)
            compiled = time.monotonic() - start
            start = time.monotonic()
            result = assess_core(folder, traces, 0, netlist=netlist, backend="native")
            whole = time.monotonic() - start
        finally:
            if previous is None:
                del os.environ["CIPHERBENCH_CACHE"]
            else:
                os.environ["CIPHERBENCH_CACHE"] = previous
    assert result.tvla is not None
    print(f"synthesis (keep): {synthesis:.1f} s; native library compiled: {compiled:.1f} s "
          f"(cold); {len(netlist.gates)} gates, {len(netlist.registers)} flip-flops, "
          f"{result.power_nets} nets in the power sample")
    print(f"check and t-test on {traces:,} traces x {result.core.clocks} clocks: {whole:.1f} s "
          f"(t-test {result.tvla_seconds:.1f} s = {result.tvla_rate():,.0f} traces/s, "
          f"{traces * result.core.clocks / result.tvla_seconds / 1e6:.2f} M trace-clocks/s)")
    print(f"all of it cold: {synthesis + compiled + whole:.1f} s")
    print("\n".join(result.summary_lines()))


def verdict_row(result: CoreAssessment) -> list[str]:
    tvla, probing = result.tvla, result.probing
    cells = [f"`{result.core.design}`", f"{result.gates:,} / {result.flip_flops:,}",
             str(result.core.clocks)]
    if tvla is not None:
        cells += [f"{tvla.traces:,}", f"{tvla.max_abs_t:.2f} (clock {tvla.at_sample})",
                  f"{result.tvla_rate():,.0f}"]
    else:
        cells += ["-"] * 3
    if probing is not None:
        worst = probing.worst
        cells += [f"{probing.traces:,}", f"{len(probing.tests):,}",
                  f"{worst.minus_log10_p:.1f} / {probing.threshold:.1f}" if worst else "-",
                  f"{result.probing_seconds:.0f}"]
    else:
        cells += ["-"] * 4
    cells.append("**pass**" if result.passes else "**FAIL**")
    return cells


VERDICT_HEADERS = ["design", "gates / FFs", "clocks", "t-test traces", "max |t|", "traces/s",
                   "probing traces", "tests", "max -log10 p / threshold", "probing s", "verdict"]


def verdicts(designs: list[str], traces: int, probe_traces: int, db: str | None) -> None:
    rows = []
    for design in designs:
        spec = parse(design)
        folder = ensure_design(spec)
        result = assess_core(folder, traces, probe_traces)
        print("\n".join(result.summary_lines()), flush=True)
        rows.append(verdict_row(result))
        if db:
            from cipherbench.store import Store

            with Store(db) as store:
                store.put(leakage_result(spec, result, leakage_settings(result)))
    print(markdown(VERDICT_HEADERS, rows))


def probing_failure(folder: Path, netlist: Any, cap: int) -> tuple[int | None, float]:
    """The first of 250, 500, 1000, ... probing traces whose verdict is a leak."""
    count, worst = FIRST_PROBE_TRACES, 0.0
    while count <= cap:
        result = assess_core(folder, 0, count, netlist=netlist)
        assert result.probing is not None
        worst = result.probing.worst.minus_log10_p if result.probing.worst else 0.0
        if result.probing.leaks:
            return count, worst
        count *= 2
    return None, worst


def failures(designs: list[str], max_traces: int, max_probe_traces: int) -> None:
    rows = []
    for design in designs:
        folder = ensure_design(parse(design))
        netlist = read_netlist(synthesize_netlist(folder, "keep"))
        result = assess_core(folder, max_traces, 0, netlist=netlist, batch=FAILURE_BATCH)
        assert result.tvla is not None
        first = result.tvla.first_leak()
        probe_count, worst = probing_failure(folder, netlist, max_probe_traces)
        rows.append([f"`{design}`",
                     f"{first:,}" if first else f"none in {max_traces:,}",
                     f"{result.tvla.max_abs_t:.1f} (clock {result.tvla.at_sample})",
                     f"{probe_count:,}" if probe_count else f"none in {max_probe_traces:,}",
                     f"{worst:.1f}"])
        print(" | ".join(rows[-1]), flush=True)
    print(markdown(["design", "t-test fails after (traces)", f"max |t| at {max_traces:,}",
                    "probing fails at (traces)", "-log10 p there"], rows))


def markdown(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("million")
    one.add_argument("--design", default=MILLION_DESIGN)
    one.add_argument("--traces", type=int, default=1_000_000)
    many = sub.add_parser("verdicts")
    many.add_argument("--design", dest="designs", action="append")
    many.add_argument("--traces", type=int, default=1_000_000)
    many.add_argument("--probe-traces", type=int, default=100_000)
    many.add_argument("--db", default=None)
    broken = sub.add_parser("failures")
    broken.add_argument("--design", dest="designs", action="append")
    broken.add_argument("--max-traces", type=int, default=100_000)
    broken.add_argument("--max-probe-traces", type=int, default=16_000)
    args = parser.parse_args()
    if args.what == "million":
        million(args.design, args.traces)
    elif args.what == "verdicts":
        verdicts(args.designs or MASKED, args.traces, args.probe_traces, args.db)
    else:
        failures(args.designs or BROKEN, args.max_traces, args.max_probe_traces)
    return 0


if __name__ == "__main__":
    sys.exit(main())

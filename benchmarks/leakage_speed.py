"""How fast the leakage simulator and a whole t-test campaign run on a 5-10 kGE core (issue 31).

Usage: python benchmarks/leakage_speed.py [--design SPEC] [--traces N] [--clocks C]
                                          [--numpy-traces N] [--threads T ...]
                                          [--probe-scope INSTANCE] [--probe-traces N]

Default: sm4-128/iterative:ops=encrypt, synthesized with the leakage flow's ``keep`` structure
(7,314 Yosys gates and 394 flip-flops, about the size of the issue's 8-bit masked AES), 300
clocks as that core's block takes. Prints, each measured separately:

- the gate netlist's size and the native library's compile time (in a private cache);
- the simulation alone (inputs given as ready planes, alternating between two random sets so
  that they switch), power on every net, for the numpy and the native back ends, in
  trace-clocks per second, with 1 and 2 threads;
- a whole fixed-versus-random campaign (assess): key loaded at clock 1, the secret block at
  clock 2, then a fresh random block on every clock (so the core encrypts back to back and its
  128-bit input is driven like a masked core's randomness), the t-test accumulated online;
- the projection for one million traces of a 7 kGE, 300-clock core from the campaign's rate;
- glitch-extended probing of one instance (``--probe-scope``, default the SM4 core's round) at
  two clocks.

The tests check what the simulator computes (tests/test_leakage_sim.py), never how fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cipherbench.cache import ensure_design
from cipherbench.leakage import (
    MaskedDriver,
    Planes,
    ProbeSelection,
    Secret,
    TraceSimulator,
    assess,
    read_netlist,
)
from cipherbench.leakage.driver import uniform_planes
from cipherbench.leakage.native import compile_netlist
from cipherbench.leakage.simulate import words_for
from cipherbench.leakage.synthesis import synthesize_netlist
from cipherbench.spec import parse

TARGET_GATES, TARGET_CLOCKS, TARGET_TRACES = 7000, 300, 1_000_000


def simulation_rate(simulator: TraceSimulator, traces: int, clocks: int, threads: int) -> float:
    """Trace-clocks per second of the simulation alone."""
    netlist = simulator.netlist
    rng = np.random.default_rng(1)
    words = words_for(traces, 8)
    sets = [{port: Planes(uniform_planes(rng, len(bits), words))
             for port, bits in netlist.inputs.items() if port != "rst"} for _ in range(2)]
    stimulus = [{**sets[c % 2], "rst": int(c == 0)} for c in range(clocks)]
    start = time.monotonic()
    simulator.run(traces, clocks, stimulus, threads=threads)
    return traces * clocks / (time.monotonic() - start)


def campaign_driver() -> MaskedDriver:
    """Reset at clock 0, the key at 1, the secret block at 2; a fresh random block at every
    other clock, offered all the time (in_valid stays high)."""
    key = 0x0123456789ABCDEFFEDCBA9876543210

    def schedule(clock: int, secrets: dict[str, Planes]) -> dict:
        if clock == 0:
            return {"rst": 1}
        if clock == 1:
            return {"rst": 0, "key": key, "key_valid": 1, "key_len": 16, "out_ready": 1}
        if clock == 2:
            return {"key_valid": 0, "in_block": secrets["block"], "in_valid": 1}
        return {}

    return MaskedDriver([Secret("block", 128, fixed=0)], randomness=("in_block",),
                        schedule=schedule)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--design", default="sm4-128/iterative:ops=encrypt")
    parser.add_argument("--traces", type=int, default=100_000, help="campaign traces")
    parser.add_argument("--clocks", type=int, default=TARGET_CLOCKS)
    parser.add_argument("--numpy-traces", type=int, default=4096)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--probe-scope", default="datapath.round",
                        help="instance probed in the probing measurement ('' for none)")
    parser.add_argument("--probe-traces", type=int, default=20_000)
    args = parser.parse_args()

    design = ensure_design(parse(args.design))
    netlist = read_netlist(synthesize_netlist(design, "keep"))
    gates = len(netlist.gates)
    print(f"{args.design}: {gates} gates, {len(netlist.registers)} flip-flops, "
          f"{len(netlist.design_nets())} nets in the power sample, "
          f"{sum(len(b) for b in netlist.inputs.values())} input bits; {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as cache:
        previous = os.environ.get("CIPHERBENCH_CACHE")
        os.environ["CIPHERBENCH_CACHE"] = cache
        start = time.monotonic()
        compile_netlist(netlist)
        print(f"native library compiled in {time.monotonic() - start:.1f} s (cold)")
        clocks = args.clocks
        numpy_rate = simulation_rate(TraceSimulator(netlist, backend="numpy"), args.numpy_traces,
                                     clocks, 1)
        print(f"simulation alone, numpy:  {numpy_rate / 1e3:8.0f} k trace-clocks/s "
              f"({args.numpy_traces} traces x {clocks} clocks)")
        native = TraceSimulator(netlist, backend="native")
        for threads in args.threads:
            rate = simulation_rate(native, 16384, clocks, threads)
            print(f"simulation alone, native, {threads} thread(s): {rate / 1e6:6.1f} M "
                  f"trace-clocks/s (16384 traces x {clocks} clocks)")
        for threads in args.threads:
            start = time.monotonic()
            result = assess(netlist, campaign_driver(), args.traces, clocks, threads=threads,
                            seed=1)
            seconds = time.monotonic() - start
            rate = args.traces * clocks / seconds
            projected = TARGET_TRACES * TARGET_CLOCKS / rate * TARGET_GATES / gates
            print(f"campaign, {threads} thread(s): {args.traces} traces x {clocks} clocks in "
                  f"{seconds:.1f} s = {rate / 1e6:.2f} M trace-clocks/s; "
                  f"{result.tvla.summary()}")
            print(f"  projected: {TARGET_TRACES:,} traces x {TARGET_CLOCKS} clocks of a "
                  f"{TARGET_GATES} gate core: {projected / 60:.1f} min")
        if args.probe_scope:
            selection = ProbeSelection(scope=args.probe_scope, clocks=(3, 4))
            start = time.monotonic()
            result = assess(netlist, campaign_driver(), args.probe_traces, 5, tvla=False,
                            probes=selection, seed=1)
            seconds = time.monotonic() - start
            probing = result.probing
            print(f"probing {args.probe_scope!r} at clocks 3 and 4: {args.probe_traces} traces in "
                  f"{seconds:.1f} s, {len(probing.tests)} tests "
                  f"({sum(t.sparse for t in probing.tests)} sparse); {probing.summary()[:120]}")
        if previous is None:
            del os.environ["CIPHERBENCH_CACHE"]
        else:
            os.environ["CIPHERBENCH_CACHE"] = previous
    return 0


if __name__ == "__main__":
    sys.exit(main())

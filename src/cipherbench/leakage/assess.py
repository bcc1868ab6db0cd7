"""One fixed-versus-random campaign feeding both checks: the traces of each batch are simulated
once, their power samples go to the t-test and their recorded signals to the probing test.

    from cipherbench.leakage import MaskedDriver, ProbeSelection, Secret, assess, read_netlist

    netlist = read_netlist(synthesize_netlist(design_dir))
    driver = MaskedDriver([Secret("a", 1, fixed=0), Secret("b", 1, fixed=0)],
                          shares={"a": ("a0", "a1"), "b": ("b0", "b1")}, randomness=("r",))
    result = assess(netlist, driver, traces=5000, clocks=4, probes=ProbeSelection())
    print(result.summary())   # result.tvla, result.probing; result.to_json()
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import CipherbenchError
from .driver import MaskedDriver
from .netlist import Netlist
from .probing import ProbeSelection, Probing, ProbingResult
from .simulate import TraceSimulator
from .tvla import Tvla, TvlaResult

BATCH_BYTES = 64 << 20  # samples and recorded signals of one batch
MAX_BATCH = 65536


@dataclass
class Assessment:
    """The two checks' results and how they were made."""

    design: str
    traces: int
    clocks: int
    seed: int
    batch: int
    backend: str
    power_nets: int
    weights: str
    tvla: TvlaResult | None
    probing: ProbingResult | None

    @property
    def leaks(self) -> bool:
        return bool((self.tvla and self.tvla.leaks) or (self.probing and self.probing.leaks))

    def summary(self) -> str:
        lines = [f"{self.design}: {self.traces} traces x {self.clocks} clocks (seed {self.seed})"]
        lines += [r.summary() for r in (self.tvla, self.probing) if r is not None]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in ("design", "traces", "clocks", "seed", "batch",
                                              "backend", "power_nets", "weights")}
        data["tvla"] = self.tvla.to_dict() if self.tvla else None
        data["probing"] = self.probing.to_dict() if self.probing else None
        data["leaks"] = self.leaks
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)


def batch_size(clocks: int, input_bits: int, recorded_bits_per_trace: int, tvla: bool) -> int:
    """Traces per batch: a multiple of 512 (one native block) within BATCH_BYTES for the
    power samples, the recorded signals and the inputs (as if every input were set at every
    clock, which the native back end holds for the whole batch)."""
    per_trace = (4 * clocks if tvla else 0) + (recorded_bits_per_trace + clocks * input_bits) / 8
    size = int(BATCH_BYTES / per_trace) // 512 * 512
    return max(512, min(MAX_BATCH, size))


def assess(netlist: Netlist, driver: MaskedDriver, traces: int, clocks: int, *,
           tvla: bool = True, probes: ProbeSelection | None = None,
           power_nets: Sequence[int] | None = None, weights: str | Sequence[int] = "unit",
           seed: int = 0, batch: int | None = None, backend: str = "auto",
           threads: int = 1) -> Assessment:
    """Simulate ``traces`` traces of ``clocks`` clocks, each in the fixed or random group, and
    run the t-test on their power samples (``tvla``) and the probing test on the wires
    ``probes`` selects (None: no probing). ``power_nets``/``weights``: the power model
    (simulate.TraceSimulator). Reproducible for the same seed and batch size."""
    if not tvla and probes is None:
        raise CipherbenchError("nothing to assess: ask for tvla, probes or both")
    driver.check(netlist)
    simulator = TraceSimulator(netlist, power_nets=power_nets if tvla else [], weights=weights,
                          backend=backend)
    probing = Probing(netlist, probes, clocks) if probes is not None else None
    record_nets = probing.record_nets if probing else ()
    record_clocks = probing.record_clocks if probing else ()
    input_bits = sum(len(bits) for bits in netlist.inputs.values())
    size = batch or batch_size(clocks, input_bits, len(record_nets) * len(record_clocks), tvla)
    test = Tvla(clocks) if tvla else None
    rng = np.random.default_rng(seed)
    done = 0
    while done < traces:
        count = min(size, traces - done)
        drawn = driver.batch(rng, count)
        result = simulator.run(count, clocks, driver.stimulus(netlist, drawn, rng),
                               record_nets=record_nets, record_clocks=record_clocks,
                               threads=threads)
        if test is not None:
            test.add(result.power, drawn.random_group)
        if probing is not None:
            probing.add(result, drawn.random_group)
        done += count
    return Assessment(
        design=netlist.top, traces=traces, clocks=clocks, seed=seed, batch=size,
        backend=simulator.backend, power_nets=len(simulator.power_nets),
        weights=weights if isinstance(weights, str) else "given",
        tvla=test.result() if test else None, probing=probing.result() if probing else None)

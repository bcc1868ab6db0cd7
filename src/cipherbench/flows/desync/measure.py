"""What a de-synchronized core is verified on and measured from: timed simulation only.

There is no clock period to assume, so every figure comes from a timed run of the core driven by
its environment (replay.py):

- verification: the design's known-answer sets (a spread of each), random blocks against the
  model and the independent oracle, key changes and the constant-time set, through
  verify/designs.py as for every core, plus the cycle-by-cycle comparison with the synchronous
  core; a failure of either raises, and nothing is stored;
- ``stream``: one key, then blocks offered back to back: latency of the first block (from the
  cycle it is taken to the cycle its result is read) and throughput over the rest;
- ``chained``: each block the previous result (a feedback mode such as CBC);
- the mean time of a cycle in the stream: the core's effective clock (``fmax_mhz``), so that the
  derived figures (metrics.py) read the same as a clocked core's;
- power from the stream's simulated activity (every net's transitions, glitches included, over
  the stream's steady part), and the idle experiment: a burst of blocks, then the core idle as
  long, its average power over both against the same burst alone.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ...errors import CipherbenchError
from ...verify.sim import BlockOp, ChainOp, KeyOp, Op
from .power import desync_power
from .replay import RESET_CYCLES, Replay, TimedSimulator
from .workload import stream_ops

METHOD = "timed gate-level simulation (OpenSTA SDF, Icarus)"


def measure_desync(design_dir: Path, built: dict[str, Any], library: Any,
                   settings: dict[str, Any], work: Path,
                   reference: tuple[Path, str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The core's figures, and the record of its timed verification (as provenance keeps a
    netlist's check: jobs/netlist_check.py). ``reference``: (netlist, top, clock) of the
    synchronous netlist the core was made from."""
    from ...spec import parse
    from ...verify.designs import verify_design

    manifest = json.loads((design_dir / "manifest.json").read_text())
    spec = parse(manifest["canonical"])
    assembled = built["assembled"]
    sim = TimedSimulator(design_dir, library, built["netlist"], assembled.top, built["sdf"],
                         assembled.data_inputs, assembled.data_outputs, work / "timed",
                         reference=reference, ties=settings.get("ties") or {})
    report = verify_design(spec, design_dir, simulator=sim,
                           random_blocks=int(settings["random_blocks"]), key_change_blocks=8,
                           constant_time_keys=2,
                           known_answer_per_set=int(settings["known_answer_per_set"]))
    departures = [m for replay in sim.replays for m in replay.mismatches]
    if report.failed or departures:
        first = "; ".join(report.first_failures()[:1] + departures[:1])
        raise CipherbenchError(f"the de-synchronized netlist of {spec} fails in timed "
                               f"simulation ({report.failed} results wrong, {len(departures)} "
                               f"cycles unlike the synchronous core's: {first})")
    figures: dict[str, Any] = {
        "timed_verification_passed": report.passed,
        "timed_verification_sets": len(report.sets),
    }
    figures.update(_area(built, library))
    stream = _stream(sim, spec, manifest, int(settings["stream_blocks"]))
    figures.update(stream)
    figures.update(_chained(sim, spec, manifest))
    if settings.get("power", True):
        figures.update(desync_power(sim, spec, manifest, built, library, work))
    check = {"method": METHOD, "passed": report.passed, "failed": report.failed,
             "known_answer_per_set": int(settings["known_answer_per_set"]),
             "cycles_compared": sum(len(r.outputs) for r in sim.replays),
             "sets": report.as_dict()["sets"]}
    return figures, check


def _area(built: dict[str, Any], library: Any) -> dict[str, Any]:
    assembled = built["assembled"]
    total = sum(assembled.area_um2.values())
    out: dict[str, Any] = {
        "area_um2": round(total, 4),
        "gate_equivalents": round(total / library.nand2.area, 2),
        "cells": sum(assembled.cells.values()),
        "banks": len(built["graph"].banks),
        "registers": built["registers"],
        "flipflops_replaced": built["flipflops"],
        "pulse_stages": built["pulse_stages"],
        "matched_delay_stages": sum(built["stages"].values()),
    }
    for part, area in assembled.area_um2.items():
        out[f"area_{part}_um2"] = area
        out[f"gate_equivalents_{part}"] = round(area / library.nand2.area, 2)
    return out


def _time(replay: Replay, cycle: int) -> float:
    """When the testbench read cycle ``cycle`` (counted from reset release, as the design
    testbench counts), in ps."""
    return replay.times_ps[cycle + RESET_CYCLES]


def _stream(sim: TimedSimulator, spec: Any, manifest: dict[str, Any],
            blocks: int) -> dict[str, Any]:
    """The stream with a streaming environment (the core's own rate: ``fmax_mhz``,
    ``throughput_stream_mbps``), and again with a reactive one (``throughput_reactive_mbps``:
    what an environment that reads each cycle's outputs before its next inputs gets); latency
    from the reactive run, where the first block meets an idle core and an environment that
    waits for it."""
    block_bits = int(manifest["block_bits"])
    ops = stream_ops(spec, block_bits // 8, blocks)
    figures = _stream_run(sim, ops, block_bits, "stream")
    reactive = _stream_run(sim, ops, block_bits, "reactive")
    figures["latency_stream_ns"] = figures["latency_ns"]
    figures["latency_ns"] = reactive["latency_ns"]
    figures["throughput_reactive_mbps"] = reactive["throughput_stream_mbps"]
    figures["cycle_reactive_ns"] = reactive["cycle_ns"]
    return figures


def _stream_run(sim: TimedSimulator, ops: list[Op], block_bits: int,
                environment: str) -> dict[str, Any]:
    trace = sim.run(ops, environment=environment)
    replay = sim.replays[-1]
    block_ops = [i for i, op in enumerate(ops) if isinstance(op, BlockOp)]
    first, last = block_ops[0], block_ops[-1]
    accepted = trace.block_accept[first][0]
    out_first, out_last = trace.block_output[first], trace.block_output[last]
    latency_ps = _time(replay, out_first) - _time(replay, accepted)
    span_ps = _time(replay, out_last) - _time(replay, out_first)
    cycles = out_last - out_first
    if cycles <= 0 or span_ps <= 0:
        raise CipherbenchError("the stream gave no two results to time the core by")
    cycle_ps = span_ps / cycles
    throughput = block_bits * (len(block_ops) - 1) / span_ps * 1e6  # bits/ps -> Mbps
    return {
        "latency_ns": round(latency_ps / 1000.0, 4),
        "latency_cycles": out_first - accepted,
        "throughput_stream_mbps": round(throughput, 3),
        "cycle_ns": round(cycle_ps / 1000.0, 4),
        # The effective clock: what metrics.py derives every time and throughput from.
        "fmax_mhz": round(1e6 / cycle_ps, 3),
        "critical_path_ns": round(cycle_ps / 1000.0, 4),
        "stream_blocks": len(block_ops),
    }



def _chained(sim: TimedSimulator, spec: Any, manifest: dict[str, Any]) -> dict[str, Any]:
    block_bits = int(manifest["block_bits"])
    rng = random.Random(2031)
    count = 8
    decrypt = spec.param_dict.get("ops") == "decrypt"
    ops: list[Op] = [KeyOp(rng.randbytes(max(spec.key_sizes) // 8)),
                     ChainOp(rng.randbytes(block_bits // 8), decrypt=decrypt, count=count)]
    trace = sim.run(ops)
    replay = sim.replays[-1]
    accepts = trace.block_accept[1]
    span_ps = _time(replay, trace.block_output[1]) - _time(replay, accepts[0])
    return {"throughput_chained_mbps": round(block_bits * count / span_ps * 1e6, 3),
            "time_per_chained_block_ns": round(span_ps / count / 1000.0, 4)}


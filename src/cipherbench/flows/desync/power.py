"""Power of a de-synchronized core from its timed simulation's activity.

The stream workload is simulated again with a VCD of every net of the core, over its steady
part (first block taken to last result). Each net's transitions in that window, glitches
included (the simulation is timed: what a zero-delay simulation cannot show), and its share of
time at 1 are annotated on every pin of the net; OpenSTA then reports internal, switching and
leakage power against a virtual clock whose period is the window's mean cycle, so that an
activity is "transitions per cycle" as OpenSTA expects.

The idle experiment (Papaefstathiou et al. section 4.2.2: a synchronous core driven at 50 %
load, 16 blocks busy then 16 block-times idle, kept 171 mW where its asynchronous counterpart fell
to 13 mW): the same burst of blocks, then the environment offers nothing for as long as the
burst took; the core's mean power over both halves. A de-synchronized core does nothing while no
token comes; what it consumes then is its leakage.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...errors import CipherbenchError, ToolFailed
from ...verify.sim import BlockOp, Op, SimTrace
from .replay import RESET_CYCLES, TimedSimulator
from .workload import stream_ops

IDLE_BLOCKS = 16  # Papaefstathiou et al.: 16 blocks busy, then as long idle


def desync_power(sim: TimedSimulator, spec: Any, manifest: dict[str, Any], built: dict[str, Any],
                 library: Any, work: Path) -> dict[str, Any]:
    block_bits = int(manifest["block_bits"])
    ops = stream_ops(spec, block_bits // 8, IDLE_BLOCKS)
    # The streaming environment: the core busy at its own rate (measure.py).
    probe = sim.run(ops, environment="stream")
    start, end = steady_window(probe, ops)
    sim.run(ops, vcd_window=(start, end), environment="stream")
    replay = sim.replays[-1]
    t0, t1 = replay.times_ps[start], replay.times_ps[end]
    busy = _window_power(replay.vcd, t0, t1, end - start, built, library, work, "busy")
    # The same burst, then idle as long as it took: the mean over both.
    idle_ps = t1 - t0
    sim.run(ops, vcd_window=(start, end + 1), idle_after=end, idle_ns=idle_ps / 1000.0,
            environment="stream")
    idle_replay = sim.replays[-1]
    both = _window_power(idle_replay.vcd, idle_replay.times_ps[start],
                         idle_replay.times_ps[start] + 2 * idle_ps, end - start, built,
                         library, work, "idle")
    return {
        "power_mw": busy["total"], "power_internal_mw": busy["internal"],
        "power_switching_mw": busy["switching"], "power_leakage_mw": busy["leakage"],
        "power_clock_mhz": round(1e6 * (end - start) / (t1 - t0), 3),
        "power_cycles_simulated": end - start,
        "power_half_idle_mw": both["total"],
        "power_idle_blocks": IDLE_BLOCKS,
    }


def steady_window(trace: SimTrace, ops: list[Op]) -> tuple[int, int]:
    """The stream's cycles from the first block taken to the last result (replay rows)."""
    block_ops = [i for i, op in enumerate(ops) if isinstance(op, BlockOp)]
    start = trace.block_accept[block_ops[0]][0] + RESET_CYCLES
    end = trace.block_output[block_ops[-1]] + RESET_CYCLES
    return start, end


def _window_power(vcd: Path | None, t0_ps: float, t1_ps: float, cycles: int,
                  built: dict[str, Any], library: Any, work: Path, label: str) -> dict[str, float]:
    if vcd is None or not vcd.is_file():
        raise ToolFailed("the timed simulation wrote no VCD to measure power from")
    rates = net_activity(vcd, t0_ps, t1_ps)
    if not rates:
        raise CipherbenchError("no net changed in the timed simulation's power window")
    from .energy import netlist_power, power_library, read_instances, spef_wire_caps

    volts = _kit_volts(library)
    lib_power = power_library(library.path, volts)
    instances = read_instances(Path(built["netlist"]), lib_power)
    outputs = {name: {p.name for p in cell.outputs()} for name, cell in library.cells.items()}
    toggles = {net: count for net, (count, _duty) in rates.items()}
    wires = spef_wire_caps(Path(built["spef"])) if built.get("spef") else None
    return netlist_power(instances, lib_power, toggles, (t1_ps - t0_ps) * 1e-12, outputs, wires)


def _kit_volts(library: Any) -> float | None:
    """A built-in kit's supply (its Liberty's tables are characterized there); None: the
    Liberty's own nom_voltage."""
    from ..libraries import KITS

    for kit in KITS.values():
        if library.name.startswith(kit.name.replace("osu050", "osu05")):
            return kit.volts
    return None


def net_activity(vcd: Path, t0_ps: float, t1_ps: float) -> dict[str, tuple[int, float]]:
    """Per net of the core's own scope: transitions between 0 and 1 in [t0, t1] and the share
    of that time at 1 (Icarus VCD, timescale 1 ps)."""
    codes: dict[str, list[str]] = {}
    scale = 1.0
    depth = 0
    state: dict[str, str] = {}
    since: dict[str, float] = {}
    high: dict[str, float] = {}
    toggles: dict[str, int] = {}
    time = 0.0
    with open(vcd) as fh:
        for raw in fh:
            line = raw.strip()
            if not line:
                continue
            head = line[0]
            if head == "$":
                if line.startswith("$timescale"):
                    scale = _timescale_ps(line, fh)
                elif line.startswith("$scope"):
                    depth += 1
                elif line.startswith("$upscope"):
                    depth -= 1
                elif line.startswith("$var") and depth == 2:
                    parts = line.split()
                    if parts[2] == "1":
                        codes.setdefault(parts[3], []).append(parts[4])
                continue
            if head == "#":
                time = int(line[1:]) * scale
                continue
            if head in "01xz" and len(line) > 1:
                code, value = line[1:], head
                if code not in codes:
                    continue
                old = state.get(code)
                if old == "1":
                    high[code] = high.get(code, 0.0) + _overlap(since.get(code, 0.0), time,
                                                                t0_ps, t1_ps)
                if old in ("0", "1") and value in ("0", "1") and old != value \
                        and t0_ps <= time <= t1_ps:
                    toggles[code] = toggles.get(code, 0) + 1
                state[code], since[code] = value, time
    for code, value in state.items():
        if value == "1":
            high[code] = high.get(code, 0.0) + _overlap(since.get(code, 0.0), t1_ps, t0_ps, t1_ps)
    span = max(t1_ps - t0_ps, 1e-9)
    out: dict[str, tuple[int, float]] = {}
    for code, names in codes.items():
        for name in names:
            out[name] = (toggles.get(code, 0), min(1.0, high.get(code, 0.0) / span))
    return out


def _timescale_ps(line: str, fh: Any) -> float:
    text = line
    while "$end" not in text:
        text += " " + next(fh).strip()
    match = re.search(r"(\d+)\s*(s|ms|us|ns|ps|fs)", text)
    if match is None:
        return 1.0
    factor = {"s": 1e12, "ms": 1e9, "us": 1e6, "ns": 1e3, "ps": 1.0, "fs": 1e-3}[match.group(2)]
    return int(match.group(1)) * factor


def _overlap(a: float, b: float, t0: float, t1: float) -> float:
    return max(0.0, min(b, t1) - max(a, t0))

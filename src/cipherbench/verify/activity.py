"""Switching activity of a gate-level netlist under a stated workload (power from activity).

Two workloads (Papaefstathiou section 5: the core busy, then busy half of the time):

- ``stream``: one key, then random blocks offered back to back (an iterative core computes all
  the time, a pipeline takes one block per clock);
- ``half``: the same blocks offered every 2 x II clocks (II: the core's initiation interval), so
  the core works 50 % of the time (an iterative core computes a block, then waits as long; a
  pipeline runs half full).

The netlist (``FlowResult.artifacts["sim_netlist"]``) is simulated by the common testbench with a
VCD of the design's top-level nets, whose names are the power netlist's. For each bit of each net
the activity is its transitions per clock and its duty the share of time it is 1, counted from
the first block offered to the end of the run (zero-delay simulation: no glitches, which a
timing-aware simulation would add).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from ..arch.loaded import CORE_INSTANCE
from ..errors import ToolFailed
from ..spec import DesignSpec
from .netlist import netlist_design
from .sim import BlockOp, IdleOp, KeyOp, Op, Simulator

WORKLOADS = ("stream", "half")
BLOCKS = 64


@dataclass
class Activity:
    """Per (net, bit): transitions per clock and the share of clocks at 1, over ``cycles``."""

    rates: dict[tuple[str, int], tuple[float, float]]
    cycles: int


def workload_ops(spec: DesignSpec, workload: str, interval: int, seed: int = 2026,
                 blocks: int = BLOCKS) -> list[Op]:
    """A random key of the largest size, then ``blocks`` random encryptions (decryptions for a
    decrypt-only core); ``half`` offers one every 2 x ``interval`` clocks (the idle starts on the
    clock after the block is taken)."""
    if workload not in WORKLOADS:
        raise ValueError(f"workload {workload!r}; valid: {', '.join(WORKLOADS)}")
    rng = random.Random(seed)
    key_bytes = max(spec.key_sizes) // 8
    decrypt = spec.param_dict.get("ops") == "decrypt"
    from ..ciphers.registry import ciphers

    block_bytes = ciphers()[spec.cipher].block_bits // 8
    ops: list[Op] = [KeyOp(rng.randbytes(key_bytes))]
    for _ in range(blocks):
        ops.append(BlockOp(rng.randbytes(block_bytes), decrypt=decrypt))
        if workload == "half":
            ops.append(IdleOp(2 * interval - 1))
    return ops


def simulate_activity(spec: DesignSpec, design_dir: Path, sim_netlist: Path, work: Path,
                      workload: str, interval: int) -> Activity:
    """Run ``workload`` on the netlist and count each net bit's transitions."""
    folder = netlist_design(design_dir, sim_netlist, work / f"activity_{workload}")
    sim = Simulator(folder, trace=True)
    # A keys=loaded core runs inside its wrapper: its nets are one scope further down.
    instance = CORE_INSTANCE if sim.manifest.get("simulation") else None
    vcd = folder / "activity.vcd"
    ops = workload_ops(spec, workload, interval)
    trace = sim.run(ops, vcd=vcd, timeout_cycles=1_000_000)
    first_block = min(min(cycles) for op, cycles in trace.block_accept.items())
    try:
        return toggle_rates(vcd, start_cycle=first_block, instance=instance)
    finally:
        vcd.unlink(missing_ok=True)


def toggle_rates(vcd: Path, start_cycle: int = 0, instance: str | None = None) -> Activity:
    """Activity and duty per bit of every variable of the design (its scope, the second level,
    and the wrapper's ports), from ``start_cycle`` (VCD time 2t is rising edge t). ``instance``:
    the design is that instance inside the top module (a core in its simulation wrapper), and
    its scope, the third level, is read instead."""
    ids, widths = _design_vars(vcd, instance)
    if not ids:
        raise ToolFailed(f"no design signals in {vcd}")
    start = 2 * start_cycle
    value: dict[str, int] = {code: 0 for code in ids}
    toggles: dict[str, list[int]] = {code: [0] * widths[code] for code in ids}
    high: dict[str, list[int]] = {code: [0] * widths[code] for code in ids}
    since: dict[str, list[int]] = {code: [start] * widths[code] for code in ids}
    time = 0
    with vcd.open() as text:
        for line in text:
            if line.startswith("$enddefinitions"):
                break
        for line in text:
            head = line[:1]
            if head == "#":
                time = int(line[1:])
                continue
            if head == "b":
                bits, code = line[1:].split()
                new = int(bits, 2)
            elif head in "01":
                code, new = line[1:].strip(), int(head)
            else:
                continue
            if code not in value:
                continue
            changed = value[code] ^ new
            now = max(time, start)
            while changed:
                low = changed & -changed
                bit = low.bit_length() - 1
                if time >= start:
                    toggles[code][bit] += 1
                if value[code] >> bit & 1:
                    high[code][bit] += now - since[code][bit]
                since[code][bit] = now
                changed ^= low
            value[code] = new
    span = max(time - start, 2)
    rates: dict[tuple[str, int], tuple[float, float]] = {}
    for code, names in ids.items():
        for bit in range(widths[code]):
            if value[code] >> bit & 1:
                high[code][bit] += time - since[code][bit]
            for name, low in names:
                rates[(name, low + bit)] = (toggles[code][bit] * 2 / span,
                                            high[code][bit] / span)
    return Activity(rates, span // 2)


def _design_vars(vcd: Path, instance: str | None = None
                 ) -> tuple[dict[str, list[tuple[str, int]]], dict[str, int]]:
    """VCD id -> its names (net name, lowest bit index) and id -> width: the design's own scope
    and the wrapper's ports (or, for ``instance``, that instance's scope under the top module)."""
    ids: dict[str, list[tuple[str, int]]] = {}
    widths: dict[str, int] = {}
    scopes: list[str] = []
    with vcd.open() as text:
        for line in text:
            words = line.split()
            if not words:
                continue
            if words[0] == "$scope":
                scopes.append(words[2] if len(words) > 2 else "")
            elif words[0] == "$upscope":
                scopes.pop()
            elif words[0] == "$var" and _in_design(scopes, instance):
                # Verilator lists a port once, in the wrapper's scope (its ports are the
                # design's); the design's scope has every other net.
                width, code, name = int(words[2]), words[3], words[4]
                low = 0
                if len(words) > 5 and words[5].startswith("["):
                    rng = words[5].strip("[]").split(":")
                    low = min(int(r) for r in rng)
                # One code for every name of a net (a port and the wires it is assigned to).
                if (name, low) not in ids.setdefault(code, []):
                    ids[code].append((name, low))
                widths[code] = width
            elif words[0] == "$enddefinitions":
                break
    return ids, widths


def _in_design(scopes: list[str], instance: str | None) -> bool:
    if instance is None:
        return len(scopes) in (1, 2)
    return len(scopes) == 3 and scopes[2] == instance

"""Testbench helpers for the masked gadgets (tests/test_masked_*.py): streaming runs in the Amaranth
simulator under chosen sharings and randomness, and a netlist check that no combinational cone
holds two shares of one value."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from amaranth.sim import Simulator

from cipherbench.components.masked.shares import share, unpack_shares, unshare
from cipherbench.rtl import run_yosys_script, to_rtlil

# How the fresh bits of a run are drawn: "random" (a new uniform word every clock), "zeros",
# "ones" (every bit 0 or 1 in every clock).
RANDOMNESS_MODES = ("random", "zeros", "ones")


def stream(gadget: Any, width: int, shares: int, inputs: Sequence[int], latency: int,
           seed: int, randomness: str = "random", read_at: int | None = None,
           taps: Sequence[str] = (), out_width: int | None = None
           ) -> tuple[list[int], list[dict[str, list[int]]]]:
    """Present one input per clock (each freshly shared), feed ``r`` as ``randomness`` says, and
    read the unshared output ``read_at`` clocks after each input (default: ``latency``).
    ``taps`` names registers (gadget.flops) whose shares are recorded at the same time.
    Returns the outputs and, per input, the taps' share values. ``out_width``: the output's
    width where it differs from the input's."""
    out_width = width if out_width is None else out_width
    read_at = latency if read_at is None else read_at
    rng = random.Random(seed)
    outputs: list[int] = []
    tapped: list[dict[str, list[int]]] = []
    all_ones = (1 << len(gadget.r)) - 1

    async def bench(ctx: Any) -> None:
        for cycle in range(len(inputs) + read_at):
            if cycle < len(inputs):
                ctx.set(gadget.i, share(inputs[cycle], width, shares, rng))
            word = {"random": rng.getrandbits(len(gadget.r)), "zeros": 0,
                    "ones": all_ones}[randomness]
            ctx.set(gadget.r, word)
            if cycle >= read_at:
                outputs.append(unshare(ctx.get(gadget.o), out_width, shares))
                tapped.append({name: [ctx.get(s) for s in _tap_signals(gadget, name)]
                               for name in taps})
            await ctx.tick()

    sim = Simulator(gadget)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return outputs, tapped


def _tap_signals(gadget: Any, name: str) -> list[Any]:
    """The registers of value ``name``, share by share (``name_s0``, ``name_s1``, ...)."""
    found = []
    k = 0
    while f"{name}_s{k}" in gadget.flops:
        found.append(gadget.flops[f"{name}_s{k}"])
        k += 1
    assert found, f"no register {name}_s0 in the gadget"
    return found


def mismatches(function: Callable[[int], int], inputs: Sequence[int], outputs: Sequence[int]
               ) -> list[tuple[int, int, int]]:
    return [(x, y, function(x)) for x, y in zip(inputs, outputs, strict=True) if y != function(x)]


def check_under_all_randomness(make: Callable[[], Any], function: Callable[[int], int],
                               width: int, shares: int, latency: int, runs: int,
                               inputs: Sequence[int] | None = None,
                               out_width: int | None = None) -> list[tuple[Any, ...]]:
    """Every input streamed (one per clock, in a shuffled order, each freshly shared) under
    ``runs`` random randomness streams, then under all-zero and all-one randomness, in one
    simulation: between runs the pipeline drains for ``latency`` clocks under the next run's
    randomness, so every evaluation of a run sees only that run's randomness. Returns every
    mismatch as (randomness, run, input, output, expected)."""
    inputs = list(range(1 << width)) if inputs is None else list(inputs)
    out_width = width if out_width is None else out_width
    plan = [("random", seed) for seed in range(runs)] + [("zeros", 100), ("ones", 101)]
    schedule: list[tuple[int | None, str, int]] = []  # per clock: input (or none), randomness
    for randomness, seed in plan:
        order = list(inputs)
        random.Random(seed).shuffle(order)
        schedule += [(None, randomness, seed)] * latency + [(x, randomness, seed) for x in order]
    schedule += [(None, "zeros", -1)] * latency
    gadget = make()
    rng = random.Random(len(inputs) * 31 + runs)
    all_ones = (1 << len(gadget.r)) - 1
    seen: list[tuple[str, int, int, int]] = []

    async def bench(ctx: Any) -> None:
        for cycle, (x, randomness, seed) in enumerate(schedule):
            if x is not None:
                ctx.set(gadget.i, share(x, width, shares, rng))
            ctx.set(gadget.r, {"random": rng.getrandbits(len(gadget.r)), "zeros": 0,
                               "ones": all_ones}[randomness])
            if cycle >= latency and schedule[cycle - latency][0] is not None:
                earlier = schedule[cycle - latency]
                seen.append((earlier[1], earlier[2], earlier[0],
                             unshare(ctx.get(gadget.o), out_width, shares)))
            await ctx.tick()

    sim = Simulator(gadget)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    assert len(seen) == len(plan) * len(inputs)
    return [(randomness, seed, x, y, function(x)) for randomness, seed, x, y in seen
            if y != function(x)]


def share_values(port_value: int, width: int, shares: int) -> list[int]:
    return unpack_shares(port_value, width, shares)


# ---- netlist: where shares meet ----------------------------------------------------------------

_SHARE_REG = re.compile(r"^(?P<value>.+?)(?:_d\d+)?_s(?P<domain>\d+)$")
_TERM_REG = re.compile(r"^(?P<mul>.+)_c(?P<i>\d)(?P<j>\d)$")


def register_key(name: str, bit: int) -> tuple[str, int, int] | None:
    """(value, bit, domain) of a register bit named as components/masked/pipeline.py names them:
    ``{value}_s{k}`` and delayed copies ``{value}_d{n}_s{k}`` hold share k of the value; the DOM
    term registers ``{mul}_c{i}{j}`` are domain i of "mul.inner" (i = j) or of "mul.r{ij}" (the
    pair's fresh value, which the terms (i, j) and (j, i) both hold)."""
    term = _TERM_REG.match(name)
    if term:
        i, j = int(term["i"]), int(term["j"])
        value = f"{term['mul']}.inner" if i == j else f"{term['mul']}.r{min(i, j)}{max(i, j)}"
        return value, bit, i
    held = _SHARE_REG.match(name)
    if held:
        return held["value"], bit, int(held["domain"])
    return None


def meeting_shares(top: Any, ports: Sequence[Any], tmp: Path,
                   key: Callable[[str, int], tuple[str, int, int] | None] = register_key
                   ) -> list[tuple[str, tuple[str, int]]]:
    """Every combinational cone (ending at a register's input or an output port) that holds two
    domains of one register bit (``key`` names what a register bit holds). Returns
    (where, (value, bit)) per meeting."""
    il = tmp / "gadget.il"
    il.write_text(to_rtlil(top, list(ports), "gadget"))
    netlist = tmp / "gadget.json"
    # simplemap: word-level cells to one cell per bit, so a bit's cone holds the bits it reads,
    # not every bit of a wide XOR (a core's 64-bit AddRoundKey).
    run_yosys_script("\n".join([f"read_rtlil {il}", "hierarchy -top gadget", "proc", "flatten",
                                "simplemap", "opt_clean", f"write_json {netlist}"]),
                     tmp / "cones.log")
    module = json.loads(netlist.read_text())["modules"]["gadget"]
    names: dict[int, tuple[str, int]] = {}
    for name, net in module["netnames"].items():
        if "$" in name:
            continue
        for index, bit in enumerate(net["bits"]):
            if isinstance(bit, int):
                names.setdefault(bit, (name.split(".")[-1], index))
    driver: dict[int, list[int]] = {}   # combinational cell output bit -> its input bits
    sources: dict[int, tuple[str, int, int] | None] = {}  # register Q bit -> what it holds
    sinks: list[tuple[str, list[int]]] = []
    for cell_name, cell in module["cells"].items():
        conns, dirs = cell["connections"], cell.get("port_directions", {})
        if cell["type"] in ("$dff", "$adff", "$sdff", "$dffe") or cell["type"].startswith(
                ("$_DFF", "$_SDFF")):
            for q in conns["Q"]:
                if isinstance(q, int):
                    held = names.get(q)
                    sources[q] = key(*held) if held else None
            label = f"register {names.get(conns['Q'][0], (cell_name, 0))[0]}"
            sinks += [(label, [d]) for d in conns["D"]]
            continue
        inputs = [b for p, bits in conns.items() if dirs.get(p) == "input" for b in bits
                  if isinstance(b, int)]
        for p, bits in conns.items():
            if dirs.get(p) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = inputs
    for port, info in module["ports"].items():
        if info["direction"] == "output":
            sinks += [(f"output {port}[{k}]", [b]) for k, b in enumerate(info["bits"])]
        else:
            for index, b in enumerate(info["bits"]):
                if isinstance(b, int):
                    sources[b] = key(port, index)
    found = []
    for where, bits in sinks:
        seen: set[int] = set()
        stack = [b for b in bits if isinstance(b, int)]
        held: dict[tuple[str, int], set[int]] = {}
        while stack:
            b = stack.pop()
            if b in seen:
                continue
            seen.add(b)
            if b in sources:
                if sources[b] is not None:
                    value, bit, domain = sources[b]
                    held.setdefault((value, bit), set()).add(domain)
                continue
            stack += driver.get(b, [])
        found += [(where, vb) for vb, domains in held.items() if len(domains) > 1]
    return sorted(set(found))

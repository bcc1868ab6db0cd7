"""Latch banks and the handshake graph between them, from a mapped netlist's data dependencies.

De-synchronization (Cortadella et al., IEEE TCAD 2006; Papaefstathiou et al. section 4.2.1) keeps
the synchronous datapath and replaces the clock by local handshakes. Every flip-flop becomes a
pair: a *master* that captures the register's next value and a *slave* that passes it on, as the
two latches of a master-slave flip-flop do. Registers are grouped into banks (``granularity``):

- ``register``: one bank pair per register of the design (all bits of one signal);
- ``stage``: registers grouped by pipeline stage: the register graph's strongly connected
  components, ordered, each level of that order one bank (a pipeline's stage k is level k; an
  iterative core whose state loops through its round is one level with its control);
- ``design``: one bank pair for everything (one local clock, the least control).

The graph: each master bank feeds its own slave bank; a slave bank feeds every master bank whose
registers read it through logic. The environment is two more nodes: ``ENV_IN`` (the input ports,
a token per synchronous cycle) feeds every master bank that reads an input, and ``ENV_OUT`` (the
output ports) reads every slave bank an output depends on, and ``ENV_IN`` where an output depends
on an input through logic alone. Masters and slaves alternate on every edge, whatever the
grouping, which is what makes the handshake network live (controllers.py).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ...errors import CipherbenchError
from .netlist import Bit, FlipFlop, MappedNetlist

GRANULARITIES = ("register", "stage", "design")
ENV_IN = "ENV_IN"
ENV_OUT = "ENV_OUT"


@dataclass
class Bank:
    """A group of registers under one controller: ``master`` or ``slave`` half."""

    name: str
    role: str  # "master" | "slave"
    flipflops: list[FlipFlop]


@dataclass
class BankGraph:
    """Banks and the channels between them (source bank -> sink bank)."""

    banks: dict[str, Bank]
    edges: set[tuple[str, str]] = field(default_factory=set)
    # Which flip-flops (by index into MappedNetlist.flipflops) and ports each bank's data paths
    # start and end at, for timing the channel: (source, sink) -> its data path's end points.
    groups: dict[str, list[int]] = field(default_factory=dict)

    def preds(self, bank: str) -> list[str]:
        return sorted(src for src, dst in self.edges if dst == bank)

    def succs(self, bank: str) -> list[str]:
        return sorted(dst for src, dst in self.edges if src == bank)


@dataclass(frozen=True)
class Dependencies:
    """What each flip-flop's next value and each output bit reads, through logic only."""

    flipflop_sources: list[frozenset[int]]  # per flip-flop: flip-flops it reads
    flipflop_reads_input: list[bool]
    output_sources: frozenset[int]  # flip-flops any output reads
    output_reads_input: bool


def dependencies(netlist: MappedNetlist, ignore_inputs: frozenset[str]) -> Dependencies:
    """The combinational fan-in of every flip-flop's data pin and of the outputs.

    ``ignore_inputs``: ports that are not data (the clock the flip-flops lose)."""
    drivers = netlist.drivers()
    index = {id(ff): i for i, ff in enumerate(netlist.flipflops)}
    directions = netlist.directions
    memo: dict[Bit, tuple[frozenset[int], bool]] = {}

    def cone(bit: Bit) -> tuple[frozenset[int], bool]:
        # Iterative depth-first walk: netlists are deep enough to overflow Python's stack.
        stack: list[tuple[Bit, bool]] = [(bit, False)]
        while stack:
            net, expanded = stack.pop()
            if net in memo:
                continue
            driver = drivers.get(net)
            if driver is None:  # a constant or an undriven net
                memo[net] = (frozenset(), False)
                continue
            kind, what = driver
            if kind == "input":
                memo[net] = (frozenset(), what not in ignore_inputs)
                continue
            if kind == "ff":
                memo[net] = (frozenset({index[id(what)]}), False)
                continue
            inst = what
            fanin = [b for pin, b in inst.pins.items()  # type: ignore[attr-defined]
                     if directions[inst.cell].get(pin) == "input"]  # type: ignore[attr-defined]
            if not expanded:
                stack.append((net, True))
                stack.extend((b, False) for b in fanin if b not in memo)
                continue
            sources: set[int] = set()
            reads_input = False
            for b in fanin:
                got, inp = memo.get(b, (frozenset(), False))
                sources |= got
                reads_input |= inp
            memo[net] = (frozenset(sources), reads_input)
        return memo[bit]

    ff_sources, ff_inputs = [], []
    for ff in netlist.flipflops:
        sources, reads = cone(ff.instance.pins[ff.data])
        ff_sources.append(sources)
        ff_inputs.append(reads)
    out_sources: set[int] = set()
    out_input = False
    for bits in netlist.outputs.values():
        for bit in bits:
            sources, reads = cone(bit)
            out_sources |= sources
            out_input |= reads
    return Dependencies(ff_sources, ff_inputs, frozenset(out_sources), out_input)


def group_registers(netlist: MappedNetlist, deps: Dependencies, granularity: str) -> dict[str, list[int]]:
    """Flip-flop indices per group name, for a granularity."""
    if granularity not in GRANULARITIES:
        raise CipherbenchError(f"desync setting granularity={granularity!r} must be one of "
                               f"{', '.join(GRANULARITIES)}")
    if not netlist.flipflops:
        raise CipherbenchError(f"{netlist.top} has no flip-flops: there is nothing to "
                               "de-synchronize")
    by_register: dict[str, list[int]] = defaultdict(list)
    for i, ff in enumerate(netlist.flipflops):
        by_register[ff.register].append(i)
    if granularity == "register":
        return dict(by_register)
    if granularity == "design":
        return {"all": list(range(len(netlist.flipflops)))}
    return _stages(by_register, deps, netlist)


def _stages(by_register: dict[str, list[int]], deps: Dependencies,
            netlist: MappedNetlist) -> dict[str, list[int]]:
    """Registers grouped by their level in the condensed register graph (longest path from a
    register that reads no other, over strongly connected components)."""
    reg_of = {i: ff.register for i, ff in enumerate(netlist.flipflops)}
    names = sorted(by_register)
    reads: dict[str, set[str]] = {n: set() for n in names}
    for i, sources in enumerate(deps.flipflop_sources):
        reads[reg_of[i]] |= {reg_of[s] for s in sources}
    component = _components(names, reads)
    comp_reads: dict[int, set[int]] = defaultdict(set)
    for name in names:
        comp_reads[component[name]] |= {component[r] for r in reads[name]
                                        if component[r] != component[name]}
    level: dict[int, int] = {}

    def depth(c: int) -> int:
        stack = [c]
        while stack:
            top = stack[-1]
            pending = [p for p in comp_reads[top] if p not in level]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            level[top] = 1 + max((level[p] for p in comp_reads[top]), default=-1)
        return level[c]

    groups: dict[str, list[int]] = defaultdict(list)
    for name in names:
        groups[f"stage{depth(component[name])}"] += by_register[name]
    return dict(groups)


def _components(names: list[str], reads: dict[str, set[str]]) -> dict[str, int]:
    """Strongly connected components (Tarjan, iterative) of the 'reads' graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    component: dict[str, int] = {}
    counter = 0
    for root in names:
        if root in index:
            continue
        work = [(root, iter(sorted(reads[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(reads[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                number = len(set(component.values()))
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = number
                    if member == node:
                        break
    return component


def bank_graph(netlist: MappedNetlist, deps: Dependencies, groups: dict[str, list[int]]) -> BankGraph:
    """The master and slave bank of every group and the channels between banks."""
    banks: dict[str, Bank] = {}
    group_of: dict[int, str] = {}
    safe_groups: dict[str, list[int]] = {}
    for k, (register, members) in enumerate(sorted(groups.items())):
        # Bank names become net names and Tcl words: letters, digits and underscores only.
        name = f"g{k}_{re.sub(r'[^A-Za-z0-9_]', '_', register)[:40]}"
        ffs = [netlist.flipflops[i] for i in members]
        banks[f"m_{name}"] = Bank(f"m_{name}", "master", ffs)
        banks[f"s_{name}"] = Bank(f"s_{name}", "slave", ffs)
        safe_groups[name] = list(members)
        for i in members:
            group_of[i] = name
    graph = BankGraph(banks, groups=safe_groups)
    groups = safe_groups
    for name in groups:
        graph.edges.add((f"m_{name}", f"s_{name}"))
    for i, sources in enumerate(deps.flipflop_sources):
        sink = f"m_{group_of[i]}"
        for s in sources:
            graph.edges.add((f"s_{group_of[s]}", sink))
        if deps.flipflop_reads_input[i]:
            graph.edges.add((ENV_IN, sink))
    for s in deps.output_sources:
        graph.edges.add((f"s_{group_of[s]}", ENV_OUT))
    if deps.output_reads_input:
        graph.edges.add((ENV_IN, ENV_OUT))
    return graph

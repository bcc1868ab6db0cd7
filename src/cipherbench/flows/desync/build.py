"""Assemble a de-synchronized netlist: the mapped logic as it was, every flip-flop replaced by a
master and a slave storage cell (latches, or flip-flops: ``storage``), each bank's storage
enabled by its controller (controllers.py), each request delayed to match its data (timing.py).

Also writes the datapath alone (storage outputs and inputs as ports) for OpenSTA to time the
channels on, and counts the area by part: logic, storage, control (controllers, joins and the
enables' buffer trees) and delay elements.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import CipherbenchError
from ..liberty import Liberty
from .banks import ENV_IN, ENV_OUT, BankGraph
from .blocks import CellSet, Netlist
from .controllers import ENV_ACK, ENV_REQ, OUT_ACK, OUT_REQ, RESET, Network, build_network
from .netlist import Bit, FlipFlop, MappedNetlist

STORAGE_KINDS = ("latch", "flipflop")
HANDSHAKE_IN, HANDSHAKE_OUT = [RESET, ENV_REQ, OUT_ACK], [ENV_ACK, OUT_REQ]  # the core's ports
_RE_INSTANCE = re.compile(r"^\s+(\S+)\s+(\S+)\s*\(", re.MULTILINE)


@dataclass(frozen=True)
class Storage:
    """The storage cell of one half of a pair: cell and pins (enable = latch enable or clock)."""

    cell: str
    enable: str
    data: str
    q: str
    invert_enable: bool  # a latch transparent while its enable is low


@dataclass
class Assembled:
    verilog: Path
    top: str
    area_um2: dict[str, float] = field(default_factory=dict)
    cells: dict[str, int] = field(default_factory=dict)
    data_inputs: dict[str, int] = field(default_factory=dict)  # port -> width, clock left out
    data_outputs: dict[str, int] = field(default_factory=dict)
    network: Network | None = None


def storage_for(kind: str, flipflop: FlipFlop, cells: CellSet) -> Storage:
    if kind == "latch":
        latch = cells.latch
        return Storage(latch.cell, latch.enable, latch.data, latch.q, not latch.transparent_high)
    if kind == "flipflop":
        if flipflop.q is None:
            raise CipherbenchError(f"{flipflop.instance.cell} has no Q output to pair")
        return Storage(flipflop.instance.cell, flipflop.clock, flipflop.data, flipflop.q, False)
    raise CipherbenchError(f"desync setting storage={kind!r} must be one of "
                           f"{', '.join(STORAGE_KINDS)}")


def _net(bit: Bit) -> str:
    return f"1'b{bit}" if isinstance(bit, str) else f"n{bit}"


def _port_bits(ports: dict[str, list[Bit]], skip: str | None) -> dict[str, list[Bit]]:
    return {name: bits for name, bits in ports.items() if name != skip}


def _vector_decls(direction: str, ports: dict[str, list[Bit]]) -> list[str]:
    return [f"  {direction} [{len(bits) - 1}:0] {_port_id(name)};" if len(bits) > 1
            else f"  {direction} {_port_id(name)};" for name, bits in ports.items()]


def _port_id(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_]\w*", name) else "\\" + name + " "


def _logic_lines(netlist: MappedNetlist) -> list[str]:
    lines = []
    for k, inst in enumerate(netlist.logic):
        conns = ", ".join(f".{pin}({_net(bit)})" for pin, bit in sorted(inst.pins.items()))
        lines.append(f"  {inst.cell} u{k} ({conns});")
    return lines


def _used_nets(netlist: MappedNetlist) -> set[int]:
    nets: set[int] = set()
    for inst in [*netlist.logic, *(ff.instance for ff in netlist.flipflops)]:
        nets |= {b for b in inst.pins.values() if isinstance(b, int)}
    for bits in [*netlist.inputs.values(), *netlist.outputs.values()]:
        nets |= {b for b in bits if isinstance(b, int)}
    return nets


def datapath_netlist(netlist: MappedNetlist, clock: str, cells: CellSet, path: Path) -> tuple[
        str, dict[int, str], dict[int, str], list[str], list[str]]:
    """The logic alone, for OpenSTA: ports ``q<i>`` (flip-flop i's output, with an inverter for
    its inverted output where used), ``d<i>`` (its input), ``pi_*``/``po_*`` (the core's data
    ports, one per bit). Returns (top, q port per flip-flop, d port per flip-flop, input ports,
    output ports)."""
    top = f"{netlist.top}_datapath"
    q_ports = {i: f"q{i}" for i in range(len(netlist.flipflops))}
    d_ports = {i: f"d{i}" for i in range(len(netlist.flipflops))}
    inputs = {name: bits for name, bits in netlist.inputs.items() if name != clock}
    in_ports = [_bit_port("pi", name, k) for name, bits in inputs.items() for k in range(len(bits))]
    out_ports = [_bit_port("po", name, k) for name, bits in netlist.outputs.items()
                 for k in range(len(bits))]
    nets = _used_nets(netlist)
    lines = [f"module {top} ({', '.join([*q_ports.values(), *in_ports, *d_ports.values(), *out_ports])});"]
    lines += [f"  input {p};" for p in [*q_ports.values(), *in_ports]]
    lines += [f"  output {p};" for p in [*d_ports.values(), *out_ports]]
    lines += [f"  wire n{b};" for b in sorted(nets)]
    for name, bits in inputs.items():
        lines += [f"  assign {_net(b)} = {_bit_port('pi', name, k)};"
                  for k, b in enumerate(bits) if isinstance(b, int)]
    for i, ff in enumerate(netlist.flipflops):
        pins = ff.instance.pins
        if ff.q is not None and isinstance(pins.get(ff.q), int):
            lines.append(f"  assign {_net(pins[ff.q])} = q{i};")
        if ff.qn is not None and isinstance(pins.get(ff.qn), int):
            lines.append(f"  {cells.inverter.instance(f'qn{i}', {'a': f'q{i}'}, _net(pins[ff.qn]))}")
        lines.append(f"  assign d{i} = {_net(pins[ff.data])};")
    for name, bits in netlist.outputs.items():
        lines += [f"  assign {_bit_port('po', name, k)} = {_net(b)};" for k, b in enumerate(bits)]
    lines += _logic_lines(netlist)
    lines.append("endmodule\n")
    path.write_text("`timescale 1ns/1ps\n" + "\n".join(lines))
    return top, q_ports, d_ports, in_ports, out_ports


def _bit_port(prefix: str, name: str, k: int) -> str:
    return f"{prefix}_{re.sub(r'[^A-Za-z0-9_]', '_', name)}_{k}"


def assemble(netlist: MappedNetlist, clock: str, graph: BankGraph, storage_kind: str,
             cells: CellSet, library: Liberty, request_stages: dict[str, int],
             pulse_stages: int, path: Path) -> Assembled:
    """The de-synchronized netlist as flat structural Verilog at ``path``."""
    top = f"{netlist.top}_desync"
    inputs = _port_bits(netlist.inputs, clock)
    control = Netlist(top, cells, inputs=HANDSHAKE_IN, outputs=HANDSHAKE_OUT)
    storage_counts = {name: len(bank.flipflops) for name, bank in graph.banks.items()}
    network = build_network(control, graph, request_stages, pulse_stages, storage_counts)
    # The storage before the module text: inverted enables add their inverters to ``control``.
    storage_lines, storage_wires = _storage_pairs(
        netlist, graph, _storages(storage_kind, netlist, cells), cells, control,
        _enable_picker(network, storage_counts))
    path.write_text(_core_verilog(netlist, top, inputs, storage_lines, storage_wires, control))
    result = Assembled(path, top, network=network,
                       data_inputs={n: len(b) for n, b in inputs.items()},
                       data_outputs={n: len(b) for n, b in netlist.outputs.items()})
    for part, kinds in _cells_by_part(netlist, storage_lines, control).items():
        result.cells[part] = len(kinds)
        result.area_um2[part] = round(sum(library.cells[k].area for k in kinds), 4)
    return result


def _storages(kind: str, netlist: MappedNetlist, cells: CellSet) -> list[Storage]:
    """The storage cell that replaces each flip-flop's halves, in the netlist's order."""
    return [storage_for(kind, ff, cells) for ff in netlist.flipflops]


def _enable_picker(network: Network, storage_counts: dict[str, int]) -> Callable[[str], str]:
    """Each call for a bank: the enable net its next storage cell takes. A bank's cells are
    spread evenly over its enable nets (the leaves of its buffer tree), in the order asked."""
    taken: dict[str, int] = {}

    def enable_of(bank: str) -> str:
        nets = network.enable_nets[bank]
        k = taken.get(bank, 0)
        taken[bank] = k + 1
        return nets[(k * len(nets)) // max(1, storage_counts[bank])]

    return enable_of


def _storage_pairs(netlist: MappedNetlist, graph: BankGraph, stores: list[Storage],
                   cells: CellSet, control: Netlist,
                   enable_of: Callable[[str], str]) -> tuple[list[str], list[str]]:
    """Every flip-flop as a master (``sm<i>``) and a slave (``ss<i>``) storage cell, each enabled
    by its bank's controller (through one shared inverter per enable net where the cell is
    transparent while its enable is low). The slave drives the flip-flop's Q net; an inverter
    its QN net. Returns the instance lines and the wires they add."""
    bank_of = {(id(ff), bank.role): name
               for name, bank in graph.banks.items() for ff in bank.flipflops}
    inverted_enables: dict[str, str] = {}

    def enable(ff: FlipFlop, half: str, store: Storage) -> str:
        net = enable_of(bank_of[(id(ff), half)])
        if not store.invert_enable:
            return net
        if net not in inverted_enables:
            inverted_enables[net] = control.gate(cells.inverter, f"{net}_inv", {"a": net},
                                                 f"{net}_n")
        return inverted_enables[net]

    lines: list[str] = []
    wires: list[str] = []
    for i, (ff, store) in enumerate(zip(netlist.flipflops, stores)):
        pins = ff.instance.pins
        drives_q = bool(ff.q) and isinstance(pins.get(ff.q), int)
        master_q, slave_q = f"sm{i}_q", (_net(pins[ff.q]) if drives_q else f"ss{i}_q")
        wires += [master_q] if drives_q else [master_q, slave_q]
        for tag, half, d, q in (("sm", "master", _net(pins[ff.data]), master_q),
                                ("ss", "slave", master_q, slave_q)):
            lines.append(f"  {store.cell} {tag}{i} (.{store.enable}({enable(ff, half, store)}), "
                         f".{store.data}({d}), .{store.q}({q}));")
        if ff.qn is not None and isinstance(pins.get(ff.qn), int):
            lines.append(f"  {cells.inverter.instance(f'sqn{i}', {'a': slave_q}, _net(pins[ff.qn]))}")
    return lines, wires


def _core_verilog(netlist: MappedNetlist, top: str, inputs: dict[str, list[Bit]],
                  storage_lines: list[str], storage_wires: list[str], control: Netlist) -> str:
    """The de-synchronized core's module: the handshake ports, the data ports as the synchronous
    core has them (the clock left out), the logic as it was, the storage, the control."""
    outputs = netlist.outputs
    ports = [*HANDSHAKE_IN, *HANDSHAKE_OUT, *(_port_id(n) for n in inputs),
             *(_port_id(n) for n in outputs)]
    lines = ["`timescale 1ns/1ps", f"module {top} ({', '.join(ports)});"]
    lines += [f"  input {p};" for p in HANDSHAKE_IN] + [f"  output {p};" for p in HANDSHAKE_OUT]
    lines += _vector_decls("input", inputs) + _vector_decls("output", outputs)
    lines += [f"  wire n{b};" for b in sorted(_used_nets(netlist))]
    lines += [f"  wire {w};" for w in storage_wires]
    lines += [f"  wire {w};" for w in control.wires]
    for name, bits in inputs.items():
        lines += [f"  assign {_net(b)} = {_select(name, k, len(bits))};"
                  for k, b in enumerate(bits) if isinstance(b, int)]
    for name, bits in outputs.items():
        lines += [f"  assign {_select(name, k, len(bits))} = {_net(b)};" for k, b in enumerate(bits)]
    lines += _logic_lines(netlist) + storage_lines + control.lines
    lines.append("endmodule\n")
    return "\n".join(lines)


def _cells_by_part(netlist: MappedNetlist, storage_lines: list[str],
                   control: Netlist) -> dict[str, list[str]]:
    """The cell of every instance by part: logic, storage, delay (the matched and pulse delay
    lines, ``_md_``/``_pd_`` in their names) and control (everything else the network added)."""
    parts: dict[str, list[str]] = {
        "logic": [inst.cell for inst in netlist.logic],
        "storage": [m.group(1) for m in _RE_INSTANCE.finditer("\n".join(storage_lines))],
        "control": [], "delay": []}
    for m in _RE_INSTANCE.finditer("\n".join(control.lines)):
        cell, name = m.group(1), m.group(2)
        parts["delay" if ("_md_" in name or "_pd_" in name) else "control"].append(cell)
    return parts


def _select(name: str, k: int, width: int) -> str:
    return _port_id(name) + (f"[{k}]" if width > 1 else "")


def channel_ports(netlist: MappedNetlist, graph: BankGraph, q_ports: dict[int, str],
                  d_ports: dict[int, str], in_ports: list[str],
                  out_ports: list[str]) -> dict[tuple[str, str], tuple[list[str], list[str]]]:
    """For each channel of the graph: the datapath netlist's ports its paths start and end at.
    A master-to-slave channel has no logic (the master's output is the slave's input)."""
    index = {id(ff): i for i, ff in enumerate(netlist.flipflops)}

    def starts(bank: str) -> list[str]:
        if bank == ENV_IN:
            return in_ports
        return [q_ports[index[id(ff)]] for ff in graph.banks[bank].flipflops]

    def ends(bank: str) -> list[str]:
        if bank == ENV_OUT:
            return out_ports
        return [d_ports[index[id(ff)]] for ff in graph.banks[bank].flipflops]

    channels = {}
    for src, dst in sorted(graph.edges):
        if dst != ENV_OUT and graph.banks[dst].role == "slave":
            channels[(src, dst)] = ([], [])
        else:
            channels[(src, dst)] = (starts(src), ends(dst))
    return channels

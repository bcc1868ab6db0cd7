"""A mapped (standard-cell) netlist in memory, read through Yosys JSON, with its registers found.

De-synchronization rewrites the ASIC flow's mapped netlist: the combinational cells stay as ABC
mapped them, every flip-flop is replaced by a pair of storage cells clocked by handshake
controllers. This module reads that netlist flat, at the bit level, and says which cells are
flip-flops, which of their pins are clock, data and outputs (from each cell's Liberty ``ff``
group, as the models module reads it), and which register of the design each flip-flop belongs
to (the gate prefix names flip-flops ``<signal>[<bit>]_reg``: flows/gates_prefix.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import CipherbenchError
from ...rtl import run_yosys_script
from ..liberty import Liberty
from .models import CellModel, parse_cells

Bit = int | str  # a net number, or a constant "0" / "1" (Yosys JSON)
_RE_REGISTER = re.compile(r"^(?P<name>.*?)(?:\[\d+\])?_reg(?:\[\d+\])?$")


@dataclass(frozen=True)
class Instance:
    name: str
    cell: str
    pins: dict[str, Bit]  # pin -> the net (or constant) it connects to


@dataclass(frozen=True)
class FlipFlop:
    """A flip-flop of the synchronous netlist and its register."""

    instance: Instance
    register: str  # the design signal it holds, e.g. "controller.rnd"
    clock: str  # pin names on its cell
    data: str
    q: str | None
    qn: str | None


@dataclass
class MappedNetlist:
    top: str
    inputs: dict[str, list[Bit]]  # port -> bits, LSB first
    outputs: dict[str, list[Bit]]
    logic: list[Instance]  # every combinational cell
    flipflops: list[FlipFlop]
    directions: dict[str, dict[str, str]]  # cell type -> pin -> "input" | "output"
    net_names: dict[int, str] = field(default_factory=dict)

    def drivers(self) -> dict[Bit, tuple[str, object]]:
        """Each driven net: ("input", port) or ("logic", Instance) or ("ff", FlipFlop)."""
        driven: dict[Bit, tuple[str, object]] = {}
        for port, bits in self.inputs.items():
            for bit in bits:
                driven[bit] = ("input", port)
        for inst in self.logic:
            for pin, bit in inst.pins.items():
                if self.directions[inst.cell].get(pin) == "output":
                    driven[bit] = ("logic", inst)
        for ff in self.flipflops:
            for pin in (ff.q, ff.qn):
                if pin is not None and pin in ff.instance.pins:
                    driven[ff.instance.pins[pin]] = ("ff", ff)
        return driven


def read_mapped_netlist(verilog: Path, top: str, library: Liberty, work: Path) -> MappedNetlist:
    """Flatten the mapped netlist with Yosys (the library's cells as black boxes) and read it."""
    json_path = work / "desync_sync_netlist.json"
    script = "\n".join([
        f"read_liberty -lib {library.path}",
        f"read_verilog {verilog}",
        f"hierarchy -check -top {top}",
        "flatten -noscopeinfo",
        "opt_clean",
        f"write_json {json_path}",
    ])
    run_yosys_script(script, work / "desync_read_yosys.log")
    return netlist_from_json(json.loads(json_path.read_text()), top, library)


def netlist_from_json(data: dict, top: str, library: Liberty) -> MappedNetlist:
    module = data["modules"].get(top)
    if module is None:
        raise CipherbenchError(f"the mapped netlist has no module {top}")
    models = {cell.name: cell for cell in parse_cells(library.path.read_text(errors="replace"))}
    inputs = {n: list(p["bits"]) for n, p in module["ports"].items() if p["direction"] == "input"}
    outputs = {n: list(p["bits"]) for n, p in module["ports"].items()
               if p["direction"] == "output"}
    logic, flipflops = [], []
    directions: dict[str, dict[str, str]] = {}
    for name, cell in module["cells"].items():
        kind = cell["type"]
        if kind not in library.cells:
            raise CipherbenchError(f"cell {name} of type {kind} is not in {library.name}: "
                                   "de-synchronization reads a netlist mapped to one library")
        directions.setdefault(kind, dict(cell["port_directions"]))
        pins = {pin: bits[0] for pin, bits in cell["connections"].items() if bits}
        inst = Instance(name, kind, pins)
        if library.cells[kind].sequential:
            flipflops.append(_flipflop(inst, models.get(kind), library))
        else:
            logic.append(inst)
    net_names = {}
    for name, net in module.get("netnames", {}).items():
        for i, bit in enumerate(net["bits"]):
            if isinstance(bit, int) and bit not in net_names:
                net_names[bit] = name if len(net["bits"]) == 1 else f"{name}[{i}]"
    return MappedNetlist(top, inputs, outputs, logic, flipflops, directions, net_names)


def _flipflop(inst: Instance, model: CellModel | None, library: Liberty) -> FlipFlop:
    """A flip-flop's pins by role; one-line errors for what de-synchronization cannot take."""
    if model is None or model.group is None or model.group.kind != "ff":
        kind = "latch" if library.cells[inst.cell].latch else "sequential cell"
        raise CipherbenchError(
            f"{inst.name} is a {kind} ({inst.cell}): de-synchronization starts from a netlist of "
            "flip-flops (the asic flow's sequential=flipflop)")
    attrs = model.group.attrs
    if "clear" in attrs or "preset" in attrs:
        raise CipherbenchError(
            f"{inst.name} ({inst.cell}) has an asynchronous set or reset: de-synchronization "
            "needs registers without one (a synchronous reset is data, and stays)")
    clock, data = attrs.get("clocked_on", ""), attrs.get("next_state", "")
    if not re.fullmatch(r"\w+", clock) or not re.fullmatch(r"\w+", data):
        raise CipherbenchError(f"{inst.cell}: a flip-flop whose clock or data is a function "
                               f"({clock!r}, {data!r}) is not supported")
    q = next((pin for pin, fn in model.outputs if fn.strip() == model.group.state), None)
    qn = next((pin for pin, fn in model.outputs if fn.strip() == model.group.state_n), None)
    return FlipFlop(inst, register_of(inst.name), clock, data, q, qn)


def register_of(instance: str) -> str:
    """The design register a flip-flop instance belongs to: ``controller.rnd[3]_reg`` ->
    ``controller.rnd``; a name without the gate prefix's suffix stands for itself."""
    plain = instance.lstrip("\\")
    match = _RE_REGISTER.match(plain)
    return match.group("name") if match else plain

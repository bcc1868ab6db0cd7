"""Asynchronous building blocks as flat structural Verilog over a Liberty library's cells.

- ``c_element``: a two-input Muller C-element from three gates (no library here has one).
- ``latch_controller``: the simple four-phase latch controller (a C-element on the request and
  the inverted acknowledge; its output closes the latch), one per latch bank.
- ``delay_line``: a matched delay, a chain of the library's smallest buffer, sized by OpenSTA.

Everything is emitted flat (one module, one name space) so that OpenSTA's SDF and the netlist
agree on every instance name without a hierarchy divider (annotate.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..liberty import Liberty
from .cells import LatchCell, MappedCell, find_buffer, find_gate, find_inverter, find_latch
from .timed_sim import port_delay_ps


@dataclass
class CellSet:
    """The cells of one library that the blocks use, found once by function."""

    nand2: MappedCell
    nand3: MappedCell
    oai21: MappedCell  # !((a | b) & c)
    aoi21: MappedCell  # !((a & b) | c)
    inverter: MappedCell
    buffer: MappedCell
    latch: LatchCell
    nor3: MappedCell  # the controllers' start condition (controllers.py)
    and2: MappedCell  # stages of a fast-reset delay line

    @classmethod
    def of(cls, library: Liberty) -> "CellSet":
        return cls(
            nand2=find_gate(library, ("a", "b"), lambda a, b: not (a and b)),
            nand3=find_gate(library, ("a", "b", "c"), lambda a, b, c: not (a and b and c)),
            oai21=find_gate(library, ("a", "b", "c"), lambda a, b, c: not ((a or b) and c)),
            aoi21=find_gate(library, ("a", "b", "c"), lambda a, b, c: not ((a and b) or c)),
            inverter=find_inverter(library),
            buffer=find_buffer(library),
            latch=find_latch(library),
            nor3=find_gate(library, ("a", "b", "c"), lambda a, b, c: not (a or b or c)),
            and2=find_gate(library, ("a", "b"), lambda a, b: a and b),
        )


@dataclass
class Netlist:
    """A flat module being built: ports, wires and cell instances."""

    name: str
    cells: CellSet
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    wires: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def wire(self, name: str) -> str:
        if name not in self.wires and name not in self.inputs and name not in self.outputs:
            self.wires.append(name)
        return name

    def gate(self, cell: MappedCell, name: str, nets: dict[str, str], out: str) -> str:
        if name in self.wires or name in self.inputs or name in self.outputs or name == out:
            raise ValueError(f"instance {name} would share its name with a net")
        self.wire(out)
        self.lines.append(cell.instance(name, nets, out))
        return out

    def verilog(self) -> str:
        ports = ", ".join(self.inputs + self.outputs)
        decls = [f"  input {p};" for p in self.inputs] + [f"  output {p};" for p in self.outputs]
        decls += [f"  wire {w};" for w in self.wires]
        body = "\n".join(decls + self.lines)
        return f"`timescale 1ns/1ps\nmodule {self.name} ({ports});\n{body}\nendmodule\n"

    def write(self, path: Path) -> Path:
        path.write_text(self.verilog())
        return path


def c_element(net: Netlist, name: str, a: str, b: str, out: str, rst: str, init: int = 0) -> str:
    """out = a·b + out·(a + b), reset to ``init`` while ``rst`` is high.

    Built as out = NAND(NAND(a, b), OAI21(a, b, out)): the majority of (a, b, out) in two gates
    and one feedback wire. The reset enters the output gate itself (AOI21 for 0, NAND3 with
    the reset inverted for 1), so it adds no gate to the loop.

    Why this form: it is the majority of (a, b, out) in two cells where the four-NAND
    majority takes four, so the feedback loop is one complex gate and the output gate. It is
    free of hazards for the transitions a C-element allows: while the inputs disagree, the
    gate that holds the output has inputs that do not move (out = 1: a + b stays 1, so the
    OAI21 stays 0; out = 0: the OAI21 stays 1 and the NAND2 of a and b stays 1 until both
    are high); when they agree, NAND(a, b) switches first, out follows, and the OAI21 then
    switches so as to hold the new value, which only reinforces it. What remains is the
    fundamental-mode assumption of any gate-level C-element: after out changes, an input
    must not change back before the feedback has gone round (one OAI21 delay). In a
    handshake that holds by construction, since the input that could change is the far
    side's answer to out itself, which takes at least a C-element of its own.
    """
    cells = net.cells
    n_ab = net.gate(cells.nand2, f"{name}_nab", {"a": a, "b": b}, f"{name}_ab_n")
    hold = net.gate(cells.oai21, f"{name}_hold", {"a": a, "b": b, "c": out}, f"{name}_hold_n")
    if init == 0:
        # AOI21: !((hold & n_ab) | rst) = NAND(hold, n_ab) unless in reset.
        return net.gate(cells.aoi21, f"{name}_out", {"a": n_ab, "b": hold, "c": rst}, out)
    rst_n = net.gate(cells.inverter, f"{name}_rstinv", {"a": rst}, f"{name}_rst_n")
    return net.gate(cells.nand3, f"{name}_out", {"a": n_ab, "b": hold, "c": rst_n}, out)


def latch_controller(net: Netlist, name: str, rin: str, aout: str, rst: str,
                     init: int = 0) -> tuple[str, str]:
    """The simple four-phase controller of one normally-transparent latch bank.

    c = C(rin, !aout); c is both the acknowledge to the left (ain) and the request to the
    right (rout, before its matched delay); the bank is transparent while c = 0 and closes
    on c+, capturing the data the matched delay on rin has waited for. Four-phase, bundled
    data: rin+ says the data at the bank's input has settled; c+ closes the bank and answers
    ain+; the bank opens again on c- after rin- and aout+ (the right bank has captured).
    ``init``: c in reset (0: transparent and empty; 1: closed, holding a token, as a ring
    needs somewhere). Returns (c, enable net of the bank).
    """
    cells = net.cells
    aout_n = net.gate(cells.inverter, f"{name}_ainv", {"a": aout}, f"{name}_aout_n")
    c = c_element(net, f"{name}_c", rin, aout_n, net.wire(f"{name}_state"), rst, init=init)
    if cells.latch.transparent_high:
        enable = net.gate(cells.inverter, f"{name}_en", {"a": c}, f"{name}_enable")
    else:
        enable = c
    return c, enable


def latch_bank(net: Netlist, name: str, data: list[str], enable: str) -> list[str]:
    """One latch per bit on a shared enable; the outputs' net names."""
    latch = net.cells.latch
    outs = []
    for i, d in enumerate(data):
        q = net.wire(f"{name}_q{i}")
        net.lines.append(f"  {latch.cell} {name}_l{i} (.{latch.data}({d}), "
                         f".{latch.enable}({enable}), .{latch.q}({q}));")
        outs.append(q)
    return outs


def delay_line(net: Netlist, name: str, source: str, stages: int, sink: str | None = None) -> str:
    """A chain of ``stages`` buffers (0: a plain buffer-free wire is not allowed, so at least 1)."""
    current = source
    for i in range(max(1, stages)):
        last = i == max(1, stages) - 1
        out = sink if (last and sink) else f"{name}_d{i}"
        current = net.gate(net.cells.buffer, f"{name}_b{i}", {"a": current}, out)
    return current


def chain_delay_ps(library: Liberty, cells: CellSet, stages: int, work: Path, sta: str) -> float:
    """OpenSTA's delay through a delay line of ``stages`` buffers (its own module)."""
    net = Netlist(f"cb_delay_{stages}", cells, inputs=["i"], outputs=["o"])
    delay_line(net, "dl", "i", stages, sink="o")
    path = net.write(work / f"{net.name}.v")
    return port_delay_ps(library, path, net.name, "i", "o", work, sta)


def size_delay_line(library: Liberty, cells: CellSet, target_ps: float, work: Path,
                    sta: str) -> tuple[int, float]:
    """The fewest buffers whose delay (by OpenSTA) reaches ``target_ps``, and that delay.

    A first guess from an 8-stage probe's delay per stage, then grown (or shrunk) one stage
    at a time on STA's figure, since the last stage's load differs from the inner ones'."""
    probe = chain_delay_ps(library, cells, 8, work, sta) / 8.0
    stages = max(1, math.ceil(target_ps / probe))
    delay = chain_delay_ps(library, cells, stages, work, sta)
    while delay < target_ps:
        stages += 1
        delay = chain_delay_ps(library, cells, stages, work, sta)
    while stages > 1:
        shorter = chain_delay_ps(library, cells, stages - 1, work, sta)
        if shorter < target_ps:
            break
        stages, delay = stages - 1, shorter
    return stages, delay

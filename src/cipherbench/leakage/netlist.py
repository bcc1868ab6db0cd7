"""A flattened gate-level netlist as the leakage simulator sees it, read from Yosys JSON.

The JSON is what ``write_json`` gives after synthesis to Yosys' own gate cells (``$_AND_``,
``$_XOR_``, ``$_MUX_``, ``$_AOI3_``, ...) and flip-flops. :func:`synthesize_netlist` makes it from
a design folder (Verilog + manifest.json, as the flows read it); :func:`read_netlist` reads any
such file.

What the reader builds (:class:`Netlist`):

- nets numbered densely; net 0 is constant 0 and net 1 constant 1 (Yosys' ``x``/``z`` bits are
  read as 0);
- the combinational gates in an evaluation order (every gate after the gates driving its inputs),
  each with its level (longest distance, in gates, from a stable signal);
- the registers as plain D flip-flops: ``state <= next`` on the one clock edge. A register with
  an enable or a synchronous reset becomes a plain flip-flop with the equivalent gates in front of
  it (what ``dfflegalize`` does in Yosys); one with an asynchronous reset gets a gate behind its
  state that forces the reset value while the reset is active. Those gates are *synthetic*: they
  are marked, so power and probe selections leave them out by default;
- the stable signals (primary inputs, register states, constants), where glitch-extended probes
  stop, and each net's instance path (``scope``) for selecting the wires of one instance.

A design the simulator cannot follow is a one-line :class:`CipherbenchError` naming the fix:
unknown cell types, latches, registers with both set and reset, several clocks or both clock
edges, a clock made by logic, combinational loops, nets with two drivers, hierarchy left in.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError

CONST0, CONST1 = 0, 1

# Yosys' gate cells (techlibs/common/simcells.v): type -> input port names, in the order the
# evaluators take them. The output is always Y.
GATE_INPUTS: dict[str, tuple[str, ...]] = {
    "$_BUF_": ("A",), "$_NOT_": ("A",),
    "$_AND_": ("A", "B"), "$_NAND_": ("A", "B"), "$_OR_": ("A", "B"), "$_NOR_": ("A", "B"),
    "$_XOR_": ("A", "B"), "$_XNOR_": ("A", "B"), "$_ANDNOT_": ("A", "B"), "$_ORNOT_": ("A", "B"),
    "$_MUX_": ("A", "B", "S"), "$_NMUX_": ("A", "B", "S"),
    "$_AOI3_": ("A", "B", "C"), "$_OAI3_": ("A", "B", "C"),
    "$_AOI4_": ("A", "B", "C", "D"), "$_OAI4_": ("A", "B", "C", "D"),
}

# Flip-flop types the reader folds into plain registers (the letters after the prefix are the
# polarities and reset values Yosys encodes in the name, simcells.v):
#   $_DFF_C_, $_DFF_CRV_ (async reset R to V), $_DFFE_CE_, $_DFFE_CRVE_,
#   $_SDFF_CRV_ (sync reset), $_SDFFE_CRVE_ (reset over enable), $_SDFFCE_CRVE_ (enable over reset)
_FLOP_TYPES = (
    (re.compile(r"^\$_DFF_([NP])_$"), ("clock",)),
    (re.compile(r"^\$_DFF_([NP])([NP])([01])_$"), ("clock", "arst", "value")),
    (re.compile(r"^\$_DFFE_([NP])([NP])_$"), ("clock", "enable")),
    (re.compile(r"^\$_DFFE_([NP])([NP])([01])([NP])_$"), ("clock", "arst", "value", "enable")),
    (re.compile(r"^\$_SDFF_([NP])([NP])([01])_$"), ("clock", "srst", "value")),
    (re.compile(r"^\$_SDFFE_([NP])([NP])([01])([NP])_$"), ("clock", "srst", "value", "enable")),
    (re.compile(r"^\$_SDFFCE_([NP])([NP])([01])([NP])_$"),
     ("clock", "srst", "value", "enable_first")),
)

# Cells that are refused with their own fix (everything else unknown gets the generic message).
_REFUSED = (
    (re.compile(r"^\$_(DLATCH|SR)"), "latches are not simulated clock by clock; use flip-flops"),
    (re.compile(r"^\$_(DFFSR|DFFSRE|ALDFF|ALDFFE)_"),
     "flip-flops with both an asynchronous set and reset, or an asynchronous load, are not "
     "supported (nor by the project's flows' dfflegalize): give each register at most one "
     "asynchronous reset, or make them synchronous"),
    (re.compile(r"^\$_FF_$"), "global-clock flip-flops ($_FF_) are not supported; clock the design"),
)

GATE_FIX = ("synthesize to Yosys' gate cells first (cipherbench.leakage.synthesize_netlist, "
            "or `synth -flatten; dfflegalize ...; write_json`)")


@dataclass(frozen=True)
class Gate:
    """One combinational cell: ``output = kind(inputs)``, inputs in GATE_INPUTS order."""

    kind: str
    inputs: tuple[int, ...]
    output: int
    level: int


@dataclass(frozen=True)
class Register:
    """A plain D flip-flop: ``state`` takes the value of net ``next`` at each clock edge."""

    state: int
    next: int
    init: int
    name: str


@dataclass
class Netlist:
    """A flat gate-level design. Nets are ints; see the module docstring for the model."""

    top: str
    names: list[str]                      # one display name per net
    scopes: list[set[str]]                # instance paths where each net has a name or driver
    inputs: dict[str, list[int]]          # port -> its nets, bit 0 first (the clock excluded)
    outputs: dict[str, list[int]]
    clock: str | None                     # the clock port, None for a combinational design
    gates: list[Gate]                     # in evaluation order
    registers: list[Register]
    synthetic: set[int] = field(default_factory=set)   # nets the reader made (see module doc)
    undriven: list[int] = field(default_factory=list)  # nets nothing drives, read as 0
    modules: dict[str, str] = field(default_factory=dict)  # instance path -> module name
    source: str = ""

    @property
    def net_count(self) -> int:
        return len(self.names)

    def stable_nets(self) -> list[int]:
        """Where glitches stop: constants, primary inputs and register states."""
        return [CONST0, CONST1, *sorted({n for bits in self.inputs.values() for n in bits}),
                *(r.state for r in self.registers)]

    def design_nets(self) -> list[int]:
        """Every net of the design that carries a signal: inputs, register states and gate
        outputs, without constants and the reader's synthetic nets."""
        nets = {n for bits in self.inputs.values() for n in bits}
        nets.update(r.state for r in self.registers)
        nets.update(g.output for g in self.gates)
        return sorted(nets - self.synthetic - {CONST0, CONST1})

    def net(self, name: str) -> int:
        """The net called ``name`` (a display name, or ``port[i]``); KeyError if none."""
        return self._nets_by_name[name]

    @cached_property
    def _nets_by_name(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for port, bits in [*self.inputs.items(), *self.outputs.items()]:
            for i, n in enumerate(bits):
                found.setdefault(f"{port}[{i}]", n)
                if len(bits) == 1:
                    found.setdefault(port, n)
        for n, name in enumerate(self.names):
            found.setdefault(name, n)
        return found

    def fanouts(self) -> list[int]:
        """How many gate inputs and register inputs each net drives (outputs count once)."""
        counts = [0] * self.net_count
        for gate in self.gates:
            for n in gate.inputs:
                counts[n] += 1
        for reg in self.registers:
            counts[reg.next] += 1
        for bits in self.outputs.values():
            for n in bits:
                counts[n] += 1
        return counts

    def in_scope(self, prefix: str) -> list[int]:
        """Design nets whose instance path is ``prefix`` or inside it (``"u_sbox"`` selects
        ``u_sbox`` and ``u_sbox.u_mul``), or, when ``prefix`` names a module, every instance of
        that module. "" selects the whole design."""
        paths = {p for p, module in self.modules.items() if module == prefix} or {prefix}
        if "" in paths:
            return self.design_nets()
        return [n for n in self.design_nets()
                if any(s == p or s.startswith(p + ".") for s in self.scopes[n] for p in paths)]


# ---- reading ---------------------------------------------------------------------------------


def read_netlist(path: Path, top: str | None = None) -> Netlist:
    """The design in Yosys JSON ``path`` (its top module, or ``top``)."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError as exc:
        raise CipherbenchError(f"netlist {path} does not exist") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CipherbenchError(f"netlist {path} is not Yosys JSON ({exc}); "
                               f"write it with Yosys' write_json") from exc
    modules = data.get("modules") if isinstance(data, dict) else None
    if not isinstance(modules, dict) or not modules:
        raise CipherbenchError(f"netlist {path} has no modules; write it with Yosys' write_json")
    name = top or _top_module(modules, path)
    if name not in modules:
        raise CipherbenchError(f"netlist {path} has no module {name} "
                               f"(it has {', '.join(sorted(modules))})")
    try:
        return _Builder(modules[name], name, str(path), set(modules)).build()
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CipherbenchError(f"netlist {path} is malformed Yosys JSON ({type(exc).__name__}: "
                               f"{exc}); write it with Yosys' write_json") from exc


def _top_module(modules: dict[str, Any], path: Path) -> str:
    tops = [m for m, body in modules.items()
            if int(str(body.get("attributes", {}).get("top", "0")), 2) == 1]
    if len(tops) == 1:
        return tops[0]
    if len(modules) == 1:
        return next(iter(modules))
    raise CipherbenchError(f"netlist {path} has {len(modules)} modules and no single top; "
                           f"name the top (read_netlist(path, top=...))")


def _polarity_active_high(letter: str) -> bool:
    return letter == "P"


class _Builder:
    """Turns one module of Yosys JSON into a Netlist (one use)."""

    def __init__(self, module: dict[str, Any], top: str, source: str, module_names: set[str]):
        self.module, self.top, self.source = module, top, source
        self.module_names = module_names
        self.ids: dict[Any, int] = {}
        self.names: list[str] = ["1'b0", "1'b1"]
        self.scopes: list[set[str]] = [set(), set()]
        self.driver: dict[int, str] = {}  # net -> what drives it, for error messages
        self.gates: list[tuple[str, tuple[int, ...], int]] = []
        self.registers: list[Register] = []
        self.synthetic: set[int] = set()
        self.clocks: dict[int, set[str]] = {}
        self.cell_scope: dict[int, str] = {}
        self.port_nets: set[int] = set()
        self.init: dict[int, int] = {}       # register output -> its `init` value
        self.modules: dict[str, str] = {}    # instance path -> module name ($scopeinfo cells)

    # nets

    def net(self, bit: Any) -> int:
        if isinstance(bit, str):  # a constant bit: "0", "1", "x", "z"
            return CONST1 if bit == "1" else CONST0
        if bit not in self.ids:
            self.ids[bit] = len(self.names)
            self.names.append(f"${bit}")
            self.scopes.append(set())
        return self.ids[bit]

    def new_synthetic(self, name: str, scope: str) -> int:
        self.names.append(name)
        self.scopes.append({scope} if scope else set())
        index = len(self.names) - 1
        self.synthetic.add(index)
        return index

    def drive(self, net: int, what: str) -> None:
        if net in (CONST0, CONST1):
            raise CipherbenchError(f"netlist {self.source}: {what} drives a constant; "
                                   f"write the netlist after `opt_clean`")
        if net in self.driver:
            raise CipherbenchError(f"netlist {self.source}: net {self.names[net]} has two drivers "
                                   f"({self.driver[net]} and {what}); fix the design's "
                                   f"multiple assignment")
        self.driver[net] = what

    # the module

    def build(self) -> Netlist:
        inputs, outputs = self.read_ports()
        self.read_names()
        cells = self.module.get("cells", {})
        self.modules = {name: str(cell.get("attributes", {}).get("module", ""))
                        for name, cell in cells.items() if cell.get("type") == "$scopeinfo"}
        for name, cell in cells.items():
            self.read_cell(name, cell)
        clock = self.the_clock(inputs)
        clock_nets = set(inputs.pop(clock)) if clock else set()
        gated = next((out for _, ins, out in self.gates if clock_nets & set(ins)), None)
        if gated is not None:
            raise CipherbenchError(f"netlist {self.source}: the clock {clock} also drives logic "
                                   f"({self.names[gated]}); a cycle-based simulation cannot "
                                   f"follow that: keep the clock for the flip-flops only")
        undriven = self.undriven(inputs, clock_nets)
        gates = self.order_gates()
        # A net's scopes are the instances where it has a name (read_names) and, where Yosys
        # recorded it (cells keep `scopename` when the design was flattened after mapping), the
        # one of its driving cell: selecting an instance selects every wire visible inside it,
        # its input ports included.
        for net, scope in self.cell_scope.items():
            self.scopes[net].add(scope)
        return Netlist(
            top=self.top, names=self.names, scopes=self.scopes, inputs=inputs, outputs=outputs,
            clock=clock, gates=gates, registers=self.registers, synthetic=self.synthetic,
            undriven=undriven, modules=self.modules, source=self.source,
        )

    def read_ports(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        inputs: dict[str, list[int]] = {}
        outputs: dict[str, list[int]] = {}
        for port, body in self.module.get("ports", {}).items():
            bits = [self.net(b) for b in body["bits"]]
            direction = body["direction"]
            if direction == "input":
                for n in bits:
                    self.drive(n, f"input port {port}")
                inputs[port] = bits
            elif direction == "output":
                outputs[port] = bits
            else:
                raise CipherbenchError(f"netlist {self.source}: port {port} is {direction}; "
                                       f"only input and output ports can be simulated")
            for i, n in enumerate(bits):
                if n > CONST1:
                    self.names[n] = port if len(bits) == 1 else f"{port}[{i}]"
                    self.port_nets.add(n)
        return inputs, outputs

    def read_names(self) -> None:
        """Each net's display name (a public name before a private one, then the shortest) and
        scope (from ``hdlname``/``scopename`` or Yosys' ``$flatten\\path.`` prefix), and initial
        values of registers (``init``)."""
        best: dict[int, tuple[int, int, str]] = {}
        for name, body in self.module.get("netnames", {}).items():
            bits = body["bits"]
            hidden = int(body.get("hide_name", 0))
            scope = _scope_of_name(name, body.get("attributes", {}))
            init = str(body.get("attributes", {}).get("init", ""))
            for i, bit in enumerate(bits):
                if isinstance(bit, str):
                    continue
                n = self.net(bit)
                label = name if len(bits) == 1 else f"{name}[{i}]"
                rank = (hidden, len(label), label)
                if n not in best or rank < best[n]:
                    best[n] = rank
                    if n not in self.port_nets:  # a port keeps its own name
                        self.names[n] = label
                if scope:
                    self.scopes[n].add(scope)
                if init and i < len(init):
                    self.init[n] = 1 if init[len(init) - 1 - i] == "1" else 0

    def read_cell(self, name: str, cell: dict[str, Any]) -> None:
        kind = cell["type"]
        conn = cell["connections"]
        scope = _scope_of_cell(name, cell.get("attributes", {}))
        if kind == "$scopeinfo":
            return
        if kind in GATE_INPUTS:
            ins = tuple(self.net(conn[p][0]) for p in GATE_INPUTS[kind])
            out = self.net(conn["Y"][0])
            self.drive(out, f"cell {name}")
            self.gates.append((kind, ins, out))
            if scope:
                self.cell_scope[out] = scope
            return
        for pattern, fields in _FLOP_TYPES:
            match = pattern.match(kind)
            if match:
                self.read_flop(name, conn, dict(zip(fields, match.groups())), scope)
                return
        for pattern, fix in _REFUSED:
            if pattern.match(kind):
                raise CipherbenchError(f"netlist {self.source}: cell {name} is {kind}: {fix}")
        if kind.lstrip("\\") in self.module_names or not kind.startswith("$"):
            raise CipherbenchError(f"netlist {self.source}: cell {name} instantiates module "
                                   f"{kind}; flatten the design first (synth -flatten)")
        raise CipherbenchError(f"netlist {self.source}: cell {name} has type {kind}, which the "
                               f"leakage simulator does not know; {GATE_FIX}")

    def read_flop(self, name: str, conn: dict[str, Any], spec: dict[str, str], scope: str) -> None:
        q = self.net(conn["Q"][0])
        d = self.net(conn["D"][0])
        self.drive(q, f"flip-flop {name}")
        clock_net = self.net(conn["C"][0])
        self.clocks.setdefault(clock_net, set()).add(spec["clock"])
        value = CONST1 if spec.get("value") == "1" else CONST0
        label = self.names[q]
        state = q
        if "arst" in spec:
            # The state is a stable signal; Q follows it, or the reset value while the reset is
            # active, which is a gate between the two (the reset glitches Q like a gate input).
            state = self.new_synthetic(f"{label}$state", scope)
            self.driver[state] = f"flip-flop {name}"
            active = self.active_level(self.net(conn["R"][0]), spec["arst"], f"{label}$rst", scope)
            self.gates.append(self.forced(state, active, value, q))
        nxt = d
        if "enable_first" in spec:  # $_SDFFCE_: the reset acts only when enabled
            active = self.active_level(self.net(conn["R"][0]), spec["srst"], f"{label}$srst", scope)
            nxt = self.synthetic_force(nxt, active, value, f"{label}$sreset", scope)
            nxt = self.synthetic_hold(state, nxt, self.net(conn["E"][0]), spec["enable_first"],
                                      f"{label}$enable", scope)
        else:
            if "enable" in spec:
                nxt = self.synthetic_hold(state, nxt, self.net(conn["E"][0]), spec["enable"],
                                          f"{label}$enable", scope)
            if "srst" in spec:
                active = self.active_level(self.net(conn["R"][0]), spec["srst"], f"{label}$srst",
                                           scope)
                nxt = self.synthetic_force(nxt, active, value, f"{label}$sreset", scope)
        if "arst" in spec:
            # At the edge a register under reset takes the reset value.
            nxt = self.synthetic_force(nxt, active, value, f"{label}$areset", scope)
        self.registers.append(Register(state=state, next=nxt, init=self.init.get(q, 0), name=label))
        if scope:
            self.cell_scope[state] = scope
            self.cell_scope[q] = scope

    def active_level(self, net: int, polarity: str, name: str, scope: str) -> int:
        """A net that is 1 when the control ``net`` is active."""
        if _polarity_active_high(polarity):
            return net
        out = self.new_synthetic(name, scope)
        self.gates.append(("$_NOT_", (net,), out))
        return out

    @staticmethod
    def forced(value_net: int, active: int, value: int, out: int) -> tuple[str, tuple[int, ...], int]:
        """``out = active ? value : value_net`` as one gate."""
        if value == CONST1:
            return ("$_OR_", (value_net, active), out)
        return ("$_ANDNOT_", (value_net, active), out)

    def synthetic_force(self, net: int, active: int, value: int, name: str, scope: str) -> int:
        out = self.new_synthetic(name, scope)
        self.gates.append(self.forced(net, active, value, out))
        return out

    def synthetic_hold(self, state: int, new: int, enable: int, polarity: str, name: str,
                       scope: str) -> int:
        """``enable active ? new : state``."""
        out = self.new_synthetic(name, scope)
        a, b = (state, new) if _polarity_active_high(polarity) else (new, state)
        self.gates.append(("$_MUX_", (a, b, enable), out))
        return out

    def the_clock(self, inputs: dict[str, list[int]]) -> str | None:
        if not self.clocks:
            return None
        if len(self.clocks) > 1:
            names = ", ".join(sorted(self.names[n] for n in self.clocks))
            raise CipherbenchError(f"netlist {self.source}: registers on several clocks ({names}); "
                                   f"the simulator is cycle-based: give the design one clock")
        net, edges = next(iter(self.clocks.items()))
        if len(edges) > 1:
            raise CipherbenchError(f"netlist {self.source}: registers on both edges of "
                                   f"{self.names[net]}; the simulator is cycle-based: clock every "
                                   f"register on one edge")
        for port, bits in inputs.items():
            if bits == [net]:
                return port
        raise CipherbenchError(f"netlist {self.source}: the registers' clock {self.names[net]} is "
                               f"not an input port (a gated or divided clock); a cycle-based "
                               f"simulation cannot follow it: clock the registers from a port")

    def undriven(self, inputs: dict[str, list[int]], clock_nets: set[int]) -> list[int]:
        used = {n for _, ins, _ in self.gates for n in ins}
        used.update(r.next for r in self.registers)
        used.update(n for bits in self.module.get("ports", {}).values() for n in
                    (self.net(b) for b in bits["bits"]))
        driven = set(self.driver) | {out for _, _, out in self.gates} | clock_nets | {CONST0, CONST1}
        return sorted(n for n in used - driven)

    def order_gates(self) -> list[Gate]:
        """The gates in evaluation order with their levels (Kahn's algorithm); a loop is an
        error naming one net on it."""
        by_output = {out: i for i, (_, _, out) in enumerate(self.gates)}
        users: dict[int, list[int]] = {}
        waiting = []
        for i, (_, ins, _) in enumerate(self.gates):
            pending = {n for n in ins if n in by_output}
            waiting.append(len(pending))
            for n in pending:
                users.setdefault(n, []).append(i)
        level = [0] * len(self.names)
        ready = deque(i for i, count in enumerate(waiting) if count == 0)
        ordered: list[Gate] = []
        while ready:
            i = ready.popleft()
            kind, ins, out = self.gates[i]
            level[out] = 1 + max((level[n] for n in ins), default=0)
            ordered.append(Gate(kind, ins, out, level[out]))
            for j in users.get(out, ()):
                waiting[j] -= 1
                if waiting[j] == 0:
                    ready.append(j)
        if len(ordered) != len(self.gates):
            stuck = min((self.gates[i][2] for i, c in enumerate(waiting) if c), key=lambda n: self.names[n])
            raise CipherbenchError(f"netlist {self.source}: combinational loop through net "
                                   f"{self.names[stuck]}; break it with a register")
        return ordered

def _scope_of_name(name: str, attributes: dict[str, Any]) -> str:
    """The instance path a wire name places it in ("" for the top)."""
    hdlname = attributes.get("hdlname")
    if hdlname:
        return ".".join(str(hdlname).split()[:-1])
    if attributes.get("scopename"):
        return str(attributes["scopename"]).replace(" ", ".")
    if name.startswith("$flatten\\"):
        path = name[len("$flatten\\"):]
        return path.split(".$", 1)[0] if ".$" in path else path.rsplit(".", 1)[0]
    return ""


def _scope_of_cell(name: str, attributes: dict[str, Any]) -> str:
    """The instance path a cell sits in, when Yosys recorded it."""
    if attributes.get("scopename"):
        return str(attributes["scopename"]).replace(" ", ".")
    hdlname = attributes.get("hdlname")
    if hdlname:
        return ".".join(str(hdlname).split()[:-1])
    if name.startswith("$flatten\\"):
        path = name[len("$flatten\\"):]
        return path.split(".$", 1)[0] if ".$" in path else path.rsplit(".", 1)[0]
    return ""


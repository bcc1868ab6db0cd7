"""Verilog simulation models of a Liberty library's cells, written from the Liberty itself.

Timed simulation (timed_sim.py) needs every cell as a Verilog module whose `specify` block has a
path for each timing arc, whose delays each instance takes from OpenSTA's SDF (annotate.py). The
OSU kits ship models; NanGate45 here is only Liberty. Rather than depend on a file a library may
lack, this writes the models from what the Liberty says a cell does:

- a combinational output: ``assign`` of its ``function``;
- a ``ff`` group: an edge-triggered register on ``clocked_on`` taking ``next_state``, with the
  group's asynchronous ``clear``/``preset`` if it has them;
- a ``latch`` group: a level-sensitive register open while ``enable`` holds, taking ``data_in``;
- outputs of sequential cells read the group's state variables (``IQ``, ``IQN``).

Every input of a cell gets a path to every output, whose rise and fall delays are parameters of
the module (``(A => Y) = (tpd_A_Y_r, tpd_A_Y_f)``, 0 by default): annotate.py writes each
instance's from the SDF. An edge-triggered cell's path from its clock is level-sensitive here
(``(CK => Q)``): it takes the SDF's ``(IOPATH (posedge CK) Q ...)``, and only the clock's rising
edge changes Q anyway. Timing checks (setup, hold) are not modelled: a race shows
as wrong data in the testbench's comparison, as with the kits' own models, which Icarus runs
without their checks too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import CipherbenchError
from ..liberty import Liberty, parse_function
from .annotate import arc_parameters

_NUMBER = r"[-+]?[0-9]*\.?[0-9]+"
_RE_CELL = re.compile(r"(?<![\w.])cell\s*\(\s*\"?([^\"\s)]+)\"?\s*\)\s*\{")
_RE_PIN = re.compile(r"(?<![\w.])pin\s*\(\s*\"?([^\"\s)]+)\"?\s*\)\s*\{")
_RE_DIRECTION = re.compile(r"(?<![\w.])direction\s*:\s*\"?(\w+)")
_RE_FUNCTION = re.compile(r"(?<![\w.])function\s*:\s*\"([^\"]*)\"")
_RE_STATE_GROUP = re.compile(r"(?<![\w.])(ff|latch)\s*\(\s*\"?(\w+)\"?\s*,\s*\"?(\w+)\"?\s*\)\s*\{"
                             r"([^{}]*)\}")
_RE_ATTR = re.compile(r"(\w+)\s*:\s*\"([^\"]*)\"")


@dataclass(frozen=True)
class StateGroup:
    """A cell's ``ff`` or ``latch`` group: its two state variables and attributes."""

    kind: str  # "ff" | "latch"
    state: str  # e.g. IQ
    state_n: str  # e.g. IQN
    attrs: dict[str, str]


@dataclass(frozen=True)
class CellModel:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[tuple[str, str], ...]  # (pin, Liberty function)
    group: StateGroup | None


def cell_models_from_liberty(library: Liberty, cache: Path) -> Path:
    """The models of every cell of ``library`` as one Verilog file under ``cache`` (written
    once per Liberty text and version of this writer: keyed by both)."""
    writer = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]
    target = cache / f"models_{library.sha256[:16]}_{writer}.v"
    if not target.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        text = models_verilog(library.path.read_text(errors="replace"), library.name)
        tmp = target.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(target)
    return target


def models_verilog(liberty_text: str, library_name: str) -> str:
    """Verilog modules for every cell a model can be written for (cells whose function is
    missing or unreadable are left out: a netlist that uses one fails at elaboration, naming it)."""
    text = re.sub(r"/\*.*?\*/", " ", liberty_text, flags=re.DOTALL).replace("\\\n", " ")
    modules = []
    for cell in parse_cells(text):
        try:
            modules.append(module_of(cell))
        except ValueError:
            continue  # e.g. a pad or a cell with a statetable: never in our netlists
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    head = (f"// Cell models of {library_name} written from its Liberty (sha256 {digest}...) by\n"
            "// cipherbench (flows/desync/models.py): functions and arcs only, no timing checks.\n"
            "`timescale 1ns/1ps\n")
    return head + "\n".join(modules)


def parse_cells(text: str) -> list[CellModel]:
    matches = list(_RE_CELL.finditer(text))
    ends = [m.start() for m in matches[1:]] + [len(text)]
    cells = []
    for match, end in zip(matches, ends):
        body = text[match.end():end]
        inputs, outputs = [], []
        pins = list(_RE_PIN.finditer(body))
        pin_ends = [p.start() for p in pins[1:]] + [len(body)]
        for pin, pin_end in zip(pins, pin_ends):
            pbody = body[pin.end():pin_end]
            direction = _RE_DIRECTION.search(pbody)
            kind = direction.group(1).lower() if direction else ""
            if kind == "input":
                inputs.append(pin.group(1))
            elif kind == "output":
                function = _RE_FUNCTION.search(pbody)
                outputs.append((pin.group(1), function.group(1) if function else ""))
        head = body[: pins[0].start()] if pins else body
        group = _RE_STATE_GROUP.search(head)
        state = None
        if group:
            state = StateGroup(group.group(1), group.group(2), group.group(3),
                               dict(_RE_ATTR.findall(group.group(4))))
        cells.append(CellModel(match.group(1), tuple(inputs), tuple(outputs), state))
    return cells


def module_of(cell: CellModel) -> str:
    """One cell's Verilog module; ValueError where the Liberty does not say enough."""
    if not cell.outputs or any(not function for _, function in cell.outputs):
        raise ValueError(f"{cell.name}: an output without a function")
    ports = [*cell.inputs, *(pin for pin, _ in cell.outputs)]
    lines = [f"module {cell.name} ({', '.join(ports)});"]
    lines += [f"  input {pin};" for pin in cell.inputs]
    lines += [f"  output {pin};" for pin, _ in cell.outputs]
    if cell.group is not None:
        lines += _state_logic(cell.group)
    for pin, function in cell.outputs:
        lines.append(f"  assign {pin} = {verilog_expression(function)};")
    arcs = [(src, dst) for dst, _ in cell.outputs for src in cell.inputs]
    # Each arc's delays are parameters of the instance (annotate.py writes them from the SDF);
    # 0 until then.
    lines += [f"  parameter real {rise} = 0.0, {fall} = 0.0;"
              for rise, fall in (arc_parameters(src, dst) for src, dst in arcs)]
    lines.append("  specify")
    lines += [f"    ({src} => {dst}) = ({', '.join(arc_parameters(src, dst))});"
              for src, dst in arcs]
    lines += ["  endspecify", "endmodule", ""]
    return "\n".join(lines)


def _state_logic(group: StateGroup) -> list[str]:
    attrs = group.attrs
    state, state_n = group.state, group.state_n
    clear = verilog_expression(attrs["clear"]) if "clear" in attrs else None
    preset = verilog_expression(attrs["preset"]) if "preset" in attrs else None
    lines = [f"  reg {state};", f"  wire {state_n} = !{state};"]
    if group.kind == "ff":
        clock, data = attrs.get("clocked_on"), attrs.get("next_state")
        if not clock or not data:
            raise ValueError("ff group without clocked_on/next_state")
        lines.append(f"  always @(posedge ({verilog_expression(clock)})) {state} <= "
                     f"{verilog_expression(data)};")
        if clear or preset:
            # Asynchronous clear/preset override the edge while they hold.
            lines.append(f"  always @* begin{_overrides(state, clear, preset)} end")
        return lines
    enable, data = attrs.get("enable"), attrs.get("data_in")
    if not enable or not data:
        raise ValueError("latch group without enable/data_in")
    lines.append(f"  always @* begin if ({verilog_expression(enable)}) {state} = "
                 f"{verilog_expression(data)};{_overrides(state, clear, preset)} end")
    return lines


def _overrides(state: str, clear: str | None, preset: str | None) -> str:
    text = ""
    if clear:
        text += f" if ({clear}) {state} = 1'b0;"
    if preset:
        text += f" if ({preset}) {state} = 1'b1;"
    return text


def verilog_expression(function: str) -> str:
    """A Liberty boolean function as a Verilog expression (same precedence as liberty.evaluate:
    ! and postfix ' first, then ^, then & * or juxtaposition, then | +)."""
    return parse_function(function, _VerilogText())


class _VerilogText:
    """Liberty functions built as Verilog expression text (liberty.FunctionAlgebra)."""

    def any_of(self, terms: list[str]) -> str:
        return "(" + " | ".join(terms) + ")"

    def all_of(self, terms: list[str]) -> str:
        return "(" + " & ".join(terms) + ")"

    def parity(self, terms: list[str]) -> str:
        return "(" + " ^ ".join(terms) + ")"

    def negated(self, term: str) -> str:
        return f"!{term}"

    def grouped(self, term: str) -> str:
        return f"({term})"

    def constant(self, value: bool) -> str:
        return f"1'b{int(value)}"

    def name(self, token: str) -> str:
        if re.fullmatch(r"[A-Za-z_]\w*", token):
            return token
        raise ValueError(f"cannot write {token!r} as a Verilog name")


def require_models(library: Liberty, cache: Path) -> Path:
    """The library's models; a one-line error if a library has no cells to model."""
    path = cell_models_from_liberty(library, cache)
    if "module " not in path.read_text():
        raise CipherbenchError(f"no cell of {library.name} could be modelled from its Liberty")
    return path

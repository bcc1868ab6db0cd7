"""Find the library cells the asynchronous blocks are built from, by their Liberty function.

Cells are matched by truth table under every assignment of our logical inputs to the cell's
pins, so the same block maps onto the OSU kits (AOI21X1 with pins A, B, C) and NanGate45
(AOI21_X1 with A, B1, B2) without a table of cell names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations, product
from typing import Callable

from ...errors import CipherbenchError
from ..liberty import Cell, Liberty, evaluate

# A logical function over named inputs, as Python (our side) to compare with the cell's Liberty
# function (their side).
Function = Callable[..., bool]


@dataclass(frozen=True)
class MappedCell:
    """A library cell and which of its pins plays each of our logical inputs."""

    cell: str
    pins: dict[str, str]  # our input name -> the cell's pin
    output: str  # the cell's output pin

    def instance(self, name: str, nets: dict[str, str], out: str) -> str:
        """One structural Verilog instance: our inputs' nets on the matched pins."""
        conns = [f".{self.pins[k]}({v})" for k, v in nets.items()] + [f".{self.output}({out})"]
        return f"  {self.cell} {name} ({', '.join(conns)});"


@dataclass(frozen=True)
class LatchCell:
    """A level-sensitive latch cell: transparent while ``enable`` equals ``transparent_high``."""

    cell: str
    data: str
    enable: str
    q: str
    transparent_high: bool


def find_gate(library: Liberty, inputs: tuple[str, ...], function: Function) -> MappedCell:
    """The smallest usable cell computing ``function`` of ``inputs`` (one output)."""
    want = tuple(bool(function(*values)) for values in product((False, True), repeat=len(inputs)))
    found: list[tuple[float, str, MappedCell]] = []
    for cell in library.cells.values():
        mapped = _match(cell, inputs, want)
        if mapped is not None:
            found.append((cell.area, cell.name, mapped))
    if not found:
        raise CipherbenchError(f"library {library.name} has no cell for the function of "
                               f"{', '.join(inputs)} the asynchronous blocks need")
    return min(found, key=lambda item: (item[0], item[1]))[2]


def _match(cell: Cell, inputs: tuple[str, ...], want: tuple[bool, ...]) -> MappedCell | None:
    outputs = cell.outputs()
    pins = [p.name for p in cell.inputs()]
    if (cell.sequential or cell.dont_use or cell.special or len(outputs) != 1
            or outputs[0].function is None or len(pins) != len(inputs)):
        return None
    for order in permutations(pins):
        try:
            got = tuple(evaluate(outputs[0].function, dict(zip(order, values)))
                        for values in product((False, True), repeat=len(inputs)))
        except (ValueError, RecursionError):
            return None
        if got == want:
            return MappedCell(cell.name, dict(zip(inputs, order)), outputs[0].name)
    return None


_RE_LATCH_GROUP = re.compile(r"latch\s*\([^)]*\)\s*\{([^}]*)\}")
_RE_ATTR = re.compile(r'(\w+)\s*:\s*"([^"]*)"')


def find_latch(library: Liberty) -> LatchCell:
    """The smallest plain latch (no set or reset pin), read from its Liberty `latch` group."""
    text = library.path.read_text(errors="replace")
    candidates = sorted((c for c in library.cells.values()
                         if c.latch and not c.dont_use and len(c.inputs()) == 2),
                        key=lambda c: (c.area, c.name))
    for cell in candidates:
        start = re.search(r"cell\s*\(\s*\"?" + re.escape(cell.name) + r"\"?\s*\)", text)
        group = _RE_LATCH_GROUP.search(text, start.end()) if start else None
        if group is None:
            continue
        attrs = dict(_RE_ATTR.findall(group.group(1)))
        enable, data = attrs.get("enable", ""), attrs.get("data_in", "")
        q = [p.name for p in cell.outputs() if p.function and "!" not in p.function]
        if not enable or not data or not q:
            continue
        return LatchCell(cell.name, data, enable.lstrip("!").strip(), q[0],
                         transparent_high=not enable.startswith("!"))
    raise CipherbenchError(f"library {library.name} has no plain latch cell")


def find_buffer(library: Liberty) -> MappedCell:
    return find_gate(library, ("a",), lambda a: a)


def find_inverter(library: Liberty) -> MappedCell:
    return find_gate(library, ("a",), lambda a: not a)

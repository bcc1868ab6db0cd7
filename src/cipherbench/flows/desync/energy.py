"""Power of a netlist from each net's simulated transitions and the Liberty's power tables.

OpenSTA's report_power does not finish on a netlist whose controllers are rings of gates (its
activity propagation does not end on combinational loops; power.py's latch designs hit the same),
and a de-synchronized core is such rings throughout. Its power is computed here instead, from
the same Liberty data OpenSTA would read, per net and cell, with the simulated transitions of
every net (timed simulation: glitches included):

- switching: each transition of a net charges or discharges its load, 1/2 C V^2, with C the
  input capacitance of the pins it drives (no wire load: as the post-synthesis figures of the
  asic flow on the OSU kits, which have no wire-load model; NanGate45's would add to it);
- internal: each transition of a cell's output costs the energy of its ``internal_power``
  tables (rise or fall, averaged over the related input pins), looked up at the net's load and a
  typical input transition (the middle of the table's slew index); each transition of an input
  pin with tables of its own (a latch's or flip-flop's enable) costs those;
- leakage: every cell's ``cell_leakage_power``.

The energy unit of the tables is the library's capacitive load unit times its voltage unit
squared (the Liberty convention), so that pF and V give pJ. ``tests/test_desync_flow.py``
checks this model against OpenSTA's report_power on a loop-free netlist with the same activity.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ...errors import CipherbenchError

_RE_CELL = re.compile(r"(?<![\w.])cell\s*\(\s*\"?([^\"\s)]+)\"?\s*\)\s*\{")
_RE_PIN = re.compile(r"(?<![\w.])pin\s*\(\s*\"?([^\"\s)]+)\"?\s*\)\s*\{")
_RE_LEAK = re.compile(r"(?<![\w.])cell_leakage_power\s*:\s*([-+0-9.eE]+)")
_RE_CAP = re.compile(r"(?<![\w.])capacitance\s*:\s*([-+0-9.eE]+)")
_RE_INTERNAL = re.compile(r"internal_power\s*\(\s*\)\s*\{")
_RE_RELATED = re.compile(r"related_pin\s*:\s*\"([^\"]+)\"")
_RE_TABLE = re.compile(r"(rise_power|fall_power)\s*\(\s*(\w+)\s*\)\s*\{([^{}]*)\}")
_RE_INDEX = re.compile(r"index_(\d)\s*\(\s*\"([^\"]*)\"\s*\)")
_RE_VALUES = re.compile(r"values\s*\(\s*(.*?)\s*\)\s*;", re.DOTALL)
_RE_TEMPLATE = re.compile(r"(?:power_lut_template|lu_table_template)\s*\(\s*(\w+)\s*\)\s*\{([^{}]*)\}")
_RE_VARIABLE = re.compile(r"variable_(\d)\s*:\s*(\w+)")
_UNIT = {"f": 1e-15, "p": 1e-12, "n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1.0}


@dataclass(frozen=True)
class Table:
    """An energy table: values over (input slew, load) or one axis, in library units."""

    slews: tuple[float, ...]
    loads: tuple[float, ...]
    values: tuple[tuple[float, ...], ...]  # [slew][load]

    def at(self, load: float) -> float:
        row = self.values[len(self.slews) // 2] if self.slews else self.values[0]
        if not self.loads or len(row) == 1:
            return row[0]
        return _interpolate(self.loads, row, load)


@dataclass
class CellPower:
    leakage: float  # library leakage unit
    input_caps: dict[str, float] = field(default_factory=dict)  # pin -> library cap unit
    output_energy: dict[str, list[Table]] = field(default_factory=dict)  # output pin -> tables
    input_energy: dict[str, list[Table]] = field(default_factory=dict)


@dataclass(frozen=True)
class PowerLibrary:
    cells: dict[str, CellPower]
    volts: float
    energy_j: float  # one table energy unit in joules
    leakage_w: float  # one leakage unit in watts
    cap_f: float  # one capacitance unit in farads


def _interpolate(xs: tuple[float, ...], ys: tuple[float, ...], x: float) -> float:
    if x <= xs[0]:
        i = 0
    elif x >= xs[-1]:
        i = len(xs) - 2
    else:
        i = bisect.bisect_right(xs, x) - 1
    x0, x1 = xs[i], xs[i + 1]
    if x1 == x0:
        return ys[i]
    return ys[i] + (ys[i + 1] - ys[i]) * (x - x0) / (x1 - x0)


@lru_cache(maxsize=4)
def power_library(path: Path, volts: float | None = None) -> PowerLibrary:
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(errors="replace"), flags=re.DOTALL)
    text = text.replace("\\\n", " ")
    templates = {m.group(1): dict((int(k), v) for k, v in _RE_VARIABLE.findall(m.group(2)))
                 for m in _RE_TEMPLATE.finditer(text)}
    nominal = re.search(r"nom_voltage\s*:\s*([0-9.]+)", text)
    supply = volts if volts is not None else float(nominal.group(1)) if nominal else None
    if supply is None:
        raise CipherbenchError(f"{path} gives no nom_voltage: power needs the supply voltage")
    cap = re.search(r"capacitive_load_unit\s*\(\s*([0-9.]+)\s*,\s*\"?(\w+)", text)
    # "pf", "ff": the prefix letter before the farad's f.
    cap_f = float(cap.group(1)) * _UNIT[cap.group(2).lower()[:-1]] if cap else 1e-12
    volt_unit = _unit_value(text, "voltage_unit", "V") or 1.0
    leak_unit = _unit_value(text, "leakage_power_unit", "W") or 1e-9
    cells = {}
    matches = list(_RE_CELL.finditer(text))
    ends = [m.start() for m in matches[1:]] + [len(text)]
    for match, end in zip(matches, ends):
        cells[match.group(1)] = _cell(text[match.end():end], templates)
    return PowerLibrary(cells, supply, cap_f * volt_unit * volt_unit, leak_unit, cap_f)


def _unit_value(text: str, attribute: str, base: str) -> float | None:
    found = re.search(attribute + r"\s*:\s*\"?([0-9.]+)\s*([a-zA-Z]?)" + base, text)
    if not found:
        return None
    return float(found.group(1)) * _UNIT[found.group(2)]


def _cell(body: str, templates: dict[str, dict[int, str]]) -> CellPower:
    leak = _RE_LEAK.search(body)
    power = CellPower(float(leak.group(1)) if leak else 0.0)
    pins = list(_RE_PIN.finditer(body))
    pin_ends = [p.start() for p in pins[1:]] + [len(body)]
    for pin, end in zip(pins, pin_ends):
        pbody = body[pin.end():end]
        direction = re.search(r"direction\s*:\s*\"?(\w+)", pbody)
        kind = direction.group(1) if direction else ""
        tables = _tables(pbody, templates)
        if kind == "input":
            cap = _RE_CAP.search(pbody)
            power.input_caps[pin.group(1)] = float(cap.group(1)) if cap else 0.0
            if tables:
                power.input_energy[pin.group(1)] = tables
        elif kind == "output" and tables:
            power.output_energy[pin.group(1)] = tables
    return power


def _tables(pin_body: str, templates: dict[str, dict[int, str]]) -> list[Table]:
    tables = []
    for block in _RE_INTERNAL.finditer(pin_body):
        chunk = pin_body[block.end(): block.end() + 4000]
        for kind, template, inner in _RE_TABLE.findall(chunk.split("internal_power", 1)[0]):
            variables = templates.get(template, {})
            indices = {int(k): tuple(float(v) for v in vals.replace(",", " ").split())
                       for k, vals in _RE_INDEX.findall(inner)}
            values = _RE_VALUES.search(inner)
            if values is None:
                continue
            rows = tuple(tuple(float(v) for v in row.replace(",", " ").split())
                         for row in re.findall(r"\"([^\"]*)\"", values.group(1)))
            slews, loads = (), ()
            for axis, var in variables.items():
                if "transition" in var:
                    slews = indices.get(axis, ())
                elif "capacitance" in var:
                    loads = indices.get(axis, ())
            if variables.get(1, "").endswith("capacitance") and len(variables) == 2:
                rows = tuple(zip(*rows))  # stored [load][slew]: make it [slew][load]
            if len(variables) == 1 and "capacitance" in variables.get(1, ""):
                rows = (rows[0],)
            elif len(variables) == 1:
                rows = tuple((v,) for v in rows[0])
            tables.append(Table(slews, loads, rows))
    return tables


@dataclass(frozen=True)
class Netlist:
    """A flat structural netlist: instances (cell, name, pin -> net)."""

    instances: list[tuple[str, str, dict[str, str]]]


# One instance, on one line or several: CELL name ( .PIN(net), ... );
_RE_INSTANCE = re.compile(r"^\s*(\w+)\s+(\\?\S+)\s*\((\s*\..*?)\);", re.MULTILINE | re.DOTALL)
_RE_CONN = re.compile(r"\.(\w+)\(([^()]*)\)")


def read_instances(netlist: Path, library: PowerLibrary) -> Netlist:
    found = []
    for cell, name, conns in _RE_INSTANCE.findall(netlist.read_text()):
        if cell in library.cells:
            found.append((cell, name, {p: n.strip() for p, n in _RE_CONN.findall(conns)}))
    return Netlist(found)


def netlist_power(netlist: Netlist, library: PowerLibrary, toggles: dict[str, int],
                  seconds: float, output_pins: dict[str, set[str]],
                  wire_caps_f: dict[str, float] | None = None) -> dict[str, float]:
    """mW by kind over a window of ``seconds``: ``toggles`` per net in it; ``output_pins``:
    cell -> its output pins; ``wire_caps_f``: each net's routed wire capacitance (farads),
    added to its pins' (a layout's SPEF: ``spef_wire_caps``)."""
    loads: dict[str, float] = {net: cap / library.cap_f for net, cap in (wire_caps_f or {}).items()}
    for cell, _name, pins in netlist.instances:
        outputs = output_pins[cell]
        for pin, net in pins.items():
            if pin not in outputs:
                loads[net] = loads.get(net, 0.0) + library.cells[cell].input_caps.get(pin, 0.0)
    switching = sum(0.5 * loads.get(net, 0.0) * library.cap_f * library.volts ** 2 * count
                    for net, count in toggles.items())
    internal = 0.0
    leakage = 0.0
    for cell, _name, pins in netlist.instances:
        power = library.cells[cell]
        leakage += power.leakage * library.leakage_w
        for pin, net in pins.items():
            count = toggles.get(net, 0)
            if not count:
                continue
            tables = power.output_energy.get(pin) or power.input_energy.get(pin)
            if not tables:
                continue
            load = loads.get(net, 0.0)
            energy = sum(t.at(load) for t in tables) / len(tables)
            # Rise and fall tables are averaged: half the transitions are each.
            internal += energy * library.energy_j * count
    total = (internal + switching) / seconds * 1e3 + leakage * 1e3
    return {"internal": _sig(internal / seconds * 1e3), "switching": _sig(switching / seconds * 1e3),
            "leakage": _sig(leakage * 1e3), "total": _sig(total)}


def _sig(value: float) -> float:
    """Six significant digits (a small block's leakage is nanowatts of a mW figure)."""
    return float(f"{value:.6g}")


_RE_SPEF_NET = re.compile(r"^\*D_NET\s+(\S+)\s+([-+0-9.eE]+)", re.MULTILINE)
_RE_SPEF_CUNIT = re.compile(r"^\*C_UNIT\s+([0-9.]+)\s+(\w+)", re.MULTILINE)


def spef_wire_caps(spef: Path) -> dict[str, float]:
    """Each net's total capacitance in a SPEF (its wires; the pins' are added by the model), in
    farads: the net's name as the netlist has it (SPEF escapes are taken out)."""
    text = spef.read_text()
    unit = _RE_SPEF_CUNIT.search(text)
    scale = float(unit.group(1)) * _UNIT[unit.group(2).lower()[:-1]] if unit else 1e-12
    return {name.replace("\\", ""): float(cap) * scale for name, cap in _RE_SPEF_NET.findall(text)}

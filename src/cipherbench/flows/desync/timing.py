"""OpenSTA's figures that size a de-synchronized core's matched delays.

Three measurements, each one OpenSTA run:

- ``path_delays``: the longest combinational path of every channel of the bank graph, on the
  datapath alone (the mapped logic, with each flip-flop's output a port driven by the storage
  cell and each flip-flop's input a port loaded by it): from the source bank's storage outputs
  (or the input ports) to the sink bank's storage inputs (or the output ports);
- ``storage_timing``: the storage cell's launch (enable to Q, through one stage of its enable's
  buffer tree) and its setup before the capturing edge;
- ``delay_line_fit``: the delay of the fast-reset delay line per stage (rising edge), from two
  lines of different length; and the pulse line's delay per stage.

Each channel's request then waits (1 + margin) x (launch + path + setup); the margin stands for
what this model leaves out (process variation beyond the library's corner, wires before layout:
docs/flows.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import ToolFailed
from ..liberty import Liberty
from .blocks import CellSet, Netlist, delay_line
from .controllers import ENABLE_FANOUT, fast_reset_delay
from .timed_sim import _run_sta

_RE_EDGE = re.compile(r"^EDGE (\S+) (\S+)$", re.MULTILINE)
_RE_ARRIVAL = re.compile(r"^\s*(-?\d+\.\d+)\s+data arrival time", re.MULTILINE)
_RE_SETUP = re.compile(r"^\s*(-?\d+\.\d+)\s+-?\d+\.\d+\s+library setup time", re.MULTILINE)
# A latch's setup, as OpenSTA prints it under "Time Borrowing Information".
_RE_BORROW_SETUP = re.compile(r"^library setup time\s+(-?\d+\.\d+)", re.MULTILINE)
LONG_LINE, SHORT_LINE = 24, 4


@dataclass(frozen=True)
class StorageTiming:
    launch_ps: float  # enable edge to Q, through one buffer of the enable tree
    setup_ps: float  # data before the capturing edge
    enable_buffer_ps: float  # one level of the enable's buffer tree


@dataclass(frozen=True)
class LineFit:
    """Delay of a fast-reset line of n stages: offset + per_stage x n (rising edge)."""

    offset_ps: float
    per_stage_ps: float
    pulse_per_stage_ps: float  # the symmetric buffer line of the enable pulse

    def stages_for(self, target_ps: float) -> int:
        return max(1, math.ceil((target_ps - self.offset_ps) / self.per_stage_ps))

    def delay_of(self, stages: int) -> float:
        return self.offset_ps + self.per_stage_ps * stages


def _load_script(library: Liberty, netlist: Path, top: str) -> str:
    return (f"  read_liberty {{{library.path}}}\n  set_cmd_units -time ns\n"
            f"  read_verilog {{{netlist}}}\n  link_design {{{top}}}")


def path_delays(library: Liberty, netlist: Path, top: str,
                channels: dict[tuple[str, str], tuple[list[str], list[str]]],
                drive: tuple[str, str], load_ff: float, output_load_ff: float, work: Path,
                sta: str) -> dict[tuple[str, str], float]:
    """Longest path (ps) of each channel: (source ports, sink ports); 0 where there is none.

    ``drive``: (cell, pin) that drives every input port (the storage cell's Q); ``load_ff``:
    the load of every storage input port; ``output_load_ff``: of the core's outputs."""
    lines = [_load_script(library, netlist, top),
             f"  set_driving_cell -lib_cell {drive[0]} -pin {drive[1]} [all_inputs]",
             f"  set_load {load_ff / library.cap_unit_ff:.6f} [all_outputs]"]
    for (src, dst), (sources, sinks) in channels.items():
        if not sources or not sinks:
            continue
        lines.append(f'  puts "EDGE {src} {dst}"')
        lines.append(f"  report_checks -unconstrained -path_delay max -format full -digits 4 "
                     f"-from [get_ports {{{' '.join(sources)}}}] "
                     f"-to [get_ports {{{' '.join(sinks)}}}]")
    output = _run_sta("\n".join(lines), work, "desync_paths", sta)
    delays = {channel: 0.0 for channel in channels}
    marks = list(_RE_EDGE.finditer(output))
    for mark, nxt in zip(marks, [*marks[1:], None]):
        chunk = output[mark.end(): nxt.start() if nxt else len(output)]
        found = _RE_ARRIVAL.search(chunk)
        if found:
            delays[(mark.group(1), mark.group(2))] = float(found.group(1)) * 1000.0
    return delays


def storage_timing(library: Liberty, cells: CellSet, storage: tuple[str, str, str, str],
                   work: Path, sta: str) -> StorageTiming:
    """``storage``: (cell, enable pin, data pin, q pin) of the storage cell."""
    cell, enable, data, q = storage
    nand_in = sorted(cells.nand2.pins.values())[0]
    net = Netlist("cb_storage_probe", cells, inputs=["e", "d"], outputs=["y"])
    tree = net.gate(cells.buffer, "eb", {"a": "e"}, "e_buf")
    # The storage cell under test and the rest of a buffer's fanout as its peers' enables.
    net.lines.append(f"  {cell} st (.{enable}({tree}), .{data}(d), .{q}(sq));")
    net.wire("sq")
    for k in range(ENABLE_FANOUT - 1):
        net.wire(f"pq{k}")
        net.lines.append(f"  {cell} peer{k} (.{enable}({tree}), .{data}(d), .{q}(pq{k}));")
    # A typical load on Q: four NAND2 inputs.
    for k in range(4):
        net.lines.append(f"  {cells.nand2.cell} ld{k} (.{nand_in}(sq), "
                         f"{_other_pins(cells, nand_in)}, .{cells.nand2.output}(ld{k}_y));")
        net.wire(f"ld{k}_y")
    net.lines.append("  assign y = ld0_y;")
    path = net.write(work / "cb_storage_probe.v")
    script = "\n".join([
        _load_script(library, path, net.name),
        f"  set_driving_cell -lib_cell {cells.buffer.cell} [all_inputs]",
        # The enable as a propagated clock through its buffer; the path from the storage cell
        # to the output port is unconstrained, and its full report with the clock network
        # expanded gives the times at the buffer's and the storage cell's outputs.
        "  create_clock -name e -period 10 [get_ports e]",
        "  set_propagated_clock [all_clocks]",
        "  set_input_delay 0 -clock e [get_ports d]",
        "  report_checks -unconstrained -path_delay max -format full_clock_expanded -digits 4 "
        f"-from [get_pins st/{enable}] -to [get_ports y]",
        '  puts "SETUP"',
        "  report_checks -path_delay max -format full -digits 4 -to [get_pins st/" + data + "]",
    ])
    output = _run_sta(script, work, "desync_storage", sta)
    path_part, _, setup_part = output.partition("SETUP")
    launch = _pin_time(path_part, f"st/{q}")
    buffer = _pin_time(path_part, f"eb/{cells.buffer.output}")
    setup = _RE_SETUP.search(setup_part) or _RE_BORROW_SETUP.search(setup_part)
    if launch is None or buffer is None:
        raise ToolFailed(f"OpenSTA gave no enable-to-Q delay for {cell} (log: "
                         f"{work / 'desync_storage.log'})")
    setup_ps = abs(float(setup.group(1))) * 1000.0 if setup else 0.0
    return StorageTiming(launch * 1000.0, setup_ps, buffer * 1000.0)


def _pin_time(report: str, pin: str) -> float | None:
    """The arrival time (ns) at ``pin`` on a full-format path report."""
    found = re.search(r"^\s*-?\d+\.\d+\s+(-?\d+\.\d+)\s+[v^]\s+" + re.escape(pin) + r"\b",
                      report, re.MULTILINE)
    return float(found.group(1)) if found else None


def _other_pins(cells: CellSet, used: str) -> str:
    return ", ".join(f".{pin}(1'b1)" for pin in cells.nand2.pins.values() if pin != used)


def delay_line_fit(library: Liberty, cells: CellSet, work: Path, sta: str) -> LineFit:
    """Two fast-reset lines and two pulse lines in one netlist, each loaded as in a controller
    (one C-element input: a NAND2 and an OAI21 input), timed by OpenSTA."""
    net = Netlist("cb_line_probe", cells, inputs=["i"],
                  outputs=["f_long", "f_short", "p_long", "p_short"])
    for label, stages in (("long", LONG_LINE), ("short", SHORT_LINE)):
        end = fast_reset_delay(net, f"fr_{label}", "i", stages)
        net.lines.append(f"  assign f_{label} = {end};")
        pend = delay_line(net, f"pl_{label}", "i", stages)
        net.lines.append(f"  assign p_{label} = {pend};")
    path = net.write(work / "cb_line_probe.v")
    nand_load = library.nand2_input_cap_ff() or 0.0
    lines = [_load_script(library, path, net.name),
             f"  set_load {2 * nand_load / library.cap_unit_ff:.6f} [all_outputs]",
             f"  set_driving_cell -lib_cell {cells.nand2.cell} [all_inputs]"]
    for port in net.outputs:
        lines.append(f'  puts "LINE {port}"')
        lines.append("  report_checks -unconstrained -path_delay max_rise -format full "
                     f"-digits 4 -from [get_ports i] -to [get_ports {port}]")
    output = _run_sta("\n".join(lines), work, "desync_lines", sta)
    found: dict[str, float] = {}
    for port in net.outputs:
        chunk = output.split(f"LINE {port}", 1)[1]
        arrival = _RE_ARRIVAL.search(chunk)
        if arrival is None:
            raise ToolFailed(f"OpenSTA gave no delay for the probe line {port}")
        found[port] = float(arrival.group(1)) * 1000.0
    per = (found["f_long"] - found["f_short"]) / (LONG_LINE - SHORT_LINE)
    pulse_per = (found["p_long"] - found["p_short"]) / (LONG_LINE - SHORT_LINE)
    return LineFit(found["f_short"] - per * SHORT_LINE, per, pulse_per)

"""The asic flow's static timing: OpenSTA's scripts (flip-flop designs; latch designs by
bisection of the period, as they borrow time) and the reading of its reports: critical path,
register overhead, the wire-load model's share."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...errors import ToolFailed
from ...tools import run_tool
from ..base import Design
from ..liberty import Liberty

# The minimum period of a latch design, found by bisection (OpenSTA 2.0.17 has no command for
# it; the slack at one period says nothing about a path that borrows): this many halvings.
LATCH_BISECTION_STEPS = 22
STA_TIMEOUT_S = 1800
STA_OK = "CIPHERBENCH_STA_OK"
_RE_SLACK = re.compile(r"CIPHERBENCH worst_slack_ns (\S+)")
_RE_ZERO_WIRE_SLACK = re.compile(r"CIPHERBENCH zero_wire_slack_ns (\S+)")
_RE_MIN_PERIOD = re.compile(r"CIPHERBENCH min_period_ns (\S+)")
_RE_ZERO_WIRE_MIN_PERIOD = re.compile(r"CIPHERBENCH zero_wire_min_period_ns (\S+)")
_RE_BORROWED = re.compile(r"^\s*(-?\d+\.\d+)\s+(?:\S+\s+)?time borrowed from endpoint", re.MULTILINE)
_RE_POINT = re.compile(r"[\^v]\s+(\S+)/\S+\s+\(([^)\s]+)\)\s*$")
_RE_PRIVATE = re.compile(r"^_\d+_$")


def sta_load_design(library: Liberty, netlist: Path, top: str, clock: str) -> str:
    """OpenSTA lines (inside the scripts' catch) that read and link the netlist, check its
    clock port and set ``$inputs`` to the data inputs."""
    return f"""  read_liberty {{{library.path}}}
  set_cmd_units -time ns
  read_verilog {{{netlist}}}
  link_design {{{top}}}
  if {{[llength [get_ports -quiet {{{clock}}}]] == 0}} {{ error "clock port {clock} not found in {top}" }}
  set inputs [delete_from_list [all_inputs] [get_ports {{{clock}}}]]"""


def sta_script(library: Liberty, netlist: Path, top: str, clock: str, period_ns: float,
               report: Path, latch: bool = False) -> str:
    """OpenSTA commands: ideal clock on the manifest's clock port, 0 ns input and output delays.

    ``latch``: the design stores in latches, whose paths may borrow time from the next phase, so
    the slack at one period does not give the fastest clock; the minimum period is found by
    bisection (with and without wire capacitance) and the report is made at it.

    `sta -exit` neither stops at an error nor exits non-zero, so everything runs inside one
    catch and a final marker line says that it all went through.
    """
    steps = LATCH_BISECTION_STEPS
    bisect = f"""
  set p [cb_min_period {{{clock}}} $inputs {period_ns} {steps}]
  puts "CIPHERBENCH min_period_ns $p"
  report_checks -path_delay max -format full -fields {{net fanout cap slew}} -digits 4 > {{{report}}}
  puts "CIPHERBENCH worst_slack_ns [sta::worst_slack -max]"
  set_load 0 [get_nets -hierarchical *]
  puts "CIPHERBENCH zero_wire_min_period_ns [cb_min_period {{{clock}}} $inputs $p {steps}]"
""" if latch else f"""
  report_checks -path_delay max -format full -fields {{net fanout cap slew}} -digits 4 > {{{report}}}
  puts "CIPHERBENCH worst_slack_ns [sta::worst_slack -max]"
  # The figure above carries the Liberty's default wire-load model (OpenSTA applies it to every
  # net); with no wire capacitance at all the same netlist is this fast:
  set_load 0 [get_nets -hierarchical *]
  puts "CIPHERBENCH zero_wire_slack_ns [sta::worst_slack -max]"
"""
    return f"""set cb_ok 0
proc cb_constrain {{clock period inputs}} {{
  create_clock -name $clock -period $period [get_ports $clock]
  if {{[llength $inputs]}} {{ set_input_delay 0 -clock $clock $inputs }}
  if {{[llength [all_outputs]]}} {{ set_output_delay 0 -clock $clock [all_outputs] }}
}}
proc cb_min_period {{clock inputs start steps}} {{
  set hi $start
  cb_constrain $clock $hi $inputs
  while {{[sta::worst_slack -max] < 0}} {{
    set hi [expr {{$hi * 2.0}}]
    if {{$hi > 1e6}} {{ error "no clock period meets timing" }}
    cb_constrain $clock $hi $inputs
  }}
  set lo 0.0
  for {{set i 0}} {{$i < $steps}} {{incr i}} {{
    set mid [expr {{($lo + $hi) / 2.0}}]
    cb_constrain $clock $mid $inputs
    if {{[sta::worst_slack -max] >= 0}} {{ set hi $mid }} else {{ set lo $mid }}
  }}
  cb_constrain $clock $hi $inputs
  return $hi
}}
if {{[catch {{
{sta_load_design(library, netlist, top, clock)}
  cb_constrain {{{clock}}} {period_ns} $inputs{bisect}  set cb_ok 1
}} msg]}} {{ puts "ERROR: $msg" }}
if {{$cb_ok}} {{ puts "{STA_OK}" }}
"""


def time_netlist(
    design: Design, library: Liberty, netlist: Path, work: Path, settings: dict[str, Any], sta: str
) -> tuple[dict[str, Any], dict[str, str]]:
    period = float(settings["clock_period_ns"])
    script, report, log = work / "asic_sta.tcl", work / "asic_timing.rpt", work / "asic_sta.log"
    latch = settings.get("sequential") == "latch"
    script.write_text(sta_script(library, netlist, design.top, design.clock, period, report,
                                 latch))
    output = run_tool(
        [sta, "-no_init", "-no_splash", "-exit", str(script)],
        cwd=work, log_path=log, timeout_s=STA_TIMEOUT_S,
    )
    check_sta_output(output, log)
    slack_match = _RE_SLACK.search(output)
    slack = _to_float(slack_match.group(1)) if slack_match else None
    if slack is None or abs(slack) > 1e20:
        raise ToolFailed(f"OpenSTA found no path constrained by clock {design.clock} (log: {log})")
    if latch:
        critical, zero_wire = _latch_periods(output, log)
    else:
        critical, zero_wire = round(period - slack, 4), None
    if critical <= 0:
        raise ToolFailed(f"OpenSTA gave a non-positive critical path {critical} ns (log: {log})")
    text = report.read_text()
    measurements: dict[str, Any] = {
        "critical_path_ns": critical,
        "fmax_mhz": round(1000.0 / critical, 2),
        "worst_slack_ns": round(slack, 4),
        **_wire_load_comparison(output, period, critical, library, zero_wire),
        **_critical_path(text),
    }
    if latch:
        borrowed = _RE_BORROWED.search(text)
        measurements["time_borrowed_ns"] = float(borrowed.group(1)) if borrowed else 0.0
    return measurements, {"sta_script": str(script), "sta_log": str(log), "timing_report": str(report)}


def _latch_periods(output: str, log: Path) -> tuple[float, float | None]:
    """The bisected minimum periods of a latch design: with the wire-load model, without."""
    found = _RE_MIN_PERIOD.search(output)
    period = _to_float(found.group(1)) if found else None
    if period is None:
        raise ToolFailed(f"OpenSTA gave no minimum period for the latch design (log: {log})")
    zero = _RE_ZERO_WIRE_MIN_PERIOD.search(output)
    return round(period, 4), (_to_float(zero.group(1)) if zero else None)


def _wire_load_comparison(output: str, period: float, critical: float,
                          library: Liberty, zero_wire: float | None = None) -> dict[str, Any]:
    """The critical path without wire capacitance beside the one with the wire-load model
    (issue 7: how much of the post-synthesis delay is the wire estimate). ``zero_wire``: that
    path when already known (a latch design's bisected period)."""
    if zero_wire is None:
        match = _RE_ZERO_WIRE_SLACK.search(output)
        slack = _to_float(match.group(1)) if match else None
        if slack is None or abs(slack) > 1e20 or period - slack <= 0:
            return {}
        zero_wire = period - slack
    zero = round(zero_wire, 4)
    return {
        "wire_load_model": library.default_wire_load or "none",
        "critical_path_zero_wire_ns": zero,
        "fmax_zero_wire_mhz": round(1000.0 / zero, 2),
        "wire_load_delay_pct": round(100.0 * (critical - zero) / critical, 1),
    }


def check_sta_output(output: str, log: Path) -> None:
    errors = [ln.strip() for ln in output.splitlines() if ln.startswith(("ERROR", "Error"))]
    if STA_OK not in output or errors:
        detail = errors[-1] if errors else "did not finish"
        raise ToolFailed(f"OpenSTA failed: {detail} (log: {log})")
    black_boxes = [ln.strip() for ln in output.splitlines() if "Creating black box" in ln]
    if black_boxes:
        raise ToolFailed(f"OpenSTA: netlist cells missing from the Liberty: {black_boxes[0]} (log: {log})")


def _to_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _critical_path(report: str) -> dict[str, Any]:
    """Start, end and cells of the worst path, from OpenSTA's `report_checks` text.

    Registers carry their signal names (see the `rename` in synthesis); combinational cells
    that ABC created have private names, so only their cell types are listed.
    """
    start = re.search(r"^Startpoint:\s*(\S+)", report, re.MULTILINE)
    end = re.search(r"^Endpoint:\s*(\S+)", report, re.MULTILINE)
    stages: list[tuple[str, str]] = []
    for line in report.splitlines():
        point = _RE_POINT.search(line)
        if point and (not stages or stages[-1][0] != point.group(1)):
            stages.append((point.group(1), point.group(2)))
        if "data arrival time" in line:
            break  # the rest is the required-time half of the report
    # "sky130_fd_sc_hd__nand2_1" -> "nand2_1": the library is in the settings already.
    short = [(inst, cell.rsplit("__", 1)[-1]) for inst, cell in stages]
    names = [cell if _RE_PRIVATE.match(inst) else f"{inst} {cell}" for inst, cell in short]
    start_name, end_name = (start.group(1) if start else ""), (end.group(1) if end else "")
    # Ports are not cells: name them at the ends so the path reads from where it starts.
    if start_name and (not stages or stages[0][0] != start_name):
        names.insert(0, start_name)
    if end_name and (not stages or stages[-1][0] != end_name):
        names.append(end_name)
    return {
        "critical_path_start": start_name,
        "critical_path_end": end_name,
        "critical_path_cells": " > ".join(names),
        "critical_path_stages": len(stages),
        **_register_overhead(report),
    }


_RE_SETUP = re.compile(r"^\s*(-?\d+\.\d+)\s+\S+\s+library setup time", re.MULTILINE)
_RE_CLOCK_PIN = re.compile(r"\^\s+\S+/(?:CK|CLK|C)\s+\(")
_RE_DELAY_POINT = re.compile(r"^\s*(?:\S+\s+)?(\d+\.\d+)\s+(\d+\.\d+)\s+[\^v]\s+\S+/\S+\s+\(")


def _register_overhead(report: str) -> dict[str, float]:
    """Clock-to-Q of the launching flip-flop and setup time of the capturing one: the register
    overhead that Gaj & Chodowiec's formulas (2) and (3) separate from the round logic."""
    out: dict[str, float] = {}
    lines = report.splitlines()
    for i, line in enumerate(lines):
        if _RE_CLOCK_PIN.search(line):
            for follow in lines[i + 1:i + 3]:
                point = _RE_DELAY_POINT.search(follow)
                if point:
                    out["clock_to_q_ns"] = float(point.group(1))
                    break
            break
    setup = _RE_SETUP.search(report)
    if setup:
        out["setup_ns"] = abs(float(setup.group(1)))
    if len(out) == 2:
        out["register_overhead_ns"] = round(out["clock_to_q_ns"] + out["setup_ns"], 4)
    return out


# ---- power ----------------------------------------------------------------------------------

"""Timed gate-level simulation: OpenSTA writes an SDF of a mapped netlist, Icarus Verilog runs
it with the cells' Verilog models so that a race (data latched before it settles) shows.

Verilator would not do here: it has no delays, so a too-short matched delay would pass. The
cells' delays come from the Liberty tables through OpenSTA's SDF (IOPATH per cell instance,
for the loads of this netlist), written into the netlist as each instance's parameters for the
`specify` paths of the cell models (annotate.py, models.py). The models have no $setup/$hold
checks: a race shows as wrong data, not as a timing-check message, which is what the
testbenches compare.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import ToolFailed, ToolMissing
from ..liberty import Liberty
from ...tools import find_command, run_tool

IVERILOG_HINT = "Icarus Verilog not found: apt-get install iverilog (Debian package 'iverilog')"
SIM_TIMEOUT_S = 600
STA_TIMEOUT_S = 300
_STA_OK = "CIPHERBENCH_STA_OK"
_RE_ARRIVAL = re.compile(r"^\s*(-?\d+\.\d+)\s+data arrival time", re.MULTILINE)


@dataclass(frozen=True)
class SimTools:
    iverilog: str
    vvp: str


def sim_tools() -> SimTools:
    """iverilog and vvp (one Debian package); ToolMissing names it."""
    iverilog, vvp = find_command("iverilog"), find_command("vvp")
    if iverilog is None or vvp is None:
        raise ToolMissing(IVERILOG_HINT)
    return SimTools(iverilog, vvp)


def cell_models(library: Liberty) -> Path:
    """The Verilog simulation models of a library's cells, with `specify` paths for the SDF,
    written from the Liberty itself (models.py), so that every library with a Liberty can be
    simulated with its timing, whether or not its kit ships models (NanGate45 here does not)."""
    from ...cache import cache_root
    from .models import require_models

    return require_models(library, cache_root() / "cell_models")


def _run_sta(script: str, work: Path, name: str, sta: str) -> str:
    """Run one OpenSTA script that ends by printing the marker; `sta -exit` does not fail on
    an error, so the marker is what says it all went through."""
    path, log = work / f"{name}.tcl", work / f"{name}.log"
    path.write_text(f"if {{[catch {{\n{script}\n  puts {_STA_OK}\n}} msg]}} "
                    '{ puts "ERROR: $msg" }\n')
    output = run_tool([sta, "-no_init", "-no_splash", "-exit", str(path)], cwd=work,
                      log_path=log, timeout_s=STA_TIMEOUT_S)
    if _STA_OK not in output:
        error = next((ln for ln in output.splitlines() if "ERROR" in ln or "Error" in ln), "")
        raise ToolFailed(f"OpenSTA failed: {error.strip() or 'no result'} (log: {log})")
    return output


def _load(library: Liberty, netlist: Path, top: str) -> str:
    return (f"  read_liberty {{{library.path}}}\n  set_cmd_units -time ns\n"
            f"  read_verilog {{{netlist}}}\n  link_design {{{top}}}")


def write_sdf(library: Liberty, netlist: Path, top: str, sdf: Path, sta: str,
              spef: Path | None = None) -> Path:
    """The netlist's cell delays as SDF: for its own loads and the Liberty's wire-load model,
    or, with ``spef``, for its routed wires' parasitics (wire delays included)."""
    parasitics = f"\n  read_spef {{{spef}}}" if spef is not None else ""
    script = (f"{_load(library, netlist, top)}{parasitics}\n"
              f"  write_sdf -divider / -digits 4 {{{sdf}}}")
    _run_sta(script, sdf.parent, f"{sdf.stem}_sdf", sta)
    return sdf


def port_delay_ps(library: Liberty, netlist: Path, top: str, source: str, sink: str,
                  work: Path, sta: str) -> float:
    """The longest delay from input port ``source`` to output port ``sink``, by OpenSTA."""
    script = (f"{_load(library, netlist, top)}\n"
              f"  report_checks -unconstrained -path_delay max -from [get_ports {{{source}}}] "
              f"-to [get_ports {{{sink}}}] -format full -digits 4")
    output = _run_sta(script, work, f"{top}_delay", sta)
    found = _RE_ARRIVAL.search(output)
    if found is None:
        raise ToolFailed(f"OpenSTA found no path from {source} to {sink} in {top}")
    return float(found.group(1)) * 1000.0  # set_cmd_units -time ns


def compile_timed(library: Liberty, netlist: Path, sdf: Path, testbench: Path, tb_top: str,
                  work: Path, options: Sequence[str] = ()) -> Path:
    """Netlist with the SDF's delays (annotate.py), cell models and testbench compiled with
    specify paths on; the vvp program. ``options``: iverilog's, such as the `defines and
    parameters that fit a packaged testbench to the core (replay.py)."""
    from .annotate import annotated_netlist

    tools = sim_tools()
    models = cell_models(library)
    timed = annotated_netlist(netlist, sdf, models, work / f"{netlist.stem}_timed.v")
    binary = work / f"{tb_top}.vvp"
    run_tool([tools.iverilog, "-g2005", "-gspecify", "-s", tb_top, "-o", str(binary), *options,
              str(models), str(timed), str(testbench)],
             cwd=work, log_path=work / f"{tb_top}_iverilog.log", timeout_s=SIM_TIMEOUT_S)
    return binary


def run_timed(binary: Path, args: list[str], work: Path, name: str,
              timeout_s: float = SIM_TIMEOUT_S) -> str:
    """Run a compiled timed simulation with plusargs; its output."""
    tools = sim_tools()
    return run_tool([tools.vvp, "-n", str(binary), *args], cwd=work,
                    log_path=work / f"{name}_vvp.log", timeout_s=timeout_s)


def simulate(library: Liberty, netlist: Path, testbench: Path, tb_top: str, sdf: Path,
             work: Path) -> str:
    """Compile netlist (with ``sdf``'s delays), cell models and testbench with specify paths on;
    run; vvp's output."""
    binary = compile_timed(library, netlist, sdf, testbench, tb_top, work)
    return run_timed(binary, [], work, tb_top)

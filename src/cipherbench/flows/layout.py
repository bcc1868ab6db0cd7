"""Layout flow: the design placed and routed with open tools from Debian, timed before and after.

Issue 7 asks what the post-synthesis timing is worth once the wires exist. No OpenROAD is
packaged for Debian 12 or PyPI, but qflow is (`apt-get install qflow qflow-tech-osu018`), with
graywolf (placement), qrouter (detailed routing) and three OSU standard-cell kits that come with
both Liberty and LEF: osu018 (0.18 um, six metal layers, the default), osu035 and osu050 (0.5 um,
three layers: the NSA seed's technology generation, but congested). The flow:

1. Synthesis onto the kit's Liberty. ``synthesis = "speed"`` (default) or ``"area"``: the
   ``asic`` flow's own netlist at that end (Yosys + ABC, buffered and sized), handed to qflow as
   BLIF with qflow's fanout buffering off, so the layout starts from exactly the netlist the
   ``asic`` target measures. ``"qflow"``: qflow's own Yosys script (Debian's Yosys 0.23, ABC with
   no delay target) with its fanout and clock-tree buffers (blifFanout).
   Then ``qflow place route``: graywolf at the given initial ``density`` (the cells' share of the
   core), qrouter. A net qrouter leaves unrouted fails the run.
2. qrouter's RC trees of the routed nets become SPEF (flows/spef.py).
3. OpenSTA times the same netlist twice, with an ideal clock as the ``asic`` flow does (no
   clock-tree synthesis is modelled; qflow's clock buffers, where its synthesis made them, are
   timed as data-path-free buffers): before routing (pins' capacitance only: what synthesis sees
   with no wire model) and with the routed parasitics. Their difference is the routed wires'
   share of the critical path.
4. The routed netlist, cells defined by their Liberty functions, is the ``sim_netlist`` the study
   simulates on the RTL's vectors: the layout computes what the RTL does or the job fails.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError, ToolFailed, ToolMissing
from ..rtl import run_yosys_script
from ..tools import run_tool, sta_path, sta_version
from . import asic
from .asic import STA_OK, check_sta_output, sta_load_design
from .base import (
    Design,
    FlowResult,
    check_settings,
    load_design,
    missing_tool,
    yosys_id,
)
from .libraries import KITS, kit_files
from .liberty import Liberty, load_liberty
from .spef import read_netlist, read_rc, write_spef

DEFAULTS: dict[str, Any] = {
    "tech": "osu018",
    # Placement density: the cells' share of the core area graywolf starts from. qflow's own
    # default packs the rows so tightly that qrouter leaves nets unrouted on these kits (a DES
    # core on osu050: 1,144 of 2,855 nets); 0.5 routes osu018 cleanly.
    "density": 0.5,
    "synthesis": "speed",  # "speed" | "area": the asic flow's netlist at that end; or "qflow"
    "clock_period_ns": 10.0,  # STA clock; the result (period - worst slack) does not depend on it
}
TECHS = tuple(KITS)
SYNTHESES = ("speed", "area", "qflow")
QFLOW_TIMEOUT_S = 4 * 3600
STA_TIMEOUT_S = 1800
_RE_SLACK = re.compile(r"CIPHERBENCH (pre|post)_route_slack_ns (\S+)")
_RE_FAILED = re.compile(r"Final: Failed net routes: (\d+)")
_RE_DIE = re.compile(r"DIEAREA\s*\(\s*(-?\d+)\s+(-?\d+)\s*\)\s*\(\s*(-?\d+)\s+(-?\d+)\s*\)")
_RE_DEF_UNITS = re.compile(r"UNITS DISTANCE MICRONS (\d+)")
_RE_POINT = re.compile(r"\(\s*(\S+)\s+(\S+)(?:\s+\S+)?\s*\)")


class LayoutFlow:
    name = "layout"
    cost = 5
    # A study file's keys for this flow, each one of its settings.
    study_keys = ("layout_tech", "layout_density", "layout_synthesis")

    def study_settings(self, data: Any, where: str) -> dict[str, Any]:
        """Settings every asic-layout job of the study gets (only what the study sets)."""
        settings = {}
        for key in self.study_keys:
            if key in data:
                setting = key.removeprefix("layout_")
                try:
                    effective_settings({setting: data[key]})
                except CipherbenchError as exc:
                    raise CipherbenchError(f"{where}: '{key}': {exc}") from exc
                settings[setting] = data[key]
        return settings

    def target_id(self, settings: dict[str, Any]) -> str:
        effective = effective_settings(settings)
        return f"layout:{effective['tech']}:d{effective['density']:g}:{effective['synthesis']}"

    def available(self) -> str | None:
        return missing_tool(qflow_path, sta_path, lambda: tech_files(DEFAULTS["tech"]))

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        check_settings(self.name, settings, set(DEFAULTS))
        effective = effective_settings(settings)
        liberty_file, _ = tech_files(effective["tech"])
        library = load_liberty(liberty_file)
        design = load_design(design_dir)
        sta = sta_path()
        work_dir = work_dir.resolve()  # qflow runs in the project folder: paths must be absolute
        project = work_dir / "layout"
        synthesized = _prepare_project(design, library, project, work_dir, effective)
        _run_qflow(design.top, project, effective["tech"])
        netlist = _without_fillers(project / f"{design.top}.rtlnopwr.v", library,
                                   work_dir / "layout_netlist.v")
        figures = _layout_figures(design.top, project)
        spef = work_dir / "layout.spef"
        parsed = read_netlist(netlist)
        outputs = {name: frozenset(p.name for p in cell.outputs())
                   for name, cell in library.cells.items()}
        wires = write_spef(read_rc(project / f"{design.top}.rc"), parsed, outputs,
                           design.top, spef)
        timing, sta_artifacts = _time(design, library, netlist, spef, work_dir,
                                      float(effective["clock_period_ns"]), sta)
        cell_area = sum(library.cells[c].area for c in parsed.cell_of.values())
        measurements: dict[str, Any] = {
            "area_um2": round(cell_area, 2),
            "gate_equivalents": round(cell_area / library.nand2.area, 2),
            "cells": len(parsed.cell_of),
            "flipflops": sum(1 for c in parsed.cell_of.values() if library.cells[c].sequential),
            "utilization_pct": round(100.0 * cell_area / figures["die_area_um2"], 1),
            "routed_nets": int(wires["nets"]),
            "wire_cap_pf": round(wires["wire_cap_pf"], 3),
            **figures, **timing,
        }
        if synthesized is not None:
            # The asic flow's figures of the netlist that was placed, for the comparison.
            measurements["synthesis_gate_equivalents"] = synthesized["gate_equivalents"]
        artifacts = {
            "qflow_project": str(project), "netlist": str(netlist), "spef": str(spef),
            "def": str(project / f"{design.top}.def"), **sta_artifacts,
            "sim_netlist": str(_simulation_netlist(design, library, netlist, work_dir)),
        }
        effective.update({"liberty": str(liberty_file), "liberty_name": library.name,
                          "liberty_sha256": library.sha256, "nand2_cell": library.nand2.name,
                          "nand2_area_um2": library.nand2.area})
        return FlowResult(
            target=self.target_id(settings), measurements=measurements,
            tools={"qflow": qflow_version(), "opensta": sta_version(),
                   "liberty": f"{library.name} sha256:{library.sha256}"},
            settings=effective, artifacts=artifacts,
        )


# ---- tools and kits -------------------------------------------------------------------------


def qflow_path() -> str:
    path = shutil.which("qflow")
    if path is None:
        raise ToolMissing("qflow not found: apt-get install qflow qflow-tech-osu018 "
                          "(Debian packages; graywolf and qrouter come with it)")
    return path


@functools.lru_cache(maxsize=1)
def qflow_version() -> str:
    """qflow and the versions of the placer and router it drives (Debian package versions)."""
    parts = []
    for package in ("qflow", "graywolf", "qrouter", "yosys"):
        proc = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                              capture_output=True, text=True, check=False)
        parts.append(f"{package} {proc.stdout.strip() or 'unknown'}")
    return ", ".join(parts)


def tech_files(tech: str) -> tuple[Path, Path]:
    """The Liberty and LEF of an OSU kit as Debian's qflow-tech-* packages install them."""
    if tech not in TECHS:
        raise CipherbenchError(f"layout setting tech={tech!r} must be one of {', '.join(TECHS)}")
    return kit_files(tech)


def effective_settings(settings: dict[str, Any]) -> dict[str, Any]:
    effective = {**DEFAULTS, **settings}
    if effective["tech"] not in TECHS:
        raise CipherbenchError(f"layout setting tech={effective['tech']!r} must be one of "
                               f"{', '.join(TECHS)}")
    density = effective["density"]
    if not isinstance(density, (int, float)) or not 0.05 <= float(density) <= 1.0:
        raise CipherbenchError(f"layout setting density={density!r} must be a number between "
                               "0.05 and 1 (the cells' share of the core area)")
    effective["density"] = float(density)
    if effective["synthesis"] not in SYNTHESES:
        raise CipherbenchError(f"layout setting synthesis={effective['synthesis']!r} must be one "
                               f"of {', '.join(SYNTHESES)}")
    if float(effective["clock_period_ns"]) <= 0:
        raise CipherbenchError("layout setting clock_period_ns must be positive")
    return effective


# ---- qflow ------------------------------------------------------------------------------------


def _prepare_project(design: Design, library: Liberty, project: Path, work: Path,
                     settings: dict[str, Any]) -> dict[str, Any] | None:
    """A qflow project folder: the design's Verilog as one source file and the placement
    density; unless qflow synthesizes, the asic flow's netlist and the Yosys script that hands
    it to qflow as BLIF (its figures are returned)."""
    if project.exists():
        shutil.rmtree(project)
    (project / "source").mkdir(parents=True)
    source = "\n".join(path.read_text() for path in design.verilog)
    (project / "source" / f"{design.top}.v").write_text(source)
    variables = [f"set initial_density = {settings['density']:g}"]
    figures = None
    if settings["synthesis"] != "qflow":
        asic_settings = asic.effective_settings({"liberty": str(library.source),
                                                 "goal": settings["synthesis"]})
        synth_dir = work / "asic_synthesis"
        synth_dir.mkdir(parents=True, exist_ok=True)
        _, figures, artifacts = asic.synthesize(design, library, synth_dir, asic_settings,
                                                simulation_views=False)
        variables += _netlist_variables(design.top, Path(artifacts["mapped"]), library, project)
    (project / "project_vars.sh").write_text("\n".join(variables) + "\n")
    return figures


def _netlist_variables(top: str, netlist: Path, library: Liberty, project: Path) -> list[str]:
    """qflow settings that hand it a mapped netlist as BLIF (its synthesis step runs this
    script instead of its own) and keep it from buffering the netlist."""
    if library.buffer is None:
        raise ToolFailed(f"{library.name} has no buffer cell for qflow's BLIF")
    buffer = library.buffer
    pins = (buffer.inputs()[0].name, buffer.outputs()[0].name)
    script = project / "cb_blif.ys"
    script.write_text("\n".join([
        f"read_liberty -lib {library.path}",
        f"read_verilog {netlist}",
        f"hierarchy -check -top {yosys_id(top)}",
        # Named wires that only alias another net would each become a buffer below.
        "opt_clean -purge",
        # Port-to-port connections and constants become buffer cells, as in qflow's own
        # script, so every BLIF net has a driver cell or port.
        f"write_blif -buf {buffer.name} {pins[0]} {pins[1]} {top}_mapped.blif",
    ]) + "\n")
    return [f'set yosys_options = "-s {script}"', "set nofanout = 1"]


@dataclass(frozen=True)
class Placed:
    """A netlist placed and routed by qflow: the routed netlist (cells only), its wires as
    SPEF, and the layout's figures (die, wire length, routed nets, wire capacitance)."""

    netlist: Path
    spef: Path
    figures: dict[str, Any]


def place_and_route(top: str, netlist: Path, library: Liberty, tech: str, work: Path,
                    density: float) -> Placed:
    """Place and route a mapped netlist as it is (no synthesis, no buffering): what the
    de-synchronization flow lays out (flows/desync/flow.py)."""
    work = work.resolve()
    project = work / "layout"
    if project.exists():
        shutil.rmtree(project)
    (project / "source").mkdir(parents=True)
    shutil.copyfile(netlist, project / "source" / f"{top}.v")
    variables = [f"set initial_density = {density:g}",
                 *_netlist_variables(top, netlist.resolve(), library, project)]
    (project / "project_vars.sh").write_text("\n".join(variables) + "\n")
    _run_qflow(top, project, tech)
    routed = _without_fillers(project / f"{top}.rtlnopwr.v", library, work / "layout_netlist.v")
    figures = _layout_figures(top, project)
    spef = work / "layout.spef"
    parsed = read_netlist(routed)
    outputs = {name: frozenset(p.name for p in cell.outputs())
               for name, cell in library.cells.items()}
    wires = write_spef(read_rc(project / f"{top}.rc"), parsed, outputs, top, spef)
    figures.update({"routed_nets": int(wires["nets"]),
                    "wire_cap_pf": round(wires["wire_cap_pf"], 3)})
    return Placed(routed, spef, figures)


def _run_qflow(top: str, project: Path, tech: str) -> None:
    log = project / "qflow.log"
    run_tool([qflow_path(), "-T", tech, "synthesize", "place", "route", top],
             cwd=project, log_path=log, timeout_s=QFLOW_TIMEOUT_S)
    # qflow exits 0 after a failed step: each step's log says how it ended.
    for step in ("synth", "place", "route"):
        step_log = project / "log" / f"{step}.log"
        text = step_log.read_text(errors="replace") if step_log.is_file() else ""
        if not text or "error condition" in text.splitlines()[-1]:
            raise ToolFailed(f"qflow {step} failed (log: {step_log})")
    route = (project / "log" / "route.log").read_text(errors="replace")
    failed = _RE_FAILED.findall(route)
    if "No failed routes" not in route and failed:
        raise ToolFailed(f"qrouter left {failed[-1]} nets unrouted; lower the layout setting "
                         f"density (log: {project / 'log' / 'route.log'})")
    for suffix in (".rtlnopwr.v", ".rc", ".def"):
        if not (project / f"{top}{suffix}").is_file():
            raise ToolFailed(f"qflow wrote no {top}{suffix} (log: {log})")


def _without_fillers(routed: Path, library: Liberty, out: Path) -> Path:
    """The routed netlist without the filler cells qflow adds to the rows: they have no pins and
    no Liberty entry, and would be black boxes to OpenSTA and to the simulator."""
    text = routed.read_text()
    kept: list[str] = []
    unknown: set[str] = set()
    for statement in re.split(r"(?<=;)", text):
        match = re.match(r"\s*(\w+)\s+\S+\s*\((.*)\)\s*;\s*$", statement, re.DOTALL)
        if match and match.group(1) not in library.cells and match.group(1) not in _KEYWORDS:
            if match.group(2).strip():
                unknown.add(match.group(1))
            continue  # a filler: no connections
        kept.append(statement)
    if unknown:
        raise ToolFailed(f"routed netlist {routed} uses cells not in {library.name}: "
                         f"{', '.join(sorted(unknown)[:5])}")
    out.write_text("".join(kept))
    return out


_KEYWORDS = frozenset({"module", "input", "output", "inout", "wire", "assign", "reg"})


def _layout_figures(top: str, project: Path) -> dict[str, Any]:
    """Die area and routed wire length from the routed DEF."""
    text = (project / f"{top}.def").read_text()
    units = _RE_DEF_UNITS.search(text)
    die = _RE_DIE.search(text)
    if units is None or die is None:
        raise ToolFailed(f"the routed DEF of {top} has no UNITS or DIEAREA")
    scale = float(units.group(1))
    x1, y1, x2, y2 = (int(v) for v in die.groups())
    width, height = (x2 - x1) / scale, (y2 - y1) / scale
    return {
        "die_width_um": round(width, 2), "die_height_um": round(height, 2),
        "die_area_um2": round(width * height, 2),
        "wirelength_um": round(routed_length(text) / scale, 1),
    }


def routed_length(def_text: str) -> float:
    """Total length of the routed wires of a DEF's NETS section, in DEF units: the sum of each
    ROUTED/NEW statement's point-to-point distances (``*``: the previous point's coordinate)."""
    start = def_text.find("\nNETS ")
    section = def_text[start:def_text.find("\nEND NETS", start)] if start >= 0 else ""
    total = 0.0
    for statement in re.split(r"\+ ROUTED|\bNEW\b", section)[1:]:
        previous: tuple[float, float] | None = None
        for x_text, y_text in _RE_POINT.findall(statement.split(";")[0]):
            x = previous[0] if x_text == "*" and previous else _number(x_text)
            y = previous[1] if y_text == "*" and previous else _number(y_text)
            if x is None or y is None:
                continue
            if previous is not None:
                total += abs(x - previous[0]) + abs(y - previous[1])
            previous = (x, y)
    return total


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


# ---- timing --------------------------------------------------------------------------------


def sta_script(library: Liberty, netlist: Path, spef: Path, top: str, clock: str,
               period_ns: float, reports: tuple[Path, Path]) -> str:
    """OpenSTA: the same netlist before routing and with the routed parasitics; an ideal clock
    and ports at 0 ns, as in the asic flow."""
    return f"""set cb_ok 0
if {{[catch {{
{sta_load_design(library, netlist, top, clock)}
  create_clock -name {{{clock}}} -period {period_ns} [get_ports {{{clock}}}]
  if {{[llength $inputs]}} {{ set_input_delay 0 -clock {{{clock}}} $inputs }}
  if {{[llength [all_outputs]]}} {{ set_output_delay 0 -clock {{{clock}}} [all_outputs] }}
  report_checks -path_delay max -format full -fields {{net fanout cap}} -digits 4 > {{{reports[0]}}}
  puts "CIPHERBENCH pre_route_slack_ns [sta::worst_slack -max]"
  read_spef {{{spef}}}
  report_checks -path_delay max -format full -fields {{net fanout cap}} -digits 4 > {{{reports[1]}}}
  puts "CIPHERBENCH post_route_slack_ns [sta::worst_slack -max]"
  set cb_ok 1
}} msg]}} {{ puts "ERROR: $msg" }}
if {{$cb_ok}} {{ puts "{STA_OK}" }}
"""


def _time(design: Design, library: Liberty, netlist: Path, spef: Path, work: Path,
          period: float, sta: str) -> tuple[dict[str, Any], dict[str, str]]:
    script, log = work / "layout_sta.tcl", work / "layout_sta.log"
    reports = (work / "layout_timing_pre_route.rpt", work / "layout_timing_post_route.rpt")
    script.write_text(sta_script(library, netlist, spef, design.top, design.clock, period,
                                 reports))
    output = run_tool([sta, "-no_init", "-no_splash", "-exit", str(script)], cwd=work,
                      log_path=log, timeout_s=STA_TIMEOUT_S)
    check_sta_output(output, log)
    slacks = {kind: float(value) for kind, value in _RE_SLACK.findall(output)}
    if set(slacks) != {"pre", "post"} or any(abs(s) > 1e20 for s in slacks.values()):
        raise ToolFailed(f"OpenSTA found no path constrained by clock {design.clock} (log: {log})")
    pre, post = period - slacks["pre"], period - slacks["post"]
    if min(pre, post) <= 0:
        raise ToolFailed(f"OpenSTA gave a non-positive critical path (log: {log})")
    return {
        "critical_path_pre_route_ns": round(pre, 4),
        "fmax_pre_route_mhz": round(1000.0 / pre, 2),
        "critical_path_ns": round(post, 4),
        "fmax_mhz": round(1000.0 / post, 2),
        # The route's share of the routed critical path: the synthesis-versus-layout gap.
        "route_delay_pct": round(100.0 * (post - pre) / post, 1),
    }, {"sta_script": str(script), "sta_log": str(log),
        "timing_report_pre_route": str(reports[0]), "timing_report": str(reports[1])}


# ---- gate-level simulation view -------------------------------------------------------------


def _simulation_netlist(design: Design, library: Liberty, netlist: Path, work: Path) -> Path:
    """The routed netlist with each cell defined by its Liberty function (as the ASIC flow's
    ``sim_netlist``): the study simulates it on the RTL's vectors."""
    sim = work / "layout_sim_netlist.v"
    script = [
        f"read_liberty -ignore_miss_func {library.path}",
        f"read_verilog {netlist}",
        f"hierarchy -check -top {yosys_id(design.top)}",
        f"write_verilog -noattr {sim}",
    ]
    run_yosys_script("\n".join(script), work / "layout_sim_netlist.log", timeout=600)
    return sim

"""Generic flow: technology-independent gates from Yosys + ABC, no library, no timing.

It starts from the design's gate prefix (flows/gates_prefix.py: Yosys' synthesis, made once and
shared with the ASIC flow, whose netlists are proven equal to the same file). Two mappings of it
(NSA-style figures):
- `gates` (default "simple": 2-input AND/OR/XOR and MUX, plus NOT) gives the gate count and the
  logic depth, in units a reader can picture without a library;
- `transistor_gates` (default "cmos": NAND/NOR/AOI/OAI/MUX/XOR) gives the transistor estimate of
  `stat -tech cmos`. ABC maps it with CMOS transistor costs; counting transistors on the
  "simple" mapping would charge 6 transistors for every AND that static CMOS builds inverted.
A second, unflattened synthesis attributes transistors to each submodule instance of the top.

``hierarchy = "bottom-up"`` (the NSA's method, as in flows/asic/): one synthesis that maps
each distinct module once, unflattened; its statistics give both the total and each block's
share, and the netlist is flattened only after mapping, for the logic depth (the simulation
keeps its modules).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError, ToolFailed
from ..rtl import run_yosys_script
from ..tools import yosys_version
from .base import (
    YOSYS_DROP_MARKERS,
    Design,
    FlowResult,
    cells_by_type,
    check_settings,
    load_design,
    missing_tool,
    read_stat_json,
    safe_key,
    yosys_id,
    yosys_read_script,
)
from .gates_prefix import DFFLEGALIZE, gates_prefix, shared_key

DEFAULTS: dict[str, Any] = {"gates": "simple", "transistor_gates": "cmos", "blocks": True,
                            "hierarchy": "flat"}
HIERARCHIES = ("flat", "bottom-up")
YOSYS_TIMEOUT_S = 3600

# The cell types `stat -tech cmos` has a transistor count for (Yosys kernel/cost.h); others are
# reported as uncounted instead of silently adding nothing.
CMOS_COSTED = frozenset({
    "$_BUF_", "$_NOT_", "$_AND_", "$_NAND_", "$_OR_", "$_NOR_", "$_ANDNOT_", "$_ORNOT_", "$_XOR_",
    "$_XNOR_", "$_AOI3_", "$_OAI3_", "$_AOI4_", "$_OAI4_", "$_MUX_", "$_NMUX_", "$_DFF_P_", "$_DFF_N_",
})

_RE_LTP = re.compile(r"Longest topological path in \S+ \(length=(\d+)\)")
_RE_GATE_SET = re.compile(r"^[A-Za-z0-9,]+$")


def is_storage(cell_type: str) -> bool:
    return "DFF" in cell_type or "DLATCH" in cell_type or cell_type.startswith("$_SR_")


class GenericFlow:
    name = "generic"
    # Flat: two syntheses of the whole design, flat and by block; bottom-up, one. In the NSA
    # study a pipeline's count took 1.5 to 3 times one of its ASIC jobs (BENCHMARKS.md).
    cost = 3
    # A study's synthesis_hierarchy reaches the generic and the asic jobs alike.
    study_keys = ("synthesis_hierarchy",)

    def study_settings(self, data: Any, where: str) -> dict[str, Any]:
        from .asic.study_options import hierarchy_settings

        return hierarchy_settings(data, where)

    def target_id(self, settings: dict[str, Any]) -> str:
        gates = settings.get("gates", DEFAULTS["gates"])
        label = "generic" if gates == DEFAULTS["gates"] else f"generic:{gates}"
        return label + (":bottom-up" if settings.get("hierarchy") == "bottom-up" else "")

    def available(self) -> str | None:
        return missing_tool(yosys_version)

    def shared_work(self, settings: dict[str, Any]) -> str:
        """The design's gate prefix, shared with the ASIC flow (flows/gates_prefix.py)."""
        return shared_key(str(settings.get("hierarchy", DEFAULTS["hierarchy"])), "restructure")

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        check_settings(self.name, settings, set(DEFAULTS))
        effective = {**DEFAULTS, **settings}
        for key in ("gates", "transistor_gates"):
            if not _RE_GATE_SET.match(str(effective[key])):
                raise CipherbenchError(f"generic setting {key}={effective[key]!r} is not an ABC gate list")
        if effective["hierarchy"] not in HIERARCHIES:
            raise CipherbenchError(f"generic setting hierarchy={effective['hierarchy']!r} must be "
                                   f"one of {', '.join(HIERARCHIES)}")
        design = load_design(design_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        if effective["hierarchy"] == "bottom-up":
            measurements, artifacts = _bottom_up(design, work_dir, effective)
        else:
            measurements, artifacts = _flat(design, work_dir, effective)
        if effective["blocks"] and effective["hierarchy"] == "flat":
            blocks, hier_artifacts = _per_block(design, work_dir, effective)
            measurements.update(blocks)
            artifacts.update(hier_artifacts)
        return FlowResult(
            target=self.target_id(effective), measurements=measurements,
            tools={"yosys": yosys_version()}, settings=effective, artifacts=artifacts,
        )


def _flat(design: Design, work: Path, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    paths = _paths(work)
    prefix = _prefix(design, "flat", work)
    script = [
        f"read_rtlil {prefix[0]}",
        "design -save legal",
        *_gate_views(settings, paths),
        "design -load legal",
        f"abc -g {settings['transistor_gates']}",
        "opt_clean",
        f"tee -q -o {paths['cmos_stat']} stat -json -tech cmos",
    ]
    run_yosys_script("\n".join(script), paths["yosys_log"], timeout=YOSYS_TIMEOUT_S)
    measurements, artifacts = _measure(design, paths)
    return measurements, {**artifacts, **_proof_artifacts(prefix, paths)}


def _bottom_up(design: Design, work: Path,
               settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Every distinct module synthesized and mapped once; figures of the flattened result.
    The unflattened CMOS statistics give each block's transistors (Yosys' estimate of a module
    includes its submodule instances), so no second synthesis is needed."""
    paths = _paths(work)
    hier_stat = work / "generic_hier_cmos.json"
    prefix = _prefix(design, "bottom-up", work)
    script = [
        f"read_rtlil {prefix[0]}",
        "design -save legal",
        f"abc -g {settings['gates']}",
        "opt_clean",
        # The netlist simulated keeps its modules: Verilator then compiles one round, not ten.
        f"write_verilog -noattr {paths['sim_netlist']}",
        f"write_rtlil {paths['proof_netlist']}",
        # Flattening joins each instance's port wires to its parent's by connections, which
        # `ltp` does not follow; opt_clean merges them.
        "flatten -noscopeinfo",
        "opt_clean",
        *_gate_views(settings, paths, mapped=True),
        "design -load legal",
        f"abc -g {settings['transistor_gates']}",
        "opt_clean",
        f"tee -q -o {hier_stat} stat -json -tech cmos",
        "flatten -noscopeinfo",
        f"tee -q -o {paths['cmos_stat']} stat -json -tech cmos",
    ]
    run_yosys_script("\n".join(script), paths["yosys_log"], timeout=YOSYS_TIMEOUT_S)
    measurements, artifacts = _measure(design, paths)
    artifacts.update(_proof_artifacts(prefix, paths))
    if settings["blocks"]:
        instances = _submodule_instances(design, work)
        if instances:
            modules = read_stat_json(hier_stat)
            measurements.update(_blocks(modules, design.top, instances, paths["yosys_log"]))
            artifacts["hier_cmos_stat"] = str(hier_stat)
    return measurements, artifacts


def _prefix(design: Design, hierarchy: str, work: Path) -> tuple[Path, Path | None]:
    """The design's gate prefix, shared with the ASIC flow (flows/gates_prefix.py), and the log
    of the run that made it (None when it was cached)."""
    return gates_prefix(design, hierarchy, "restructure", work / "generic_yosys_prefix.log")


def _proof_artifacts(prefix: tuple[Path, Path | None], paths: dict[str, Path]) -> dict[str, str]:
    """What verify/netlist_proof.py proves the gate netlist equal to (the prefix every netlist
    of the design is proven equal to), the netlist as RTLIL for it, and the prefix's log."""
    rtlil, log = prefix
    return {"equivalence_reference": str(rtlil),
            "equivalence_netlist": str(paths["proof_netlist"]),
            **({"yosys_prefix_log": str(log)} if log else {})}


def _paths(work: Path) -> dict[str, Path]:
    return {"gate_stat": work / "generic_gates.json", "cmos_stat": work / "generic_cmos.json",
            "ltp": work / "generic_ltp.txt", "sim_netlist": work / "generic_netlist.v",
            "proof_netlist": work / "generic_netlist.il", "yosys_log": work / "generic_yosys.log"}


def _gate_views(settings: dict[str, Any], paths: dict[str, Path], mapped: bool = False) -> list[str]:
    """Yosys commands that map to the gate set and write its figures and netlist; ``mapped``:
    the design is mapped and its netlist written already."""
    return [
        *([] if mapped else [f"abc -g {settings['gates']}", "opt_clean"]),
        f"tee -q -o {paths['gate_stat']} stat -json",
        # -noff: paths end at flip-flops, so this is the deepest register-to-register cone.
        f"tee -q -o {paths['ltp']} ltp -noff",
        # The mapped gates as Verilog, for gate-level simulation against the RTL's vectors, and
        # as RTLIL for the proof that they equal the prefix.
        *([] if mapped else [f"write_verilog -noattr {paths['sim_netlist']}",
                             f"write_rtlil {paths['proof_netlist']}"]),
    ]


def _measure(design: Design, paths: dict[str, Path]) -> tuple[dict[str, Any], dict[str, str]]:
    gates = cells_by_type(_top_stats(read_stat_json(paths["gate_stat"]), design.top))
    cmos_top = _top_stats(read_stat_json(paths["cmos_stat"]), design.top)
    cmos = cells_by_type(cmos_top)
    depth = _RE_LTP.search(paths["ltp"].read_text())
    measurements: dict[str, Any] = {
        "transistors": _transistors(cmos_top),
        "cells": sum(gates.values()),
        "flipflops": sum(n for kind, n in gates.items() if is_storage(kind)),
        "logic_depth": int(depth.group(1)) if depth else 0,
    }
    uncounted = sum(n for kind, n in cmos.items() if kind not in CMOS_COSTED)
    if uncounted:
        measurements["transistors_uncounted_cells"] = uncounted
    return measurements, {name: str(paths[name]) for name in
                          ("yosys_log", "gate_stat", "cmos_stat", "sim_netlist")}


def _top_stats(modules: dict[str, dict[str, Any]], top: str) -> dict[str, Any]:
    if top not in modules:
        raise ToolFailed(f"Yosys statistics lack the top module {top}")
    return modules[top]


def _transistors(stats: dict[str, Any]) -> int:
    """Yosys' estimate for a module ("2774", or "16+" when some cells have no known cost).

    Yosys 0.70 reports each module's estimate including its submodule instances (while its
    cell counts are local); _per_block relies on that and checks it.
    """
    match = re.match(r"\d+", str(stats.get("estimated_num_transistors", "0")))
    return int(match.group(0)) if match else 0


def _submodule_instances(design: Design, work: Path) -> dict[str, str]:
    """Instance name -> module name for the top's submodule instances (empty if flat)."""
    probe, top_json = work / "generic_hierarchy.json", work / "generic_top.json"
    script = [
        *yosys_read_script(design),
        f"tee -q -o {probe} stat -json",
        "proc",  # write_json cannot write processes
        f"select {yosys_id(design.top)}",
        f"write_json -selected {top_json}",
    ]
    run_yosys_script("\n".join(script), work / "generic_hierarchy.log", timeout=YOSYS_TIMEOUT_S)
    modules = read_stat_json(probe)
    if len(modules) <= 1:
        return {}
    cells = json.loads(top_json.read_text())["modules"][design.top]["cells"]
    return {name: cell["type"] for name, cell in cells.items() if cell["type"] in modules}


def _per_block(design: Design, work: Path, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """transistors_<instance> for each submodule instance of the top, from an unflattened run.

    Flattening lets optimization cross block boundaries, so these add up to a little more than
    the flat total; `transistors_hier_total` makes the difference visible.
    """
    instances = _submodule_instances(design, work)
    if not instances:
        return {}, {}
    stat = work / "generic_hier_cmos.json"
    script = [
        *yosys_read_script(design),
        f"synth -top {yosys_id(design.top)}",
        YOSYS_DROP_MARKERS,
        DFFLEGALIZE,
        f"abc -g {settings['transistor_gates']}",
        "opt_clean",
        f"tee -q -o {stat} stat -json -tech cmos",
    ]
    log = work / "generic_hier_yosys.log"
    run_yosys_script("\n".join(script), log, timeout=YOSYS_TIMEOUT_S)
    blocks = _blocks(read_stat_json(stat), design.top, instances, log)
    return blocks, {"hier_yosys_log": str(log), "hier_cmos_stat": str(stat)}


def _blocks(modules: dict[str, dict[str, Any]], top: str, instances: dict[str, str],
            log: Path) -> dict[str, Any]:
    """transistors_<instance> for each submodule instance of the top in unflattened CMOS
    statistics, the top's own gates (``transistors_top_glue``) and their total."""
    total = _transistors(_top_stats(modules, top))
    blocks = {
        f"transistors_{safe_key(inst)}": _transistors(modules[module])
        for inst, module in sorted(instances.items())
    }
    glue = total - sum(blocks.values())
    if glue < 0:
        raise ToolFailed(f"Yosys transistor estimates are not hierarchical as expected (log: {log})")
    blocks["transistors_top_glue"] = glue
    blocks["transistors_hier_total"] = total
    return blocks

"""The asic flow's synthesis: the design's gate prefix with its registers mapped onto the
Liberty (flip-flops, or latch pairs), one ABC pass per module, and the netlists the study
simulates and measures power on."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...cache import publish_text
from ...errors import CipherbenchError, ToolFailed
from ...rtl import run_yosys_script
from ...tools import yosys_version
from ..base import Design, cells_by_type, read_stat_json, yosys_id
from ..gates_prefix import gates_prefix, publish_yosys_outputs
from ..liberty import Liberty
from .abc import abc_module_delays, abc_script, module_abc_scripts

# Every flip-flop (enables and synchronous resets already turned into logic in front of it by
# dfflegalize) as a master latch open while C is low and a slave open while C is high: the
# master holds from the rising edge, when the slave opens, so each pair acts on the rising edge.
LATCH_PAIR_MAP = """(* techmap_celltype = "$_DFF_P_" *)
module _cb_flipflop_as_latches (input C, input D, output Q);
  wire master;
  \\$_DLATCH_N_ master_latch (.E(C), .D(D), .Q(master));
  \\$_DLATCH_P_ slave_latch (.E(C), .D(master), .Q(Q));
endmodule
"""
FANOUT_OF = 4  # ABC's output load, in NAND2 inputs
YOSYS_TIMEOUT_S = 3600
_RE_RTLIL_MODULE = re.compile(r"^module \\?(\S+)$")


def rtlil_modules(path: Path) -> list[str]:
    """The module names of an RTLIL file (gzipped or not), in file order, without the "\\"."""
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:  # type: ignore[operator]
        return [m.group(1) for line in fh if (m := _RE_RTLIL_MODULE.match(line))]



def _constraints(library: Liberty) -> str | None:
    """ABC's drive and load model (see the module docstring); None if the library lacks the data."""
    load = library.nand2_input_cap_ff()
    if library.buffer is None or load is None:
        return None
    return f"set_driving_cell {library.buffer.name}\nset_load {FANOUT_OF * load:.4f}\n"


@dataclass(frozen=True)
class _MappedFiles:
    """What the mapping run writes in the work folder."""

    netlist: Path  # one port per bit, simple assignments: what OpenSTA times
    stat: Path
    mapped: Path  # the cells with the top's vector ports: what the study simulates
    mapped_rtlil: Path  # the same as RTLIL, which the netlist proof reads
    log: Path

    @classmethod
    def under(cls, work: Path) -> _MappedFiles:
        return cls(work / "asic_netlist.v", work / "asic_stat.json", work / "asic_mapped.v",
                   work / "asic_mapped.il", work / "asic_yosys.log")


def synthesize(
    design: Design, library: Liberty, work: Path, settings: dict[str, Any],
    simulation_views: bool = True,
) -> tuple[Path, dict[str, Any], dict[str, str]]:
    """Map the design onto the Liberty; its netlists (``mapped``: the cells with the top's vector
    ports), figures and artifacts. ``simulation_views``: also the netlist the study simulates
    and, with the ``power`` setting, the one it measures power on."""
    constraints = _write_constraints(library, work)
    # Power-management cells (isolation, level shifters, backup-power domains) are never
    # plain logic; the user's patterns come on top.
    patterns = [*library.special_cells, *settings["dont_use"]]
    dont_use = "".join(f" -dont_use {pattern}" for pattern in patterns)
    files = _MappedFiles.under(work)
    prefix, reference, unmap, prefix_logs = _registers_mapped(design, library, settings,
                                                              dont_use, work)
    constr_arg = f" -constr {constraints}" if constraints is not None else ""
    abc_path, abc_passes = _abc_passes(rtlil_modules(prefix), settings, work,
                                       f"-liberty {library.path}{constr_arg}{dont_use}")
    script = _mapping_script(prefix, abc_passes, files, library, settings["hierarchy"])
    log_text = run_yosys_script("\n".join(script), files.log, timeout=YOSYS_TIMEOUT_S)
    measurements = _measurements(design, library, files, log_text)
    artifacts = {
        "yosys_log": str(files.log), "netlist": str(files.netlist), "abc_script": str(abc_path),
        "stat": str(files.stat), "registers_mapped": str(prefix),
        # What verify/netlist_proof.py proves the mapped netlist equal to: the design's gate
        # prefix, shared by all its goals and grades and by the generic flow; the library's
        # cells to read the netlist by, and the map of its registers back to Yosys' own.
        "equivalence_reference": str(reference),
        "equivalence_netlist": str(files.mapped_rtlil),
        "equivalence_cells": str(library.path),
        "equivalence_register_map": str(unmap),
    }
    artifacts.update({name: str(path) for name, path in prefix_logs.items()})
    if constraints is not None:
        artifacts["abc_constraints"] = str(constraints)
    artifacts["mapped"] = str(files.mapped)
    if simulation_views:
        artifacts.update(_simulation_netlists(design, library, files.mapped, work,
                                              power=settings.get("power", True)))
    return files.netlist, measurements, artifacts


def _write_constraints(library: Liberty, work: Path) -> Path | None:
    """ABC's drive and load model as a constraints file; None if the library lacks the data."""
    constr = _constraints(library)
    if constr is None:
        return None
    path = work / "asic.constr"
    path.write_text(constr)
    return path


def _mapping_script(prefix: Path, abc_passes: list[str], files: _MappedFiles, library: Liberty,
                    hierarchy: str) -> list[str]:
    """Yosys' commands from the registers-mapped prefix to the netlists and statistics."""
    return [
        f"read_rtlil {prefix}",
        *abc_passes,
        "opt_clean",
        "setundef -zero",
        # The mapped cells with the top's vector ports: the netlist simulated on the RTL's vectors.
        f"write_verilog -noattr {files.mapped}",
        # The same as RTLIL, which the netlist proof reads (verify/netlist_proof.py).
        f"write_rtlil {files.mapped_rtlil}",
        # A bottom-up netlist is timed and counted whole, as OpenSTA links it anyway; flattened
        # after mapping, nothing is optimized across modules.
        *(["flatten -noscopeinfo"] if hierarchy == "bottom-up" else []),
        # One port per bit and simple assignments: the netlist form OpenSTA reads reliably.
        "splitnets -ports",
        "opt_clean -purge",
        f"tee -q -o {files.stat} stat -json -liberty {library.path}",
        f"write_verilog -noattr -noexpr -simple-lhs {files.netlist}",
    ]


def _measurements(design: Design, library: Liberty, files: _MappedFiles,
                  log_text: str) -> dict[str, Any]:
    """Area, cells and registers from Yosys' statistics of the top (every cell must be one of
    the library's), and ABC's delay per module from the log."""
    top = read_stat_json(files.stat).get(design.top)
    if top is None:
        raise ToolFailed(f"Yosys statistics lack the top module {design.top} (log: {files.log})")
    counts = cells_by_type(top)
    unmapped = sorted(kind for kind in counts if kind.startswith("$") or kind not in library.cells)
    if unmapped:
        raise ToolFailed(f"cells not mapped to {library.name}: {', '.join(unmapped[:5])} "
                         f"(log: {files.log})")
    area = float(top.get("area", 0.0))
    flipflops = library.sequential_cells - library.latch_cells
    # Yosys' sequential_area counts flip-flops only: the storage area from the cells themselves.
    storage = sum(n * library.cells[kind].area for kind, n in counts.items()
                  if kind in library.sequential_cells)
    return {
        "area_um2": round(area, 4),
        "gate_equivalents": round(area / library.nand2.area, 2),
        "sequential_area_um2": round(storage, 4),
        "cells": sum(counts.values()),
        "flipflops": sum(n for kind, n in counts.items() if kind in flipflops),
        "latches": sum(n for kind, n in counts.items() if kind in library.latch_cells),
        "abc_module_delays_ps": abc_module_delays(log_text),
    }


def _abc_passes(modules: list[str], settings: dict[str, Any], work: Path,
                options: str) -> tuple[Path, list[str]]:
    """One `abc` command per module, each with its script (``module_abc_scripts``), so that
    every module's figures in the log are its own. Returns the first module's script file
    (artifact ``abc_script``; the others sit beside it as asic_<n>.abc) and the commands.
    Modules sharing a script share its file."""
    files: dict[str, Path] = {}
    commands = []
    for module, text in module_abc_scripts(modules, settings).items():
        if text not in files:
            files[text] = work / ("asic.abc" if not files else f"asic_{len(files)}.abc")
            files[text].write_text(text + "\n")
        if any(c in module for c in "*?[]"):
            raise CipherbenchError(f"module name {module!r} has a Yosys wildcard character; "
                                   "rename it in the generator")
        commands.append(f"abc {options} -script {files[text]} {module}")
    if not files:  # no module at all: nothing to map, but the goal's script is still recorded
        text = abc_script(settings["goal"], settings["delay_ps"], settings["structure"])
        files[text] = work / "asic.abc"
        files[text].write_text(text + "\n")
    return next(iter(files.values())), commands


def _registers_mapped(design: Design, library: Liberty, settings: dict[str, Any],
                      dont_use: str, work: Path) -> tuple[Path, Path, Path, dict[str, Path]]:
    """The design's gate prefix (flows/gates_prefix.py, shared with the generic flow) with its
    registers mapped onto the library: all of the flow before ABC, as gzipped RTLIL. Returns it,
    the netlist the proofs take as reference (the gate prefix, or with ``sequential = "latch"``
    the prefix with its flip-flops made latch pairs), the map that turns the library's
    registers back into Yosys' (verify/netlist_proof.py ``register_unmap``), and the logs of
    the runs this job made: ``yosys_gates_log`` (the gate prefix) and ``yosys_prefix_log`` (its
    registers mapped), each absent when it came from the cache.

    Only ABC's script differs between the goals and speed grades of one design, so this is made
    once and kept (``<cache>/synth``), keyed by the gate prefix, the Liberty, Yosys' version and
    the script. Every run, cached or not, maps from the file, so a cached prefix gives the
    figures a fresh one would. Two jobs that need it at once each make it and publish it with
    one rename (as ensure_design does): the same files."""
    from ...cache import cache_root
    from ...verify.netlist_proof import register_unmap

    gates, gates_log = gates_prefix(design, settings["hierarchy"], settings["structure"],
                                    work / "asic_yosys_gates.log")
    logs = {"yosys_gates_log": gates_log} if gates_log is not None else {}
    folder = cache_root() / "synth"
    latches: list[str] = []
    if settings["sequential"] == "latch":
        latch_map = folder / "latch_pairs.v"
        if not latch_map.exists() or latch_map.read_text() != LATCH_PAIR_MAP:
            publish_text(latch_map, LATCH_PAIR_MAP)
        latches = ["dfflegalize -cell $_DFF_P_ 01", f"techmap -map {latch_map}"]
    mapping = [f"dfflibmap -liberty {library.path}{dont_use}"]
    digest = hashlib.sha256()
    for part in (yosys_version(), library.sha256, gates.name, "\n".join([*latches, *mapping])):
        digest.update(part.encode() + b"\0")
    stem = f"{design.top}-{digest.hexdigest()[:20]}"
    rtlil = folder / f"{stem}.il.gz"
    reference = folder / f"{stem}.latches.il.gz" if latches else gates
    unmap = folder / f"{stem}.unmap.v"
    if unmap.exists():  # published last
        return rtlil, reference, unmap, logs
    log = work / "asic_yosys_prefix.log"
    outputs = [*([(latches, reference)] if latches else []), (mapping, rtlil)]
    publish_yosys_outputs([f"read_rtlil {gates}"], outputs, log, timeout=YOSYS_TIMEOUT_S)
    publish_text(unmap, register_unmap(log.read_text()))
    return rtlil, reference, unmap, {**logs, "yosys_prefix_log": log}


def _simulation_netlists(design: Design, library: Liberty, mapped: Path,
                         work: Path, power: bool = True) -> dict[str, str]:
    """Two views of the mapped netlist with the same short net and instance names (n<i>,
    u<i>): ``power_netlist`` (cell instances, for OpenSTA's power report, with its connectivity
    as JSON) and ``sim_netlist`` (the same with every cell defined by its Liberty function, which
    Yosys reads from the cells' ``function`` and ``ff``/``latch`` groups): Verilog a simulator
    runs. The names match, so the simulated activity of each net lands on its driving pin.
    Without ``power`` only ``sim_netlist``: the study then neither traces nor measures power."""
    power_netlist, power_json = work / "asic_power_netlist.v", work / "asic_power_netlist.json"
    renamed, sim = work / "asic_renamed_netlist.v", work / "asic_sim_netlist.v"
    top = yosys_id(design.top)
    script = [
        f"read_liberty -lib {library.path}",
        f"read_verilog {mapped}",
        f"hierarchy -check -top {top}",
        # A bottom-up netlist keeps its modules for simulation (Verilator compiles a shared
        # module once) and is flattened for power, whose activity is read per net of one module.
        *(["flatten -noscopeinfo"] if power else []),
        "rename -hide w:* c:*",
        "rename -enumerate -pattern n% w:*",
        "rename -enumerate -pattern u% c:*",
        f"write_verilog -noattr -noexpr -simple-lhs {renamed}",
        # For OpenSTA: one port per bit and simple assignments, as the timing netlist.
        *(["splitnets -ports", f"write_verilog -noattr -noexpr -simple-lhs {power_netlist}",
           f"write_json {power_json}"] if power else []),
        "design -reset",
        f"read_liberty -ignore_miss_func {library.path}",
        f"read_verilog {renamed}",
        f"hierarchy -check -top {top}",
        f"write_verilog -noattr {sim}",
    ]
    run_yosys_script("\n".join(script), work / "asic_sim_netlist.log", timeout=YOSYS_TIMEOUT_S)
    if not power:
        return {"sim_netlist": str(sim)}
    return {"power_netlist": str(power_netlist), "power_netlist_json": str(power_json),
            "sim_netlist": str(sim)}


# ---- static timing --------------------------------------------------------------------------

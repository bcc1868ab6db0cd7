"""ASIC flow: Yosys + ABC onto a Liberty library, then OpenSTA on the post-synthesis netlist.

DESIGN.md section 6: timing after synthesis only means something once ABC has buffered and sized
the netlist, so every script ends in `buffer -p` (buffer high-fanout nets, flip-flop outputs
and ports included) and sizing. ABC models its inputs as driven by the library's smallest buffer
and its outputs as loaded by four NAND2 inputs (a fanout-of-4 load), given through `-constr`;
without that ABC sees ideal drivers and leaves a flip-flop driving 50 gates on an X1 output.

Goals:
- "area": area-oriented mapping (`amap`), then buffering and downsizing with no delay target;
- "speed": `&nf -D 1` (1 ps: ABC gets as fast as it can), buffering, `upsize` to 1 ps (no
  downsizing: see ``abc_script``);
- an explicit `delay_ps`: the same as speed with that target;
- a speed grade (`grade_position` p between 0, the speed end, and 1, the area end, with
  `module_delays_ps`, each module's ABC delay at the two ends): every module gets its own target
  p of the way from its speed-end delay to its area-end delay. A grade nearer the speed end
  (p < 0.5) maps for delay to that target and upsizes (`&nf -R 1000 -D t; upsize -D t`), one
  nearer the area end maps for area and sizes to it (`amap; upsize -D t; dnsize -D t`): on the
  MARS modules measured (BENCHMARKS.md, "Speed grades per module") `&nf` recovers little area
  however loose its target, while `amap` with sizing cannot reach the faster targets, so each
  family covers its half of the curve.

ABC runs once per module (one `abc` command each), so its own delay of every module is known
(measurement ``abc_module_delays_ps``, from the `stime -p` line of that module's run): the speed
grades between a design's ends are planned from these (study.py).
"""

from __future__ import annotations

import hashlib
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

from ..cache import publish_text
from ..errors import CipherbenchError, ToolFailed
from ..rtl import run_yosys_script
from ..tools import run_tool, sta_path, sta_version, yosys_version
from .base import (
    Design,
    FlowResult,
    cells_by_type,
    check_settings,
    load_design,
    missing_tool,
    read_stat_json,
    yosys_id,
)
from .gates_prefix import gates_prefix, publish_yosys_outputs, shared_key
from .liberty import Liberty, load_liberty

DEFAULTS: dict[str, Any] = {
    "liberty": None,  # path; else $CIPHERBENCH_LIBERTY, else $PDK_ROOT (see liberty.find_liberty)
    "goal": "area",  # "area" | "speed"; ignored when delay_ps is given
    "delay_ps": None,  # explicit ABC delay target; with grade_position, the grade's label
    # A speed grade (module docstring): its position between the ends, 0 (speed) to 1 (area),
    # and each module's ABC delay at the two ends, {module: [speed_ps, area_ps]}.
    "grade_position": None,
    "module_delays_ps": None,
    "clock_period_ns": 10.0,  # STA clock; the result (period - worst slack) does not depend on it
    "dont_use": [],  # glob patterns of cells neither dfflibmap nor ABC may use
    # "restructure": Yosys' synth with its own ABC pass, then ABC's full preparation (fraig,
    # scorr, dc2, dretime): best figures for arbitrary logic, but it rewrites a hand-built carry
    # network (a prefix adder) into a near-serial chain. "keep": no ABC pass in synth and no
    # dc2/fraig/scorr before mapping, so the structure the RTL chose is what gets mapped.
    "structure": "restructure",
    # "flipflop": the design's registers as the Liberty's flip-flops. "latch": each flip-flop as a
    # two-phase pair of latches (Papaefstathiou et al.'s latch-based cores): a master open while
    # the clock is low and a slave open while it is high, timed by OpenSTA with time borrowing.
    "sequential": "flipflop",
    # Power from simulated switching activity (power.py): a traced gate-level build and three
    # workload simulations, the larger part of a big core's job. False keeps the netlist's
    # verification on the RTL's vectors but measures no power (the NSA's tables have none).
    "power": True,
    # "flat": the design flattened, then synthesized and mapped as one netlist. "bottom-up": each
    # distinct module synthesized and mapped once, by itself, and instantiated wherever it is
    # used (the NSA study's method, seed 000 section 3.1: "synthesis proceeded from the bottom of
    # the design up through the hierarchy"). No optimization crosses a module boundary, and ABC
    # sees each module's ports as driven and loaded as the design's own; a pipeline of ten
    # identical rounds is mapped once instead of ten times (BENCHMARKS.md).
    "hierarchy": "flat",
}
STRUCTURES = ("restructure", "keep")
SEQUENTIAL = ("flipflop", "latch")
HIERARCHIES = ("flat", "bottom-up")
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
# The minimum period of a latch design, found by bisection (OpenSTA 2.0.17 has no command for
# it; the slack at one period says nothing about a path that borrows): this many halvings.
LATCH_BISECTION_STEPS = 22
SPEED_DELAY_PS = 1
# &nf's delay relaxation for speed grades: measured to give about 6 % less area than plain
# `&nf -D t` at the same delay on MARS' multiplier module (BENCHMARKS.md, "Speed grades per
# module").
GRADE_NF_RELAX = 1000
# Grades at or beyond this position map for area and size up (module docstring).
GRADE_AREA_MAPPING_FROM = 0.5
AREA_DNSIZE_PS = 100_000  # "no delay target": 100 ns is slower than any path we will see
FANOUT_OF = 4  # ABC's output load, in NAND2 inputs
YOSYS_TIMEOUT_S = 3600
STA_TIMEOUT_S = 1800

# Yosys' default ABC script for Liberty mapping (`abc -liberty`), up to the mapper.
_ABC_PREPARE = "strash; &get -n; &fraig -x; &put; scorr; dc2; dretime; strash; &get -n; &dch -f"
# structure=keep: only structural hashing and choice computation before the mapper.
_ABC_PREPARE_KEEP = "strash; &get -n; &dch -f"
STA_OK = "CIPHERBENCH_STA_OK"
_RE_SLACK = re.compile(r"CIPHERBENCH worst_slack_ns (\S+)")
_RE_ZERO_WIRE_SLACK = re.compile(r"CIPHERBENCH zero_wire_slack_ns (\S+)")
_RE_MIN_PERIOD = re.compile(r"CIPHERBENCH min_period_ns (\S+)")
_RE_ZERO_WIRE_MIN_PERIOD = re.compile(r"CIPHERBENCH zero_wire_min_period_ns (\S+)")
_RE_BORROWED = re.compile(r"^\s*(-?\d+\.\d+)\s+(?:\S+\s+)?time borrowed from endpoint", re.MULTILINE)
_RE_POINT = re.compile(r"[\^v]\s+(\S+)/\S+\s+\(([^)\s]+)\)\s*$")
_RE_PRIVATE = re.compile(r"^_\d+_$")
_RE_ABC_PASS = re.compile(r"^\d+(?:\.\d+)*\. Executing ABC pass", re.MULTILINE)
_RE_ABC_MODULE = re.compile(r"Extracting gate netlist of module `\\?(.+?)' to ")
_RE_ABC_DELAY = re.compile(r"Delay =\s*(-?[\d.]+) ps")
_RE_RTLIL_MODULE = re.compile(r"^module \\?(\S+)$")


def _abc_prepare(structure: str) -> str:
    """ABC's steps before mapping, for the ``structure`` setting."""
    return _ABC_PREPARE_KEEP if structure == "keep" else _ABC_PREPARE


def abc_script(goal: str, delay_ps: int | None, structure: str = "restructure") -> str:
    """The ABC script for a goal, written out in full so it is recorded with the result."""
    prepare = _abc_prepare(structure)
    if goal == "area":
        return f"{prepare}; &put; amap; buffer -p; dnsize -D {AREA_DNSIZE_PS}; stime -p"
    if goal == "speed":
        # No dnsize: ABC sizes each module by its own paths, and downsizing what is not critical
        # there slowed the assembled design: without it 17 of the NSA study's 20 designs were
        # faster bottom-up (MARS-128 iterative 5.67 -> 4.69 ns, for 8 % more area), the AES
        # 3-in-1 pipeline 5 % slower (BENCHMARKS.md, "Speed grades per module").
        return f"{prepare}; &nf -D {SPEED_DELAY_PS}; &put; buffer -p; upsize -D {SPEED_DELAY_PS}; stime -p"
    return (
        f"{prepare}; &nf -D {delay_ps}; &put; buffer -p; "
        f"upsize -D {delay_ps}; dnsize -D {delay_ps}; stime -p"
    )


def grade_target_ps(position: float, speed_ps: float, area_ps: float) -> int:
    """A module's ABC target at ``position`` between its speed-end and area-end delays (an
    area end no slower than the speed end, as a tiny module's can be, gives the speed end's)."""
    return max(1, round(speed_ps + position * max(0.0, area_ps - speed_ps)))


def grade_abc_script(position: float, target_ps: int, structure: str = "restructure") -> str:
    """The ABC script of one module at a speed grade (module docstring)."""
    prepare = _abc_prepare(structure)
    upsize = f"buffer -p; upsize -D {target_ps}"
    if position < GRADE_AREA_MAPPING_FROM:
        return f"{prepare}; &nf -R {GRADE_NF_RELAX} -D {target_ps}; &put; {upsize}; stime -p"
    return f"{prepare}; &put; amap; {upsize}; dnsize -D {target_ps}; stime -p"


def module_abc_scripts(modules: list[str], settings: dict[str, Any]) -> dict[str, str]:
    """Each module's ABC script: the goal's, or at a speed grade the module's own (a module the
    ends did not measure, one with no logic to map, gets the plain ``delay_ps`` script)."""
    common = abc_script(settings["goal"], settings["delay_ps"], settings["structure"])
    position = settings.get("grade_position")
    if position is None:
        return {module: common for module in modules}
    ends = settings.get("module_delays_ps") or {}
    scripts = {}
    for module in modules:
        if module in ends:
            speed_ps, area_ps = ends[module]
            target = grade_target_ps(position, speed_ps, area_ps)
            scripts[module] = grade_abc_script(position, target, settings["structure"])
        else:
            scripts[module] = common
    return scripts


def rtlil_modules(path: Path) -> list[str]:
    """The module names of an RTLIL file (gzipped or not), in file order, without the "\\"."""
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:  # type: ignore[operator]
        return [m.group(1) for line in fh if (m := _RE_RTLIL_MODULE.match(line))]


def abc_module_delays(log: str) -> dict[str, float]:
    """ABC's own delay (its last `stime -p`) of every module the log's ABC passes mapped, one
    pass per module; a module with nothing to map has none."""
    delays: dict[str, float] = {}
    starts = [m.start() for m in _RE_ABC_PASS.finditer(log)] + [len(log)]
    for begin, end in pairwise(starts):
        section = log[begin:end]
        modules = _RE_ABC_MODULE.findall(section)
        found = _RE_ABC_DELAY.findall(section)
        if len(modules) == 1 and found:
            delays[modules[0]] = float(found[-1])
    return delays


class AsicFlow:
    name = "asic"
    cost = 2

    def target_id(self, settings: dict[str, Any]) -> str:
        effective = {**DEFAULTS, **settings}
        library = load_liberty(effective["liberty"])
        return f"asic:{library.name}:{_goal_label(effective)}"

    def available(self) -> str | None:
        return missing_tool(yosys_version, sta_path)

    def shared_work(self, settings: dict[str, Any]) -> str:
        """What decides the design's gate prefix (flows/gates_prefix.py), which the first job
        makes and, through the netlist proof, whose netlist simulation the others reuse: the
        goal, delay target and Liberty do not."""
        effective = {**DEFAULTS, **settings}
        return shared_key(str(effective["hierarchy"]), str(effective["structure"]))

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        check_settings(self.name, settings, set(DEFAULTS))
        effective = effective_settings(settings)
        library = load_liberty(effective["liberty"])
        design = load_design(design_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        sta = sta_path()  # fail before the long synthesis if OpenSTA is missing

        netlist, synth, artifacts = synthesize(design, library, work_dir, effective)
        timing, sta_artifacts = _time(design, library, netlist, work_dir, effective, sta)
        artifacts.update(sta_artifacts)

        effective.update({
            "liberty": str(library.source), "liberty_name": library.name,
            "liberty_sha256": library.sha256, "nand2_cell": library.nand2.name,
            "nand2_area_um2": library.nand2.area, "dont_use_auto": library.special_cells,
        })
        return FlowResult(
            target=f"asic:{library.name}:{_goal_label(effective)}",
            measurements={**synth, **timing},
            tools={
                "yosys": yosys_version(), "opensta": sta_version(),
                "liberty": f"{library.name} sha256:{library.sha256}",
            },
            settings=effective, artifacts=artifacts,
        )


def effective_settings(settings: dict[str, Any]) -> dict[str, Any]:
    effective = {**DEFAULTS, **settings}
    effective["dont_use"] = list(effective["dont_use"] or [])
    if effective["delay_ps"] is not None:
        delay = effective["delay_ps"]
        if not isinstance(delay, (int, float)) or delay <= 0:
            raise CipherbenchError(f"asic setting delay_ps={delay!r} must be a positive number of ps")
        effective["delay_ps"] = int(round(delay))
        effective["goal"] = "delay"
    elif effective["goal"] not in ("area", "speed"):
        raise CipherbenchError(
            f"asic setting goal={effective['goal']!r} must be 'area' or 'speed' (or give delay_ps)"
        )
    _check_grade(effective)
    if effective["structure"] not in STRUCTURES:
        raise CipherbenchError(f"asic setting structure={effective['structure']!r} must be one of "
                               f"{', '.join(STRUCTURES)}")
    if float(effective["clock_period_ns"]) <= 0:
        raise CipherbenchError("asic setting clock_period_ns must be positive")
    if not isinstance(effective["power"], bool):
        raise CipherbenchError(f"asic setting power={effective['power']!r} must be true or false")
    if effective["hierarchy"] not in HIERARCHIES:
        raise CipherbenchError(f"asic setting hierarchy={effective['hierarchy']!r} must be one "
                               f"of {', '.join(HIERARCHIES)}")
    if effective["sequential"] not in SEQUENTIAL:
        raise CipherbenchError(f"asic setting sequential={effective['sequential']!r} must be one "
                               f"of {', '.join(SEQUENTIAL)}")
    return effective


def _check_grade(effective: dict[str, Any]) -> None:
    position, ends = effective["grade_position"], effective["module_delays_ps"]
    if position is None:
        if ends is not None:
            raise CipherbenchError("asic setting module_delays_ps needs grade_position")
        return
    if not isinstance(position, (int, float)) or not 0 < position < 1:
        raise CipherbenchError(f"asic setting grade_position={position!r} must lie strictly "
                               "between 0 (the speed end) and 1 (the area end)")
    if effective["delay_ps"] is None:
        raise CipherbenchError("asic setting grade_position needs delay_ps (the grade's label)")
    if not isinstance(ends, dict) or not all(
            isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, (int, float)) and x > 0 for x in v) for v in ends.values()):
        raise CipherbenchError("asic setting module_delays_ps must map each module to "
                               "[speed_end_ps, area_end_ps]")


def _goal_label(settings: dict[str, Any]) -> str:
    if settings.get("delay_ps") is not None:
        label = f"d{int(round(settings['delay_ps']))}ps"
    else:
        label = str(settings.get("goal", DEFAULTS["goal"]))
    # Only non-default choices show, so existing target ids stay as they were.
    return (label + (":keep" if settings.get("structure") == "keep" else "")
            + (":latch" if settings.get("sequential") == "latch" else "")
            + (":bottom-up" if settings.get("hierarchy") == "bottom-up" else ""))


# ---- synthesis ------------------------------------------------------------------------------


def _constraints(library: Liberty) -> str | None:
    """ABC's drive and load model (see the module docstring); None if the library lacks the data."""
    load = library.nand2_input_cap_ff()
    if library.buffer is None or load is None:
        return None
    return f"set_driving_cell {library.buffer.name}\nset_load {FANOUT_OF * load:.4f}\n"


def synthesize(
    design: Design, library: Liberty, work: Path, settings: dict[str, Any],
    simulation_views: bool = True,
) -> tuple[Path, dict[str, Any], dict[str, str]]:
    """Map the design onto the Liberty; its netlists (``mapped``: the cells with the top's vector
    ports), figures and artifacts. ``simulation_views``: also the netlist the study simulates
    and, with the ``power`` setting, the one it measures power on."""
    lib = library.path
    constr_path = work / "asic.constr"
    constr = _constraints(library)
    constr_arg = ""
    if constr is not None:
        constr_path.write_text(constr)
        constr_arg = f"-constr {constr_path} "
    # Power-management cells (isolation, level shifters, backup-power domains) are never
    # plain logic; the user's patterns come on top.
    patterns = [*library.special_cells, *settings["dont_use"]]
    dont_use = "".join(f" -dont_use {pattern}" for pattern in patterns)
    netlist, stat = work / "asic_netlist.v", work / "asic_stat.json"
    mapped, mapped_rtlil = work / "asic_mapped.v", work / "asic_mapped.il"
    prefix, reference, unmap, prefix_logs = _registers_mapped(design, library, settings,
                                                              dont_use, work)
    abc_path, abc_passes = _abc_passes(rtlil_modules(prefix), settings, work,
                                       f"-liberty {lib} {constr_arg}".rstrip() + dont_use)
    script = [
        f"read_rtlil {prefix}",
        *abc_passes,
        "opt_clean",
        "setundef -zero",
        # The mapped cells with the top's vector ports: the netlist simulated on the RTL's vectors.
        f"write_verilog -noattr {mapped}",
        # The same as RTLIL, which the netlist proof reads (verify/netlist_proof.py).
        f"write_rtlil {mapped_rtlil}",
        # A bottom-up netlist is timed and counted whole, as OpenSTA links it anyway; flattened
        # after mapping, nothing is optimized across modules.
        *(["flatten -noscopeinfo"] if settings["hierarchy"] == "bottom-up" else []),
        # One port per bit and simple assignments: the netlist form OpenSTA reads reliably.
        "splitnets -ports",
        "opt_clean -purge",
        f"tee -q -o {stat} stat -json -liberty {lib}",
        f"write_verilog -noattr -noexpr -simple-lhs {netlist}",
    ]
    log = work / "asic_yosys.log"
    log_text = run_yosys_script("\n".join(script), log, timeout=YOSYS_TIMEOUT_S)
    top = read_stat_json(stat).get(design.top)
    if top is None:
        raise ToolFailed(f"Yosys statistics lack the top module {design.top} (log: {log})")
    counts = cells_by_type(top)
    unmapped = sorted(kind for kind in counts if kind.startswith("$") or kind not in library.cells)
    if unmapped:
        raise ToolFailed(f"cells not mapped to {library.name}: {', '.join(unmapped[:5])} (log: {log})")
    area = float(top.get("area", 0.0))
    flipflops = library.sequential_cells - library.latch_cells
    # Yosys' sequential_area counts flip-flops only: the storage area from the cells themselves.
    storage = sum(n * library.cells[kind].area for kind, n in counts.items()
                  if kind in library.sequential_cells)
    measurements: dict[str, Any] = {
        "area_um2": round(area, 4),
        "gate_equivalents": round(area / library.nand2.area, 2),
        "sequential_area_um2": round(storage, 4),
        "cells": sum(counts.values()),
        "flipflops": sum(n for kind, n in counts.items() if kind in flipflops),
        "latches": sum(n for kind, n in counts.items() if kind in library.latch_cells),
        "abc_module_delays_ps": abc_module_delays(log_text),
    }
    artifacts = {
        "yosys_log": str(log), "netlist": str(netlist), "abc_script": str(abc_path), "stat": str(stat),
        "registers_mapped": str(prefix),
        # What verify/netlist_proof.py proves the mapped netlist equal to: the design's gate
        # prefix, shared by all its goals and grades and by the generic flow; the library's
        # cells to read the netlist by, and the map of its registers back to Yosys' own.
        "equivalence_reference": str(reference),
        "equivalence_netlist": str(mapped_rtlil),
        "equivalence_cells": str(library.path),
        "equivalence_register_map": str(unmap),
    }
    artifacts.update({name: str(path) for name, path in prefix_logs.items()})
    if constr is not None:
        artifacts["abc_constraints"] = str(constr_path)
    artifacts["mapped"] = str(mapped)
    if simulation_views:
        artifacts.update(_simulation_netlists(design, library, mapped, work,
                                              power=settings.get("power", True)))
    return netlist, measurements, artifacts


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
    from ..cache import cache_root
    from ..verify.netlist_proof import register_unmap

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


def _time(
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

_RE_POWER_TOTAL = re.compile(r"^Total\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", re.MULTILINE)
_POWER_MARK = "CIPHERBENCH_POWER"


def power_script(library: Liberty, netlist: Path, top: str, clock: str, periods_ns: list[float],
                 activity_tcl: Path | None, latch: bool = False) -> str:
    """OpenSTA: for each clock period, the power report with OpenSTA's default (vectorless)
    activity, then with the activity file's per-pin annotations (``set_power_activity``).

    ``latch``: OpenSTA's propagation of activity does not end on a latch design's loops (two
    minutes without an answer for a 3-kGE DES core), so every net first gets the default input
    activity itself (``-global``, 0.1 per clock at duty 0.5): the vectorless figure, and the
    default for any net the activity file leaves out."""
    def reports(kind: str) -> list[str]:
        return [f"""  create_clock -name {{{clock}}} -period {period} [get_ports {{{clock}}}]
  puts "{_POWER_MARK} {kind} {period}"
  report_power -digits 6""" for period in periods_ns]

    # Annotations stay once sourced: every vectorless report comes first.
    parts = (["  set_power_activity -global -activity 0.1 -duty 0.5"] if latch else [])
    parts += reports("vectorless")
    if activity_tcl is not None:
        parts += [f"  source {{{activity_tcl}}}", *reports("activity")]
    body = "\n".join(parts)
    return f"""set cb_ok 0
if {{[catch {{
  read_liberty {{{library.path}}}
  read_verilog {{{netlist}}}
  link_design {{{top}}}
{body}
  set cb_ok 1
}} msg]}} {{ puts "ERROR: $msg" }}
if {{$cb_ok}} {{ puts "{STA_OK}" }}
"""


def report_power(library: Liberty, netlist: Path, top: str, clock: str, periods_ns: list[float],
                 activity_tcl: Path | None, work: Path, sta: str,
                 latch: bool = False) -> dict[tuple[str, float], dict[str, float]]:
    """(kind, period) -> internal, switching, leakage and total power in mW; kind is
    "vectorless" (OpenSTA's default input activity, propagated) or "activity" (annotated)."""
    script, log = work / "asic_power.tcl", work / "asic_power.log"
    script.write_text(power_script(library, netlist, top, clock, periods_ns, activity_tcl,
                                   latch))
    output = run_tool([sta, "-no_init", "-no_splash", "-exit", str(script)], cwd=work,
                      log_path=log, timeout_s=STA_TIMEOUT_S)
    check_sta_output(output, log)
    found: dict[tuple[str, float], dict[str, float]] = {}
    for part in output.split(_POWER_MARK)[1:]:
        kind, period = part.split()[:2]
        total = _RE_POWER_TOTAL.search(part)
        if total is None:
            raise ToolFailed(f"OpenSTA printed no power total (log: {log})")
        watts = [float(v) for v in total.groups()]
        found[(kind, float(period))] = {
            name: round(w * 1000.0, 6)
            for name, w in zip(("internal", "switching", "leakage", "total"), watts)}
    return found

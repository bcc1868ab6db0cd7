"""FPGA flow: Yosys `synth_ecp5` / `synth_ice40`, then nextpnr place and route.

Cipher cores have 400-600 I/O bits, more than any package has pins, so the core is placed and
routed inside a generated wrapper with three pins (clk, scan_in, scan_out): a shift chain feeds
every core input from scan_in, and every core output is folded into an XOR chain read at
scan_out. Every core port stays live, so nothing of the core is optimized away, and every path
into and out of the core starts or ends at a wrapper register, like the 0 ns input and output
delays of the ASIC flow. The core keeps its own hierarchy level in synthesis (keep_hierarchy),
so no logic moves across the boundary; the wrapper's own LUTs and flip-flops, known exactly from
synthesis, are subtracted from the placed totals. docs/flows.md has the details.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError, ToolFailed
from ..rtl import run_yosys_script
from ..tools import FPGA_FAMILIES, nextpnr, run_tool, yosys_version
from .base import (
    YOSYS_DROP_MARKERS,
    Design,
    FlowResult,
    cells_by_type,
    check_settings,
    load_design,
    missing_tool,
    read_stat_json,
    yosys_id,
    yosys_read_script,
    yosys_read_verilog,
)

WRAPPER = "cipherbench_fpga_wrapper"
CORE_INSTANCE = "core"
YOSYS_TIMEOUT_S = 3600
NEXTPNR_TIMEOUT_S = 3600

DEFAULTS: dict[str, Any] = {
    "family": "ecp5",
    "device": None,  # family default
    "package": None,  # device default
    "freq_mhz": None,  # family default; the router reports the fmax it reached, met or not
    "seed": 1,
    # Fmax search (issue 6, as ATHENa does): place and route again with the requested clock
    # raised above the best fmax reached, by a step that halves whenever the router misses the
    # request, up to `fmax_search_runs` runs per seed; every seed of `seeds` (default: `seed`)
    # searches on its own. The result is the best run's; the seeds' spread is reported beside it.
    "fmax_search": False,
    "fmax_search_runs": 4,
    "seeds": None,
}
FMAX_SEARCH_FIRST_STEP = 0.10  # the first raise: 10 % above the fmax reached
FMAX_SEARCH_MIN_STEP = 0.02  # steps below 2 % are within placement noise: stop


@dataclass(frozen=True)
class Family:
    synth: str
    default_device: str
    default_freq_mhz: float
    packages: dict[str, str]  # device -> default package
    lut_bel: str  # the placed resource counted as "luts"
    ff_bel: str | None  # None: flip-flops share the logic cell and are counted from synthesis
    bram_bel: str
    dsp_bel: str
    synth_lut_weight: dict[str, int]  # synthesized cell -> LUTs it occupies
    synth_ff_prefix: str
    synth_brams: tuple[str, ...]
    synth_dsps: tuple[str, ...]
    # Yosys' command reading the family's own simulation models of its cells (its share
    # folder, "+/"): they define each primitive's logic, so the synthesized core can be
    # flattened into gates a simulator runs (issue 8: FPGA netlists simulated like ASIC ones).
    sim_models: str = ""
    extra_synth: dict[str, str] = field(default_factory=dict)  # measurement -> synthesized cell


FAMILIES: dict[str, Family] = {
    "ecp5": Family(
        synth="synth_ecp5", default_device="25k", default_freq_mhz=200.0,
        packages={d: "CABGA381" for d in (
            "12k", "25k", "45k", "85k", "um-25k", "um-45k", "um-85k", "um5g-25k", "um5g-45k", "um5g-85k",
        )},
        lut_bel="TRELLIS_COMB", ff_bel="TRELLIS_FF", bram_bel="DP16KD", dsp_bel="MULT18X18D",
        synth_lut_weight={"LUT4": 1, "CCU2C": 2}, synth_ff_prefix="TRELLIS_FF",
        synth_brams=("DP16KD",), synth_dsps=("MULT18X18D",),
        # NO_INCLUDES: cells_sim.v and common_sim.vh both include the FD1P3AX-style wrappers,
        # which a synthesized netlist does not use (it has TRELLIS_FF).
        sim_models="read_verilog -DNO_INCLUDES +/ecp5/cells_sim.v",
        extra_synth={"synth_lutram": "TRELLIS_DPR16X4"},
    ),
    "ice40": Family(
        synth="synth_ice40", default_device="up5k", default_freq_mhz=100.0,
        packages={
            "lp384": "qn32", "lp1k": "qn84", "lp4k": "cm81", "lp8k": "cm81", "hx1k": "tq144",
            "hx4k": "tq144", "hx8k": "ct256", "up3k": "sg48", "up5k": "sg48", "u4k": "sg48",
        },
        lut_bel="ICESTORM_LC", ff_bel=None, bram_bel="ICESTORM_RAM", dsp_bel="ICESTORM_DSP",
        synth_lut_weight={"SB_LUT4": 1}, synth_ff_prefix="SB_DFF",
        synth_brams=("SB_RAM40_4K",), synth_dsps=("SB_MAC16",),
        sim_models="read_verilog +/ice40/cells_sim.v",
    ),
}
assert set(FAMILIES) == set(FPGA_FAMILIES)

_RE_UTIL = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)", re.MULTILINE)
_RE_SIMPLE_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")


@dataclass(frozen=True)
class Port:
    name: str
    direction: str  # "in" | "out"
    width: int


class FpgaFlow:
    name = "fpga"
    cost = 4
    # A study file's keys for this flow: fpga_fmax_search = true raises the requested clock
    # until the router misses; fpga_seeds = [1, 2, 3] places with each seed.
    study_keys = ("fpga_fmax_search", "fpga_seeds")

    def study_settings(self, data: Any, where: str) -> dict[str, Any]:
        """Settings every fpga job of the study gets (only what the study sets)."""
        settings: dict[str, Any] = {}
        search = data.get("fpga_fmax_search", False)
        if not isinstance(search, bool):
            raise CipherbenchError(f"{where}: 'fpga_fmax_search' must be true or false")
        if search:
            settings["fmax_search"] = True
        if data.get("fpga_seeds") is not None:
            try:
                settings["seeds"] = check_seeds(data["fpga_seeds"])
            except CipherbenchError as exc:
                raise CipherbenchError(f"{where}: 'fpga_seeds': {exc}") from exc
        return settings

    def target_id(self, settings: dict[str, Any]) -> str:
        effective = _effective_settings(settings)
        search = ":fmax-search" if effective["fmax_search"] else ""
        return f"fpga:{effective['family']}:{effective['device']}:{effective['package']}{search}"

    def available(self) -> str | None:
        return missing_tool(yosys_version, *(functools.partial(nextpnr, f) for f in FAMILIES))

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        check_settings(self.name, settings, set(DEFAULTS))
        effective = _effective_settings(settings)
        family = FAMILIES[effective["family"]]
        tool, tool_version = nextpnr(effective["family"])  # fail early if it is missing
        design = load_design(design_dir)
        work_dir.mkdir(parents=True, exist_ok=True)

        ports = design_ports(design, work_dir)
        wrapper = work_dir / f"{WRAPPER}.v"
        wrapper.write_text(wrapper_verilog(design.top, design.clock, ports))
        core, wrap, artifacts = _synthesize(design, family, wrapper, work_dir)
        search: dict[str, Any] = {}
        if effective["fmax_search"]:
            report, pnr_artifacts, search = _search_fmax(tool, family, core, wrap, work_dir,
                                                         effective)
        else:
            report, pnr_artifacts = _place_and_route(tool, family, core, wrap, work_dir, effective)
        artifacts.update(pnr_artifacts)
        artifacts["wrapper"] = str(wrapper)
        # Only for a core that fits: "does not fit" is a result with nothing to simulate.
        artifacts["sim_netlist"] = str(_simulation_netlist(design, family,
                                                           Path(artifacts["core_netlist"]),
                                                           work_dir))

        measurements = {
            **_placed_counts(family, report, core, wrap),
            **_synth_counts(family, core),
            **_timing(report),
            **_placement_estimate(Path(pnr_artifacts["nextpnr_log"]), report),
            **search,
            "io_bits_in": sum(p.width for p in ports if p.direction == "in" and p.name != design.clock),
            "io_bits_out": sum(p.width for p in ports if p.direction == "out"),
        }
        return FlowResult(
            target=self.target_id(effective), measurements=measurements,
            tools={"yosys": yosys_version(), "nextpnr": tool_version},
            settings=effective, artifacts=artifacts,
        )


def check_seeds(seeds: Any) -> list[int]:
    """Placement seeds as the flow uses them (sorted, each once); a clear error otherwise."""
    if (not isinstance(seeds, (list, tuple)) or not seeds
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in seeds)):
        raise CipherbenchError(f"fpga setting seeds={seeds!r} must be a non-empty list of "
                               f"whole numbers (placement seeds)")
    return sorted(set(seeds))


def _effective_settings(settings: dict[str, Any]) -> dict[str, Any]:
    effective = {**DEFAULTS, **settings}
    name = effective["family"]
    if name not in FAMILIES:
        raise CipherbenchError(f"fpga setting family={name!r}; valid: {', '.join(FAMILIES)}")
    family = FAMILIES[name]
    effective["device"] = str(effective["device"] or family.default_device).lower()
    if effective["device"] not in family.packages:
        raise CipherbenchError(
            f"unknown {name} device {effective['device']!r}; valid: {', '.join(family.packages)}"
        )
    effective["package"] = effective["package"] or family.packages[effective["device"]]
    effective["freq_mhz"] = float(effective["freq_mhz"] or family.default_freq_mhz)
    effective["seed"] = int(effective["seed"])
    if effective["seeds"] is not None:
        effective["seeds"] = check_seeds(effective["seeds"])
    runs = effective["fmax_search_runs"]
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise CipherbenchError(f"fpga setting fmax_search_runs={runs!r} must be a whole number "
                               f"of at least 1")
    effective["fmax_search"] = bool(effective["fmax_search"])
    return effective


# ---- the wrapper ---------------------------------------------------------------------------


def design_ports(design: Design, work: Path) -> list[Port]:
    """The top's ports: from the manifest when it lists them, else asked from Yosys."""
    listed = design.manifest.get("ports")
    if listed:
        return [_manifest_port(p) for p in listed]
    probe = work / "fpga_ports.json"
    script = [
        *yosys_read_script(design), "proc",  # write_json cannot write processes
        f"select {yosys_id(design.top)}", f"write_json -selected {probe}",
    ]
    run_yosys_script("\n".join(script), work / "fpga_ports.log")
    module = json.loads(probe.read_text())["modules"][design.top]
    ports = []
    for name, port in module["ports"].items():
        direction = {"input": "in", "output": "out"}.get(port["direction"])
        if direction is None:
            raise CipherbenchError(
                f"port {name} of {design.top} is {port['direction']}; the FPGA wrapper needs in/out"
            )
        ports.append(Port(name, direction, len(port["bits"])))
    return ports


def _manifest_port(entry: dict[str, Any]) -> Port:
    direction = str(entry.get("dir", "")).lower()
    if direction not in ("in", "out"):
        raise CipherbenchError(f"manifest port {entry.get('name')} has dir {direction!r}; need 'in' or 'out'")
    return Port(str(entry["name"]), direction, int(entry.get("width", 1)))


def _vid(name: str) -> str:
    """A Verilog identifier, escaped when needed."""
    return name if _RE_SIMPLE_ID.match(name) else f"\\{name} "


def wrapper_verilog(top: str, clock: str, ports: list[Port]) -> str:
    """Three-pin wrapper: scan_in -> input shift chain -> core -> output XOR chain -> scan_out."""
    if clock not in {p.name for p in ports if p.direction == "in"}:
        raise CipherbenchError(f"clock {clock!r} is not an input port of {top}")
    inputs = [p for p in ports if p.direction == "in" and p.name != clock]
    outputs = [p for p in ports if p.direction == "out"]
    n_in, n_out = sum(p.width for p in inputs), sum(p.width for p in outputs)
    if n_out == 0:
        raise CipherbenchError(f"{top} has no outputs: nothing to measure")
    connections = [f"    .{_vid(clock)}(clk)"]
    lines = [
        "// Generated by cipherbench (flows/fpga.py): core inputs from a shift chain, outputs into",
        "// an XOR chain, so a core with hundreds of ports fits three pins and stays fully live.",
        f"module {WRAPPER} (input wire clk, input wire scan_in, output wire scan_out);",
    ]
    if n_in:
        lines.append(f"  reg [{n_in - 1}:0] in_chain;")
        lines.append("  always @(posedge clk) in_chain <= {in_chain, scan_in};")
    lines += [
        f"  reg [{n_out - 1}:0] out_chain;",
        f"  wire [{n_out - 1}:0] core_out;",
        "  always @(posedge clk) out_chain <= {out_chain, 1'b0} ^ core_out;",
        f"  assign scan_out = out_chain[{n_out - 1}];",
    ]
    offset = 0
    for port in inputs:
        connections.append(f"    .{_vid(port.name)}(in_chain[{offset + port.width - 1}:{offset}])")
        offset += port.width
    offset = 0
    for port in outputs:
        connections.append(f"    .{_vid(port.name)}(core_out[{offset + port.width - 1}:{offset}])")
        offset += port.width
    lines.append(f"  {_vid(top)} {CORE_INSTANCE} (")
    lines.append(",\n".join(connections))
    lines += ["  );", "endmodule", ""]
    return "\n".join(lines)


# ---- synthesis -----------------------------------------------------------------------------


def _synthesize(
    design: Design, family: Family, wrapper: Path, work: Path
) -> tuple[dict[str, int], dict[str, int], dict[str, str]]:
    """Synthesize wrapper + core; return the core's and the wrapper's own cell counts."""
    stat, netlist = work / "fpga_stat.json", work / "fpga_netlist.json"
    core_netlist = work / "fpga_core_netlist.v"
    top = yosys_id(design.top)
    script = [
        yosys_read_verilog(design),
        f"read_verilog {wrapper}",
        f"hierarchy -check -top {WRAPPER}",
        f"setattr -mod -set keep_hierarchy 1 {top}",
        f"{family.synth} -top {WRAPPER}",
        YOSYS_DROP_MARKERS,
        f"tee -q -o {stat} stat -json",
        # The core as synthesized (family primitives, before placement): simulated below.
        f"select {top}", f"write_verilog -noattr -selected {core_netlist}", "select -clear",
        "flatten",  # nextpnr gets one flat netlist; the counts above keep the boundary
        f"write_json {netlist}",
    ]
    log = work / "fpga_yosys.log"
    run_yosys_script("\n".join(script), log, timeout=YOSYS_TIMEOUT_S)
    modules = read_stat_json(stat)
    if design.top not in modules or WRAPPER not in modules:
        raise ToolFailed(f"Yosys statistics lack {design.top} or the wrapper (log: {log})")
    return (
        cells_by_type(modules[design.top]), cells_by_type(modules[WRAPPER]),
        {"yosys_log": str(log), "netlist": str(netlist), "stat": str(stat),
         "core_netlist": str(core_netlist)},
    )


def _simulation_netlist(design: Design, family: Family, core_netlist: Path, work: Path) -> Path:
    """The synthesized core with every primitive replaced by its simulation model, flattened:
    Verilog the testbench runs on the RTL's vectors (study.py checks it before storing)."""
    sim = work / "fpga_sim_netlist.v"
    top = yosys_id(design.top)
    script = [
        f"read_verilog {core_netlist}",
        family.sim_models,
        f"hierarchy -check -top {top}",
        "flatten", "proc", "opt_clean",
        f"write_verilog -noattr {sim}",
    ]
    run_yosys_script("\n".join(script), work / "fpga_sim_netlist.log", timeout=YOSYS_TIMEOUT_S)
    return sim


def _synth_counts(family: Family, core: dict[str, int]) -> dict[str, int]:
    """Post-synthesis estimates for the core alone (before packing, placement and routing)."""
    counts = {
        "synth_luts": _luts(family, core),
        "synth_ffs": _ffs(family, core),
        "synth_brams": sum(core.get(kind, 0) for kind in family.synth_brams),
        "synth_dsps": sum(core.get(kind, 0) for kind in family.synth_dsps),
    }
    for key, kind in family.extra_synth.items():
        counts[key] = core.get(kind, 0)
    return counts


def _luts(family: Family, cells: dict[str, int]) -> int:
    return sum(weight * cells.get(kind, 0) for kind, weight in family.synth_lut_weight.items())


def _ffs(family: Family, cells: dict[str, int]) -> int:
    return sum(n for kind, n in cells.items() if kind.startswith(family.synth_ff_prefix))


# ---- place and route -----------------------------------------------------------------------


def _search_fmax(
    tool: str, family: Family, core: dict[str, int], wrap: dict[str, int], work: Path,
    settings: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """The Fmax search of the DEFAULTS comment: every seed from the requested clock up; returns
    the best run's report and artifacts, and the search's figures."""
    best_per_seed: dict[int, tuple[float, float, dict[str, Any], dict[str, str]]] = {}
    runs = 0
    for seed in settings["seeds"] or [settings["seed"]]:
        request, step = float(settings["freq_mhz"]), FMAX_SEARCH_FIRST_STEP
        best: tuple[float, float, dict[str, Any], dict[str, str]] | None = None
        for _ in range(settings["fmax_search_runs"]):
            tag = f"_s{seed}_f{request:g}"
            report, artifacts = _place_and_route(tool, family, core, wrap, work,
                                                 {**settings, "seed": seed, "freq_mhz": request},
                                                 tag=tag)
            runs += 1
            reached = float(_timing(report)["fmax_mhz"])
            if best is None or reached > best[0]:
                best = (reached, request, report, artifacts)
            if reached < request:  # the router missed: raise by less next time
                step /= 2
                if step < FMAX_SEARCH_MIN_STEP:
                    break
            request = round(best[0] * (1 + step), 2)
        assert best is not None
        best_per_seed[seed] = best
    seed, (fmax, request, report, artifacts) = max(best_per_seed.items(), key=lambda kv: kv[1][0])
    per_seed = [b[0] for b in best_per_seed.values()]
    figures = {
        "fmax_search_runs": runs,
        "fmax_search_seed": seed,
        "fmax_search_requested_mhz": request,
        "fmax_seeds": len(per_seed),
        "fmax_seed_min_mhz": round(min(per_seed), 2),
        "fmax_seed_max_mhz": round(max(per_seed), 2),
        "fmax_seed_spread_pct": round(100.0 * (max(per_seed) - min(per_seed)) / max(per_seed), 1),
    }
    return report, artifacts, figures


def _place_and_route(
    tool: str, family: Family, core: dict[str, int], wrap: dict[str, int], work: Path,
    settings: dict[str, Any], tag: str = "",
) -> tuple[dict[str, Any], dict[str, str]]:
    report, log = work / f"fpga_report{tag}.json", work / f"fpga_nextpnr{tag}.log"
    cmd = [
        tool, f"--{settings['device']}", "--package", str(settings["package"]),
        "--json", "fpga_netlist.json", "--report", report.name,
        "--freq", f"{settings['freq_mhz']:g}", "--seed", str(settings["seed"]),
        # We want the fmax it reaches, not a pass/fail against the target.
        "--timing-allow-fail",
    ]
    try:
        run_tool(cmd, cwd=work, log_path=log, timeout_s=NEXTPNR_TIMEOUT_S)
    except ToolFailed as exc:
        reason = _does_not_fit(family, core, wrap, log, settings)
        raise (ToolFailed(reason) if reason else exc) from exc
    try:
        data = json.loads(report.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ToolFailed(f"nextpnr wrote no readable report {report} (log: {log})") from exc
    return data, {"nextpnr_log": str(log), "nextpnr_report": str(report)}


def _does_not_fit(
    family: Family, core: dict[str, int], wrap: dict[str, int], log: Path, settings: dict[str, Any]
) -> str | None:
    """The reason a failed run failed, if it is capacity: "does not fit device X: needs N ..., has M"."""
    text = log.read_text(errors="replace") if log.exists() else ""
    device = f"{settings['family']}-{settings['device']}"
    util = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in _RE_UTIL.finditer(text)}
    names = {family.lut_bel: "LUTs", family.bram_bel: "block RAMs", family.dsp_bel: "DSPs"}
    wrapper_share = {family.lut_bel: _wrapper_lut_bels(family, wrap)}
    if family.ff_bel:
        names[family.ff_bel] = "flip-flops"
        wrapper_share[family.ff_bel] = _ffs(family, wrap)
    for bel, (used, available) in util.items():
        if used > available:
            # The wrapper counts: it is on the device too; say what the core alone needs.
            core_only = ""
            if bel in wrapper_share:
                core_only = f"; {used - wrapper_share[bel]} without the I/O wrapper"
            what = f"{names.get(bel, bel)} ({bel}{core_only})"
            return f"does not fit device {device}: needs {used} {what}, has {available}"
    # A device without block RAMs or DSPs does not list them at all.
    hard_blocks = (
        (family.bram_bel, _sum(core, family.synth_brams)), (family.dsp_bel, _sum(core, family.synth_dsps)),
    )
    for bel, needed in hard_blocks:
        if util and needed and bel not in util:
            return f"does not fit device {device}: needs {needed} {names[bel]} ({bel}), has 0"
    return None


def _sum(cells: dict[str, int], kinds: tuple[str, ...]) -> int:
    return sum(cells.get(kind, 0) for kind in kinds)


def _used(report: dict[str, Any], bel: str) -> int:
    return int(report.get("utilization", {}).get(bel, {}).get("used", 0))


def _placed_counts(
    family: Family, report: dict[str, Any], core: dict[str, int], wrap: dict[str, int]
) -> dict[str, int]:
    """Placed resources of the core: the placed totals minus the wrapper's own cells.

    The wrapper has only LUTs and flip-flops, and each of its LUTs drives exactly one of its
    flip-flops; on iCE40, where a logic cell holds one LUT and one flip-flop, that makes its
    logic cells max(LUTs, flip-flops).
    """
    wrap_ffs, wrap_lut_bels = _ffs(family, wrap), _wrapper_lut_bels(family, wrap)
    total_luts = _used(report, family.lut_bel)
    counts = {
        "luts": total_luts - wrap_lut_bels,
        "brams": _used(report, family.bram_bel),
        "dsps": _used(report, family.dsp_bel),
        "total_luts": total_luts,
        "wrapper_luts": wrap_lut_bels,
        "wrapper_ffs": wrap_ffs,
    }
    if family.ff_bel:
        total_ffs = _used(report, family.ff_bel)
        counts.update(ffs=total_ffs - wrap_ffs, total_ffs=total_ffs)
    else:
        counts.update(ffs=_ffs(family, core), total_ffs=_ffs(family, core) + wrap_ffs)
    return counts


def _wrapper_lut_bels(family: Family, wrap: dict[str, int]) -> int:
    """LUT resources the wrapper occupies (iCE40: logic cells, see _placed_counts)."""
    luts = _luts(family, wrap)
    return luts if family.ff_bel else max(luts, _ffs(family, wrap))


_RE_MAX_FREQUENCY = re.compile(r"Max frequency for clock '[^']*': ([0-9.]+) MHz")


def _placement_estimate(log: Path, report: dict[str, Any]) -> dict[str, Any]:
    """The fmax nextpnr estimated after placement, before routing (its first "Max frequency"
    line; the last is the routed one), against the routed fmax: how far an estimate made before
    the wires exist misses (issue 7, the Papaefstathiou seed's synthesis-versus-layout gap), and
    the routing share of the routed critical path (crypto datapaths are wire-dominated)."""
    try:
        found = _RE_MAX_FREQUENCY.findall(log.read_text(errors="replace"))
    except OSError:
        return {}
    figures: dict[str, Any] = {}
    timing = _timing(report)
    routed = float(timing["fmax_mhz"])
    if len(found) >= 2:
        estimate = float(found[0])
        figures["placed_estimate_fmax_mhz"] = round(estimate, 2)
        figures["estimate_vs_routed_pct"] = round(100.0 * (estimate - routed) / routed, 1)
    routing = timing.get("critical_path_routing_ns")
    if routing is not None:
        figures["critical_path_routing_pct"] = round(
            100.0 * float(routing) / float(timing["critical_path_ns"]), 1)
    return figures


def _timing(report: dict[str, Any]) -> dict[str, Any]:
    """Post-route fmax and the shape of the worst register-to-register path."""
    achieved = [float(v["achieved"]) for v in report.get("fmax", {}).values() if "achieved" in v]
    if not achieved:
        raise ToolFailed("nextpnr reported no clock fmax (no register-to-register path?)")
    fmax = min(achieved)
    measurements: dict[str, Any] = {"fmax_mhz": round(fmax, 2), "critical_path_ns": round(1000.0 / fmax, 4)}
    paths = [
        p for p in report.get("critical_paths", [])
        # register to register: both ends are clock edges ("posedge clk"), not "<async>" ports
        if "edge" in str(p.get("from", "")) and "edge" in str(p.get("to", "")) and p.get("path")
    ]
    if paths:
        path = max(paths, key=lambda p: sum(float(s.get("delay", 0)) for s in p["path"]))["path"]
        measurements.update({
            "critical_path_logic_levels": sum(1 for s in path if s.get("type") == "logic"),
            "critical_path_routing_ns": round(
                sum(float(s["delay"]) for s in path if s.get("type") == "routing"), 4
            ),
            "critical_path_start": str(path[0].get("from", {}).get("cell", "")),
            "critical_path_end": str(path[-1].get("to", {}).get("cell", "")),
        })
    return measurements

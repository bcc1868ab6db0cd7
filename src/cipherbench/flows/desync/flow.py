"""The de-synchronization flow (target ``asic-desync``): a design's synchronous ASIC netlist made
asynchronous, verified in timed simulation, and measured from that simulation.

Steps, each in its own module:
1. the asic flow's synthesis of the design (flip-flops, the settings' goal and hierarchy);
2. the netlist read flat (netlist.py), its registers grouped into banks and the handshake graph
   built from its data dependencies (banks.py);
3. OpenSTA times every channel of the graph on the datapath (timing.py);
4. the netlist rewritten: every flip-flop a master and a slave storage cell, a controller per
   bank, a matched delay per request (build.py, controllers.py);
5. OpenSTA writes the SDF; Icarus runs the core with it, driven by the environment testbench
   through the common interface (replay.py): the design's known-answer sets, random blocks against
   the model and the oracle, key changes and the constant-time set must all pass, and every cycle
   must show the synchronous core's outputs;
6. measured from timed runs: latency, throughput in a long stream and in a chained (feedback)
   stream, the mean time per cycle (the core's effective clock), area by part, power from the
   simulated activity, and the idle experiment (Papaefstathiou et al. section 4.2.2: a burst of
   blocks, then as long idle) against the synchronous core at the same throughput.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...errors import CipherbenchError
from ...tools import sta_path, sta_version, yosys_version
from ..base import FlowResult, check_settings, load_design, missing_tool
from ..liberty import load_liberty
from .banks import ENV_IN, ENV_OUT, GRANULARITIES, bank_graph, dependencies, group_registers
from .blocks import CellSet
from .build import STORAGE_KINDS, assemble, channel_ports, datapath_netlist, storage_for
from .controllers import ENABLE_FANOUT
from .netlist import read_mapped_netlist
from .timed_sim import IVERILOG_HINT, sim_tools, write_sdf
from .timing import delay_line_fit, path_delays, storage_timing

DEFAULTS: dict[str, Any] = {
    "liberty": None,
    "storage": "latch",  # "latch" | "flipflop": what each half of a register pair is
    "granularity": "register",  # banks.GRANULARITIES
    # Matched delays: (1 + margin) x the STA delay they stand for. Below 0 they are too short
    # on purpose (how far a core can go before its timed simulation fails).
    "margin": 0.2,
    "goal": "area",  # the synchronous netlist's synthesis goal (asic flow)
    "hierarchy": "flat",
    "structure": "restructure",
    # Verification in timed simulation: the same sets as every netlist check (verify/netlist.py).
    "known_answer_per_set": 16,
    "random_blocks": 200,
    "stream_blocks": 32,
    "power": True,
    # Placed and routed (qflow, on the OSU kit of the library: flows/layout.py) before it is
    # verified and measured: timing, SDF and power then include the routed wires.
    "layout": False,
    "density": 0.5,
    # Input ports held at a constant, {port: value}: {"out_ready": 1} is a consumer that always
    # takes a result, so a pipeline's stall on it synthesizes away and its stages no longer
    # wait for the environment (the seed's performance-optimized DES had no back-pressure).
    "ties": {},
}


def effective(settings: dict[str, Any]) -> dict[str, Any]:
    merged = {**DEFAULTS, **settings}
    if merged["storage"] not in STORAGE_KINDS:
        raise CipherbenchError(f"desync setting storage={merged['storage']!r} must be one of "
                               f"{', '.join(STORAGE_KINDS)}")
    if merged["granularity"] not in GRANULARITIES:
        raise CipherbenchError(f"desync setting granularity={merged['granularity']!r} must be "
                               f"one of {', '.join(GRANULARITIES)}")
    margin = merged["margin"]
    ties = merged["ties"]
    if not isinstance(ties, dict) or not all(isinstance(k, str) for k in ties):
        raise CipherbenchError(f"desync setting ties={ties!r} must map input ports to values")
    if not isinstance(merged["layout"], bool):
        raise CipherbenchError(f"desync setting layout={merged['layout']!r} must be true or false")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not -0.95 <= margin <= 10:
        raise CipherbenchError(f"desync setting margin={margin!r} must be a number from -0.95 to "
                               "10 (0.2: matched delays 20 % longer than STA's figure; below 0 "
                               "they are shorter, to find where the timed check fails)")
    return merged


def _density(value: Any, where: str, key: str = "desync_density") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.05 <= value <= 1:
        raise CipherbenchError(f"{where}: '{key}' must be a number from 0.05 to 1 "
                               "(the placement's share of the core area, e.g. 0.5)")
    return float(value)


def target_label(settings: dict[str, Any], library_name: str) -> str:
    """desync:LIB:STORAGE:GRANULARITY, with the goal where it is not the area end and
    ``:layout`` where the core was placed and routed (``:density=D`` where not at 0.5)."""
    label = f"desync:{library_name}:{settings['storage']}:{settings['granularity']}"
    label += "" if settings["goal"] == "area" else f":{settings['goal']}"
    ties = settings.get("ties") or {}
    label += "".join(f":{port}={value}" for port, value in sorted(ties.items()))
    if not settings.get("layout"):
        return label
    density = settings.get("density", DEFAULTS["density"])
    return label + ":layout" + ("" if density == DEFAULTS["density"] else f":density={density:g}")


# The keys a [[desync_jobs]] table may set for its designs (besides 'designs').
JOB_KEYS = ("storage", "granularity", "layout", "ties", "density")
STUDY_KEYS = ("desync_storage", "desync_granularity", "desync_margin", "desync_goal",
              "desync_layout", "desync_density", "desync_ties", "desync_jobs")


class DesyncFlow:
    """A study's keys for it:

        desync_storage = ["latch", "flipflop"]     # a job per kind of storage (default latch)
        desync_granularity = ["register", "stage"] # a job per granularity (default register)
        desync_margin = 0.2                        # matched delays' margin over STA
        desync_goal = "speed"                      # the synchronous netlist's synthesis end
        desync_layout = [false, true]              # a job per: as synthesized, placed and routed
        desync_density = 0.4                       # placement density of the laid-out jobs
        desync_ties = [{}, {out_ready = 1}]        # a job per: as it is, the port held

    or, where designs need different variants, ``desync_jobs``: an array of tables, each with
    the designs it is for and any of the keys above without their prefix:

        [[desync_jobs]]
        designs = ["des/pipelined"]
        granularity = "stage"
        storage = ["flipflop", "latch"]
        ties = {out_ready = 1}
        density = 0.3                              # this job's own placement density
    """

    name = "desync"
    cost = 6
    study_keys = STUDY_KEYS

    def study_settings(self, data: Any, where: str) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        if "desync_margin" in data:
            settings["margin"] = data["desync_margin"]
        if "desync_density" in data:
            settings["density"] = _density(data["desync_density"], where)
        if "desync_goal" in data:
            if data["desync_goal"] not in ("area", "speed"):
                raise CipherbenchError(f"{where}: 'desync_goal' must be \"area\" or \"speed\"")
            settings["goal"] = data["desync_goal"]
        effective(settings)  # a wrong margin is refused when the study is read
        return settings

    def study_variants(self, data: Any, where: str) -> list[dict[str, Any]]:
        groups = data.get("desync_jobs")
        if groups is None:
            return self._variants(data, where)
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise CipherbenchError(f"{where}: 'desync_jobs' must be an array of tables "
                                   "([[desync_jobs]])")
        variants = []
        for group in groups:
            designs = group.get("designs")
            if not isinstance(designs, list) or not designs or \
                    not all(isinstance(d, str) for d in designs):
                raise CipherbenchError(f"{where}: each [[desync_jobs]] needs 'designs', a list "
                                       "of design specs of the study")
            unknown = sorted(set(group) - {"designs", *JOB_KEYS})
            if unknown:
                raise CipherbenchError(f"{where}: [[desync_jobs]] has unknown key(s) "
                                       f"{', '.join(unknown)}; valid: designs, "
                                       f"{', '.join(JOB_KEYS)}")
            keys = {f"desync_{k}": v for k, v in group.items() if k not in ("designs", "density")}
            # A job's own density: a large layout that the study's density leaves unroutable.
            density = ({"density": _density(group["density"], f"{where}: [[desync_jobs]]",
                                            "density")} if "density" in group else {})
            variants += [{**v, **density, "designs": list(designs)}
                         for v in self._variants(keys, where)]
        return variants

    def _variants(self, data: Any, where: str) -> list[dict[str, Any]]:
        storages = _choices(data, "desync_storage", STORAGE_KINDS, where)
        granularities = _choices(data, "desync_granularity", GRANULARITIES, where)
        layouts = data.get("desync_layout", [False])
        layouts = [layouts] if isinstance(layouts, bool) else layouts
        if not isinstance(layouts, list) or not layouts or \
                not all(isinstance(v, bool) for v in layouts):
            raise CipherbenchError(f"{where}: 'desync_layout' must be true, false or a list of them")
        ties = data.get("desync_ties", [{}])
        ties = [ties] if isinstance(ties, dict) else ties
        if not isinstance(ties, list) or not ties or not all(isinstance(t, dict) for t in ties):
            raise CipherbenchError(f"{where}: 'desync_ties' must be a table of ports and values "
                                   "(e.g. {{out_ready = 1}}) or a list of them")
        # Only non-default choices are written, so that a default job keeps its cache key.
        return [{**({"storage": s} if s != DEFAULTS["storage"] else {}),
                 **({"granularity": g} if g != DEFAULTS["granularity"] else {}),
                 **({"layout": True} if lay else {}),
                 **({"ties": dict(t)} if t else {})}
                for s in storages for g in granularities for lay in dict.fromkeys(layouts)
                for t in ties]

    def target_id(self, settings: dict[str, Any]) -> str:
        merged = effective(settings)
        return target_label(merged, load_liberty(merged["liberty"]).name)

    def available(self) -> str | None:
        def iverilog() -> None:
            sim_tools()
        return missing_tool(yosys_version, sta_path, iverilog)

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        check_settings(self.name, settings, set(DEFAULTS))
        merged = effective(settings)
        library = load_liberty(merged["liberty"])
        design = load_design(design_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        sta = sta_path()
        synth_dir = tied_design(design_dir, merged["ties"], work_dir / "tied")
        tied = load_design(synth_dir)
        netlist_file, synth_figures = _synchronous_netlist(synth_dir, work_dir, merged)
        built = desynchronize(tied.top, design.clock, netlist_file, library, merged, work_dir,
                              sta, reset=design.manifest.get("reset"))
        layout_figures: dict[str, Any] = {}
        if merged["layout"]:
            layout_figures = lay_out(built, library, merged, work_dir, sta)
        from .measure import measure_desync

        measurements, check = measure_desync(design_dir, built, library, merged, work_dir,
                                             reference=(netlist_file, tied.top, design.clock))
        measurements.update(layout_figures)
        measurements["synchronous_gate_equivalents"] = synth_figures["gate_equivalents"]
        measurements["synchronous_critical_path_ns"] = synth_figures["critical_path_ns"]
        merged.update({"liberty": str(library.source), "liberty_name": library.name,
                       "liberty_sha256": library.sha256, "nand2_cell": library.nand2.name,
                       "nand2_area_um2": library.nand2.area})
        return FlowResult(
            target=target_label(merged, library.name), measurements=measurements,
            tools={"yosys": yosys_version(), "opensta": sta_version(),
                   "iverilog": _iverilog_version(),
                   "liberty": f"{library.name} sha256:{library.sha256}"},
            settings=merged,
            artifacts={"desync_netlist": str(built["netlist"]), "sdf": str(built["sdf"])},
            check={**check, "netlist": target_label(merged, library.name)},
        )


def tied_design(design_dir: Path, ties: dict[str, int], folder: Path) -> Path:
    """The design folder itself, or, with ``ties``, a copy whose top wraps the design's with
    those input ports held at their values (Verilog only: synthesis folds the constants)."""
    if not ties:
        return design_dir
    import shutil

    design = load_design(design_dir)
    manifest = dict(design.manifest)
    ports = {str(p["name"]): p for p in manifest.get("ports", [])}
    for name, value in ties.items():
        port = ports.get(name)
        if port is None or port.get("dir") != "in" or name == design.clock:
            raise CipherbenchError(f"desync setting ties: {name!r} is not an input port of "
                                   f"{design.top} (inputs: {', '.join(p for p, q in ports.items() if q.get('dir') == 'in')})")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2 ** int(port["width"]):
            raise CipherbenchError(f"desync setting ties: {name} = {value!r} does not fit its "
                                   f"{port['width']} bits")
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name in manifest["verilog"]:
        shutil.copyfile(design_dir / name, folder / name)
    top = f"{design.top}_tied"
    kept = [p for name, p in ports.items() if name not in ties]
    decls = [_port_declaration(p) for p in kept]
    conns = [f".{p['name']}({p['name']})" for p in kept]
    conns += [f".{name}({ports[name]['width']}'d{value})" for name, value in ties.items()]
    (folder / f"{top}.v").write_text(
        f"module {top} ({', '.join(p['name'] for p in kept)});\n" + "\n".join(decls)
        + f"\n  {design.top} core ({', '.join(conns)});\nendmodule\n")
    manifest.update(top=top, verilog=[*manifest["verilog"], f"{top}.v"], ports=kept)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return folder


def _port_declaration(port: dict[str, Any]) -> str:
    width = int(port["width"])
    vector = f"[{width - 1}:0] " if width > 1 else ""
    return f"  {'input' if port['dir'] == 'in' else 'output'} {vector}{port['name']};"


def _choices(data: Any, key: str, valid: tuple[str, ...], where: str) -> list[str]:
    value = data.get(key)
    if value is None:
        return [DEFAULTS[key.split("_", 1)[1]]]
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not values or not all(v in valid for v in values):
        raise CipherbenchError(f"{where}: '{key}' must be a list of {', '.join(valid)}")
    return list(dict.fromkeys(values))


def _iverilog_version() -> str:
    import subprocess

    tools = sim_tools()
    out = subprocess.run([tools.iverilog, "-V"], capture_output=True, text=True)
    return (out.stdout.splitlines() or ["iverilog"])[0].strip()


def _synchronous_netlist(design_dir: Path, work: Path,
                         settings: dict[str, Any]) -> tuple[Path, dict[str, Any]]:
    """The asic flow's flip-flop netlist of the design (mapped, with the top's vector ports)."""
    from ..asic import AsicFlow

    sync = AsicFlow().run(design_dir, work / "sync", {
        "liberty": settings["liberty"], "goal": settings["goal"], "power": False,
        "hierarchy": settings["hierarchy"], "structure": settings["structure"]})
    return Path(sync.artifacts["mapped"]), sync.measurements


def desynchronize(top: str, clock: str, netlist_file: Path, library: Any,
                  settings: dict[str, Any], work: Path, sta: str,
                  reset: str | None = None) -> dict[str, Any]:
    """Steps 2-5 of the module docstring up to the SDF: the de-synchronized netlist and what
    sized it.

    ``reset``: the synchronous reset port, which is data to every register that has a reset but
    no token of the handshake: a register that reads no other input waits for no environment
    token (a pipeline's later stages). It holds for the reset tokens at the start and is constant
    after; a register that takes a token late then still takes its reset state, since the reset
    state with idle inputs is where every register stays (the cycle comparison checks it)."""
    cells = CellSet.of(library)
    netlist = read_mapped_netlist(netlist_file, top, library, work)
    deps = dependencies(netlist, frozenset({clock, *([reset] if reset else [])}))
    groups = group_registers(netlist, deps, settings["granularity"])
    graph = bank_graph(netlist, deps, groups)
    _check_reachable(graph)

    dp_path = work / "desync_datapath.v"
    dp_top, q_ports, d_ports, in_ports, out_ports = datapath_netlist(netlist, clock, cells,
                                                                     dp_path)
    store = storage_for(settings["storage"], netlist.flipflops[0], cells)
    storage_pins = (store.cell, store.enable, store.data, store.q)
    timing = storage_timing(library, cells, storage_pins, work, sta)
    d_cap = _pin_cap_ff(library, store.cell, store.data)
    nand_cap = library.nand2_input_cap_ff() or 0.0
    channels = channel_ports(netlist, graph, q_ports, d_ports, in_ports, out_ports)
    paths = path_delays(library, dp_path, dp_top, channels, (store.cell, store.q), d_cap,
                        4 * nand_cap, work, sta)
    fit = delay_line_fit(library, cells, work, sta)

    margin = 1.0 + float(settings["margin"])
    pulse_target = margin * max(timing.launch_ps, timing.setup_ps)
    pulse_stages = max(1, -(-int(pulse_target) // max(1, int(fit.pulse_per_stage_ps))))
    pulse_ps = pulse_stages * fit.pulse_per_stage_ps

    def launch(bank: str) -> float:
        if bank == ENV_IN:
            return 0.0
        loads = len(graph.banks[bank].flipflops)
        levels = _tree_levels(loads)
        return timing.launch_ps + (levels - 1) * timing.enable_buffer_ps

    requests: dict[str, float] = {}
    for (src, dst), path_ps in paths.items():
        setup = 0.0 if dst == ENV_OUT else timing.setup_ps
        # The source's request rises after its pulse line (and a C-element, not credited).
        credit = 0.0 if src == ENV_IN else pulse_ps
        need = margin * (launch(src) + path_ps + setup) - credit
        requests[dst] = max(requests.get(dst, 0.0), need)
    stages = {dst: fit.stages_for(need) if need > 0 else 0 for dst, need in requests.items()}

    netlist_path = work / "desync_netlist.v"
    built = assemble(netlist, clock, graph, settings["storage"], cells, library, stages,
                     pulse_stages, netlist_path)
    sdf = write_sdf(library, netlist_path, built.top, work / "desync.sdf", sta)
    (work / "desync_plan.json").write_text(json.dumps({
        "banks": {name: len(bank.flipflops) for name, bank in graph.banks.items()},
        "edges": sorted(graph.edges), "paths_ps": {f"{s}->{d}": v for (s, d), v in paths.items()},
        "request_stages": stages, "pulse_stages": pulse_stages,
        "storage_timing": timing.__dict__, "line_fit": fit.__dict__}, indent=1))
    return {"netlist": netlist_path, "sdf": sdf, "assembled": built, "graph": graph,
            "paths_ps": paths, "stages": stages, "pulse_stages": pulse_stages, "fit": fit,
            "timing": timing, "registers": len({ff.register for ff in netlist.flipflops}),
            "flipflops": len(netlist.flipflops)}


def lay_out(built: dict[str, Any], library: Any, settings: dict[str, Any], work: Path,
            sta: str) -> dict[str, Any]:
    """Place and route the de-synchronized netlist as it is (flows/layout.py), then time it with
    the routed wires: ``built`` then names the routed netlist and its SDF, so that the timed
    verification and every measurement are of the layout. The matched delays were sized
    before routing; the routed wires load data paths and delay lines alike, and the timed
    simulation says whether the margin still covers them."""
    from ..layout import place_and_route
    from ..libraries import KITS

    tech = next((name for name, kit in KITS.items()
                 if library.source.name.startswith(name.replace("osu050", "osu05"))), None)
    if tech is None:
        raise CipherbenchError(f"desync setting layout=true places and routes with qflow on the "
                               f"OSU kits ({', '.join(KITS)}), not {library.name}")
    density = float(settings["density"])
    placed = place_and_route(built["assembled"].top, Path(built["netlist"]), library, tech,
                             work, density)
    sdf = write_sdf(library, placed.netlist, built["assembled"].top, work / "desync_routed.sdf",
                    sta, spef=placed.spef)
    built.update(netlist=placed.netlist, sdf=sdf, spef=placed.spef)
    return {**placed.figures, "layout_density": density,
            "utilization_pct": round(100.0 * sum(built["assembled"].area_um2.values())
                                     / placed.figures["die_area_um2"], 1)}


def _tree_levels(loads: int) -> int:
    """Buffer levels of a bank's enable tree (controllers.buffer_tree)."""
    if loads <= ENABLE_FANOUT:
        return 0
    leaves, levels, reach = -(-loads // ENABLE_FANOUT), 1, ENABLE_FANOUT
    while reach < leaves:
        reach *= ENABLE_FANOUT
        levels += 1
    return levels


def _pin_cap_ff(library: Any, cell: str, pin: str) -> float:
    for p in library.cells[cell].pins:
        if p.name == pin and p.capacitance is not None:
            return p.capacitance * library.cap_unit_ff
    return library.nand2_input_cap_ff() or 0.0


def _check_reachable(graph: Any) -> None:
    """Every bank must depend on the environment: a bank the inputs never reach would cycle on
    its own (a free-running register), idle or not."""
    reached, frontier = {ENV_IN}, [ENV_IN]
    while frontier:
        node = frontier.pop()
        for nxt in graph.succs(node):
            if nxt not in reached:
                reached.add(nxt)
                frontier.append(nxt)
    free = sorted(name for name in graph.banks if name not in reached)
    if free:
        raise CipherbenchError(
            f"registers {', '.join(free[:4])} read no input, directly or through other "
            "registers: de-synchronized they would run on their own; give them a reset")


__all__ = ["DEFAULTS", "DesyncFlow", "desynchronize", "IVERILOG_HINT"]

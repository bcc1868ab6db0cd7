"""Power from switching activity (issue 7; Papaefstathiou section 5): the ASIC flow's netlist
simulated under a stated workload, its per-net activity annotated on the driving pins, and
OpenSTA's internal, switching and leakage power at the design's Fmax and at a common clock.

Orchestration only: the workloads and the activity count are in verify/activity.py, the netlists
and the OpenSTA power report in flows/asic/power_report.py. Every figure carries its workload in its name;
OpenSTA's vectorless estimate (default input activity 0.1, propagated through the logic) is
stored beside it as a labelled comparison, never as the power figure. Latch designs (asic
``sequential: latch``): OpenSTA 2.0.17's power report does not finish on their loops unless one
activity is set for every net, which then overrides per-pin annotations; so their activity figure
is the simulated activity's mean over all pins, set globally (``power_activity_method`` says
which), and their vectorless one the 0.1 default set globally. ``power_uniform_mw`` is that mean
method for every design, so that flip-flop and latch cores compare.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

from .errors import CipherbenchError
from .spec import DesignSpec

COMMON_CLOCK_MHZ = 100.0
_RE_SPLIT_PORT = re.compile(r"(.+)\[(\d+)\]")


def measure_power(spec: DesignSpec, design_dir: Path, flow_result: Any, work: Path,
                  say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Power measurements for an ASIC result whose flow wrote a power netlist."""
    from .flows.asic import report_power
    from .flows.base import load_design
    from .flows.liberty import load_liberty
    from .kinds.registry import kind_of
    from .tools import sta_path

    artifacts = flow_result.artifacts
    manifest = json.loads((design_dir / "manifest.json").read_text())
    kind = kind_of(spec)
    family = kind.family(spec)
    design = load_design(design_dir)
    library = load_liberty(flow_result.settings["liberty"])
    fmax = float(flow_result.measurements["fmax_mhz"])
    periods = [round(1000.0 / fmax, 4), round(1000.0 / COMMON_CLOCK_MHZ, 4)]
    connections = _net_pins(Path(artifacts["power_netlist_json"]), design.top)
    out: dict[str, Any] = {"power_clock_mhz": fmax, "power_common_clock_mhz": COMMON_CLOCK_MHZ}
    # Latch designs: the default activity set on every net, not propagated (asic.power_script).
    latch = flow_result.settings.get("sequential") == "latch"
    out["power_vectorless_method"] = "global" if latch else "propagated"
    out["power_activity_method"] = "uniform mean" if latch else "per pin"
    for workload in family.power_workloads:
        if say:
            say(f"simulating the {workload} workload on the netlist of {spec} for its activity")
        activity = family.activity(spec, design_dir, manifest, Path(artifacts["sim_netlist"]),
                                   work, workload, kind.model(spec))
        tcl = work / f"activity_{workload}.tcl"
        if latch:
            annotated = _write_uniform_activity_tcl(tcl, connections, activity.rates,
                                                    design.clock)
        else:
            annotated = _write_activity_tcl(tcl, connections, activity.rates, design.clock)
        power = report_power(library, Path(artifacts["power_netlist"]), design.top,
                             design.clock, periods, tcl, work, sta_path(), latch)
        at_fmax, at_common = power[("activity", periods[0])], power[("activity", periods[1])]
        prefix = "power" if workload == "stream" else f"power_{workload}"
        out[f"{prefix}_mw"] = at_fmax["total"]
        out[f"{prefix}_common_clock_mw"] = at_common["total"]
        if workload == "stream":
            out["power_internal_mw"] = at_fmax["internal"]
            out["power_switching_mw"] = at_fmax["switching"]
            out["power_leakage_mw"] = at_fmax["leakage"]
            out["power_vectorless_mw"] = power[("vectorless", periods[0])]["total"]
            out["power_annotated_pins"] = annotated
            out["power_cycles_simulated"] = activity.cycles
            out.update(_uniform_power(out, latch, connections, activity.rates, design, library,
                                      Path(artifacts["power_netlist"]), periods, work))
    return out


def _uniform_power(out: dict[str, Any], latch: bool, connections: dict[tuple[str, int], list[str]],
                   rates: dict[tuple[str, int], tuple[float, float]], design: Any, library: Any,
                   netlist: Path, periods: list[float], work: Path) -> dict[str, float]:
    """The stream workload's power with its mean activity set on every net: the one method
    latch designs allow, also given for flip-flop designs so that the two compare (Papaefstathiou
    Tables 13-14)."""
    if latch:
        return {"power_uniform_mw": out["power_mw"],
                "power_uniform_common_clock_mw": out["power_common_clock_mw"]}
    from .flows.asic import report_power
    from .tools import sta_path

    tcl = work / "activity_stream_uniform.tcl"
    _write_uniform_activity_tcl(tcl, connections, rates, design.clock)
    power = report_power(library, netlist, design.top, design.clock, periods, tcl, work,
                         sta_path(), latch=True)
    return {"power_uniform_mw": power[("activity", periods[0])]["total"],
            "power_uniform_common_clock_mw": power[("activity", periods[1])]["total"]}


def _net_pins(netlist_json: Path, top: str) -> dict[tuple[str, int], list[str]]:
    """(net name, bit) -> the cell pins on it ("u12/ZN", "u40/A1"; OpenSTA takes a pin's own
    annotation before anything it would propagate) and the input port that drives it
    ("port:key[3]"), from Yosys' JSON of the power netlist."""
    module = json.loads(netlist_json.read_text())["modules"][top]
    bit_names: dict[int, tuple[str, int]] = {}
    for name, net in module["netnames"].items():
        if net.get("hide_name"):
            continue
        split = _RE_SPLIT_PORT.fullmatch(name)
        for offset, bit in enumerate(net["bits"]):
            if isinstance(bit, int):
                # A port split into bits ("key[3]") is bit 3 of the simulated "key".
                where = ((split.group(1), int(split.group(2))) if split and len(net["bits"]) == 1
                         else (name, offset + int(net.get("offset", 0))))
                bit_names.setdefault(bit, where)
    drivers: dict[tuple[str, int], list[str]] = {}
    for name, port in module["ports"].items():
        if port["direction"] == "input":
            for bit in port["bits"]:
                if isinstance(bit, int) and bit in bit_names:
                    drivers.setdefault(bit_names[bit], []).append(f"port:{name}")
    for cell_name, cell in module["cells"].items():
        for pin, direction in cell.get("port_directions", {}).items():
            for bit in cell["connections"][pin]:
                if isinstance(bit, int) and bit in bit_names:
                    drivers.setdefault(bit_names[bit], []).append(f"{cell_name}/{pin}")
    return drivers


def _write_uniform_activity_tcl(path: Path, pins: dict[tuple[str, int], list[str]],
                                rates: dict[tuple[str, int], tuple[float, float]],
                                clock: str) -> int:
    """Latch designs: the simulated activity as one global figure, the mean over every annotated
    pin (OpenSTA 2.0.17 does not finish a power report on a latch design's loops unless one
    global activity is set, and a global activity overrides per-pin ones); returns the pins
    averaged over."""
    weighted = [(rates[net], len(where)) for net, where in pins.items()
                if net in rates and f"port:{clock}" not in where]
    count = sum(n for _, n in weighted)
    if not count:
        raise CipherbenchError("no simulated activity on any net of the power netlist")
    activity = sum(rate[0] * n for rate, n in weighted) / count
    duty = sum(min(max(rate[1], 0.0), 1.0) * n for rate, n in weighted) / count
    path.write_text(f"set_power_activity -global -activity {activity:.6g} -duty {duty:.6g}\n")
    return count


def _write_activity_tcl(path: Path, pins: dict[tuple[str, int], list[str]],
                        rates: dict[tuple[str, int], tuple[float, float]], clock: str) -> int:
    """One annotation per pin of every net with a simulated rate (the clock's pins are the
    clock's, which OpenSTA knows); returns how many."""
    lines = []
    for net in sorted(pins):
        rate = rates.get(net)
        if rate is None or f"port:{clock}" in pins[net]:
            continue
        activity, duty = rate[0], min(max(rate[1], 0.0), 1.0)
        for pin in pins[net]:
            if pin.startswith("port:"):
                lines.append(f"set_power_activity -input_ports [get_ports {{{pin[5:]}}}] "
                             f"-activity {activity:.6g} -duty {duty:.6g}")
            else:
                # OpenSTA 2.0.17's set_power_activity -pins calls a procedure it lacks; the
                # command under it takes the pin directly.
                lines.append(f"sta::set_power_pin_activity [get_pins {{{pin}}}] "
                             f"{activity:.6g} {duty:.6g}")
    path.write_text("\n".join(lines) + "\n")
    return len(lines)

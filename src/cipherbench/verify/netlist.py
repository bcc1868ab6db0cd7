"""Gate-level simulation of a synthesized netlist against the same vectors as its RTL (issue 8).

A flow that writes its mapped netlist as simulatable Verilog (``FlowResult.artifacts["sim_netlist"]``:
the design's top with its vector ports, every cell flattened into gates and flip-flops)
gets it checked before its figures are stored: a copy of the design folder whose manifest names
the netlist instead of the generated RTL (a ``keys=loaded`` core keeps its simulation wrapper,
which instantiates the netlist's top) goes through ``verify_design``: every known-answer set of
the cipher (a spread sample of each: ``KNOWN_ANSWER_PER_SET``), random blocks against the model
with key changes, blocks under a new key each, and a few constant-time groups. So the figures come from a netlist that computes the cipher, not only
from RTL that does. A sequential equivalence proof of a netlist against the RTL is out of reach
(synthesis re-encodes and removes registers); a proof between two netlists whose flip-flops
correspond is not, and verify/netlist_proof.py uses it so that one simulation per design serves
all its ASIC goals and speed grades; the report says which netlists were simulated.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from ..spec import DesignSpec
from .record import NETLIST_KNOWN_ANSWER_PER_SET as KNOWN_ANSWER_PER_SET
from .record import Verifier

METHOD = "gate-level simulation"

def netlist_design(design_dir: Path, netlist: Path, folder: Path) -> Path:
    """A design folder in ``folder`` whose simulation top reads ``netlist`` instead of the RTL."""
    manifest = json.loads((design_dir / "manifest.json").read_text())
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(netlist, folder / "netlist.v")
    rtl = set(manifest["verilog"])
    simulation = manifest.get("simulation")
    if simulation:
        files = []
        for name in simulation["verilog"]:
            if name in rtl:
                name = "netlist.v"
            else:
                shutil.copyfile(design_dir / name, folder / name)
            if name not in files:
                files.append(name)
        simulation["verilog"] = files
    manifest["verilog"] = ["netlist.v"]
    manifest["gate_level"] = True  # the simulator builds it as a netlist (verify/sim.py)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return folder


def simulate_netlist(spec: DesignSpec, design_dir: Path, netlist: Path, work: Path,
                     label: str, trace: bool = True, *,
                     verify: Verifier | None = None) -> dict[str, Any]:
    """Run the design's vectors through ``netlist``; the outcome as provenance records it.

    ``trace``: build with VCD tracing, so the same executable then records activity for power
    (verify/activity.py). A netlist nobody measures power on is built without it: the tracing
    code can be most of the C++ a big netlist makes the compiler work through. ``verify``: the
    design's kind's verification (``kind.verify``, called with ``netlist=True``); None: a block
    core's."""
    from .record import verify_block_design

    folder = netlist_design(design_dir, netlist, work / "netlist_sim")
    report = (verify or verify_block_design)(spec, folder, netlist=True, trace=trace)
    return {
        "method": METHOD,
        "netlist": label,
        "known_answer_per_set": KNOWN_ANSWER_PER_SET,
        "passed": report.passed,
        "failed": report.failed,
        "first_failures": report.first_failures(),
    }

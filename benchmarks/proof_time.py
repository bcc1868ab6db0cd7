"""How long the netlist proof takes on one design's mapped netlist (verify/netlist_proof.py).

Usage: python benchmarks/proof_time.py DESIGN [--goal speed] [--module PATH] [--work DIR]

Generates (or reuses) the design, maps it with the ASIC flow at one goal (CIPHERBENCH_LIBERTY),
then proves the netlist equal to the design's cached pre-ABC netlist twice: the first call may
have to write the prefix's side of the proof, the second finds it cached, as every later goal and
speed grade of a study does. ``--module`` loads another implementation of netlist_proof.py (an
older commit's, say) to time it on the same netlist.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from cipherbench.cache import ensure_design
from cipherbench.flows import get_flow
from cipherbench.spec import parse
from cipherbench.verify import netlist_proof


def _implementation(path: Path | None) -> ModuleType:
    if path is None:
        return netlist_proof
    spec = importlib.util.spec_from_file_location("cipherbench.verify._timed_proof", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it is made
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("design")
    parser.add_argument("--goal", default="speed", choices=["area", "speed"])
    parser.add_argument("--module", type=Path, default=None)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    liberty = os.environ.get("CIPHERBENCH_LIBERTY")
    if not liberty:
        print("proof_time: set CIPHERBENCH_LIBERTY to a Liberty file", file=sys.stderr)
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="proof_time."))
    folder = ensure_design(parse(args.design))
    started = time.monotonic()
    result = get_flow("asic").run(folder, work / "flow",
                                  {"liberty": liberty, "goal": args.goal, "power": False})
    print(f"flow: {time.monotonic() - started:.0f} s")
    artifacts = result.artifacts
    top = json.loads((folder / "manifest.json").read_text())["top"]
    proof = _implementation(args.module)
    for attempt in ("first", "second"):
        out = work / attempt
        out.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        verdict = proof.prove_equal(
            Path(artifacts["equivalence_reference"]), Path(artifacts["equivalence_netlist"]), top,
            Path(artifacts["equivalence_cells"]), artifacts["equivalence_sequential"].split(), out)
        print(f"{attempt} proof: {time.monotonic() - started:.1f} s, equal={verdict.equal}, "
              f"{verdict.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

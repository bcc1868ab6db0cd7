"""A design folder (Verilog + manifest.json) synthesized to the gate-level Yosys JSON that
leakage/netlist.py reads.

Which synthesis matters for masking: a restructuring synthesis (ABC) may rebuild logic across
shares, e.g. re-associate ``(a0 & b1 ^ r) ^ a1 & b0`` into a form that combines ``a0`` and ``a1``
before ``r`` reaches them, and so add a leak the RTL does not have. The structures
(docs/leakage.md, "Which netlist"):

- ``keep`` (the default): ``synth -flatten -noabc``, the project's ``structure: keep``: Yosys'
  own gates straight from its technology mapping, no ABC pass. The assessment then judges the
  structure the RTL chose. Yosys' word-level optimizations still run across module boundaries
  (constant propagation, merging identical cells), which keep a gate's function and inputs.
- ``modules``: every module synthesized alone (``synth -noabc``) and flattened after mapping:
  module boundaries are optimization barriers, as a masked design's ``keep_hierarchy`` makes
  them, and every gate knows its instance exactly (``scopename``), for probing one instance.
- ``restructure``: ``synth -flatten`` with its ABC pass, the generic flow's gate prefix: what the
  project's default synthesis makes of the design.

Registers become plain flip-flops with ``dfflegalize`` as in flows/gates_prefix.py (enables and
synchronous resets are gates in front of them, as in the other flows), so those gates are real
nets of the netlist, counted in power and probed like any other.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..cache import cache_root, publish_text
from ..errors import CipherbenchError
from ..flows.base import Design, load_design, yosys_id, yosys_read_script
from ..flows.gates_prefix import DFFLEGALIZE
from ..rtl import run_yosys_script
from ..tools import yosys_version

STRUCTURES = ("keep", "modules", "restructure")
YOSYS_TIMEOUT_S = 3600


def synthesis_script(design: Design, structure: str, output: Path) -> list[str]:
    """The Yosys commands from the design's Verilog to the JSON at ``output``."""
    if structure not in STRUCTURES:
        raise CipherbenchError(f"netlist structure {structure!r} must be one of "
                               f"{', '.join(STRUCTURES)}")
    top = yosys_id(design.top)
    synth = {"keep": [f"synth -flatten -noabc -top {top}"],
             "modules": [f"synth -noabc -top {top}", "flatten -scopename"],
             "restructure": [f"synth -flatten -top {top}"]}[structure]
    # $scopeinfo cells stay: they tell the reader which module each instance was.
    return [*yosys_read_script(design), *synth, DFFLEGALIZE, "opt_clean", f"write_json {output}"]


def synthesize_netlist(design_dir: Path, structure: str = "keep", output: Path | None = None,
                       log: Path | None = None) -> Path:
    """The path of the Yosys JSON of the design in ``design_dir`` synthesized with
    ``structure``: ``output``, or, when None, a file kept in ``$CIPHERBENCH_CACHE/leakage``
    (keyed by the Verilog, Yosys' version and the script) and reused."""
    design = load_design(Path(design_dir))
    if output is None:
        target = cache_root() / "leakage" / f"{design.top}-{structure}-{_key(design, structure)}.json"
        if target.exists():
            return target
    else:
        target = Path(output)
    target.parent.mkdir(parents=True, exist_ok=True)
    private = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        run_yosys_script("\n".join(synthesis_script(design, structure, private)),
                         log or target.with_suffix(".log"), timeout=YOSYS_TIMEOUT_S)
        publish_text(target, private.read_text())
    finally:
        private.unlink(missing_ok=True)
    return target


def _key(design: Design, structure: str) -> str:
    digest = hashlib.sha256()
    for part in (yosys_version(), "\n".join(synthesis_script(design, structure, Path("-")))):
        digest.update(part.encode() + b"\0")
    for verilog in design.verilog:
        digest.update(hashlib.sha256(verilog.read_bytes()).digest())
    return digest.hexdigest()[:20]

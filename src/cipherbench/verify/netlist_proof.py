"""A mapped ASIC netlist proven equal to the design's netlist before mapping, so that one gate-level
simulation per design stands for all of its goals and speed grades (issue 6).

Why this is sound and cheap here: every goal and speed grade of a design is mapped by ABC from
one cached RTLIL file (``flows/asic._registers_mapped``: Yosys' gates with the registers already
the library's flip-flops). ABC maps combinational logic only, so every mapped netlist keeps the
prefix's flip-flop instances, by name. Cutting both netlists at those instances (``expose
-evert``: a flip-flop's outputs become inputs, its inputs outputs, named ``<instance>.<pin>``)
leaves two combinational circuits with the same ports, and their equality for every input is
sequential equality from every state. Yosys builds the miter; ABC's ``iprove`` (SAT sweeping)
decides it. An AES-128 iterative core (27 k gates against 16 k cells): ABC 6 s, 20 s of Yosys
CPU in all. The tests change one NAND2 to a NOR2 (or AND2 to OR2) in a mapped netlist and ABC
finds inputs on which it differs; a netlist with an undriven net differs too.

Undefined bits: the prefix may hold ``x`` constants that the flow ties to 0 after ABC
(``setundef -zero``); the reference gets the same, and the miter compares exactly (no
``-ignore_gold_x``, whose ``x`` comparisons Yosys' optimizer folds to "equal", which made an
earlier version of this check prove a wrong netlist).

The chain of evidence (verify/netlist.py's simulation, then this): the first netlist of a design
whose proof succeeds is also simulated on the RTL's vectors, and a record of that simulation is
kept beside the prefix; every later netlist of the design proven equal to the prefix is equal to
that simulated netlist. A proof that fails or cannot decide never fails a job by itself: the
netlist is then simulated as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ToolFailed
from ..rtl import run_yosys_script

METHOD = "proven equal to a simulated netlist of the same design"
PROOF_TIMEOUT_S = 900


@dataclass(frozen=True)
class NetlistProof:
    """``equal``: True (proven), False (ABC found inputs on which they differ) or None (not
    decided: ports that do not correspond, a timeout, no verdict)."""

    equal: bool | None
    seconds: float
    reason: str
    log: Path

    def summary(self) -> dict[str, Any]:
        return {"equal": self.equal, "seconds": round(self.seconds, 1), "reason": self.reason}


def proof_script(reference: Path, mapped: Path, top: str, cells: Path,
                 sequential: list[str]) -> str:
    """The Yosys script: ``gold`` is the reference (RTLIL), ``gate`` the mapped netlist (RTLIL or
    Verilog), both cut at the library's sequential cells; ABC decides the miter's one output."""
    kinds = " ".join(sequential)
    instances = " ".join(f"t:{kind}" for kind in sequential)
    return "\n".join([
        # The cells' functions, with the sequential cells kept as instances to cut at.
        f"read_liberty -ignore_miss_func {cells}",
        f"setattr -mod -set keep_hierarchy 1 {kinds}",
        f"read_rtlil {reference}",
        f"rename {top} gold",
        # RTLIL reads several times faster than the same netlist as Verilog.
        f"read_rtlil {mapped}" if mapped.name.endswith((".il", ".il.gz")) else f"read_verilog {mapped}",
        f"rename {top} gate",
        "flatten -noscopeinfo gold gate",
        "setundef -zero gold",
        # Drop the internal names (ports and cell names stay): the flattened cells' pin wires
        # are most of the design, and the miter copies every one of them.
        "rename -hide gold/w:* gate/w:*",
        "opt_clean -purge gold gate",
        f"expose -evert {instances}",
        "miter -equiv -flatten gold gate miter",
        "hierarchy -top miter",
        "techmap",
        "opt -fast",
        # One output, trigger: UNSATISFIABLE means no input makes the two differ.
        "abc -script +strash;iprove",
    ])


def prove_equal(reference: Path, mapped: Path, top: str, cells: Path, sequential: list[str],
                work: Path, timeout: float = PROOF_TIMEOUT_S) -> NetlistProof:
    """Prove ``mapped`` (library cells, as RTLIL or Verilog) equal to ``reference`` (RTLIL) with their
    sequential cells corresponded by instance name (see the module docstring)."""
    log = work / "netlist_proof.log"
    started = time.monotonic()
    script = proof_script(reference, mapped, top, cells, sequential)
    try:
        text = run_yosys_script(script, log, timeout=timeout)
    except ToolFailed as exc:
        # Ports that do not match (a flip-flop one side lacks) or a timeout: undecided.
        return NetlistProof(None, time.monotonic() - started, f"no proof: {exc}", log)
    return _verdict(text, time.monotonic() - started, log)


def _verdict(text: str, seconds: float, log: Path) -> NetlistProof:
    extracted = [line for line in text.splitlines() if line.startswith("Extracted ")]
    verdicts = [line for line in text.splitlines()
                if line.startswith("ABC: ") and "SATISFIABLE" in line]
    if not verdicts:
        # Nothing for ABC (the optimizer folded the miter) is not taken as a proof.
        return NetlistProof(None, seconds, "ABC gave no verdict", log)
    if not extracted or " and 1 outputs" not in extracted[-1]:
        return NetlistProof(None, seconds, "the miter had more than one output", log)
    verdict = verdicts[-1][len("ABC: "):].strip()
    if verdict.startswith("UNSATISFIABLE"):
        return NetlistProof(True, seconds, "ABC iprove: UNSATISFIABLE", log)
    if "UNDECIDED" in verdict:
        return NetlistProof(None, seconds, f"ABC iprove: {verdict}", log)
    return NetlistProof(False, seconds, f"ABC iprove: {verdict}", log)


# ---------------------------------------------------------------- the simulated netlist's record


def record_path(reference: Path, design: str, inputs: str) -> Path:
    """Where the record of the simulated netlist equal to ``reference`` is kept: beside it, keyed
    by the design and everything else that decides the job (vectors, code, tools)."""
    digest = hashlib.sha256(f"{design}|{inputs}".encode()).hexdigest()[:16]
    return reference.with_name(f"{reference.name}.{digest}.simulated.json")


def read_record(path: Path) -> dict[str, Any] | None:
    """The record, or None when there is none or it did not pass."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("failed") != 0 or not record.get("passed"):
        return None
    return record


def write_record(path: Path, check: dict[str, Any]) -> None:
    """Publish ``check`` (a passed simulation) with one rename: never half-written."""
    private = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    private.write_text(json.dumps(check, indent=1))
    os.replace(private, path)

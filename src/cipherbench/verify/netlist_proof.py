"""A mapped ASIC netlist proven equal to the design's netlist before mapping, so that one gate-level
simulation per design stands for all of its goals and speed grades (issue 6).

Why this is sound and cheap here: every goal and speed grade of a design is mapped by ABC from
one cached RTLIL file (``flows/asic._registers_mapped``: Yosys' gates with the registers already
the library's flip-flops). ABC maps combinational logic only, so every mapped netlist keeps the
prefix's flip-flop instances, by name. Cutting both netlists at those instances (``expose
-evert``: a flip-flop's outputs become inputs, its inputs outputs, named ``<instance>.<pin>``)
leaves two combinational circuits with the same ports, and their equality for every input is
sequential equality from every state. Yosys writes each side as an AIGER file with its port
names, and ABC's ``cec`` (SAT sweeping, then SAT) decides their equality, matching inputs and
outputs by name: a port one side lacks leaves the proof undecided. The reference's side is the
same for every goal and speed grade of a design, so it is written once and kept beside the
prefix. An AES-128 pipeline (about 650 k gates on the two sides): 40 s of Yosys for the netlist's
side, 55 s of ABC, against 200 s for one Yosys miter of both. The tests change one NAND2 to a
NOR2 (or AND2 to OR2) in a mapped netlist and ABC finds inputs on which they differ.

A bottom-up netlist (flows/asic.py ``hierarchy``) keeps the design's modules, and ABC maps each
by itself, so each distinct module is proven by itself: cut also at its instances of the other
modules, whose pins become ports named ``<instance>.<pin>`` on both sides. Equal modules with
the same instances make equal designs, and a module shared by ten rounds is proven once: 15 s
for the AES-128 pipeline's 19 modules, 23 s with the reference's side made in the same call.

Undefined bits: the prefix may hold ``x`` constants that the flow ties to 0 after ABC
(``setundef -zero``); the reference gets the same, and the two are compared exactly. (An earlier
version built a Yosys miter with ``-ignore_gold_x``, whose ``x`` comparisons Yosys' optimizer
folded to "equal": it proved a wrong netlist.)

The chain of evidence (verify/netlist.py's simulation, then this): the first netlist of a design
whose proof succeeds is also simulated on the RTL's vectors, and a record of that simulation is
kept beside the prefix; every later netlist of the design proven equal to the prefix is equal to
that simulated netlist. A proof that fails or cannot decide never fails a job by itself: the
netlist is then simulated as before.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ToolFailed, ToolMissing
from ..rtl import run_yosys_script
from ..tools import run_tool

METHOD = "proven equal to a simulated netlist of the same design"
PROOF_TIMEOUT_S = 900
# Conflicts ABC may spend on one SAT call of the check before calling it undecided.
CONFLICT_LIMIT = 100_000


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


def design_modules(rtlil: Path) -> list[str]:
    """The modules an RTLIL file (plain or gzipped) defines, as RTLIL names, in file order."""
    opener = gzip.open if rtlil.name.endswith(".gz") else open
    with opener(rtlil, "rt") as fh:  # type: ignore[operator]
        return [line.split()[1] for line in fh if line.startswith("module ")]


def side_script(netlist: Path, modules: list[str], cells: Path, sequential: list[str],
                folder: Path, *, tie_undefined: bool) -> str:
    """The Yosys script that writes one side of the proof, one AIGER file with port names per
    module of ``modules`` (``folder/<i>.aig`` for the i-th): the module's logic as gates, its
    library cells flattened, cut at the library's sequential cells and at its instances of the
    other modules (whose pins become its ports, named ``<instance>.<pin>``). A flat netlist is
    one module; a bottom-up one (flows/asic.py) is proven module by module, each distinct module
    once: equal modules with equal instances make equal designs.

    ``tie_undefined`` ties the reference's ``x`` constants to 0, as the flow ties the mapped
    netlist's after ABC; the mapped side is taken as it is."""
    kinds = " ".join(sequential)
    script = [
        # The cells' functions, with the sequential cells kept as instances to cut at.
        f"read_liberty -ignore_miss_func {cells}",
        f"setattr -mod -set keep_hierarchy 1 {kinds}",
        # RTLIL reads several times faster than the same netlist as Verilog.
        f"read_rtlil {netlist}" if netlist.name.endswith((".il", ".il.gz")) else f"read_verilog {netlist}",
        "design -save whole",
    ]
    for index, module in enumerate(modules):
        others = [m for m in modules if m != module]
        cuts = " ".join([*(f"t:{kind}" for kind in sequential), *(f"t:{m}" for m in others)])
        script += [
            "design -load whole",
            # The other modules as black boxes (their ports only), so that flatten leaves their
            # instances to be cut. (Yosys 0.70's flatten inlined a keep_hierarchy module into
            # the top when its own submodules had the attribute too.)
            *([f"blackbox {' '.join(others)}"] if others else []),
            f"hierarchy -top {module}",
            "flatten -noscopeinfo",
            *(["setundef -zero"] if tie_undefined else []),
            # Drop the internal names (ports and cell names stay): the flattened cells' pin
            # wires are most of the design.
            "rename -hide w:*",
            "opt_clean -purge",
            f"expose -evert {cuts}",
            f"hierarchy -top {module}",
            "techmap",
            # An undriven net of the netlist becomes an input of its own name, which the other
            # side lacks: ABC then refuses to match the two, and the proof stays undecided.
            "setundef -undriven -expose",
            # No optimization here: ABC hashes the gates itself (an `opt -fast` cost a third of
            # this script on a pipeline's netlist and left ABC's check no faster).
            "aigmap",
            f"write_aiger -symbols {folder / f'{index}.aig'}",
        ]
    return "\n".join(script)


def reference_aigers(reference: Path, modules: list[str], cells: Path, sequential: list[str],
                     log: Path, timeout: float = PROOF_TIMEOUT_S) -> Path:
    """The reference's side of the proof, made once per reference and kept beside it (every goal
    and speed grade of a design is proven against the same files): a folder of one AIGER file
    per module; ``log``: Yosys' log, when made."""
    script_digest = hashlib.sha256(
        side_script(reference, modules, cells, sequential, Path("OUT"), tie_undefined=True).encode()
    ).hexdigest()[:16]
    folder = reference.with_name(f"{reference.name}.{script_digest}.aigs")
    if folder.is_dir():
        return folder
    private = folder.with_name(f".{folder.name}.{os.getpid()}.{threading.get_ident()}")
    private.mkdir()
    try:
        run_yosys_script(side_script(reference, modules, cells, sequential, private,
                                     tie_undefined=True), log, timeout=timeout)
        try:
            os.replace(private, folder)
        except OSError:
            if not folder.is_dir():  # else another job published the same files first
                raise
    finally:
        shutil.rmtree(private, ignore_errors=True)
    return folder


def abc_path() -> Path:
    """The ABC executable that comes with pyosys (the same ABC as Yosys' own ``abc`` pass)."""
    import pyosys

    return Path(pyosys.__file__).with_name("yosys-abc")


def prove_equal(reference: Path, mapped: Path, top: str, cells: Path, sequential: list[str],
                work: Path, timeout: float = PROOF_TIMEOUT_S) -> NetlistProof:
    """Prove ``mapped`` (library cells, as RTLIL or Verilog) equal to ``reference`` (RTLIL) with
    their sequential cells and module instances corresponded by name (see the module docstring
    and ``side_script``). ``top``: the design's top module, which must be among the reference's."""
    log = work / "netlist_proof.log"
    started = time.monotonic()
    gates = work / "netlist_proof_gate"
    linked: list[Path] = []
    try:
        modules = design_modules(reference)
        if top not in {m.lstrip("\\") for m in modules}:
            raise ToolFailed(f"the reference {reference} has no module {top}")
        gold = reference_aigers(reference, modules, cells, sequential,
                                work / "netlist_proof_reference.log", timeout)
        shutil.rmtree(gates, ignore_errors=True)
        gates.mkdir(parents=True)
        run_yosys_script(side_script(mapped, modules, cells, sequential, gates,
                                     tie_undefined=False),
                         work / "netlist_proof_yosys.log", timeout=timeout)
        # ABC's command line splits at spaces: every file by a plain name in the work folder.
        commands = []
        left = max(1.0, timeout - (time.monotonic() - started))
        for index in range(len(modules)):
            ref, gate = work / f"netlist_proof_reference_{index}.aig", work / f"netlist_proof_gate_{index}.aig"
            for link, target in ((ref, gold / f"{index}.aig"), (gate, gates / f"{index}.aig")):
                link.unlink(missing_ok=True)
                link.symlink_to(target.resolve())
                linked.append(link)
            # cec matches the two networks' inputs and outputs by name; -C bounds each SAT
            # call, -T the check (past either, "UNDECIDED").
            commands.append(f"cec -T {int(left)} -C {CONFLICT_LIMIT} {ref.name} {gate.name}")
        text = run_tool([str(abc_path()), "-c", "; ".join(commands)], cwd=work, log_path=log,
                        timeout_s=left + 30)
    except (ToolFailed, ToolMissing, OSError) as exc:
        # Ports that do not match (a flip-flop one side lacks) or a timeout: undecided.
        return NetlistProof(None, time.monotonic() - started, f"no proof: {exc}", log)
    finally:
        for link in linked:
            link.unlink(missing_ok=True)
        shutil.rmtree(gates, ignore_errors=True)
    return _verdict(text, len(modules), time.monotonic() - started, log)


def _verdict(text: str, modules: int, seconds: float, log: Path) -> NetlistProof:
    """ABC's ``cec`` verdicts, one per module: "Networks are equivalent" (possibly "after
    structural hashing"), "NOT EQUIVALENT" or "UNDECIDED". Equal only if every module is; a
    verdict missing (names that do not match) decides nothing."""
    verdicts = [line.strip() for line in text.splitlines() if line.startswith("Networks are ")]
    if any(v.startswith("Networks are NOT EQUIVALENT") for v in verdicts):
        failed = next(v for v in verdicts if v.startswith("Networks are NOT EQUIVALENT"))
        return NetlistProof(False, seconds, f"ABC cec: {failed}", log)
    if len(verdicts) < modules:
        said = [line.strip() for line in text.splitlines() if line.strip()]
        return NetlistProof(None, seconds, f"ABC cec gave {len(verdicts)} verdicts for {modules} "
                            "modules" + (f": {said[-1]}" if len(said) > 1 else ""), log)
    undecided = [v for v in verdicts if not v.startswith("Networks are equivalent")]
    if undecided:
        return NetlistProof(None, seconds, f"ABC cec: {undecided[0]}", log)
    what = verdicts[0] if modules == 1 else f"Networks are equivalent ({modules} modules)"
    return NetlistProof(True, seconds, f"ABC cec: {what}", log)


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

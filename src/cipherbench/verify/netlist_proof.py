"""A mapped netlist, generic or ASIC, proven equal to the design's gate prefix, so that one
gate-level simulation per design stands for all of its targets, goals and speed grades (issue 6).

Why this is sound and cheap here: every netlist of a design is mapped from one cached RTLIL file
(flows/gates_prefix.py: Yosys' gates and registers). The generic flow maps its logic onto a gate
set; the ASIC flow maps its registers onto the library's (dfflibmap, which keeps each register's
name) and its logic with ABC. ABC maps combinational logic only, so every netlist keeps the
prefix's registers, by name. On each side the registers become one of a few "cut" cells: the
library's turned back into Yosys' own first (``register_unmap``, from dfflibmap's account of its
mappings), then every Yosys kind into a cut cell with its polarities as inverters in front
(``CUT_MAP_V``). Cutting both netlists at those cells (``expose -evert``: a register's output
becomes an input, its inputs outputs, named ``<instance>.<pin>``) leaves two combinational
circuits with the same ports, and their equality for every input is sequential equality from
every state. Yosys writes each side as an AIGER file with its port names, and ABC's ``cec`` (SAT
sweeping, then SAT) decides their equality, matching inputs and outputs by name: a port one side
lacks leaves the proof undecided. The reference's side is the same for every netlist of a
design, so it is written once and kept beside the prefix. An AES-128 pipeline (about 650 k gates
on the two sides), flat: 40 s of Yosys for the netlist's side, 55 s of ABC, against 200 s for
one Yosys miter of both. The tests change one NAND2 to a NOR2 (or AND2 to OR2, or one XOR of a
generic netlist to an OR) and ABC finds inputs on which they differ.

What the proof takes on trust: that a library register is what dfflibmap read it to be from the
Liberty's ff or latch group, as the gate-level simulation takes it to be what read_liberty reads
from the same group.

A bottom-up netlist (flows/asic/ ``hierarchy``) keeps the design's modules, and ABC maps each
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
kept beside the prefix; every later netlist of the design proven equal to the prefix, of any
target, is equal to that simulated netlist. A proof that fails or cannot decide never fails a
job by itself: the netlist is then simulated as before.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
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


# Every register kind of Yosys' that the prefix or a library's flip-flops come back as, made an
# instance of one of a few "cut" cells, polarities turned into inverters in front of it (a
# flip-flop on the falling edge of C is one on the rising edge of ~C): both sides of a proof
# then have the same kind of cell with the same pins at every register, whichever polarities
# the library offered. Its instance keeps the register's name (_TECHMAP_REPLACE_).
_CUT_CELLS = {  # cut cell -> its inputs (its output is Q)
    "cb_cut_dff": "C D", "cb_cut_dff_r0": "C R D", "cb_cut_dff_r1": "C R D",
    "cb_cut_dffsr": "C S R D", "cb_cut_dlatch": "E D", "cb_cut_dlatch_r0": "E R D",
    "cb_cut_dlatch_r1": "E R D",
}


def _cut_texts() -> tuple[str, str]:
    """The cut cells as black boxes, and the techmap that turns Yosys' registers into them."""
    cells = []
    for name, inputs in _CUT_CELLS.items():
        pins = inputs.split()
        cells.append(f"(* blackbox *)\nmodule {name} ({', '.join(pins)}, Q);\n"
                     f"  input {', '.join(pins)};\n  output Q;\nendmodule\n")
    maps = []

    def add(kind: str, cut: str, polarities: dict[str, str]) -> None:
        pins = _CUT_CELLS[cut].split()
        conns = ", ".join(f".{p}({'' if polarities.get(p, 'P') == 'P' else '~'}{p})" for p in pins)
        maps.append(f'(* techmap_celltype = "{kind}" *)\n'
                    f"module _cb_cut_{len(maps)} ({', '.join(pins)}, Q);\n"
                    f"  input {', '.join(pins)};\n  output Q;\n"
                    f"  {cut} _TECHMAP_REPLACE_ ({conns}, .Q(Q));\nendmodule\n")

    for c in "NP":
        add(f"$_DFF_{c}_", "cb_cut_dff", {"C": c})
        add(f"$_DLATCH_{c}_", "cb_cut_dlatch", {"E": c})
        for r in "NP":
            for v in "01":
                add(f"$_DFF_{c}{r}{v}_", f"cb_cut_dff_r{v}", {"C": c, "R": r})
                add(f"$_DLATCH_{c}{r}{v}_", f"cb_cut_dlatch_r{v}", {"E": c, "R": r})
            for s in "NP":
                add(f"$_DFFSR_{c}{s}{r}_", "cb_cut_dffsr", {"C": c, "S": s, "R": r})
    return "".join(cells), "".join(maps)


CUT_CELLS_V, CUT_MAP_V = _cut_texts()

# dfflibmap's log line for one mapping, e.g.
#   \DFF_X1 _DFF_P_ (.CK( C), .D( D), .Q( Q), .QN(~Q));
_RE_MAPPING = re.compile(r"^\s*\\(\S+) _(\S+)_ \((.*)\);\s*$")
_RE_PIN = re.compile(r"\.(\w+)\(([^()]*)\)")
# Yosys' register kinds the unmap knows the pins of (inputs; the output is Q).
_GENERIC_INPUTS = (
    (re.compile(r"^DFF_[NP]$"), ("C", "D")),
    (re.compile(r"^DFF_[NP][NP][01]$"), ("C", "R", "D")),
    (re.compile(r"^DFFSR_[NP][NP][NP]$"), ("C", "S", "R", "D")),
    (re.compile(r"^DLATCH_[NP]$"), ("E", "D")),
    (re.compile(r"^DLATCH_[NP][NP][01]$"), ("E", "R", "D")),
)


def register_unmap(dfflibmap_log: str) -> str:
    """A techmap (Verilog) that turns each library register dfflibmap used back into the Yosys
    register it was mapped from, with the same instance name, from dfflibmap's own account of
    its mappings in ``dfflibmap_log`` (``final dff/dlatch cell mappings``): the library cell's
    pins as the Yosys cell's, directly or inverted.

    The proof then takes the library's registers to be what dfflibmap read them to be from the
    Liberty's ff and latch groups, as the gate-level simulation takes them to be what
    read_liberty reads from the same groups. A mapping with a pin it cannot express (a constant,
    a scan input) is left out: those registers stay library cells, no longer match the
    reference's, and the proof stays undecided."""
    section = dfflibmap_log.rpartition("final dff/dlatch cell mappings:")[2]
    templates = []
    for line in section.splitlines():
        match = _RE_MAPPING.match(line)
        if not match:
            continue
        cell, kind, pins_text = match.groups()
        template = _unmap_template(cell, kind, dict(_RE_PIN.findall(pins_text)))
        if template:
            templates.append(template)
    return "".join(templates)


def _unmap_template(cell: str, kind: str, pins: dict[str, str]) -> str | None:
    inputs = next((ins for pattern, ins in _GENERIC_INPUTS if pattern.match(kind)), None)
    if inputs is None:
        return None
    lib_inputs, outputs, connections = [], [], {}
    for pin, expression in pins.items():
        expression = expression.strip()
        inverted = expression.startswith("~")
        signal = expression.lstrip("~").strip()
        if not signal:
            continue  # a pin dfflibmap leaves open
        if signal == "Q":
            outputs.append(f"  assign {pin} = {'~' if inverted else ''}q;")
        elif signal in inputs and signal not in connections:
            lib_inputs.append(pin)
            connections[signal] = f"{'~' if inverted else ''}{pin}"
        else:
            return None
    if set(connections) != set(inputs) or not outputs:
        return None
    ports = [*lib_inputs, *(line.split()[1] for line in outputs)]
    conns = ", ".join(f".{name}({connections[name]})" for name in inputs)
    return (f'(* techmap_celltype = "{cell}" *)\n'
            f"module _cb_unmap_{re.sub(r'[^A-Za-z0-9_]', '_', cell)} ({', '.join(ports)});\n"
            f"  input {', '.join(lib_inputs)};\n"
            f"  output {', '.join(line.split()[1] for line in outputs)};\n"
            f"  wire q;\n  \\$_{kind}_ _TECHMAP_REPLACE_ ({conns}, .Q(q));\n"
            + "\n".join(outputs) + "\nendmodule\n")


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


def side_script(netlist: Path, modules: list[str], folder: Path, *, cells: Path | None,
                register_map: Path | None, tie_undefined: bool) -> str:
    """The Yosys script that writes one side of the proof, one AIGER file with port names per
    module of ``modules`` (``folder/<i>.aig`` for the i-th): the module's logic as gates, its
    library cells (``cells``: the Liberty, when it has any) flattened, cut at its registers and
    at its instances of the other modules (whose pins become its ports, named
    ``<instance>.<pin>``). A flat netlist is one module; a bottom-up one is proven module by
    module, each distinct module once: equal modules with equal instances make equal designs.

    Registers: ``register_map`` (``register_unmap``) turns the library's back into Yosys' own,
    and every Yosys register becomes a cut cell (``CUT_MAP_V``), so a generic netlist, a mapped
    one and the gate prefix all meet at the same cells. The script reads the cut cells from
    ``folder`` (``write_cut_files``).

    ``tie_undefined`` ties the reference's ``x`` constants to 0, as the flow ties the mapped
    netlist's after ABC; the mapped side is taken as it is."""
    script = [
        # The library cells' functions (the registers among them are mapped back first).
        *([f"read_liberty -ignore_miss_func {cells}"] if cells else []),
        # RTLIL reads several times faster than the same netlist as Verilog.
        f"read_rtlil {netlist}" if netlist.name.endswith((".il", ".il.gz")) else f"read_verilog {netlist}",
        *([f"techmap -map {register_map}"] if register_map else []),
        f"read_verilog -lib {folder / 'cut_cells.v'}",
        f"techmap -map {folder / 'cut_map.v'}",
        "design -save whole",
    ]
    for index, module in enumerate(modules):
        others = [m for m in modules if m != module]
        cuts = " ".join([*(f"t:{cut}" for cut in _CUT_CELLS), *(f"t:{m}" for m in others)])
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


def write_cut_files(folder: Path) -> None:
    """The cut cells and their techmap, where ``side_script`` reads them."""
    (folder / "cut_cells.v").write_text(CUT_CELLS_V)
    (folder / "cut_map.v").write_text(CUT_MAP_V)


def reference_aigers(reference: Path, modules: list[str], log: Path,
                     timeout: float = PROOF_TIMEOUT_S) -> Path:
    """The reference's side of the proof (the gate prefix: Yosys' registers, no library), made
    once per reference and kept beside it (every generic and ASIC netlist of a design is proven
    against the same files): a folder of one AIGER file per module; ``log``: Yosys' log, when
    made."""
    script = side_script(reference, modules, Path("OUT"), cells=None, register_map=None,
                         tie_undefined=True)
    script_digest = hashlib.sha256("\0".join([script, CUT_CELLS_V, CUT_MAP_V]).encode()).hexdigest()[:16]
    folder = reference.with_name(f"{reference.name}.{script_digest}.aigs")
    if folder.is_dir():
        return folder
    private = folder.with_name(f".{folder.name}.{os.getpid()}.{threading.get_ident()}")
    private.mkdir()
    try:
        write_cut_files(private)
        run_yosys_script(side_script(reference, modules, private, cells=None, register_map=None,
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


def prove_equal(reference: Path, mapped: Path, top: str, work: Path, *, cells: Path | None = None,
                register_map: Path | None = None,
                timeout: float = PROOF_TIMEOUT_S) -> NetlistProof:
    """Prove ``mapped`` (Yosys' gates, or library cells with ``cells`` and ``register_map``;
    RTLIL or Verilog) equal to ``reference`` (the gate prefix, RTLIL) with their registers and
    module instances corresponded by name (see the module docstring and ``side_script``).
    ``top``: the design's top module, which must be among the reference's."""
    work.mkdir(parents=True, exist_ok=True)
    log = work / "netlist_proof.log"
    started = time.monotonic()
    gates = work / "netlist_proof_gate"
    linked: list[Path] = []
    try:
        modules = design_modules(reference)
        if top not in {m.lstrip("\\") for m in modules}:
            raise ToolFailed(f"the reference {reference} has no module {top}")
        gold = reference_aigers(reference, modules, work / "netlist_proof_reference.log", timeout)
        shutil.rmtree(gates, ignore_errors=True)
        gates.mkdir(parents=True)
        write_cut_files(gates)
        run_yosys_script(side_script(mapped, modules, gates, cells=cells,
                                     register_map=register_map, tie_undefined=False),
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
    from ..cachedir import publish_text

    publish_text(path, json.dumps(check, indent=1))

"""What every flow returns and the interface every flow implements.

A flow turns a design directory (Verilog + manifest.json) into raw measurements. It knows
nothing about ciphers; metrics (throughput, efficiency) are derived elsewhere from these figures.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..errors import CipherbenchError

# A figure; a dict for per-part figures such as ABC's delay of each module (flows/asic/abc.py).
Measurement = float | int | str | dict[str, float]


@dataclass
class FlowResult:
    """Raw figures of one design on one target, with everything needed to reproduce them."""

    target: str  # e.g. "generic", "asic:NangateOpenCellLibrary:speed", "fpga:ecp5:25k:CABGA381"
    measurements: dict[str, Measurement]
    tools: dict[str, str]  # tool name -> version string
    settings: dict[str, Any]  # the effective settings, defaults filled in
    # name -> path (logs, netlists, reports); "sim_netlist": the mapped netlist as simulatable
    # Verilog with the top's ports, which the study simulates on the RTL's vectors
    artifacts: dict[str, str] = field(default_factory=dict)
    # A flow that verifies its netlist itself, in a simulation only it can run (the
    # de-synchronized core's timed simulation), gives the record here instead of a sim_netlist.
    check: dict[str, Any] | None = None


@runtime_checkable
class Flow(Protocol):
    name: str
    # How long a job of this flow takes per byte of the design's Verilog, relative to the others
    # (executor.job_cost): the executor starts the longest jobs first, so a short one, not a
    # pipeline's FPGA route or transistor count, finishes a study.
    cost: int

    def target_id(self, settings: dict[str, Any]) -> str:
        """A short stable id of the target these settings select."""
        ...

    def available(self) -> str | None:
        """None if the flow's tools are installed, else the reason it cannot run."""
        ...

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        ...


def study_keys(flow: Any) -> tuple[str, ...]:
    """The study-file keys a flow reads (its ``study_keys``; none if it has none)."""
    return tuple(getattr(flow, "study_keys", ()))


def study_settings(flow: Any, data: Any, where: str) -> dict[str, Any]:
    """The settings every job of ``flow`` gets from a study file's keys for it (the flow's own
    ``study_settings``); a one-line error naming the key when one is wrong."""
    method = getattr(flow, "study_settings", None)
    return {} if method is None else dict(method(data, where))


def study_variants(flow: Any, data: Any, where: str) -> list[dict[str, Any]]:
    """The variants of every job of ``flow`` a study file's keys ask for (the flow's own
    ``study_variants``: e.g. one job per kind of storage of a de-synchronized core); [{}]:
    one job as it is. A variant with a ``designs`` entry (a list of design specs) applies to
    those designs of the study only (study/planning.py)."""
    method = getattr(flow, "study_variants", None)
    variants = [] if method is None else list(method(data, where))
    return variants or [{}]


def shared_work(flow: Any, settings: dict[str, Any]) -> str | None:
    """A key for the work a flow's job makes once per design and caches for the design's other
    jobs with the same key (a flow that has a ``shared_work(settings)`` method: the ASIC flow's
    synthesis before ABC, the same for every goal and speed grade); None for none. Two such jobs
    started together would each make it, so the executor starts other work beside the first."""
    method = getattr(flow, "shared_work", None)
    return None if method is None else method(settings)


@dataclass(frozen=True)
class Design:
    """The parts of manifest.json a flow needs."""

    directory: Path
    top: str
    clock: str
    verilog: tuple[Path, ...]
    manifest: dict[str, Any]


def load_design(design_dir: Path) -> Design:
    """Read and check manifest.json; one-line CipherbenchError on anything missing."""
    path = design_dir / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise CipherbenchError(f"no manifest.json in {design_dir}") from exc
    except json.JSONDecodeError as exc:
        raise CipherbenchError(f"{path} is not valid JSON: {exc}") from exc
    missing = [key for key in ("top", "clock", "verilog") if key not in manifest]
    if missing:
        raise CipherbenchError(f"{path} lacks {', '.join(missing)}")
    files = tuple((design_dir / name).resolve() for name in manifest["verilog"])
    absent = [str(f) for f in files if not f.is_file()]
    if absent:
        raise CipherbenchError(f"{path} names missing Verilog files: {', '.join(absent)}")
    if not files:
        raise CipherbenchError(f"{path} lists no Verilog files")
    return Design(design_dir.resolve(), str(manifest["top"]), str(manifest["clock"]), files, manifest)


def missing_tool(*checks: Callable[[], object]) -> str | None:
    """A flow's ``available()``: None if every check passes, else the one-line reason of the
    first that raises (each check finds a tool or file and raises CipherbenchError)."""
    for check in checks:
        try:
            check()
        except CipherbenchError as exc:
            return str(exc)
    return None


def check_settings(flow: str, settings: dict[str, Any], known: set[str]) -> None:
    """Reject misspelled settings: a silently ignored setting would mislabel a measurement."""
    unknown = sorted(set(settings) - known)
    if unknown:
        raise CipherbenchError(
            f"unknown {flow} setting(s) {', '.join(unknown)}; valid: {', '.join(sorted(known))}"
        )


def yosys_read_verilog(design: Design) -> str:
    """The Yosys command that reads the design's Verilog files."""
    plain = [f for f in design.verilog if f.suffix != ".sv"]
    system = [f for f in design.verilog if f.suffix == ".sv"]
    # A designer's core may be SystemVerilog (external/); generated designs are Verilog-2005.
    reads = [f"read_verilog {' '.join(_quote(str(f)) for f in plain)}" if plain else "",
             f"read_verilog -sv {' '.join(_quote(str(f)) for f in system)}" if system else ""]
    return "\n".join(r for r in reads if r)


def yosys_read_script(design: Design) -> list[str]:
    """Yosys commands that read the design's Verilog and fix its top."""
    return [yosys_read_verilog(design), f"hierarchy -check -top {yosys_id(design.top)}"]


def _quote(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'


def yosys_id(name: str) -> str:
    """A module name as Yosys commands accept it (names with odd characters need a backslash)."""
    return name if name.replace("_", "a").isalnum() else "\\" + name


# Cells that carry no logic: flatten leaves $scopeinfo markers behind, and they would count as
# cells (and as cells of unknown transistor cost).
YOSYS_DROP_MARKERS = "delete t:$scopeinfo"


def read_stat_json(path: Path) -> dict[str, dict[str, Any]]:
    """Per-module statistics from `tee -q -o FILE stat -json ...`, keyed by plain module name."""
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CipherbenchError(f"cannot read Yosys statistics {path}: {exc}") from exc
    return {name.lstrip("\\"): stats for name, stats in data.get("modules", {}).items()}


def cells_by_type(stats: dict[str, Any]) -> dict[str, int]:
    return {kind.lstrip("\\"): int(n) for kind, n in stats.get("num_cells_by_type", {}).items()}


def safe_key(name: str) -> str:
    """An instance name as part of a measurement key (letters, digits and underscores)."""
    return "".join(ch if ch.isalnum() else "_" for ch in name).strip("_") or "unnamed"

"""User-facing target names and the flow + settings each stands for.

``generic``      technology-independent gates (Yosys + ABC): transistors, gates, logic depth
``asic``         a Liberty library (``--liberty``, $CIPHERBENCH_LIBERTY or $PDK_ROOT), Yosys + ABC +
                 OpenSTA, area- and speed-oriented synthesis
``fpga-ecp5``    Lattice ECP5 (LFE5U-25F), Yosys synth_ecp5 + nextpnr-ecp5
``fpga-ice40``   Lattice iCE40 (UP5K by default, 5,280 LUTs), Yosys synth_ice40 + nextpnr-ice40
``asic-layout``  placed and routed on an OSU cell kit (qflow: graywolf + qrouter), OpenSTA before
                 and after routing with the routed wires' parasitics (not in the default study)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CipherbenchError

TARGET_NAMES = ("generic", "asic", "fpga-ecp5", "fpga-ice40", "asic-layout")
# What a study runs when it names no targets: place and route of a whole core takes long
# (docs/flows.md), so the layout target runs only where a study asks for it.
DEFAULT_TARGETS = ("generic", "asic", "fpga-ecp5", "fpga-ice40")
ASIC_GOALS = ("area", "speed")


@dataclass(frozen=True)
class Target:
    """A flow and its settings: one column of measurements."""

    name: str
    flow: str
    settings: dict[str, Any] = field(default_factory=dict)


def expand_target(name: str, *, liberty: Path | None = None,
                  goals: tuple[str, ...] = ASIC_GOALS) -> list[Target]:
    """The concrete targets a target name stands for (asic: one per synthesis goal)."""
    if name == "generic":
        return [Target("generic", "generic", {})]
    if name == "asic":
        from .flows.liberty import find_liberty, load_liberty

        lib = find_liberty(liberty)
        load_liberty(lib)  # refuse a malformed Liberty, or one without a NAND2, before any job
        return [Target("asic", "asic", {"liberty": str(lib), "goal": goal}) for goal in goals]
    if name == "fpga-ecp5":
        return [Target(name, "fpga", {"family": "ecp5"})]
    if name == "fpga-ice40":
        return [Target(name, "fpga", {"family": "ice40"})]
    if name == "asic-layout":
        return [Target(name, "layout", {})]
    raise CipherbenchError(f"unknown target {name!r}; valid: {', '.join(TARGET_NAMES)}")


def target_unavailable(name: str, liberty: Path | None = None) -> str | None:
    """Why a target cannot run on this machine (None if it can)."""
    from .flows import get_flow

    try:
        targets = expand_target(name, liberty=liberty)
    except CipherbenchError as exc:
        return str(exc)
    for target in targets:
        reason = get_flow(target.flow).available()
        if reason:
            return reason
    return None


def describe_targets() -> list[str]:
    lines = []
    for line in (__doc__ or "").strip().splitlines()[2:]:
        lines.append(line.rstrip())
    for name in TARGET_NAMES:
        reason = target_unavailable(name)
        lines.append(f"{name}: {'available' if reason is None else 'unavailable: ' + reason}")
    return lines

"""User-facing target names and the flow + settings each stands for.

``generic``      technology-independent gates (Yosys + ABC): transistors, gates, logic depth
``asic``         standard cells, Yosys + ABC + OpenSTA, area- and speed-oriented synthesis: on the
                 built-in osu018 kit (or a study's own libraries), and on the configured
                 Liberty as well (``--liberty``, $CIPHERBENCH_LIBERTY or $PDK_ROOT)
``fpga-ecp5``    Lattice ECP5 (LFE5U-25F), Yosys synth_ecp5 + nextpnr-ecp5
``fpga-ice40``   Lattice iCE40 (UP5K by default, 5,280 LUTs), Yosys synth_ice40 + nextpnr-ice40
``asic-layout``  placed and routed on an OSU cell kit (qflow: graywolf + qrouter), OpenSTA before
                 and after routing with the routed wires' parasitics (not in the default study)
``asic-desync``  the asic netlist de-synchronized: latch (or flip-flop) pairs, handshake
                 controllers and matched delays, verified and measured in timed simulation
                 (Icarus + OpenSTA's SDF) on the same libraries as asic (not in the default study)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .errors import CipherbenchError

TARGET_NAMES = ("generic", "asic", "fpga-ecp5", "fpga-ice40", "asic-layout", "asic-desync")
# Targets measured once per cell library (the study's, the built-in osu018, the configured one).
PER_LIBRARY = ("asic", "asic-desync")
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


def expand_target(name: str, *, libraries: Sequence[str | Path] = (),
                  goals: tuple[str, ...] = ASIC_GOALS) -> list[Target]:
    """The concrete targets a target name stands for (asic: one per library and synthesis goal;
    ``libraries`` as ``asic_libraries`` gives them)."""
    if name == "generic":
        return [Target("generic", "generic", {})]
    if name == "asic":
        from .flows.liberty import load_liberty

        targets = []
        for lib in libraries or asic_libraries():
            path = _resolve(lib)
            load_liberty(path)  # refuse a malformed Liberty, or one without a NAND2, before any job
            targets += [Target("asic", "asic", {"liberty": str(path), "goal": goal})
                        for goal in goals]
        return targets
    if name == "fpga-ecp5":
        return [Target(name, "fpga", {"family": "ecp5"})]
    if name == "fpga-ice40":
        return [Target(name, "fpga", {"family": "ice40"})]
    if name == "asic-layout":
        return [Target(name, "layout", {})]
    if name == "asic-desync":
        from .flows.liberty import load_liberty

        targets = []
        for lib in libraries or asic_libraries():
            path = _resolve(lib)
            load_liberty(path)
            targets.append(Target(name, "desync", {"liberty": str(path)}))
        return targets
    raise CipherbenchError(f"unknown target {name!r}; valid: {', '.join(TARGET_NAMES)}")


def asic_libraries(own: Sequence[str | Path] = (), explicit: str | Path | None = None) -> list[str]:
    """The libraries the asic target measures on: a study's own (else the built-in osu018 kit),
    and the configured Liberty (``explicit`` --liberty, $CIPHERBENCH_LIBERTY, $PDK_ROOT) as
    well, not instead; each once. Names stay names until a job resolves them."""
    from .flows.libraries import DEFAULT_KIT
    from .flows.liberty import configured_liberty

    wanted = [str(lib) for lib in own] or [DEFAULT_KIT]
    configured = configured_liberty(explicit)
    if configured is not None:
        wanted.append(configured)
    unique: dict[str, str] = {}
    for lib in wanted:
        unique.setdefault(_identity(lib), lib)
    return list(unique.values())


def _resolve(lib: str | Path) -> Path:
    from .flows.liberty import resolve_liberty

    return resolve_liberty(lib)


def _identity(lib: str) -> str:
    """One key for a kit's name and its installed path, so a library named both ways runs once."""
    try:
        return str(_resolve(lib).resolve())
    except CipherbenchError:
        return lib


def target_unavailable(name: str, libraries: Sequence[str | Path] = ()) -> str | None:
    """Why a target cannot run on this machine (None if it can)."""
    from .flows import get_flow

    try:
        targets = expand_target(name, libraries=libraries)
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
        state = "available" if reason is None else "unavailable: " + reason
        if name == "asic" and reason is None:
            state += f" ({_libraries_text()})"
        lines.append(f"{name}: {state}")
    return lines


def _libraries_text() -> str:
    """Which libraries the asic target measures on here, and the built-in kits installed."""
    from .flows.libraries import KITS, kit_files

    measured = asic_libraries()
    installed = []
    for kit in KITS:
        try:
            kit_files(kit)
            installed.append(kit)
        except CipherbenchError:
            pass
    return (f"measures on {', '.join(measured)}; built-in libraries installed: "
            f"{', '.join(installed) or 'none'}")

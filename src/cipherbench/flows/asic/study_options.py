"""The asic flow's keys in a study file: which libraries, goals, kinds of storage and speed grades
a study plans the asic target's jobs for, and the settings every asic job of the study gets.

    liberty = ["osu050"]                 # the libraries: built-in kit names or Liberty paths
    asic_goals = ["area", "speed"]       # the synthesis ends
    asic_speed_grades = 5                # the NSA's speed grades (seed 000 section 3.2)
    asic_sequential = ["flipflop", "latch"]  # also every ASIC job with latch pairs
    asic_power = false                   # no power measurement
    synthesis_hierarchy = "bottom-up"    # each distinct module mapped once (with the generic flow)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...errors import CipherbenchError

GOALS = ("area", "speed")
SEQUENTIAL = ("flipflop", "latch")
HIERARCHIES = ("flat", "bottom-up")
STUDY_KEYS = ("liberty", "asic_goals", "asic_speed_grades", "asic_sequential", "asic_power",
              "synthesis_hierarchy")


@dataclass(frozen=True)
class AsicPlan:
    """What a study plans the asic target's jobs for."""

    # Kit names or Liberty paths (empty: the built-in osu018); the configured Liberty is added
    # when the jobs are planned (targets.asic_libraries).
    libraries: tuple[str, ...] = ()
    goals: tuple[str, ...] = GOALS
    # 0: the goals' ends only; n >= 2: n grades from the speed end to the area end.
    speed_grades: int = 0
    # The design's registers as flip-flops, and/or each flip-flop as a two-phase latch pair.
    sequential: tuple[str, ...] = ("flipflop",)


def study_plan(data: Mapping[str, Any], where: str, targets: list[str]) -> AsicPlan:
    """The asic plan of a study file's keys; a one-line error naming the key otherwise."""
    goals = data.get("asic_goals", list(GOALS))
    if not isinstance(goals, list) or not goals or not all(g in GOALS for g in goals):
        raise CipherbenchError(f"{where}: 'asic_goals' must be a list of {', '.join(GOALS)}")
    grades = data.get("asic_speed_grades", 0)
    if isinstance(grades, bool) or not isinstance(grades, int) or grades == 1 or grades < 0:
        raise CipherbenchError(f"{where}: 'asic_speed_grades' must be 0 (no sweep) or a whole "
                               f"number of grades, at least 2 (the two ends)")
    if grades and not ("asic" in targets and set(GOALS) <= set(goals)):
        raise CipherbenchError(f"{where}: 'asic_speed_grades' sweeps between the asic target's two "
                               f"ends: add \"asic\" to 'targets' and keep 'asic_goals' at "
                               f"[\"area\", \"speed\"]")
    sequential = data.get("asic_sequential", ["flipflop"])
    if (not isinstance(sequential, list) or not sequential
            or not all(isinstance(k, str) and k in SEQUENTIAL for k in sequential)):
        raise CipherbenchError(f"{where}: 'asic_sequential' must be a list of "
                               f"{', '.join(SEQUENTIAL)}")
    return AsicPlan(libraries=_libraries(data, where), goals=tuple(goals), speed_grades=grades,
                    sequential=tuple(dict.fromkeys(sequential)))


def study_settings(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Settings every asic job of the study gets. Only non-default choices are written, so the
    jobs of a study that sets nothing keep their cache keys."""
    settings: dict[str, Any] = {}
    power = data.get("asic_power", True)
    if not isinstance(power, bool):
        raise CipherbenchError(f"{where}: 'asic_power' must be true or false")
    if not power:
        settings["power"] = False
    settings.update(hierarchy_settings(data, where))
    return settings


def hierarchy_settings(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``synthesis_hierarchy``, which the generic and asic flows share: {"hierarchy": ...} when
    it is not the default "flat"."""
    value = data.get("synthesis_hierarchy", "flat")
    if value not in HIERARCHIES:
        raise CipherbenchError(f"{where}: 'synthesis_hierarchy' must be one of "
                               f"{', '.join(HIERARCHIES)}, not {value!r}")
    return {} if value == "flat" else {"hierarchy": value}


def _libraries(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """``liberty``: one library or a list, each a built-in kit name or a Liberty path (relative
    to the study file)."""
    from ..libraries import KITS, is_kit

    value = data.get("liberty", [])
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise CipherbenchError(f"{where}: 'liberty' must be a library or a list of them: built-in "
                               f"{', '.join(KITS)} or Liberty file paths")
    return tuple(v if is_kit(v) else str(Path(where).parent / v) for v in values)

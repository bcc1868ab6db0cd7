"""A study's jobs planned: every design on every target (the asic target once per library,
goal and kind of storage, a missing library skipped by itself), then the speed grades between
each design's two ASIC ends, from the ends' stored figures.

``asic_speed_grades = n`` sweeps every design's ASIC synthesis from the speed-oriented end to the
area-oriented end in n grades: grade 1 is the speed end, grade n the area end, and grade i
between lies (i - 1) / (n - 1) of the way from one to the other, module by module: every module
gets an ABC target that far from its own speed-end delay to its own area-end delay (asic
``grade_position`` and ``module_delays_ps``, flows/asic/abc.py), and the grade is labelled by the
critical path spaced evenly between the ends' (asic ``delay_ps``). The ends run first; the grades
between are planned from their stored figures, so a rerun plans the same grades and finds them
cached.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import CipherbenchError
from ..jobs import Job, RunSummary, job_key
from ..spec import DesignSpec
from ..targets import PER_LIBRARY, Target, asic_libraries, expand_target, target_unavailable
from .definition import Study

# Delay targets of a speed-grade sweep are rounded to this, so that figures that differ in the
# last digit between tool versions still plan the same jobs.
_GRADE_STEP_PS = 10


def plan_jobs(study: Study, summary: RunSummary) -> list[Job]:
    jobs: list[Job] = []
    for name, libraries in _target_runs(study):
        label = f"{name} on {libraries[0]}" if libraries else name
        reason = target_unavailable(name, libraries)
        if reason is not None:
            if study.skip_unavailable:
                summary.skipped_targets.append(f"{label} ({reason})")
                continue
            raise CipherbenchError(f"target {label} unavailable: {reason}")
        for target in expand_target(name, libraries=libraries, goals=study.asic.goals):
            extra = study.settings_for(target.flow)
            if extra:
                target = replace(target, settings={**target.settings, **extra})
            for variant in _sequential_variants(target, study.asic.sequential):
                for extra_variant in study.variants_for(target.flow):
                    designs = _variant_designs(extra_variant, study.designs,
                                               study.designs_chosen)
                    settings = {k: v for k, v in extra_variant.items() if k != VARIANT_DESIGNS}
                    job_target = (replace(variant, settings={**variant.settings, **settings})
                                  if settings else variant)
                    jobs.extend(Job(design, job_target) for design in designs)
    return jobs


# A variant's key naming the designs it is for (flows/base.py study_variants); without it, all.
VARIANT_DESIGNS = "designs"


def _variant_designs(variant: dict[str, Any], designs: tuple[DesignSpec, ...],
                     on_command_line: bool = False) -> list[DesignSpec]:
    """The study's designs a flow variant applies to: those it names (by their spec as the
    study writes it, short or canonical), or every design. A name the study lacks is an error,
    unless the designs were given ``on_command_line`` (then the variant runs for those of them
    given)."""
    from ..kinds.registry import design_of

    wanted = variant.get(VARIANT_DESIGNS)
    if wanted is None:
        return list(designs)
    canonical = {design_of(name).canonical() for name in wanted}
    chosen = [d for d in designs if d.canonical() in canonical]
    missing = canonical - {d.canonical() for d in chosen}
    if missing and not on_command_line:
        raise CipherbenchError(f"a flow's jobs name designs the study does not have: "
                               f"{', '.join(sorted(missing))} (add them to 'designs')")
    return chosen


def _target_runs(study: Study) -> list[tuple[str, tuple[str, ...]]]:
    """Each target name of the study, the asic target once per library, so that a library that
    is not installed is skipped (or refused) by itself while the others run."""
    runs: list[tuple[str, tuple[str, ...]]] = []
    for name in study.targets:
        if name in PER_LIBRARY:
            runs += [(name, (lib,)) for lib in asic_libraries(study.asic.libraries, study.liberty)]
        else:
            runs.append((name, ()))
    return runs


def _sequential_variants(target: Target, sequential: tuple[str, ...]) -> list[Target]:
    """An ASIC target once per storage kind (flip-flops keep the plain settings, so their jobs'
    keys stay as they were); any other target as it is."""
    if target.flow != "asic":
        return [target]
    return [target if kind == "flipflop" else
            replace(target, settings={**target.settings, "sequential": kind})
            for kind in sequential]


def grade_delays_ps(speed_end_ns: float, area_end_ns: float, grades: int) -> list[int]:
    """ABC delay targets of the ``grades - 2`` speed grades between the two ends: evenly spaced
    between their critical paths, in ps rounded to ``_GRADE_STEP_PS``, without repeats (ends
    closer together than the steps give fewer grades)."""
    return [ps for _, ps in grade_points(speed_end_ns, area_end_ns, grades)]


def grade_points(speed_end_ns: float, area_end_ns: float,
                 grades: int) -> list[tuple[float, int]]:
    """The speed grades between the ends as (position, label ps): position i / (grades - 1)
    from the speed end (0) to the area end (1), and the critical path the grade aims at,
    evenly spaced and rounded as in ``grade_delays_ps`` (a repeated label is left out)."""
    if grades < 3 or area_end_ns <= speed_end_ns:
        return []
    step = (area_end_ns - speed_end_ns) / (grades - 1)
    points: list[tuple[float, int]] = []
    for i in range(1, grades - 1):
        ps = int(round((speed_end_ns + i * step) * 1000 / _GRADE_STEP_PS)) * _GRADE_STEP_PS
        if ps > 0 and ps not in (label for _, label in points):
            points.append((round(i / (grades - 1), 4), ps))
    return points


def module_grade_ends(speed: dict[str, Any], area: dict[str, Any]) -> dict[str, list[float]]:
    """{module: [speed_ps, area_ps]}: ABC's delay of each module at the two ends (asic
    measurement ``abc_module_delays_ps``), for the modules both ends measured."""
    fast = speed.get("abc_module_delays_ps") or {}
    slow = area.get("abc_module_delays_ps") or {}
    return {module: [float(fast[module]), float(slow[module])]
            for module in sorted(fast) if module in slow}


def plan_speed_grades(jobs: list[Job], grades: int, store: Any) -> list[Job]:
    """The jobs between each design's ASIC ends (see the module docstring), from the ends'
    stored results; a design whose ends failed gets none."""
    if grades < 3:
        return []
    ends: dict[tuple[DesignSpec, str, str], dict[str, Any]] = {}
    for job in jobs:
        goal = job.target.settings.get("goal")
        if job.target.flow != "asic" or goal not in ("area", "speed"):
            continue
        result = store.get(job_key(job).key)
        if result is not None and result.ok:
            where = (job.design, str(job.target.settings["liberty"]),
                     str(job.target.settings.get("sequential", "flipflop")))
            ends.setdefault(where, {})[goal] = (result.measurements.get("critical_path_ns"),
                                                job.target, result.measurements)
    planned = []
    for (design, _, _), both in ends.items():
        if set(both) != {"area", "speed"} or None in (both["area"][0], both["speed"][0]):
            continue
        target = both["area"][1]
        base = {k: v for k, v in target.settings.items() if k != "goal"}
        # Each module's own ends (flows/asic/abc.py): a grade gives every module a target between
        # them. Without them (results of an older cipherbench) one design-wide target, which
        # under bottom-up synthesis every module meets at once (BENCHMARKS.md).
        modules = module_grade_ends(both["speed"][2], both["area"][2])
        for position, delay in grade_points(float(both["speed"][0]), float(both["area"][0]),
                                            grades):
            settings = {**base, "delay_ps": delay}
            if modules:
                settings.update(grade_position=position, module_delays_ps=modules)
            planned.append(Job(design, Target(target.name, target.flow, settings)))
    return planned

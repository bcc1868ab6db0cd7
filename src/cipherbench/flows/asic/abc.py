"""ABC's scripts for the asic flow (the goal's, a speed grade's, one per module) and the delays
ABC reports per module. The policy is in the asic flow's docstring (flows/asic/__init__.py)."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

SPEED_DELAY_PS = 1
# &nf's delay relaxation for speed grades: measured to give about 6 % less area than plain
# `&nf -D t` at the same delay on MARS' multiplier module (BENCHMARKS.md, "Speed grades per
# module").
GRADE_NF_RELAX = 1000
# Grades at or beyond this position map for area and size up (the flow's docstring).
GRADE_AREA_MAPPING_FROM = 0.5
AREA_DNSIZE_PS = 100_000  # "no delay target": 100 ns is slower than any path we will see
# Yosys' default ABC script for Liberty mapping (`abc -liberty`), up to the mapper.
_ABC_PREPARE = "strash; &get -n; &fraig -x; &put; scorr; dc2; dretime; strash; &get -n; &dch -f"
# structure=keep: only structural hashing and choice computation before the mapper.
_ABC_PREPARE_KEEP = "strash; &get -n; &dch -f"
_RE_ABC_PASS = re.compile(r"^\d+(?:\.\d+)*\. Executing ABC pass", re.MULTILINE)
_RE_ABC_MODULE = re.compile(r"Extracting gate netlist of module `\\?(.+?)' to ")
_RE_ABC_DELAY = re.compile(r"Delay =\s*(-?[\d.]+) ps")


def abc_prepare(structure: str) -> str:
    """ABC's steps before mapping, for the ``structure`` setting."""
    return _ABC_PREPARE_KEEP if structure == "keep" else _ABC_PREPARE


def abc_script(goal: str, delay_ps: int | None, structure: str = "restructure") -> str:
    """The ABC script for a goal, written out in full so it is recorded with the result."""
    prepare = abc_prepare(structure)
    if goal == "area":
        return f"{prepare}; &put; amap; buffer -p; dnsize -D {AREA_DNSIZE_PS}; stime -p"
    if goal == "speed":
        # No dnsize: ABC sizes each module by its own paths, and downsizing what is not critical
        # there slowed the assembled design: without it 17 of the NSA study's 20 designs were
        # faster bottom-up (MARS-128 iterative 5.67 -> 4.69 ns, for 8 % more area), the AES
        # 3-in-1 pipeline 5 % slower (BENCHMARKS.md, "Speed grades per module").
        return f"{prepare}; &nf -D {SPEED_DELAY_PS}; &put; buffer -p; upsize -D {SPEED_DELAY_PS}; stime -p"
    return (
        f"{prepare}; &nf -D {delay_ps}; &put; buffer -p; "
        f"upsize -D {delay_ps}; dnsize -D {delay_ps}; stime -p"
    )


def grade_target_ps(position: float, speed_ps: float, area_ps: float) -> int:
    """A module's ABC target at ``position`` between its speed-end and area-end delays (an
    area end no slower than the speed end, as a tiny module's can be, gives the speed end's)."""
    return max(1, round(speed_ps + position * max(0.0, area_ps - speed_ps)))


def grade_abc_script(position: float, target_ps: int, structure: str = "restructure") -> str:
    """The ABC script of one module at a speed grade (module docstring)."""
    prepare = abc_prepare(structure)
    upsize = f"buffer -p; upsize -D {target_ps}"
    if position < GRADE_AREA_MAPPING_FROM:
        return f"{prepare}; &nf -R {GRADE_NF_RELAX} -D {target_ps}; &put; {upsize}; stime -p"
    return f"{prepare}; &put; amap; {upsize}; dnsize -D {target_ps}; stime -p"


def module_abc_scripts(modules: list[str], settings: dict[str, Any]) -> dict[str, str]:
    """Each module's ABC script: the goal's, or at a speed grade the module's own (a module the
    ends did not measure, one with no logic to map, gets the plain ``delay_ps`` script)."""
    common = abc_script(settings["goal"], settings["delay_ps"], settings["structure"])
    position = settings.get("grade_position")
    if position is None:
        return {module: common for module in modules}
    ends = settings.get("module_delays_ps") or {}
    scripts = {}
    for module in modules:
        if module in ends:
            speed_ps, area_ps = ends[module]
            target = grade_target_ps(position, speed_ps, area_ps)
            scripts[module] = grade_abc_script(position, target, settings["structure"])
        else:
            scripts[module] = common
    return scripts


def abc_module_delays(log: str) -> dict[str, float]:
    """ABC's own delay (its last `stime -p`) of every module the log's ABC passes mapped, one
    pass per module; a module with nothing to map has none."""
    delays: dict[str, float] = {}
    starts = [m.start() for m in _RE_ABC_PASS.finditer(log)] + [len(log)]
    for begin, end in pairwise(starts):
        section = log[begin:end]
        modules = _RE_ABC_MODULE.findall(section)
        found = _RE_ABC_DELAY.findall(section)
        if len(modules) == 1 and found:
            delays[modules[0]] = float(found[-1])
    return delays

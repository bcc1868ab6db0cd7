"""ASIC flow: Yosys + ABC onto a Liberty library, then OpenSTA on the post-synthesis netlist.

Timing after synthesis only means something once ABC has buffered and sized
the netlist, so every script ends in `buffer -p` (buffer high-fanout nets, flip-flop outputs
and ports included) and sizing. ABC models its inputs as driven by the library's smallest buffer
and its outputs as loaded by four NAND2 inputs (a fanout-of-4 load), given through `-constr`;
without that ABC sees ideal drivers and leaves a flip-flop driving 50 gates on an X1 output.

Goals:
- "area": area-oriented mapping (`amap`), then buffering and downsizing with no delay target;
- "speed": `&nf -D 1` (1 ps: ABC gets as fast as it can), buffering, `upsize` to 1 ps (no
  downsizing: see ``abc_script``);
- an explicit `delay_ps`: the same as speed with that target;
- a speed grade (`grade_position` p between 0, the speed end, and 1, the area end, with
  `module_delays_ps`, each module's ABC delay at the two ends): every module gets its own target
  p of the way from its speed-end delay to its area-end delay. A grade nearer the speed end
  (p < 0.5) maps for delay to that target and upsizes (`&nf -R 1000 -D t; upsize -D t`), one
  nearer the area end maps for area and sizes to it (`amap; upsize -D t; dnsize -D t`): on the
  MARS modules measured (BENCHMARKS.md, "Speed grades per module") `&nf` recovers little area
  however loose its target, while `amap` with sizing cannot reach the faster targets, so each
  family covers its half of the curve.

ABC runs once per module (one `abc` command each), so its own delay of every module is known
(measurement ``abc_module_delays_ps``, from the `stime -p` line of that module's run): the speed
grades between a design's ends are planned from these (study.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import CipherbenchError
from ...tools import sta_path, sta_version, yosys_version
from ..base import FlowResult, check_settings, load_design, missing_tool
from ..gates_prefix import shared_key
from ..liberty import load_liberty
from .abc import (
    AREA_DNSIZE_PS, GRADE_AREA_MAPPING_FROM, GRADE_NF_RELAX, SPEED_DELAY_PS, abc_module_delays,
    abc_prepare, abc_script, grade_abc_script, grade_target_ps, module_abc_scripts,
)
from .power_report import power_script, report_power
from .sta import STA_OK, check_sta_output, sta_load_design, sta_script, time_netlist
from .study_options import HIERARCHIES, SEQUENTIAL, STUDY_KEYS, AsicPlan, study_plan, study_settings
from .synthesis import LATCH_PAIR_MAP, rtlil_modules, synthesize

__all__ = [
    "AREA_DNSIZE_PS", "AsicFlow", "AsicPlan", "DEFAULTS", "GRADE_AREA_MAPPING_FROM", "GRADE_NF_RELAX",
    "HIERARCHIES", "LATCH_PAIR_MAP", "SEQUENTIAL", "SPEED_DELAY_PS", "STA_OK", "STRUCTURES",
    "abc_module_delays", "abc_prepare", "abc_script", "check_sta_output", "effective_settings",
    "grade_abc_script", "grade_target_ps", "module_abc_scripts", "power_script", "report_power",
    "rtlil_modules", "sta_load_design", "sta_script", "study_plan", "study_settings",
    "synthesize", "time_netlist",
]

DEFAULTS: dict[str, Any] = {
    "liberty": None,  # path; else $CIPHERBENCH_LIBERTY, else $PDK_ROOT (see liberty.find_liberty)
    "goal": "area",  # "area" | "speed"; ignored when delay_ps is given
    "delay_ps": None,  # explicit ABC delay target; with grade_position, the grade's label
    # A speed grade (module docstring): its position between the ends, 0 (speed) to 1 (area),
    # and each module's ABC delay at the two ends, {module: [speed_ps, area_ps]}.
    "grade_position": None,
    "module_delays_ps": None,
    "clock_period_ns": 10.0,  # STA clock; the result (period - worst slack) does not depend on it
    "dont_use": [],  # glob patterns of cells neither dfflibmap nor ABC may use
    # "restructure": Yosys' synth with its own ABC pass, then ABC's full preparation (fraig,
    # scorr, dc2, dretime): best figures for arbitrary logic, but it rewrites a hand-built carry
    # network (a prefix adder) into a near-serial chain. "keep": no ABC pass in synth and no
    # dc2/fraig/scorr before mapping, so the structure the RTL chose is what gets mapped.
    "structure": "restructure",
    # "flipflop": the design's registers as the Liberty's flip-flops. "latch": each flip-flop as a
    # two-phase pair of latches (Papaefstathiou et al.'s latch-based cores): a master open while
    # the clock is low and a slave open while it is high, timed by OpenSTA with time borrowing.
    "sequential": "flipflop",
    # Power from simulated switching activity (power.py): a traced gate-level build and three
    # workload simulations, the larger part of a big core's job. False keeps the netlist's
    # verification on the RTL's vectors but measures no power (the NSA's tables have none).
    "power": True,
    # "flat": the design flattened, then synthesized and mapped as one netlist. "bottom-up": each
    # distinct module synthesized and mapped once, by itself, and instantiated wherever it is
    # used (the NSA study's method, seed 000 section 3.1: "synthesis proceeded from the bottom of
    # the design up through the hierarchy"). No optimization crosses a module boundary, and ABC
    # sees each module's ports as driven and loaded as the design's own; a pipeline of ten
    # identical rounds is mapped once instead of ten times (BENCHMARKS.md).
    "hierarchy": "flat",
}
STRUCTURES = ("restructure", "keep")


class AsicFlow:
    name = "asic"
    cost = 2
    # A study file's keys for this flow (study_options.py); ``study_plan`` reads the ones that
    # decide which asic jobs are planned, ``study_settings`` those every asic job gets.
    study_keys = STUDY_KEYS

    def study_settings(self, data: Any, where: str) -> dict[str, Any]:
        return study_settings(data, where)

    def target_id(self, settings: dict[str, Any]) -> str:
        effective = {**DEFAULTS, **settings}
        library = load_liberty(effective["liberty"])
        return f"asic:{library.name}:{_goal_label(effective)}"

    def available(self) -> str | None:
        return missing_tool(yosys_version, sta_path)

    def shared_work(self, settings: dict[str, Any]) -> str:
        """What decides the design's gate prefix (flows/gates_prefix.py), which the first job
        makes and, through the netlist proof, whose netlist simulation the others reuse: the
        goal, delay target and Liberty do not."""
        effective = {**DEFAULTS, **settings}
        return shared_key(str(effective["hierarchy"]), str(effective["structure"]))

    def run(self, design_dir: Path, work_dir: Path, settings: dict[str, Any]) -> FlowResult:
        check_settings(self.name, settings, set(DEFAULTS))
        effective = effective_settings(settings)
        library = load_liberty(effective["liberty"])
        design = load_design(design_dir)
        work_dir.mkdir(parents=True, exist_ok=True)
        sta = sta_path()  # fail before the long synthesis if OpenSTA is missing

        netlist, synth, artifacts = synthesize(design, library, work_dir, effective)
        timing, sta_artifacts = time_netlist(design, library, netlist, work_dir, effective, sta)
        artifacts.update(sta_artifacts)

        effective.update({
            "liberty": str(library.source), "liberty_name": library.name,
            "liberty_sha256": library.sha256, "nand2_cell": library.nand2.name,
            "nand2_area_um2": library.nand2.area, "dont_use_auto": library.special_cells,
        })
        return FlowResult(
            target=f"asic:{library.name}:{_goal_label(effective)}",
            measurements={**synth, **timing},
            tools={
                "yosys": yosys_version(), "opensta": sta_version(),
                "liberty": f"{library.name} sha256:{library.sha256}",
            },
            settings=effective, artifacts=artifacts,
        )


def effective_settings(settings: dict[str, Any]) -> dict[str, Any]:
    effective = {**DEFAULTS, **settings}
    effective["dont_use"] = list(effective["dont_use"] or [])
    if effective["delay_ps"] is not None:
        delay = effective["delay_ps"]
        if not isinstance(delay, (int, float)) or delay <= 0:
            raise CipherbenchError(f"asic setting delay_ps={delay!r} must be a positive number of ps")
        effective["delay_ps"] = int(round(delay))
        effective["goal"] = "delay"
    elif effective["goal"] not in ("area", "speed"):
        raise CipherbenchError(
            f"asic setting goal={effective['goal']!r} must be 'area' or 'speed' (or give delay_ps)"
        )
    _check_grade(effective)
    if effective["structure"] not in STRUCTURES:
        raise CipherbenchError(f"asic setting structure={effective['structure']!r} must be one of "
                               f"{', '.join(STRUCTURES)}")
    if float(effective["clock_period_ns"]) <= 0:
        raise CipherbenchError("asic setting clock_period_ns must be positive")
    if not isinstance(effective["power"], bool):
        raise CipherbenchError(f"asic setting power={effective['power']!r} must be true or false")
    if effective["hierarchy"] not in HIERARCHIES:
        raise CipherbenchError(f"asic setting hierarchy={effective['hierarchy']!r} must be one "
                               f"of {', '.join(HIERARCHIES)}")
    if effective["sequential"] not in SEQUENTIAL:
        raise CipherbenchError(f"asic setting sequential={effective['sequential']!r} must be one "
                               f"of {', '.join(SEQUENTIAL)}")
    return effective


def _check_grade(effective: dict[str, Any]) -> None:
    position, ends = effective["grade_position"], effective["module_delays_ps"]
    if position is None:
        if ends is not None:
            raise CipherbenchError("asic setting module_delays_ps needs grade_position")
        return
    if not isinstance(position, (int, float)) or not 0 < position < 1:
        raise CipherbenchError(f"asic setting grade_position={position!r} must lie strictly "
                               "between 0 (the speed end) and 1 (the area end)")
    if effective["delay_ps"] is None:
        raise CipherbenchError("asic setting grade_position needs delay_ps (the grade's label)")
    if not isinstance(ends, dict) or not all(
            isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, (int, float)) and x > 0 for x in v) for v in ends.values()):
        raise CipherbenchError("asic setting module_delays_ps must map each module to "
                               "[speed_end_ps, area_end_ps]")


def _goal_label(settings: dict[str, Any]) -> str:
    if settings.get("delay_ps") is not None:
        label = f"d{int(round(settings['delay_ps']))}ps"
    else:
        label = str(settings.get("goal", DEFAULTS["goal"]))
    # Only non-default choices show, so existing target ids stay as they were.
    return (label + (":keep" if settings.get("structure") == "keep" else "")
            + (":latch" if settings.get("sequential") == "latch" else "")
            + (":bottom-up" if settings.get("hierarchy") == "bottom-up" else ""))


# ---- synthesis ------------------------------------------------------------------------------

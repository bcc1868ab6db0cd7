"""A study (TOML) -> jobs (design x target x settings) -> results in the store.

Study file::

    name = "default"
    designs = ["aes-128/iterative", "aes/iterative"]
    targets = ["generic", "asic", "fpga-ecp5", "fpga-ice40"]
    asic_goals = ["area", "speed"]      # optional
    liberty = ["osu050"]                 # optional: the asic target's libraries, built-in kit names
                                         # (osu018, osu035, osu050) or Liberty paths; default osu018.
                                         # --liberty, $CIPHERBENCH_LIBERTY or $PDK_ROOT add one.
    skip_unavailable = true              # optional: leave out targets whose tools are missing
    asic_speed_grades = 5                # optional: the NSA's speed grades (seed 000 section 3.2)
    fpga_fmax_search = true              # optional: raise the requested clock (docs/flows.md)
    fpga_seeds = [1, 2, 3]               # optional: placement seeds, best and spread reported
    asic_sequential = ["flipflop", "latch"]  # optional: also every ASIC job with latch pairs
    layout_tech = "osu018"               # optional: the asic-layout target's cell kit
    layout_density = 0.5                 # optional: its placement density
    layout_synthesis = "speed"           # optional: the netlist it places (speed, area, qflow)

``asic_speed_grades = n`` sweeps every design's ASIC synthesis from the speed-oriented end to the
area-oriented end in n grades: grade 1 is the speed end, grade n the area end, and grade i
between lies (i - 1) / (n - 1) of the way from one to the other, module by module: every module
gets an ABC target that far from its own speed-end delay to its own area-end delay (asic
``grade_position`` and ``module_delays_ps``, flows/asic.py), and the grade is labelled by the
critical path spaced evenly between the ends' (asic ``delay_ps``). The ends run first; the grades
between are planned from their stored figures, so a rerun plans the same grades and finds them
cached.

Every job is content-addressed: its cache key hashes the canonical design spec, the generator's
source digest, the target, its settings and the tool versions (and the Liberty's hash). A job whose
key has an ok row in the store is not recomputed.
"""

from __future__ import annotations

import hashlib
import subprocess
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from . import __version__
from .errors import CipherbenchError
from .spec import DesignSpec, parse
from .targets import (
    ASIC_GOALS, DEFAULT_TARGETS, TARGET_NAMES, Target, asic_libraries, expand_target,
    target_unavailable,
)

if TYPE_CHECKING:
    from .verify.netlist_proof import NetlistProof

DEFAULT_DESIGNS = ("aes-128/iterative", "aes/iterative")
_KNOWN_KEYS = {"name", "designs", "targets", "asic_goals", "liberty", "skip_unavailable",
               "asic_speed_grades", "fpga_fmax_search", "fpga_seeds", "asic_sequential",
               "layout_tech", "layout_density", "layout_synthesis", "asic_power",
               "synthesis_hierarchy"}
# Delay targets of a speed-grade sweep are rounded to this, so that figures that differ in the
# last digit between tool versions still plan the same jobs.
_GRADE_STEP_PS = 10
# An FPGA design too large for the device is a measured outcome (Gaj & Chodowiec Table I), not an
# error of the run.
_EXPECTED_FAILURE_PREFIX = "does not fit"


@dataclass(frozen=True)
class Study:
    name: str
    designs: tuple[DesignSpec, ...]
    targets: tuple[str, ...]
    asic_goals: tuple[str, ...] = ASIC_GOALS
    # The asic target's own libraries (kit names or Liberty paths; empty: the built-in osu018),
    # and the configured one (--liberty), measured as well as they are (targets.asic_libraries).
    libraries: tuple[str, ...] = ()
    liberty: str | None = None
    skip_unavailable: bool = True
    asic_speed_grades: int = 0  # 0: the goals' ends only; n >= 2: n grades from speed to area
    # The asic flow's storage: flip-flops, and/or each flip-flop as a two-phase latch pair.
    asic_sequential: tuple[str, ...] = ("flipflop",)
    # False: the ASIC jobs verify their netlists but measure no power (flows/asic.py "power").
    asic_power: bool = True
    # "bottom-up": the generic and asic targets map each distinct module once, unflattened
    # (flows/asic.py "hierarchy"); "flat" (their default) flattens the design first.
    synthesis_hierarchy: str = "flat"
    fpga_settings: tuple[tuple[str, Any], ...] = ()  # added to every fpga target's settings
    layout_settings: tuple[tuple[str, Any], ...] = ()  # added to the asic-layout target's

    def override(self, *, designs: tuple[str, ...] = (), targets: tuple[str, ...] = (),
                 liberty: str | Path | None = None) -> "Study":
        study = self
        if designs:
            study = replace(study, designs=tuple(parse(d) for d in designs))
        if targets:
            study = replace(study, targets=_check_targets(targets, "--target"),
                            skip_unavailable=False)
        if liberty:
            study = replace(study, liberty=str(liberty))
        return study


def default_study() -> Study:
    """AES-128 and AES 3-in-1, iterative, on every target available on this machine."""
    return Study("default", tuple(parse(d) for d in DEFAULT_DESIGNS), DEFAULT_TARGETS)


def load_study(path: Path) -> Study:
    try:
        data = tomllib.loads(Path(path).read_text())
    except FileNotFoundError as exc:
        raise CipherbenchError(f"study file {path} not found") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CipherbenchError(f"{path}: not valid TOML: {exc}") from exc
    except (OSError, ValueError) as exc:  # a folder, no permission, a NUL in the name, ...
        raise CipherbenchError(f"study file {path}: cannot read it ({exc}); name a TOML file") from exc
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise CipherbenchError(f"{path}: unknown key(s) {', '.join(unknown)}; valid: "
                               f"{', '.join(sorted(_KNOWN_KEYS))}")
    designs = data.get("designs")
    if not isinstance(designs, list) or not designs or not all(isinstance(d, str) for d in designs):
        raise CipherbenchError(f"{path}: 'designs' must be a non-empty list of design specs")
    targets = data.get("targets", list(DEFAULT_TARGETS))
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise CipherbenchError(f"{path}: 'targets' must be a list of target names")
    goals = data.get("asic_goals", list(ASIC_GOALS))
    if not isinstance(goals, list) or not goals or not all(g in ASIC_GOALS for g in goals):
        raise CipherbenchError(f"{path}: 'asic_goals' must be a list of {', '.join(ASIC_GOALS)}")
    libraries = _libraries(data, path)
    for key, kind, what in (("name", str, "a string"),
                            ("skip_unavailable", bool, "true or false"),
                            ("asic_power", bool, "true or false"),
                            ("synthesis_hierarchy", str, '"flat" or "bottom-up"')):
        if key in data and not isinstance(data[key], kind):
            raise CipherbenchError(f"{path}: '{key}' must be {what}")
    grades = data.get("asic_speed_grades", 0)
    if isinstance(grades, bool) or not isinstance(grades, int) or grades == 1 or grades < 0:
        raise CipherbenchError(f"{path}: 'asic_speed_grades' must be 0 (no sweep) or a whole "
                               f"number of grades, at least 2 (the two ends)")
    if grades and not ("asic" in targets and {"area", "speed"} <= set(goals)):
        raise CipherbenchError(f"{path}: 'asic_speed_grades' sweeps between the asic target's two "
                               f"ends: add \"asic\" to 'targets' and keep 'asic_goals' at "
                               f"[\"area\", \"speed\"]")
    from .flows.asic import SEQUENTIAL

    sequential = data.get("asic_sequential", ["flipflop"])
    if (not isinstance(sequential, list) or not sequential
            or not all(isinstance(k, str) and k in SEQUENTIAL for k in sequential)):
        raise CipherbenchError(f"{path}: 'asic_sequential' must be a list of "
                               f"{', '.join(SEQUENTIAL)}")
    fpga: list[tuple[str, Any]] = []
    search = data.get("fpga_fmax_search", False)
    if not isinstance(search, bool):
        raise CipherbenchError(f"{path}: 'fpga_fmax_search' must be true or false")
    if search:
        fpga.append(("fmax_search", True))
    seeds = data.get("fpga_seeds")
    if seeds is not None:
        from .flows.fpga import check_seeds

        try:
            fpga.append(("seeds", check_seeds(seeds)))
        except CipherbenchError as exc:
            raise CipherbenchError(f"{path}: 'fpga_seeds': {exc}") from exc
    layout: list[tuple[str, Any]] = []
    for key, setting in (("layout_tech", "tech"), ("layout_density", "density"),
                         ("layout_synthesis", "synthesis")):
        if key in data:
            from .flows.layout import effective_settings

            try:
                effective_settings({setting: data[key]})
            except CipherbenchError as exc:
                raise CipherbenchError(f"{path}: '{key}': {exc}") from exc
            layout.append((setting, data[key]))
    return Study(
        name=str(data.get("name", Path(path).stem)),
        designs=tuple(parse(d) for d in designs),
        targets=_check_targets(tuple(targets), str(path)),
        asic_goals=tuple(goals),
        libraries=libraries,
        skip_unavailable=bool(data.get("skip_unavailable", True)),
        asic_speed_grades=grades,
        asic_sequential=tuple(dict.fromkeys(sequential)),
        asic_power=bool(data.get("asic_power", True)),
        synthesis_hierarchy=_hierarchy(data, path),
        fpga_settings=tuple(fpga),
        layout_settings=tuple(layout),
    )


def _libraries(data: dict[str, Any], path: Path) -> tuple[str, ...]:
    """A study's ``liberty``: one library or a list, each a built-in kit name or a Liberty path
    (relative to the study file)."""
    from .flows.libraries import KITS, is_kit

    value = data.get("liberty", [])
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise CipherbenchError(f"{path}: 'liberty' must be a library or a list of them: built-in "
                               f"{', '.join(KITS)} or Liberty file paths")
    return tuple(v if is_kit(v) else str(Path(path).parent / v) for v in values)


def _hierarchy(data: dict[str, Any], path: Path) -> str:
    from .flows.asic import HIERARCHIES
    value = data.get("synthesis_hierarchy", "flat")
    if value not in HIERARCHIES:
        raise CipherbenchError(f"{path}: 'synthesis_hierarchy' must be one of "
                               f"{', '.join(HIERARCHIES)}, not {value!r}")
    return str(value)


def _check_targets(targets: tuple[str, ...], where: str) -> tuple[str, ...]:
    for name in targets:
        if name not in TARGET_NAMES:
            raise CipherbenchError(f"{where}: unknown target {name!r}; valid: "
                                   f"{', '.join(TARGET_NAMES)}")
    return targets


@dataclass(frozen=True)
class Job:
    design: DesignSpec
    target: Target


@dataclass
class RunSummary:
    ran: int = 0
    cached: int = 0
    failed_expected: int = 0
    errors: list[str] = field(default_factory=list)
    skipped_targets: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        parts = [f"{self.ran} ran", f"{self.cached} cached"]
        if self.failed_expected:
            parts.append(f"{self.failed_expected} did not fit")
        if self.errors:
            parts.append(f"{len(self.errors)} failed (first: {self.errors[0]})")
        if self.skipped_targets:
            parts.append("skipped " + "; ".join(self.skipped_targets))
        return f"study: {', '.join(parts)} in {self.seconds:.1f} s"


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
        for target in expand_target(name, libraries=libraries, goals=study.asic_goals):
            if target.flow == "fpga" and study.fpga_settings:
                target = replace(target, settings={**target.settings, **dict(study.fpga_settings)})
            if target.flow == "layout" and study.layout_settings:
                target = replace(target,
                                 settings={**target.settings, **dict(study.layout_settings)})
            if target.flow == "asic" and not study.asic_power:
                # Only the non-default choice is written, so power-measuring jobs keep their keys.
                target = replace(target, settings={**target.settings, "power": False})
            if target.flow in ("asic", "generic") and study.synthesis_hierarchy != "flat":
                target = replace(target, settings={**target.settings,
                                                   "hierarchy": study.synthesis_hierarchy})
            for variant in _sequential_variants(target, study.asic_sequential):
                jobs.extend(Job(design, variant) for design in study.designs)
    return jobs


def _target_runs(study: Study) -> list[tuple[str, tuple[str, ...]]]:
    """Each target name of the study, the asic target once per library, so that a library that
    is not installed is skipped (or refused) by itself while the others run."""
    runs: list[tuple[str, tuple[str, ...]]] = []
    for name in study.targets:
        if name == "asic":
            runs += [(name, (lib,)) for lib in asic_libraries(study.libraries, study.liberty)]
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


def run_study(study: Study, open_store: Callable[[], Any], *, force: bool = False,
              say: Callable[[str], None] | None = None, runner: Any = None) -> RunSummary:
    """Plan (which checks every input), then open the store and run the jobs: in order in this
    process, or on ``runner`` (an ``executor.Runner``: a local process pool or Dask)."""
    from tqdm import tqdm

    started = time.monotonic()
    summary = RunSummary()
    jobs = plan_jobs(study, summary)
    # Opened here even when workers write: it creates and migrates the database once, before
    # any worker connects.
    store = open_store()

    def run_batch(batch: list[Job], bar: Any) -> None:
        if runner is not None and runner.parallel(len(batch)):
            from .executor import run_jobs

            run_jobs(batch, runner, force=force, summary=summary, bar=bar)
        else:
            for job in batch:
                bar.set_postfix_str(f"{job.design} on {job.target.name}")
                _run_job(job, store, force, summary, say)
                bar.update(1)

    with tqdm(total=len(jobs), desc=f"study {study.name}", unit="job", disable=None) as bar:
        run_batch(jobs, bar)
        grades = plan_speed_grades(jobs, study.asic_speed_grades, store)
        if grades:
            bar.total += len(grades)
            bar.refresh()
            run_batch(grades, bar)
    summary.seconds = time.monotonic() - started
    return summary


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
        # Each module's own ends (flows/asic.py): a grade gives every module a target between
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


@dataclass(frozen=True)
class JobKey:
    """What identifies a job's result: its cache key and the pieces it is made of."""

    flow: Any
    settings: dict[str, Any]
    inputs: str
    target_id: str
    key: str


def job_key(job: Job) -> JobKey:
    from .store import cache_key
    from .flows import get_flow

    flow = get_flow(job.target.flow)
    settings = dict(job.target.settings)
    inputs = _inputs_digest(job, flow)
    target_id = flow.target_id(settings)
    return JobKey(flow, settings, inputs, target_id,
                  cache_key(job.design.canonical(), target_id, settings, inputs))


def reusable(existing: Any, force: bool) -> bool:
    """A stored row that stands for the job: ok, or a design that does not fit a device (a
    deterministic result of the same inputs, cached like a success). Other failures (tool
    crashes, timeouts) are retried."""
    return existing is not None and not force and (existing.ok or _is_expected(existing.reason))


def _run_job(job: Job, store: Any, force: bool, summary: RunSummary,
             say: Callable[[str], None] | None) -> None:
    from .store import Result

    ident = job_key(job)
    flow, settings, inputs, target_id, key = (ident.flow, ident.settings, ident.inputs,
                                              ident.target_id, ident.key)
    existing = store.get(key)
    if reusable(existing, force):
        summary.cached += 1
        if not existing.ok:
            summary.failed_expected += 1
        return
    try:
        result = _measure(job, flow, settings, key, target_id, inputs, say)
    except CipherbenchError as exc:
        reason = str(exc)
        result = Result(cache_key=key, design=str(job.design), target=target_id, settings=settings,
                        status="failed", reason=reason,
                        provenance=_provenance(job, {}, inputs, key))
        if _is_expected(reason):
            summary.failed_expected += 1
        else:
            summary.errors.append(f"{job.design} on {target_id}: {reason}")
    store.put(result)
    summary.ran += 1


def _is_expected(reason: str | None) -> bool:
    return bool(reason) and str(reason).startswith(_EXPECTED_FAILURE_PREFIX)


def _measure(job: Job, flow: Any, settings: dict[str, Any], key: str, target_id: str,
             inputs: str, say: Callable[[str], None] | None) -> Any:
    import json
    import tempfile

    from .cache import cache_root, ensure_design
    from .metrics import derive
    from .store import Result

    from .verify.record import ensure_verified

    started = time.monotonic()
    stages = _StageClock()
    with stages("design"):
        folder = ensure_design(job.design, progress=say)
    manifest = json.loads((folder / "manifest.json").read_text())
    # Nothing is measured that has not passed verification (verify/record.py).
    with stages("verification"):
        manifest["verification"] = ensure_verified(job.design, folder, progress=say)
    work_root = cache_root() / "runs"
    work_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"{job.design.slug}-", dir=work_root) as work:
        with stages("flow"):
            flow_result = flow.run(folder, Path(work), settings)
        with stages("netlist_check"):
            netlist_check = _check_netlist(job, folder, flow_result, Path(work), say)
        if "power_netlist" in flow_result.artifacts:
            from .power import measure_power

            with stages("power"):
                flow_result.measurements.update(
                    measure_power(job.design, folder, flow_result, Path(work), say))
    cycles = manifest["cycles_by_key_size"]
    metrics = derive({"block_bits": manifest["block_bits"], "cycles": cycles,
                      "measurements": flow_result.measurements,
                      "io_count": manifest["io_count"]})
    provenance = _provenance(job, flow_result.tools, inputs, key, manifest, netlist_check)
    # Wall time of the whole job (design, verification, flow, netlist simulation, power) on the
    # machine that ran it: what a study's time is estimated from, never a figure of the design.
    provenance["job_seconds"] = round(time.monotonic() - started, 1)
    # The same time by stage, so that a slow kind of job says where its time goes before anyone
    # tries to speed it up (design and verification are near zero once cached).
    provenance["stage_seconds"] = stages.seconds
    return Result(
        cache_key=key, design=str(job.design), target=target_id,
        settings=flow_result.settings, status="ok", measurements=flow_result.measurements,
        cycles=cycles, metrics=metrics, provenance=provenance,
    )


class _StageClock:
    """Wall time of a job's stages, each used as ``with clock("name"):``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.seconds[stage] = round(time.monotonic() - started, 1)


def _check_netlist(job: Job, folder: Path, flow_result: Any, work: Path,
                   say: Callable[[str], None] | None) -> dict[str, Any] | None:
    """Check the flow's netlist, where it writes one: gate-level simulation (verify/netlist.py),
    or, where the flow names the design's gate prefix and no power is measured, a proof that it
    equals that prefix, which another job of the design (of any target) proved its netlist equal
    to and simulated (verify/netlist_proof.py). A netlist that computes anything else than the
    RTL fails the job."""
    from .verify.netlist_proof import METHOD, read_record, write_record

    netlist = flow_result.artifacts.get("sim_netlist")
    if not netlist:
        return None
    if not _provable(flow_result.artifacts):
        return _simulate_netlist(job, folder, flow_result, work, None, say)
    proof, record_file = _prove_netlist(job, flow_result, work, say)
    if not proof.equal:
        return _simulate_netlist(job, folder, flow_result, work, proof, say)
    # One simulation per prefix: a job whose proof succeeds while another job of the design
    # simulates its own netlist waits for that record instead of simulating a second netlist.
    with _exclusive(record_file.with_name(record_file.name + ".lock")):
        record = read_record(record_file)
        if record is not None:
            return {**record, "method": METHOD, "netlist": flow_result.target,
                    "simulated_netlist": record["netlist"], "proof": proof.summary()}
        check = _simulate_netlist(job, folder, flow_result, work, proof, say)
        write_record(record_file, check)
        return check


@contextmanager
def _exclusive(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_file`` (every process on this machine sees it)."""
    import fcntl

    with open(lock_file, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _simulate_netlist(job: Job, folder: Path, flow_result: Any, work: Path,
                      proof: NetlistProof | None,
                      say: Callable[[str], None] | None) -> dict[str, Any]:
    """The netlist's own gate-level simulation; a netlist that differs from its RTL fails."""
    from .verify.netlist import simulate_netlist

    netlist = flow_result.artifacts["sim_netlist"]
    if say:
        say(f"simulating the {flow_result.target} netlist of {job.design}")
    # Traced only where the power measurement reuses the executable (verify/activity.py).
    check = simulate_netlist(job.design, folder, Path(netlist), work, flow_result.target,
                             trace="power_netlist" in flow_result.artifacts)
    if check["failed"]:
        first = "; ".join(check["first_failures"]) or "see the netlist simulation"
        raise CipherbenchError(f"the {flow_result.target} netlist of {job.design} differs from "
                               f"its RTL ({check['failed']} mismatches: {first})")
    if proof is not None:
        check["proof"] = proof.summary()
    return check


def _provable(artifacts: dict[str, str]) -> bool:
    # Power needs the netlist's own simulation (its activity) anyway.
    return "equivalence_reference" in artifacts and "power_netlist" not in artifacts


def _prove_netlist(job: Job, flow_result: Any, work: Path,
                   say: Callable[[str], None] | None) -> tuple[NetlistProof, Path]:
    """The proof that the flow's mapped netlist equals the design's netlist before mapping, and
    where the record of that netlist's simulation is kept."""
    from .generate import top_name
    from .verify.netlist_proof import prove_equal, record_path

    artifacts = flow_result.artifacts
    reference = Path(artifacts["equivalence_reference"])
    if say:
        say(f"proving the {flow_result.target} netlist of {job.design} equal to its prefix")
    optional = {name: Path(artifacts[f"equivalence_{name}"]) for name in ("cells", "register_map")
                if f"equivalence_{name}" in artifacts}
    proof = prove_equal(reference, Path(artifacts["equivalence_netlist"]), top_name(job.design),
                        work, **optional)
    return proof, record_path(reference, str(job.design), _simulation_inputs(job))


def _simulation_inputs(job: Job) -> str:
    """Everything that decides a netlist simulation's verdict besides the netlist: the design's
    generator, the vectors and testbench (measurement sources), the tools. Not the target: a
    generic and an ASIC netlist proven equal to one prefix share one simulation."""
    from .generate import generator_digest, measurement_digest
    from .tools import yosys_version
    from .verify.sim import simulator_version

    parts = [generator_digest(job.design), measurement_digest(), __version__, yosys_version(),
             simulator_version()]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def _inputs_digest(job: Job, flow: Any) -> str:
    """Everything besides design/target/settings that decides the figures."""
    from .generate import generator_digest, measurement_digest

    parts = [generator_digest(job.design), measurement_digest(), __version__,
             *_tool_versions(job.target)]
    liberty = job.target.settings.get("liberty")
    if liberty:
        parts.append(_file_sha256(Path(liberty)))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def _tool_versions(target: Target) -> list[str]:
    from . import tools

    versions = [tools.yosys_version()]
    if target.flow == "asic":
        versions.append(tools.sta_version())
    if target.flow == "fpga":
        versions.append(tools.nextpnr(target.settings["family"])[1])
    if target.flow == "layout":
        from .flows.layout import effective_settings, qflow_version, tech_files

        kit = tech_files(effective_settings(target.settings)["tech"])
        versions += [tools.sta_version(), qflow_version(), *(_file_sha256(f) for f in kit)]
    return versions


_SHA_CACHE: dict[Path, str] = {}


def _file_sha256(path: Path) -> str:
    if path not in _SHA_CACHE:
        _SHA_CACHE[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _SHA_CACHE[path]


def _provenance(job: Job, tools: dict[str, str], inputs: str, key: str,
                manifest: dict[str, Any] | None = None,
                netlist_check: dict[str, Any] | None = None) -> dict[str, Any]:
    from .generate import generator_digest

    prov: dict[str, Any] = {
        "design": job.design.canonical(),
        "target": job.target.name,
        "flow": job.target.flow,
        "settings": job.target.settings,
        "cipherbench": __version__,
        "generator_digest": generator_digest(job.design),
        "git": _git_hash(),
        "tools": tools,
        "inputs_digest": inputs,
        "cache_key": key,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    liberty = job.target.settings.get("liberty")
    if liberty:
        prov["liberty"] = {"path": liberty, "sha256": _file_sha256(Path(liberty))}
    if manifest:
        prov["verification"] = manifest.get("verification")
    if netlist_check:
        prov["netlist_check"] = netlist_check
    return prov


def _git_hash() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"

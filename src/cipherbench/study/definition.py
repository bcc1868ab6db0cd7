"""A study file read and checked: its designs, targets, and each flow's own keys (the flows
declare them: ``study_keys`` and ``study_settings`` in flows/, the asic plan in
flows/asic/study_options.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError
from ..tomlfile import read_toml
from ..external.spec import external_spec
from ..flows.asic.study_options import AsicPlan, study_plan
from ..kinds.registry import design_of, kind_of
from ..spec import DesignSpec, parse
from ..targets import DEFAULT_TARGETS, TARGET_NAMES

DEFAULT_DESIGNS = ("aes-128/iterative", "aes/iterative")
# The keys of a study file that belong to no flow.
STUDY_KEYS = ("name", "designs", "cores", "targets", "skip_unavailable")


@dataclass(frozen=True)
class Study:
    name: str
    designs: tuple[DesignSpec, ...]
    targets: tuple[str, ...]
    # What the asic target's jobs are planned for: libraries, goals, speed grades, storage.
    asic: AsicPlan = AsicPlan()
    # The configured Liberty (--liberty), measured beside the plan's own libraries.
    liberty: str | None = None
    skip_unavailable: bool = True
    # Settings every job of a flow gets from the study file's keys for that flow:
    # ((flow name, ((setting, value), ...)), ...).
    flow_settings: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = field(default=())
    # Variants of every job of a flow (flows/base.py study_variants): (flow name, (settings...)).
    flow_variants: tuple[tuple[str, tuple[tuple[tuple[str, Any], ...], ...]], ...] = field(
        default=())
    # The designs were chosen on the command line (--design): a variant naming designs runs
    # for those of them chosen, rather than asking for the rest.
    designs_chosen: bool = False

    def settings_for(self, flow: str) -> dict[str, Any]:
        return dict(dict(self.flow_settings).get(flow, ()))

    def variants_for(self, flow: str) -> list[dict[str, Any]]:
        return [dict(v) for v in dict(self.flow_variants).get(flow, ((),))]

    def override(self, *, designs: tuple[str, ...] = (), targets: tuple[str, ...] = (),
                 liberty: str | Path | None = None) -> "Study":
        study = self
        if designs:
            study = replace(study, designs=tuple(buildable(design_of(d), "--design")
                                                 for d in designs),
                            designs_chosen=True)
        if targets:
            study = replace(study, targets=check_targets(targets, "--target"),
                            skip_unavailable=False)
        if liberty:
            study = replace(study, liberty=str(liberty))
        return study


# The default study measures no ASIC power: with power each ASIC job simulates its own traced
# netlist (about 100 s of a 120-s job on osu018), while without it the job proves its netlist
# equal to the design's gate prefix, which the generic job has already simulated. That keeps
# `scripts/run.sh` on a fresh clone under ten minutes (BENCHMARKS.md); a study file measures
# power unless it sets `asic_power = false`.
DEFAULT_FLOW_SETTINGS: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (
    ("asic", (("power", False),)),
)


def default_study() -> Study:
    """AES-128 and AES 3-in-1, iterative, on every target available on this machine, without
    ASIC power."""
    return Study("default", tuple(parse(d) for d in DEFAULT_DESIGNS), DEFAULT_TARGETS,
                 flow_settings=DEFAULT_FLOW_SETTINGS)


def known_keys() -> tuple[str, ...]:
    """Every key a study file may have: the study's own and each flow's."""
    from ..flows import FLOWS
    from ..flows.base import study_keys

    keys = dict.fromkeys(STUDY_KEYS)
    for flow in FLOWS.values():
        keys.update(dict.fromkeys(study_keys(flow)))
    return tuple(keys)


def load_study(path: Path) -> Study:
    data = read_toml(Path(path), "study file")
    where = str(path)
    unknown = sorted(set(data) - set(known_keys()))
    if unknown:
        raise CipherbenchError(f"{path}: unknown key(s) {', '.join(unknown)}; valid: "
                               f"{', '.join(sorted(known_keys()))}")
    designs = data.get("designs", [])
    cores = data.get("cores", [])
    for key, value, what in (("designs", designs, "design specs"),
                             ("cores", cores, "core descriptions (paths to .toml files)")):
        if not isinstance(value, list) or not all(isinstance(d, str) for d in value):
            raise CipherbenchError(f"{path}: '{key}' must be a list of {what}")
    if not designs and not cores:
        raise CipherbenchError(f"{path}: 'designs' (design specs) or 'cores' (core descriptions) "
                               f"must name at least one design")
    targets = data.get("targets", list(DEFAULT_TARGETS))
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise CipherbenchError(f"{path}: 'targets' must be a list of target names")
    for key, kind, what in (("name", str, "a string"), ("skip_unavailable", bool, "true or false")):
        if key in data and not isinstance(data[key], kind):
            raise CipherbenchError(f"{path}: '{key}' must be {what}")
    return Study(
        name=str(data.get("name", Path(path).stem)),
        designs=(*(buildable(design_of(d), where) for d in designs),
                 *(external_spec(Path(path).parent / core) for core in cores)),
        targets=check_targets(tuple(targets), where),
        asic=study_plan(data, where, targets),
        skip_unavailable=bool(data.get("skip_unavailable", True)),
        flow_settings=_flow_settings(data, where),
        flow_variants=_flow_variants(data, where),
    )


def buildable(spec: DesignSpec, where: str) -> DesignSpec:
    """The design, once its kind has accepted it: a width or a combination the cipher's hardware
    does not offer is refused when the study is read, not hours into the run as a failed row."""
    return kind_of(spec).buildable(spec, where)


def _flow_variants(data: dict[str, Any],
                   where: str) -> tuple[tuple[str, tuple[tuple[tuple[str, Any], ...], ...]], ...]:
    from ..flows import FLOWS
    from ..flows.base import study_variants

    found = []
    for name, flow in FLOWS.items():
        variants = study_variants(flow, data, where)
        if variants != [{}]:
            found.append((name, tuple(tuple(sorted(v.items())) for v in variants)))
    return tuple(found)


def _flow_settings(data: dict[str, Any],
                   where: str) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    from ..flows import FLOWS
    from ..flows.base import study_settings

    found = []
    for name, flow in FLOWS.items():
        settings = study_settings(flow, data, where)
        if settings:
            found.append((name, tuple(settings.items())))
    return tuple(found)


def check_targets(targets: tuple[str, ...], where: str) -> tuple[str, ...]:
    for name in targets:
        if name not in TARGET_NAMES:
            raise CipherbenchError(f"{where}: unknown target {name!r}; valid: "
                                   f"{', '.join(TARGET_NAMES)}")
    return targets

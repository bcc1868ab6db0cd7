"""Every shipped study file loads and names only valid designs and targets (cheap: no runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.kinds.registry import design_of
from cipherbench.spec import parse
from cipherbench.study import load_study

STUDIES = sorted((Path(__file__).resolve().parent.parent / "studies").glob("*.toml"))


def one_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan the asic target on the built-in osu018 kit alone (no configured Liberty beside it)."""
    from cipherbench.errors import ToolMissing
    from cipherbench.flows.libraries import kit_files

    monkeypatch.delenv("CIPHERBENCH_LIBERTY", raising=False)
    monkeypatch.delenv("PDK_ROOT", raising=False)
    try:
        kit_files("osu018")
    except ToolMissing as exc:
        pytest.skip(str(exc))


def test_the_seed_studies_are_shipped() -> None:
    names = {p.stem for p in STUDIES}
    assert {"nsa", "sugawara", "gaj", "fischer", "papaefstathiou"} <= names


def test_the_issue_29_studies_are_shipped() -> None:
    """iso18033: Sugawara's Table 1 designs with SM4 and HIGHT added, on the same targets and
    library; lightweight: the new ciphers' round-based cores beside AES's compact ones."""
    studies = {p.stem: p for p in STUDIES}
    assert {"iso18033", "lightweight"} <= set(studies)
    sugawara, iso = load_study(studies["sugawara"]), load_study(studies["iso18033"])
    added = {str(d) for d in iso.designs} - {str(d) for d in sugawara.designs}
    assert added == {"sm4-128/iterative", "hight-128/iterative"}
    assert {str(d) for d in sugawara.designs} <= {str(d) for d in iso.designs}
    assert iso.targets == sugawara.targets
    light = load_study(studies["lightweight"])
    ciphers = {d.cipher for d in light.designs}
    assert {"present", "hight", "lea", "gift", "aria", "clefia", "aes"} <= ciphers
    assert any(d.cipher == "aes" and d.arch == "narrow" for d in light.designs)


@pytest.mark.parametrize("path", STUDIES, ids=lambda p: p.stem)
def test_study_loads_and_every_design_parses(path: Path) -> None:
    study = load_study(path)
    assert study.name == path.stem
    assert study.designs and study.targets
    for design in study.designs:
        assert design_of(str(design)) == design  # the short form round-trips
    assert len({str(d) for d in study.designs}) == len(study.designs), "a design is listed twice"


def test_a_design_its_generator_refuses_is_a_one_line_error_when_the_study_is_read(
        tmp_path: Path) -> None:
    """Twofish has no 16-bit datapath: a study naming one is refused before it runs (the Fischer
    study once did, and its three jobs would each have been a failed row)."""
    from cipherbench.errors import CipherbenchError

    study = tmp_path / "bad.toml"
    study.write_text('designs = ["aes-128/iterative", "twofish-128/narrow:width=16"]\n'
                     'targets = ["generic"]\n')
    with pytest.raises(CipherbenchError) as info:
        load_study(study)
    message = str(info.value)
    assert "'twofish-128/narrow:width=16' cannot be built" in message
    assert "valid widths: 64, 32, 8" in message and "\n" not in message


# ---- speed grades (NSA section 3.2) --------------------------------------------------------------


def test_grade_delays_are_spaced_evenly_between_the_ends() -> None:
    from cipherbench.study import grade_delays_ps

    # Five grades: the speed end, three delay targets, the area end.
    assert grade_delays_ps(1.78, 2.65, 5) == [2000, 2220, 2430]
    assert grade_delays_ps(1.0, 2.0, 3) == [1500]
    assert grade_delays_ps(1.0, 2.0, 2) == []  # the ends only
    assert grade_delays_ps(2.0, 1.5, 5) == []  # an area end faster than the speed end: no sweep
    assert grade_delays_ps(1.0, 1.004, 5) == [1000]  # closer than 10 ps: one target, not three


@pytest.mark.parametrize(("line", "fragment"), [
    ("asic_speed_grades = 1", "at least 2"),
    ("asic_speed_grades = -3", "at least 2"),
    ("asic_speed_grades = 2.5", "at least 2"),
    ("asic_speed_grades = true", "at least 2"),
    ('asic_speed_grades = 5\nasic_goals = ["area"]', "keep 'asic_goals'"),
    ('asic_speed_grades = 5\ntargets = ["generic"]', 'add "asic"'),
])
def test_bad_speed_grades_name_the_fix(tmp_path: Path, line: str, fragment: str) -> None:
    from cipherbench.errors import CipherbenchError

    path = tmp_path / "s.toml"
    path.write_text(f'designs = ["des-64/iterative"]\n{line}\n')
    with pytest.raises(CipherbenchError, match=fragment):
        load_study(path)


def test_grades_are_planned_from_the_stored_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between each design's stored area and speed ends, the grades' delay targets; a design whose
    ends are not both stored (ok) gets none."""
    from cipherbench.store import Result
    from cipherbench.flows.asic import AsicPlan
    from cipherbench.study import RunSummary, Study, job_key, plan_jobs, plan_speed_grades

    one_library(monkeypatch)
    designs = (parse("des-64/iterative"), parse("des-64/iterative:ops=encrypt"))
    study = Study("grades", designs, ("generic", "asic"), asic=AsicPlan(speed_grades=5))
    jobs = plan_jobs(study, RunSummary())
    assert len(jobs) == 6  # generic, area and speed for each design
    stored: dict[str, Result] = {}
    for job in jobs:
        goal = job.target.settings.get("goal")
        if goal and job.design == designs[0]:
            key = job_key(job).key
            stored[key] = Result(cache_key=key, design=str(job.design), target=job.target.name,
                                 measurements={"critical_path_ns": 1.0 if goal == "speed" else 2.0})

    class Store:
        def get(self, key: str) -> Result | None:
            return stored.get(key)

    grades = plan_speed_grades(jobs, study.asic.speed_grades, Store())
    assert [job.design for job in grades] == [designs[0]] * 3
    assert [job.target.settings["delay_ps"] for job in grades] == [1250, 1500, 1750]
    assert all("goal" not in job.target.settings and job.target.flow == "asic" for job in grades)
    # Results of an older cipherbench, without each module's delay: one target for the design.
    assert all("grade_position" not in job.target.settings for job in grades)
    assert plan_speed_grades(jobs, 0, Store()) == []

    # With each module's ABC delay at both ends, every grade places every module between them.
    for key, result in stored.items():
        speed = result.measurements["critical_path_ns"] == 1.0
        result.measurements["abc_module_delays_ps"] = (
            {"top.round": 400.0, "top.keys": 300.0, "top": 50.0} if speed
            else {"top.round": 800.0, "top.keys": 350.0})
    grades = plan_speed_grades(jobs, study.asic.speed_grades, Store())
    assert [job.target.settings["delay_ps"] for job in grades] == [1250, 1500, 1750]
    assert [job.target.settings["grade_position"] for job in grades] == [0.25, 0.5, 0.75]
    for job in grades:  # a module only one end mapped is left out
        assert job.target.settings["module_delays_ps"] == {"top.keys": [300.0, 350.0],
                                                          "top.round": [400.0, 800.0]}


def test_fpga_search_and_seeds_reach_every_fpga_job(tmp_path: Path) -> None:
    from cipherbench.errors import CipherbenchError
    from cipherbench.study import RunSummary, plan_jobs

    path = tmp_path / "s.toml"
    path.write_text('designs = ["des-64/iterative"]\ntargets = ["generic", "fpga-ice40"]\n'
                    'fpga_fmax_search = true\nfpga_seeds = [3, 1, 3]\n')
    jobs = plan_jobs(load_study(path), RunSummary())
    fpga = [job.target.settings for job in jobs if job.target.flow == "fpga"]
    assert fpga == [{"family": "ice40", "fmax_search": True, "seeds": [1, 3]}]
    assert [job.target.settings for job in jobs if job.target.flow == "generic"] == [{}]
    for line, fragment in (("fpga_seeds = []", "fpga_seeds"), ('fpga_fmax_search = "yes"',
                                                                 "fpga_fmax_search")):
        path.write_text(f'designs = ["des-64/iterative"]\n{line}\n')
        with pytest.raises(CipherbenchError, match=fragment):
            load_study(path)


def test_asic_power_false_reaches_only_the_asic_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """asic_power = false: every ASIC job (both ends) carries power=False; other targets and the
    default study keep their settings, so their cache keys stay as they were."""
    from cipherbench.errors import CipherbenchError
    from cipherbench.study import RunSummary, plan_jobs

    one_library(monkeypatch)
    path = tmp_path / "s.toml"
    path.write_text('designs = ["des-64/iterative"]\ntargets = ["generic", "asic"]\n'
                    "asic_power = false\n")
    jobs = plan_jobs(load_study(path), RunSummary())
    assert sorted((j.target.flow, j.target.settings.get("power", "-")) for j in jobs) == [
        ("asic", False), ("asic", False), ("generic", "-")]
    path.write_text('designs = ["des-64/iterative"]\ntargets = ["asic"]\n')
    assert all("power" not in j.target.settings for j in plan_jobs(load_study(path), RunSummary()))
    path.write_text('designs = ["des-64/iterative"]\nasic_power = "no"\n')
    with pytest.raises(CipherbenchError, match="'asic_power' must be true or false"):
        load_study(path)


def test_the_nsa_study_measures_no_power() -> None:
    """The NSA's tables have no power column, and power is most of a pipeline's ASIC job."""
    study = load_study(Path(__file__).resolve().parent.parent / "studies" / "nsa.toml")
    assert study.settings_for("asic")["power"] is False and study.asic.speed_grades == 5


def test_the_default_study_measures_asic_area_and_speed_without_power(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/run.sh's study: both ends of every ASIC job without power (each job proves its
    netlist against the prefix the generic job simulated), every other target as it was."""
    from cipherbench.study import RunSummary, default_study, plan_jobs

    one_library(monkeypatch)
    jobs = plan_jobs(default_study().override(targets=("generic", "asic")), RunSummary())
    assert sorted((str(j.design), j.target.flow, j.target.settings.get("goal", "-"),
                   j.target.settings.get("power", "-")) for j in jobs) == [
        ("aes-128/iterative", "asic", "area", False), ("aes-128/iterative", "asic", "speed", False),
        ("aes-128/iterative", "generic", "-", "-"),
        ("aes/iterative", "asic", "area", False), ("aes/iterative", "asic", "speed", False),
        ("aes/iterative", "generic", "-", "-")]


def test_latch_pairs_double_every_asic_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """asic_sequential = ["flipflop", "latch"]: every ASIC job also with latch pairs (its own
    target id); flip-flop jobs keep their plain settings, other targets are not repeated."""
    from cipherbench.errors import CipherbenchError
    from cipherbench.study import RunSummary, plan_jobs

    one_library(monkeypatch)
    path = tmp_path / "s.toml"
    path.write_text('designs = ["des-64/iterative"]\ntargets = ["generic", "asic"]\n'
                    'asic_sequential = ["flipflop", "latch"]\n')
    jobs = plan_jobs(load_study(path), RunSummary())
    asic = sorted((job.target.settings["goal"], job.target.settings.get("sequential", "-"))
                  for job in jobs if job.target.flow == "asic")
    assert asic == [("area", "-"), ("area", "latch"), ("speed", "-"), ("speed", "latch")]
    assert sum(job.target.flow == "generic" for job in jobs) == 1
    for line in ('asic_sequential = ["latches"]', "asic_sequential = []",
                 'asic_sequential = "latch"'):
        path.write_text(f'designs = ["des-64/iterative"]\n{line}\n')
        with pytest.raises(CipherbenchError, match="asic_sequential"):
            load_study(path)

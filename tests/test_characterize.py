"""`cipherbench characterize`: grade selection on made-up curves, and a real small sweep of the
ripple and the prefix adder on NanGate45 (Yosys + ABC + OpenSTA, no mocks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from cipherbench.characterize import (
    Characterization, SweepPoint, characterize, next_target, pareto_indices, select_grades,
)
from cipherbench.store import Result, Store

SHARED_NANGATE = Path("/work/shared/pdk/nangate45/nangate45_typ.lib.gz")
POINTS = 3


# ---- grade selection and target choice on made-up curves -----------------------------------------


def test_pareto_drops_dominated_and_repeated_points() -> None:
    pairs = [(1.0, 900.0), (1.2, 800.0), (1.1, 950.0), (1.2, 800.0), (2.0, 700.0), (1.5, 820.0)]
    assert pareto_indices(pairs) == [0, 1, 4]


def test_five_grades_include_both_ends_and_the_knees() -> None:
    # A curve with two sharp bends (at 1.1 ns and at 1.6 ns) among gently sloping stretches.
    pairs = [(1.0, 1000.0), (1.05, 900.0), (1.1, 800.0), (1.2, 790.0), (1.3, 780.0),
             (1.4, 770.0), (1.5, 760.0), (1.6, 750.0), (2.0, 745.0), (2.5, 740.0)]
    grades = select_grades(pairs)
    assert len(grades) == 5
    assert grades[0] == 0 and grades[-1] == len(pairs) - 1  # min delay, min area
    assert 2 in grades and 7 in grades  # the two bends


def test_fewer_distinct_points_give_fewer_grades() -> None:
    assert select_grades([(1.0, 900.0), (1.5, 800.0), (2.0, 700.0)]) == [0, 1, 2]
    assert select_grades([(1.0, 900.0), (1.0, 900.0)]) == [0]  # one implementation only
    assert select_grades([(1.0, 900.0), (1.5, 950.0)]) == [0]  # the slow one is dominated


def _point(label: str, delay: float, area: float, target: int | None = None,
           abc: float | None = None) -> SweepPoint:
    settings = {} if target is None else {"delay_ps": target}
    result = Result(cache_key=label, design="component:x", target="asic:lib:" + label,
                    measurements={"critical_path_ns": delay, "gate_equivalents": area},
                    metrics={} if abc is None else {"abc_delay_ps": abc})
    return SweepPoint(label, settings, result, cached=False)


def test_targets_split_the_widest_gap_and_stop_at_saturation() -> None:
    speed = _point("speed", 1.00, 860, abc=860)
    area = _point("area", 1.90, 770, abc=1700)
    assert next_target([speed, area], set()) == 1280
    mid = _point("d1280ps", 1.24, 781, target=1280)
    # The gap to the area end is wider in delay: split it.
    assert next_target([speed, area, mid], {1280}) == 1490
    # ABC gives the same netlist at 1490 ps: it cannot get any smaller, so only the fast half
    # is left.
    same = _point("d1490ps", 1.24, 781, target=1490)
    assert next_target([speed, area, mid, same], {1280, 1490}) == 1070
    # Nothing left to split once every neighbour pair has equal figures.
    flat = [_point("speed", 1.0, 800, abc=900), _point("area", 1.0, 800, abc=1000)]
    assert next_target(flat, set()) is None


# ---- a real sweep --------------------------------------------------------------------------------


def _liberty() -> Path | None:
    env = os.environ.get("CIPHERBENCH_LIBERTY")
    if env and Path(env).is_file():
        return Path(env)
    return SHARED_NANGATE if SHARED_NANGATE.is_file() else None


@pytest.fixture(scope="module")
def sweep_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    liberty = _liberty()
    if liberty is None:
        pytest.skip(f"no Liberty: set CIPHERBENCH_LIBERTY or provide {SHARED_NANGATE}")
    from cipherbench.flows import get_flow

    reason = get_flow("asic").available()
    if reason is not None:
        pytest.skip(f"asic flow unavailable: {reason}")
    root = tmp_path_factory.mktemp("characterize")
    with pytest.MonkeyPatch.context() as mp:
        # Decompressed libraries and work folders go to a private cache, not the user's.
        mp.setenv("CIPHERBENCH_CACHE", str(root / "cache"))
        yield {"liberty": liberty, "db": root / "results.sqlite", "out": root / "out"}


def _run(env: dict[str, Path], name: str) -> Characterization:
    with Store(env["db"]) as store:
        return characterize(name, store=store, out_dir=env["out"], liberty=env["liberty"],
                            points=POINTS)


@pytest.fixture(scope="module")
def adders(sweep_env: dict[str, Path]) -> dict[str, Characterization]:
    return {name: _run(sweep_env, name) for name in ("adder32-ripple", "adder32-prefix")}


def _by_label(c: Characterization, label: str) -> SweepPoint:
    return next(p for p in c.points if p.label == label)


def test_prefix_adder_is_faster_at_the_speed_end(adders: dict[str, Characterization]) -> None:
    ripple = _by_label(adders["adder32-ripple"], "speed")
    prefix = _by_label(adders["adder32-prefix"], "speed")
    assert prefix.delay_ns < ripple.delay_ns, (prefix.delay_ns, ripple.delay_ns)


def test_kept_structure_makes_the_prefix_adder_much_faster(sweep_env: dict[str, Path]) -> None:
    """structure=keep (no dc2 before mapping): the Kogge-Stone network survives synthesis, so
    its speed end is well under the ripple adder's (NanGate45: 0.46 vs 1.09 ns; with the
    default restructuring both are near 1 ns)."""
    # Its own database: the sweep tests count the default-structure points in theirs.
    with Store(sweep_env["db"].with_name("keep.sqlite")) as store:
        runs = {name: characterize(name, store=store, out_dir=sweep_env["out"],
                                   liberty=sweep_env["liberty"], points=2, structure="keep")
                for name in ("adder32-ripple", "adder32-prefix")}
    ripple, prefix = (_by_label(runs[n], "speed") for n in ("adder32-ripple", "adder32-prefix"))
    assert ripple.result.target.endswith(":speed:keep")
    assert runs["adder32-prefix"].outputs["json"].parent.name == "adder32-prefix-keep"
    assert prefix.delay_ns < 0.7 * ripple.delay_ns, (prefix.delay_ns, ripple.delay_ns)


def test_kept_structure_skips_the_restructuring_commands() -> None:
    from cipherbench.flows.asic import abc_script

    for goal in ("area", "speed"):
        assert "dc2" in abc_script(goal, None)
        kept = abc_script(goal, None, "keep")
        assert not any(cmd in kept for cmd in ("dc2", "fraig", "scorr", "dretime"))


def test_unknown_structure_is_one_line(sweep_env: dict[str, Path]) -> None:
    from cipherbench.errors import CipherbenchError

    with Store(sweep_env["db"].with_name("keep.sqlite")) as store, \
            pytest.raises(CipherbenchError, match="structure"):
        characterize("adder32-ripple", store=store, out_dir=sweep_env["out"],
                     liberty=sweep_env["liberty"], points=2, structure="flatten")


@pytest.mark.parametrize("name", ["adder32-ripple", "adder32-prefix"])
def test_curve_trades_area_for_delay(adders: dict[str, Characterization], name: str) -> None:
    c = adders[name]
    assert len(c.points) == POINTS and all(p.ok for p in c.points)
    assert sum(1 for p in c.points if p.settings.get("delay_ps")) == POINTS - 2
    speed, area = _by_label(c, "speed"), _by_label(c, "area")
    assert speed.delay_ns < area.delay_ns and speed.area_ge > area.area_ge
    # Along the Pareto curve, every step to a shorter delay costs area.
    pairs = [(p.delay_ns, p.area_ge) for p in c.points]
    front = [pairs[i] for i in pareto_indices(pairs)]
    assert len(front) >= 2
    assert all(a1 > a2 and d1 < d2 for (d1, a1), (d2, a2) in zip(front, front[1:]))


@pytest.mark.parametrize("name", ["adder32-ripple", "adder32-prefix"])
def test_grades_and_outputs(adders: dict[str, Characterization], name: str) -> None:
    c = adders[name]
    # 3 points: at most 3 grades (five need at least five distinct optimal points).
    pairs = [(p.delay_ns, p.area_ge) for p in c.points]
    assert 2 <= len(c.grades) == len(pareto_indices(pairs)) <= POINTS
    assert c.grades[0].delay_ns == min(d for d, _ in pairs)
    assert c.grades[-1].area_ge == min(a for _, a in pairs)
    png, svg = c.outputs["png"], c.outputs["svg"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "<svg" in svg.read_text()
    data = json.loads(c.outputs["json"].read_text())
    assert data["component"] == name and len(data["grades"]) == len(c.grades)
    assert (c.outputs["rtl"] / "manifest.json").is_file()


def test_points_are_stored_and_a_rerun_is_cached(sweep_env: dict[str, Path],
                                                 adders: dict[str, Characterization]) -> None:
    with Store(sweep_env["db"]) as store:
        rows = store.results(design="component:adder32-ripple")
    assert len(rows) == POINTS and {r.status for r in rows} == {"ok"}
    assert {r.target.rsplit(":", 1)[1] for r in rows} >= {"area", "speed"}
    assert all(r.measurements["flipflops"] == 96 for r in rows)  # 64 in + 32 out registers

    again = _run(sweep_env, "adder32-ripple")
    assert all(p.cached for p in again.points)
    first = adders["adder32-ripple"]
    assert sorted(p.result.cache_key for p in again.points) == sorted(
        p.result.cache_key for p in first.points)
    with Store(sweep_env["db"]) as store:
        assert len(store.results(design="component:adder32-ripple")) == POINTS


# ---- the command line ---------------------------------------------------------------------------


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", "characterize", *args],
                          capture_output=True, text=True, timeout=600, env=env)


def test_cli_list_and_unknown_component(tmp_path: Path) -> None:
    listing = _cli("--list")
    assert listing.returncode == 0
    for name in ("aes-sbox-table", "adder32-prefix", "mul32", "rc6-f", "twofish-mds",
                 "aes-sbox-bram"):
        assert name in listing.stdout
    bad = _cli("adder33", "--db", str(tmp_path / "db.sqlite"))
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown component 'adder33'")
    assert "adder32-ripple" in lines[0]
    assert not (tmp_path / "db.sqlite").exists()


def test_cli_prints_the_table_from_the_store(sweep_env: dict[str, Path],
                                             adders: dict[str, Characterization]) -> None:
    env = {**os.environ, "CIPHERBENCH_CACHE": os.environ["CIPHERBENCH_CACHE"]}
    proc = _cli("adder32-prefix", "--liberty", str(sweep_env["liberty"]), "--points",
                str(POINTS), "--db", str(sweep_env["db"]), "-o", str(sweep_env["out"]), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "synthesizing" not in proc.stderr  # every point came from the store
    assert "G1" in proc.stdout and "speed" in proc.stdout and "cached" in proc.stdout
    assert "png: " in proc.stdout

"""The asic-layout target: qrouter's RC trees as SPEF, the routed DEF's figures, the settings, and
one real place-and-route run (qflow: Yosys, graywolf, qrouter; then OpenSTA and the routed
netlist simulated on the RTL's vectors) through `cipherbench run` and `report`: the toy cipher's
core in the default tier (a few seconds of routing), the DES core in the slow one."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.ciphers.registry import CIPHERS_ENV_VAR
from cipherbench.errors import CipherbenchError, ToolFailed, ToolMissing
from cipherbench.flows import get_flow
from cipherbench.flows.layout import effective_settings, routed_length, tech_files
from cipherbench.flows.spef import read_netlist, read_rc, write_spef

# Two nets as qrouter writes them: n1 driven by u1/Y, a stretch to a branch point, from there one
# stretch to u2/A and one to the output port; n2 from the input port to u1/A, ending at a pin
# that the wire continues past (to u2/B).
RC_TEXT = """\
n1 1 u1/Y 2 ( 10 0.002 ( 4 0.001 u2/A ) , ( 6 0.003 PIN/y[1] ) ) 
n2 1 PIN/a 2 ( 0 0.0005 u1/A , ( 2.5 0.0015 u2/B ) ) 
"""
NETLIST_TEXT = """\
module top (a, y);
input a;
output [1:0] y;
wire vdd = 1'b1;
NAND2X1 u1 ( .A(a), .B(vdd), .Y(_5_) );
AND2X2 u2 ( .A(_5_), .B(a), .Y(y[0]) );
FILL FILL_1 ( );
endmodule
"""
OUTPUTS = {"NAND2X1": frozenset({"Y"}), "AND2X2": frozenset({"Y"})}


def test_rc_trees_parse(tmp_path: Path) -> None:
    (tmp_path / "t.rc").write_text(RC_TEXT)
    n1, n2 = read_rc(tmp_path / "t.rc")
    assert (n1.name, n1.driver) == ("n1", "u1/Y")
    (trunk,) = n1.tree
    assert (trunk.res_ohm, trunk.cap_pf, trunk.pin) == (10.0, 0.002, None)
    assert [(c.res_ohm, c.pin) for c in trunk.children] == [(4.0, "u2/A"), (6.0, "PIN/y[1]")]
    assert n1.total_cap_pf() == pytest.approx(0.006)
    (first,) = n2.tree
    assert first.pin == "u1/A" and [c.pin for c in first.children] == ["u2/B"]


def test_malformed_rc_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "t.rc").write_text("n1 1 u1/Y 1 ( 10 0.002 u2/A \n")
    with pytest.raises(ToolFailed, match=r"t.rc:1: malformed RC tree of net n1"):
        read_rc(tmp_path / "t.rc")


def test_spef_of_the_routed_trees(tmp_path: Path) -> None:
    (tmp_path / "t.rc").write_text(RC_TEXT)
    (tmp_path / "n.v").write_text(NETLIST_TEXT)
    netlist = read_netlist(tmp_path / "n.v")
    assert netlist.ports == {"a": "I", "y[0]": "O", "y[1]": "O"}
    assert netlist.pin_net[("u2", "A")] == "_5_" and netlist.cell_of["u1"] == "NAND2X1"
    totals = write_spef(read_rc(tmp_path / "t.rc"), netlist, OUTPUTS, "top", tmp_path / "t.spef")
    assert totals == {"nets": 2, "wire_cap_pf": pytest.approx(0.008)}
    spef = (tmp_path / "t.spef").read_text()
    # Nets carry the netlist's names (found through their drivers), not qrouter's.
    assert "*D_NET _5_ 0.006\n*CONN\n*P y[1] O\n*I u1:Y O\n*I u2:A I\n" in spef
    assert "*D_NET a 0.002\n*CONN\n*P a I\n*I u1:A I\n*I u2:B I\n" in spef
    # Each stretch: half its capacitance at either end; the branch point is an internal node.
    net = spef.split("*D_NET _5_")[1].split("*END")[0]
    caps = {line.split()[1]: float(line.split()[2])
            for line in net.split("*CAP\n")[1].split("*RES")[0].strip().splitlines()}
    assert caps == pytest.approx({"_5_:1": 0.003, "u1:Y": 0.001, "u2:A": 0.0005,
                                  "y[1]": 0.0015})
    assert "1 u1:Y _5_:1 10\n2 _5_:1 u2:A 4\n3 _5_:1 y[1] 6\n" in net
    # A zero-ohm stretch gets a milliohm, so OpenSTA never merges nodes by dividing by zero.
    assert "1 a u1:A 0.001\n" in spef


def test_spef_refuses_a_driver_missing_from_the_netlist(tmp_path: Path) -> None:
    (tmp_path / "t.rc").write_text("n9 1 u7/Y 1 ( 1 0.001 u2/A ) \n")
    (tmp_path / "n.v").write_text(NETLIST_TEXT)
    with pytest.raises(ToolFailed, match="driver u7/Y is not in the netlist"):
        write_spef(read_rc(tmp_path / "t.rc"), read_netlist(tmp_path / "n.v"), OUTPUTS, "top",
                   tmp_path / "t.spef")


def test_routed_length_of_a_def() -> None:
    text = """UNITS DISTANCE MICRONS 100 ;
NETS 2 ;
- n1 ( u1 Y ) ( u2 A )
+ ROUTED metal1 ( 100 200 ) ( 300 * ) M2_M1
  NEW metal2 ( 300 200 ) ( * 500 ) ;
- n2 ( u2 Y ) ( PIN y )
+ ROUTED metal1 ( 0 0 ) M2_M1 ;
END NETS
"""
    assert routed_length(text) == 200 + 300


@pytest.mark.parametrize(("settings", "fragment"), [
    ({"tech": "tsmc7"}, "tech='tsmc7' must be one of osu018, osu035, osu050"),
    ({"density": 1.5}, "density=1.5 must be a number between 0.05 and 1"),
    ({"density": "half"}, "density='half'"),
    ({"clock_period_ns": 0}, "clock_period_ns must be positive"),
    ({"synthesis": "fast"}, "synthesis='fast' must be one of speed, area, qflow"),
])
def test_bad_settings_name_the_fix(settings: dict[str, object], fragment: str) -> None:
    with pytest.raises(CipherbenchError, match=re.escape(fragment)):
        effective_settings(settings)


def test_unknown_setting_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="unknown layout setting"):
        get_flow("layout").run(tmp_path, tmp_path / "work", {"densty": 0.5})


def test_missing_qflow_names_the_packages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    reason = get_flow("layout").available() or ""
    assert "qflow not found: apt-get install qflow qflow-tech-osu018" in reason


def test_missing_kit_names_its_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cipherbench.flows import libraries

    monkeypatch.setattr(libraries, "KIT_ROOT", tmp_path)
    with pytest.raises(ToolMissing, match="apt-get install qflow-tech-osu035"):
        tech_files("osu035")


def test_study_keys(tmp_path: Path) -> None:
    from cipherbench.study import RunSummary, load_study, plan_jobs

    path = tmp_path / "s.toml"
    path.write_text('designs = ["des-64/iterative"]\ntargets = ["asic-layout"]\n'
                    'layout_density = 0.4\nlayout_tech = "osu050"\nlayout_synthesis = "qflow"\n')
    study = load_study(path)
    if get_flow("layout").available() is None:
        (job,) = plan_jobs(study, RunSummary())
        assert job.target.settings == {"density": 0.4, "tech": "osu050", "synthesis": "qflow"}
    path.write_text('designs = ["des-64/iterative"]\nlayout_density = 3\n')
    with pytest.raises(CipherbenchError, match="'layout_density'"):
        load_study(path)
    # Not part of a study that names no targets: place and route takes long.
    path.write_text('designs = ["des-64/iterative"]\n')
    assert "asic-layout" not in load_study(path).targets


TOY = Path(__file__).parent / "toy_cipher" / "toy"


def _layout_row(folder: Path, design: str, env: dict[str, str]) -> dict[str, object]:
    """``cipherbench run`` of ``design`` on asic-layout in ``folder``: the stored row."""
    reason = get_flow("layout").available()
    if reason:
        pytest.skip(f"asic-layout target unavailable: {reason}")
    proc = subprocess.run(
        [sys.executable, "-m", "cipherbench.cli", "run", "--design", design,
         "--target", "asic-layout"], check=False, capture_output=True, text=True, cwd=folder,
        timeout=1800, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = sqlite3.connect(folder / "results" / "cipherbench.sqlite").execute(
        "select target, status, measurements, provenance from results").fetchone()
    assert row[0] == "layout:osu018:d0.5:speed" and row[1] == "ok"
    return {"measurements": json.loads(row[2]), "provenance": json.loads(row[3])}


def _check_routing(m: dict[str, float]) -> None:
    """What holds for any routed core: the synthesized cells placed as they are, about half
    the die, the routed wires slowing the critical path by a few to a few tens of percent."""
    assert m["gate_equivalents"] == m["synthesis_gate_equivalents"]
    assert 40 <= m["utilization_pct"] <= 55
    assert m["die_area_um2"] > m["area_um2"]
    assert m["critical_path_ns"] > m["critical_path_pre_route_ns"] > 1.0
    assert 1 < m["route_delay_pct"] < 50
    assert m["fmax_mhz"] == pytest.approx(1000 / m["critical_path_ns"], rel=1e-3)


@pytest.fixture(scope="module")
def toy_layout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    folder = tmp_path_factory.mktemp("layout")
    shutil.copytree(TOY, folder / "ciphers" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("CIPHERBENCH_LIBERTY", "PDK_ROOT")}
    env[CIPHERS_ENV_VAR] = str(folder / "ciphers")
    return folder, _layout_row(folder, "toy/iterative", env)


def test_toy_placed_and_routed(toy_layout: tuple[Path, dict[str, object]]) -> None:
    _, row = toy_layout
    m = row["measurements"]
    assert isinstance(m, dict)
    # The toy's loop core: 16-bit state and key, two round keys' worth of control: under a
    # kGE of OSU 0.18 um cells (NAND2X1 = 24 um2), placed at half density.
    assert 600 < m["gate_equivalents"] < 1200 and 50 <= m["flipflops"] <= 100
    assert m["routed_nets"] > 400 and m["wirelength_um"] > 10_000 and m["wire_cap_pf"] > 0.5
    _check_routing(m)
    # The routed netlist computes what the RTL does, on the RTL's vectors: the toy's 16 known
    # answers and random blocks against its model (it has no oracle).
    check = row["provenance"]["netlist_check"]  # type: ignore[index]
    assert check["failed"] == 0 and check["passed"] > 200 and check["known_answer_per_set"] == 16
    assert "qrouter" in row["provenance"]["tools"]["qflow"]  # type: ignore[index]


@pytest.mark.slow
def test_des_placed_and_routed(tmp_path: Path) -> None:
    m = _layout_row(tmp_path, "des-64/iterative", dict(os.environ))["measurements"]
    assert isinstance(m, dict)
    # The DES loop core: about 3.7 kGE of OSU 0.18 um cells, 64 + 56 + control flip-flops.
    assert 3000 < m["gate_equivalents"] < 6000 and 200 <= m["flipflops"] <= 300
    assert m["routed_nets"] > 2000 and m["wirelength_um"] > 50_000 and m["wire_cap_pf"] > 1
    _check_routing(m)
    # Papaefstathiou et al.'s synthesis vs placed-and-routed table has the routed DES.
    line = next(ln for ln in _report(tmp_path, dict(os.environ)).splitlines()
                if "@ layout:osu018:d0.5:speed | area (K um2): cells / die" in ln)
    assert f"| {m['critical_path_pre_route_ns']:.2f} | {m['critical_path_ns']:.2f} |" in line


def _report(folder: Path, env: dict[str, str]) -> str:
    proc = subprocess.run([sys.executable, "-m", "cipherbench.cli", "report", "-o", "rep"],
                          check=False, capture_output=True, text=True, cwd=folder,
                          timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    return (folder / "rep" / "report.md").read_text()


def test_layout_in_the_report(toy_layout: tuple[Path, dict[str, object]]) -> None:
    folder, row = toy_layout
    md = _report(folder, {**os.environ, CIPHERS_ENV_VAR: str(folder / "ciphers")})
    m = row["measurements"]
    assert isinstance(m, dict)
    # The layout's own table, and the headline's row with the routed clock.
    table = md[md.index("### ASIC layout: osu018"):]
    assert f"| toy-16/iterative | - | 16 | 2 | 2 | 2 | 0 / 2 | {m['fmax_mhz']:.2f} |" in table
    assert (f"| toy-16/iterative | pass | ASIC layout osu018 | 1 | {m['gate_equivalents']:,.0f} GE"
            f" ({m['area_um2']:,.0f} um2) | {m['fmax_mhz']:.0f} MHz") in md

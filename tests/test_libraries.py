"""The built-in cell libraries (osu018, osu035, osu050 from Debian's qflow-tech-* packages): real
synthesis and STA on each, gate equivalents from each kit's own NAND2, which libraries the asic
target measures on, and the one-line error when a kit's package is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError, ToolMissing
from cipherbench.flows import get_flow
from cipherbench.flows import liberty as liberty_mod
from cipherbench.flows.liberty_cache import ENV_CACHE
from cipherbench.flows import libraries
from cipherbench.flows.libraries import KITS, kit_files, node_text, node_um
from cipherbench.flows.liberty import load_liberty
from cipherbench.targets import asic_libraries, expand_target

# A small registered core: an 8-bit register, a 16-bit adder and an xor network between two
# registers; enough logic that the two synthesis ends differ.
SMALL_CORE = """module small_core(input clk, input [15:0] a, input [15:0] b, output reg [15:0] y);
  reg [15:0] a_q, b_q;
  wire [15:0] s = a_q + b_q;
  always @(posedge clk) begin
    a_q <= a;
    b_q <= b;
    y <= s ^ {s[7:0], s[15:8]} ^ (a_q & ~b_q);
  end
endmodule
"""
# Each kit's NAND2X1 area in um2, read from its Liberty (the gate equivalent's unit).
NAND2_AREA = {"osu018": 24.0, "osu035": 96.0, "osu050": 216.0}
LIBRARY_NAME = {"osu018": "osu018_stdcells", "osu035": "osu035_stdcells", "osu050": "osu05_stdcells"}


def _installed(kit: str) -> None:
    try:
        kit_files(kit)
    except ToolMissing as exc:
        pytest.skip(str(exc))


@pytest.fixture(autouse=True)
def private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def small_core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import json

    folder = tmp_path_factory.mktemp("small_core")
    (folder / "small_core.v").write_text(SMALL_CORE)
    (folder / "manifest.json").write_text(json.dumps(
        {"top": "small_core", "clock": "clk", "verilog": ["small_core.v"]}))
    return folder


@pytest.mark.parametrize("kit", sorted(KITS))
def test_kit_liberty_facts(kit: str) -> None:
    _installed(kit)
    library = load_liberty(kit)
    assert library.name == LIBRARY_NAME[kit]
    assert library.nand2.name == "NAND2X1"
    assert library.nand2.area == NAND2_AREA[kit]
    assert library.buffer is not None and library.buffer.name == "BUFX2"
    # The I/O pads are no cells for logic: a PADOUT is a 27,000 um2 buffer.
    if kit != "osu018":
        assert {"PADINC", "PADOUT"} <= set(library.special_cells)
    assert node_um(library.name) == KITS[kit].node_um


# The footprint of each kit's LATCH in its LEF (its Liberty says 0).
LATCH_AREA = {"osu018": 56.0, "osu035": 224.0, "osu050": 504.0}


@pytest.mark.parametrize("kit", sorted(KITS))
def test_kit_latch_area_comes_from_the_lef_where_the_liberty_says_zero(kit: str) -> None:
    """Debian's OSU Liberty files give LATCH an area of 0, so a latch core's storage would
    count as nothing; the flows read a copy with the LEF's footprint, everything else as it was."""
    from cipherbench.flows.libraries import kit_files
    from cipherbench.flows.liberty import parse_liberty

    _installed(kit)
    raw_path = kit_files(kit)[0]
    raw = parse_liberty(raw_path.read_text(errors="replace"), source=raw_path, path=raw_path,
                        sha256="raw")
    assert raw.cells["LATCH"].area == 0.0  # the defect this works around
    library = load_liberty(kit)
    assert library.cells["LATCH"].area == LATCH_AREA[kit]
    assert library.source != raw_path
    unchanged = [n for n, c in raw.cells.items() if c.area and library.cells[n].area != c.area]
    assert unchanged == []


@pytest.mark.parametrize("kit", sorted(KITS))
def test_kit_synthesis_and_sta(kit: str, small_core: Path, tmp_path: Path) -> None:
    """Both synthesis ends on the kit, timed by OpenSTA, counted in the kit's own NAND2."""
    _installed(kit)
    flow = get_flow("asic")
    area = flow.run(small_core, tmp_path / "area", {"liberty": kit, "goal": "area"})
    speed = flow.run(small_core, tmp_path / "speed", {"liberty": kit, "goal": "speed"})
    assert area.target == f"asic:{LIBRARY_NAME[kit]}:area"
    assert speed.target == f"asic:{LIBRARY_NAME[kit]}:speed"
    for result in (area, speed):
        m = result.measurements
        assert result.settings["nand2_cell"] == "NAND2X1"
        assert m["gate_equivalents"] == pytest.approx(m["area_um2"] / NAND2_AREA[kit], abs=0.01)
        assert m["flipflops"] == 48
        assert m["fmax_mhz"] == pytest.approx(1000 / m["critical_path_ns"], rel=1e-3)
    # 48 flip-flops alone are about 48 x 4-5 NAND2 on these kits; the logic adds a few hundred.
    assert 250 < area.measurements["gate_equivalents"] < 900, area.measurements
    assert speed.measurements["critical_path_ns"] < area.measurements["critical_path_ns"]
    # A 16-bit add and an xor layer: about 1-3 ns at 0.18 um, slower at the older nodes.
    low, high = {"osu018": (0.8, 4.0), "osu035": (1.5, 8.0), "osu050": (2.5, 14.0)}[kit]
    assert low < speed.measurements["critical_path_ns"] < high, speed.measurements


def test_pads_are_never_mapped(small_core: Path, tmp_path: Path) -> None:
    _installed("osu050")
    result = get_flow("asic").run(small_core, tmp_path, {"liberty": "osu050", "goal": "speed"})
    netlist = Path(result.artifacts["netlist"]).read_text()
    assert "PADOUT" not in netlist and "PADINC" not in netlist
    assert "PADINC" in result.settings["dont_use_auto"]


def test_missing_kit_is_one_line_naming_the_package(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setattr(libraries, "KIT_ROOT", tmp_path)
    with pytest.raises(ToolMissing, match=r"apt-get install qflow-tech-osu050$"):
        load_liberty("osu050")
    # The default with nothing configured is osu018, and its absence names its package.
    monkeypatch.delenv(liberty_mod.ENV_LIBERTY, raising=False)
    monkeypatch.delenv("PDK_ROOT", raising=False)
    with pytest.raises(ToolMissing, match="apt-get install qflow-tech-osu018"):
        load_liberty(None)


def test_missing_kit_from_the_command_line(tmp_path: Path) -> None:
    """The CLI refuses the run in one line, exits non-zero and leaves no database."""
    db = tmp_path / "r.sqlite"
    code = (
        "import sys; from cipherbench.flows import libraries; from pathlib import Path;"
        f"libraries.KIT_ROOT = Path({str(tmp_path)!r});"
        "from cipherbench.cli import main;"
        f"sys.argv = ['cipherbench', 'run', '--design', 'aes-128/iterative', '--target', 'asic',"
        f" '--liberty', 'osu050', '--db', {str(db)!r}]; main()"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "apt-get install qflow-tech-" in lines[0], proc.stderr
    assert not db.exists()


def test_unknown_library_name(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="not found: give an existing .lib.*osu018"):
        load_liberty("osu013")


def test_asic_libraries_default_and_configured(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.delenv(liberty_mod.ENV_LIBERTY, raising=False)
    monkeypatch.delenv("PDK_ROOT", raising=False)
    assert asic_libraries() == ["osu018"]
    assert asic_libraries(("osu050",)) == ["osu050"]
    other = tmp_path / "other.lib"
    other.write_text("library (x) { }")
    # A configured Liberty is measured as well, not instead.
    assert asic_libraries((), other) == ["osu018", str(other)]
    monkeypatch.setenv(liberty_mod.ENV_LIBERTY, str(other))
    assert asic_libraries(("osu050",)) == ["osu050", str(other)]
    # A kit named twice, once by its path, runs once.
    try:
        path = str(kit_files("osu018")[0])
    except ToolMissing as exc:
        pytest.skip(str(exc))
    assert asic_libraries(("osu018",), path) == ["osu018"]


def test_expand_asic_one_target_per_library_and_goal(monkeypatch: pytest.MonkeyPatch) -> None:
    for kit in ("osu018", "osu050"):
        _installed(kit)
    targets = expand_target("asic", libraries=["osu018", "osu050"])
    # Each kit's Liberty as the flows read it: the cached copy with the latch's LEF area.
    assert [(Path(t.settings["liberty"]).name.split("-")[0], t.settings["goal"])
            for t in targets] == [
        ("osu018_stdcells", "area"), ("osu018_stdcells", "speed"),
        ("osu05_stdcells", "area"), ("osu05_stdcells", "speed")]


def test_study_liberty_key(tmp_path: Path) -> None:
    from cipherbench.study import load_study

    path = tmp_path / "s.toml"
    path.write_text('designs = ["des/iterative"]\nliberty = ["osu050", "lib/mine.lib"]\n')
    assert load_study(path).asic.libraries == ("osu050", str(tmp_path / "lib/mine.lib"))
    path.write_text('designs = ["des/iterative"]\nliberty = "osu018"\n')
    assert load_study(path).asic.libraries == ("osu018",)
    path.write_text('designs = ["des/iterative"]\nliberty = 18\n')
    with pytest.raises(CipherbenchError, match="'liberty' must be a library or a list"):
        load_study(path)


def test_study_skips_a_missing_kit_and_runs_the_others(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A study on two kits where one is not installed: that one is skipped with its package
    named, the other is planned."""
    from cipherbench.study import RunSummary, load_study, plan_jobs

    _installed("osu018")
    monkeypatch.delenv(liberty_mod.ENV_LIBERTY, raising=False)
    monkeypatch.delenv("PDK_ROOT", raising=False)
    real_root = libraries.KIT_ROOT
    fake = tmp_path / "tech"
    (fake / "osu018").mkdir(parents=True)
    for item in (real_root / "osu018").iterdir():
        (fake / "osu018" / item.name).symlink_to(item)
    monkeypatch.setattr(libraries, "KIT_ROOT", fake)
    path = tmp_path / "s.toml"
    path.write_text('designs = ["des/iterative"]\ntargets = ["asic"]\n'
                    'liberty = ["osu018", "osu050"]\n')
    summary = RunSummary()
    jobs = plan_jobs(load_study(path), summary)
    assert {Path(j.target.settings["liberty"]).name.split("-")[0] for j in jobs} == {"osu018_stdcells"}
    assert len(jobs) == 2
    assert len(summary.skipped_targets) == 1
    assert "asic on osu050" in summary.skipped_targets[0]
    assert "apt-get install qflow-tech-osu050" in summary.skipped_targets[0]


def test_node_names() -> None:
    assert node_um("NangateOpenCellLibrary") == 0.045
    assert node_um("osu05_stdcells") == 0.5
    assert node_um("some_other_lib") is None
    assert node_text(0.045) == "45 nm" and node_text(0.18) == "0.18 um"


def test_power_uses_each_kits_supply(tmp_path: Path) -> None:
    """Switching power is 1/2 C V^2 f a at the Liberty's own supply (5 V for osu050): a register
    drives an inverter that drives eight, every net toggling half the clocks, so the design's
    switching power is 1/2 x 9 C_in(INVX1) x V^2 x 0.5 / 10 ns on each kit."""
    from cipherbench.flows.asic import report_power
    from cipherbench.tools import sta_path

    sinks = "".join(f"  INVX1 s{i}(.A(n1), .Y(y[{i}]));\n" for i in range(8))
    netlist = tmp_path / "chain.v"
    netlist.write_text("module chain(input clk, input a, output [7:0] y);\n  wire q, n1;\n"
                       "  DFFPOSX1 r(.D(a), .CLK(clk), .Q(q));\n"
                       f"  INVX1 u1(.A(q), .Y(n1));\n{sinks}endmodule\n")
    activity = tmp_path / "activity.tcl"
    # As power.py annotates a simulation's activity: the input port and every pin of q and n1.
    pins = ["r/Q", "u1/A", "u1/Y", *(f"s{i}/A" for i in range(8))]
    activity.write_text("set_power_activity -input_ports [get_ports {a}] -activity 0.5 -duty 0.5\n"
                        + "".join(f"sta::set_power_pin_activity [get_pins {{{pin}}}] 0.5 0.5\n"
                                  for pin in pins))
    for kit in ("osu018", "osu050"):
        _installed(kit)
        library = load_liberty(kit)
        work = tmp_path / kit
        work.mkdir()
        power = report_power(library, netlist, "chain", "clk", [10.0], activity, work,
                             sta_path())
        c_in = {p.name: p for p in library.cells["INVX1"].pins}["A"].capacitance
        assert c_in is not None
        farads = 9 * c_in * library.cap_unit_ff * 1e-15
        expected_mw = 0.5 * farads * KITS[kit].volts ** 2 * (0.5 / 10e-9) * 1e3
        assert power[("activity", 10.0)]["switching"] == pytest.approx(expected_mw, rel=0.01)


def test_docs_table_of_kits_matches_the_code() -> None:
    """docs/flows.md's table of built-in libraries against KITS and each kit's Liberty."""
    import re

    text = (Path(__file__).parent.parent / "docs" / "flows.md").read_text()
    rows = {m.group(1): m.groups() for m in re.finditer(
        r"^\| `(osu\d+)` \| `([\w-]+)` \| ([\d.]+) um \| ([\d.]+) V \| `(\w+)` \| `(\w+)`, ([\d.]+) um2 \|$",
        text, re.MULTILINE)}
    assert set(rows) == set(KITS)
    for name, kit in KITS.items():
        _, package, node, volts, library_name, nand2, area = rows[name]
        assert (package, float(node), float(volts)) == (kit.package, kit.node_um, kit.volts)
        assert (library_name, float(area)) == (LIBRARY_NAME[name], NAND2_AREA[name])
        try:
            library = load_liberty(name)
        except ToolMissing:
            continue
        assert (library.name, library.nand2.name, library.nand2.area) == (library_name, nand2,
                                                                          float(area))


@pytest.mark.parametrize("sequential", ["flipflop", "latch"])
def test_kit_netlists_are_proven_equal_and_a_wrong_one_is_not(
        sequential: str, small_core: Path, tmp_path: Path) -> None:
    """The netlist proof on an OSU kit (its DFFPOSX1, or LATCH pairs): the mapped netlist equals
    the design's gate prefix; one wrong pin in it is found."""
    import re

    from cipherbench.verify.netlist_proof import prove_equal

    _installed("osu018")
    result = get_flow("asic").run(small_core, tmp_path / "asic", {
        "liberty": "osu018", "goal": "speed", "sequential": sequential, "power": False})
    artifacts = result.artifacts
    cells = {"flipflop": "DFFPOSX1", "latch": "LATCH"}[sequential]
    assert cells in Path(artifacts["mapped"]).read_text()

    def prove(netlist: Path, work: str) -> object:
        return prove_equal(Path(artifacts["equivalence_reference"]), netlist, "small_core",
                           tmp_path / work, cells=Path(artifacts["equivalence_cells"]),
                           register_map=Path(artifacts["equivalence_register_map"]))

    proof = prove(Path(artifacts["equivalence_netlist"]), "proof")
    assert proof.equal is True, (proof.reason, proof.log)
    text = Path(artifacts["mapped"]).read_text()
    # Swap the first XOR2X1's two inputs' nets for one of them twice: a different function.
    match = re.search(r"XOR2X1 \S+ \(\s*\.A\(([^)]+)\),\s*\.B\(([^)]+)\)", text)
    assert match is not None
    wrong = text[:match.start(2)] + match.group(1) + text[match.end(2):]
    (tmp_path / "wrong.v").write_text(wrong)
    proof = prove(tmp_path / "wrong.v", "wrong")
    assert proof.equal is False, (proof.reason, proof.log)


def test_list_shows_asic_available_with_its_libraries(tmp_path: Path) -> None:
    """`cipherbench list` on a machine with no configuration: asic is available on osu018."""
    _installed("osu018")
    env = {k: v for k, v in os.environ.items()
           if k not in ("CIPHERBENCH_LIBERTY", "PDK_ROOT")}
    env["CIPHERBENCH_CACHE"] = str(tmp_path / "cache")
    proc = subprocess.run([sys.executable, "-m", "cipherbench.cli", "list"], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    line = next(ln.strip() for ln in proc.stdout.splitlines() if ln.strip().startswith("asic:"))
    assert line.startswith("asic: available (measures on osu018;"), line

"""The de-synchronization flow (issue 30): controllers in timed simulation, a de-synchronized core
verified and measured through the common interface, a too-short matched delay caught, the power
model checked by hand, the study keys.

Timed simulation is Icarus Verilog with OpenSTA's SDF (flows/desync/timed_sim.py); the toy cipher
of tests/toy_cipher keeps the whole-core run to seconds, DES shows the failure on real logic.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.flows.liberty import load_liberty
from cipherbench.tools import find_command

pytestmark = pytest.mark.skipif(
    find_command("iverilog") is None or find_command("sta") is None,
    reason="timed simulation needs Icarus Verilog and OpenSTA: apt-get install iverilog opensta "
           "(scripts/setup.sh installs them)")

TOY = Path(__file__).parent / "toy_cipher" / "toy"

COUNTER = """module ctr (clk, rst, en, q);
  input clk, rst, en;
  output [3:0] q;
  reg [3:0] r;
  always @(posedge clk) if (rst) r <= 4'd0; else if (en) r <= r + 4'd1;
  assign q = r;
endmodule
"""


def _counter_folder(root: Path) -> Path:
    folder = root / "ctr"
    folder.mkdir()
    (folder / "ctr.v").write_text(COUNTER)
    (folder / "manifest.json").write_text(json.dumps(
        {"top": "ctr", "clock": "clk", "verilog": ["ctr.v"]}))
    return folder


def _desync_counter(root: Path, storage: str) -> tuple[Path, dict, object]:
    """The counter's folder, its de-synchronized netlist (``built``, with the synchronous
    mapped netlist it came from under "sync"), and the library."""
    from cipherbench.flows.asic import AsicFlow
    from cipherbench.flows.desync.flow import desynchronize, effective

    folder = _counter_folder(root)
    sync = AsicFlow().run(folder, root / "sync", {"liberty": "osu018", "power": False})
    library = load_liberty("osu018")
    built = desynchronize("ctr", "clk", Path(sync.artifacts["mapped"]), library,
                          effective({"storage": storage}), root, find_command("sta"))
    built["sync"] = Path(sync.artifacts["mapped"])
    return folder, built, library


def _run_tokens(folder: Path, built: dict, library: object, work: Path,
                rows: list[tuple[int, int]], environment: str = "reactive") -> tuple[list[str], list[str]]:
    """Drive the environment testbench with (rst, en) per cycle; the de-synchronized core's
    q per cycle, and the synchronous RTL's."""
    from cipherbench.flows.desync.replay import (TimedSession, compile_environment,
                                                 compile_reference, read_replay, run_reference)

    assembled = built["assembled"]
    assert list(assembled.data_inputs) == ["rst", "en"] and assembled.data_outputs == {"q": 4}
    work.mkdir(parents=True, exist_ok=True)
    vvp = compile_environment(library, built["netlist"], built["sdf"], assembled.top,
                              assembled.data_inputs, assembled.data_outputs, work)
    stim = work / "stim.hex"
    stim.write_text("".join(f"{(rst << 1) | en:x}\n" for rst, en in rows))
    out = work / "out.txt"
    session = TimedSession(vvp, work, work / "t.vcd")
    try:
        answer = session.run(stim, out, len(rows), -1, 0, (-1, -1), environment)
    finally:
        session.close()
    got = [row["q"] for row in read_replay(out, assembled.data_outputs, answer).outputs]
    reference = compile_reference(library, built["sync"], "ctr", "clk", assembled.data_inputs,
                                  assembled.data_outputs, work)
    expected = work / "expected.txt"
    ref_log = run_reference(reference, stim, expected, len(rows), work)
    want = [row["q"] for row in read_replay(expected, assembled.data_outputs, ref_log).outputs]
    return got, want


@pytest.mark.parametrize("storage,environment", [("latch", "reactive"), ("flipflop", "reactive"),
                                                 ("latch", "stream")])
def test_a_register_pair_ring_counts_under_its_controllers(storage: str, environment: str,
                                                            tmp_path: Path) -> None:
    """A counter's register feeds itself: de-synchronized, its master and slave banks are a
    ring of two, which the simple Muller controller deadlocks on (test_desync_blocks.py) and
    the decoupled controller runs. Two reset tokens, then 20 counting, 3 holding, 5 counting:
    every token must show the synchronous counter's value, whether the environment reads each
    cycle's outputs before offering the next inputs or streams them."""
    _folder, built, library = _desync_counter(tmp_path, storage)
    assert built["graph"].banks.keys() == {"m_g0_r", "s_g0_r"}
    rows = [(1, 0), (1, 1)] + [(0, 1)] * 20 + [(0, 0)] * 3 + [(0, 1)] * 5
    got, want = _run_tokens(_folder, built, library, tmp_path / "run", rows, environment)
    assert want[2:] == [format(v % 16, "04b") for v in [0, *range(1, 21), 20, 20, 20,
                                                        *range(21, 25)]][: len(want) - 2]
    assert got[2:] == want[2:]


def test_the_environment_testbench_reports_a_hang(tmp_path: Path) -> None:
    """An output request that never comes (here: the environment's own acknowledge tied
    wrong by editing the netlist) is a deadlock the testbench names, not a silent end."""
    from cipherbench.errors import ToolFailed
    from cipherbench.flows.desync.replay import TimedSession, compile_environment, read_replay

    folder, built, library = _desync_counter(tmp_path, "latch")
    netlist = Path(built["netlist"])
    text = netlist.read_text()
    # The output join never sees its request: the environment waits for ever.
    netlist.write_text(text.replace("assign out_req = ", "assign out_req = 1'b0 & "))
    assembled = built["assembled"]
    work = tmp_path / "hang"
    work.mkdir()
    vvp = compile_environment(library, netlist, built["sdf"], assembled.top,
                              assembled.data_inputs, assembled.data_outputs, work)
    (work / "stim.hex").write_text("2\n1\n1\n")
    out = work / "out.txt"
    session = TimedSession(vvp, work, work / "h.vcd")
    try:
        answer = session.run(work / "stim.hex", out, 3, -1, 0, (-1, -1))
        assert answer == "HANG at cycle 0"
        # The same process serves the next run after a hang: it resets the core.
        assert session.run(work / "stim.hex", work / "out2.txt", 3, -1, 0, (-1, -1)) == answer
    finally:
        session.close()
    with pytest.raises(ToolFailed, match="stopped answering at cycle 0"):
        read_replay(out, assembled.data_outputs, answer)


def test_the_testbenches_ship_with_the_package() -> None:
    """replay.py compiles Verilog files kept beside it (flows/desync/tb/): pyproject's
    package-data must take them, or an installed cipherbench has no testbench to compile."""
    import fnmatch
    import tomllib

    from cipherbench.flows.desync import replay

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    globs = project["tool"]["setuptools"]["package-data"]["cipherbench"]
    package = Path(replay.__file__).parents[2]
    for testbench in (replay.ENVIRONMENT_TB, replay.REFERENCE_TB):
        assert testbench.is_file()
        name = testbench.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(name, glob) for glob in globs), \
            f"{name} is not package data: add its suffix to pyproject.toml's package-data"


# ---- a whole core through the CLI --------------------------------------------------------------


@pytest.fixture(scope="module")
def toy_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    from cipherbench.ciphers.registry import CIPHERS_ENV_VAR

    root = tmp_path_factory.mktemp("desync_toy")
    shutil.copytree(TOY, root / "ciphers" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**_kit_only_env(), CIPHERS_ENV_VAR: str(root / "ciphers")}
    return root, env


def _kit_only_env() -> dict[str, str]:
    """The environment without a configured Liberty, so the target runs on osu018 alone (a
    configured one, NanGate45 in CI, would be measured as well)."""
    return {k: v for k, v in os.environ.items() if k not in ("CIPHERBENCH_LIBERTY", "PDK_ROOT")}


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], env=env,
                          capture_output=True, text=True, timeout=1200, check=False)


def _rows(env: dict[str, str], db: Path, out: Path) -> list[dict]:
    done = _cli(env, "export", "--db", str(db), "-o", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(out.read_text())["results"]


def test_a_desynchronized_core_is_verified_and_measured(toy_env: tuple[Path, dict[str, str]]) -> None:
    root, env = toy_env
    db = root / "toy.sqlite"
    done = _cli(env, "run", "--design", "toy/iterative", "--target", "asic-desync", "--db", str(db))
    assert done.returncode == 0, done.stderr[-2000:]
    [row] = _rows(env, db, root / "toy.json")
    assert row["status"] == "ok" and row["target"] == "desync:osu018_stdcells:latch:register"
    m = row["measurements"]
    check = row["provenance"]["netlist_check"]
    assert check["method"].startswith("timed gate-level simulation") and check["failed"] == 0
    assert check["passed"] == m["timed_verification_passed"] > 100
    # Area by part adds up; every part is there.
    parts = ("logic", "storage", "control", "delay")
    assert all(m[f"area_{p}_um2"] > 0 for p in parts)
    assert m["area_um2"] == pytest.approx(sum(m[f"area_{p}_um2"] for p in parts), abs=0.01)
    # Two rounds, one per token: the toy's latency in tokens, and in time.
    assert m["latency_cycles"] == 2
    assert m["latency_ns"] == pytest.approx(2 * m["cycle_ns"], rel=0.5)
    assert m["fmax_mhz"] == pytest.approx(1000.0 / m["cycle_ns"], rel=1e-3)
    assert m["throughput_stream_mbps"] == pytest.approx(16 * m["fmax_mhz"] / 2, rel=0.05)
    # Idle for as long as it was busy, the core draws about half: nothing switches meanwhile.
    assert 0.35 * m["power_mw"] < m["power_half_idle_mw"] < 0.65 * m["power_mw"]
    assert m["power_leakage_mw"] < 0.01 * m["power_mw"]
    # The derived figures read the effective clock (metrics.py).
    assert row["metrics"]["by_key_size"]["16"]["throughput_mbps"] == pytest.approx(
        m["throughput_stream_mbps"], rel=0.05)


def test_a_too_short_matched_delay_fails_the_timed_simulation(tmp_path: Path) -> None:
    """The negative check: DES's round is several ns of logic; with every matched delay cut to
    a twentieth of STA's figure the controllers' own delays no longer cover it, registers
    capture data before it settles, and the timed simulation says where. Nothing is stored
    as measured."""
    study = tmp_path / "short.toml"
    study.write_text('name = "short"\ndesigns = ["des/iterative"]\ntargets = ["asic-desync"]\n'
                     "desync_margin = -0.95\n")
    db = tmp_path / "short.sqlite"
    env = _kit_only_env()
    done = _cli(env, "run", str(study), "--db", str(db))
    assert done.returncode != 0
    assert "departs from the synchronous core in timed simulation" in done.stdout + done.stderr
    rows = _rows(env, db, tmp_path / "short.json")
    assert [r["status"] for r in rows] == ["failed"]


# ---- units ---------------------------------------------------------------------------------------


def test_power_model_by_hand(tmp_path: Path) -> None:
    """An inverter driving a NAND2's two inputs, toggling 1,000 times in a microsecond: the
    switching power is 1/2 C V^2 per transition with C the NAND2's input pins, the internal
    power the inverter's table energy per transition, the leakage both cells'."""
    from cipherbench.flows.desync.energy import netlist_power, power_library, read_instances

    library = load_liberty("osu018")
    power = power_library(library.path, 1.8)
    net = tmp_path / "t.v"
    net.write_text("module t (a, y);\n  input a;\n  output y;\n  wire n1;\n"
                   "  INVX1 u1 (.A(a), .Y(n1));\n  NAND2X1 u2 (.A(n1), .B(n1), .Y(y));\nendmodule\n")
    inst = read_instances(net, power)
    assert [name for _, name, _ in inst.instances] == ["u1", "u2"]
    outputs = {n: {p.name for p in c.outputs()} for n, c in library.cells.items()}
    got = netlist_power(inst, power, {"n1": 1000}, 1e-6, outputs)
    cap = (power.cells["NAND2X1"].input_caps["A"] + power.cells["NAND2X1"].input_caps["B"]) * 1e-12
    assert got["switching"] == pytest.approx(0.5 * cap * 1.8 ** 2 * 1000 / 1e-6 * 1e3, rel=1e-4)
    tables = power.cells["INVX1"].output_energy["Y"]
    load = cap / 1e-12
    energy = sum(t.at(load) for t in tables) / len(tables) * 1e-12
    assert got["internal"] == pytest.approx(energy * 1000 / 1e-6 * 1e3, rel=1e-4)
    leak = (power.cells["INVX1"].leakage + power.cells["NAND2X1"].leakage) * 1e-9 * 1e3
    assert got["leakage"] == pytest.approx(leak, rel=1e-3)
    # Nothing toggles: leakage alone.
    assert netlist_power(inst, power, {}, 1e-6, outputs)["total"] == pytest.approx(leak, rel=1e-3)


def test_liberty_functions_become_verilog() -> None:
    from cipherbench.flows.desync.models import verilog_expression

    assert verilog_expression("(!(A B))") == "(!((A & B)))"
    assert verilog_expression("A' + B*C") == "(!A | (B & C))"
    assert verilog_expression("(A1 ^ A2)") == "((A1 ^ A2))"
    with pytest.raises(ValueError):
        verilog_expression("A +")


def test_study_keys_give_a_job_per_storage_and_granularity(tmp_path: Path) -> None:
    from cipherbench.jobs import RunSummary
    from cipherbench.study import load_study
    from cipherbench.study.planning import plan_jobs

    path = tmp_path / "s.toml"
    path.write_text('designs = ["des/iterative"]\ntargets = ["asic-desync"]\nliberty = "osu018"\n'
                    'desync_storage = ["latch", "flipflop"]\n'
                    'desync_granularity = ["register", "stage"]\ndesync_margin = 0.3\n')
    jobs = plan_jobs(load_study(path), RunSummary())
    settings = sorted((j.target.settings.get("storage", "latch"),
                       j.target.settings.get("granularity", "register"), j.target.settings["margin"])
                      for j in jobs if "osu018" in j.target.settings["liberty"])
    assert settings == [("flipflop", "register", 0.3), ("flipflop", "stage", 0.3),
                        ("latch", "register", 0.3), ("latch", "stage", 0.3)]
    path.write_text('designs = ["des/iterative"]\ntargets = ["asic-desync"]\n'
                    'desync_storage = ["pulse"]\n')
    with pytest.raises(CipherbenchError, match="'desync_storage' must be a list of latch, flipflop"):
        load_study(path)


@pytest.mark.slow
def test_a_desynchronized_core_placed_and_routed(toy_env: tuple[Path, dict[str, str]]) -> None:
    """desync_layout: the de-synchronized netlist placed and routed with qflow as it is, its
    SDF from the routed wires, verified and measured again in timed simulation."""
    root, env = toy_env
    study = root / "layout.toml"
    study.write_text('name = "lay"\ndesigns = ["toy/iterative"]\ntargets = ["asic-desync"]\n'
                     "desync_layout = true\n")
    db = root / "layout.sqlite"
    done = _cli(env, "run", str(study), "--db", str(db))
    assert done.returncode == 0, done.stderr[-2000:]
    [row] = _rows(env, db, root / "layout.json")
    m = row["measurements"]
    assert row["target"] == "desync:osu018_stdcells:latch:register:layout"
    assert row["provenance"]["netlist_check"]["failed"] == 0
    assert m["wire_cap_pf"] > 0 and m["die_area_um2"] > m["area_um2"]
    assert 0 < m["utilization_pct"] < 100


def test_layout_needs_an_osu_kit() -> None:
    from cipherbench.flows.desync.flow import effective

    with pytest.raises(CipherbenchError, match="layout=.* must be true or false"):
        effective({"layout": "yes"})


def test_desync_jobs_give_each_design_its_own_variants(tmp_path: Path) -> None:
    from cipherbench.jobs import RunSummary
    from cipherbench.study import load_study
    from cipherbench.study.planning import plan_jobs

    path = tmp_path / "s.toml"
    path.write_text('designs = ["des/iterative", "des/pipelined"]\ntargets = ["asic-desync"]\n'
                    'liberty = "osu018"\n'
                    '[[desync_jobs]]\ndesigns = ["des/iterative"]\nstorage = ["latch", "flipflop"]\n'
                    '[[desync_jobs]]\ndesigns = ["des/pipelined"]\ngranularity = "stage"\n'
                    'ties = {out_ready = 1}\n')
    jobs = [j for j in plan_jobs(load_study(path), RunSummary())
            if "osu018" in j.target.settings["liberty"]]
    got = sorted((str(j.design), j.target.settings.get("storage", "latch"),
                  j.target.settings.get("granularity", "register"),
                  tuple(j.target.settings.get("ties", {}).items())) for j in jobs)
    assert got == [("des-64/iterative", "flipflop", "register", ()),
                   ("des-64/iterative", "latch", "register", ()),
                   ("des-64/pipelined", "latch", "stage", (("out_ready", 1),))]
    # A study naming a design its jobs lack is refused; designs given on the command line
    # (--design) run the jobs of those given.
    text = path.read_text()
    path.write_text(text.replace('designs = ["des/iterative", "des/pipelined"]',
                                 'designs = ["des/iterative"]'))
    with pytest.raises(CipherbenchError, match="name designs the study does not have: "
                                               "des-64/pipelined"):
        plan_jobs(load_study(path), RunSummary())
    path.write_text(text)
    given = load_study(path).override(designs=("des/pipelined",))
    assert {(str(j.design), j.target.settings.get("granularity"))
            for j in plan_jobs(given, RunSummary())} == {("des-64/pipelined", "stage")}
    path.write_text('designs = ["des/iterative"]\ntargets = ["asic-desync"]\n'
                    '[[desync_jobs]]\nstorage = "latch"\n')
    with pytest.raises(CipherbenchError, match="needs 'designs'"):
        load_study(path)


def test_a_desync_job_sets_its_own_layout_density(tmp_path: Path) -> None:
    from cipherbench.flows.desync.flow import target_label
    from cipherbench.jobs import RunSummary
    from cipherbench.study import load_study
    from cipherbench.study.planning import plan_jobs

    path = tmp_path / "s.toml"
    study = ('designs = ["des/iterative", "des/pipelined"]\ntargets = ["asic-desync"]\n'
             'liberty = "osu018"\ndesync_density = 0.45\n'
             '[[desync_jobs]]\ndesigns = ["des/iterative"]\nlayout = true\n'
             '[[desync_jobs]]\ndesigns = ["des/pipelined"]\nlayout = true\ndensity = 0.3\n')
    path.write_text(study)
    got = {str(j.design): j.target.settings["density"]
           for j in plan_jobs(load_study(path), RunSummary())}
    assert got == {"des-64/iterative": 0.45, "des-64/pipelined": 0.3}
    base = {"storage": "latch", "granularity": "stage", "goal": "area", "layout": True}
    assert target_label({**base, "density": 0.3}, "osu018_stdcells") == \
        "desync:osu018_stdcells:latch:stage:layout:density=0.3"
    assert target_label({**base, "density": 0.5}, "osu018_stdcells") == \
        "desync:osu018_stdcells:latch:stage:layout"
    path.write_text(study.replace("density = 0.3", "density = 2"))
    with pytest.raises(CipherbenchError, match=r"\[\[desync_jobs\]\]: 'density' must be a number "
                                               "from 0.05 to 1"):
        load_study(path)
    path.write_text(study.replace("density = 0.3", "spacing = 0.3"))
    with pytest.raises(CipherbenchError, match="unknown key.*spacing; valid: designs, storage, "
                                               "granularity, layout, ties, density"):
        load_study(path)


def test_a_timed_session_whose_simulator_does_not_start_is_a_tool_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    from cipherbench.errors import ToolFailed
    from cipherbench.flows.desync import replay
    from cipherbench.flows.desync.timed_sim import sim_tools

    try:
        tools = sim_tools()
    except CipherbenchError as missing:
        pytest.skip(f"Icarus Verilog absent: {missing}")
    broken = tmp_path / "broken.vvp"
    broken.write_text("not a compiled design\n")
    with pytest.raises(ToolFailed, match="the timed simulation did not start"):
        replay.TimedSession(broken, tmp_path, tmp_path / "b.vcd")
    # A simulator still busy when the wait ends (a large core loading) is stopped and said so.
    busy = tmp_path / "busy.v"
    busy.write_text("module busy; reg x = 0; always #1 x = ~x; endmodule\n")
    subprocess.run([tools.iverilog, "-o", str(tmp_path / "busy.vvp"), str(busy)], check=True)
    monkeypatch.setattr(replay, "STARTUP_TIMEOUT_S", 0.5)
    with pytest.raises(ToolFailed, match="still loading its netlist after 0.5 s"):
        replay.TimedSession(tmp_path / "busy.vvp", tmp_path, tmp_path / "b.vcd")

"""Trust records (issue 8): nothing is measured before it passes verification, and a flow's
netlist is simulated on the RTL's vectors, so a netlist that computes something else fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cipherbench.cache import ensure_design
from cipherbench.errors import CipherbenchError
from cipherbench.flows.generic import GenericFlow
from cipherbench.report.trust import trust_table
from cipherbench.spec import parse
from cipherbench.store import Result
from cipherbench.verify.netlist import simulate_netlist
from cipherbench.verify.record import RECORD, ensure_verified

DESIGN = "des-64/iterative:ops=encrypt"   # small: its netlist builds in seconds


@pytest.fixture(scope="module")
def netlist(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = ensure_design(parse(DESIGN))
    work = tmp_path_factory.mktemp("generic")
    result = GenericFlow().run(folder, work, {"blocks": False})
    return folder, Path(result.artifacts["sim_netlist"])


def test_the_generic_netlist_passes_the_rtls_vectors(netlist: tuple[Path, Path],
                                                     tmp_path: Path) -> None:
    folder, path = netlist
    check = simulate_netlist(parse(DESIGN), folder, path, tmp_path, "generic")
    assert check["failed"] == 0 and check["passed"] > 200
    assert check["method"] == "gate-level simulation" and check["known_answer_per_set"] == 16


def test_a_wrong_gate_in_the_netlist_is_caught(netlist: tuple[Path, Path],
                                               tmp_path: Path) -> None:
    """One XOR of the mapped netlist turned into an OR: the simulation fails."""
    folder, path = netlist
    text = path.read_text()
    xors = list(re.finditer(r"assign (\S+) = (\S+) \^ (\S+);", text))
    assert len(xors) > 100
    victim = xors[len(xors) // 2]
    broken = tmp_path / "broken.v"
    broken.write_text(text[:victim.start()] + victim.group(0).replace(" ^ ", " | ")
                      + text[victim.end():])
    check = simulate_netlist(parse(DESIGN), folder, broken, tmp_path, "generic")
    assert check["failed"] > 0 and check["first_failures"]


def test_a_failing_record_stops_measurement(tmp_path: Path) -> None:
    """A design whose record has failures raises (once recorded, it is not re-simulated)."""
    spec = parse(DESIGN)
    folder = tmp_path / "design"
    folder.mkdir()
    (folder / RECORD).write_text(json.dumps({"failed": 3, "passed": 10,
                                             "first_failures": ["ecb_tbl: case 4"]}))
    with pytest.raises(CipherbenchError, match="fails verification .*ecb_tbl: case 4"):
        ensure_verified(spec, folder)


def test_the_record_is_written_once(tmp_path: Path) -> None:
    folder = ensure_design(parse(DESIGN))
    record = ensure_verified(parse(DESIGN), folder)
    # 1000 random blocks in mixed directions, of which this encrypt-only core takes its half.
    assert record["failed"] == 0 and 400 < record["random"] < 600
    assert record["constant_time"] == "ok" and record["known_answer"] > 0
    # 200 random blocks against pycryptodome's DES (a dependency: always there), all encryptions.
    assert record["oracle"] == 200
    assert record["mct"] == "none for des"
    assert record["sets"]["random-vs-oracle (200, pycryptodome DES)"] == {"passed": 200,
                                                                         "failed": 0}
    assert json.loads((folder / RECORD).read_text())["date"] == record["date"]
    assert ensure_verified(parse(DESIGN), folder)["date"] == record["date"]


def _result(design: str, provenance: dict) -> Result:
    return Result(cache_key=design, design=design, target="generic", settings={}, status="ok",
                  provenance=provenance)


def test_trust_table_rows() -> None:
    record = {"failed": 0, "passed": 1300, "known_answer": 80, "random": 1000, "oracle": 200,
              "mct": "none for des",
              "constant_time": "ok",
              "sets": {"random-vs-oracle (200, pycryptodome DES)": {"passed": 200, "failed": 0}}}
    unchecked = {"failed": 0, "passed": 1100, "known_answer": 80, "random": 1000, "mct": 12,
                 "oracle": "not checked (Botan's Python binding is missing)",
                 "constant_time": "ok"}
    check = {"netlist": "generic", "passed": 300, "failed": 0}
    # A netlist proven equal to another netlist of the design, which was simulated.
    proven = {"netlist": "asic:lib:speed", "passed": 300, "failed": 0,
              "simulated_netlist": "asic:lib:area", "proof": {"equal": True}}
    table = trust_table([_result("des/iterative", {"verification": record,
                                                   "netlist_check": check}),
                         _result("des/iterative", {"verification": record,
                                                   "netlist_check": proven}),
                         _result("aes-128/iterative", {"verification": None}),
                         _result("misty1/iterative", {"verification": unchecked})])
    assert table.rows == [
        ["aes-128/iterative", "no record (measured by an older version)", "-", "-", "-", "-",
         "-", "-"],
        ["des/iterative", "pass", "80", "none for des", "1000", "200 (pycryptodome DES)", "ok",
         "asic:lib:speed: proven equal to asic:lib:area; generic: 300 passed, 0 failed"],
        ["misty1/iterative", "pass", "80", "12 checkpoints", "1000",
         "not checked (Botan's Python binding is missing)", "ok", "-"],
    ]


def test_the_asic_netlist_with_its_liberty_functions_passes(tmp_path: Path) -> None:
    """NanGate45 cells replaced by their Liberty functions: the mapped netlist simulates."""
    import os

    from cipherbench.flows.asic import AsicFlow

    liberty = os.environ.get("CIPHERBENCH_LIBERTY")
    if not liberty:
        pytest.skip("no Liberty configured (CIPHERBENCH_LIBERTY)")
    folder = ensure_design(parse(DESIGN))
    result = AsicFlow().run(folder, tmp_path / "asic", {"liberty": liberty, "goal": "area"})
    check = simulate_netlist(parse(DESIGN), folder, Path(result.artifacts["sim_netlist"]),
                             tmp_path, result.target)
    assert check["failed"] == 0 and check["passed"] > 200


def test_without_power_the_asic_flow_writes_only_the_simulated_netlist(tmp_path: Path) -> None:
    """power=False: no power netlist (so the study neither traces nor measures power), and the
    netlist it does write still computes DES; a non-boolean is refused."""
    import os

    from cipherbench.errors import CipherbenchError
    from cipherbench.flows.asic import AsicFlow

    liberty = os.environ.get("CIPHERBENCH_LIBERTY")
    if not liberty:
        pytest.skip("no Liberty configured (CIPHERBENCH_LIBERTY)")
    folder = ensure_design(parse(DESIGN))
    result = AsicFlow().run(folder, tmp_path / "asic",
                            {"liberty": liberty, "goal": "area", "power": False})
    assert "sim_netlist" in result.artifacts
    assert not {"power_netlist", "power_netlist_json"} & set(result.artifacts)
    assert not (tmp_path / "asic" / "asic_power_netlist.v").exists()
    assert result.settings["power"] is False and result.measurements["gate_equivalents"] > 1000
    check = simulate_netlist(parse(DESIGN), folder, Path(result.artifacts["sim_netlist"]),
                             tmp_path, result.target)
    assert check["failed"] == 0 and check["passed"] > 200
    with pytest.raises(CipherbenchError, match="power='no' must be true or false"):
        AsicFlow().run(folder, tmp_path / "bad", {"liberty": liberty, "power": "no"})


def test_the_latch_netlist_passes_the_rtls_vectors(tmp_path: Path) -> None:
    """Every flip-flop of the DES core as a two-phase latch pair (asic sequential=latch): the
    gate-level netlist, latches modelled from their Liberty functions, computes DES."""
    import os

    from cipherbench.flows.asic import AsicFlow

    liberty = os.environ.get("CIPHERBENCH_LIBERTY")
    if not liberty:
        pytest.skip("no Liberty configured (CIPHERBENCH_LIBERTY)")
    folder = ensure_design(parse(DESIGN))
    result = AsicFlow().run(folder, tmp_path / "asic",
                            {"liberty": liberty, "goal": "area", "sequential": "latch"})
    assert result.measurements["latches"] > 300 and result.measurements["flipflops"] == 0
    check = simulate_netlist(parse(DESIGN), folder, Path(result.artifacts["sim_netlist"]),
                             tmp_path, result.target)
    assert check["failed"] == 0 and check["passed"] > 200


# iCE40 (twice as slow here: its router) with --runslow; the suite's ECP5 case covers the method.
@pytest.mark.parametrize("family", [pytest.param("ice40", marks=pytest.mark.slow), "ecp5"])
def test_the_fpga_netlist_with_its_primitive_models_passes(family: str, tmp_path: Path) -> None:
    """The core as synthesized for the FPGA (LUT4, carry, flip-flop primitives, before placement)
    with each primitive replaced by the family's simulation model: it computes DES."""
    from cipherbench.flows.fpga import FpgaFlow

    folder = ensure_design(parse(DESIGN))
    result = FpgaFlow().run(folder, tmp_path / "fpga", {"family": family})
    core = Path(result.artifacts["core_netlist"]).read_text()
    assert ("SB_LUT4" if family == "ice40" else "LUT4") in core
    check = simulate_netlist(parse(DESIGN), folder, Path(result.artifacts["sim_netlist"]),
                             tmp_path, result.target)
    assert check["failed"] == 0 and check["passed"] > 200


def test_a_vector_file_is_sampled_from_end_to_end() -> None:
    """The netlist check takes a spread of each known-answer file: its first and last vectors
    and evenly spaced ones between, all of a file shorter than that."""
    from cipherbench.verify.designs import spread

    assert spread(list(range(100)), 5) == [0, 25, 50, 74, 99]
    assert spread(list(range(3)), 16) == [0, 1, 2]
    assert spread(list(range(10)), None) == list(range(10))
    assert spread(list(range(2056)), 16)[-1] == 2055 and len(set(spread(list(range(2056)), 16))) == 16

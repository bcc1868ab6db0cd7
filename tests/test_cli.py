"""The command line: every command's --help, list, generate/simulate on real RTL, run + report,
and bad input: one line on stderr, a non-zero exit, nothing half-written."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.ciphers.aes.model import decrypt_block, encrypt_block

COMMANDS = ["list", "generate", "simulate", "verify", "run", "report", "reproduce", "prove"]


def cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
        timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("error: "), proc.stderr
    assert fragment in lines[-1], lines[-1]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_everywhere(command: str | None) -> None:
    proc = cli(*([command] if command else []), "--help")
    assert proc.returncode == 0 and "Usage:" in proc.stdout


def test_list_text_and_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path))
    text = cli("list", "--all")
    assert text.returncode == 0
    for fragment in ("aes-128/iterative", "aes/iterative", "sbox=table|gf-inv|composite",
                     "ops=both|encrypt|decrypt", "generic", "fpga-ecp5"):
        assert fragment in text.stdout
    designs = json.loads(cli("list", "--json").stdout)
    by_name = {d["design"]: d for d in designs}
    assert by_name["aes/iterative"]["key_sizes"] == [128, 192, 256]
    assert by_name["aes-128/iterative"]["parameters"] == {"keys": "fly", "ops": "both",
                                                          "sbox": "table"}


def _record(spec_text: str, failed: int = 0) -> None:
    """A verification record in the design's cache folder, as `run` or `verify` leaves it."""
    from cipherbench.cache import design_dir
    from cipherbench.spec import parse
    from cipherbench.verify.record import RECORD

    folder = design_dir(parse(spec_text))
    folder.mkdir(parents=True)
    (folder / RECORD).write_text(json.dumps({
        "passed": 3700 - failed, "failed": failed, "known_answer": 2478, "random": 1000,
        "oracle": 200, "key_agility": 96, "constant_time": "ok", "random_blocks": 1000, "seed": 2026,
        "date": "2026-11-21T18:02:07+00:00", "sets": {},
        "first_failures": ["ecb_tbl: case 4"] if failed else []}))


def _designs_section(stdout: str) -> list[str]:
    return stdout[stdout.index("\nDesigns"):].strip().splitlines()


def test_list_shows_only_verified_designs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 8: no design is listed without a passing verification record in the cache."""
    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path))
    empty = cli("list")
    assert empty.returncode == 0, empty.stderr
    lines = _designs_section(empty.stdout)
    total = len(json.loads(cli("list", "--json").stdout))
    assert lines[0].startswith(f"Designs verified on this machine (0 of {total} valid")
    assert len(lines) == 2 and lines[1].startswith(f"{total} of {total} valid designs are not "
                                                   "verified on this machine")
    assert "cipherbench verify DESIGN" in lines[1] and "cipherbench list --all" in lines[1]

    _record("des-64/iterative")
    _record("aes-128/iterative:sbox=gf-inv", failed=3)
    lines = _designs_section(cli("list").stdout)
    assert lines[0].startswith(f"Designs verified on this machine (1 of {total} valid")
    assert re.fullmatch(r"  des-64/iterative +verified 2026-11-21: 2478 known-answer, 1000 random, "
                        r"200 oracle, 96 key changes, constant time ok", lines[1])
    assert lines[2].startswith("FAILED verification (1;")
    assert re.fullmatch(r"  aes-128/iterative:sbox=gf-inv +FAILED 2026-11-21: 3 mismatches of "
                        r"3700 \(first: ecb_tbl: case 4\)", lines[3])
    assert len(lines) == 5 and lines[4].startswith(f"{total - 2} of {total} valid designs are not")

    every = _designs_section(cli("list", "--all").stdout)
    assert every[0].startswith(f"Designs ({total} valid: 1 verified, 1 FAILED, {total - 2} not "
                               "verified")
    assert len(every) == total + 2
    status = {line.split()[0]: line.split(None, 1)[1] for line in every[1:-1]}
    assert status["des-64/iterative"].startswith("verified 2026-11-21")
    assert status["aes-128/iterative:sbox=gf-inv"].startswith("FAILED 2026-11-21")
    assert status["aes-128/iterative"] == "not verified"

    designs = {d["design"]: d for d in json.loads(cli("list", "--json").stdout)}
    assert designs["des-64/iterative"]["verification"] == {
        "passed": 3700, "failed": 0, "known_answer": 2478, "random": 1000, "oracle": 200,
        "key_agility": 96,
        "constant_time": "ok", "random_blocks": 1000, "seed": 2026,
        "date": "2026-11-21T18:02:07+00:00", "first_failures": []}
    assert designs["aes-128/iterative:sbox=gf-inv"]["verification"]["failed"] == 3
    assert designs["aes-128/iterative"]["verification"] is None
    assert sum(d["verification"] is not None for d in designs.values()) == 2


@pytest.mark.parametrize("args, failed, recorded", [
    ([], 0, True),                                  # a run's own check: recorded
    (["--random", "10"], 0, False),                 # a weaker pass would let `run` skip its check
    (["--random", "10"], 2, True),                  # a failure is recorded whatever the settings
])
def test_verify_records_its_outcome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    args: list[str], failed: int, recorded: bool) -> None:
    """`cipherbench verify` leaves the record `list` and `run` read (simulation stubbed out)."""
    from click.testing import CliRunner

    import cipherbench.cache
    import cipherbench.verify.designs
    from cipherbench.cli import main
    from cipherbench.spec import parse
    from cipherbench.verify.designs import SetOutcome, VerifyReport
    from cipherbench.cache import find_records
    from cipherbench.verify.record import RECORD

    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path))
    folder = cipherbench.cache.design_dir(parse("des-64/iterative"))
    folder.mkdir(parents=True)
    monkeypatch.setattr(cipherbench.cache, "ensure_design", lambda spec, progress=None: folder)
    monkeypatch.setattr(cipherbench.verify.designs, "verify_design", lambda *a, **k: VerifyReport(
        "des-64/iterative", [SetOutcome("ecb_tbl", 10, failed, ["case 4"] * bool(failed)),
                             SetOutcome("random-vs-model (10)", 10, 0)]))
    result = CliRunner().invoke(main, ["verify", "des-64/iterative", *args])
    assert result.exit_code == (1 if failed else 0), result.output
    assert (folder / RECORD).exists() == recorded
    if recorded:
        (record,) = find_records([parse("des-64/iterative")]).values()
        assert record["failed"] == failed and record["random_blocks"] == (10 if args else 1000)


def test_generate_writes_verilog_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "core"
    proc = cli("generate", "aes-128/iterative", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert (out / manifest["verilog"][0]).read_text().startswith("/* Generated by Yosys")
    assert manifest["latency"] == 10 and manifest["key_setup_decrypt"] == 10


def test_simulate_runs_the_rtl(tmp_path: Path) -> None:
    vectors = tmp_path / "in.txt"
    cases = [(bytes(range(16)), bytes.fromhex("00112233445566778899aabbccddeeff")),
             (bytes(range(32)), bytes(16)), (bytes(24), bytes([7] * 16))]
    vectors.write_text("# key data\n" + "".join(f"{k.hex()} {d.hex()}\n" for k, d in cases))
    for op, fn in (("encrypt", encrypt_block), ("decrypt", decrypt_block)):
        out = tmp_path / f"{op}.txt"
        proc = cli("simulate", "aes/iterative", "--op", op, "--vectors", str(vectors),
                   "--out", str(out))
        assert proc.returncode == 0, proc.stderr
        assert out.read_text().split() == [fn(k, d).hex() for k, d in cases]
    # FIPS-197 C.1 through the 128-only core.
    out = tmp_path / "c1.txt"
    assert cli("simulate", "aes-128/iterative", "--op", "encrypt", "--vectors",
               str(vectors), "--out", str(out)).returncode != 0  # 256-bit key line refused
    vectors.write_text(f"{cases[0][0].hex()} {cases[0][1].hex()}\n")
    assert cli("simulate", "aes-128/iterative", "--op", "encrypt", "--vectors", str(vectors),
               "--out", str(out)).returncode == 0
    assert out.read_text().strip() == "69c4e0d86a7b0430d8cdb78070b4c55a"


@pytest.mark.parametrize("args, fragment", [
    (["generate", "blowfish/iterative", "-o", "x"], "unknown cipher 'blowfish'"),
    (["generate", "aes/pipelined9", "-o", "x"], "unknown architecture"),
    (["generate", "aes-100/iterative", "-o", "x"], "no 100-bit key"),
    (["run", "--target", "tpu"], "unknown target 'tpu'"),
    (["run", "--design", "aes-512/iterative"], "no 512-bit key"),
    (["run", "--design", "twofish-128/narrow:width=16", "--target", "generic"],
     "'twofish-128/narrow:width=16' cannot be built: twofish has no 16-bit datapath"),
])
def test_bad_specs(tmp_path: Path, args: list[str], fragment: str) -> None:
    one_line_error(cli(*args, cwd=tmp_path), fragment)
    assert not (tmp_path / "x").exists() and not (tmp_path / "results").exists()


@pytest.mark.parametrize("content, fragment", [
    ("00112233 zz\n", "in.txt:1"),
    ("000102030405060708090a0b0c0d0e0f\n", "in.txt:1"),
    ("000102030405060708090a0b0c0d0e0f 0011\n", "16 bytes"),
    ("0001 00112233445566778899aabbccddeeff\n", "16-bit key"),
])
def test_malformed_vector_files(tmp_path: Path, content: str, fragment: str) -> None:
    vectors = tmp_path / "in.txt"
    vectors.write_text(content)
    out = tmp_path / "out.txt"
    proc = cli("simulate", "aes-128/iterative", "--op", "encrypt", "--vectors", str(vectors),
               "--out", str(out))
    one_line_error(proc, fragment)
    assert not out.exists()


def osu018_only() -> dict[str, str]:
    """The environment with no configured Liberty: the asic target runs on the built-in osu018
    kit alone (skipped with its package named when that is not installed)."""
    from cipherbench.errors import ToolMissing
    from cipherbench.flows.libraries import kit_files

    try:
        kit_files("osu018")
    except ToolMissing as exc:
        pytest.skip(str(exc))
    return {k: v for k, v in os.environ.items() if k not in ("CIPHERBENCH_LIBERTY", "PDK_ROOT")}


def test_liberty_without_nand2_is_refused_before_any_job(tmp_path: Path) -> None:
    lib = tmp_path / "nonand.lib"
    lib.write_text('library (nonand) {\n time_unit : "1ns";\n'
                   ' cell (INV_X1) { area : 0.5; pin (A) { direction : input; }\n'
                   '  pin (ZN) { direction : output; function : "!A"; } }\n}\n')
    proc = cli("run", "--design", "aes-128/iterative", "--target", "asic", "--liberty", str(lib),
               cwd=tmp_path)
    one_line_error(proc, "NAND")
    assert not (tmp_path / "results").exists()


def test_missing_tool_names_its_package(tmp_path: Path) -> None:
    env = dict(osu018_only(), PATH=str(Path(sys.executable).parent))  # python, but no `sta`
    proc = cli("run", "--design", "aes-128/iterative", "--target", "asic", cwd=tmp_path, env=env)
    one_line_error(proc, "apt-get install opensta")


def test_failing_tool_is_stored_as_failed(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    sta = fake / "sta"
    sta.write_text("#!/bin/sh\necho 'OpenSTA 2.0.17'\nif [ \"$1\" = -version ]; then exit 0; fi\n"
                   "echo 'Error: simulated crash' >&2\nexit 3\n")
    sta.chmod(0o755)
    env = dict(osu018_only(), PATH=f"{fake}:{os.environ['PATH']}")
    # DES: the design is verified before the flow runs, and DES verifies fastest.
    proc = cli("run", "--design", "des-64/iterative", "--target", "asic", cwd=tmp_path, env=env)
    assert proc.returncode == 1
    assert "2 failed" in proc.stdout + proc.stderr
    rows = sqlite3.connect(tmp_path / "results" / "cipherbench.sqlite").execute(
        "select status, reason from results").fetchall()
    assert len(rows) == 2 and all(status == "failed" and reason for status, reason in rows)


def test_one_simulated_netlist_per_design_and_the_rest_proven(tmp_path: Path) -> None:
    """Without power, the first job of a design simulates its netlist (and proves it equal to
    the design's gate prefix); the others, generic or ASIC, prove their own equal to the same
    prefix and cite the simulated one."""
    study = tmp_path / "study.toml"
    study.write_text('designs = ["des-64/iterative"]\ntargets = ["generic", "asic"]\n'
                     'asic_goals = ["area", "speed"]\nasic_power = false\n')
    env = dict(osu018_only(), CIPHERBENCH_CACHE=str(tmp_path / "cache"))
    proc = cli("run", str(study), "--jobs", "1", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    rows = sqlite3.connect(tmp_path / "results" / "cipherbench.sqlite").execute(
        "select target, provenance from results order by id").fetchall()
    checks = {target: json.loads(prov)["netlist_check"] for target, prov in rows}
    simulated = [c for c in checks.values() if c["method"] == "gate-level simulation"]
    proven = [c for c in checks.values() if c["method"] != "gate-level simulation"]
    assert len(simulated) == 1 and len(proven) == 2
    assert simulated[0]["failed"] == 0 and simulated[0]["passed"] > 200
    assert simulated[0]["proof"]["equal"] is True
    assert {c["netlist"] for c in checks.values()} == set(checks)
    for check in proven:
        assert check["proof"]["equal"] is True
        assert check["simulated_netlist"] == simulated[0]["netlist"] != check["netlist"]
        assert check["passed"] == simulated[0]["passed"] and check["failed"] == 0
    assert len(list((tmp_path / "cache" / "synth").glob("*.simulated.json"))) == 1


def test_run_then_report_and_warm_rerun(tmp_path: Path) -> None:
    # A cache of its own: with a shared one, another run's simulated netlist of the design is
    # found and this one's is proven equal to it, and the report line below reads differently.
    env = {**os.environ, "CIPHERBENCH_CACHE": str(tmp_path / "cache")}
    proc = cli("run", "--design", "des-64/iterative", "--target", "generic", cwd=tmp_path,
               env=env)
    assert proc.returncode == 0, proc.stderr
    assert "1 ran" in proc.stdout
    (provenance,), = sqlite3.connect(tmp_path / "results" / "cipherbench.sqlite").execute(
        "select provenance from results").fetchall()
    assert json.loads(provenance)["job_seconds"] > 0  # the job's wall time, recorded
    stages = json.loads(provenance)["stage_seconds"]  # and where it went
    assert {"design", "verification", "flow", "netlist_check"} <= set(stages)
    assert sum(stages.values()) <= json.loads(provenance)["job_seconds"] + 0.5
    again = cli("run", "--design", "des-64/iterative", "--target", "generic", cwd=tmp_path,
                env=env)
    assert "0 ran, 1 cached" in again.stdout
    report = cli("report", "-o", str(tmp_path / "rep"), cwd=tmp_path, env=env)
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    assert re.search(r"des(-64)?/iterative", html) and "transistor" in html.lower()
    # Verified before it was measured, and its generic netlist simulated on the same vectors.
    md = (tmp_path / "rep" / "report.md").read_text()
    assert re.search(r"\| des(-64)?/iterative \| pass \| \d+ \| none for des \| 1000 \| "
                     r"200 \(pycryptodome DES\) "
                     r"\| ok \| generic: \d+ passed, 0 failed \|", md)
    assert (tmp_path / "rep" / "throughput_vs_area.png").read_bytes().startswith(b"\x89PNG")


def test_report_without_database(tmp_path: Path) -> None:
    one_line_error(cli("report", "-o", "r", cwd=tmp_path), "cipherbench run")

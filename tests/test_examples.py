"""The example cores of examples/, one per protocol family of docs/your-core.md, written in plain
Verilog for it: each verified as a generated core is, its cycles measured through the harness,
then measured on the generic target; the one with a wrong byte order in its description fails
verification with its first failing case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cipherbench.cache import ensure_design
from cipherbench.cli import main
from cipherbench.errors import CipherbenchError
from cipherbench.external.spec import external_spec
from cipherbench.store import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Per example: its design name, the cycles measured through the harness (key size -> figures).
CYCLES = {
    # 10 rounds of four S-box clocks and a key step, plus loading and the last round: 51 clocks
    # from start to done; with its busy flag the next block starts on the clock of done.
    "aes128-command": ("aes-128/external:aes128-command,ops=encrypt", {"128": {
        "latency": 51, "latency_decrypt": None, "initiation_interval": 51,
        "cycles_per_chained_block": 51, "key_setup_encrypt": 0, "key_setup_decrypt": None,
        "algorithm_setup": 0}}),
    # 16 round stages and an output register, a block every clock, the key with each block.
    "des-pipelined": ("des-64/external:des-pipelined", {"64": {
        "latency": 17, "latency_decrypt": 17, "initiation_interval": 1,
        "cycles_per_chained_block": 17, "key_setup_encrypt": 0, "key_setup_decrypt": 0,
        "algorithm_setup": 0}}),
    # One round per clock; a new key first runs the schedule forward to the last round key.
    "present80-stream": ("present-80/external:present80-stream", {"80": {
        "latency": 31, "latency_decrypt": 31, "initiation_interval": 31,
        "cycles_per_chained_block": 31, "key_setup_encrypt": 31, "key_setup_decrypt": 31,
        "algorithm_setup": 0}}),
}


@pytest.mark.parametrize("example", sorted(CYCLES))
def test_example_verifies_and_takes_its_cycles(example: str) -> None:
    spec = external_spec(EXAMPLES / example / "core.toml")
    name, cycles = CYCLES[example]
    assert str(spec) == name
    folder = ensure_design(spec)  # verified first: a failure raises with its first cases
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == cycles
    record = json.loads((folder / "verification.json").read_text())
    # 1,000 random cases, of which an encrypt-only core takes the encryptions (about half).
    assert record["failed"] == 0 and record["random"] >= 450
    assert record["key_agility"] >= 48 and record["constant_time"] == "ok"


def test_examples_are_measured_on_the_generic_target(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    args = ["run", "--target", "generic", "--db", str(db), "--jobs", "1"]
    for example in sorted(CYCLES):
        args += ["--design", str(EXAMPLES / example / "core.toml")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    rows = {r.design: r for r in Store(db).results()}
    assert set(rows) == {name for name, _ in CYCLES.values()}
    for name, row in rows.items():
        assert row.ok, row.reason
        # The examples' own sizes: four S-boxes and a 32-bit datapath, sixteen DES rounds,
        # one PRESENT round (Yosys counted 3,412, 12,928 and 2,121 cells for them).
        assert row.measurements["transistors"] > 10_000, name
        assert row.provenance["netlist_check"]["failed"] == 0
        assert row.provenance["external"]["protocol"] in ("command", "fixed-latency", "streams")
    assert rows["des-64/external:des-pipelined"].metrics["by_key_size"]["64"][
        "bits_per_cycle"] == 64.0


def test_the_wrong_byte_order_fails_with_the_first_case() -> None:
    spec = external_spec(EXAMPLES / "present80-stream-wrong-order" / "core.toml")
    with pytest.raises(CipherbenchError, match="fails verification") as caught:
        ensure_design(spec)
    # The paper's first vector, its expected answer, and what the core gave for it.
    assert ("present-spec: case 0: encrypt key=00000000000000000000 in=0000000000000000: "
            "expected 5579c1387b228445, got ") in str(caught.value)

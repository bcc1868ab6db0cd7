"""Round keys loaded from outside (``keys=loaded``, arch/loaded.py; Gaj & Chodowiec 4.1 b).

The measured core has no key port and no key schedule: only a round-key write port. Simulation
wraps it in a harness that runs the cipher's own key step and writes the entries; every known-answer
set and random blocks with key changes must pass through that, on each memory layout (AES mirror,
RC6's run-up with invalid fill cycles, Camellia's forward-and-backward walk) and on the iterative
core, a ring pipeline with an inner cut and full pipelines (fixed entries)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cipherbench.cache import ensure_design
from cipherbench.flows.generic import GenericFlow
from cipherbench.spec import parse
from stored_pipelines import verify_stored_pipeline

DESIGNS = [
    "aes-128/iterative:keys=loaded",
    "aes/iterative:keys=loaded",
    "rc6-128/iterative:keys=loaded",
    "camellia-128/iterative:keys=loaded",
    "aes-128/pipelined:keys=loaded,stages=2,inner=1",
    # A full pipeline (fixed entries): DES's 16 small units in the default suite, MISTY1's
    # (FO/FI units, 3 minutes to build and simulate) with --runslow.
    "des/pipelined:keys=loaded",
    pytest.param("misty1/pipelined:keys=loaded", marks=pytest.mark.slow),
]


def _manifest(design: str) -> dict:
    return json.loads((ensure_design(parse(design)) / "manifest.json").read_text())


@pytest.mark.parametrize("design", DESIGNS)
def test_loaded_round_keys_pass_every_vector_set(design: str) -> None:
    passed = verify_stored_pipeline(design, random_blocks=200)
    assert passed["random-vs-model (200)"] == 200
    assert sum(passed.values()) > 200


def test_the_core_has_a_round_key_port_and_no_key_port() -> None:
    manifest = _manifest("aes-128/iterative:keys=loaded")
    ports = {p["name"]: (p["dir"], p["width"]) for p in manifest["ports"]}
    assert "key" not in ports
    # 11 entries (whitening + 10 rounds) -> 4 address bits; 128-bit round keys
    assert ports["rk_addr"] == ("in", 4) and ports["rk_data"] == ("in", 128)
    assert ports["rk_we"] == ("in", 1) and ports["key_ready"] == ("out", 1)
    assert manifest["io_count"] == sum(p["width"] for p in manifest["ports"])
    assert manifest["verilog"] == ["cb_aes_128_iterative_keys_loaded.v"]
    sim = manifest["simulation"]
    assert sim["top"] == "cb_aes_128_iterative_keys_loaded_harness"
    assert {p["name"] for p in sim["ports"]} >= {"key", "key_valid", "in_block"}


def test_key_setup_is_one_write_per_entry_and_the_commit() -> None:
    # AES-128: 11 entries; Camellia-128: both walks (2 x 19 entries); RC6's fill also runs its
    # 132-step run-up, during which the harness writes nothing.
    aes = _manifest("aes-128/iterative:keys=loaded")["cycles_by_key_size"]["128"]
    assert aes["key_setup_encrypt"] == aes["key_setup_decrypt"] == 11 + 1
    assert aes["latency"] == 10 and aes["cycles_per_chained_block"] == 10
    stored = _manifest("aes-128/iterative:keys=stored")["cycles_by_key_size"]["128"]
    assert stored["key_setup_encrypt"] == 11
    rc6 = _manifest("rc6-128/iterative:keys=loaded")["cycles_by_key_size"]["128"]
    rc6_stored = _manifest("rc6-128/iterative:keys=stored")["cycles_by_key_size"]["128"]
    assert rc6["key_setup_encrypt"] == rc6_stored["key_setup_encrypt"] + 1


def _generic_cells(design: str, tmp: Path) -> int:
    folder = ensure_design(parse(design))
    result = GenericFlow().run(folder, tmp, {})
    return int(result.measurements["cells"])


@pytest.mark.slow
def test_the_measured_core_has_no_key_schedule(tmp_path: Path) -> None:
    """The loaded core is the stored core without its key step and fill: smaller."""
    loaded = _generic_cells("aes-128/iterative:keys=loaded", tmp_path / "loaded")
    stored = _generic_cells("aes-128/iterative:keys=stored", tmp_path / "stored")
    # AES-128's key step has four S-boxes (about 2,000 generic gates) and the fill counter.
    assert stored - loaded > 1000

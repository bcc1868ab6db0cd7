"""The RC6 iterative cores (keys=stored), simulated from their generated Verilog: every vector set
of the cipher (paper, NESSIE, Crypto++) in both directions, random blocks with key changes against
the model, and the measured cycle counts (docs/ciphers/rc6.md)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from cipherbench.cache import ensure_design
from cipherbench.errors import CipherbenchError
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

DESIGNS = ["rc6-128/iterative", "rc6/iterative"]
# NESSIE Rc6-<bits>-128.verified.test-vectors: every vector in both directions.
NESSIE_CASES = {128: 2 * 1028, 192: 2 * 1156, 256: 2 * 1284}
RANDOM_BLOCKS = 1000
# 20 rounds + the output-whitening clock; the round-key memory is filled after the 132 iterations
# of the mixing loop, one per clock (round key t after iteration 90 + 2t, t = 0..21), then blocks.
CLOCKS = 21
KEY_SETUP = 133


@functools.cache
def _verified(design: str) -> dict[str, int]:
    """The design verified once per test process (every set the cipher has, RANDOM_BLOCKS random
    blocks): the passed count of every set. The fill writes only on the clocks the key step marks
    (KeyStep.rk_valid, docs/ciphers/rc6.md, "Key setup"): a fill that ignored them fails here."""
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=RANDOM_BLOCKS)
    assert report.failed == 0, report.as_dict()
    return {s.name: s.passed for s in report.sets}


@functools.cache
def _pipeline_verified(design: str) -> dict[str, int]:
    from stored_pipelines import verify_stored_pipeline

    return verify_stored_pipeline(design)


@pytest.mark.parametrize("design", DESIGNS)
def test_typed_in_vectors_and_random_blocks_with_key_changes(design: str) -> None:
    counts = _verified(design)
    # Paper vectors 1-2 (3-4, 5-6 for 192, 256 bits) and NESSIE set 4 vector 0, both directions.
    assert counts["rc6-paper"] == 6 * len(parse(design).key_sizes)
    assert counts[f"random-vs-model ({RANDOM_BLOCKS})"] == RANDOM_BLOCKS


@pytest.mark.parametrize("design", DESIGNS)
def test_every_vector_file(design: str, kat_folder: Path) -> None:
    """NESSIE's full sets and rc6val, every vector in both directions (skipped, saying so,
    without the vector files)."""
    counts = _verified(design)
    sizes = parse(design).key_sizes
    for bits in sizes:
        assert counts[f"Rc6-{bits}-128.verified"] == NESSIE_CASES[bits]
    assert counts["rc6val"] == 4 * len(sizes)


@pytest.mark.parametrize("design", DESIGNS)
def test_measured_cycle_counts(design: str) -> None:
    manifest = json.loads((ensure_design(parse(design)) / "manifest.json").read_text())
    assert set(manifest["cycles_by_key_size"]) == {str(b) for b in parse(design).key_sizes}
    for counts in manifest["cycles_by_key_size"].values():
        assert counts == {
            "latency": CLOCKS, "latency_decrypt": CLOCKS, "initiation_interval": CLOCKS,
            "cycles_per_chained_block": CLOCKS,
            "key_setup_encrypt": KEY_SETUP, "key_setup_decrypt": KEY_SETUP,
            "algorithm_setup": 0,
        }
    assert manifest["parameters"]["keys"] == "stored"
    assert manifest["parameters"]["squarers"] == 2


def test_round_keys_cannot_be_on_the_fly() -> None:
    with pytest.raises(CipherbenchError):
        parse("rc6-128/iterative:keys=fly")
    assert parse("rc6-128/iterative").param_dict["keys"] == "stored"


# Pipelines with stored round keys (pipelined:keys=stored, arch/keymem.py). The full 21-unit
# pipeline takes about 5 minutes of one core to generate, Verilate and measure (cold cache), so
# the default suite builds the 2-unit ring (memory read by address; about 2 minutes) and
# --runslow adds the full pipelines (fixed entries per unit) and the 3-in-1 one.
PIPELINES = {
    "rc6-128/pipelined:keys=stored,stages=2": 11,   # ceil(21/2) passes per block
    "rc6-128/pipelined:keys=stored": 1,
    "rc6/pipelined:keys=stored": 1,
}
PIPELINE_DEFAULT = ("rc6-128/pipelined:keys=stored,stages=2",)


@pytest.mark.parametrize("design", [d if d in PIPELINE_DEFAULT else
                                    pytest.param(d, marks=pytest.mark.slow) for d in PIPELINES])
def test_stored_key_pipelines(design: str) -> None:
    from stored_pipelines import measured_cycles, pipeline_cycles

    counts = _pipeline_verified(design)
    sizes = parse(design).key_sizes
    assert counts["rc6-paper"] == 6 * len(sizes)
    cycles = measured_cycles(design)
    for bits in sizes:
        assert cycles[str(bits)] == pipeline_cycles(CLOCKS, PIPELINES[design], KEY_SETUP)


@pytest.mark.parametrize("design", [d if d in PIPELINE_DEFAULT else
                                    pytest.param(d, marks=pytest.mark.slow) for d in PIPELINES])
def test_stored_key_pipelines_every_vector_file(design: str, kat_folder: Path) -> None:
    counts = _pipeline_verified(design)
    for bits in parse(design).key_sizes:
        assert counts[f"Rc6-{bits}-128.verified"] == NESSIE_CASES[bits]


def test_pipelines_have_stored_keys_only() -> None:
    assert parse("rc6-128/pipelined").param_dict["keys"] == "stored"
    with pytest.raises(CipherbenchError):
        parse("rc6-128/pipelined:keys=fly")

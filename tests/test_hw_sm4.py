"""The SM4 cores, simulated from their generated Verilog: GB/T 32907's example in both directions,
random blocks with key changes against the model and pyca's SM4, the cycle counts; the iterative
core (one round per clock, keys on the fly, the five-word key state of hw.py), the unrolled core
(two rounds per clock) and the full pipeline with travelling keys."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.arch.base import CoreOptions
from cipherbench.cache import ensure_design
from cipherbench.ciphers.sm4.hw import Sm4Hardware
from cipherbench.spec import parse

ROUNDS = 32


_verified = verified_counts  # tests/verified.py: once per test process


def test_iterative_core_every_vector_set_random_blocks_and_the_oracle() -> None:
    counts = _verified("sm4/iterative", 1000)
    assert counts["gbt32907"] == 2
    assert counts["random-vs-model (1000)"] == 1000
    assert any(name.startswith("random-vs-oracle") for name in counts)


def test_iterative_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("sm4/iterative")) / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == {"128": {
        "latency": ROUNDS, "latency_decrypt": ROUNDS, "initiation_interval": ROUNDS,
        "cycles_per_chained_block": ROUNDS,
        "key_setup_encrypt": 0,          # K4 is computed at load
        "key_setup_decrypt": ROUNDS,     # one forward run-up per key, then kept
        "algorithm_setup": 0,
    }}


# The full 32-stage pipeline (44 s of CI) is --runslow; a two-unit one keeps the pipelined
# family, with keys in flight, in the default suite.
@pytest.mark.parametrize("design", ["sm4/unrolled:k=2", "sm4/pipelined:stages=2",
                                    pytest.param("sm4/pipelined", marks=pytest.mark.slow)])
def test_other_architectures(design: str) -> None:
    counts = _verified(design, 300)
    assert counts["gbt32907"] == 2 and counts["random-vs-model (300)"] == 300


def test_key_state_and_round_key_widths() -> None:
    hw = Sm4Hardware(CoreOptions(key_sizes=(128,)))
    assert (hw.key_state_bits, hw.round_key_bits, hw.rounds(128)) == (160, 64, ROUNDS)

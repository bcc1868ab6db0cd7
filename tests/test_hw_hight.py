"""The HIGHT cores, simulated from their generated Verilog: the specification's examples in both
directions, random blocks with key changes against the model and Crypto++, the cycle counts; the
iterative core (one round per clock, whitening folded into the first and last clocks, keys on the
fly), the unrolled core and a full pipeline with stored round keys."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.cache import ensure_design
from cipherbench.spec import parse

ROUNDS = 32


_verified = verified_counts  # tests/verified.py: once per test process


def test_iterative_core_every_vector_set_random_blocks_and_the_oracle() -> None:
    counts = _verified("hight/iterative", 1000)
    assert counts["hight-spec"] == 8
    assert counts["random-vs-model (1000)"] == 1000
    assert any(name.startswith("random-vs-oracle") for name in counts)


def test_iterative_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("hight/iterative")) / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == {"128": {
        "latency": ROUNDS, "latency_decrypt": ROUNDS, "initiation_interval": ROUNDS,
        "cycles_per_chained_block": ROUNDS,
        "key_setup_encrypt": 0, "key_setup_decrypt": ROUNDS, "algorithm_setup": 0,
    }}


@pytest.mark.parametrize("design", ["hight/unrolled:k=2", "hight/pipelined"])
def test_other_architectures(design: str) -> None:
    counts = _verified(design, 300)
    assert counts["hight-spec"] == 8 and counts["random-vs-model (300)"] == 300

"""The GIFT-128 cores, simulated from their generated Verilog: the designers' vectors in both
directions, random blocks with key changes against the model (no independent implementation is
known), and exact cycle counts: one round per clock (40), two with unrolling (20)."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.cache import ensure_design
from cipherbench.ciphers.gift import hw
from cipherbench.ciphers.gift.model import round_key_mask
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

ROUNDS = 40


_verified = verified_counts  # tests/verified.py: once per test process


def _counts(design: str) -> dict:
    folder = ensure_design(parse(design))
    return json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]["128"]


def test_round_key_bus_layout() -> None:
    """The bus is V (bits 0-31), U (32-63), c (64-69); the model's mask puts them where the
    hardware's wiring does."""
    assert hw.ROUND_KEY_BITS == 70 and hw.KEY_STATE_BITS == 134
    register = (0x89ABCDEF << 64) | 0x01234567
    mask = round_key_mask(register, 0x2D)
    assert (mask >> 127) & 1 == 1
    assert [(mask >> (4 * j + 3)) & 1 for j in range(6)] == [(0x2D >> j) & 1 for j in range(6)]
    assert sum(((mask >> (4 * j + 1)) & 1) << j for j in range(32)) == 0x01234567
    assert sum(((mask >> (4 * j + 2)) & 1) << j for j in range(32)) == 0x89ABCDEF


@pytest.mark.parametrize("design", ["gift/iterative", "gift/unrolled:k=2"])
def test_vectors_both_directions_and_random(design: str) -> None:
    counts = _verified(design, 1000)
    assert counts["gift-designers"] == 6
    assert any(name.startswith("random") and n == 1000 for name, n in counts.items())


@pytest.mark.parametrize("design, expected", [
    ("gift/iterative", {"latency": 40, "latency_decrypt": 40, "initiation_interval": 40,
                        "cycles_per_chained_block": 40, "key_setup_encrypt": 0,
                        "key_setup_decrypt": 40, "algorithm_setup": 0}),
    ("gift/unrolled:k=2", {"latency": 20, "latency_decrypt": 20, "initiation_interval": 20,
                           "cycles_per_chained_block": 20, "key_setup_encrypt": 0,
                           "key_setup_decrypt": 20, "algorithm_setup": 0}),
])
def test_cycle_counts(design: str, expected: dict) -> None:
    assert _counts(design) == expected


# One-direction cores, stored keys and the pipelines: more builds (--runslow).
@pytest.mark.slow
@pytest.mark.parametrize("design", [
    "gift/iterative:ops=encrypt",
    "gift/iterative:ops=decrypt",
    "gift/iterative:keys=stored",
    "gift/pipelined",
    "gift/pipelined:stages=2",
])
def test_more_architectures_verify(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=300)
    # A one-direction core checks only its direction's share of the random blocks.
    share = 300 if spec.param_dict["ops"] == "both" else 200
    assert report.failed == 0 and report.passed >= share

"""The PRESENT cores, simulated from their generated Verilog: the published vectors in both
directions, random blocks with key changes against the model (no independent implementation is
known), and exact cycle counts: one round per clock (31), two with unrolling (16)."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.cache import ensure_design
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

ROUNDS = 31


_verified = verified_counts  # tests/verified.py: once per test process


def _counts(design: str) -> dict:
    folder = ensure_design(parse(design))
    return json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]


@pytest.mark.parametrize("design, typed", [
    ("present-80/iterative", 8),    # the four CHES 2007 vectors, both directions
    ("present-128/iterative", 2),   # Poschmann's PRESENT-128 vector, both directions
    ("present/iterative", 10),      # both key sizes in one core
])
def test_iterative_vectors_both_directions_and_random(design: str, typed: int) -> None:
    counts = _verified(design, 1000)
    assert counts["present-spec"] == typed
    assert any(name.startswith("random") and n == 1000 for name, n in counts.items())


@pytest.mark.parametrize("design", ["present-80/iterative", "present/iterative"])
def test_iterative_one_round_per_clock(design: str) -> None:
    counts = _counts(design)
    assert set(counts) == {str(bits) for bits in parse(design).key_sizes}
    for per_size in counts.values():
        assert per_size == {
            "latency": ROUNDS, "latency_decrypt": ROUNDS, "initiation_interval": ROUNDS,
            "cycles_per_chained_block": ROUNDS,
            "key_setup_encrypt": 0,       # key state 0 is the key itself
            "key_setup_decrypt": ROUNDS,  # one forward run-up per key, then stored
            "algorithm_setup": 0,
        }


def test_unrolled_two_rounds_per_clock() -> None:
    design = "present/unrolled:k=2"
    counts = _verified(design, 1000)
    assert counts["present-spec"] == 10
    for per_size in _counts(design).values():
        # 31 rounds in 16 passes, the last one a single round.
        assert per_size["latency"] == per_size["latency_decrypt"] == 16
        assert per_size["key_setup_encrypt"] == 0


@pytest.mark.parametrize("design, expected", [
    ("present-80/iterative:keys=stored", {"latency": 31, "latency_decrypt": 31,
                                          "key_setup_encrypt": 32, "key_setup_decrypt": 32}),
    ("present/iterative:ops=encrypt", {"latency": 31, "latency_decrypt": None,
                                       "key_setup_encrypt": 0, "key_setup_decrypt": None}),
])
def test_variants_verify_and_count(design: str, expected: dict) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=300)
    assert report.failed == 0 and report.passed >= 300
    measured = json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]
    for per_size in measured.values():
        for name, value in expected.items():
            assert per_size[name] == value


# The full pipeline (31 units) and a decryption-only unrolled core: longer builds (--runslow).
@pytest.mark.slow
@pytest.mark.parametrize("design", [
    "present/pipelined",
    "present-80/pipelined:stages=2",
    "present-128/unrolled:k=3,ops=decrypt",
])
def test_more_architectures_verify(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=300)
    # A one-direction core checks only its direction's share of the random blocks.
    share = 300 if spec.param_dict["ops"] == "both" else 200
    assert report.failed == 0 and report.passed >= share

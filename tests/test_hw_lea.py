"""The LEA cores, simulated from their generated Verilog: the specification's examples in both
directions, random blocks with key (and key-size) changes against the model and Crypto++, the
cycle counts; the 3-in-1 iterative core (every key size, keys on the fly), the unrolled core and
a full pipeline (stored round keys: travelling keys are refused)."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.cache import ensure_design
from cipherbench.spec import parse

ROUNDS = {128: 24, 192: 28, 256: 32}


_verified = verified_counts  # tests/verified.py: once per test process


def test_three_in_one_iterative_core() -> None:
    counts = _verified("lea/iterative", 600)
    assert counts["lea-spec"] == 6   # three examples, both directions
    assert counts["random-vs-model (600)"] == 600
    assert any(name.startswith("random-vs-oracle") for name in counts)


def test_iterative_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("lea/iterative")) / "manifest.json").read_text())
    by_size = manifest["cycles_by_key_size"]
    for bits, rounds in ROUNDS.items():
        counts = by_size[str(bits)]
        assert counts["latency"] == counts["latency_decrypt"] == rounds
        assert counts["initiation_interval"] == rounds
        assert counts["key_setup_encrypt"] == 0
        assert counts["key_setup_decrypt"] == rounds


# The 28-unit pipeline is a long build (51 s in CI): --runslow; HIGHT and SM4 keep stored-key
# pipelines in the default suite.
@pytest.mark.parametrize("design", ["lea-256/unrolled:k=2",
                                    pytest.param("lea-192/pipelined", marks=pytest.mark.slow)])
def test_other_architectures(design: str) -> None:
    counts = _verified(design, 300)
    assert counts["lea-spec"] == 2 and counts["random-vs-model (300)"] == 300


def test_pipelines_take_stored_keys() -> None:
    # The travelling keys would hand decryption round r the key of state R-r (hw.py).
    assert dict(parse("lea/pipelined").params)["keys"] == "stored"

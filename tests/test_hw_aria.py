"""The ARIA cores, simulated from their generated Verilog: RFC 5794's examples in both directions,
random blocks with key (and key-size) changes against the model and Crypto++, the cycle counts;
the iterative core for each key size and the 3-in-1 one (keys on the fly, the W0..W3 window of
hw.py), stored and one-direction variants, the unrolled core and the pipelines."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.arch.base import CoreOptions
from cipherbench.cache import ensure_design
from cipherbench.ciphers.aria.hw import AriaHardware
from cipherbench.spec import parse

ROUNDS = {128: 12, 192: 14, 256: 16}


_verified = verified_counts  # tests/verified.py: once per test process


# 192 and 256 bits are in the default suite through the 3-in-1 core below.
@pytest.mark.parametrize("bits", [128, pytest.param(192, marks=pytest.mark.slow),
                                  pytest.param(256, marks=pytest.mark.slow)])
def test_iterative_core_per_key_size(bits: int) -> None:
    counts = _verified(f"aria-{bits}/iterative", 300)
    assert counts["rfc5794"] == 2
    assert counts["random-vs-model (300)"] == 300
    assert any(name.startswith("random-vs-oracle") for name in counts)


def test_three_in_one_iterative_core() -> None:
    counts = _verified("aria/iterative", 600)
    assert counts["rfc5794"] == 6   # three examples, both directions
    assert counts["random-vs-model (600)"] == 600


def test_iterative_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("aria/iterative")) / "manifest.json").read_text())
    by_size = manifest["cycles_by_key_size"]
    for bits, rounds in ROUNDS.items():
        counts = by_size[str(bits)]
        # n rounds and encryption's whitening clock (hw.py).
        assert counts["latency"] == counts["latency_decrypt"] == rounds + 1
        assert counts["initiation_interval"] == rounds + 1
        assert counts["key_setup_encrypt"] == 0
        assert counts["key_setup_decrypt"] == rounds + 1   # forward run-up once per key


@pytest.mark.parametrize("design", [
    "aria-128/iterative:keys=stored",
    # keys=loaded: the same memory, written through the round-key port (same size of build).
    pytest.param("aria-128/iterative:keys=loaded", marks=pytest.mark.slow),
    "aria-256/iterative:ops=encrypt",
    "aria-192/iterative:ops=decrypt",
    "aria-128/unrolled:k=2",
    # Full pipelines (13 to 17 units, each with a key step's round function): long builds.
    pytest.param("aria-128/pipelined", marks=pytest.mark.slow),
    pytest.param("aria-256/pipelined:keys=stored", marks=pytest.mark.slow),
    pytest.param("aria/unrolled:k=3", marks=pytest.mark.slow),
    # A ring of two units with the loaded key state registered (docs/ciphers/aria.md): 46 s.
    pytest.param("aria-192/pipelined:stages=2,load=registered", marks=pytest.mark.slow),
])
def test_other_architectures(design: str) -> None:
    counts = _verified(design, 200)
    # A one-direction core runs the random blocks of its direction only.
    random = [n for name, n in counts.items() if name.startswith("random-vs-model")]
    assert counts["rfc5794"] >= 1 and random and random[0] >= 50


def test_key_state_and_round_key_widths() -> None:
    hw = AriaHardware(CoreOptions(key_sizes=(128, 192, 256)))
    assert (hw.key_state_bits, hw.round_key_bits) == (4 * 128 + 10, 130)
    assert [hw.rounds(k) for k in (128, 192, 256)] == [13, 15, 17]

"""Differential testing of the hardware against independent oracles (issue 8, item 2).

Each core runs random blocks under random keys (a new key every few blocks, key sizes in turn,
directions mixed at random where the core has both) and its outputs are compared with another
implementation of the cipher (tests/oracles/blocks.py: cryptography, pycryptodome, Botan,
Crypto++), not with cipherbench's models.

- The short run (every test run): ``--differential-blocks`` blocks (default 150) through one or two
  cores per cipher, the ones other tests build anyway, so the run adds simulations, not builds.
- The long run (opt-in): ``pytest tests/test_differential.py --runslow --differential-blocks
  100000`` also runs every architecture of every cipher (default parameters), each design building
  its core first. The figures of a long run are in BENCHMARKS.md.
"""

from __future__ import annotations

import pytest
from oracles.blocks import Row, oracle_or_skip

from cipherbench.arch.registry import ARCHITECTURES, offered
from cipherbench.cache import ensure_design
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.generated import build_core
from cipherbench.ciphers.registry import ciphers
from cipherbench.spec import DesignSpec, parse
from cipherbench.verify import check
from cipherbench.verify.check import check_cases
from cipherbench.verify.sim import Simulator

# Cores other tests build: the short run's designs (at least one per cipher, every architecture
# family among them).
SHORT = [
    "aes/iterative", "aes/pipelined:stages=5", "aes-128/unrolled:k=2", "aes-128/narrow:width=8",
    "serpent/iterative", "serpent-128/narrow:width=16",
    "twofish/iterative", "twofish/narrow:width=32",
    "rc6-128/iterative", "mars-128/iterative",
    "des/iterative", "des/pipelined", "tdea/iterative",
    "camellia/iterative", "seed/iterative", "misty1/iterative", "misty1/narrow",
    "cast128/narrow", "cast128/pipelined", "aes-128/masked",
]
# Every other cipher with hardware by its iterative core (or its first architecture), so that a
# cipher added by its folder alone is in the short run without this list naming it.
SHORT += [f"{name}/{(info.architectures or ('iterative',))[0]}"
          for name, info in sorted(ciphers().items())
          if info.hardware is not None and name not in {parse(d).cipher for d in SHORT}]
KEY_CHANGE_EVERY = 5
SEED = 18033


def every_architecture() -> list[str]:
    """Every cipher on every architecture it offers, default parameters (the long run)."""
    designs = []
    for name, info in sorted(ciphers().items()):
        if info.hardware is None:
            continue
        for arch in ARCHITECTURES.values():
            if offered(info, arch):
                designs.append(f"{name}/{arch.name}")
    return designs


LONG = [d for d in every_architecture() if d not in SHORT]


def random_rows(spec: DesignSpec, blocks: int, block_bytes: int) -> list[Row]:
    """``blocks`` rows: a new random key every KEY_CHANGE_EVERY (the core's key sizes in turn),
    random blocks, directions at random among those the core has."""
    ops = spec.param_dict.get("ops", "both")
    directions = {"encrypt": [False], "decrypt": [True]}.get(ops, [False, True])
    return check.random_rows(spec.key_sizes, block_bytes, blocks, f"{SEED}-{spec}",
                             KEY_CHANGE_EVERY, directions)


def run_against_oracle(design: str, blocks: int) -> tuple[str, int]:
    """(oracle name, blocks passed); fails with the first mismatches."""
    spec = parse(design)
    info = ciphers()[spec.cipher]
    name, answer = oracle_or_skip(spec.cipher)
    rows = random_rows(spec, blocks, info.block_bits // 8)
    expected = answer(rows)
    assert len(expected) == len(rows)
    sim = Simulator(ensure_design(spec))
    sim.build()
    cases = [(key, block, want, decrypt) for (key, block, decrypt), want in zip(rows, expected)]
    result = check_cases(sim, cases)
    assert result.failed == 0, f"{design} against {name}: {list(result.first_failures)}"
    return name, result.passed


@pytest.fixture
def blocks(request: pytest.FixtureRequest) -> int:
    return int(request.config.getoption("--differential-blocks"))


@pytest.mark.parametrize("design", SHORT)
def test_cores_agree_with_an_independent_oracle(design: str, blocks: int) -> None:
    _, passed = run_against_oracle(design, blocks)
    assert passed == blocks


@pytest.mark.slow
@pytest.mark.parametrize("design", LONG)
def test_every_architecture_agrees_with_an_independent_oracle(design: str, blocks: int) -> None:
    try:
        build_core(parse(design))
    except CipherbenchError:
        # A generator that takes fewer key sizes (AES narrow: 128 only): its largest one.
        cipher, arch = design.split("/")
        sizes = ciphers()[cipher].key_sizes
        design = next(d for d in (f"{cipher}-{k}/{arch}" for k in sorted(sizes, reverse=True))
                      if _builds(d))
    _, passed = run_against_oracle(design, blocks)
    assert passed == blocks


def _builds(design: str) -> bool:
    try:
        build_core(parse(design))
    except CipherbenchError:
        return False
    return True


def test_the_short_run_covers_every_cipher_with_hardware() -> None:
    covered = {parse(d).cipher for d in SHORT}
    assert covered == {n for n, info in ciphers().items() if info.hardware is not None}
    # and every architecture family
    assert {parse(d).arch for d in SHORT} == set(ARCHITECTURES)


def test_rows_change_keys_and_mix_directions() -> None:
    rows = random_rows(parse("aes/iterative"), 60, 16)
    assert len({key for key, _, _ in rows}) == 60 // KEY_CHANGE_EVERY
    assert {len(key) for key, _, _ in rows} == {16, 24, 32}
    assert {decrypt for _, _, decrypt in rows} == {False, True}
    encrypt_only = random_rows(parse("aes-128/iterative:ops=encrypt"), 20, 16)
    assert {decrypt for _, _, decrypt in encrypt_only} == {False}

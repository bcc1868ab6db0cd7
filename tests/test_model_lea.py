"""The LEA reference model (ISO/IEC 29192-2, the KISA specification): the specification's three
examples, the key schedule's constants, and random blocks for every key size against Crypto++'s
LEA."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.lea import CIPHER
from cipherbench.ciphers.lea.model import (
    DELTA,
    LEA,
    ROUNDS,
    decrypt_block,
    encrypt_block,
    expand_key,
    schedule_states,
)
from cipherbench.ciphers.lea.vectors import EXAMPLES, known_answers


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e[0])
def test_specification_examples_both_directions(example) -> None:
    _, key, plaintext, ciphertext = example
    assert encrypt_block(key, plaintext) == ciphertext
    assert decrypt_block(key, ciphertext) == plaintext


def test_round_counts_and_key_schedule_shape() -> None:
    for bits, rounds in ROUNDS.items():
        key = bytes(range(bits // 8))
        assert len(expand_key(key)) == rounds == {128: 24, 192: 28, 256: 32}[bits]
        assert all(len(rk) == 6 for rk in expand_key(key))
        assert len(schedule_states(key)) == rounds + 1
    # LEA-128's round key repeats T1 three times.
    rk = expand_key(bytes(16))[0]
    assert rk[1] == rk[3] == rk[5]
    assert len(set(DELTA)) == 8


def test_vector_sets_pass_per_key_size() -> None:
    cipher = LEA()
    for bits in (128, 192, 256):
        sets = dict(CIPHER.vector_sets((bits,)))
        assert len(sets["lea-spec"]) == 2
        for cases in sets.values():
            for case in cases:
                run = cipher.decrypt if case.decrypt else cipher.encrypt
                assert run(case.key, case.data) == case.expected, case.source
    assert len(list(known_answers())) == 3


def test_random_blocks_against_cryptopp() -> None:
    from cipherbench.verify.oracles import OracleUnavailable, cryptopp_oracle

    try:
        oracle = cryptopp_oracle()
    except OracleUnavailable as why:
        pytest.skip(str(why))
    rng = random.Random(29192)
    pairs = [(rng.randbytes(size), rng.randbytes(16)) for size in (16, 24, 32) for _ in range(700)]
    assert oracle.encrypt("lea", pairs) == [encrypt_block(k, b) for k, b in pairs]
    assert oracle.decrypt("lea", pairs) == [decrypt_block(k, b) for k, b in pairs]

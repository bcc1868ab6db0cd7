"""The SM4 reference model (GB/T 32907-2016): Appendix A's examples with the round keys it prints,
the S-box a permutation, the constants CK by their formula, and random blocks against the
independent implementations (pyca cryptography, Crypto++)."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.sm4 import CIPHER
from cipherbench.ciphers.sm4.model import (
    CK,
    SBOX,
    SM4,
    decrypt_block,
    encrypt_block,
    encrypt_trace,
    expand_key,
    key_words,
)
from cipherbench.ciphers.sm4.vectors import EXAMPLES, GBT32907_A1, GBT32907_A2, known_answers


def test_sbox_is_a_permutation_and_ck_follows_its_formula() -> None:
    assert sorted(SBOX) == list(range(256))
    assert CK[0] == 0x00070E15 and CK[1] == 0x1C232A31 and CK[31] == 0x646B7279


def test_appendix_a_single_block_both_directions() -> None:
    example = GBT32907_A1
    assert encrypt_block(example.key, example.plaintext) == example.ciphertext
    assert decrypt_block(example.key, example.ciphertext) == example.plaintext
    keys = expand_key(example.key)
    for index, value in example.round_keys.items():
        assert keys[index] == value, index
    trace = encrypt_trace(example.key, example.plaintext)
    assert len(trace) == 32
    # The reverse transform: the ciphertext is the last state's words in reverse order.
    last = trace[-1]
    assert b"".join(last[i:i + 4] for i in (12, 8, 4, 0)) == example.ciphertext


def test_key_words_run_past_the_last_round_key() -> None:
    # The hardware's key state steps to K_36 (CK_32): the schedule is the same recurrence.
    key = GBT32907_A1.key
    assert key_words(key, 37)[4:36] == expand_key(key)


def _iterate(encrypt, start: bytes, count: int) -> bytes:
    block = start
    for _ in range(count):
        block = encrypt(block)
    return block


def test_appendix_a_million_iterations_on_the_oracle() -> None:
    # The model takes minutes for this (--runslow below); pyca's SM4 takes a second or two,
    # checking the typed answer itself.
    modes = pytest.importorskip("cryptography.hazmat.primitives.ciphers")
    algorithms = pytest.importorskip("cryptography.hazmat.primitives.ciphers.algorithms")
    example = GBT32907_A2
    encryptor = modes.Cipher(algorithms.SM4(example.key), modes.modes.ECB()).encryptor()
    assert _iterate(encryptor.update, example.plaintext, example.iterations) == example.ciphertext


@pytest.mark.slow
def test_appendix_a_million_iterations_on_the_model() -> None:
    example = GBT32907_A2
    assert _iterate(lambda b: encrypt_block(example.key, b), example.plaintext,
                    example.iterations) == example.ciphertext


def test_vector_sets_pass() -> None:
    cipher = SM4()
    sets = dict(CIPHER.vector_sets((128,)))
    assert len(sets["gbt32907"]) == 2 and len(list(known_answers())) == 1
    assert len(EXAMPLES) == 2
    for cases in sets.values():
        for case in cases:
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source
    assert list(CIPHER.vector_sets((192,))) == []


RANDOM_BLOCKS = 2000


def _random_pairs(seed: int) -> list[tuple[bytes, bytes]]:
    rng = random.Random(seed)
    return [(rng.randbytes(16), rng.randbytes(16)) for _ in range(RANDOM_BLOCKS)]


def test_random_blocks_against_cryptography() -> None:
    modes = pytest.importorskip("cryptography.hazmat.primitives.ciphers")
    algorithms = pytest.importorskip("cryptography.hazmat.primitives.ciphers.algorithms")
    for key, block in _random_pairs(32907):
        cipher = modes.Cipher(algorithms.SM4(key), modes.modes.ECB())
        assert cipher.encryptor().update(block) == encrypt_block(key, block)
        assert cipher.decryptor().update(block) == decrypt_block(key, block)


def test_random_blocks_against_cryptopp() -> None:
    from cipherbench.verify.oracles import OracleUnavailable, cryptopp_oracle

    try:
        oracle = cryptopp_oracle()
    except OracleUnavailable as why:
        pytest.skip(str(why))
    pairs = _random_pairs(18033)
    assert oracle.encrypt("sm4", pairs) == [encrypt_block(k, b) for k, b in pairs]
    assert oracle.decrypt("sm4", pairs) == [decrypt_block(k, b) for k, b in pairs]

"""The HIGHT reference model (ISO/IEC 18033-3, Hong et al. CHES 2006): the specification's four
examples, the constants delta, the byte order against Crypto++'s HIGHT on random blocks."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.hight import CIPHER
from cipherbench.ciphers.hight.model import (
    DELTA,
    HIGHT,
    decrypt_block,
    encrypt_block,
    subkeys,
    whitening_keys,
)
from cipherbench.ciphers.hight.vectors import EXAMPLES, known_answers


def test_specification_examples_both_directions() -> None:
    assert len(EXAMPLES) == 4
    for key, plaintext, ciphertext in known_answers():
        assert encrypt_block(key, plaintext) == ciphertext
        assert decrypt_block(key, ciphertext) == plaintext


def test_the_vectors_are_typed_most_significant_byte_first() -> None:
    # The first example as printed: MK_15..MK_0 = 00 11 .. ff, so MK_0 = 0xff is the port's byte 0.
    key, plaintext, ciphertext = next(known_answers())
    assert key[0] == 0xFF and key[15] == 0x00
    assert ciphertext == bytes.fromhex("00f418aed94f03f2")[::-1]


def test_delta_is_the_lfsr_sequence() -> None:
    assert DELTA[0] == 0x5A and DELTA[1] == 0x6D
    assert len(set(DELTA)) == 127 and DELTA[127] == DELTA[0]   # period 127
    mk = bytes(range(16))
    assert whitening_keys(mk) == (12, 13, 14, 15, 0, 1, 2, 3)
    sk = subkeys(mk)
    assert sk[0] == (mk[0] + DELTA[0]) & 0xFF and sk[16] == (mk[7] + DELTA[16]) & 0xFF


def test_vector_sets_pass() -> None:
    cipher = HIGHT()
    sets = dict(CIPHER.vector_sets((128,)))
    assert len(sets["hight-spec"]) == 8
    for cases in sets.values():
        for case in cases:
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source


def test_random_blocks_against_cryptopp() -> None:
    from cipherbench.verify.oracles import OracleUnavailable, cryptopp_oracle

    try:
        oracle = cryptopp_oracle()
    except OracleUnavailable as why:
        pytest.skip(str(why))
    rng = random.Random(18033)
    pairs = [(rng.randbytes(16), rng.randbytes(8)) for _ in range(2000)]
    assert oracle.encrypt("hight", pairs) == [encrypt_block(k, b) for k, b in pairs]
    assert oracle.decrypt("hight", pairs) == [decrypt_block(k, b) for k, b in pairs]
    # And the specification's examples on Crypto++ directly, in the ports' byte order.
    for key, plaintext, ciphertext in known_answers():
        assert oracle.encrypt("hight", [(key, plaintext)]) == [ciphertext]

"""The ARIA reference model (RFC 5794): Appendix A's three examples both ways, the S-boxes and the
diffusion layer's stated properties, the decryption keys, a wrong key length in one line, and
random blocks for every key size against Crypto++'s ARIA."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.aria import CIPHER
from cipherbench.ciphers.aria.model import (
    ARIA,
    C1,
    KEY_CONSTANTS,
    ROUNDS,
    SB1,
    SB2,
    SB3,
    SB4,
    decrypt_block,
    decryption_keys,
    diffuse,
    encrypt_block,
    expand_key,
    key_words,
)
from cipherbench.ciphers.aria.vectors import EXAMPLES, known_answers
from cipherbench.errors import CipherbenchError


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e[0])
def test_rfc_examples_both_directions(example) -> None:
    _, key, plaintext, ciphertext = example
    assert encrypt_block(key, plaintext) == ciphertext
    assert decrypt_block(key, ciphertext) == plaintext


def test_sboxes_and_diffusion_as_the_rfc_states() -> None:
    # Section 2.4.2's examples, and SB3/SB4 the inverses of SB1/SB2.
    assert SB1[0x23] == 0x26 and SB4[0xEF] == 0xD3
    assert all(SB3[SB1[x]] == x and SB4[SB2[x]] == x for x in range(256))
    # Section 2.4.3: A is an involution.
    rng = random.Random(5794)
    for _ in range(50):
        x = rng.getrandbits(128)
        assert diffuse(diffuse(x)) == x


def test_key_schedule_shape() -> None:
    for bits, rounds in ROUNDS.items():
        key = bytes(range(bits // 8))
        assert len(expand_key(key)) == len(decryption_keys(key)) == rounds + 1
        ek, dk = expand_key(key), decryption_keys(key)
        assert dk[0] == ek[-1] and dk[-1] == ek[0] and dk[1] == diffuse(ek[-2])
    # W0 is KL; the constants turn with the key size.
    assert key_words(bytes(range(16)))[0] == int.from_bytes(bytes(range(16)), "big")
    assert KEY_CONSTANTS[128][0] == KEY_CONSTANTS[192][2] == KEY_CONSTANTS[256][1] == C1


def test_wrong_lengths_are_one_line_errors() -> None:
    with pytest.raises(CipherbenchError, match=r"ARIA key must be 16, 24 or 32 bytes .*got 20"):
        encrypt_block(bytes(20), bytes(16))
    with pytest.raises(CipherbenchError, match=r"ARIA block must be 16 bytes"):
        decrypt_block(bytes(16), bytes(15))


def test_random_blocks_invert() -> None:
    cipher = ARIA()
    rng = random.Random(1213)
    for size in (16, 24, 32):
        for _ in range(30):
            key, block = rng.randbytes(size), rng.randbytes(16)
            assert cipher.decrypt(key, cipher.encrypt(key, block)) == block


def test_vector_sets_pass_per_key_size() -> None:
    cipher = ARIA()
    for bits in (128, 192, 256):
        sets = dict(CIPHER.vector_sets((bits,)))
        assert len(sets["rfc5794"]) == 2
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
    rng = random.Random(5794)
    pairs = [(rng.randbytes(size), rng.randbytes(16)) for size in (16, 24, 32) for _ in range(300)]
    assert oracle.encrypt("aria", pairs) == [encrypt_block(k, b) for k, b in pairs]
    assert oracle.decrypt("aria", pairs) == [decrypt_block(k, b) for k, b in pairs]

"""The PRESENT reference model against the CHES 2007 paper: its tables, its key schedule and its
test vectors (Appendix I), and the PRESENT-128 vector of Poschmann's thesis. No independent
implementation is known (docs/ciphers/present.md): these vectors are the oracle."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.present import CIPHER
from cipherbench.ciphers.present.model import (
    INVERSE_PERMUTATION,
    INVERSE_SBOX,
    PERMUTATION,
    ROUNDS,
    SBOX,
    Present,
    decrypt_block,
    encrypt_block,
    encrypt_trace,
    key_downdate,
    key_update,
    p_layer,
    round_keys,
    sbox_layer,
)
from cipherbench.ciphers.present.vectors import KNOWN_ANSWERS, known_answers


def test_sbox_as_printed_in_table_1() -> None:
    assert SBOX[0x0] == 0xC and SBOX[0x7] == 0xD and SBOX[0xF] == 0x2
    assert sorted(SBOX) == list(range(16))
    assert all(INVERSE_SBOX[SBOX[x]] == x for x in range(16))


def test_permutation_as_printed_in_table_2() -> None:
    # Table 2's first row and some of its last: P(1) = 16, P(4) = 1, P(62) = 47, P(63) = 63.
    assert PERMUTATION[:5] == (0, 16, 32, 48, 1)
    assert PERMUTATION[62] == 47 and PERMUTATION[63] == 63
    assert sorted(PERMUTATION) == list(range(64))
    # Bit b of nibble j goes to bit j of quarter b: P(4j + b) = 16b + j.
    assert all(PERMUTATION[4 * j + b] == 16 * b + j for j in range(16) for b in range(4))
    value = random.Random(7).getrandbits(64)
    assert p_layer(p_layer(value), INVERSE_PERMUTATION) == value


def test_round_keys_of_the_80_bit_schedule() -> None:
    keys = round_keys(bytes(10))
    assert len(keys) == ROUNDS + 1
    assert keys[0] == 0
    # After round 1: rotation of zeros, S(0) = C into k79..k76, counter 1 into k19..k15.
    register = (0xC << 76) | (1 << 15)
    assert keys[1] == register >> 16
    assert round_keys(bytes.fromhex("ff" * 10))[0] == (1 << 64) - 1


def test_round_keys_of_the_128_bit_schedule() -> None:
    keys = round_keys(bytes(16))
    assert len(keys) == ROUNDS + 1
    # After round 1: S(0) = C into k127..k124 and k123..k120, counter 1 into k66..k62.
    register = (0xCC << 120) | (1 << 62)
    assert keys[1] == register >> 64


@pytest.mark.parametrize("bits", [80, 128])
def test_the_key_update_is_invertible(bits: int) -> None:
    rng = random.Random(bits)
    for _ in range(200):
        register, counter = rng.getrandbits(bits), rng.randrange(1, ROUNDS + 1)
        assert key_downdate(key_update(register, counter, bits), counter, bits) == register


def test_the_published_vectors_are_typed_in() -> None:
    assert len(KNOWN_ANSWERS) == 5
    assert sum(len(key) == 20 for _, key, _, _ in KNOWN_ANSWERS) == 4
    assert KNOWN_ANSWERS[0][1:] == ("00000000000000000000", "0000000000000000",
                                    "5579c1387b228445")


@pytest.mark.parametrize("answer", list(known_answers()),
                         ids=lambda a: f"{a[0]}-{a[1].hex()}-{a[2].hex()}")
def test_published_vectors_both_directions(answer) -> None:
    _, key, plain, cipher = answer
    assert encrypt_block(key, plain) == cipher
    assert decrypt_block(key, cipher) == plain


def test_trace_ends_with_the_last_key() -> None:
    key, block = bytes(10), bytes(8)
    states = encrypt_trace(key, block)
    keys = round_keys(key)
    assert len(states) == ROUNDS + 1
    assert states[0] == p_layer(sbox_layer(keys[0]))
    assert states[-1] ^ states[-2] == keys[-1]


def test_random_round_trips_for_both_key_sizes() -> None:
    rng = random.Random(2007)
    model = Present()
    for bits in (80, 128):
        for _ in range(200):
            key, block = rng.randbytes(bits // 8), rng.randbytes(8)
            assert model.decrypt(key, model.encrypt(key, block)) == block


def test_registration_declares_no_oracle() -> None:
    # No maintained independent implementation: the trust table must not imply one.
    assert CIPHER.oracle is None
    assert CIPHER.key_sizes == (80, 128) and CIPHER.block_bits == 64

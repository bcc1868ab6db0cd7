"""The GIFT-128 reference model against the GIFT paper (CHES 2017) and the designers' three
published test vectors, including their printed round values. No independent implementation is
known (docs/ciphers/gift.md): these vectors are the oracle."""

from __future__ import annotations

import random

import pytest

from cipherbench.ciphers.gift import CIPHER
from cipherbench.ciphers.gift.model import (
    INVERSE_PERMUTATION,
    INVERSE_SBOX,
    PERMUTATION,
    ROUND_CONSTANTS,
    ROUNDS,
    SBOX,
    Gift128,
    decrypt_block,
    encrypt_block,
    encrypt_trace,
    key_update,
    key_update_back,
    lfsr_step,
    lfsr_step_back,
    perm_bits,
)
from cipherbench.ciphers.gift.vectors import INTERMEDIATE, KNOWN_ANSWERS, known_answers


def test_sbox_as_printed() -> None:
    assert SBOX[:4] == (0x1, 0xA, 0x4, 0xC) and SBOX[0xF] == 0xE
    assert sorted(SBOX) == list(range(16))
    assert all(INVERSE_SBOX[SBOX[x]] == x for x in range(16))


def test_permutation_as_printed_in_table_3() -> None:
    # The first entries of GIFT-128's PermBits table: 0 33 66 99 96 1 34 67 ...
    assert PERMUTATION[:8] == (0, 33, 66, 99, 96, 1, 34, 67)
    # A bit keeps its place in the nibble: P(j) = j (mod 4).
    assert all(PERMUTATION[j] % 4 == j % 4 for j in range(128))
    assert sorted(PERMUTATION) == list(range(128))
    value = random.Random(17).getrandbits(128)
    assert perm_bits(perm_bits(value), INVERSE_PERMUTATION) == value


def test_round_constants_are_the_lfsr_sequence() -> None:
    c, generated = 0, []
    for _ in range(ROUNDS):
        c = lfsr_step(c)
        generated.append(c)
    assert tuple(generated) == ROUND_CONSTANTS
    assert all(lfsr_step_back(lfsr_step(x)) == x for x in range(64))


def test_key_update_moves_words_as_specified() -> None:
    key = int("fedcba9876543210fedcba9876543210", 16)
    # The designers' vector 2, round 0's updated key.
    assert key_update(key) == int("1d952103fedcba9876543210fedcba98", 16)
    value = random.Random(2017).getrandbits(128)
    assert key_update_back(key_update(value)) == value


def test_the_designers_vectors_are_typed_in() -> None:
    assert len(KNOWN_ANSWERS) == 3
    assert KNOWN_ANSWERS[0][3] == "cd0bd738388ad3f668b15a36ceb6ff92"


@pytest.mark.parametrize("answer", list(known_answers()), ids=lambda a: a[0])
def test_designers_vectors_both_directions(answer) -> None:
    _, key, plain, cipher = answer
    assert encrypt_block(key, plain) == cipher
    assert decrypt_block(key, cipher) == plain


@pytest.mark.parametrize("row", INTERMEDIATE, ids=lambda r: f"vector{r[0] + 1}-round{r[1]}")
def test_printed_round_values(row) -> None:
    index, rnd, after_sub, after_perm, after_key, updated = row
    _, key, plain, _ = KNOWN_ANSWERS[index]
    states = encrypt_trace(bytes.fromhex(key), bytes.fromhex(plain))
    assert states[3 * rnd:3 * rnd + 3] == [int(after_sub, 16), int(after_perm, 16),
                                           int(after_key, 16)]
    register = int(key, 16)
    for _ in range(rnd + 1):
        register = key_update(register)
    assert register == int(updated, 16)


def test_random_round_trips() -> None:
    rng = random.Random(128)
    model = Gift128()
    for _ in range(200):
        key, block = rng.randbytes(16), rng.randbytes(16)
        assert model.decrypt(key, model.encrypt(key, block)) == block


def test_registration_declares_no_oracle() -> None:
    assert CIPHER.oracle is None
    assert CIPHER.key_sizes == (128,) and CIPHER.block_bits == 128

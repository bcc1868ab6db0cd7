"""The CLEFIA reference model (RFC 6114): the RFC's three examples both ways, the tables against
their constructions, the constants CON against the values the RFC lists, the key schedule's
shape, DoubleSwap, and random blocks: decryption undoes encryption. No independent implementation
is known (ciphers/clefia/__init__.py), so nothing else is compared."""

from __future__ import annotations

import random
import pytest

from cipherbench.ciphers.clefia import CIPHER
from cipherbench.ciphers.clefia.model import (
    CLEFIA,
    CON,
    M0,
    M1,
    ROUNDS,
    S0,
    S1,
    decrypt_block,
    encrypt_block,
    generate_con,
    gf_mul,
    key_schedule,
    s0_from_4bit_sboxes,
    sigma,
    sigma_inverse,
)
from cipherbench.ciphers.clefia.vectors import EXAMPLES, known_answers
from cipherbench.errors import CipherbenchError


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e[0])
def test_rfc_examples_both_directions(example) -> None:
    _, key, plaintext, ciphertext = example
    assert encrypt_block(key, plaintext) == ciphertext
    assert decrypt_block(key, ciphertext) == plaintext


def test_s0_is_its_4bit_construction() -> None:
    assert [s0_from_4bit_sboxes(x) for x in range(256)] == list(S0)


def _differential_uniformity(sbox: tuple[int, ...]) -> int:
    worst = 0
    for dx in range(1, 256):
        counts = [0] * 256
        for x in range(256):
            counts[sbox[x] ^ sbox[x ^ dx]] += 1
        worst = max(worst, max(counts))
    return worst


def _nonlinearity(sbox: tuple[int, ...]) -> int:
    """256/2 minus half the largest Walsh coefficient over every non-zero output mask (a fast
    Walsh-Hadamard transform per mask)."""
    largest = 0
    for mask in range(1, 256):
        spectrum = [-1 if bin(sbox[x] & mask).count("1") % 2 else 1 for x in range(256)]
        span = 1
        while span < 256:
            for start in range(0, 256, 2 * span):
                for i in range(start, start + span):
                    a, b = spectrum[i], spectrum[i + span]
                    spectrum[i], spectrum[i + span] = a + b, a - b
            span *= 2
        largest = max(largest, max(abs(v) for v in spectrum))
    return 128 - largest // 2


def test_s1_has_the_inversions_properties() -> None:
    # S1 is the inversion in GF(2^8) between affine maps: a permutation with differential
    # uniformity 4 and nonlinearity 112, which a mistyped entry would almost surely break.
    assert sorted(S1) == list(range(256)) and sorted(S0) == list(range(256))
    assert _differential_uniformity(S1) == 4
    assert _nonlinearity(S1) == 112


def test_diffusion_matrices_are_involutions() -> None:
    # M0 and M1 are Hadamard-type: each is its own inverse over GF(2^8).
    for matrix in (M0, M1):
        for row in range(4):
            for col in range(4):
                entry = 0
                for k in range(4):
                    entry ^= gf_mul(matrix[row][k], matrix[k][col])
                assert entry == int(row == col)


# Values as RFC 6114 lists them: the first and last four of each table and a few between.
LISTED_CON = {
    128: {0: 0xF56B7AEB, 1: 0x994A8A42, 2: 0x96A4BD75, 3: 0xFA854521, 24: 0x7C6F68E2,
          25: 0x104E8ECB, 56: 0x50B63150, 57: 0x3C9757E7, 58: 0x1052B098, 59: 0x7C73B3A7},
    192: {0: 0xC6D61D91, 1: 0xAAF73771, 2: 0x5B6226F8, 3: 0x374383EC, 80: 0x0CB0895C,
          81: 0x609151BB, 82: 0x3E51EC9E, 83: 0x5270B089},
    256: {0: 0x0221947E, 1: 0x6E00C0B5, 2: 0xED014A3F, 3: 0x8120E05A, 16: 0x094082BC,
          17: 0x6561A1BE, 18: 0x3CA9E96E, 19: 0x5088488B},
}


def test_constants_follow_the_procedure_and_match_the_listed_values() -> None:
    for bits, listed in LISTED_CON.items():
        assert len(CON[bits]) == {128: 60, 192: 84, 256: 92}[bits]
        for index, value in listed.items():
            assert CON[bits][index] == value, (bits, index)
        # The recurrence continues past the table (the hardware never needs it: docs).
        assert generate_con(bits, len(CON[bits]) + 2)[:len(CON[bits])] == CON[bits]


def test_key_schedule_shape() -> None:
    for bits, rounds in ROUNDS.items():
        ks = key_schedule(bytes(range(bits // 8)))
        assert len(ks.rk) == 2 * rounds and len(ks.wk) == 4
        assert len(ks.l) == (4 if bits == 128 else 8)
    # 128-bit keys: WK is the key itself.
    key = bytes(range(16))
    assert key_schedule(key).wk == tuple(int.from_bytes(key[i:i + 4], "big")
                                         for i in range(0, 16, 4))


def test_doubleswap_is_a_bit_permutation() -> None:
    rng = random.Random(6114)
    for bit in range(128):
        moved = sigma(1 << bit)
        assert bin(moved).count("1") == 1 and sigma_inverse(moved) == 1 << bit
    for _ in range(100):
        x = rng.getrandbits(128)
        assert sigma_inverse(sigma(x)) == x


def test_vector_sets_pass_per_key_size() -> None:
    cipher = CLEFIA()
    for bits in (128, 192, 256):
        sets = dict(CIPHER.vector_sets((bits,)))
        assert len(sets["rfc6114"]) == 2
        for cases in sets.values():
            for case in cases:
                run = cipher.decrypt if case.decrypt else cipher.encrypt
                assert run(case.key, case.data) == case.expected, case.source
    assert len(list(known_answers())) == 3


def test_random_blocks_decryption_undoes_encryption() -> None:
    rng = random.Random(29192)
    for size in (16, 24, 32):
        for _ in range(200):
            key, block = rng.randbytes(size), rng.randbytes(16)
            assert decrypt_block(key, encrypt_block(key, block)) == block


@pytest.mark.parametrize("length", [0, 8, 15, 17, 20, 33])
def test_wrong_key_length_is_a_one_line_error(length: int) -> None:
    with pytest.raises(CipherbenchError) as error:
        encrypt_block(bytes(length), bytes(16))
    message = str(error.value)
    assert "\n" not in message
    assert message == (f"CLEFIA key must be 16, 24 or 32 bytes (128/192/256 bits), got {length} "
                       "bytes")


def test_no_independent_oracle_is_declared() -> None:
    from cipherbench.verify.oracles import OracleUnavailable, oracle_for

    assert CIPHER.oracle is None
    with pytest.raises(OracleUnavailable, match="no independent implementation of clefia"):
        oracle_for("clefia")

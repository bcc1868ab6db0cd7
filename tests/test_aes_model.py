"""The AES reference model against FIPS-197, the NIST AESAVS files and independent implementations."""

from __future__ import annotations

import random
import struct
from collections.abc import Callable

import pytest

from cipherbench.ciphers.aes.model import (
    AES,
    INV_SBOX,
    SBOX,
    computed_inv_sbox,
    computed_sbox,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    gf_inverse,
    gf_mul,
    key_words,
    rounds,
)
from cipherbench.ciphers.aes.vectors import EXAMPLES, FIPS197_B, FIPS197_C1, KEY_EXPANSIONS, known_answers
from cipherbench.ciphers.base import CipherModel
from cipherbench.errors import CipherbenchError
from cipherbench.ciphers.aes.vectors import AESAVS_FAMILIES, aesavs_files
from cipherbench.verify.vectors import read_rsp

# --- S-boxes and field arithmetic ---------------------------------------------------------------------


def test_typed_sboxes_match_the_field_definition() -> None:
    assert SBOX == computed_sbox()
    assert INV_SBOX == computed_inv_sbox()


def test_sboxes_are_inverse_permutations() -> None:
    assert len(SBOX) == len(INV_SBOX) == 256
    assert sorted(SBOX) == list(range(256))
    assert all(INV_SBOX[SBOX[x]] == x for x in range(256))


def test_sbox_entries_quoted_in_fips197() -> None:
    # Section 5.1.1: S({53}) = {ed}; Figure 7 corners; Figure 14 first entry.
    assert SBOX[0x53] == 0xED
    assert (SBOX[0x00], SBOX[0xFF]) == (0x63, 0x16)
    assert (INV_SBOX[0x00], INV_SBOX[0xED]) == (0x52, 0x53)


def test_field_multiplication_examples_from_fips197() -> None:
    assert gf_mul(0x57, 0x83) == 0xC1  # section 4.2
    assert gf_mul(0x57, 0x13) == 0xFE  # section 4.2.1
    assert gf_mul(0x57, 0x02) == 0xAE
    assert gf_inverse(0x00) == 0x00
    assert all(gf_mul(x, gf_inverse(x)) == 1 for x in range(1, 256))


# --- key schedule -------------------------------------------------------------------------------------


def test_rounds_per_key_size() -> None:
    assert [rounds(bits) for bits in (128, 192, 256)] == [10, 12, 14]


@pytest.mark.parametrize("bits", [0, 64, 160, 512])
def test_rounds_rejects_other_sizes(bits: int) -> None:
    with pytest.raises(CipherbenchError, match="128, 192 or 256"):
        rounds(bits)


@pytest.mark.parametrize("example", KEY_EXPANSIONS, ids=lambda e: e.name)
def test_key_expansion_matches_appendix_a(example) -> None:
    words = key_words(example.key)
    nr = rounds(len(example.key) * 8)
    assert len(words) == 4 * (nr + 1)
    assert words[: len(example.key) // 4] == list(struct.unpack(f">{len(example.key) // 4}I", example.key))
    for index, word in example.words:
        assert words[index] == word, f"w[{index}]"


@pytest.mark.parametrize("example", KEY_EXPANSIONS, ids=lambda e: e.name)
def test_round_keys_are_the_expanded_words_in_groups_of_four(example) -> None:
    round_keys = expand_key(example.key)
    words = key_words(example.key)
    assert len(round_keys) == rounds(len(example.key) * 8) + 1
    assert all(len(k) == 16 for k in round_keys)
    assert b"".join(round_keys) == struct.pack(f">{len(words)}I", *words)
    assert round_keys[0] == example.key[:16]


def test_fips197_a1_last_round_key() -> None:
    assert expand_key(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"))[10].hex() == (
        "d014f9a8c9ee2589e13f0cc8b6630ca6"
    )


# --- FIPS-197 examples --------------------------------------------------------------------------------


def test_known_answers_are_appendix_b_and_c() -> None:
    answers = list(known_answers())
    assert [len(key) for key, _, _ in answers] == [16, 16, 24, 32]
    assert answers[0] == (
        bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"),
        bytes.fromhex("3243f6a8885a308d313198a2e0370734"),
        bytes.fromhex("3925841d02dc09fbdc118597196a0b32"),
    )
    assert [ct.hex() for _, _, ct in answers[1:]] == [
        "69c4e0d86a7b0430d8cdb78070b4c55a",
        "dda97ca4864cdfe06eaf70a0ec0d7191",
        "8ea2b7ca516745bfeafc49904b496089",
    ]


@pytest.mark.parametrize("key, plaintext, ciphertext", list(known_answers()))
def test_fips197_examples_both_directions(key: bytes, plaintext: bytes, ciphertext: bytes) -> None:
    assert encrypt_block(key, plaintext) == ciphertext
    assert decrypt_block(key, ciphertext) == plaintext


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_encrypt_trace_matches_the_round_states(example) -> None:
    states = encrypt_trace(example.key, example.plaintext)
    assert len(states) == rounds(len(example.key) * 8) + 1
    assert tuple(states) == example.round_states
    assert states[-1] == example.ciphertext


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.inverse_round_states], ids=lambda e: e.name)
def test_decrypt_trace_matches_the_inverse_round_states(example) -> None:
    states = decrypt_trace(example.key, example.ciphertext)
    assert tuple(states) == example.inverse_round_states
    assert states[-1] == example.plaintext


def test_trace_starts_with_the_initial_add_round_key() -> None:
    first = encrypt_trace(FIPS197_C1.key, FIPS197_C1.plaintext)[0]
    assert first == bytes(p ^ k for p, k in zip(FIPS197_C1.plaintext, FIPS197_C1.key))
    assert first.hex() == "00102030405060708090a0b0c0d0e0f0"


# --- API and errors -----------------------------------------------------------------------------------


def test_aes_class_is_a_cipher_model() -> None:
    cipher: CipherModel = AES()
    assert (cipher.name, cipher.block_bits, cipher.key_sizes) == ("aes", 128, (128, 192, 256))
    assert cipher.encrypt(FIPS197_B.key, FIPS197_B.plaintext) == FIPS197_B.ciphertext
    assert cipher.decrypt(FIPS197_B.key, FIPS197_B.ciphertext) == FIPS197_B.plaintext


def test_bytes_like_inputs_are_accepted() -> None:
    key, block = bytearray(FIPS197_C1.key), memoryview(FIPS197_C1.plaintext)
    assert encrypt_block(key, block) == FIPS197_C1.ciphertext  # type: ignore[arg-type]


@pytest.mark.parametrize("function", [expand_key, key_words])
def test_key_schedule_rejects_wrong_key_length(function: Callable) -> None:
    with pytest.raises(CipherbenchError, match="16, 24 or 32 bytes"):
        function(bytes(10))


# --- NIST AESAVS known-answer and multi-block files ----------------------------------------------------

# Cases per direction in each AESAVS ECB file (MMT: 10 messages of 1..10 blocks = 55 blocks).
AESAVS_CASES_PER_DIRECTION = {
    ("GFSbox", 128): 7, ("GFSbox", 192): 6, ("GFSbox", 256): 5,
    ("KeySbox", 128): 21, ("KeySbox", 192): 24, ("KeySbox", 256): 16,
    ("VarKey", 128): 128, ("VarKey", 192): 192, ("VarKey", 256): 256,
    ("VarTxt", 128): 128, ("VarTxt", 192): 128, ("VarTxt", 256): 128,
    ("MMT", 128): 55, ("MMT", 192): 55, ("MMT", 256): 55,
}  # fmt: skip


@pytest.mark.parametrize("key_bits", [128, 192, 256])
@pytest.mark.parametrize("family", AESAVS_FAMILIES)
def test_aesavs_file(family: str, key_bits: int) -> None:
    files = {path.name: path for path in aesavs_files(key_bits)}
    name = f"ECB{family}{key_bits}.rsp"
    if name not in files:
        pytest.skip(f"{name}: neither cryptography_vectors nor the shared kat/aes folder is present")
    cases = read_rsp(files[name])
    expected_per_direction = AESAVS_CASES_PER_DIRECTION[(family, key_bits)]
    assert sum(not c.decrypt for c in cases) == expected_per_direction
    assert sum(c.decrypt for c in cases) == expected_per_direction
    for case in cases:
        assert len(case.key) * 8 == key_bits, case.source
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


# --- random blocks against independent implementations ------------------------------------------------

RANDOM_BLOCKS = 10_000
RANDOM_SEED = 197


@pytest.fixture(scope="module")
def random_results() -> list[tuple[bytes, bytes, bytes, bytes]]:
    """(key, block, model encryption, model decryption) for mixed key sizes; the block is decrypted as is."""
    rng = random.Random(RANDOM_SEED)
    results = []
    for _ in range(RANDOM_BLOCKS):
        key = rng.randbytes(rng.choice((16, 24, 32)))
        block = rng.randbytes(16)
        results.append((key, block, encrypt_block(key, block), decrypt_block(key, block)))
    return results


def test_random_blocks_cover_every_key_size(random_results) -> None:
    sizes = {len(key) for key, _, _, _ in random_results}
    assert sizes == {16, 24, 32}


def test_random_blocks_against_cryptography(random_results) -> None:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    for key, block, encrypted, decrypted in random_results:
        cipher = Cipher(algorithms.AES(key), modes.ECB())
        assert encrypted == cipher.encryptor().update(block), (key.hex(), block.hex())
        assert decrypted == cipher.decryptor().update(block), (key.hex(), block.hex())


def test_random_blocks_against_pycryptodome(random_results) -> None:
    crypto_aes = pytest.importorskip("Crypto.Cipher.AES", reason="pycryptodome is not installed")
    for key, block, encrypted, decrypted in random_results:
        cipher = crypto_aes.new(key, crypto_aes.MODE_ECB)
        assert encrypted == cipher.encrypt(block), (key.hex(), block.hex())
        assert decrypted == cipher.decrypt(block), (key.hex(), block.hex())


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(200):
        key, block = rng.randbytes(rng.choice((16, 24, 32))), rng.randbytes(16)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block


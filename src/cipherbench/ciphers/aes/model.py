"""Bit-exact AES reference model (FIPS-197): AES-128, AES-192 and AES-256, encryption and decryption.

Bytes in, bytes out, in the standard's byte order (byte 0 of the block is the first hex pair of FIPS-197's
strings). Pure Python, fast enough to check tens of thousands of blocks per test: each round works on four
32-bit column words through precomputed "T-tables" (SubBytes, ShiftRows and MixColumns merged into one
lookup per byte), and decryption uses the Equivalent Inverse Cipher (FIPS-197 section 5.3.5), whose
states after each round are the same as those of the straightforward Inverse Cipher (5.3).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

from cipherbench.errors import CipherbenchError

from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)

# FIPS-197 Figure 7, row x = high nibble, column y = low nibble.
SBOX: tuple[int, ...] = (
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
)

# FIPS-197 Figure 14.
INV_SBOX: tuple[int, ...] = (
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
    0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87, 0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
    0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
    0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16, 0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
    0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
    0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02, 0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
    0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
    0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89, 0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
    0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
    0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d, 0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
    0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d,
)

# x^8 + x^4 + x^3 + x + 1, the field polynomial of FIPS-197 section 4.2.
_FIELD_POLYNOMIAL = 0x11B
_AFFINE_CONSTANT = 0x63


# --- GF(2^8) arithmetic: used to build the tables and to re-derive the S-boxes in tests ---------------


def gf_mul(a: int, b: int) -> int:
    """Multiply two bytes as elements of GF(2^8) modulo the AES polynomial."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        if a & 0x100:
            a ^= _FIELD_POLYNOMIAL
        b >>= 1
    return product


def gf_inverse(a: int) -> int:
    """Multiplicative inverse in GF(2^8); 0 maps to 0 as FIPS-197 section 5.1.1 specifies."""
    # a^254 = a^-1 because the multiplicative group has order 255; square-and-multiply keeps it short.
    result, base, exponent = 1, a, 254
    while exponent:
        if exponent & 1:
            result = gf_mul(result, base)
        base = gf_mul(base, base)
        exponent >>= 1
    return result if a else 0


def _affine(byte: int) -> int:
    """The affine transformation of FIPS-197 equation 5.1 (bit i = b_i ^ b_i+4 ^ ... ^ b_i+7 ^ c_i)."""
    rotated = byte
    result = byte
    for _ in range(4):
        rotated = ((rotated << 1) | (rotated >> 7)) & 0xFF
        result ^= rotated
    return result ^ _AFFINE_CONSTANT


def computed_sbox() -> tuple[int, ...]:
    """The S-box derived from its definition (inverse, then affine map) rather than typed in."""
    return tuple(_affine(gf_inverse(x)) for x in range(256))


def computed_inv_sbox() -> tuple[int, ...]:
    """The inverse S-box, by inverting the derived S-box permutation."""
    forward = computed_sbox()
    inverse = [0] * 256
    for x, y in enumerate(forward):
        inverse[y] = x
    return tuple(inverse)


# --- T-tables -------------------------------------------------------------------------------------------


def _word(b0: int, b1: int, b2: int, b3: int) -> int:
    """Four bytes of a column (row 0 first) as one big-endian 32-bit word."""
    return (b0 << 24) | (b1 << 16) | (b2 << 8) | b3


def _rotate_right_byte(word: int) -> int:
    return ((word >> 8) | (word << 24)) & 0xFFFFFFFF


def _rotations(table: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The table for row 0 and its byte rotations for rows 1, 2 and 3 of the input column."""
    tables = [table]
    for _ in range(3):
        tables.append(tuple(_rotate_right_byte(w) for w in tables[-1]))
    return tuple(tables)


def _encrypt_tables() -> tuple[tuple[int, ...], ...]:
    # Column (2, 1, 1, 3) of the MixColumns matrix times S(x): the contribution of a row-0 byte.
    table = tuple(_word(gf_mul(s, 2), s, s, gf_mul(s, 3)) for s in SBOX)
    return _rotations(table)


def _decrypt_tables() -> tuple[tuple[int, ...], ...]:
    # Column (e, 9, d, b) of the InvMixColumns matrix times S^-1(x).
    table = tuple(_word(gf_mul(s, 14), gf_mul(s, 9), gf_mul(s, 13), gf_mul(s, 11)) for s in INV_SBOX)
    return _rotations(table)


@dataclass(frozen=True)
class _Direction:
    """What differs between the Cipher and the Equivalent Inverse Cipher: tables and ShiftRows direction."""

    tables: tuple[tuple[int, ...], ...]
    final_box: tuple[int, ...]
    # Column j of the output takes row r from input column (j + shifts[r]) mod 4.
    shifts: tuple[int, int, int, int]


_ENCRYPT = _Direction(_encrypt_tables(), SBOX, (0, 1, 2, 3))
_DECRYPT = _Direction(_decrypt_tables(), INV_SBOX, (0, 3, 2, 1))


# --- key schedule ---------------------------------------------------------------------------------------


def _round_constants(count: int) -> tuple[int, ...]:
    """Rcon[i] = x^(i-1) in GF(2^8); index 0 is unused so that Rcon[i // Nk] reads as in FIPS-197."""
    constants = [0, 1]
    while len(constants) <= count:
        constants.append(gf_mul(constants[-1], 2))
    return tuple(constants)


_RCON = _round_constants(10)


def rounds(key_bits: int) -> int:
    """Nr for a key size in bits: 10, 12 or 14."""
    if key_bits not in KEY_SIZES:
        raise CipherbenchError(f"AES key size must be 128, 192 or 256 bits, got {key_bits}")
    return key_bits // 32 + 6


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "AES", "key", (16, 24, 32))


def _checked_block(block: bytes) -> bytes:
    return checked_bytes(block, "AES", "block", (BLOCK_BYTES,))


def _sub_word(word: int) -> int:
    return _word(SBOX[word >> 24], SBOX[(word >> 16) & 0xFF], SBOX[(word >> 8) & 0xFF], SBOX[word & 0xFF])


def _rot_word(word: int) -> int:
    return ((word << 8) | (word >> 24)) & 0xFFFFFFFF


def _expanded_words(key: bytes) -> tuple[int, ...]:
    """KeyExpansion of FIPS-197 section 5.2 (Figure 11) on a checked key."""
    nk = len(key) // 4
    total = 4 * (nk + 6 + 1)
    words = list(struct.unpack(f">{nk}I", key))
    for i in range(nk, total):
        temp = words[i - 1]
        if i % nk == 0:
            temp = _sub_word(_rot_word(temp)) ^ (_RCON[i // nk] << 24)
        elif nk > 6 and i % nk == 4:
            temp = _sub_word(temp)
        words.append(words[i - nk] ^ temp)
    return tuple(words)


def _inv_mix_column(word: int) -> int:
    # InvMixColumns alone: the decryption T-tables apply InvSubBytes first, so feed them S(x) to cancel it.
    d0, d1, d2, d3 = _DECRYPT.tables
    return (
        d0[SBOX[word >> 24]]
        ^ d1[SBOX[(word >> 16) & 0xFF]]
        ^ d2[SBOX[(word >> 8) & 0xFF]]
        ^ d3[SBOX[word & 0xFF]]
    )


def _decryption_words(words: tuple[int, ...]) -> tuple[int, ...]:
    """Round keys of the Equivalent Inverse Cipher in the order it uses them (FIPS-197 Figure 15)."""
    nr = len(words) // 4 - 1
    ordered: list[int] = []
    for round_index in range(nr, -1, -1):
        round_key = words[4 * round_index : 4 * round_index + 4]
        if 0 < round_index < nr:
            round_key = tuple(_inv_mix_column(w) for w in round_key)
        ordered.extend(round_key)
    return tuple(ordered)


@lru_cache(maxsize=256)
def _schedules(key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Encryption and decryption round-key words; cached because a key usually serves many blocks."""
    words = _expanded_words(key)
    return words, _decryption_words(words)


def key_words(key: bytes) -> list[int]:
    """The expanded key w[0 .. 4*(Nr+1)-1] of FIPS-197 section 5.2, each word big-endian (w[0] = key[0:4])."""
    return list(_schedules(_checked_key(key))[0])


def expand_key(key: bytes) -> list[bytes]:
    """The Nr+1 round keys, 16 bytes each, round 0 first (round 0 is the first 16 key bytes)."""
    words = key_words(key)
    return [struct.pack(">4I", *words[i : i + 4]) for i in range(0, len(words), 4)]


# --- the rounds -----------------------------------------------------------------------------------------


def _full_round(state: list[int], direction: _Direction, round_key: tuple[int, ...]) -> list[int]:
    t0, t1, t2, t3 = direction.tables
    _, a, b, c = direction.shifts
    return [
        t0[state[j] >> 24]
        ^ t1[(state[(j + a) & 3] >> 16) & 0xFF]
        ^ t2[(state[(j + b) & 3] >> 8) & 0xFF]
        ^ t3[state[(j + c) & 3] & 0xFF]
        ^ round_key[j]
        for j in range(4)
    ]


def _final_round(state: list[int], direction: _Direction, round_key: tuple[int, ...]) -> list[int]:
    # No (Inv)MixColumns in the last round: only the S-box and the row shift, then the key.
    box = direction.final_box
    _, a, b, c = direction.shifts
    return [
        _word(
            box[state[j] >> 24],
            box[(state[(j + a) & 3] >> 16) & 0xFF],
            box[(state[(j + b) & 3] >> 8) & 0xFF],
            box[state[(j + c) & 3] & 0xFF],
        )
        ^ round_key[j]
        for j in range(4)
    ]


def _run(
    round_words: tuple[int, ...], direction: _Direction, block: bytes, trace: list[bytes] | None
) -> bytes:
    """Initial AddRoundKey, Nr-1 full rounds, final round; records each state in trace if given."""
    nr = len(round_words) // 4 - 1
    state = [w ^ k for w, k in zip(struct.unpack(">4I", block), round_words[0:4])]
    if trace is not None:
        trace.append(struct.pack(">4I", *state))
    for r in range(1, nr + 1):
        round_key = round_words[4 * r : 4 * r + 4]
        step = _final_round if r == nr else _full_round
        state = step(state, direction, round_key)
        if trace is not None:
            trace.append(struct.pack(">4I", *state))
    return struct.pack(">4I", *state)


def encrypt_block(key: bytes, block: bytes) -> bytes:
    """AES Cipher (FIPS-197 section 5.1) of one 16-byte block."""
    encrypt_words, _ = _schedules(_checked_key(key))
    return _run(encrypt_words, _ENCRYPT, _checked_block(block), None)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    """AES Inverse Cipher (FIPS-197 section 5.3) of one 16-byte block."""
    _, decrypt_words = _schedules(_checked_key(key))
    return _run(decrypt_words, _DECRYPT, _checked_block(block), None)


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """Nr+1 states: after the initial AddRoundKey, then after each round (the last is the ciphertext).

    These are FIPS-197 Appendix C's round[r].start values for r = 1..Nr, followed by round[Nr].output.
    """
    encrypt_words, _ = _schedules(_checked_key(key))
    states: list[bytes] = []
    _run(encrypt_words, _ENCRYPT, _checked_block(block), states)
    return states


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """Nr+1 states of the Inverse Cipher: after the initial AddRoundKey, then after each round.

    These are Appendix C's round[r].istart values for r = 1..Nr, followed by round[Nr].ioutput.
    """
    _, decrypt_words = _schedules(_checked_key(key))
    states: list[bytes] = []
    _run(decrypt_words, _DECRYPT, _checked_block(block), states)
    return states


class AES:
    """The AES reference as a ``CipherModel``."""

    name: str = "aes"
    block_bits: int = 128
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)

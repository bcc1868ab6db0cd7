"""Bit-exact DES reference model (FIPS 46-3): one 64-bit block under one 64-bit key.

Byte order: bytes in, bytes out exactly as FIPS 46-3 numbers bits, bit 1 being the most significant bit of
byte 0 (so the hex strings of NIST's files and SP 800-67 read directly as bytes). The key is 8 bytes
including the parity bits 8, 16, ..., 64, which the algorithm ignores (they are never checked).

Pure Python, fast enough for tens of thousands of blocks per test: the S-boxes and the permutation P are
merged into eight "SP" tables of 32-bit words (one lookup per S-box per round), the initial and final
permutations and the key schedule's PC-1/PC-2 become byte-indexed OR tables, and key schedules are cached.
"""

from __future__ import annotations

from functools import lru_cache

from ..base import checked_bytes

BLOCK_BYTES = 8
KEY_BYTES = 8
KEY_SIZES = (64,)
ROUNDS = 16

# --- FIPS 46-3 tables (bit numbers count from 1 = most significant bit of the first byte) ---------------

IP: tuple[int, ...] = (
    58, 50, 42, 34, 26, 18, 10, 2,
    60, 52, 44, 36, 28, 20, 12, 4,
    62, 54, 46, 38, 30, 22, 14, 6,
    64, 56, 48, 40, 32, 24, 16, 8,
    57, 49, 41, 33, 25, 17, 9, 1,
    59, 51, 43, 35, 27, 19, 11, 3,
    61, 53, 45, 37, 29, 21, 13, 5,
    63, 55, 47, 39, 31, 23, 15, 7,
)  # fmt: skip

FP: tuple[int, ...] = (  # IP^-1
    40, 8, 48, 16, 56, 24, 64, 32,
    39, 7, 47, 15, 55, 23, 63, 31,
    38, 6, 46, 14, 54, 22, 62, 30,
    37, 5, 45, 13, 53, 21, 61, 29,
    36, 4, 44, 12, 52, 20, 60, 28,
    35, 3, 43, 11, 51, 19, 59, 27,
    34, 2, 42, 10, 50, 18, 58, 26,
    33, 1, 41, 9, 49, 17, 57, 25,
)  # fmt: skip

E: tuple[int, ...] = (
    32, 1, 2, 3, 4, 5,
    4, 5, 6, 7, 8, 9,
    8, 9, 10, 11, 12, 13,
    12, 13, 14, 15, 16, 17,
    16, 17, 18, 19, 20, 21,
    20, 21, 22, 23, 24, 25,
    24, 25, 26, 27, 28, 29,
    28, 29, 30, 31, 32, 1,
)  # fmt: skip

P: tuple[int, ...] = (
    16, 7, 20, 21, 29, 12, 28, 17,
    1, 15, 23, 26, 5, 18, 31, 10,
    2, 8, 24, 14, 32, 27, 3, 9,
    19, 13, 30, 6, 22, 11, 4, 25,
)  # fmt: skip

PC1: tuple[int, ...] = (  # first 28 entries form C0, the last 28 form D0
    57, 49, 41, 33, 25, 17, 9,
    1, 58, 50, 42, 34, 26, 18,
    10, 2, 59, 51, 43, 35, 27,
    19, 11, 3, 60, 52, 44, 36,
    63, 55, 47, 39, 31, 23, 15,
    7, 62, 54, 46, 38, 30, 22,
    14, 6, 61, 53, 45, 37, 29,
    21, 13, 5, 28, 20, 12, 4,
)  # fmt: skip

PC2: tuple[int, ...] = (  # numbers refer to the 56-bit C||D
    14, 17, 11, 24, 1, 5,
    3, 28, 15, 6, 21, 10,
    23, 19, 12, 4, 26, 8,
    16, 7, 27, 20, 13, 2,
    41, 52, 31, 37, 47, 55,
    30, 40, 51, 45, 33, 48,
    44, 49, 39, 56, 34, 53,
    46, 42, 50, 36, 29, 32,
)  # fmt: skip

SHIFTS: tuple[int, ...] = (1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1)

# S1..S8, each 4 rows of 16: row = outer bits (first and sixth), column = middle four bits.
SBOXES: tuple[tuple[int, ...], ...] = (
    (14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
     0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
     4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
     15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13),
    (15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
     3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
     0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
     13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9),
    (10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
     13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
     13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
     1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12),
    (7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
     13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
     10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
     3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14),
    (2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
     14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
     4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
     11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3),
    (12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
     10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
     9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
     4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13),
    (4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
     13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
     1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
     6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12),
    (13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
     1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
     7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
     2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11),
)  # fmt: skip


# --- generic bit permutations ----------------------------------------------------------------------------


def permute(value: int, table: tuple[int, ...], in_bits: int) -> int:
    """Output bit i (from the left, 1-based) is input bit table[i-1]: the standard's notation, bit by bit.

    Slow but literal; used to build the fast tables and to check them in tests.
    """
    out = 0
    for source in table:
        out = (out << 1) | ((value >> (in_bits - source)) & 1)
    return out


def _byte_tables(table: tuple[int, ...], in_bits: int) -> tuple[tuple[int, ...], ...]:
    """One 256-entry table per input byte: OR the entries of all bytes to apply the permutation.

    Works because a bit permutation (or selection, or expansion) is linear over OR of disjoint inputs.
    """
    tables = []
    for byte_index in range(in_bits // 8):
        shift = in_bits - 8 * (byte_index + 1)
        tables.append(tuple(permute(value << shift, table, in_bits) for value in range(256)))
    return tuple(tables)


def _apply(tables: tuple[tuple[int, ...], ...], value: int, in_bits: int) -> int:
    out = 0
    shift = in_bits - 8
    for t in tables:
        out |= t[(value >> shift) & 0xFF]
        shift -= 8
    return out


_IP_TABLES = _byte_tables(IP, 64)
_FP_TABLES = _byte_tables(FP, 64)
_PC1_TABLES = _byte_tables(PC1, 64)
# PC-2 reads 56 bits: pad to 64 on the right so that the byte tables see whole bytes.
_PC2_TABLES = _byte_tables(PC2, 64)


def sbox(index: int, six_bits: int) -> int:
    """S-box S(index+1) of FIPS 46-3 on a 6-bit input b1..b6 (b1 most significant)."""
    row = ((six_bits >> 4) & 2) | (six_bits & 1)
    column = (six_bits >> 1) & 0xF
    return SBOXES[index][16 * row + column]


def _sp_tables() -> tuple[tuple[int, ...], ...]:
    # S-box i writes output bits 4i+1..4i+4 of the 32-bit S layer; P then moves them. Merging both means
    # one lookup gives S-box i's contribution to f(R, K), already permuted.
    tables = []
    for index in range(8):
        shift = 28 - 4 * index
        tables.append(tuple(permute(sbox(index, x) << shift, P, 32) for x in range(64)))
    return tuple(tables)


_SP = _sp_tables()

# --- key schedule ----------------------------------------------------------------------------------------


def _checked(value: bytes, what: str, size: int) -> bytes:
    return checked_bytes(value, "DES", what, (size,))


def _rotate28(value: int, count: int) -> int:
    return ((value << count) | (value >> (28 - count))) & 0xFFFFFFF


def _round_keys(key: int) -> tuple[int, ...]:
    """K1..K16 (48 bits each) of FIPS 46-3 'The key schedule', from the 64-bit key with parity bits."""
    cd = _apply(_PC1_TABLES, key, 64)  # 56 bits: C0 then D0
    c, d = cd >> 28, cd & 0xFFFFFFF
    keys = []
    for shift in SHIFTS:
        c, d = _rotate28(c, shift), _rotate28(d, shift)
        keys.append(_apply(_PC2_TABLES, ((c << 28) | d) << 8, 64))
    return tuple(keys)


def _split6(round_key: int) -> tuple[int, ...]:
    """The eight 6-bit groups of a round key, the first group (S1's) first."""
    return tuple((round_key >> (42 - 6 * i)) & 0x3F for i in range(8))


@lru_cache(maxsize=256)
def _schedule(key: bytes) -> tuple[tuple[int, ...], ...]:
    """Round keys split into 6-bit groups, in encryption order; cached since a key serves many blocks."""
    return tuple(_split6(k) for k in _round_keys(int.from_bytes(key, "big")))


def expand_key(key: bytes) -> list[bytes]:
    """K1..K16 as 6-byte big-endian strings (bit 1 of Kn is the most significant bit of byte 0)."""
    words = _round_keys(int.from_bytes(_checked(key, "key", KEY_BYTES), "big"))
    return [k.to_bytes(6, "big") for k in words]


# --- the cipher function f and the rounds ----------------------------------------------------------------


def feistel(right: int, groups: tuple[int, ...]) -> int:
    """f(R, K) of FIPS 46-3: expansion E, XOR with K, S-boxes, permutation P."""
    # E takes bit groups (32,1..5), (4..9), ..., (28..32,1): rotating R right by one lines up the first seven
    # groups on 4-bit boundaries; the last group is R rotated left by one.
    r = ((right >> 1) | (right << 31)) & 0xFFFFFFFF
    s0, s1, s2, s3, s4, s5, s6, s7 = _SP
    k0, k1, k2, k3, k4, k5, k6, k7 = groups
    return (
        s0[((r >> 26) & 0x3F) ^ k0]
        ^ s1[((r >> 22) & 0x3F) ^ k1]
        ^ s2[((r >> 18) & 0x3F) ^ k2]
        ^ s3[((r >> 14) & 0x3F) ^ k3]
        ^ s4[((r >> 10) & 0x3F) ^ k4]
        ^ s5[((r >> 6) & 0x3F) ^ k5]
        ^ s6[((r >> 2) & 0x3F) ^ k6]
        ^ s7[(((right << 1) | (right >> 31)) & 0x3F) ^ k7]
    )


def crypt_int(schedule: tuple[tuple[int, ...], ...], block: int, decrypt: bool,
              trace: list[int] | None = None) -> int:
    """DES on a 64-bit integer; decryption uses the round keys in reverse order (FIPS 46-3 'Deciphering').

    ``trace`` receives IP(block) = L0||R0, then Ln||Rn after each round n, then the output block.
    """
    state = _apply(_IP_TABLES, block, 64)
    if trace is not None:
        trace.append(state)
    left, right = state >> 32, state & 0xFFFFFFFF
    keys = reversed(schedule) if decrypt else schedule
    for groups in keys:
        left, right = right, left ^ feistel(right, groups)
        if trace is not None:
            trace.append((left << 32) | right)
    # The preoutput block is R16 L16: the last round's halves are swapped back before IP^-1.
    out = _apply(_FP_TABLES, (right << 32) | left, 64)
    if trace is not None:
        trace.append(out)
    return out


def schedule(key: bytes) -> tuple[tuple[int, ...], ...]:
    """The checked, cached key schedule (for callers such as TDEA that run DES on integers)."""
    return _schedule(_checked(key, "key", KEY_BYTES))


def encrypt_block(key: bytes, block: bytes) -> bytes:
    data = int.from_bytes(_checked(block, "block", BLOCK_BYTES), "big")
    return crypt_int(schedule(key), data, False).to_bytes(8, "big")


def decrypt_block(key: bytes, block: bytes) -> bytes:
    data = int.from_bytes(_checked(block, "block", BLOCK_BYTES), "big")
    return crypt_int(schedule(key), data, True).to_bytes(8, "big")


def trace_labels() -> list[str]:
    """Names of the encrypt_trace/decrypt_trace entries, in order."""
    return ["IP"] + [f"round {n}" for n in range(1, ROUNDS + 1)] + ["output"]


def _trace(key: bytes, block: bytes, decrypt: bool) -> list[bytes]:
    states: list[int] = []
    data = int.from_bytes(_checked(block, "block", BLOCK_BYTES), "big")
    crypt_int(schedule(key), data, decrypt, states)
    return [s.to_bytes(8, "big") for s in states]


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """18 states: L0||R0 after IP, Ln||Rn after each of the 16 rounds, then the ciphertext (after IP^-1)."""
    return _trace(key, block, False)


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """The same 18 states for deciphering (round n uses K(17-n))."""
    return _trace(key, block, True)


def with_odd_parity(key: bytes) -> bytes:
    """The key with each byte's low bit set so that the byte has odd parity (FIPS 46-3 key convention)."""
    return bytes((b & 0xFE) | (1 - (bin(b >> 1).count("1") & 1)) for b in key)


class DES:
    """The DES reference as a ``CipherModel``."""

    name: str = "des"
    block_bits: int = 64
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
